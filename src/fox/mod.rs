//! Fox and Hounds: the board, the rules, position notation and a game in progress.

mod board;
mod game;
mod notation;
mod position;
pub mod solver;

pub use board::{squares, Board, BoardError, Square, SquareError, MAX_SIDE, MIN_SIDE};
pub use game::{Game, Setup};
pub use notation::NotationError;
pub use position::{
    Ending, Move, MoveList, PickError, PlacementError, Position, Rules, Side, FOX_STEPS,
    HOUND_STEPS,
};
