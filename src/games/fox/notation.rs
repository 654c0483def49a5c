//! Position notation shared by tests and the command line:
//! `FOX/HOUND,HOUND,.../SIDE`, for example `E8/B1,D1,F1,H1/fox`.
//!
//! Under the capture rules the hounds may be fewer, down to none (`D4//hounds`),
//! and a fox a hound has taken is written `x`: `x/A1,C1,E3,G1/fox`. The
//! placement is all a position holds, so the square the fox was taken on is
//! not recorded; a hound stands there. Hounds are written lowest square first.

use std::fmt;

use super::board::{Board, SquareError};
use super::position::{PlacementError, Position, Rules, Side};

/// Why some text is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Not three parts separated by `/`.
    Shape(String),
    /// A part that should be a square is not one.
    Square {
        /// Which piece's square: `the fox`, `a hound`.
        what: &'static str,
        /// Why it is no square.
        error: SquareError,
    },
    /// The side to move is neither `fox` nor `hounds`.
    Side(String),
    /// The squares do not make a position on this board.
    Placement(PlacementError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Shape(text) => write!(
                f,
                "\"{text}\" is not a position: write FOX/HOUND,HOUND,.../SIDE, like E8/B1,D1,F1,H1/fox"
            ),
            NotationError::Square { what, error } => write!(f, "{what}: {error}"),
            NotationError::Side(text) => {
                write!(f, "\"{text}\" is not a side to move: write fox or hounds")
            }
            NotationError::Placement(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// How a fox taken by a hound is written.
const CAPTURED: &str = "x";

impl Position {
    /// Reads position notation for a board, without captures: the fox and
    /// every hound on the board. See [`Position::parse_under`].
    pub fn parse(text: &str, board: Board) -> Result<Position, NotationError> {
        Position::parse_under(text, board, Rules::Standard)
    }

    /// Reads position notation for a board under `rules`: under the capture
    /// rules fewer hounds and a taken fox (`x`) are allowed.
    pub fn parse_under(text: &str, board: Board, rules: Rules) -> Result<Position, NotationError> {
        let parts: Vec<&str> = text.trim().split('/').collect();
        let [fox, hounds, side] = parts[..] else {
            return Err(NotationError::Shape(text.trim().to_string()));
        };
        let fox = if fox.trim().eq_ignore_ascii_case(CAPTURED) {
            None
        } else {
            Some(
                board
                    .parse_square(fox)
                    .map_err(|error| NotationError::Square {
                        what: "the fox",
                        error,
                    })?,
            )
        };
        // No hounds at all is an empty list, not one empty square.
        let hounds: Vec<&str> = if hounds.trim().is_empty() {
            Vec::new()
        } else {
            hounds.split(',').collect()
        };
        let hounds = hounds
            .into_iter()
            .map(|h| {
                board
                    .parse_square(h)
                    .map_err(|error| NotationError::Square {
                        what: "a hound",
                        error,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Notation writes a side by its name alone, in any case.
        let side = [Side::Fox, Side::Hounds]
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(side.trim()))
            .ok_or_else(|| NotationError::Side(side.trim().to_string()))?;
        Position::new_under(board, rules, fox, hounds, side).map_err(NotationError::Placement)
    }

    /// This position in notation (the board size and the rules are not part of it).
    pub fn notation(&self) -> String {
        let hounds: Vec<String> = self.hounds().map(|h| h.to_string()).collect();
        let fox = self.fox().map_or(CAPTURED.to_string(), |sq| sq.to_string());
        format!("{fox}/{}/{}", hounds.join(","), self.to_move())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_sorts_hounds() {
        let p = Position::parse("e8/H1,b1,F1,D1/FOX", Board::STANDARD).unwrap();
        assert_eq!(p.notation(), "E8/B1,D1,F1,H1/fox");
        assert_eq!(Position::parse(&p.notation(), Board::STANDARD), Ok(p));
    }

    #[test]
    fn notation_errors_are_precise() {
        let err = |t: &str| Position::parse(t, Board::STANDARD).unwrap_err().to_string();
        assert!(err("junk").starts_with("\"junk\" is not a position"));
        assert_eq!(
            err("E8/B1,D1,F1,H1/cat"),
            "\"cat\" is not a side to move: write fox or hounds"
        );
        assert_eq!(err("E8/B1,D1,F1/fox"), "this board needs 4 hounds, not 3");
        assert_eq!(err("E8/B1,B1,F1,H1/fox"), "two pieces stand on B1");
        assert_eq!(
            err("D8/B1,D1,F1,H1/fox"),
            "D8 is a light square: pieces stand only on dark squares"
        );
        assert_eq!(
            err("E9/B1,D1,F1,H1/fox"),
            "the fox: \"E9\" is off the board: columns A-H, rows 1-8"
        );
        assert_eq!(
            Position::parse("B5/B1,D1/fox", Board::new(4, 4).unwrap())
                .unwrap_err()
                .to_string(),
            "the fox: \"B5\" is off the board: columns A-D, rows 1-4"
        );
        assert_eq!(
            err("x/B1,D1,F1,H1/fox"),
            PlacementError::FoxCaptured.to_string()
        );
        assert_eq!(err("E8//fox"), "this board needs 4 hounds, not 0");
    }

    #[test]
    fn capture_notation_has_fewer_hounds_and_a_taken_fox() {
        let board = Board::new(7, 8).unwrap();
        let parse = |t: &str| Position::parse_under(t, board, Rules::Capture);
        let start = parse("D8/A1,C1,E1,G1/fox").unwrap();
        assert!(start.captures());
        assert_eq!(
            start,
            Position::start_under(board, Rules::Capture, start.fox().unwrap(), Side::Fox).unwrap()
        );
        for text in ["x/A1,C1,E3,G1/fox", "D4//hounds", "D4/C3/fox", "X/c3/FOX"] {
            let p = parse(text).unwrap();
            assert_eq!(parse(&p.notation()), Ok(p), "{text}");
        }
        assert_eq!(parse("X/c3/FOX").unwrap().notation(), "x/C3/fox");
        assert_eq!(parse("x/A1,C1,E3,G1/fox").unwrap().fox(), None);
        assert_eq!(parse("D4//hounds").unwrap().hound_count(), 0);
        let err = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(
            err("x//fox"),
            "the fox is captured (x), so a hound must stand where it was taken"
        );
        assert_eq!(
            err("D8/A1,C1,E1,G1,A3/fox"),
            "this board has at most 4 hounds, not 5"
        );
        assert_eq!(err("D8/A1,,G1/fox"), "a hound: type a square, like B1");
        assert_eq!(
            err("E8/A1/fox"),
            "E8 is a light square: pieces stand only on dark squares"
        );
    }
}
