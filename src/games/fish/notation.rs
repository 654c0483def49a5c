//! The one text notation for positions, shared by `analyse`, the game log and
//! the tests; its grammar is documented in the `fish` module.
//!
//! `..1111/..2221/12..21/12..21/122221/111111 P:1,2 A:4,3 points:1+3/1+2 next:P`

use std::fmt;

use super::board::{Board, BoardError, Tiles};
use super::position::{Haul, Position, PositionError, Side};
use super::square::{Named, SquareError, at, parse_square};
use crate::games::grid::Square;

/// Why some text is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Nothing but spaces.
    Empty,
    /// A character in the rows that is not a tile.
    Tile {
        /// The row, from 1.
        row: usize,
        /// The character found.
        found: char,
    },
    /// Rows of different widths.
    Ragged {
        /// The row, from 1.
        row: usize,
        /// The width asked for.
        width: usize,
        /// The first row's width.
        first: usize,
    },
    /// The rows make a board of a size not allowed.
    Size(BoardError),
    /// A field after the rows that is not one of the known ones.
    Field(String),
    /// A field given twice.
    Twice(&'static str),
    /// No `next:` field.
    NoTurn,
    /// A bad square in a penguin list.
    Square {
        /// The side concerned.
        side: Side,
        /// Why it is not one.
        error: SquareError,
    },
    /// `place:` not two small numbers.
    Place(String),
    /// `points:` not two lists of points.
    Points(String),
    /// `next:` not `P` or `A`.
    Turn(String),
    /// The parts do not make a position.
    Position(PositionError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(
                f,
                "a position is the rows of tiles then fields, like 1111/1221/1221/1111 place:1/1 next:P"
            ),
            NotationError::Tile { row, found } => write!(
                f,
                "'{found}' in row {row} is not a tile: write 1, 2 or 3 for points, . for taken"
            ),
            NotationError::Ragged { row, width, first } => write!(
                f,
                "row {row} has {width} squares but row 1 has {first}: every row is as wide"
            ),
            NotationError::Size(e) => write!(f, "{e}"),
            NotationError::Field(text) => write!(
                f,
                "\"{text}\" is not a field: write P:, A:, place:, points: or next:"
            ),
            NotationError::Twice(name) => write!(f, "the field {name}: is given twice"),
            NotationError::NoTurn => write!(f, "whose turn is it? add next:P or next:A"),
            NotationError::Square { side, error } => write!(f, "a penguin of {side}: {error}"),
            NotationError::Place(text) => write!(
                f,
                "\"{text}\" is not a count of penguins to place: write place:P/A, like place:1/1"
            ),
            NotationError::Points(text) => write!(
                f,
                "\"{text}\" is not a list of points: write points:P/A, like points:1+3/2, - for none"
            ),
            NotationError::Turn(text) => {
                write!(
                    f,
                    "\"{text}\" is not a side to move: write next:P or next:A"
                )
            }
            NotationError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl Position {
    /// This position in notation.
    pub fn notation(&self) -> String {
        let board = self.board();
        let rows: Vec<String> = (0..board.height())
            .map(|r| {
                (0..board.width())
                    .map(|c| match self.tiles().points(Square::new(c, r)) {
                        0 => '.',
                        p => char::from(b'0' + p),
                    })
                    .collect()
            })
            .collect();
        let mut out = rows.join("/");
        for side in Side::BOTH {
            let list: Vec<String> = self
                .penguins(side)
                .map(|sq| format!("{:#}", Named(sq)))
                .collect();
            if !list.is_empty() {
                out += &format!(" {side}:{}", list.join(";"));
            }
        }
        if self.placing() {
            out += &format!(
                " place:{}/{}",
                self.to_place(Side::P),
                self.to_place(Side::A)
            );
        }
        let hauls = Side::BOTH.map(|s| self.haul(s));
        if hauls.iter().any(|h| !h.is_empty()) {
            let list = |h: Haul| {
                if h.is_empty() {
                    "-".to_string()
                } else {
                    h.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("+")
                }
            };
            out += &format!(" points:{}/{}", list(hauls[0]), list(hauls[1]));
        }
        out + &format!(" next:{}", self.to_move())
    }

    /// Reads a position written in notation, checked.
    pub fn parse(text: &str) -> Result<Position, NotationError> {
        let mut fields = text.split_whitespace();
        let rows_text = fields.next().ok_or(NotationError::Empty)?;
        let (board, tiles) = parse_rows(rows_text)?;

        let mut penguins: [Option<u64>; 2] = [None, None];
        let mut place = None;
        let mut points = None;
        let mut turn = None;
        for field in fields {
            let (name, value) = field
                .split_once(':')
                .ok_or_else(|| NotationError::Field(field.to_string()))?;
            match name.to_ascii_lowercase().as_str() {
                "p" | "a" => {
                    let side = if name.eq_ignore_ascii_case("p") {
                        Side::P
                    } else {
                        Side::A
                    };
                    let slot = &mut penguins[side.index()];
                    if slot.is_some() {
                        return Err(NotationError::Twice(if side == Side::P {
                            "P"
                        } else {
                            "A"
                        }));
                    }
                    *slot = Some(parse_squares(board, side, value)?);
                }
                "place" => set_once(&mut place, "place", parse_place(value)?)?,
                "points" => set_once(&mut points, "points", parse_points(value)?)?,
                "next" => set_once(
                    &mut turn,
                    "next",
                    value
                        .parse::<Side>()
                        .map_err(|_| NotationError::Turn(value.to_string()))?,
                )?,
                _ => return Err(NotationError::Field(field.to_string())),
            }
        }
        let to_move = turn.ok_or(NotationError::NoTurn)?;
        let hauls = points.unwrap_or_default();
        Position::from_parts(
            board,
            tiles,
            penguins.map(|p| p.unwrap_or(0)),
            place.unwrap_or([0, 0]),
            to_move,
            hauls,
        )
        .map_err(NotationError::Position)
    }
}

/// Fills an optional field, refusing a second value.
fn set_once<T>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), NotationError> {
    if slot.is_some() {
        return Err(NotationError::Twice(name));
    }
    *slot = Some(value);
    Ok(())
}

/// The rows: `1`-`3` for a tile, `.` for a taken one, rows joined by `/`.
fn parse_rows(text: &str) -> Result<(Board, Tiles), NotationError> {
    let rows: Vec<&str> = text.split('/').collect();
    let first = rows[0].chars().count();
    for (i, row) in rows.iter().enumerate() {
        if let Some(found) = row.chars().find(|c| !matches!(c, '1'..='3' | '.')) {
            return Err(NotationError::Tile { row: i + 1, found });
        }
        if row.len() != first {
            return Err(NotationError::Ragged {
                row: i + 1,
                width: row.len(),
                first,
            });
        }
    }
    let board = Board::counted(first, rows.len()).map_err(NotationError::Size)?;
    let mut tiles = Tiles::default();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.bytes().enumerate() {
            if let Some(sq) = at(board, r as u8 + 1, c as u8 + 1) {
                tiles = tiles.with(sq, ch.saturating_sub(b'0') % 4);
            }
        }
    }
    Ok((board, tiles))
}

