//! Squares and board sizes shared by every grid game, with the `B1` square
//! notation and its precise errors.

use std::fmt;

/// The widest and tallest grid any game uses.
pub const GRID: u8 = 8;

/// One square of a board up to 8x8, stored as `row * 8 + column`.
///
/// Column 0 is file `A`, row 0 is rank `1` (the hounds' home row).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at a zero-based column and row, both below 8.
    pub const fn new(col: u8, row: u8) -> Square {
        assert!(col < GRID && row < GRID);
        Square(row * GRID + col)
    }

    /// Zero-based column: 0 is `A`.
    pub const fn col(self) -> u8 {
        self.0 % GRID
    }

    /// Zero-based row: 0 is rank `1`.
    pub const fn row(self) -> u8 {
        self.0 / GRID
    }

    /// The index `row * 8 + column`, from 0 to 63.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square with this index, if it is below 64.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < GRID * GRID {
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
        if (0..GRID as i8).contains(&col) && (0..GRID as i8).contains(&row) {
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

/// The size of a rectangular board, up to 8x8. Games check their own limits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Size {
    width: u8,
    height: u8,
}

impl Size {
    /// A board `width` columns wide and `height` rows high; `None` beyond 8x8 or at 0.
    pub const fn new(width: u8, height: u8) -> Option<Size> {
        if width == 0 || height == 0 || width > GRID || height > GRID {
            None
        } else {
            Some(Size { width, height })
        }
    }

    /// Number of columns.
    pub const fn width(self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub const fn height(self) -> u8 {
        self.height
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

    /// Every square of the board, row by row from row 1, left to right.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| Square::new(col, row)))
    }

    /// The last file letter, for messages: `H` on an 8-wide board.
    pub fn last_file(self) -> char {
        (b'A' + self.width - 1) as char
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// The smallest side of a playing board: the games' boards are 4x4 to 8x8.
pub const MIN_SIDE: u8 = 4;

/// Why a board size was refused. Sides out of range are kept as written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SizeError {
    /// Not of the form `WxH`.
    Syntax(String),
    /// The width is outside [`MIN_SIDE`] to [`GRID`].
    Width(String),
    /// The height is.
    Height(String),
    /// Both are: the width and the height.
    Sides(String, String),
}

/// "square" or "squares", after a count written as typed.
fn squares_word(count: &str) -> &'static str {
    if count.trim_start_matches('0') == "1" {
        "square"
    } else {
        "squares"
    }
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Syntax(text) => write!(
                f,
                "\"{text}\" is not a board size: write WIDTHxHEIGHT, like 8x8 or 6x6"
            ),
            SizeError::Width(w) => write!(
                f,
                "a board {w} {} wide is not supported: the width must be {MIN_SIDE} to {GRID}",
                squares_word(w)
            ),
            SizeError::Height(h) => write!(
                f,
                "a board {h} {} high is not supported: the height must be {MIN_SIDE} to {GRID}",
                squares_word(h)
            ),
            SizeError::Sides(w, h) => write!(
                f,
                "{w}x{h} is not a supported board: the width and the height must each be {MIN_SIDE} to {GRID}"
            ),
        }
    }
}

impl std::error::Error for SizeError {}

