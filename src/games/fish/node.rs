//! The search's lean copy of a position: tiles, penguins, placements left
//! and the side to move, without the points history, so that copying one
//! per move is cheap. It plays by exactly the rules of `Position`.

use super::board::Tiles;
use super::geometry::{flood, neighbours, queen_moves};
use super::position::{Move, Position, Side};
use super::symmetry::distinct_targets;
use crate::games::grid::{Square, squares};

/// A move packed in two bytes; `from` is [`Step::PLACE`] for a placement.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Step {
    /// Index of the square left, or `PLACE`.
    pub from: u8,
    /// Index of the square reached.
    pub to: u8,
}

impl Step {
    /// The `from` of a placement.
    pub const PLACE: u8 = 0xFF;

    /// As a rules move.
    pub fn to_move(self) -> Option<Move> {
        let to = Square::from_index(self.to)?;
        Some(if self.from == Step::PLACE {
            Move::Place(to)
        } else {
            Move::Slide {
                from: Square::from_index(self.from)?,
                to,
            }
        })
    }

    /// From a rules move.
    #[cfg(test)]
    pub fn of(mv: Move) -> Step {
        match mv {
            Move::Place(to) => Step {
                from: Step::PLACE,
                to: to.index(),
            },
            Move::Slide { from, to } => Step {
                from: from.index(),
                to: to.index(),
            },
        }
    }

    /// Packed in 16 bits, for the transposition table; 0 is no move.
    pub fn packed(self) -> u16 {
        (u16::from(self.from) << 8 | u16::from(self.to)) ^ 0x8000
    }

    /// From [`Step::packed`].
    pub fn unpacked(bits: u16) -> Option<Step> {
        (bits != 0).then(|| {
            let bits = bits ^ 0x8000;
            Step {
                from: (bits >> 8) as u8,
                to: bits as u8,
            }
        })
    }
}

/// The most moves a node can have: four penguins with at most 27 queen
/// moves each (an 8x8 board), or 64 placements.
pub const MAX_MOVES: usize = 112;

/// A position for searching.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Node {
    /// The tiles left.
    pub tiles: Tiles,
    /// Each side's penguins, `P` then `A`.
    pub pens: [u64; 2],
    /// Penguins still to place.
    pub to_place: [u8; 2],
    /// The side to move: 0 for `P`, 1 for `A`.
    pub side: usize,
}

impl Node {
    /// The node of a position.
    pub fn of(pos: &Position) -> Node {
        Node {
            tiles: pos.tiles(),
            pens: Side::BOTH.map(|s| pos.penguin_mask(s)),
            to_place: Side::BOTH.map(|s| pos.to_place(s)),
            side: pos.to_move().index(),
        }
    }

    /// Tiles with no penguin.
    pub fn free(&self) -> u64 {
        self.tiles.present() & !(self.pens[0] | self.pens[1])
    }

    /// Whether penguins are still being placed.
    pub fn placing(&self) -> bool {
        self.to_place != [0, 0]
    }

    /// Whether side `s` has a penguin with a move.
    pub fn can_move(&self, s: usize) -> bool {
        neighbours(self.pens[s]) & self.free() != 0
    }

    fn can_act(&self, s: usize) -> bool {
        if self.placing() {
            self.to_place[s] > 0
        } else {
            self.can_move(s)
        }
    }

    /// Whether nobody can place or move.
    pub fn is_over(&self) -> bool {
        !self.placing() && !self.can_move(0) && !self.can_move(1)
    }

    /// The moves of the side to move, written into `out`; returns how many.
    /// With `distinct`, only one placement of each family of mirror images:
    /// the same choices, fewer to search.
    pub fn moves_with(&self, out: &mut [Step; MAX_MOVES], distinct: bool) -> usize {
        let mut n = 0;
        if self.placing() {
            if self.to_place[self.side] > 0 {
                let mut targets = self.tiles.worth(1) & self.free();
                if distinct {
                    targets = distinct_targets(self, targets);
                }
                for to in squares(targets) {
                    out[n] = Step {
                        from: Step::PLACE,
                        to: to.index(),
                    };
                    n += 1;
                }
            }
            return n;
        }
        let free = self.free();
        for from in squares(self.pens[self.side]) {
            for to in squares(queen_moves(from, free)) {
                out[n] = Step {
                    from: from.index(),
                    to: to.index(),
                };
                n += 1;
            }
        }
        n
    }

