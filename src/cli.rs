//! The command line, as clap reads it. Nothing here acts.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::console::ColorChoice;
use crate::games::fox::players::Level;
use crate::games::fox::{Board, Rules, Side};

/// Fox and Hounds at the console, after a 1978 BASIC program and a C school project.
///
/// With no command, plays the default flow: a menu, the players, and a match in
/// which the players swap sides every game.
#[derive(Parser, Debug)]
#[command(name = "tallyho", version, propagate_version = true)]
pub struct Cli {
    /// The game's setup (board, rules, fox start, first mover).
    #[command(flatten)]
    pub game: GameArgs,

    /// How the conversation looks.
    #[command(flatten)]
    pub look: LookArgs,

    /// Where finished games are kept.
    #[command(flatten)]
    pub log: LogArgs,

    /// Who plays, for the default flow.
    #[command(flatten)]
    pub play: PlayArgs,

    /// What to do; without one, play.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The game's setup, for the flows and `analyse`.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Board size WIDTHxHEIGHT: even width 4-8, height 4-8.
    #[arg(long, default_value = "8x8", value_name = "WxH")]
    pub board: Board,

    /// Ending rules: standard, coursework (adds the early escape win) or escape
    /// (the escape win replaces row 1). Default: coursework; standard for classic.
    #[arg(long, value_name = "RULES")]
    pub rules: Option<Rules>,

    /// Where the fox starts: a dark square of the top row, or "choose" to ask the
    /// fox's player. Default: the leftmost dark square of the top row (A8 on 8x8).
    #[arg(long, value_name = "SQUARE|choose")]
    pub fox_start: Option<String>,

    /// Who moves first: fox or hounds. Default: fox; hounds for classic.
    #[arg(long, value_name = "SIDE")]
    pub first: Option<Side>,
}

/// Colour and screen.
#[derive(Args, Debug, Clone)]
pub struct LookArgs {
    /// Colour: auto colours a terminal and honours NO_COLOR and CLICOLOR_FORCE.
    #[arg(long, value_enum, default_value_t, global = true, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Never clear the screen before a board.
    #[arg(long, global = true)]
    pub no_clear: bool,
}

/// The game log.
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    /// The game log file. Default: $TALLYHO_HISTORY, else history.jsonl in the
    /// user's data directory (~/.local/share/tallyho on Linux).
    #[arg(long, global = true, value_name = "FILE")]
    pub history: Option<PathBuf>,

    /// Keep no record of finished games.
    #[arg(long, global = true, conflicts_with = "history")]
    pub no_history: bool,
}

/// Who plays and how many games: options that skip questions, for scripts.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayArgs {
    /// How many human players: 0 watches the computer play itself; skips the menu.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=2), value_name = "N")]
    pub players: Option<u8>,

    /// The players' names, Player 1 (starting as fox) first: --names Ann,Bob.
    /// Against the computer, your name alone.
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub games: Option<u32>,

    /// Seed for the computer players' randomness: the same seed and input give the same session.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// The computer's level: rubbish, classic, cunning or overpowered.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<Level>,

    /// When the computer plays itself: the first game's fox level.
    #[arg(long, value_name = "LEVEL")]
    pub fox_level: Option<Level>,

    /// When the computer plays itself: the first game's hounds level.
    #[arg(long, value_name = "LEVEL")]
    pub hounds_level: Option<Level>,

    /// Against the computer: your side in the first game (fox or hounds).
    #[arg(long, value_name = "SIDE")]
    pub side: Option<Side>,

    /// Pause before each computer move, in milliseconds.
    /// Default: 700 in a terminal, 0 in a script.
    #[arg(long, value_name = "MS")]
    pub delay: Option<u64>,
}

/// The commands besides playing.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The 1978 BASIC program's game: you are the hounds, the computer the fox.
    Classic {
        /// The game's setup.
        #[command(flatten)]
        game: GameArgs,

        /// The fox's level (default classic), games and seed.
        #[command(flatten)]
        play: ClassicArgs,
    },
    /// Solve a position: who wins with best play, the best moves, and counts.
    #[command(alias = "analyze")]
    Analyse {
        /// The board and rules (and the start position's fox square and first mover).
        #[command(flatten)]
        game: GameArgs,

        /// A position such as E8/B1,D1,F1,H1/fox (fox/hounds/side to move).
        /// Default: the start position of the board and rules.
        position: Option<String>,

        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the finished games, oldest first.
    History {
        /// Print the records as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Replay a finished game from the log, move by move.
    Replay {
        /// The game's number, as `tallyho history` lists it.
        number: u64,

        /// Wait for Enter between moves (the default in a terminal).
        #[arg(long)]
        step: bool,
    },
}

/// Options of `tallyho classic`.
#[derive(Args, Debug, Clone, Default)]
pub struct ClassicArgs {
    /// The computer fox's level: rubbish, classic (default), cunning or overpowered.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<Level>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub games: Option<u32>,

    /// Seed for the computer fox's randomness.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}
