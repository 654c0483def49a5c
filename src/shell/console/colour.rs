//! The one colour decision: `--color`, then `NO_COLOR` and
//! `CLICOLOR_FORCE`, then `TERM=dumb`, then whether stdout is a terminal.
//! Made once, by the command that builds a console, never by the console.

use std::io::{self, IsTerminal};

/// How a `--color` choice and the environment decide colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, honouring `NO_COLOR` and `CLICOLOR_FORCE`.
    #[default]
    Auto,
    /// Always colour, even into a pipe.
    Always,
    /// Never colour: the letter board.
    Never,
}

impl ColorChoice {
    /// The one colour decision: the flag, then `NO_COLOR` / `CLICOLOR_FORCE`,
    /// then `TERM=dumb`, then whether stdout is a terminal.
    pub fn decide(self) -> bool {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) => {
                false
            }
            ColorChoice::Auto if set("CLICOLOR_FORCE") => true,
            ColorChoice::Auto if dumb_terminal() => false,
            ColorChoice::Auto => io::stdout().is_terminal(),
        }
    }
}

/// Whether `TERM=dumb` asks for no colour, no screen control and no line editing.
pub fn dumb_terminal() -> bool {
    std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}
