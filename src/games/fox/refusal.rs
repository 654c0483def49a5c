//! Why the squares a player typed at the move prompt make no move. The
//! reasons are typed; the face words them (`faces::fox::text`).

use super::{PickError, Position, Side, Square};

/// The reason typed squares are refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// No square to go on with.
    NeedSquare,
    /// The square cannot be the piece to move.
    Pick(PickError),
    /// A destination named alone: the pieces that could go there.
    NameThePiece {
        /// The side to move.
        side: Side,
        /// The square named.
        to: Square,
        /// The squares of the pieces that could move there.
        froms: Vec<Square>,
    },
    /// A square the piece chosen cannot go to.
    NotADestination {
        /// The side to move.
        side: Side,
        /// The piece's square.
        from: Square,
        /// The square named.
        to: Square,
        /// Where the piece can go.
        targets: Vec<Square>,
    },
}

impl Position {
    /// Why `tried`, typed after the squares `typed` already chosen, is no
    /// move (or the start of one).
    pub fn refusal(&self, typed: &[Square], tried: &[Square]) -> Refusal {
        let side = self.to_move();
        let not_there = |from: Square, to: Square| Refusal::NotADestination {
            side,
            from,
            to,
            targets: self.targets(from),
        };
        match (typed, tried) {
            ([from], [sq]) => match self.pick(*sq) {
                Err(e) if self.piece_at(*sq).is_some() || !self.board().is_dark(*sq) => {
                    Refusal::Pick(e)
                }
                _ => not_there(*from, *sq),
            },
            (_, [sq]) => match self.pick(*sq) {
                Err(PickError::Empty(_)) if !self.arrivals(*sq).is_empty() => {
                    Refusal::NameThePiece {
                        side,
                        to: *sq,
                        froms: self.arrivals(*sq),
                    }
                }
                Err(e) => Refusal::Pick(e),
                Ok(_) => Refusal::NeedSquare,
            },
            (_, [from, to]) => match self.pick(*from) {
                Err(e) => Refusal::Pick(e),
                Ok(_) => not_there(*from, *to),
            },
            _ => Refusal::NeedSquare,
        }
    }

    /// The destinations of the piece on `from`.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect()
    }

    /// The squares of the pieces that could move to `to`.
    fn arrivals(&self, to: Square) -> Vec<Square> {
        self.legal_moves()
            .iter()
            .filter(|m| m.to() == to)
            .map(|m| m.from())
            .collect()
    }
}
