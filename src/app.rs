//! From a parsed command line to a running flow: checks what clap could not,
//! builds the console, and says which errors are the user's.

use std::fmt;
use std::io;

use crate::cli::Cli;
use crate::console::Console;
use crate::fox::Setup;
use crate::input;
use crate::session::{self, Options};

/// Why tallyho stopped early.
#[derive(Debug)]
pub enum AppError {
    /// The command line or its input was wrong (exit status 2).
    Usage(String),
    /// Anything else (exit status 1).
    Io(io::Error),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Usage(why) => f.write_str(why),
            AppError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for AppError {
    fn from(e: io::Error) -> AppError {
        AppError::Io(e)
    }
}

/// The setup the command line asks for.
pub fn setup(cli: &Cli) -> Result<Setup, AppError> {
    let args = &cli.game;
    let mut setup = Setup {
        board: args.board,
        rules: args.rules,
        fox_start: Some(args.board.default_fox_start()),
        first: args.first,
    };
    match args.fox_start.as_deref().map(str::trim) {
        None => {}
        Some(choose) if choose.eq_ignore_ascii_case("choose") => setup.fox_start = None,
        Some(text) => {
            let usage = |e: String| AppError::Usage(format!("--fox-start: {e}"));
            let sq = args
                .board
                .parse_square(text)
                .map_err(|e| usage(e.to_string()))?;
            setup.fox_start = Some(setup.check_fox_start(sq).map_err(usage)?);
        }
    }
    Ok(setup)
}

/// Runs what the command line asks for.
pub fn run(cli: Cli) -> Result<(), AppError> {
    let setup = setup(&cli)?;
    let names = match &cli.names {
        None => None,
        Some(text) => {
            let usage = |e: String| AppError::Usage(format!("--names: {e}"));
            let (a, b) = text
                .split_once(',')
                .ok_or_else(|| usage("give two names separated by a comma, like Ann,Bob".into()))?;
            let (a, b) = (
                input::parse_name(a).map_err(usage)?,
                input::parse_name(b).map_err(usage)?,
            );
            if a == b {
                return Err(usage("the two players need different names".into()));
            }
            Some((a, b))
        }
    };
    let colour = cli.color.decide();
    owo_colors::set_override(colour);
    let options = Options {
        setup,
        players: cli.players,
        names,
        games: cli.games,
        seed: cli.seed,
    };
    let mut console = Console::stdio(colour, cli.no_clear);
    match cli.command {
        None => session::play::run(&mut console, &options)?,
        Some(command) => match command {},
    }
    Ok(())
}
