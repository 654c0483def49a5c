//! The opening book: the engine's own choice, searched deep, for the start,
//! every position after one or two plies, each of the 156 three-move
//! ballot openings and each position after White's answer to one, kept in `data/draughts_book.txt` (`FEN MOVE` lines,
//! made by `examples/draughts_book.rs`). Overpowered plays from it under
//! compulsory captures, where it was computed.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::moves::Move;
use super::position::Position;
use super::rules::{Captures, Setup};
use super::{DataError, fen};

/// The book's text.
const BOOK: &str = include_str!("../../../data/draughts_book.txt");

/// Reads a book: `FEN MOVE` a line, `#` comments. Lines that do not parse
/// are errors.
pub fn parse(text: &str) -> Result<HashMap<Position, String>, DataError> {
    let mut book = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (f, m) = line.rsplit_once(' ').ok_or_else(|| DataError::Line {
            line: n + 1,
            reason: "expected FEN MOVE".to_string(),
        })?;
        let pos = fen::parse(f.trim()).map_err(|e| DataError::Line {
            line: n + 1,
            reason: e.to_string(),
        })?;
        book.insert(pos, m.to_string());
    }
    Ok(book)
}

fn book() -> &'static HashMap<Position, String> {
    static BOOK_MAP: OnceLock<HashMap<Position, String>> = OnceLock::new();
    BOOK_MAP.get_or_init(|| parse(BOOK).unwrap_or_default())
}

/// The book's move for this position, if it has one and it is legal here.
pub fn lookup(rules: &Setup, pos: &Position) -> Option<Move> {
    if rules.captures != Captures::Compulsory {
        return None;
    }
    let text = book().get(pos)?;
    rules
        .moves(pos)
        .into_iter()
        .find(|m| m.to_string() == *text)
}

/// How many positions the book holds.
pub fn len() -> usize {
    book().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::ballot;

    #[test]
    fn every_book_move_is_legal_and_every_ballot_opening_is_covered() {
        let parsed = parse(BOOK).unwrap();
        let rules = Setup::STANDARD;
        for (pos, m) in &parsed {
            assert!(
                rules.moves(pos).iter().any(|x| x.to_string() == *m),
                "{pos}: {m}"
            );
        }
        // Each ballot opening, and each of White's answers to it: Black's
        // first free move.
        for o in ballot::deck() {
            let pos = o.position();
            assert!(lookup(&rules, &pos).is_some(), "{o}");
            for m in rules.moves(&pos) {
                assert!(lookup(&rules, &pos.play(&m)).is_some(), "{o} {m}");
            }
        }
        assert!(lookup(&rules, &Position::START).is_some());
        assert_eq!(len(), parsed.len());
        assert_eq!(
            lookup(&Setup::with_captures(Captures::Optional), &Position::START),
            None
        );
        assert!(parse("B:W21-32:B1-12").is_err());
    }

    /// The record `draughts_book --learn` reads is of games of draughts:
    /// each line's colour and result read, and its moves play from the
    /// start, every one legal where it stands.
    #[test]
    fn the_record_to_learn_from_replays_move_by_move() {
        let text = include_str!("../../../data/draughts_games.txt");
        let rules = Setup::STANDARD;
        let mut games = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut words = line.split_whitespace();
            assert!(matches!(words.next(), Some("black" | "white")), "{line}");
            assert!(
                matches!(words.next(), Some("Win" | "Draw" | "Loss")),
                "{line}"
            );
            let mut pos = Position::START;
            for w in words {
                let m = rules.find(&pos, w);
                pos = pos.play(&m.unwrap_or_else(|| panic!("{w} in {line}")));
            }
            games += 1;
        }
        assert!(games > 2000, "{games} games");
    }
}
