//! The 32 playing squares, their PDN numbers, where they sit on the shared
//! grid, and reading a square typed as a number (`11`) or a coordinate (`c3`).
//!
//! The board is drawn from Black's side: Black's men start on rows 1-3 and
//! move up. Play is on the squares where column plus row is even, so `A1` is a
//! playing square (a dark square at each player's near left, as the laws ask).
//! PDN numbers run from Black's side, right to left along each row as Black
//! sees it: 1 is `G1`, 4 is `A1`, 5 is `H2`, 11 is `C3`, 15 is `D4`, 29 is
//! `H8`, 32 is `B8`. So the opening `11-15` is `C3 D4`, and the long diagonal
//! 4-29 is `A1`-`H8`.
//!
//! Note for the shell: `grid::Square::is_dark` follows the fox board (`B1`
//! dark); on the draughts board the playing squares are the other colour, so
//! use [`PdnSquare::from_grid`] or [`is_playing`] instead.

use std::fmt;

use crate::games::grid::{GRID, Size, Square, SquareError, plain_ascii};

/// One of the 32 playing squares, stored as its bit index (PDN number - 1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PdnSquare(u8);

impl PdnSquare {
    /// Square 1.
    pub const MIN: PdnSquare = PdnSquare(0);

    /// The square with a PDN number from 1 to 32.
    pub const fn new(number: u8) -> Option<PdnSquare> {
        if number >= 1 && number <= 32 {
            Some(PdnSquare(number - 1))
        } else {
            None
        }
    }

    /// The square with a bit index from 0 to 31 (its PDN number minus one).
    pub const fn from_index(index: u8) -> Option<PdnSquare> {
        if index < 32 {
            Some(PdnSquare(index))
        } else {
            None
        }
    }

    /// Every playing square, 1 to 32.
    pub fn all() -> impl Iterator<Item = PdnSquare> {
        (0..32).map(PdnSquare)
    }

    /// The PDN number, 1 to 32.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The bit index in a board mask, 0 to 31.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// This square as a one-bit mask of a 32-bit board.
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Zero-based row: 0 is rank 1, Black's home row.
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// Zero-based column: 0 is file A. Within a row the numbers run from
    /// the right, and odd rows sit one column further right.
    pub const fn col(self) -> u8 {
        let k = self.0 % 4;
        if self.row().is_multiple_of(2) {
            6 - 2 * k
        } else {
            7 - 2 * k
        }
    }

    /// Where this square sits on the shared grid.
    pub const fn grid(self) -> Square {
        Square::new(self.col(), self.row())
    }

    /// The playing square at a grid square, or why it is not one.
    pub fn from_grid(sq: Square) -> Result<PdnSquare, LightSquare> {
        if !is_playing(sq) {
            return Err(LightSquare(sq));
        }
        let k = if sq.row().is_multiple_of(2) {
            (6 - sq.col()) / 2
        } else {
            (7 - sq.col()) / 2
        };
        Ok(PdnSquare(sq.row() * 4 + k))
    }

    /// Reads a square typed as a PDN number (`11`) or a coordinate (`c3`).
    pub fn parse(text: &str) -> Result<PdnSquare, PdnSquareError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(PdnSquareError::Empty);
        }
        // Full-width look-alikes (`２１`, `Ｃ３`) are named as such where
        // their plain form is a square.
        if let Some(plain) = plain_ascii(trimmed) {
            return Err(match PdnSquare::parse(&plain) {
                Ok(_) => PdnSquareError::Grid(SquareError::FullWidth {
                    text: trimmed.to_string(),
                    plain: plain.trim().to_string(),
                }),
                Err(e) => e,
            });
        }
        if trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return trimmed
                .parse::<u32>()
                .ok()
                .and_then(|n| u8::try_from(n).ok())
                .and_then(PdnSquare::new)
                .ok_or_else(|| PdnSquareError::Number(trimmed.to_string()));
        }
        let board = Size::new(GRID, GRID).ok_or(PdnSquareError::Empty)?;
        match board.parse_square(trimmed) {
            Ok(sq) => PdnSquare::from_grid(sq).map_err(PdnSquareError::Light),
            Err(SquareError::Syntax { text, .. }) => Err(PdnSquareError::Syntax(text)),
            Err(e) => Err(PdnSquareError::Grid(e)),
        }
    }
}

