//! The board: its size, its squares, and which of them are dark.

use std::fmt;
use std::str::FromStr;

/// The smallest and largest supported board sides.
pub const MIN_SIDE: u8 = 4;
/// The largest supported board side (a standard checkerboard).
pub const MAX_SIDE: u8 = 8;

/// One square of a board up to 8x8, stored as `row * 8 + column`.
///
/// Column 0 is file `A`, row 0 is rank `1` (the hounds' home row).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at a zero-based column and row, both below 8.
    pub const fn new(col: u8, row: u8) -> Square {
        assert!(col < MAX_SIDE && row < MAX_SIDE);
        Square(row * MAX_SIDE + col)
    }

    /// Zero-based column: 0 is `A`.
    pub const fn col(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// Zero-based row: 0 is rank `1`.
    pub const fn row(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// The index `row * 8 + column`, from 0 to 63.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square with this index, if it is below 64.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < MAX_SIDE * MAX_SIDE {
            Some(Square(index))
        } else {
            None
        }
    }

    /// This square as a one-bit mask.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// A square is dark when column plus row is odd: `A1` is light, `B1` dark.
    pub const fn is_dark(self) -> bool {
        (self.col() + self.row()) % 2 == 1
    }

    /// The rank as a player counts it, from 1.
    pub const fn rank(self) -> u8 {
        self.row() + 1
    }

    /// The file letter, `A` to `H`.
    pub const fn file(self) -> char {
        (b'A' + self.col()) as char
    }

    /// The square diagonally next to this one, `dc` columns and `dr` rows away,
    /// if it is on an 8x8 grid.
    pub fn offset(self, dc: i8, dr: i8) -> Option<Square> {
        let col = self.col() as i8 + dc;
        let row = self.row() as i8 + dr;
        if (0..MAX_SIDE as i8).contains(&col) && (0..MAX_SIDE as i8).contains(&row) {
            Some(Square::new(col as u8, row as u8))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

/// The squares of a bit mask, lowest index first.
pub fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let index = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(Square(index))
    })
}

/// A board size: an even width from 4 to 8 and a height from 4 to 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    width: u8,
    height: u8,
}

/// Why a board size was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardError {
    /// Not of the form `WxH`.
    Syntax(String),
    /// The width is odd or out of range.
    Width(u8),
    /// The height is out of range.
    Height(u8),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(text) => write!(
                f,
                "\"{text}\" is not a board size: write WIDTHxHEIGHT, like 8x8 or 6x6"
            ),
            BoardError::Width(w) => write!(
                f,
                "a board {w} squares wide is not supported: the width must be 4, 6 or 8"
            ),
            BoardError::Height(h) => write!(
                f,
                "a board {h} squares high is not supported: the height must be 4 to 8"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The standard 8x8 checkerboard.
    pub const STANDARD: Board = Board {
        width: 8,
        height: 8,
    };

    /// A board of the given size, if it is supported.
    pub fn new(width: u8, height: u8) -> Result<Board, BoardError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !width.is_multiple_of(2) {
            return Err(BoardError::Width(width));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(BoardError::Height(height));
        }
        Ok(Board { width, height })
    }

    /// Every supported board size, smallest first.
    pub fn all() -> impl Iterator<Item = Board> {
        (MIN_SIDE..=MAX_SIDE).step_by(2).flat_map(|w| {
            (MIN_SIDE..=MAX_SIDE).map(move |h| Board {
                width: w,
                height: h,
            })
        })
    }

    /// Number of columns.
    pub const fn width(self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub const fn height(self) -> u8 {
        self.height
    }

    /// The number of hounds: one for every dark square of row 1.
    pub const fn hound_count(self) -> usize {
        self.width as usize / 2
    }

    /// The zero-based row the fox starts on.
    pub const fn top_row(self) -> u8 {
        self.height - 1
    }

    /// The square at a zero-based column and row, if it is on this board.
    pub fn square(self, col: u8, row: u8) -> Option<Square> {
        (col < self.width && row < self.height).then(|| Square::new(col, row))
    }

    /// Whether a square lies on this board.
    pub fn contains(self, sq: Square) -> bool {
        sq.col() < self.width && sq.row() < self.height
    }

    /// The square `dc` columns and `dr` rows from `sq`, if it is on this board.
    pub fn offset(self, sq: Square, dc: i8, dr: i8) -> Option<Square> {
        sq.offset(dc, dr).filter(|&s| self.contains(s))
    }

    /// Mask of every dark square of this board.
    pub fn dark_mask(self) -> u64 {
        (0..self.height)
            .flat_map(|row| (0..self.width).map(move |col| Square::new(col, row)))
            .filter(|sq| sq.is_dark())
            .fold(0, |mask, sq| mask | sq.bit())
    }

    /// The dark squares of one zero-based row, left to right.
    pub fn dark_squares_of_row(self, row: u8) -> impl Iterator<Item = Square> {
        (0..self.width)
            .map(move |col| Square::new(col, row))
            .filter(|sq| sq.is_dark())
    }

    /// The fox's default start: the leftmost dark square of the top row (`A8` on 8x8).
    pub fn default_fox_start(self) -> Square {
        self.dark_squares_of_row(self.top_row())
            .next()
            .expect("every row of a board at least 4 wide has a dark square")
    }

    /// The hounds' start: every dark square of row 1.
    pub fn hounds_start(self) -> u64 {
        self.dark_squares_of_row(0).fold(0, |m, sq| m | sq.bit())
    }

    /// The last file letter, for messages: `H` on an 8-wide board.
    pub fn last_file(self) -> char {
        (b'A' + self.width - 1) as char
    }
}

