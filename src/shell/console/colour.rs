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
    /// The one colour decision for the process's own terminal, as it is now.
    pub fn decide(self) -> bool {
        Terminal::detect().colour(self)
    }
}

/// What the process's terminal and environment say: read once, by the
/// command that builds a console (see `Console::terminal`), never by a console.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Terminal {
    /// Standard input is a terminal.
    pub stdin: bool,
    /// Standard output is a terminal.
    pub stdout: bool,
    /// `TERM=dumb`: no colour, no screen control and no line editing.
    pub dumb: bool,
    /// `NO_COLOR` is set and not empty.
    pub no_color: bool,
    /// `CLICOLOR_FORCE` is set, and neither empty nor `0`.
    pub clicolor_force: bool,
}

impl Terminal {
    /// Reads the process's standard streams and environment.
    pub fn detect() -> Terminal {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        Terminal {
            stdin: io::stdin().is_terminal(),
            stdout: io::stdout().is_terminal(),
            dumb: dumb_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            clicolor_force: set("CLICOLOR_FORCE"),
        }
    }

    /// A person is at the terminal when both ends are terminals.
    pub fn interactive(&self) -> bool {
        self.stdin && self.stdout
    }

    /// The one colour decision: the flag, then `NO_COLOR` / `CLICOLOR_FORCE`,
    /// then `TERM=dumb`, then whether stdout is a terminal.
    pub fn colour(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if self.no_color => false,
            ColorChoice::Auto if self.clicolor_force => true,
            ColorChoice::Auto if self.dumb => false,
            ColorChoice::Auto => self.stdout,
        }
    }
}

/// Whether `TERM=dumb` asks for no colour, no screen control and no line editing.
pub fn dumb_terminal() -> bool {
    std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_beats_force_and_a_dumb_terminal_is_plain() {
        let tty = Terminal {
            stdin: true,
            stdout: true,
            ..Terminal::default()
        };
        assert!(tty.interactive() && tty.colour(ColorChoice::Auto));
        let dumb = Terminal { dumb: true, ..tty };
        assert!(!dumb.colour(ColorChoice::Auto) && dumb.colour(ColorChoice::Always));
        let forced = Terminal {
            clicolor_force: true,
            ..Terminal::default()
        };
        assert!(forced.colour(ColorChoice::Auto));
        let both = Terminal {
            no_color: true,
            ..forced
        };
        assert!(!both.colour(ColorChoice::Auto));
        assert!(!Terminal::default().colour(ColorChoice::Auto));
        assert!(!tty.colour(ColorChoice::Never));
    }
}
