//! The command line, as clap reads it. Nothing here acts.

use clap::{Args, Parser, Subcommand};

use crate::console::ColorChoice;
use crate::fox::{Board, Rules, Side};

/// Fox and Hounds at the console, after a 1978 BASIC program and a C school project.
///
/// With no command, plays the default flow: a menu, two players' names, and a
/// match in which the players swap sides every game.
#[derive(Parser, Debug)]
#[command(name = "tallyho", version, propagate_version = true)]
pub struct Cli {
    /// The game's setup (board, rules, fox start, first mover).
    #[command(flatten)]
    pub game: GameArgs,

    /// Colour: auto colours a terminal and honours NO_COLOR and CLICOLOR_FORCE.
    #[arg(long, value_enum, default_value_t, global = true, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Never clear the screen before a board.
    #[arg(long, global = true)]
    pub no_clear: bool,

    /// How many human players; skips the menu. Only 2 for now.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=2), value_name = "N")]
    pub players: Option<u8>,

    /// The players' names, Player 1 (starting as fox) first: --names Ann,Bob.
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub games: Option<u32>,

    /// Seed for the computer players' randomness (reproducible sessions).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// What to do; without one, play.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The game's setup, shared by every command.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Board size WIDTHxHEIGHT: even width 4-8, height 4-8.
    #[arg(long, default_value = "8x8", global = true, value_name = "WxH")]
    pub board: Board,

    /// Ending rules: standard, coursework (adds the early escape win) or escape (the escape win replaces row 1).
    #[arg(
        long,
        default_value = "coursework",
        global = true,
        value_name = "RULES"
    )]
    pub rules: Rules,

    /// Where the fox starts: a dark square of the top row, or "choose" to ask the fox's player.
    /// Default: the leftmost dark square of the top row (A8 on 8x8).
    #[arg(long, global = true, value_name = "SQUARE|choose")]
    pub fox_start: Option<String>,

    /// Who moves first: fox or hounds.
    #[arg(long, default_value = "fox", global = true, value_name = "SIDE")]
    pub first: Side,
}

/// The commands besides playing.
#[derive(Subcommand, Debug)]
pub enum Command {}
