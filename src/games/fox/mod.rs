//! Fox and Hounds: the board, the rules (`Setup`, the `Rules` implementor, in
//! `rules.rs`), position notation, the solvers and the computer players.

mod board;
mod general;
mod notation;
pub mod players;
mod position;
mod refusal;
mod rules;
pub mod solver;

pub use board::{Board, BoardError, MAX_SIDE, MIN_SIDE, Square, SquareError, squares};
pub use notation::NotationError;
pub use position::{
    Ending, FOX_STEPS, HOUND_STEPS, Move, MoveList, PickError, PlacementError, Position, Rules,
    Side,
};
pub use refusal::Refusal;
pub use rules::{FoxStartError, Setup};
