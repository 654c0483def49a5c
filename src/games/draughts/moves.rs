//! A move: a step, or a capture with every landing square, as only the move
//! generator makes them. Its `Display` is PDN numeric notation.

use std::fmt;

use super::bitboard::Bits;
use super::square::PdnSquare;
use crate::games::grid::Square;

/// One move of one piece. A capture keeps every landing, so two different
/// legal captures never look alike even when they start and end on the same
/// squares (a king going round a ring of pieces either way).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    /// The last landing square (for a step, the square moved to).
    to: u8,
    /// How many pieces it takes: 0 for a step.
    jumps: u8,
    /// The landings before the last, five bits each, the first lowest.
    via: u64,
    /// The squares of the pieces taken.
    captured: Bits,
}

impl Move {
    /// A step from one square to a neighbour (indices 0-31).
    #[inline(always)]
    pub(crate) const fn step(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            jumps: 0,
            via: 0,
            captured: 0,
        }
    }

    /// The start of a capture: the piece has not jumped yet.
    #[inline(always)]
    pub(crate) const fn jump_start(from: u8) -> Move {
        Move::step(from, from)
    }

    /// This capture continued by one more jump over `taken` to `land`.
    #[inline(always)]
    pub(crate) const fn then_jump(self, land: u8, taken: Bits) -> Move {
        let via = if self.jumps > 0 {
            self.via | (self.to as u64) << (5 * (self.jumps as u32 - 1))
        } else {
            self.via
        };
        Move {
            from: self.from,
            to: land,
            jumps: self.jumps + 1,
            via,
            captured: self.captured | taken,
        }
    }

    /// Bit index of the square moved from.
    #[inline(always)]
    pub const fn from_index(&self) -> u8 {
        self.from
    }

    /// Bit index of the square it ends on.
    #[inline(always)]
    pub const fn to_index(&self) -> u8 {
        self.to
    }

    /// The square moved from.
    pub fn from(&self) -> PdnSquare {
        square(self.from)
    }

    /// The square it ends on.
    pub fn to(&self) -> PdnSquare {
        square(self.to)
    }

    /// Whether it takes pieces.
    pub const fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// How many pieces it takes.
    pub const fn capture_count(&self) -> u32 {
        self.jumps as u32
    }

    /// The squares of the pieces it takes.
    #[inline(always)]
    pub const fn captured(&self) -> Bits {
        self.captured
    }

    /// The landing squares in order; for a step, the one square moved to.
    pub fn landings(&self) -> Vec<PdnSquare> {
        let before = self.jumps.saturating_sub(1) as u32;
        let mut out: Vec<PdnSquare> = (0..before)
            .map(|i| square(((self.via >> (5 * i)) & 31) as u8))
            .collect();
        out.push(square(self.to));
        out
    }

    /// The squares a player names: the start, then every landing.
    pub fn squares(&self) -> Vec<PdnSquare> {
        let mut out = vec![self.from()];
        out.extend(self.landings());
        out
    }

    /// The same path on the shared grid, as the shell narrows typed squares.
    pub fn grid_path(&self) -> Vec<Square> {
        self.squares().into_iter().map(PdnSquare::grid).collect()
    }
}

fn square(index: u8) -> PdnSquare {
    // Indices come from the generator's masks, so they are always below 32;
    // the fallback only keeps this free of panics.
    PdnSquare::from_index(index & 31).unwrap_or(PdnSquare::MIN)
}

impl fmt::Display for Move {
    /// `11-15` for a step, `22x15x6` for a capture with every landing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_capture() {
            return write!(f, "{}-{}", self.from(), self.to());
        }
        write!(f, "{}", self.from())?;
        for l in self.landings() {
            write!(f, "x{l}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_keeps_every_landing() {
        assert_eq!(Move::step(10, 14).to_string(), "11-15");
        let m = Move::jump_start(21)
            .then_jump(14, 1 << 18)
            .then_jump(5, 1 << 9);
        assert_eq!(m.to_string(), "22x15x6");
        assert_eq!(m.capture_count(), 2);
        assert_eq!(m.captured(), (1 << 18) | (1 << 9));
        let names: Vec<String> = m.grid_path().iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["F6", "D4", "F2"]);
    }

    #[test]
    fn a_twelve_jump_path_fits() {
        let mut m = Move::jump_start(0);
        for i in 0..12u8 {
            m = m.then_jump(31 - i, 0);
        }
        let l: Vec<u8> = m.landings().iter().map(|s| s.index()).collect();
        assert_eq!(l, (20..32).rev().collect::<Vec<u8>>());
    }
}
