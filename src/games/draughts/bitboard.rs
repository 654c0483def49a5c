//! Board geometry on 32-bit masks: bit `i` is PDN square `i + 1`, and a step
//! in any diagonal direction is a shift by 3, 4 or 5, masked at the edges.
//!
//! Rows alternate between two layouts, so one diagonal direction is `+4` from
//! one row and `+3` or `+5` from the next. Shifting the even and the odd rows
//! separately makes every step two shifts, and a whole jump (two steps the
//! same way) a single shift by 7 or 9.

/// A set of playing squares: bit `i` is PDN square `i + 1`.
pub type Bits = u32;

/// Rows 1, 3, 5 and 7 (zero-based rows 0, 2, 4, 6): squares 1-4, 9-12, 17-20, 25-28.
pub const EVEN_ROWS: Bits = 0x0F0F_0F0F;
/// Rows 2, 4, 6 and 8.
pub const ODD_ROWS: Bits = 0xF0F0_F0F0;
/// Column A: squares 4, 12, 20, 28.
pub const FILE_A: Bits = 0x0808_0808;
/// Column H: squares 5, 13, 21, 29.
pub const FILE_H: Bits = 0x1010_1010;
/// Columns A and B, which no jump to the left can start from.
pub const FILES_AB: Bits = FILE_A | (FILE_H << 3);
/// Columns G and H, which no jump to the right can start from.
pub const FILES_GH: Bits = FILE_H | (FILE_A >> 3);

/// The four squares of a zero-based row.
pub const fn row(r: u8) -> Bits {
    0xF << (4 * r)
}

/// Black's home row (squares 1-4), where White's men are crowned.
pub const BLACK_HOME: Bits = row(0);
/// White's home row (squares 29-32), where Black's men are crowned.
pub const WHITE_HOME: Bits = row(7);

/// A diagonal direction, as Black sees the board: up is toward row 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Toward row 8 and column H.
    UpRight,
    /// Toward row 8 and column A.
    UpLeft,
    /// Toward row 1 and column H.
    DownRight,
    /// Toward row 1 and column A.
    DownLeft,
}

impl Dir {
    /// All four, in the order moves are generated.
    pub const ALL: [Dir; 4] = [Dir::UpRight, Dir::UpLeft, Dir::DownRight, Dir::DownLeft];
    /// The directions Black's men move in.
    pub const UP: [Dir; 2] = [Dir::UpRight, Dir::UpLeft];
    /// The directions White's men move in.
    pub const DOWN: [Dir; 2] = [Dir::DownRight, Dir::DownLeft];

    /// The opposite direction.
    pub const fn back(self) -> Dir {
        match self {
            Dir::UpRight => Dir::DownLeft,
            Dir::UpLeft => Dir::DownRight,
            Dir::DownRight => Dir::UpLeft,
            Dir::DownLeft => Dir::UpRight,
        }
    }
}

/// Every square of `s` moved one step in direction `d`; squares that would
/// leave the board vanish.
#[inline(always)]
pub const fn step(s: Bits, d: Dir) -> Bits {
    match d {
        Dir::UpRight => ((s & EVEN_ROWS) << 4) | ((s & ODD_ROWS & !FILE_H) << 3),
        Dir::UpLeft => ((s & EVEN_ROWS & !FILE_A) << 5) | ((s & ODD_ROWS) << 4),
        Dir::DownRight => ((s & EVEN_ROWS) >> 4) | ((s & ODD_ROWS & !FILE_H) >> 5),
        Dir::DownLeft => ((s & EVEN_ROWS & !FILE_A) >> 3) | ((s & ODD_ROWS) >> 4),
    }
}

/// Every square of `s` moved two steps in direction `d` (a jump's landing);
/// a jump keeps the row parity, so this is a single masked shift.
#[inline(always)]
pub const fn jump(s: Bits, d: Dir) -> Bits {
    match d {
        Dir::UpRight => (s & !FILES_GH) << 7,
        Dir::UpLeft => (s & !FILES_AB) << 9,
        Dir::DownRight => (s & !FILES_GH) >> 9,
        Dir::DownLeft => (s & !FILES_AB) >> 7,
    }
}

/// The squares of a mask, lowest first, as bit indices.
#[inline(always)]
pub fn indices(mut s: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let i = s.trailing_zeros() as u8;
        s &= s - 1;
        Some(i)
    })
}

/// Mirrors a mask through the board's centre: PDN square `n` becomes `33 - n`.
/// With colours swapped, this turns a position with White to move into the
/// same position seen from Black's side.
#[inline(always)]
pub const fn rotate(s: Bits) -> Bits {
    s.reverse_bits()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::square::PdnSquare;

    /// The step the grid says, for every square and direction.
    fn grid_step(i: u8, d: Dir, n: i8) -> Bits {
        let s = PdnSquare::from_index(i).unwrap().grid();
        let (dc, dr) = match d {
            Dir::UpRight => (1, 1),
            Dir::UpLeft => (-1, 1),
            Dir::DownRight => (1, -1),
            Dir::DownLeft => (-1, -1),
        };
        match s.offset(dc * n, dr * n) {
            Some(t) => PdnSquare::from_grid(t).unwrap().bit(),
            None => 0,
        }
    }

    #[test]
    fn shifts_agree_with_grid_geometry() {
        for i in 0..32u8 {
            for d in Dir::ALL {
                assert_eq!(step(1 << i, d), grid_step(i, d, 1), "step {i} {d:?}");
                assert_eq!(jump(1 << i, d), grid_step(i, d, 2), "jump {i} {d:?}");
                assert_eq!(step(step(1 << i, d), d), jump(1 << i, d));
                if step(1 << i, d) != 0 {
                    assert_eq!(step(step(1 << i, d), d.back()), 1 << i);
                }
            }
        }
    }

    #[test]
    fn rotation_is_the_half_turn() {
        for s in PdnSquare::all() {
            let g = s.grid();
            let r = PdnSquare::from_index(rotate(s.bit()).trailing_zeros() as u8).unwrap();
            assert_eq!((r.grid().col(), r.grid().row()), (7 - g.col(), 7 - g.row()));
            assert_eq!(r.number(), 33 - s.number());
        }
    }
}
