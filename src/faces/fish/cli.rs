//! `tallyho fish` on the command line: playing and `analyse`.

use clap::{Args, Subcommand};

use crate::app::{AppError, Ending};
use crate::cli::{LogArgs, LookArgs, PlayArgs};
use crate::shell::console::Console;
use crate::shell::history::Record;
use crate::shell::replay::ReplayError;

/// `tallyho fish`: play, or one of the tools.
#[derive(Args, Debug)]
pub struct FishCommand {
    /// A tool instead of a game.
    #[command(subcommand)]
    pub tool: Option<FishTool>,

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

/// The fish tools.
#[derive(Subcommand, Debug)]
pub enum FishTool {
    /// Judge a position: the best move and its value.
    Analyse {
        /// The position, in the fish notation.
        position: String,
    },
}

/// Runs `tallyho fish`.
pub fn run(command: FishCommand) -> Result<Ending, AppError> {
    let _ = command;
    Err(AppError::Usage("fish is not wired in yet".into()))
}

/// Replays a logged fish game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let _ = (console, record, step);
    Err(ReplayError::Damaged("fish is not wired in yet".into()))
}
