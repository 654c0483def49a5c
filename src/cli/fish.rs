//! "Hey, That's My Fish!" on the command line: its options and tools.

use clap::{Args, Subcommand, ValueEnum};

/// How the tiles' points are dealt.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tiles {
    /// 1 on the rim, 2 on the next ring, 3 inside: the assignment's board.
    #[default]
    Rings,
    /// Dealt from --seed, as the board game deals them.
    Random,
}

/// The options of a game of fish (`--board` is shared with Fox and Hounds).
#[derive(Args, Debug, Clone, Default)]
pub struct FishArgs {
    /// The tiles' points: rings (1 on the rim, 2 on the next ring, 3 inside,
    /// the assignment's board) or random (dealt from --seed, as the board game
    /// deals them).
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "TILES",
        allow_negative_numbers = true
    )]
    pub tiles: Option<Tiles>,

    /// Penguins each, 1 to 4; they are placed in turn before the first move.
    #[arg(long, global = true, value_name = "N",
          value_parser = super::number::<u32>(1, Some(4)), allow_negative_numbers = true)]
    pub penguins: Option<u32>,
}

/// The fish tools.
#[derive(Subcommand, Debug, Clone)]
pub enum FishTool {
    /// The best move from a position and its value: the final difference of
    /// points with best play (P's minus A's), exact or an estimate.
    #[command(alias = "analyze")]
    Analyse {
        /// The position, in the fish notation:
        /// 111111/122221/123321/123321/122221/111111 place:1/1 next:P;
        /// or - to read positions from standard input, one a line, and write
        /// one JSON object a line.
        position: String,

        /// List every legal move with its value, best first.
        #[arg(long)]
        all: bool,
    },
}

/// Said under `tallyho fish --help`.
pub const AFTER_HELP: &str = "\
Levels (--level): rubbish (random moves), greedy (the assignment's five-year-old: the reachable tile with the most points), cunning (a shallow search), overpowered (a deep search that solves the game exactly once the penguins are cut off from each other or few tiles are left).

Examples:
  tallyho fish                                   the menu
  tallyho fish --players 1 --names Ann --level overpowered
  tallyho fish --board 8x8 --tiles random --penguins 2 --seed 7
  tallyho fish analyse '1.../.22./.2../1..1 P:1,1 A:4,4 next:P'   a 4x4 position";
