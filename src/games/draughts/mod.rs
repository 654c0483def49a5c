//! English draughts (checkers): the rules, a bitboard move generator, FEN
//! and PDN, perft, the three-move ballot, an engine with an endgame
//! database, and computer levels. Pure: no terminal, no files, no clock.
//!
//! ```
//! use tallyho::games::Rules;
//! use tallyho::games::draughts::{Setup, notation, perft};
//!
//! let rules = Setup::default();
//! let start = rules.start();
//! let moves = rules.legal_moves(&start);
//! assert_eq!(moves.len(), 7);
//! assert_eq!(moves[0].to_string(), "9-13");
//! assert_eq!(perft(&start, 4, rules).get(), Some(1469));
//! // A move typed as numbers or coordinates: 11-15 is C3 D4.
//! let m = notation::parse_move(&rules, &start, "C3 D4").unwrap();
//! assert_eq!(m.to_string(), "11-15");
//! let pos = rules.play(&start, &m);
//! assert_eq!(rules.notation(&pos), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
//! ```
//!
//! What is where:
//! - [`square`]: the 32 playing squares, PDN numbers on the grid, typed squares;
//! - [`bitboard`], [`movegen`], [`moves`], [`position`]: the board and its moves;
//! - [`rules`]: the `Rules` seam, the capture option, how games end ([`how`]);
//! - [`fen`], [`notation`], [`pdn`]: positions, moves and games as text;
//! - [`perft`], [`ballot`]: move counting and the three-move openings;
//! - [`eval`], [`tt`], [`zobrist`], [`search`], [`endgame`], [`analysis`]: the engine;
//! - [`players`]: the four computer levels.

pub mod analysis;
pub mod ballot;
pub mod bitboard;
pub mod book;
pub mod endgame;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod net;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod players;
pub mod position;
pub mod refusal;
pub mod rules;
pub mod search;
pub mod square;
pub mod tt;
pub mod zobrist;

pub use analysis::{Analysis, analyse};

/// Why a committed data file (the weights, the book) does not read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum DataError {
    /// A line that does not read: its number, from 1, and why.
    #[error("line {line}: {reason}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Something the file must hold and does not.
    #[error("no {0}")]
    Missing(String),
}
pub use endgame::{Endgame, Exact};
pub use fen::FenError;
pub use moves::Move;
pub use notation::MoveError;
pub use pdn::{GameResult, PdnError, PdnGame};
pub use perft::{Count, Perft, perft, perft_each};
pub use players::{Level, Player, table_bits};
pub use position::{Piece, PlacementError, Position, Side};
pub use refusal::Refusal;
pub use rules::{Captures, Setup, Start, how};
pub use search::{Engine, Limits, Report, Score};
pub use square::{PdnSquare, PdnSquareError};
