//! "Hey, That's My Fish!" after a C course assignment: the board and its
//! tiles, positions and moves, the notation, the rules seam, and later the
//! search and the computer players.

mod board;
mod geometry;
mod node;
mod notation;
pub mod players;
mod position;
mod refusal;
mod regions;
mod rules;
mod search;
mod square;
mod symmetry;
mod table;
mod territory;

pub use board::{Board, BoardError, Deal, MAX_SIDE, MIN_SIDE, Tiles};
pub use notation::NotationError;
pub use position::{Haul, MAX_PENGUINS, Move, Position, PositionError, Side, skipped};
pub use refusal::Refusal;
pub use rules::{Setup, SetupError};
pub use search::{Analysis, Limits, Search, analyse};
pub use square::{Named, SquareError, at, parse_square};
