//! Fox and Hounds on the command line: its setup options and its commands.

use clap::{Args, Subcommand};

use tallyho::games::fox::players::Level;
use tallyho::games::fox::{Rules, Side};

/// Fox and Hounds' setup, and the options of its flows.
#[derive(Args, Debug, Clone, Default)]
pub struct FoxArgs {
    /// Ending rules: standard, coursework (adds the early escape win), escape
    /// (the escape win replaces row 1) or capture (the Python project's game:
    /// the fox and the hounds take each other). Default: coursework; standard
    /// for classic.
    #[arg(long, global = true, value_name = "RULES")]
    pub rules: Option<Rules>,

    /// Where the fox starts: a dark square of the top row, or "choose" to ask the
    /// fox's player. Default: the leftmost dark square of the top row on an even
    /// width (A8 on 8x8), the middle one on an odd width (D8 on 7x8).
    #[arg(
        long,
        global = true,
        value_name = "SQUARE|choose",
        allow_negative_numbers = true
    )]
    pub fox_start: Option<String>,

    /// Who moves first: fox or hounds. Default: fox; hounds for classic.
    #[arg(long, global = true, value_name = "SIDE")]
    pub first: Option<Side>,

    /// When the computer plays itself: the first game's fox level.
    #[arg(long, global = true, value_name = "LEVEL")]
    pub fox_level: Option<Level>,

    /// When the computer plays itself: the first game's hounds level.
    #[arg(long, global = true, value_name = "LEVEL")]
    pub hounds_level: Option<Level>,

    /// classic: print as a 1978 teletype would: paper scrolls (no clearing),
    /// no colour or bold, lines of at most 72 columns. Always so when the
    /// output is not a terminal.
    #[arg(long, global = true)]
    pub teletype: bool,

    /// classic: pace the output as a teletype on a line of this speed: 110,
    /// 300 or 1200 baud (a tenth as many characters a second).
    #[arg(long, global = true, value_name = "BAUD", value_parser = ["110", "300", "1200"],
          allow_negative_numbers = true)]
    pub baud: Option<String>,
}

impl FoxArgs {
    /// The levels of a computer playing itself, fox first.
    pub fn watch_levels(&self) -> [Option<Level>; 2] {
        [self.fox_level, self.hounds_level]
    }

    /// The options' names, if either level for watching was given.
    pub fn watch(&self) -> Option<&'static str> {
        (self.fox_level.is_some() || self.hounds_level.is_some())
            .then_some("--fox-level and --hounds-level")
    }
}

/// Fox and Hounds' flows and tools besides the default flow.
#[derive(Subcommand, Debug, Clone)]
pub enum FoxCommand {
    /// The 1978 BASIC program's game: you are the hounds, the computer the fox.
    Classic,
    /// The Python project's game: 7 columns by 8 rows, the fox and the hounds
    /// take each other, numbered hounds; rows then columns from 0.
    Capture,
    /// Solve a Fox and Hounds position: who wins with best play, the best moves, and counts.
    #[command(alias = "analyze")]
    Analyse {
        /// A position such as E8/B1,D1,F1,H1/fox (fox/hounds/side to move; x for a
        /// taken fox), or - to read positions from standard input, one a line, and
        /// write one JSON object a line. Default: the start of the board and rules.
        position: Option<String>,
    },
}