/// `text` trimmed, where it is one or more ASCII digits.
fn digits(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

impl Size {
    /// A playing board `width` columns wide and `height` rows high, each
    /// side [`MIN_SIDE`] to [`GRID`].
    pub fn playing(width: impl Into<u64>, height: impl Into<u64>) -> Result<Size, SizeError> {
        let (w, h) = (width.into(), height.into());
        Size::sides(&w.to_string(), &h.to_string())
    }

    /// A playing board's size from its two sides written in digits.
    fn sides(width: &str, height: &str) -> Result<Size, SizeError> {
        let side = |n: &str| {
            n.parse::<u8>()
                .ok()
                .filter(|n| (MIN_SIDE..=GRID).contains(n))
        };
        match (side(width), side(height)) {
            (Some(w), Some(h)) => {
                Size::new(w, h).ok_or(SizeError::Sides(width.into(), height.into()))
            }
            (None, Some(_)) => Err(SizeError::Width(width.into())),
            (Some(_), None) => Err(SizeError::Height(height.into())),
            (None, None) => Err(SizeError::Sides(width.into(), height.into())),
        }
    }

    /// Reads a playing board's size written `WxH` (or `WXH`), spaces allowed
    /// around each part; a side of any number of digits out of range is
    /// refused as such.
    pub fn parse_playing(text: &str) -> Result<Size, SizeError> {
        let syntax = || SizeError::Syntax(text.trim().to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        match (digits(w), digits(h)) {
            (Some(w), Some(h)) => Size::sides(w, h),
            _ => Err(syntax()),
        }
    }

    /// Every playing board's size, smallest first (by width, then height).
    pub fn all_playing() -> impl Iterator<Item = Size> {
        (MIN_SIDE..=GRID).flat_map(|w| (MIN_SIDE..=GRID).filter_map(move |h| Size::new(w, h)))
    }
}

/// Why some text is not a square of the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// Nothing was typed.
    Empty,
    /// The text does not start with a column letter and a row number.
    Syntax {
        /// What was typed.
        text: String,
        /// The board's size, for the columns and rows it has.
        size: Size,
    },
    /// A square, then more characters.
    Trailing {
        /// What was typed.
        text: String,
        /// The square it starts with.
        square: String,
    },
    /// The row number came first.
    RowFirst {
        /// What was typed.
        text: String,
        /// The square meant, column first.
        square: String,
    },
    /// Full-width look-alike characters.
    FullWidth {
        /// What was typed.
        text: String,
        /// The same in plain characters.
        plain: String,
    },
    /// A square beyond the board's edge.
    OffBoard {
        /// What was typed.
        text: String,
        /// The board's size.
        size: Size,
    },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Empty => write!(f, "type a square, like B1"),
            SquareError::Syntax { text, size } => write!(
                f,
                "\"{text}\" is not a square: type a column letter A-{} then a row number 1-{}, like B1",
                size.last_file(),
                size.height()
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
            SquareError::OffBoard { text, size } => write!(
                f,
                "\"{}\" is off the board: columns A-{}, rows 1-{}",
                text.to_ascii_uppercase(),
                size.last_file(),
                size.height()
            ),
        }
    }
}

impl std::error::Error for SquareError {}

/// Full-width ASCII look-alikes (U+FF01 to U+FF5E) and the full-width
/// space as plain ASCII, if the text has any: every game's square and move
/// readers refuse them with the plain form to type.
pub fn plain_ascii(text: &str) -> Option<String> {
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

impl Size {
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
            size: self,
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
                size: self,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playing_sizes_are_four_to_eight_a_side() {
        let parse = |t: &str| Size::parse_playing(t).map(|s| s.to_string());
        assert_eq!(parse(" 5 X 7 "), Ok("5x7".to_string()));
        let msg = |t: &str| Size::parse_playing(t).unwrap_err().to_string();
        assert_eq!(
            msg("3x6"),
            "a board 3 squares wide is not supported: the width must be 4 to 8"
        );
        assert_eq!(
            msg("8x9"),
            "a board 9 squares high is not supported: the height must be 4 to 8"
        );
        assert_eq!(
            msg("6x1"),
            "a board 1 square high is not supported: the height must be 4 to 8"
        );
        assert_eq!(
            msg("4x99999999999999999999999"),
            "a board 99999999999999999999999 squares high is not supported: the height must be 4 to 8"
        );
        assert_eq!(
            msg("9x300"),
            "9x300 is not a supported board: the width and the height must each be 4 to 8"
        );
        for bad in [" six ", "-4x4", "4x", "x4", "4x4x4", "+5x5"] {
            assert_eq!(
                msg(bad),
                format!(
                    "\"{}\" is not a board size: write WIDTHxHEIGHT, like 8x8 or 6x6",
                    bad.trim()
                )
            );
        }
        assert_eq!(
            Size::playing(9u8, 2u8),
            Err(SizeError::Sides("9".into(), "2".into()))
        );
        let all: Vec<Size> = Size::all_playing().collect();
        assert_eq!(all.len(), 25);
        assert_eq!(all.first().map(ToString::to_string).as_deref(), Some("4x4"));
        assert_eq!(all.last().map(ToString::to_string).as_deref(), Some("8x8"));
        assert!(
            all.iter()
                .all(|s| Size::playing(s.width(), s.height()) == Ok(*s))
        );
    }

    #[test]
    fn squares_parse_like_the_coursework_table_but_stricter() {
        let b = Size::new(8, 8).unwrap();
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

    #[test]
    fn squares_of_a_mask_in_index_order() {
        let found: Vec<Square> =
            squares(Square::new(3, 2).bit() | Square::new(1, 0).bit()).collect();
        assert_eq!(found, vec![Square::new(1, 0), Square::new(3, 2)]);
        assert_eq!(Square::new(7, 7).to_string(), "H8");
        assert_eq!(Size::new(6, 6).unwrap().squares().count(), 36);
    }
}
