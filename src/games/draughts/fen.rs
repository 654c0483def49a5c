//! FEN, the position notation of PDN: the side to move, then each side's
//! squares with `K` before a king, like `B:W18,24,K10:B12,16,K22`.
//!
//! Reading also takes ranges (`W21-32`, `WK21-K23` or `WK21-23` for kings), either colour first, coordinates for
//! squares (`c3`), spaces, and a final full stop, as other programs write them.

use std::fmt;

use super::bitboard::Bits;
use super::position::{PlacementError, Position, Side};
use super::square::{PdnSquare, PdnSquareError};

/// Why some text is not a FEN position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Written in full-width characters (`B:W２１:B1`): `plain` is the same
    /// in plain ones.
    FullWidth {
        /// What was written.
        text: String,
        /// Its plain form.
        plain: String,
    },
    /// Not three parts separated by colons.
    Shape(String),
    /// The first part is not `B` or `W`.
    SideToMove(String),
    /// A part does not start with `B` or `W`.
    Colour(String),
    /// The same colour has two parts.
    ColourTwice(Side),
    /// An entry of a list is not a square.
    Square {
        /// The side concerned.
        side: Side,
        /// What was typed.
        text: String,
        /// Why it is not one.
        error: PdnSquareError,
    },
    /// A range whose ends are out of order.
    Range {
        /// The side concerned.
        side: Side,
        /// What was typed.
        text: String,
    },
    /// A range that starts with a man and ends with a king (`21-K23`).
    MixedRange {
        /// The side concerned.
        side: Side,
        /// What was typed.
        text: String,
    },
    /// An entry that marks its king twice (`KK21`, `K21-KK23`).
    KingTwice {
        /// The side concerned.
        side: Side,
        /// What was typed.
        text: String,
    },
    /// A square listed more than once.
    Twice(PdnSquare),
    /// The squares do not make a position.
    Placement(PlacementError),
    /// Neither side has a piece: there is no game to judge.
    Empty,
}

const EXAMPLE: &str =
    "write the side to move, then each side's squares, like B:W21-32:B1-12 or W:W18,K10:B12,K22";

impl FenError {
    /// Whether the message quotes the whole text read, so that a caller
    /// naming that text need not quote it again.
    pub fn quotes_whole(&self) -> bool {
        matches!(self, FenError::Shape(_) | FenError::FullWidth { .. })
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FullWidth { text, plain } => write!(
                f,
                "\"{text}\" uses full-width characters: type plain {plain}"
            ),
            FenError::Shape(text) => write!(f, "\"{text}\" is not a FEN position: {EXAMPLE}"),
            FenError::SideToMove(text) => write!(
                f,
                "\"{text}\" is not a side to move: a FEN position starts with B or W"
            ),
            FenError::Colour(text) => write!(
                f,
                "\"{text}\" should start with B or W, the colour of the pieces listed"
            ),
            FenError::ColourTwice(side) => write!(f, "{}'s pieces are listed twice", side.title()),
            FenError::Square { side, text, error } => {
                write!(f, "{}'s \"{text}\": {error}", side.title())
            }
            FenError::Range { side, text } => write!(
                f,
                "{}'s range \"{text}\" runs backwards: write the smaller square first",
                side.title()
            ),
            FenError::MixedRange { side, text } => write!(
                f,
                "{}'s range \"{text}\" ends with a king but starts with a man: a range is all men or all kings; for kings write K before its first square (K21-23)",
                side.title()
            ),
            FenError::KingTwice { side, text } => write!(
                f,
                "{}'s \"{text}\" marks its king twice: write K once, before the first square (K21, K21-23)",
                side.title()
            ),
            FenError::Twice(sq) => write!(f, "square {sq} is listed twice"),
            FenError::Placement(e) => write!(f, "{e}"),
            FenError::Empty => write!(
                f,
                "the board is empty: a position needs at least one piece, like W:W18,K10:B12,K22"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// One side's pieces read from a list.
struct Listed {
    pieces: Bits,
    kings: Bits,
}

fn parse_square(side: Side, text: &str) -> Result<PdnSquare, FenError> {
    PdnSquare::parse(text).map_err(|error| FenError::Square {
        side,
        text: text.trim().to_string(),
        error,
    })
}

fn parse_list(side: Side, list: &str, seen: &mut Bits) -> Result<Listed, FenError> {
    let mut out = Listed {
        pieces: 0,
        kings: 0,
    };
    for entry in list.split(',') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let (king, body) = match entry.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, entry),
        };
        if king && body.starts_with(['K', 'k']) {
            return Err(FenError::KingTwice {
                side,
                text: entry.to_string(),
            });
        }
        let squares: Bits = match body.split_once('-') {
            Some((a, b)) => {
                // A range with an end left out (`-1`, `1-`, `-K3`, `1-K`)
                // quotes the whole range, not the empty end, whatever else
                // it holds.
                if a.trim().is_empty() || b.trim().trim_start_matches(['K', 'k']).is_empty() {
                    return Err(FenError::Square {
                        side,
                        text: entry.to_string(),
                        error: PdnSquareError::Empty,
                    });
                }
                // A range of kings may name the king again at its end
                // (`K21-K23`).
                let b = match b.strip_prefix(['K', 'k']) {
                    Some(rest) if king && rest.starts_with(['K', 'k']) => {
                        return Err(FenError::KingTwice {
                            side,
                            text: entry.to_string(),
                        });
                    }
                    Some(rest) if king => rest,
                    Some(_) => {
                        return Err(FenError::MixedRange {
                            side,
                            text: entry.to_string(),
                        });
                    }
                    None => b,
                };
                // A range's end that is no square quotes the range.
                let end = |text: &str| {
                    parse_square(side, text).map_err(|e| match e {
                        FenError::Square { side, error, .. } => FenError::Square {
                            side,
                            text: entry.to_string(),
                            error,
                        },
                        e => e,
                    })
                };
                let (a, b) = (end(a)?, end(b)?);
                if a > b {
                    return Err(FenError::Range {
                        side,
                        text: entry.to_string(),
                    });
                }
                (a.index()..=b.index()).fold(0, |m, i| m | 1 << i)
            }
            None => parse_square(side, body)?.bit(),
        };
        if let Some(sq) = PdnSquare::from_index((squares & *seen).trailing_zeros() as u8) {
            return Err(FenError::Twice(sq));
        }
        *seen |= squares;
        out.pieces |= squares;
        if king {
            out.kings |= squares;
        }
    }
    Ok(out)
}

