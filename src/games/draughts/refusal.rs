//! Why the squares a player typed at the move prompt make no legal move.
//! The reasons are typed; the face words them (`faces::draughts::text`).

use super::notation::{self, MoveError};
use super::{Move, PdnSquare, Piece, Position, Setup};

/// The reason typed squares are refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// No playing square was named, or the squares make a whole legal move
    /// that is not wanted here.
    NeedSquare,
    /// A reason the notation reader gives: no piece there, another side's
    /// piece, a capture that is compulsory, and the like.
    Move(MoveError),
    /// The mover's piece picked has no move.
    CannotMove {
        /// The square picked.
        square: PdnSquare,
        /// The squares of the pieces that can move, in order.
        movable: Vec<u8>,
    },
    /// A square that is not the next landing of a capture under way.
    NotALanding {
        /// The square named.
        square: PdnSquare,
        /// The squares of the capture so far.
        so_far: Vec<u8>,
        /// The landings that would go on.
        next: Vec<u8>,
    },
    /// A square the piece picked cannot go to.
    NotADestination {
        /// The piece's square.
        from: PdnSquare,
        /// The square named.
        to: PdnSquare,
        /// The piece's legal moves.
        own: Vec<Move>,
    },
    /// A path going on past a man's crowning square.
    CrowningEnds {
        /// The squares typed.
        path: Vec<u8>,
        /// The move that crowns and ends there.
        crowning: Move,
    },
    /// A jumping path that is none of the piece's captures.
    NotLegal {
        /// The squares typed.
        path: Vec<u8>,
        /// The piece's square.
        start: PdnSquare,
        /// The piece's legal moves.
        own: Vec<Move>,
    },
}

/// Why `tried`, typed after the squares `typed` already chosen, is no legal
/// move (or the start of one) in `pos`.
pub fn refusal(rules: &Setup, pos: &Position, typed: &[PdnSquare], tried: &[PdnSquare]) -> Refusal {
    let Some(&first) = tried.first() else {
        return Refusal::NeedSquare;
    };
    let legal = rules.moves(pos);
    let mine = |sq: PdnSquare| pos.piece(sq).is_some_and(|p| p.side() == pos.to_move());
    if tried.len() == 1 && (typed.is_empty() || mine(first)) {
        return picked(rules, pos, &legal, first);
    }
    if tried.len() == 1 {
        // The last landing of more than one capture under way: which one
        // is meant is what is missing, not the square.
        let ending_there = legal
            .iter()
            .filter(|m| m.squares().starts_with(typed) && m.to() == first)
            .count();
        if ending_there > 1 {
            let path: Vec<PdnSquare> = typed.iter().chain(tried).copied().collect();
            return path_refusal(rules, pos, &legal, &path);
        }
        return landing(&legal, typed, first);
    }
    // A path: from its own first square; going on from a square typed
    // when it starts on one (`10x17x26` after `1x10x17`); or going on from
    // the last square typed when it starts on an empty square one step or
    // one jump from it.
    let goes_on = typed.last().is_some_and(|&last| {
        let rows = last.row().abs_diff(first.row());
        rows <= 2 && last.col().abs_diff(first.col()) == rows && pos.piece(first).is_none()
    });
    let path: Vec<PdnSquare> = if let Some(k) = typed.iter().rposition(|&s| s == first) {
        typed[..k].iter().chain(tried).copied().collect()
    } else if goes_on {
        typed.iter().chain(tried).copied().collect()
    } else {
        tried.to_vec()
    };
    path_refusal(rules, pos, &legal, &path)
}

/// Why the piece on `square`, picked as the one to move, cannot be.
fn picked(rules: &Setup, pos: &Position, legal: &[Move], square: PdnSquare) -> Refusal {
    match pos.piece(square) {
        None => Refusal::Move(MoveError::NoPiece(square)),
        Some(piece) if piece.side() != pos.to_move() => {
            Refusal::Move(MoveError::NotYours { square, piece })
        }
        Some(_) => {
            let captures: Vec<Move> = legal.iter().filter(|m| m.is_capture()).copied().collect();
            let own = legal.iter().any(|m| m.from() == square);
            if !own && rules.captures.forced() && !captures.is_empty() {
                Refusal::Move(MoveError::CaptureCompulsory { captures })
            } else {
                let mut movable: Vec<u8> = legal.iter().map(|m| m.from().number()).collect();
                movable.dedup();
                Refusal::CannotMove { square, movable }
            }
        }
    }
}