    /// The node after a move from [`Node::moves`], and the points the mover
    /// collected; the turn passes as in `Position::play`.
    pub fn play(&self, step: Step) -> (Node, u32) {
        let mut next = *self;
        let s = self.side;
        let to = 1u64 << step.to;
        let gained = if step.from == Step::PLACE {
            next.pens[s] |= to;
            next.to_place[s] -= 1;
            0
        } else {
            let from = 1u64 << step.from;
            next.pens[s] ^= from | to;
            next.tiles = next.tiles.without(from);
            self.tiles.sum(from)
        };
        if next.tiles.worth(1) & next.free() == 0 {
            next.to_place = [0, 0];
        }
        let other = 1 - s;
        next.side = if next.can_act(other) || !next.can_act(s) {
            other
        } else {
            s
        };
        (next, gained)
    }

    /// The same game without what can no longer matter (penguins that can
    /// never move again, tiles no penguin can reach: both only stop lines,
    /// as a taken tile does), so more positions meet in the table; and
    /// whether the sides are separated, no free tile reachable by both.
    /// While penguins are being placed every tile matters: nothing goes.
    pub fn trimmed(&self) -> (Node, bool) {
        if self.placing() {
            return (*self, false);
        }
        let free = self.free();
        let near = neighbours(free);
        let pens = [self.pens[0] & near, self.pens[1] & near];
        let reach = [flood(pens[0], free), flood(pens[1], free)];
        let keep = reach[0] | reach[1] | pens[0] | pens[1];
        let node = Node {
            tiles: self.tiles.within(keep),
            pens,
            ..*self
        };
        (node, reach[0] & reach[1] == 0)
    }

    /// How many more moves the game can last at most: every slide takes a
    /// free tile, every placement places a penguin.
    pub fn plies_left(&self) -> u32 {
        self.free().count_ones() + u32::from(self.to_place[0]) + u32::from(self.to_place[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::board::Board;

    #[test]
    fn trimming_drops_stuck_penguins_and_far_tiles_and_sees_separation() {
        let pos = Position::parse("1.11/..11/1.21/1.11 P:1,1 A:4,4 next:A").unwrap();
        let (node, apart) = Node::of(&pos).trimmed();
        // P on (1,1) is stuck; the tiles at (3,1) and (4,1) are out of reach.
        assert_eq!(node.pens[0], 0);
        assert!(apart);
        let stay = node.tiles.present();
        assert_eq!(stay.count_ones(), 8);
        let pos = Position::parse("1111/1221/1221/1111 P:1,1 A:4,4 next:P").unwrap();
        let (node, apart) = Node::of(&pos).trimmed();
        assert!(!apart);
        assert_eq!(node, Node::of(&pos));
    }

    #[test]
    fn nodes_play_exactly_as_positions_do() {
        let mut pos = Position::start(Board::STANDARD, Tiles::rings(Board::STANDARD), 2);
        let mut buf = [Step::default(); MAX_MOVES];
        let mut k = 0usize;
        while !pos.is_over() {
            let node = Node::of(&pos);
            let n = node.moves_with(&mut buf, false);
            let legal = pos.legal_moves();
            assert_eq!(n, legal.len());
            let steps: Vec<Move> = buf[..n].iter().filter_map(|s| s.to_move()).collect();
            assert_eq!(steps, legal);
            k = (k * 7 + 3) % n;
            let mv = legal[k];
            let (child, gained) = node.play(Step::of(mv));
            let next = pos.play(mv);
            assert_eq!(child, Node::of(&next));
            assert_eq!(gained + pos.score(pos.to_move()), next.score(pos.to_move()));
            assert_eq!(Step::unpacked(Step::of(mv).packed()), Some(Step::of(mv)));
            pos = next;
        }
    }
}
