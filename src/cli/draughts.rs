//! English draughts on the command line: its options and tools.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use tallyho::games::draughts::Captures;

/// The options of a game of draughts.
#[derive(Args, Debug, Clone, Default)]
pub struct DraughtsArgs {
    /// Whether a side that can capture must: compulsory (the laws, the
    /// default) or optional (console checkers' house rule).
    #[arg(long, global = true, value_name = "RULE")]
    pub captures: Option<Captures>,

    /// Start every game from a three-move ballot opening: its number in the
    /// deck, 1-156, or random (drawn with --seed).
    #[arg(
        long,
        global = true,
        value_name = "N|random",
        conflicts_with = "load",
        allow_negative_numbers = true
    )]
    pub opening: Option<String>,

    /// Start every game from a PDN file's unfinished game (result `*`): its
    /// FEN tag (or the usual start), then its moves.
    #[arg(long, global = true, value_name = "FILE")]
    pub load: Option<PathBuf>,

    /// With --load: which game of the file, from 1 (default 1).
    // Not `requires = "load"`: clap waives that whenever --opening, which
    // conflicts with --load, is given; `cli::parse` checks it instead.
    #[arg(long, global = true, value_name = "K",
          value_parser = super::number::<u64>(1, None), allow_negative_numbers = true)]
    pub game: Option<u64>,

    /// Draw the board and the welcome box in plain ASCII. Without it, box
    /// drawing is used, except at a terminal with TERM=dumb or a locale
    /// that is not UTF-8.
    #[arg(long, global = true)]
    pub ascii: bool,

    /// The computer's search threads for play, hints and analyse (default
    /// and most: every core).
    #[arg(long, global = true, value_name = "N",
          value_parser = super::number::<u16>(1, Some(256)), allow_negative_numbers = true)]
    pub threads: Option<u16>,

    /// Draw the board from White's side (row 1 at the top), as it is drawn
    /// anyway when one person plays White against the computer.
    #[arg(long, global = true)]
    pub flip: bool,

    /// For `build-db`: the most pieces (2-6; default 5).
    #[arg(long, global = true, value_name = "N",
          value_parser = super::number::<u32>(2, Some(6)), allow_negative_numbers = true)]
    pub pieces: Option<u32>,

    /// For `engine`: play no moves from the opening book.
    #[arg(long, global = true)]
    pub no_book: bool,
}

/// The draughts tools.
#[derive(Subcommand, Debug, Clone)]
pub enum DraughtsTool {
    /// Count the move sequences to each depth: one line per depth,
    /// perft(D) = N.
    Perft {
        /// The deepest depth (1-40).
        #[arg(value_parser = super::number::<u32>(1, Some(40)), allow_negative_numbers = true)]
        depth: u32,

        /// The position, in FEN (B:W21-32:B1-12). Default: the start.
        #[arg(allow_negative_numbers = true)]
        fen: Option<String>,
    },
    /// The engine's view of a position: the best move, the score, the
    /// expected line, and the exact result where the endgame database
    /// covers it (five pieces or fewer, six once `build-db --pieces 6` has
    /// built that one).
    #[command(alias = "analyze")]
    Analyse {
        /// The position, in FEN: W:W18,24,K10:B12,16,K22.
        #[arg(allow_negative_numbers = true)]
        fen: String,
    },
    /// The engine for other programs: a line protocol on standard input and
    /// output, in the spirit of UCI (position, go, perft, isready, quit;
    /// see the README).
    Engine,
    /// Build the endgame database of up to N pieces into the data
    /// directory, where the engine finds it (five pieces: about two
    /// minutes; six: most of an hour, 3.7 GB on disk and in memory).
    BuildDb,
}

/// Said under `tallyho draughts --help`.
pub const AFTER_HELP: &str = "\
Levels (--level): rubbish (random moves), greedy (takes when it can, the C project's computer), cunning (a shallow search), overpowered (the full engine, within --think, and perfect play with five pieces or fewer: four while that database is first built, a minute or two; six once `tallyho draughts build-db --pieces 6` has built that one).

Examples:
  tallyho draughts                          the welcome, the menu, the names
  tallyho draughts --players 1 --names Ann --level cunning --side white
  tallyho draughts --opening random --players 0 --level overpowered
  tallyho draughts --load game.pdn --game 2 --players 2 --names Ann,Bob
  tallyho draughts perft 8
  tallyho draughts analyse W:W18,24,K10:B12,16,K22 --think 2000";
