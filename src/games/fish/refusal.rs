//! Why a path of squares a player typed is not a legal move, precisely:
//! the shell asks when a typed path matches no legal move.

use std::fmt;

use super::geometry::{direction_between, squares_between};
use super::position::{Position, Side};
use super::square::Named;
use crate::games::grid::Square;

/// The reason a typed path is refused. `Display` is the sentence to show.
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

/// Squares as a list for a sentence: `(1,2)`, `(1,2) or (6,1)`, `(1,2), (3,3) or (6,1)`.
fn either(list: &[Square]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    crate::games::names::or_list(list.iter().map(|&s| Named(s)))
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver => write!(f, "the game is over: no one can move"),
            Refusal::Nothing => write!(f, "name a square, like 2 4"),
            Refusal::OffBoard(sq) => write!(f, "{} is off the board", Named(*sq)),
            Refusal::PlaceOneSquare => write!(
                f,
                "penguins are being placed: name the one square to put a penguin on"
            ),
            Refusal::PlaceTaken(sq) => write!(
                f,
                "{} is taken: a penguin starts on a free 1-point tile",
                Named(*sq)
            ),
            Refusal::PlaceOccupied(sq) => write!(
                f,
                "{} has a penguin on it: a penguin starts on a free 1-point tile",
                Named(*sq)
            ),
            Refusal::PlaceWorth { at, points } => write!(
                f,
                "{} is worth {points} points: a penguin starts on a 1-point tile",
                Named(*at)
            ),
            Refusal::TooLong => write!(
                f,
                "a move names two squares: the penguin, then where it goes"
            ),
            Refusal::NoPenguin { at, mover, own } => write!(
                f,
                "{} has no penguin: {mover} moves its penguin on {}",
                Named(*at),
                either(own)
            ),
            Refusal::NotYours { at, owner, own } => write!(
                f,
                "{} is {owner}'s penguin: move your own, on {}",
                Named(*at),
                either(own)
            ),
            Refusal::Stuck(sq) => write!(f, "the penguin on {} has no move", Named(*sq)),
            Refusal::Stay(sq) => write!(
                f,
                "the penguin already stands on {}: a move goes to another square",
                Named(*sq)
            ),
            Refusal::NotInLine { from, to } => write!(
                f,
                "{} is not in a straight line from {}",
                Named(*to),
                Named(*from)
            ),
            Refusal::DestinationTaken(sq) => write!(f, "{} is taken", Named(*sq)),
            Refusal::DestinationOccupied(sq) => {
                write!(f, "{} has a penguin on it", Named(*sq))
            }
            Refusal::Blocked {
                from,
                to,
                at,
                penguin,
            } => write!(
                f,
                "{} {}, so there is no path from {} to {}",
                Named(*at),
                if *penguin {
                    "has a penguin on it"
                } else {
                    "is taken"
                },
                Named(*from),
                Named(*to)
            ),
        }
    }
}

impl std::error::Error for Refusal {}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::board::Board;
    use crate::games::fish::square::at;

    fn sq(r: u8, c: u8) -> Square {
        at(Board::STANDARD, r, c).unwrap()
    }

    fn why(pos: &str, path: &[(u8, u8)]) -> String {
        let p = Position::parse(pos).unwrap();
        let path: Vec<Square> = path.iter().map(|&(r, c)| sq(r, c)).collect();
        p.refusal(&path).map(|r| r.to_string()).unwrap_or_default()
    }

    #[test]
    fn each_reason_for_a_move() {
        // The assignment's example state: P on (1,2), A on (4,3).
        let ex = ".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P";
        assert_eq!(
            why(ex, &[(1, 2), (3, 2)]),
            "(2,2) is taken, so there is no path from (1,2) to (3,2)"
        );
        assert_eq!(why(ex, &[(1, 2), (2, 3)]), "");
        assert_eq!(why(ex, &[(1, 2)]), "");
        assert_eq!(
            why(ex, &[(1, 2), (3, 5)]),
            "(3,5) is not in a straight line from (1,2)"
        );
        assert_eq!(why(ex, &[(1, 2), (1, 1)]), "(1,1) is taken");
        assert_eq!(why(ex, &[(1, 2), (3, 4)]), "(3,4) is taken");
        assert_eq!(why(ex, &[(1, 2), (1, 6)]), "(1,6) is taken");
        assert_eq!(
            why(ex, &[(1, 2), (1, 2)]),
            "the penguin already stands on (1,2): a move goes to another square"
        );
        assert_eq!(
            why(ex, &[(4, 3)]),
            "(4,3) is A's penguin: move your own, on (1,2)"
        );
        assert_eq!(
            why(ex, &[(5, 5)]),
            "(5,5) has no penguin: P moves its penguin on (1,2)"
        );
        assert_eq!(
            why(ex, &[(1, 2), (2, 3), (3, 3)]),
            "a move names two squares: the penguin, then where it goes"
        );
        let near = "111111/122221/123321/123321/122221/111111 P:1,1 A:3,3 next:P";
        assert_eq!(why(near, &[(1, 1), (3, 3)]), "(3,3) has a penguin on it");
        assert_eq!(
            why(near, &[(1, 1), (4, 4)]),
            "(3,3) has a penguin on it, so there is no path from (1,1) to (4,4)"
        );
        let two = "111111/122221/123321/123321/122221/111111 P:1,1;6,6 A:3,3;1,6 next:P";
        assert_eq!(
            why(two, &[(2, 2)]),
            "(2,2) has no penguin: P moves its penguin on (1,1) or (6,6)"
        );
        let stuck = "1.1111/..2221/123321/123321/122221/111111 P:1,1;6,6 A:3,3;5,5 next:P";
        assert_eq!(why(stuck, &[(1, 1)]), "the penguin on (1,1) has no move");
        let over = "1.1111/..2221/123321/123321/1222../1111.1 P:1,1 A:6,6 next:A";
        assert_eq!(why(over, &[(1, 1)]), "the game is over: no one can move");
    }

    #[test]
    fn each_reason_for_a_placement() {
        let start = ".11111/122221/123321/123321/122221/111111 P:1,2 place:0/1 next:A";
        assert_eq!(
            why(start, &[(2, 2)]),
            "(2,2) is worth 2 points: a penguin starts on a 1-point tile"
        );
        assert_eq!(
            why(start, &[(3, 3)]),
            "(3,3) is worth 3 points: a penguin starts on a 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 1)]),
            "(1,1) is taken: a penguin starts on a free 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 2)]),
            "(1,2) has a penguin on it: a penguin starts on a free 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 3), (2, 3)]),
            "penguins are being placed: name the one square to put a penguin on"
        );
        assert_eq!(why(start, &[(1, 3)]), "");
        let p = Position::parse(start).unwrap();
        assert_eq!(
            p.refusal(&[Square::new(7, 7)]).unwrap().to_string(),
            "(8,8) is off the board"
        );
        assert_eq!(
            p.refusal(&[]).unwrap().to_string(),
            "name a square, like 2 4"
        );
    }
}
