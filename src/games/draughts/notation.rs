//! Moves written as text: PDN numeric notation (`11-15`, `22x15x6`, the
//! short `11x25`) or coordinates (`C3 D4`, `E3xG5xE7`), resolved against the
//! legal moves of a position, with the reason when a move is refused.

use std::fmt;

use super::moves::Move;
use super::position::{Piece, Position};
use super::refusal::{self, Refusal};
use super::rules::Setup;
use super::square::{PdnSquare, PdnSquareError};
use crate::games::or_list;

/// Why some text is not a legal move here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not squares joined by `-` or `x`.
    Syntax(String),
    /// One of the squares is not a playing square.
    Square(PdnSquareError),
    /// Nothing stands on the first square.
    NoPiece(PdnSquare),
    /// The first square holds the other side's piece.
    NotYours {
        /// The square.
        square: PdnSquare,
        /// The piece there.
        piece: Piece,
    },
    /// A step or a capture was named while a capture must be taken.
    CaptureCompulsory {
        /// The captures the side to move must choose from.
        captures: Vec<Move>,
    },
    /// The squares begin a capture that must go on.
    Unfinished {
        /// What was typed.
        text: String,
        /// The legal moves that fit.
        options: Vec<Move>,
    },
    /// A short capture that fits more than one legal capture.
    Ambiguous {
        /// What was typed.
        text: String,
        /// The legal moves that fit.
        options: Vec<Move>,
    },
    /// Written in full-width characters (`１１-１５`): `plain` is the
    /// same in plain ones.
    FullWidth {
        /// What was written.
        text: String,
        /// Its plain form.
        plain: String,
    },
    /// The piece cannot make this move; `options` are its legal moves.
    Illegal {
        /// What was typed.
        text: String,
        /// The square moved from.
        from: PdnSquare,
        /// The legal moves that fit.
        options: Vec<Move>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => write!(
                f,
                "\"{text}\" is not a move: name the squares joined by - or x, like 11-15, 22x15x6 or C3-D4"
            ),
            MoveError::Square(e) => write!(f, "{e}"),
            MoveError::FullWidth { text, plain } => write!(
                f,
                "\"{text}\" uses full-width characters: type plain {plain}"
            ),
            MoveError::NoPiece(sq) => write!(f, "there is no piece on {sq} ({})", sq.grid()),
            MoveError::NotYours { square, piece } => write!(
                f,
                "the piece on {square} ({}) is {}'s: {} is to move",
                square.grid(),
                piece.side().title(),
                piece.side().other().title()
            ),
            MoveError::CaptureCompulsory { captures } => {
                write!(f, "a capture is compulsory: {}", or_list(captures.iter()))
            }
            MoveError::Unfinished { text, options } => write!(
                f,
                "{text} is not finished: the jump must go on, as {}",
                or_list(options.iter())
            ),
            MoveError::Ambiguous { text, options } => write!(
                f,
                "{text} could be {}: name every landing",
                or_list(options.iter())
            ),
            MoveError::Illegal {
                text,
                from,
                options,
            } => {
                if options.is_empty() {
                    write!(
                        f,
                        "{text} is not a legal move: the piece on {from} cannot move"
                    )
                } else {
                    write!(
                        f,
                        "{text} is not a legal move: the piece on {from} can play {}",
                        or_list(options.iter())
                    )
                }
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits move text into square texts: separators are `-`, `x`, `:`,
/// commas and spaces; `1118` is `11-18`, and `c3d4` is `c3 d4`.
pub fn square_texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in
        text.split(|c: char| matches!(c, 'x' | 'X' | ':' | ',') || is_dash(c) || c.is_whitespace())
    {
        if part.is_empty() {
            continue;
        }
        if part.len() == 4 && part.bytes().all(|b| b.is_ascii_digit()) {
            out.push(part[..2].to_string());
            out.push(part[2..].to_string());
            continue;
        }
        out.extend(run_together(part).unwrap_or_else(|| vec![part.to_string()]));
    }
    out
}

/// Whether `c` is a dash: the hyphen-minus, or one a word processor or a
/// phone puts in its place (hyphen, figure, en and em dashes, the minus
/// sign), which are read as it is.
pub fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}')
}

