//! Fox and Hounds: the board, the rules, position notation and a game in progress.

mod board;
mod game;
mod general;
mod notation;
pub mod players;
mod position;
pub mod solver;

pub use board::{Board, BoardError, MAX_SIDE, MIN_SIDE, Square, SquareError, squares};
pub use game::Setup;
pub use notation::NotationError;
pub use position::{
    Ending, FOX_STEPS, HOUND_STEPS, Move, MoveList, PickError, PlacementError, Position, Rules,
    Side,
};