/// Reads a FEN position, checked.
pub fn parse(text: &str) -> Result<Position, FenError> {
    let trimmed = text.trim();
    if let Some(plain) = crate::games::grid::plain_ascii(trimmed) {
        return Err(FenError::FullWidth {
            text: trimmed.to_string(),
            plain,
        });
    }
    // Ranges may be joined by any dash a moves' text may (`W21–32`).
    let plain = super::notation::plain_dashes(trimmed);
    let body = plain.strip_suffix('.').unwrap_or(&plain);
    let parts: Vec<&str> = body.split(':').collect();
    let [side, first, second] = parts[..] else {
        return Err(FenError::Shape(trimmed.to_string()));
    };
    let to_move = match side.trim() {
        "B" | "b" => Side::Black,
        "W" | "w" => Side::White,
        other => return Err(FenError::SideToMove(other.to_string())),
    };
    let mut seen = 0;
    let mut lists: [Option<Listed>; 2] = [None, None];
    for part in [first, second] {
        let part = part.trim();
        let (colour, rest) = match part.chars().next() {
            Some('B' | 'b') => (Side::Black, &part[1..]),
            Some('W' | 'w') => (Side::White, &part[1..]),
            _ => return Err(FenError::Colour(part.to_string())),
        };
        let slot = &mut lists[colour as usize];
        if slot.is_some() {
            return Err(FenError::ColourTwice(colour));
        }
        *slot = Some(parse_list(colour, rest, &mut seen)?);
    }
    let [Some(black), Some(white)] = lists else {
        return Err(FenError::Shape(trimmed.to_string()));
    };
    if black.pieces | white.pieces == 0 {
        return Err(FenError::Empty);
    }
    Position::new(
        black.pieces,
        white.pieces,
        black.kings | white.kings,
        to_move,
    )
    .map_err(FenError::Placement)
}

fn write_list(out: &mut String, pos: &Position, side: Side) {
    out.push(side.letter());
    let men = super::bitboard::indices(pos.men(side)).map(|i| format!("{}", i + 1));
    let kings = super::bitboard::indices(pos.kings(side)).map(|i| format!("K{}", i + 1));
    let all: Vec<String> = men.chain(kings).collect();
    out.push_str(&all.join(","));
}

/// A position in FEN: side to move, White's list, Black's list, men before
/// kings, each in square order.
pub fn write(pos: &Position) -> String {
    let mut out = String::new();
    out.push(pos.to_move().letter());
    out.push(':');
    write_list(&mut out, pos, Side::White);
    out.push(':');
    write_list(&mut out, pos, Side::Black);
    out
}