/// `text` with every dash [`is_dash`] reads as a hyphen-minus written as one.
pub fn plain_dashes(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(|c| c == '-' || !is_dash(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| if is_dash(c) { '-' } else { c })
            .collect(),
    )
}

/// Coordinates run together (`c3d4`): each a letter then digits, or `None`.
fn run_together(part: &str) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for c in part.chars() {
        if c.is_ascii_alphabetic() {
            out.push(c.to_string());
        } else if c.is_ascii_digit() {
            out.last_mut()?.push(c);
        } else {
            return None;
        }
    }
    let whole = out.iter().all(|s| s.len() > 1);
    (whole && out.len() > 1).then_some(out)
}

/// Reads the squares of a move: at least two playing squares.
pub fn parse_squares(text: &str) -> Result<Vec<PdnSquare>, MoveError> {
    let trimmed = text.trim();
    if let Some(plain) = crate::games::grid::plain_ascii(trimmed).filter(|p| p.is_ascii()) {
        return Err(MoveError::FullWidth {
            text: trimmed.to_string(),
            plain,
        });
    }
    // A dash joins squares: before the first it is a minus sign (`-11-15`).
    if trimmed.starts_with(is_dash) {
        return Err(MoveError::Syntax(trimmed.to_string()));
    }
    let parts = square_texts(trimmed);
    if parts.len() < 2 {
        return Err(match parts.first().map(|p| PdnSquare::parse(p)) {
            Some(Err(e)) => MoveError::Square(e),
            _ => MoveError::Syntax(trimmed.to_string()),
        });
    }
    parts
        .iter()
        .map(|p| PdnSquare::parse(p).map_err(MoveError::Square))
        .collect()
}

/// Whether `inner` appears in `outer` in order.
fn in_order(inner: &[PdnSquare], outer: &[PdnSquare]) -> bool {
    let mut it = outer.iter();
    inner.iter().all(|s| it.any(|o| o == s))
}

/// The legal move a list of squares names: the whole path, or a capture
/// shortened to its start and end (with any landings between), if only one
/// capture fits.
pub fn resolve(rules: &Setup, pos: &Position, squares: &[PdnSquare]) -> Result<Move, MoveError> {
    let text = squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("-");
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Err(MoveError::Syntax(text));
    };
    if squares.len() < 2 {
        return Err(MoveError::Syntax(text));
    }
    match pos.piece(from) {
        None => return Err(MoveError::NoPiece(from)),
        Some(piece) if piece.side() != pos.to_move() => {
            return Err(MoveError::NotYours {
                square: from,
                piece,
            });
        }
        Some(_) => {}
    }
    let legal = rules.moves(pos);
    if let Some(m) = legal.iter().find(|m| m.squares() == squares) {
        return Ok(*m);
    }
    let fits: Vec<Move> = legal
        .iter()
        .filter(|m| {
            let path = m.squares();
            m.is_capture()
                && path.first() == Some(&from)
                && path.last() == Some(&to)
                && in_order(&squares[1..squares.len() - 1], &path[1..])
        })
        .copied()
        .collect();
    let named = |m: &Move| {
        let mut t = m.from().to_string();
        for s in &squares[1..] {
            t.push(if m.is_capture() { 'x' } else { '-' });
            t.push_str(&s.to_string());
        }
        t
    };
    match fits.len() {
        1 => return Ok(fits[0]),
        n if n > 1 => {
            return Err(MoveError::Ambiguous {
                text: named(&fits[0]),
                options: fits,
            });
        }
        _ => {}
    }
    Err(unmatched(rules, &legal, from, squares, &named))
}

