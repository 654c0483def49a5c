//! Why a path of squares a player typed is not a legal move, precisely:
//! the shell asks when a typed path matches no legal move. The reasons are
//! typed; the face words them (`faces::fish::text::refusal`).

use super::geometry::{direction_between, squares_between};
use super::position::{Position, Side};
use crate::games::grid::Square;

/// The reason a typed path is refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// No square was given.
    Nothing,
    /// A square off the board.
    OffBoard(Square),
    /// More than one square while placing.
    PlaceOneSquare,
    /// Placing on a taken tile.
    PlaceTaken(Square),
    /// Placing on a penguin.
    PlaceOccupied(Square),
    /// Placing on a tile worth more than 1.
    PlaceWorth {
        /// The square.
        at: Square,
        /// Its points.
        points: u8,
    },
    /// More than two squares for a move.
    TooLong,
    /// The first square holds no penguin.
    NoPenguin {
        /// The square.
        at: Square,
        /// The side to move.
        mover: Side,
        /// The squares of the mover's own penguins.
        own: Vec<Square>,
    },
    /// The first square holds the other side's penguin.
    NotYours {
        /// The square.
        at: Square,
        /// The side whose penguin stands there.
        owner: Side,
        /// The squares of the mover's own penguins.
        own: Vec<Square>,
    },
    /// The chosen penguin cannot move at all.
    Stuck(Square),
    /// The destination is where the penguin stands.
    Stay(Square),
    /// The destination is not on a line through the penguin.
    NotInLine {
        /// The square moved from.
        from: Square,
        /// The square moved to.
        to: Square,
    },
    /// The destination tile is taken.
    DestinationTaken(Square),
    /// A penguin stands on the destination.
    DestinationOccupied(Square),
    /// Something on the way: a taken tile or a penguin.
    Blocked {
        /// The square moved from.
        from: Square,
        /// The square moved to.
        to: Square,
        /// The square.
        at: Square,
        /// Whether a penguin stands in the way (else a taken tile).
        penguin: bool,
    },
}

impl Position {
    /// Why `path` (the squares typed so far, `[to]` to place, `[from]` or
    /// `[from, to]` to move) is not a legal move or the start of one, or
    /// `None` if it is.
    pub fn refusal(&self, path: &[Square]) -> Option<Refusal> {
        if self.is_over() {
            return Some(Refusal::GameOver);
        }
        let Some(&first) = path.first() else {
            return Some(Refusal::Nothing);
        };
        if let Some(&off) = path.iter().find(|&&s| !self.board().contains(s)) {
            return Some(Refusal::OffBoard(off));
        }
        if self.placing() {
            if path.len() > 1 {
                return Some(Refusal::PlaceOneSquare);
            }
            return self.placement_refusal(first);
        }
        if path.len() > 2 {
            return Some(Refusal::TooLong);
        }
        let mover = self.to_move();
        let own: Vec<Square> = self.penguins(mover).collect();
        match self.penguin_on(first) {
            None => {
                return Some(Refusal::NoPenguin {
                    at: first,
                    mover,
                    own,
                });
            }
            Some(owner) if owner != mover => {
                return Some(Refusal::NotYours {
                    at: first,
                    owner,
                    own,
                });
            }
            Some(_) => {}
        }
        let from = first;
        if !self.legal_moves().iter().any(|m| m.from() == Some(from)) {
            return Some(Refusal::Stuck(from));
        }
        let &to = path.get(1)?;
        self.slide_refusal(from, to)
    }

    fn placement_refusal(&self, at: Square) -> Option<Refusal> {
        let points = self.tiles().points(at);
        if points == 0 {
            Some(Refusal::PlaceTaken(at))
        } else if self.penguin_on(at).is_some() {
            Some(Refusal::PlaceOccupied(at))
        } else if points != 1 {
            Some(Refusal::PlaceWorth { at, points })
        } else {
            None
        }
    }

    fn slide_refusal(&self, from: Square, to: Square) -> Option<Refusal> {
        if from == to {
            return Some(Refusal::Stay(from));
        }
        if direction_between(from, to).is_none() {
            return Some(Refusal::NotInLine { from, to });
        }
        if self.tiles().points(to) == 0 {
            return Some(Refusal::DestinationTaken(to));
        }
        if self.penguin_on(to).is_some() {
            return Some(Refusal::DestinationOccupied(to));
        }
        squares_between(from, to)
            .into_iter()
            .find(|s| self.free() & s.bit() == 0)
            .map(|at| Refusal::Blocked {
                from,
                to,
                at,
                penguin: self.penguin_on(at).is_some(),
            })
    }
}
