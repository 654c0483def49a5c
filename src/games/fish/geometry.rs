//! Straight lines on the 8x8 grid as bit masks: the eight directions, rays,
//! queen moves over free tiles, and king-step growth for regions.
//!
//! Every fish board fits in the shared 8x8 grid (`row * 8 + column`), so a
//! set of squares is a `u64`. Squares off a smaller board never hold a tile,
//! so they stop every line without any extra masking.

use crate::games::grid::Square;

/// One of the eight straight directions, as column and row steps
/// (rows grow downwards: row 1 is at the top).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Direction {
    /// Column step: -1, 0 or 1.
    pub dc: i8,
    /// Row step: -1, 0 or 1.
    pub dr: i8,
}

/// The eight directions: east, west, south, north, then the diagonals.
pub const DIRECTIONS: [Direction; 8] = [
    Direction { dc: 1, dr: 0 },
    Direction { dc: -1, dr: 0 },
    Direction { dc: 0, dr: 1 },
    Direction { dc: 0, dr: -1 },
    Direction { dc: 1, dr: 1 },
    Direction { dc: -1, dr: 1 },
    Direction { dc: 1, dr: -1 },
    Direction { dc: -1, dr: -1 },
];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Direction {
    /// How far the bit index moves for one step.
    const fn step(self) -> i32 {
        self.dc as i32 + 8 * self.dr as i32
    }

    /// Squares a one-step shift may land on without wrapping round a row end.
    const fn landing(self) -> u64 {
        match self.dc {
            1 => !FILE_A,
            -1 => !FILE_H,
            _ => !0,
        }
    }

    /// `mask` shifted `k` steps, without removing wrapped bits.
    const fn raw_shift(self, mask: u64, k: i32) -> u64 {
        let s = self.step() * k;
        if s >= 0 { mask << s } else { mask >> -s }
    }

    /// `mask` moved one step in this direction; squares that would leave the grid drop out.
    pub const fn shift(self, mask: u64) -> u64 {
        self.raw_shift(mask, 1) & self.landing()
    }
}

/// The squares from each square to the grid's edge, one table per direction,
/// the square itself excluded.
const RAYS: [[u64; 64]; 8] = {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let dir = DIRECTIONS[d];
        let mut index = 0;
        while index < 64 {
            let mut col = (index % 8) as i8 + dir.dc;
            let mut row = (index / 8) as i8 + dir.dr;
            let mut mask = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                mask |= 1 << (row as u32 * 8 + col as u32);
                col += dir.dc;
                row += dir.dr;
            }
            rays[d][index] = mask;
            index += 1;
        }
        d += 1;
    }
    rays
};

/// The squares a penguin on `from` can reach in one move when `free` holds
/// the tiles with no penguin on them: every square of an unbroken run of
/// free squares along one of the eight lines.
pub fn queen_moves(from: Square, free: u64) -> u64 {
    let mut reach = 0;
    for (d, dir) in DIRECTIONS.iter().enumerate() {
        let ray = RAYS[d][from.index() as usize];
        let blockers = ray & !free;
        if blockers == 0 {
            reach |= ray;
            continue;
        }
        // The nearest blocker is the lowest bit on rays that grow the index,
        // the highest on rays that shrink it.
        let first = if dir.step() > 0 {
            blockers.trailing_zeros()
        } else {
            63 - blockers.leading_zeros()
        };
        reach |= ray & !RAYS[d][first as usize] & !(1u64 << first);
    }
    reach
}

/// Every square reachable in one queen move from any square of `from`,
/// through and onto `free` squares: eight occluded fills, no loop over squares.
pub fn queen_moves_of_set(from: u64, free: u64) -> u64 {
    let mut reach = 0;
    for dir in DIRECTIONS {
        // Doubling fill: after the three rounds `gen` holds every square an
        // unbroken free run leads to, so one more step lands on the moves.
        let mut gen_ = from;
        let mut pro = free & dir.landing();
        gen_ |= pro & dir.raw_shift(gen_, 1);
        pro &= dir.raw_shift(pro, 1);
        gen_ |= pro & dir.raw_shift(gen_, 2);
        pro &= dir.raw_shift(pro, 2);
        gen_ |= pro & dir.raw_shift(gen_, 4);
        reach |= dir.shift(gen_) & free;
    }
    reach
}

