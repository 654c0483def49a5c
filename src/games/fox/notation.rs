//! Position notation shared by tests and the command line:
//! `FOX/HOUND,HOUND,.../SIDE`, for example `E8/B1,D1,F1,H1/fox`.

use std::fmt;

use super::board::{Board, SquareError};
use super::position::{PlacementError, Position, Side};

/// Why some text is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Not three parts separated by `/`.
    Shape(String),
    /// A part that should be a square is not one.
    Square {
        what: &'static str,
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

impl Position {
    /// Reads position notation for a board.
    pub fn parse(text: &str, board: Board) -> Result<Position, NotationError> {
        let parts: Vec<&str> = text.trim().split('/').collect();
        let [fox, hounds, side] = parts[..] else {
            return Err(NotationError::Shape(text.trim().to_string()));
        };
        let fox = board
            .parse_square(fox)
            .map_err(|error| NotationError::Square {
                what: "the fox",
                error,
            })?;
        let hounds = hounds
            .split(',')
            .map(|h| {
                board
                    .parse_square(h)
                    .map_err(|error| NotationError::Square {
                        what: "a hound",
                        error,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let side = match side.trim().to_ascii_lowercase().as_str() {
            "fox" => Side::Fox,
            "hounds" => Side::Hounds,
            _ => return Err(NotationError::Side(side.trim().to_string())),
        };
        Position::new(board, fox, hounds, side).map_err(NotationError::Placement)
    }

    /// This position in notation (the board size is not part of it).
    pub fn notation(&self) -> String {
        let hounds: Vec<String> = self.hounds().map(|h| h.to_string()).collect();
        format!("{}/{}/{}", self.fox(), hounds.join(","), self.to_move())
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
    }
}