/// Whether a grid square is one of the 32 playing squares (column plus row even).
pub const fn is_playing(sq: Square) -> bool {
    (sq.col() + sq.row()).is_multiple_of(2)
}

impl fmt::Display for PdnSquare {
    /// The PDN number, as move notation writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A grid square that pieces never stand on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LightSquare(pub Square);

impl fmt::Display for LightSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is a light square: draughts is played on the dark squares, like A1, C3 or D4",
            self.0
        )
    }
}

impl std::error::Error for LightSquare {}

/// Why some text is not a playing square.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PdnSquareError {
    /// Nothing was typed.
    Empty,
    /// A number outside 1-32.
    Number(String),
    /// Neither a number nor a coordinate.
    Syntax(String),
    /// A coordinate the grid refuses (off the board, extra characters…).
    Grid(SquareError),
    /// A coordinate on a light square.
    Light(LightSquare),
}

impl fmt::Display for PdnSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnSquareError::Empty => write!(f, "type a square, like 11 or C3"),
            PdnSquareError::Number(text) => write!(
                f,
                "\"{text}\" is off the board: the squares are numbered 1-32"
            ),
            PdnSquareError::Syntax(text) => write!(
                f,
                "\"{text}\" is not a square: type a number 1-32 like 11, or a column A-H and a row 1-8 like C3"
            ),
            PdnSquareError::Grid(e) => write!(f, "{e}"),
            PdnSquareError::Light(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PdnSquareError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> PdnSquare {
        PdnSquare::new(n).unwrap()
    }

    #[test]
    fn the_numbering_matches_the_issue_examples() {
        // C3 D4 is 11-15, and E3xG5xE7 is a Black man's double jump 10x17x26.
        assert_eq!(sq(11).grid().to_string(), "C3");
        assert_eq!(sq(15).grid().to_string(), "D4");
        assert_eq!(sq(10).grid().to_string(), "E3");
        assert_eq!(sq(17).grid().to_string(), "G5");
        assert_eq!(sq(26).grid().to_string(), "E7");
        assert_eq!(sq(1).grid().to_string(), "G1");
        assert_eq!(sq(4).grid().to_string(), "A1");
        assert_eq!(sq(29).grid().to_string(), "H8");
        assert_eq!(sq(32).grid().to_string(), "B8");
    }

    #[test]
    fn grid_and_numbers_convert_both_ways() {
        for s in PdnSquare::all() {
            assert!(is_playing(s.grid()));
            assert_eq!(PdnSquare::from_grid(s.grid()), Ok(s));
        }
        let playing = (0..64)
            .filter_map(Square::from_index)
            .filter(|&g| is_playing(g))
            .count();
        assert_eq!(playing, 32);
    }

    #[test]
    fn typed_squares_parse_with_precise_errors() {
        assert_eq!(PdnSquare::parse(" 11 "), Ok(sq(11)));
        assert_eq!(PdnSquare::parse("c3"), Ok(sq(11)));
        assert_eq!(PdnSquare::parse("H8"), Ok(sq(29)));
        let msg = |t: &str| PdnSquare::parse(t).unwrap_err().to_string();
        assert_eq!(msg(""), "type a square, like 11 or C3");
        assert_eq!(
            msg("33"),
            "\"33\" is off the board: the squares are numbered 1-32"
        );
        assert_eq!(
            msg("0"),
            "\"0\" is off the board: the squares are numbered 1-32"
        );
        assert_eq!(
            msg("99999999999999999999"),
            "\"99999999999999999999\" is off the board: the squares are numbered 1-32"
        );
        assert_eq!(msg("C9"), "\"C9\" is off the board: columns A-H, rows 1-8");
        assert_eq!(
            msg("b3"),
            "B3 is a light square: draughts is played on the dark squares, like A1, C3 or D4"
        );
        assert!(msg("x").starts_with("\"x\" is not a square: type a number 1-32"));
        assert_eq!(msg("C3x"), "\"C3x\" has extra characters after C3");
        assert_eq!(
            msg("２１"),
            "\"２１\" uses full-width characters: type plain 21"
        );
        assert_eq!(
            msg("Ｃ３"),
            "\"Ｃ３\" uses full-width characters: type plain C3"
        );
        assert_eq!(
            msg("３３"),
            "\"33\" is off the board: the squares are numbered 1-32"
        );
    }
}