/// A penguin list: squares as `row,column` joined by `;`.
fn parse_squares(board: Board, side: Side, text: &str) -> Result<u64, NotationError> {
    text.split(';')
        .filter(|s| !s.is_empty())
        .try_fold(0u64, |mask, s| {
            let sq =
                parse_square(board, s).map_err(|error| NotationError::Square { side, error })?;
            if mask & sq.bit() != 0 {
                return Err(NotationError::Position(PositionError::Shared(sq)));
            }
            Ok(mask | sq.bit())
        })
}

/// `place:P/A`, penguins still to place.
fn parse_place(text: &str) -> Result<[u8; 2], NotationError> {
    let bad = || NotationError::Place(text.to_string());
    let (p, a) = text.split_once('/').ok_or_else(bad)?;
    Ok([p.parse().map_err(|_| bad())?, a.parse().map_err(|_| bad())?])
}

/// `points:1+3+1/2+2`, each list in the order collected, `-` for none.
fn parse_points(text: &str) -> Result<[Haul; 2], NotationError> {
    let bad = || NotationError::Points(text.to_string());
    let (p, a) = text.split_once('/').ok_or_else(bad)?;
    let list = |part: &str| -> Result<Haul, NotationError> {
        if part == "-" {
            return Ok(Haul::default());
        }
        let points: Vec<u8> = part
            .split('+')
            .map(|n| n.parse::<u8>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        Haul::from_points(&points).ok_or_else(bad)
    };
    Ok([list(p)?, list(a)?])
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::position::Move;

    const START: &str = "111111/122221/123321/123321/122221/111111 place:1/1 next:P";

    #[test]
    fn the_start_and_a_game_round_trip() {
        let start = Position::start(Board::STANDARD, Tiles::rings(Board::STANDARD), 1);
        assert_eq!(start.notation(), START);
        assert_eq!(Position::parse(START), Ok(start));
        let mut p = start;
        for _ in 0..12 {
            let Some(&mv) = p.legal_moves().last() else {
                break;
            };
            p = p.play(mv);
            assert_eq!(Position::parse(&p.notation()), Ok(p), "{p}");
        }
        assert!(p.notation().contains(" points:"));
    }

    #[test]
    fn the_assignments_example_state() {
        let text = ".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 points:1+3/1+2 next:P";
        let p = Position::parse(text).unwrap();
        assert_eq!(p.notation(), text);
        assert!(p.is_legal(Move::Slide {
            from: at(Board::STANDARD, 1, 2).unwrap(),
            to: at(Board::STANDARD, 2, 3).unwrap(),
        }));
        // Fields in any order, any case of the field names.
        let shuffled =
            ".1111./..2221/12..21/123.21/122221/111111 NEXT:p Points:1+3/1+2 a:4,3 p:(1,2)";
        assert_eq!(Position::parse(shuffled), Ok(p));
    }

    #[test]
    fn every_notation_error_is_precise() {
        let err = |t: &str| Position::parse(t).unwrap_err().to_string();
        assert!(err("").starts_with("a position is the rows"));
        assert_eq!(
            err("1111/12x1/1221/1111 next:P"),
            "'x' in row 2 is not a tile: write 1, 2 or 3 for points, . for taken"
        );
        assert_eq!(
            err("1111/121/1221/1111 next:P"),
            "row 2 has 3 squares but row 1 has 4: every row is as wide"
        );
        assert_eq!(
            err("111/121/111 next:P"),
            "3x3 is not a supported board: the width and the height must each be 4 to 8"
        );
        assert_eq!(
            err("1111/1221/1221/1111 who:P"),
            "\"who:P\" is not a field: write P:, A:, place:, points: or next:"
        );
        assert_eq!(
            err("1111/1221/1221/1111 next:P next:A"),
            "the field next: is given twice"
        );
        assert_eq!(
            err("1111/1221/1221/1111 place:1/1"),
            "whose turn is it? add next:P or next:A"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:5,1 A:1,1 next:P"),
            "a penguin of P: row 5 is off the board: rows 1-4"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1;1,1 next:P"),
            "two penguins stand on (1,1)"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 A:1,1 next:P"),
            "two penguins stand on (1,1)"
        );
        assert_eq!(
            err(".111/1221/1221/1111 P:1,1 A:1,2 next:P"),
            "a penguin on (1,1) stands where the tile is taken"
        );
        assert_eq!(
            err("1111/1221/1221/1111 place:x/1 next:P"),
            "\"x/1\" is not a count of penguins to place: write place:P/A, like place:1/1"
        );
        assert_eq!(
            err("1111/1221/1221/1111 place:5/1 next:P"),
            "P has 5 penguins: a player has at most 4"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 A:4,4 points:1+4/- next:P"),
            "\"1+4/-\" is not a list of points: write points:P/A, like points:1+3/2, - for none"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 A:4,4 next:cat"),
            "\"cat\" is not a side to move: write next:P or next:A"
        );
        assert_eq!(
            err("1..1/..21/1221/1111 P:1,1 A:4,4 next:P"),
            "P cannot move here, so it is A's turn: write next:A"
        );
        assert_eq!(
            err("2222/2222/2222/2222 place:1/1 next:P"),
            "penguins are still to be placed but no free 1-point tile is left: write place:0/0"
        );
        // Positions no game reaches.
        assert_eq!(
            err("1111/1111/1111/1111 P:1,1 next:P"),
            "P has 1 penguin and A has 0, placed and to place: no game gives the players different numbers"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1;1,2 A:4,4 next:P"),
            "P has 2 penguins and A has 1, placed and to place: no game gives the players different numbers"
        );
        assert_eq!(
            err("1111/1221/1221/1111 next:P"),
            "no penguin stands and none is to be placed: every game gives each player at least one"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 place:0/1 next:P"),
            "A has one more to place than P, so it is A's turn: P places first and the players alternate"
        );
        assert_eq!(
            err("1111/1221/1221/1111 A:1,1 place:1/0 next:A"),
            "P has 1 to place and A 0: A cannot have placed more than P, since P places first and the players alternate"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 A:4,4 place:1/1 next:A"),
            "both have 1 to place, so it is P's turn: P places first and the players alternate"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1;1,2 place:0/2 next:A"),
            "P has 0 to place and A 2: P cannot be two placements ahead, since the players alternate"
        );
        assert_eq!(
            err("1111/1221/1221/1111 P:1,1 A:4,4 points:1/- next:P"),
            "1 tile is collected but 0 are taken from the board: every tile collected is a tile taken"
        );
        assert_eq!(
            err(".111/1221/1221/1111 P:1,2 A:4,4 points:1/3 next:P"),
            "2 tiles are collected but 1 is taken from the board: every tile collected is a tile taken"
        );
        assert_eq!(
            err(".111/1221/1221/1111 P:1,2 place:0/1 points:1/- next:A"),
            "points are collected but penguins are still to be placed: no tile is taken before every penguin stands"
        );
        // What a game reaches passes: A to place second, points as taken.
        assert!(Position::parse("1111/1221/1221/1111 P:1,1 place:0/1 next:A").is_ok());
        assert!(Position::parse(".111/1221/1221/1111 P:1,2 A:4,4 points:1/- next:A").is_ok());
        // A finished game may name either side.
        assert!(Position::parse("1..1/..../..../1..1 P:1,1 A:4,4 next:A").is_ok());
    }
}
