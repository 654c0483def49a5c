//! `tallyho draughts` on the command line: playing, `perft`, `analyse`,
//! and the game log's games written as PDN.

use std::io::{self, Write};

use clap::{Args, Subcommand};

use crate::app::{AppError, Ending};
use crate::cli::{LogArgs, LookArgs, PlayArgs};
use crate::shell::console::Console;
use crate::shell::history::{Log, Record};
use crate::shell::replay::ReplayError;

/// `tallyho draughts`: play, or one of the tools.
#[derive(Args, Debug)]
pub struct DraughtsCommand {
    /// A tool instead of a game.
    #[command(subcommand)]
    pub tool: Option<DraughtsTool>,

    /// Who plays.
    #[command(flatten)]
    pub play: PlayArgs,

    /// How the conversation looks.
    #[command(flatten)]
    pub look: LookArgs,

    /// Where finished games are kept.
    #[command(flatten)]
    pub log: LogArgs,
}

/// The draughts tools.
#[derive(Subcommand, Debug)]
pub enum DraughtsTool {
    /// Count the move sequences to each depth.
    Perft {
        /// The deepest depth.
        depth: u32,
    },
}

/// Runs `tallyho draughts`.
pub fn run(command: DraughtsCommand) -> Result<Ending, AppError> {
    let _ = command;
    Err(AppError::Usage("draughts is not wired in yet".into()))
}

/// Replays a logged draughts game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let _ = (console, record, step);
    Err(ReplayError::Damaged("draughts is not wired in yet".into()))
}

/// `tallyho history --pdn [N]`: the log's draughts games (or game N) as PDN.
pub fn write_pdn(log: &Log, number: Option<u64>, out: &mut dyn Write) -> Result<(), AppError> {
    let _ = (log, number, out);
    Err(AppError::Io(io::Error::other(
        "draughts is not wired in yet",
    )))
}