/// Why squares starting on the mover's piece match no legal move: a capture
/// not finished, a capture that is compulsory, or a move the piece lacks.
fn unmatched(
    rules: &Setup,
    legal: &[Move],
    from: PdnSquare,
    squares: &[PdnSquare],
    named: &dyn Fn(&Move) -> String,
) -> MoveError {
    let longer: Vec<Move> = legal
        .iter()
        .filter(|m| m.squares().starts_with(squares))
        .copied()
        .collect();
    if !longer.is_empty() {
        return MoveError::Unfinished {
            text: named(&longer[0]),
            options: longer,
        };
    }
    let captures: Vec<Move> = legal.iter().filter(|m| m.is_capture()).copied().collect();
    if rules.captures.forced() && !captures.is_empty() {
        return MoveError::CaptureCompulsory { captures };
    }
    let jump = squares
        .windows(2)
        .any(|w| w[0].row().abs_diff(w[1].row()) == 2);
    let shown = squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(if jump { "x" } else { "-" });
    MoveError::Illegal {
        text: shown,
        from,
        options: legal.iter().filter(|m| m.from() == from).copied().collect(),
    }
}

/// The move after the letter the C project's players wrote in front of it
/// (`M11-15`, `c22x15`), which PDN does not use: `None` where no such
/// letter is followed by a number. (A coordinate such as `C3` is a square.)
pub fn after_letter(typed: &str) -> Option<&str> {
    typed
        .trim()
        .strip_prefix(['M', 'm', 'C', 'c'])
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// A move written with the C project's letter in front (`M11-15`, which,
/// unlike `C3-D4`, is no list of squares): the move read without it, or
/// why that is none; `None` where there is no such letter.
pub fn without_letter(
    rules: &Setup,
    pos: &Position,
    typed: &str,
) -> Option<Result<Move, MoveError>> {
    let rest = after_letter(typed)?;
    if parse_squares(typed).is_ok() || parse_squares(rest).is_err() {
        return None;
    }
    Some(parse_move(rules, pos, rest))
}

/// Why `typed`, a move written in PDN's notation, is none in `pos`, where
/// [`parse_move`] refused it with `e`: a jump that is none of the piece's
/// captures says what the piece can take (`23x16x12 is no capture here:
/// the piece on 23 can take 23x16`) rather than that a capture is
/// compulsory, and one going on past a crowning says where it stops.
pub fn why_not(rules: &Setup, pos: &Position, typed: &str, e: MoveError) -> String {
    let Ok(squares) = parse_squares(typed) else {
        return e.to_string();
    };
    let marked = typed.contains(['x', 'X']);
    let takes = |from: PdnSquare| -> Vec<Move> {
        rules
            .moves(pos)
            .into_iter()
            .filter(|m| m.is_capture() && m.from() == from)
            .collect()
    };
    let no_capture = |from: PdnSquare, takes: &[Move]| {
        format!(
            "{typed} is no capture here: the piece on {from} can take {}",
            or_list(takes)
        )
    };
    match refusal::refusal(rules, pos, &[], &squares) {
        Refusal::CrowningEnds { crowning, .. } => {
            format!("a man crowned ends its move: {typed} stops at {crowning}")
        }
        Refusal::NotLegal { start, .. } if !takes(start).is_empty() => {
            no_capture(start, &takes(start))
        }
        Refusal::Move(MoveError::CaptureCompulsory { captures }) if marked => {
            match squares.first() {
                Some(&from) if !takes(from).is_empty() => no_capture(from, &takes(from)),
                _ => format!(
                    "{typed} is no capture here: the capture is {}",
                    or_list(&captures)
                ),
            }
        }
        _ => e.to_string(),
    }
}

/// Reads a move written as text and finds it among the legal moves.
pub fn parse_move(rules: &Setup, pos: &Position, text: &str) -> Result<Move, MoveError> {
    resolve(rules, pos, &parse_squares(text)?).map_err(|e| match e {
        // Quote an illegal move as it was typed.
        MoveError::Illegal { from, options, .. } => MoveError::Illegal {
            text: text.trim().to_string(),
            from,
            options,
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    fn check(fen_text: &str, text: &str) -> Result<String, String> {
        let pos = fen::parse(fen_text).unwrap();
        parse_move(&Setup::STANDARD, &pos, text)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }

    const START: &str = "B:W21-32:B1-12";

    #[test]
    fn numbers_and_coordinates_name_the_same_moves() {
        assert_eq!(check(START, "11-15"), Ok("11-15".into()));
        assert_eq!(check(START, "C3 D4"), Ok("11-15".into()));
        assert_eq!(check(START, "c3-d4"), Ok("11-15".into()));
        assert_eq!(check(START, "c3d4"), Ok("11-15".into()));
        assert_eq!(check(START, "1115"), Ok("11-15".into()));
        // The coordinate capture: a black man's double jump.
        assert_eq!(check("B:W14,22:B10", "E3xG5xE7"), Ok("10x17x26".into()));
    }

    #[test]
    fn short_captures_resolve_when_unique() {
        assert_eq!(check("B:W14,22:B10", "10x26"), Ok("10x17x26".into()));
        // Old books write captures with a dash.
        assert_eq!(check("B:W14,22:B10", "10-26"), Ok("10x17x26".into()));
        // A king on 11 can go round the ring of 15, 14, 6, 7 either way.
        assert_eq!(
            check("B:W6,7,14,15:BK11", "11x11"),
            Err("11x11 could be 11x2x9x18x11 or 11x18x9x2x11: name every landing".into())
        );
        assert_eq!(
            check("B:W6,7,14,15:BK11", "11x2x9x11"),
            Ok("11x2x9x18x11".into())
        );
    }

    #[test]
    fn refusals_give_the_reason() {
        assert_eq!(
            check("W:W22,24:B18,19", "22-17"),
            Err("a capture is compulsory: 22x15 or 24x15".into())
        );
        assert_eq!(
            check("B:W14,22:B10", "10x17"),
            Err("10x17 is not finished: the jump must go on, as 10x17x26".into())
        );
        assert_eq!(
            check(START, "13-17"),
            Err("there is no piece on 13 (H4)".into())
        );
        // A dash before the first square is a minus sign, whichever dash.
        for text in ["-11-15", "\u{2212}11-15", "\u{2013}11\u{2013}15"] {
            assert_eq!(
                check(START, text),
                Err(format!(
                    "\"{text}\" is not a move: name the squares joined by - or x, like 11-15, 22x15x6 or C3-D4"
                ))
            );
        }
        assert_eq!(check(START, "11\u{2013}15"), Ok("11-15".into()));
        assert_eq!(
            check(START, "22-18"),
            Err("the piece on 22 (F6) is White's: Black is to move".into())
        );
        assert_eq!(
            check(START, "11-20"),
            Err("11-20 is not a legal move: the piece on 11 can play 11-15 or 11-16".into())
        );
        assert_eq!(
            check(START, "1-5"),
            Err("1-5 is not a legal move: the piece on 1 cannot move".into())
        );
        assert!(
            check(START, "hello")
                .unwrap_err()
                .starts_with("\"hello\" is not a square")
        );
        assert_eq!(
            check(START, "１２-１６"),
            Err("\"１２-１６\" uses full-width characters: type plain 12-16".into())
        );
        assert_eq!(
            check(START, "Ｃ３　Ｄ４"),
            Err("\"Ｃ３　Ｄ４\" uses full-width characters: type plain C3 D4".into())
        );
        // No plain form to offer where the rest is no move either.
        assert!(
            check(START, "😀x１１")
                .unwrap_err()
                .starts_with("\"😀\" is not a square")
        );
        assert!(
            check(START, "11")
                .unwrap_err()
                .starts_with("\"11\" is not a move")
        );
        assert_eq!(
            check(START, "11-33"),
            Err("\"33\" is off the board: the squares are numbered 1-32".into())
        );
    }
}