/// The squares one king step from any square of `mask`, `mask` itself excluded
/// unless a neighbour covers it.
pub fn neighbours(mask: u64) -> u64 {
    let horizontal = DIRECTIONS[0].shift(mask) | DIRECTIONS[1].shift(mask);
    let row = mask | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

/// Every square of `within` joined to `seeds` by king steps through `within`.
/// The seeds themselves are not added unless they lie in `within`.
pub fn flood(seeds: u64, within: u64) -> u64 {
    let mut reached = neighbours(seeds) & within;
    loop {
        let grown = reached | (neighbours(reached) & within);
        if grown == reached {
            return reached;
        }
        reached = grown;
    }
}

/// The direction from `from` to `to` if they share a row, column or
/// diagonal and differ.
pub fn direction_between(from: Square, to: Square) -> Option<Direction> {
    let dc = to.col() as i8 - from.col() as i8;
    let dr = to.row() as i8 - from.row() as i8;
    if (dc, dr) == (0, 0) || !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
        return None;
    }
    Some(Direction {
        dc: dc.signum(),
        dr: dr.signum(),
    })
}

/// The squares strictly between two squares on one line, nearest `from`
/// first; empty when they are not on one line.
pub fn squares_between(from: Square, to: Square) -> Vec<Square> {
    let Some(dir) = direction_between(from, to) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut at = from;
    while let Some(next) = at.offset(dir.dc, dir.dr) {
        if next == to {
            break;
        }
        out.push(next);
        at = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::grid::squares;

    fn mask(list: &[(u8, u8)]) -> u64 {
        list.iter()
            .fold(0, |m, &(c, r)| m | Square::new(c, r).bit())
    }

    /// Queen moves one square at a time, the obvious way.
    fn slow_moves(from: Square, free: u64) -> u64 {
        let mut reach = 0;
        for dir in DIRECTIONS {
            let mut at = from;
            while let Some(next) = at.offset(dir.dc, dir.dr) {
                if free & next.bit() == 0 {
                    break;
                }
                reach |= next.bit();
                at = next;
            }
        }
        reach
    }

    #[test]
    fn table_and_fill_moves_agree_with_stepping() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let free = seed & (seed >> 3 | seed << 5);
            let from = Square::from_index((seed >> 58) as u8).unwrap();
            let free = free & !from.bit();
            let slow = slow_moves(from, free);
            assert_eq!(queen_moves(from, free), slow);
            assert_eq!(queen_moves_of_set(from.bit(), free), slow);
        }
    }

    #[test]
    fn set_moves_are_the_union_of_each_square() {
        let free = mask(&[(1, 1), (2, 2), (3, 3), (0, 1), (7, 1), (6, 0)]);
        let from = mask(&[(0, 0), (7, 0)]);
        let each = squares(from).fold(0, |m, s| m | queen_moves(s, free));
        assert_eq!(queen_moves_of_set(from, free), each);
        assert_eq!(each, free);
    }

    #[test]
    fn neighbours_do_not_wrap_round_rows() {
        let h1 = Square::new(7, 0).bit();
        assert_eq!(neighbours(h1), mask(&[(6, 0), (6, 1), (7, 1)]));
        let a2 = Square::new(0, 1).bit();
        assert_eq!(
            neighbours(a2),
            mask(&[(0, 0), (1, 0), (1, 1), (0, 2), (1, 2)])
        );
    }

    #[test]
    fn lines_between_squares() {
        let a = Square::new(0, 0);
        assert_eq!(
            squares_between(a, Square::new(3, 3)),
            vec![Square::new(1, 1), Square::new(2, 2)]
        );
        assert!(squares_between(a, Square::new(2, 1)).is_empty());
        assert_eq!(direction_between(a, a), None);
        assert_eq!(
            direction_between(Square::new(5, 4), Square::new(5, 0)),
            Some(Direction { dc: 0, dr: -1 })
        );
    }
}
