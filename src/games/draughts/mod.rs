//! English draughts (checkers): the rules, a bitboard move generator, FEN
//! and PDN, perft, the three-move ballot, an engine with an endgame
//! database, and computer levels. Pure: no terminal, no files, no clock.
//!
//! ```
//! use tallyho::games::Rules;
//! use tallyho::games::draughts::{Draughts, Position, perft};
//!
//! let rules = Draughts::default();
//! let start = rules.start();
//! let moves = rules.legal_moves(&start);
//! assert_eq!(moves.len(), 7);
//! assert_eq!(moves[0].to_string(), "9-13");
//! assert_eq!(perft(&start, 4, rules), 1469);
//! let pos = rules.play(&start, &rules.find(&start, "11-15").unwrap());
//! assert_eq!(rules.notation(&pos), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
//! ```
//!
//! The board is seen from Black's side (rows 1-3 are Black's); see
//! [`square`] for how PDN numbers sit on the grid. Outcome names are in
//! [`how`].

pub mod ballot;
pub mod bitboard;
pub mod endgame;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod players;
pub mod position;
pub mod rules;
pub mod search;
pub mod square;
pub mod tt;
pub mod zobrist;

pub use fen::FenError;
pub use moves::Move;
pub use perft::{Perft, perft, perft_each};
pub use position::{Piece, PlacementError, Position, Side};
pub use rules::{Captures, Draughts, how};
pub use square::{PdnSquare, PdnSquareError};