impl fmt::Display for Position {
    /// The position in FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_and_an_example_round_trip() {
        assert_eq!(
            write(&Position::START),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(parse("B:W21-32:B1-12"), Ok(Position::START));
        // Ranges joined by an en dash or a minus sign, as moves may be.
        assert_eq!(parse("B:W21\u{2013}32:B1\u{2212}12"), Ok(Position::START));
        let p = parse("B:W18,24,K10:B12,16,K22").unwrap();
        assert_eq!(write(&p), "B:W18,24,K10:B12,16,K22");
        // A range of kings, its end named as a king again or not.
        assert_eq!(write(&parse("B:WK21-K23:B1").unwrap()), "B:WK21,K22,K23:B1");
        assert_eq!(write(&parse("B:WK21-23:B1").unwrap()), "B:WK21,K22,K23:B1");
        assert_eq!(
            parse(" w : b12 ,16, k22 : W18,24,K10 . ").unwrap(),
            p.with_side(Side::White)
        );
        assert_eq!(parse("W:Wc3:BK1").unwrap().to_string(), "W:W11:BK1");
        assert_eq!(parse("B:W:B1").unwrap().pieces(Side::White), 0);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |t: &str| parse(t).unwrap_err().to_string();
        assert!(err("junk").starts_with("\"junk\" is not a FEN position: write the side"));
        for (wide, plain) in [
            ("B:W２１:B1", "B:W21:B1"),
            ("B:W21，22:B1", "B:W21,22:B1"),
            ("B:W21－22:B1", "B:W21-22:B1"),
            ("Ｗ：W21:B1", "W:W21:B1"),
        ] {
            assert_eq!(
                err(wide),
                format!("\"{wide}\" uses full-width characters: type plain {plain}")
            );
        }
        assert_eq!(
            err("X:W1:B2"),
            "\"X\" is not a side to move: a FEN position starts with B or W"
        );
        assert_eq!(err("B:W1:W2"), "White's pieces are listed twice");
        assert_eq!(
            err("B:W-1:B5"),
            "White's \"-1\": type a square, like 11 or C3"
        );
        assert_eq!(
            err("B:W5:BK1-"),
            "Black's \"K1-\": type a square, like 11 or C3"
        );
        assert_eq!(
            err("B:W5:B-K3"),
            "Black's \"-K3\": type a square, like 11 or C3"
        );
        assert_eq!(
            err("B:W1-K:B5"),
            "White's \"1-K\": type a square, like 11 or C3"
        );
        assert_eq!(
            err("B:W1--3:B9"),
            "White's \"1--3\": \"-3\" is not a square: type a number 1-32 like 11, or a column A-H and a row 1-8 like C3"
        );
        assert_eq!(
            err("B:Q1:W2"),
            "\"Q1\" should start with B or W, the colour of the pieces listed"
        );
        assert_eq!(
            err("B:W33:B1"),
            "White's \"33\": \"33\" is off the board: the squares are numbered 1-32"
        );
        assert_eq!(
            err("B:Wb3:B1"),
            "White's \"b3\": B3 is a light square: draughts is played on the dark squares, like A1, C3 or D4"
        );
        assert_eq!(
            err("B:W21-K23:B1"),
            "White's range \"21-K23\" ends with a king but starts with a man: a range is all men or all kings; for kings write K before its first square (K21-23)"
        );
        assert_eq!(
            err("B:W5:BKK21"),
            "Black's \"KK21\" marks its king twice: write K once, before the first square (K21, K21-23)"
        );
        assert_eq!(
            err("B:W5:BK21-KK23"),
            "Black's \"K21-KK23\" marks its king twice: write K once, before the first square (K21, K21-23)"
        );
        assert_eq!(err("B:W5,K5:B1"), "square 5 is listed twice");
        assert_eq!(err("B:W5:B5"), "square 5 is listed twice");
        assert_eq!(
            err("B:W12-5:B1"),
            "White's range \"12-5\" runs backwards: write the smaller square first"
        );
        assert_eq!(
            err("B:W1:B9"),
            "a white man stands on 1 (G1), its crowning row: make it a king (K1)"
        );
        assert_eq!(
            err("B:W1-13:B20"),
            "white has 13 pieces: a side has at most 12"
        );
        assert_eq!(
            err("B:W:B"),
            "the board is empty: a position needs at least one piece, like W:W18,K10:B12,K22"
        );
        // One side alone is a game its other side has lost.
        assert!(parse("B:W:BK1").is_ok());
    }
}
