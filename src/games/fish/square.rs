//! Squares named as the assignment names them, row then column, counted
//! from 1 at the top left: `(2,4)` in messages, `2,4` in notation, and
//! typed as `2 4`, `2,4` or `(2,4)`.
//!
//! Row `r`, column `c` is the grid's `Square::new(c - 1, r - 1)`: grid row 0
//! is the top row, the one the board is drawn with first.

use std::fmt;

use super::board::Board;
use crate::games::grid::Square;

/// Shows a square the assignment's way: `(2,4)`, or `2,4` with `{:#}`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Named(pub Square);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, c) = (self.0.row() + 1, self.0.col() + 1);
        if f.alternate() {
            write!(f, "{r},{c}")
        } else {
            write!(f, "({r},{c})")
        }
    }
}

/// The square at row `row` and column `column`, both counted from 1, if it
/// is on the board.
pub fn at(board: Board, row: u8, column: u8) -> Option<Square> {
    let (r, c) = (row.checked_sub(1)?, column.checked_sub(1)?);
    board.size().square(c, r)
}

/// Why some text is not a square.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// Nothing was typed.
    Empty,
    /// Not two numbers.
    Syntax {
        /// What was typed.
        text: String,
        /// The board.
        board: Board,
    },
    /// A single number.
    OnlyOne {
        /// What was typed.
        text: String,
    },
    /// More than two numbers.
    TooMany {
        /// What was typed.
        text: String,
    },
    /// A letter and a number, as the other games name squares.
    Lettered {
        /// What was typed.
        text: String,
    },
    /// Full-width look-alike characters.
    FullWidth {
        /// What was typed.
        text: String,
    },
    /// A row beyond the board, as typed (without leading zeros).
    RowOff {
        /// The row, from 1.
        row: String,
        /// The board.
        board: Board,
    },
    /// A column beyond the board, as typed (without leading zeros).
    ColumnOff {
        /// The column as typed.
        column: String,
        /// The board.
        board: Board,
    },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Empty => write!(f, "type a row and a column, like 2 4"),
            SquareError::Syntax { text, board } => write!(
                f,
                "\"{text}\" is not a square: type a row 1-{} and a column 1-{}, like 2 4",
                board.height(),
                board.width()
            ),
            SquareError::OnlyOne { text } => write!(
                f,
                "\"{text}\" is only a row: type the row and the column, like 2 4"
            ),
            SquareError::TooMany { text } => write!(
                f,
                "\"{text}\" has more than two numbers: type one row and one column, like 2 4"
            ),
            SquareError::Lettered { text } => write!(
                f,
                "\"{text}\" is not a square here: type the row and the column as numbers, like 2 4"
            ),
            SquareError::FullWidth { text } => write!(
                f,
                "\"{text}\" uses full-width characters: type plain digits, like 2 4"
            ),
            SquareError::RowOff { row, board } => {
                write!(f, "row {row} is off the board: rows 1-{}", board.height())
            }
            SquareError::ColumnOff { column, board } => write!(
                f,
                "column {column} is off the board: columns 1-{}",
                board.width()
            ),
        }
    }
}

impl std::error::Error for SquareError {}

/// Reads a square typed as a row then a column: `2 4`, `2,4`, `(2,4)`,
/// `( 2 , 4 )`. Errors say what was wrong and what would be right.
pub fn parse_square(board: Board, text: &str) -> Result<Square, SquareError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(SquareError::Empty);
    }
    let owned = || trimmed.to_string();
    if crate::games::grid::plain_ascii(trimmed).is_some() {
        return Err(SquareError::FullWidth { text: owned() });
    }
    let syntax = || SquareError::Syntax {
        text: owned(),
        board,
    };
    // Parentheses are optional but must pair up around the whole square.
    let inner = match (trimmed.strip_prefix('('), trimmed.ends_with(')')) {
        (Some(rest), true) => &rest[..rest.len() - 1],
        (None, false) => trimmed,
        _ => return Err(syntax()),
    };
    let parts: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    // One comma at most, with a number on each side: `2,,4` and `2,` are typos.
    let commas: Vec<&str> = inner.split(',').collect();
    if commas.len() > 2 || (commas.len() == 2 && commas.iter().any(|p| p.trim().is_empty())) {
        return Err(syntax());
    }
    if parts.iter().any(|p| !p.bytes().all(|b| b.is_ascii_digit())) {
        let lettered = parts.len() == 1
            && parts[0].len() >= 2
            && parts[0].as_bytes()[0].is_ascii_alphabetic()
            && parts[0][1..].bytes().all(|b| b.is_ascii_digit());
        return Err(if lettered {
            SquareError::Lettered { text: owned() }
        } else {
            syntax()
        });
    }
    match parts[..] {
        [row, column] => {
            // Huge numbers are still numbers, just off the board.
            let (row, column) = (number(row), number(column));
            let r = row
                .parse::<u8>()
                .ok()
                .filter(|&r| (1..=board.height()).contains(&r));
            let Some(r) = r else {
                return Err(SquareError::RowOff { row, board });
            };
            let c = column
                .parse::<u8>()
                .ok()
                .filter(|&c| (1..=board.width()).contains(&c));
            let Some(c) = c else {
                return Err(SquareError::ColumnOff { column, board });
            };
            at(board, r, c).ok_or_else(syntax)
        }
        // A row off the board is said to be, before it is said to be
        // only half a square.
        [row] => match number(row) {
            row if row
                .parse::<u8>()
                .is_ok_and(|r| (1..=board.height()).contains(&r)) =>
            {
                Err(SquareError::OnlyOne { text: owned() })
            }
            row => Err(SquareError::RowOff { row, board }),
        },
        [] => Err(syntax()),
        _ => Err(SquareError::TooMany { text: owned() }),
    }
}