/// Why some text is not a square of the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// Nothing was typed.
    Empty,
    /// The text does not start with a column letter and a row number.
    Syntax { text: String, board: Board },
    /// A square, then more characters.
    Trailing { text: String, square: String },
    /// The row number came first.
    RowFirst { text: String, square: String },
    /// Full-width look-alike characters.
    FullWidth { text: String, plain: String },
    /// A square beyond the board's edge.
    OffBoard { text: String, board: Board },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Empty => write!(f, "type a square, like B1"),
            SquareError::Syntax { text, board } => write!(
                f,
                "\"{text}\" is not a square: type a column letter A-{} then a row number 1-{}, like B1",
                board.last_file(),
                board.height()
            ),
            SquareError::Trailing { text, square } => {
                write!(f, "\"{text}\" has extra characters after {square}")
            }
            SquareError::RowFirst { text, square } => write!(
                f,
                "\"{text}\" gives the row first: type the column letter first, like {square}"
            ),
            SquareError::FullWidth { text, plain } => write!(
                f,
                "\"{text}\" uses full-width characters: type plain {plain}"
            ),
            SquareError::OffBoard { text, board } => write!(
                f,
                "\"{}\" is off the board: columns A-{}, rows 1-{}",
                text.to_ascii_uppercase(),
                board.last_file(),
                board.height()
            ),
        }
    }
}

impl std::error::Error for SquareError {}

/// Full-width ASCII look-alikes (U+FF01 to U+FF5E) as plain ASCII.
fn plain_ascii(text: &str) -> Option<String> {
    let mut changed = false;
    let plain = text
        .chars()
        .map(|c| match c as u32 {
            0xFF01..=0xFF5E => {
                changed = true;
                char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c)
            }
            0x3000 => {
                changed = true;
                ' '
            }
            _ => c,
        })
        .collect();
    changed.then_some(plain)
}