/// Why `square` is no landing after the squares `typed`.
fn landing(legal: &[Move], typed: &[PdnSquare], square: PdnSquare) -> Refusal {
    let mut next: Vec<u8> = legal
        .iter()
        .map(|m| m.squares())
        .filter(|p| p.starts_with(typed))
        .filter_map(|p| p.get(typed.len()).map(|s| s.number()))
        .collect();
    next.dedup();
    match typed {
        [] => Refusal::NeedSquare,
        [from] => Refusal::NotADestination {
            from: *from,
            to: square,
            own: legal
                .iter()
                .filter(|m| m.from() == *from)
                .copied()
                .collect(),
        },
        _ => Refusal::NotALanding {
            square,
            so_far: typed.iter().map(|s| s.number()).collect(),
            next,
        },
    }
}

/// Why a whole path is no legal move.
fn path_refusal(rules: &Setup, pos: &Position, legal: &[Move], path: &[PdnSquare]) -> Refusal {
    let Some(&start) = path.first() else {
        return Refusal::NeedSquare;
    };
    let numbers = || path.iter().map(|s| s.number()).collect::<Vec<u8>>();
    // A man crowned stops: a path going on from its crowning square.
    let crowning = legal.iter().find(|m| {
        let squares = m.squares();
        path.len() > squares.len()
            && path.starts_with(&squares)
            && pos.piece(start) == Some(Piece::Man(pos.to_move()))
            && pos.to_move().crown_row() & m.to().bit() != 0
    });
    if let Some(&crowning) = crowning {
        return Refusal::CrowningEnds {
            path: numbers(),
            crowning,
        };
    }
    match notation::resolve(rules, pos, path) {
        // A jump by a piece that can jump: say what it can do.
        Err(MoveError::CaptureCompulsory { .. })
            if legal.iter().any(|m| m.from() == start)
                && path
                    .windows(2)
                    .any(|w| w[0].row().abs_diff(w[1].row()) == 2) =>
        {
            Refusal::NotLegal {
                path: numbers(),
                start,
                own: legal
                    .iter()
                    .filter(|m| m.from() == start)
                    .copied()
                    .collect(),
            }
        }
        Err(e) => Refusal::Move(e),
        Ok(_) => Refusal::NeedSquare,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    fn why(fen_text: &str, typed: &[u8], tried: &[u8]) -> Refusal {
        let squares = |v: &[u8]| -> Vec<PdnSquare> {
            v.iter()
                .map(|&n| PdnSquare::new(n).expect("a playing square"))
                .collect()
        };
        let pos = fen::parse(fen_text).expect("a position");
        refusal(&Setup::STANDARD, &pos, &squares(typed), &squares(tried))
    }

    #[test]
    fn reasons_are_typed() {
        assert!(matches!(
            why("W:W22,24:B18,19", &[], &[22, 17]),
            Refusal::Move(MoveError::CaptureCompulsory { .. })
        ));
        assert_eq!(
            why("B:W18:B14", &[], &[18]),
            Refusal::Move(MoveError::NotYours {
                square: PdnSquare::new(18).expect("18"),
                piece: Piece::Man(crate::games::draughts::Side::White),
            })
        );
        assert!(matches!(
            why("B:W30:B9,10", &[9], &[20]),
            Refusal::NotADestination { own, .. } if own.len() == 2
        ));
        // 22 ends two of 6's captures (over 9 and 17, or over 10 and 18):
        // the landing between is what is missing.
        assert!(matches!(
            why("B:W9,10,17,18:B6,1", &[6], &[22]),
            Refusal::Move(MoveError::Ambiguous { options, .. }) if options.len() == 2
        ));
    }
}