/// Reads a path of squares: one square (`2 4`), or several joined by `-`
/// (`1,2-2,3`, the log's notation) or each in parentheses (`(1,2) (2,3)`).
pub fn parse_path(board: Board, text: &str) -> Result<Vec<Square>, SquareError> {
    let trimmed = text.trim();
    if trimmed.contains('-') {
        return trimmed
            .split('-')
            .map(|part| parse_square(board, part))
            .collect();
    }
    if trimmed.starts_with('(') && trimmed.matches('(').count() > 1 {
        return trimmed
            .split_inclusive(')')
            .filter(|part| !part.trim().is_empty())
            .map(|part| parse_square(board, part))
            .collect();
    }
    parse_square(board, trimmed).map(|sq| vec![sq])
}

/// Digits without leading zeros, `0` for all zeros.
fn number(digits: &str) -> String {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() { "0" } else { trimmed }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_form_names_the_same_square() {
        let b = Board::STANDARD;
        let want = Square::new(3, 1);
        for text in ["2 4", "2,4", "(2,4)", " ( 2 , 4 ) ", "2, 4", "2\t4", "02 4"] {
            assert_eq!(parse_square(b, text), Ok(want), "{text}");
        }
        assert_eq!(Named(want).to_string(), "(2,4)");
        assert_eq!(format!("{:#}", Named(want)), "2,4");
    }

    #[test]
    fn paths_read_in_the_log_and_typed_forms() {
        let b = Board::STANDARD;
        let want = vec![Square::new(1, 0), Square::new(2, 1)];
        assert_eq!(parse_path(b, "1,2-2,3"), Ok(want.clone()));
        assert_eq!(parse_path(b, "(1,2) (2,3)"), Ok(want.clone()));
        assert_eq!(parse_path(b, "(1,2)-(2,3)"), Ok(want));
        assert_eq!(parse_path(b, "2 4"), Ok(vec![Square::new(3, 1)]));
        assert_eq!(
            parse_path(b, "1,2-9,3").unwrap_err().to_string(),
            "row 9 is off the board: rows 1-6"
        );
        assert_eq!(
            parse_path(b, "1,2-").unwrap_err().to_string(),
            "type a row and a column, like 2 4"
        );
    }

    #[test]
    fn errors_say_what_was_wrong() {
        let b = Board::STANDARD;
        let err = |t: &str| parse_square(b, t).unwrap_err().to_string();
        assert_eq!(err("  "), "type a row and a column, like 2 4");
        assert_eq!(
            err("2"),
            "\"2\" is only a row: type the row and the column, like 2 4"
        );
        assert_eq!(
            err("2 4 5"),
            "\"2 4 5\" has more than two numbers: type one row and one column, like 2 4"
        );
        assert_eq!(err("7 1"), "row 7 is off the board: rows 1-6");
        // One number, and no row: off the board before half a square.
        assert_eq!(err("7"), "row 7 is off the board: rows 1-6");
        assert_eq!(err("007"), "row 7 is off the board: rows 1-6");
        assert_eq!(err("0"), "row 0 is off the board: rows 1-6");
        assert_eq!(err("0,1"), "row 0 is off the board: rows 1-6");
        assert_eq!(err("1 9"), "column 9 is off the board: columns 1-6");
        assert_eq!(
            err("1 99999999999999999999999"),
            "column 99999999999999999999999 is off the board: columns 1-6"
        );
        assert_eq!(
            err("b2"),
            "\"b2\" is not a square here: type the row and the column as numbers, like 2 4"
        );
        assert_eq!(
            err("two four"),
            "\"two four\" is not a square: type a row 1-6 and a column 1-6, like 2 4"
        );
        assert_eq!(
            err("(2,4"),
            "\"(2,4\" is not a square: type a row 1-6 and a column 1-6, like 2 4"
        );
        assert_eq!(
            err("2,,4"),
            "\"2,,4\" is not a square: type a row 1-6 and a column 1-6, like 2 4"
        );
        assert_eq!(
            err("２ ４"),
            "\"２ ４\" uses full-width characters: type plain digits, like 2 4"
        );
        assert_eq!(
            err("-1 2").split(':').next(),
            Some("\"-1 2\" is not a square")
        );
    }
}
