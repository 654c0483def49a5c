//! "Hey, That's My Fish!" as a C course assignment has it: two players, P
//! and A, with penguins on a board of tiles worth 1 to 3 points. This folder
//! is the game's pure core: rules, notation, search and computer players.
//!
//! ```
//! use tallyho::games::Never;
//! use tallyho::games::fish::{Limits, Position, analyse};
//!
//! // The assignment's example state, P to move.
//! let pos = Position::parse(".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P")
//!     .unwrap();
//! assert_eq!(pos.legal_moves()[0].to_string(), "1,2-1,3");
//! let a = analyse(&pos, Limits::depth(2), &Never);
//! assert!(pos.is_legal(a.best.unwrap()));
//! ```
//!
//! # Squares
//!
//! The assignment names a square by row then column, both counted from 1,
//! row 1 at the top: `(2,4)`. Row `r`, column `c` is the shared grid's
//! `Square::new(c - 1, r - 1)`, so grid row 0 is the top row, the one a
//! board is drawn with first. [`parse_square`] reads `2 4`, `2,4` or
//! `(2,4)`; [`parse_path`] reads several (`1,2-2,3`, `(1,2) (2,3)`);
//! [`Named`] writes `(2,4)` (or `2,4` with `{:#}`).
//!
//! # Rules
//!
//! - Boards are 4x4 to 8x8 (default 6x6). Tiles are worth 1 on the rim, 2 on
//!   the next ring and 3 further in ([`Deal::Rings`]; on 6x6 exactly the
//!   assignment's board), or are dealt at random from a seed in the board
//!   game's proportions, half of them 1s ([`Deal::Random`]).
//! - Each player has 1 to 4 penguins (default 1). P places a penguin first on
//!   a free 1-point tile, then A, and so on until all stand.
//! - A move goes any distance along a row, a column or a diagonal; every
//!   square passed over and the square reached must hold a tile with no
//!   penguin on it.
//! - The tile a penguin leaves is taken, and its points go to its player.
//! - A player who cannot move is skipped ([`skipped`] tells the shell when);
//!   the game ends when neither can move. Most points wins; equal points is
//!   a draw.
//!
//! **The tile a penguin stands on at the end is not collected.** The
//! assignment decides it three ways. Its rule says tiles "will be collected
//! when players penguin move out from it". Its skip example ends with both
//! penguins still drawn on their last tiles, P on (2,4) and A on (3,1), and
//! nothing taken or scored after the AI's last move. And its points lines,
//! `1+3+1+1+2+3 = 11`, start with the 1-point start tile, which is collected
//! by the first move: every term is a tile some move left. (The board game
//! differs: there a stuck penguin leaves the board with its tile.)
//!
//! # Position notation
//!
//! One line, shared by `analyse`, the game log and the tests:
//!
//! ```text
//! .1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 points:1+3/1+2 next:P
//! ```
//!
//! - First the rows, row 1 first, joined by `/`: `1`, `2` or `3` for a tile
//!   and its points, `.` for a taken tile. The tiles under penguins are
//!   written too. The rows give the board's size.
//! - Then fields, separated by spaces, in any order when read (written in
//!   this order), names in either case:
//!   - `P:` and `A:` each player's penguins as `row,column` squares joined by
//!     `;` (`P:1,2;6,1`); left out when a player has none standing;
//!   - `place:P/A` penguins still to place (`place:1/1` at the start); left
//!     out when all stand;
//!   - `points:P/A` each player's points in the order collected, joined by
//!     `+`, `-` for none (`points:1+3/-`); left out before any is collected;
//!   - `next:P` or `next:A`, whose turn it is: required, and it must be the
//!     side the rules give the turn to (a player who cannot move is skipped).
//!
//! The start of the assignment's game is
//! `111111/122221/123321/123321/122221/111111 place:1/1 next:P`.
//!
//! # Moves
//!
//! A move's log notation is rows and columns: `2,1` places a penguin on
//! (2,1), `1,2-2,3` slides one from (1,2) to (2,3). Its path, the squares a
//! player names, is `[to]` to place and `[from, to]` to slide.
//! [`Position::refusal`] says why a typed path is not legal.
//!
//! # Analysis and values
//!
//! [`analyse`] (or a [`Search`] kept between calls) returns a best move and
//! a value: the final difference of points, **P's minus A's**, points already
//! collected included, with best play by both. It says whether the value is
//! exact (proven to the end of the game, or to regions solved exactly once
//! the penguins are cut off from each other) or an estimate. How far that
//! reaches in a second is measured, not promised: the README quotes
//! `examples/fish_reach.rs` and `benches/fish.rs`. A search stops when its
//! [`crate::games::Deadline`] passes or at the [`Limits`] given (nodes or
//! depth, for repeatable tests). [`Search::analyse_all`] values every legal
//! move.
//!
//! A search takes at most [`DEFAULT_MEMORY`] unless told otherwise
//! ([`Search::within`], [`Search::sized`], `Computer::with_memory`), and
//! asks for it fallibly: on a short machine it gets a smaller table.
//!
//! # Positions no game reaches
//!
//! [`Position::parse`] and [`Position::from_parts`] refuse, with a
//! [`PositionError`], a position no game can reach as far as its parts
//! tell: players with different numbers of penguins (placed and to place),
//! none at all, placements out of the order the rules give (P first, then
//! alternately: with as many left to place each it is P's turn, with A one
//! more it is A's, and nothing else happens), points collected while
//! placing, or more tiles collected than are taken from the board.

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
pub use search::{Analysis, DEFAULT_MEMORY, Limits, MoveValue, Search, analyse};
pub use square::{Named, SquareError, at, parse_path, parse_square};
