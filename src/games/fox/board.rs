//! The board: its size, its squares, and which of them are dark.
//!
//! Play uses the dark squares. On an even width `A1` is light and `B1` dark,
//! as the coursework and the 1978 program had it; on an odd width `A1` is
//! dark, as on the Python project's 7-wide board, so that row 1 has a dark
//! square in each corner and ceil(width / 2) hounds.

use std::fmt;
use std::str::FromStr;

use crate::games::grid::Size;
pub use crate::games::grid::{
    GRID as MAX_SIDE, MIN_SIDE, SizeError as BoardError, Square, SquareError, squares,
};

/// A board size: a width and a height from 4 to 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    size: Size,
}

impl Board {
    /// The standard 8x8 checkerboard.
    pub const STANDARD: Board = Board {
        size: Size::new(8, 8).expect("8x8 is a grid"),
    };

    /// A board of the given size, if it is supported.
    pub fn new(width: u8, height: u8) -> Result<Board, BoardError> {
        Size::playing(width, height).map(|size| Board { size })
    }

    /// Every supported board size, smallest first (by width, then height).
    pub fn all() -> impl Iterator<Item = Board> {
        Size::all_playing().map(|size| Board { size })
    }

    /// Number of columns.
    pub const fn width(self) -> u8 {
        self.size.width()
    }

    /// Number of rows.
    pub const fn height(self) -> u8 {
        self.size.height()
    }

    /// The number of hounds at the start: one for every dark square of row 1,
    /// ceil(width / 2). Under the capture rules the fox may eat some of them.
    pub const fn hound_count(self) -> usize {
        self.width().div_ceil(2) as usize
    }

    /// Whether a square of this board is dark: `B1` on even widths, `A1` on odd ones.
    pub const fn is_dark(self, sq: Square) -> bool {
        (sq.col() + sq.row() + self.width()) % 2 == 1
    }

    /// The zero-based row the fox starts on.
    pub const fn top_row(self) -> u8 {
        self.height() - 1
    }

    /// The square at a zero-based column and row, if it is on this board.
    pub fn square(self, col: u8, row: u8) -> Option<Square> {
        self.size.square(col, row)
    }

    /// Whether a square lies on this board.
    pub fn contains(self, sq: Square) -> bool {
        self.size.contains(sq)
    }

    /// The square `dc` columns and `dr` rows from `sq`, if it is on this board.
    pub fn offset(self, sq: Square, dc: i8, dr: i8) -> Option<Square> {
        self.size.offset(sq, dc, dr)
    }

    /// Mask of every dark square of this board.
    pub fn dark_mask(self) -> u64 {
        self.size
            .squares()
            .filter(|&sq| self.is_dark(sq))
            .fold(0, |mask, sq| mask | sq.bit())
    }

    /// The dark squares of one zero-based row, left to right.
    pub fn dark_squares_of_row(self, row: u8) -> impl Iterator<Item = Square> {
        (0..self.width())
            .map(move |col| Square::new(col, row))
            .filter(move |&sq| self.is_dark(sq))
    }

    /// The fox's default start, a dark square of the top row. On even widths
    /// the leftmost (`A8` on 8x8, as in the coursework). Odd widths come from
    /// the Python project, whose fox starts in the middle (`D8` on 7x8): the
    /// dark square nearest the middle, the left one of two (`C7` on 7x7).
    pub fn default_fox_start(self) -> Square {
        let middle = |sq: &Square| {
            if self.width().is_multiple_of(2) {
                0
            } else {
                (2 * sq.col()).abs_diff(self.width() - 1)
            }
        };
        let top = self.top_row();
        // Row parity alternates, so a row at least 4 wide always has a dark
        // square; the fallback is never taken.
        self.dark_squares_of_row(top)
            .min_by_key(middle)
            .unwrap_or(Square::new(0, top))
    }

    /// The hounds' start: every dark square of row 1.
    pub fn hounds_start(self) -> u64 {
        self.dark_squares_of_row(0).fold(0, |m, sq| m | sq.bit())
    }

    /// The last file letter, for messages: `H` on an 8-wide board.
    pub fn last_file(self) -> char {
        self.size().last_file()
    }

    /// The board as a plain grid size.
    pub fn size(self) -> Size {
        self.size
    }

    /// Reads a square such as `B1` or ` b1 `: a column letter, then a row number.
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        self.size().parse_square(text)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::STANDARD
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.size)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        Size::parse_playing(text).map(|size| Board { size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b1_is_dark_on_even_widths_and_a1_on_odd_ones() {
        let even = Board::STANDARD;
        assert!(!even.is_dark(Square::new(0, 0)));
        assert!(even.is_dark(Square::new(1, 0)));
        assert!(even.is_dark(Square::new(0, 7)));
        let odd = Board::new(7, 8).unwrap();
        assert!(odd.is_dark(Square::new(0, 0)));
        assert!(odd.is_dark(Square::new(6, 0)));
        assert!(odd.is_dark(Square::new(3, 7)));
        assert_eq!(odd.hound_count(), 4);
        assert_eq!(Board::new(5, 5).unwrap().hound_count(), 3);
        let hounds: Vec<String> = squares(odd.hounds_start()).map(|s| s.to_string()).collect();
        assert_eq!(hounds, ["A1", "C1", "E1", "G1"]);
        for board in Board::all() {
            // Every even board keeps the grid's colouring.
            if board.width() % 2 == 0 {
                assert!(
                    board
                        .size()
                        .squares()
                        .all(|sq| board.is_dark(sq) == sq.is_dark())
                );
            }
        }
    }

    #[test]
    fn default_fox_start_is_a8_on_8x8_and_dark_everywhere() {
        assert_eq!(Board::STANDARD.default_fox_start().to_string(), "A8");
        for board in Board::all() {
            assert!(board.is_dark(board.default_fox_start()), "{board}");
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
        let start = |b: &str| b.parse::<Board>().unwrap().default_fox_start().to_string();
        assert_eq!(start("7x8"), "D8");
        assert_eq!(start("7x7"), "C7");
        assert_eq!(start("5x5"), "C5");
        assert_eq!(start("5x8"), "B8");
    }

    #[test]
    fn board_sizes_parse_with_precise_errors() {
        assert_eq!("6x6".parse::<Board>(), Board::new(6, 6));
        assert_eq!("5x6".parse::<Board>(), Board::new(5, 6));
        let side = |n: &str| n.to_string();
        assert_eq!("9x6".parse::<Board>(), Err(BoardError::Width(side("9"))));
        assert_eq!("3x6".parse::<Board>(), Err(BoardError::Width(side("3"))));
        assert_eq!("8x9".parse::<Board>(), Err(BoardError::Height(side("9"))));
        assert_eq!(
            "3x300".parse::<Board>(),
            Err(BoardError::Sides(side("3"), side("300")))
        );
        assert!(matches!(
            "eight".parse::<Board>(),
            Err(BoardError::Syntax(_))
        ));
        assert_eq!(Board::all().count(), 25);
    }
}