impl Board {
    /// Reads a square such as `B1` or ` b1 `: a column letter, then a row number.
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(SquareError::Empty);
        }
        if let Some(plain) = plain_ascii(trimmed) {
            return Err(match self.parse_square(&plain) {
                Ok(sq) => SquareError::FullWidth {
                    text: trimmed.to_string(),
                    plain: sq.to_string(),
                },
                Err(e) => e,
            });
        }
        let syntax = || SquareError::Syntax {
            text: trimmed.to_string(),
            board: self,
        };
        let bytes = trimmed.as_bytes();
        let letter = bytes[0];
        if !letter.is_ascii_alphabetic() {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 && digits + 1 == bytes.len() && bytes[digits].is_ascii_alphabetic() {
                return Err(SquareError::RowFirst {
                    text: trimmed.to_string(),
                    square: format!(
                        "{}{}",
                        bytes[digits].to_ascii_uppercase() as char,
                        &trimmed[..digits]
                    ),
                });
            }
            return Err(syntax());
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(syntax());
        }
        let number = &trimmed[1..1 + digits];
        let square_text = format!("{}{}", letter.to_ascii_uppercase() as char, number);
        if 1 + digits < trimmed.len() {
            return Err(SquareError::Trailing {
                text: trimmed.to_string(),
                square: square_text,
            });
        }
        let col = letter.to_ascii_uppercase() - b'A';
        let row = number.parse::<u8>().ok().filter(|&r| r >= 1);
        match row.and_then(|r| self.square(col, r - 1)) {
            Some(sq) => Ok(sq),
            None => Err(SquareError::OffBoard {
                text: square_text,
                board: self,
            }),
        }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::STANDARD
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(text.to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let w: u8 = w.trim().parse().map_err(|_| syntax())?;
        let h: u8 = h.trim().parse().map_err(|_| syntax())?;
        Board::new(w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b1_is_dark_and_a1_is_light() {
        assert!(!Square::new(0, 0).is_dark());
        assert!(Square::new(1, 0).is_dark());
        assert!(Square::new(0, 7).is_dark());
    }

    #[test]
    fn default_fox_start_is_a8_on_8x8_and_dark_everywhere() {
        assert_eq!(Board::STANDARD.default_fox_start().to_string(), "A8");
        for board in Board::all() {
            assert!(board.default_fox_start().is_dark(), "{board}");
            assert_eq!(
                board.hounds_start().count_ones() as usize,
                board.hound_count()
            );
        }
        assert_eq!(
            "8x7"
                .parse::<Board>()
                .unwrap()
                .default_fox_start()
                .to_string(),
            "B7"
        );
    }

    #[test]
    fn board_sizes_parse_with_precise_errors() {
        assert_eq!("6x6".parse::<Board>(), Board::new(6, 6));
        assert_eq!("5x6".parse::<Board>(), Err(BoardError::Width(5)));
        assert_eq!("8x9".parse::<Board>(), Err(BoardError::Height(9)));
        assert!(matches!(
            "eight".parse::<Board>(),
            Err(BoardError::Syntax(_))
        ));
        assert_eq!(Board::all().count(), 15);
    }

    #[test]
    fn squares_parse_like_the_coursework_table_but_stricter() {
        let b = Board::STANDARD;
        assert_eq!(b.parse_square(" b1 "), Ok(Square::new(1, 0)));
        let msg = |t: &str| b.parse_square(t).unwrap_err().to_string();
        assert_eq!(msg("B1aa"), "\"B1aa\" has extra characters after B1");
        assert!(msg("aaB1").starts_with("\"aaB1\" is not a square"));
        assert_eq!(msg("C9"), "\"C9\" is off the board: columns A-H, rows 1-8");
        assert_eq!(msg("i1"), "\"I1\" is off the board: columns A-H, rows 1-8");
        assert_eq!(msg("A0"), "\"A0\" is off the board: columns A-H, rows 1-8");
        assert_eq!(
            msg("1B"),
            "\"1B\" gives the row first: type the column letter first, like B1"
        );
        assert_eq!(
            msg("Ｂ１"),
            "\"Ｂ１\" uses full-width characters: type plain B1"
        );
        assert_eq!(msg(""), "type a square, like B1");
        assert!(b.parse_square("B99999999999999999999").is_err());
    }
}
