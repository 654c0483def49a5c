//! The three-move ballot: the deck of openings English draughts tournaments
//! draw from, each as its first three moves (Black, White, Black). The deck is
//! the 156 openings in play today: the 144 long used across the board and the
//! 12 approved in 2004-05, in the usual order (by Black's first move, then
//! White's, then Black's second). Openings judged lost or too one-sided are
//! not in it.

use std::fmt;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::moves::Move;
use super::notation;
use super::position::Position;
use super::rules::Setup;

/// How many openings the deck holds.
pub const DECK_SIZE: usize = 156;

/// The deck: the three moves of each opening, and whether it is one of the
/// twelve added in 2004-05.
const DECK: [(&str, bool); DECK_SIZE] = [
    ("9-13 21-17 5-9", false),
    ("9-13 21-17 6-9", false),
    ("9-13 22-17 13x22", false),
    ("9-13 22-18 6-9", false),
    ("9-13 22-18 10-14", true),
    ("9-13 22-18 10-15", false),
    ("9-13 22-18 11-15", false),
    ("9-13 22-18 11-16", true),
    ("9-13 22-18 12-16", false),
    ("9-13 23-18 5-9", false),
    ("9-13 23-18 6-9", false),
    ("9-13 23-18 10-15", false),
    ("9-13 23-18 11-15", false),
    ("9-13 23-18 11-16", true),
    ("9-13 23-18 12-16", false),
    ("9-13 23-19 5-9", false),
    ("9-13 23-19 6-9", false),
    ("9-13 23-19 10-14", false),
    ("9-13 23-19 10-15", true),
    ("9-13 23-19 11-16", false),
    ("9-13 24-19 5-9", false),
    ("9-13 24-19 6-9", false),
    ("9-13 24-19 10-14", false),
    ("9-13 24-19 11-15", false),
    ("9-13 24-19 11-16", false),
    ("9-13 24-20 5-9", false),
    ("9-13 24-20 6-9", false),
    ("9-13 24-20 10-14", false),
    ("9-13 24-20 10-15", false),
    ("9-13 24-20 11-15", false),
    ("9-13 24-20 11-16", true),
    ("9-14 22-17 5-9", false),
    ("9-14 22-17 6-9", false),
    ("9-14 22-17 11-15", false),
    ("9-14 22-17 11-16", false),
    ("9-14 22-18 5-9", false),
    ("9-14 22-18 10-15", false),
    ("9-14 22-18 11-15", false),
    ("9-14 22-18 11-16", false),
    ("9-14 23-18 14x23", false),
    ("9-14 23-19 5-9", false),
    ("9-14 23-19 11-16", false),
    ("9-14 23-19 14-18", false),
    ("9-14 24-19 5-9", false),
    ("9-14 24-19 11-15", false),
    ("9-14 24-19 11-16", false),
    ("9-14 24-20 5-9", false),
    ("9-14 24-20 10-15", false),
    ("9-14 24-20 11-15", false),
    ("9-14 24-20 11-16", false),
    ("10-14 22-17 7-10", false),
    ("10-14 22-17 9-13", true),
    ("10-14 22-17 11-15", true),
    ("10-14 22-17 11-16", true),
    ("10-14 22-17 14-18", false),
    ("10-14 22-18 6-10", false),
    ("10-14 22-18 7-10", false),
    ("10-14 22-18 11-15", false),
    ("10-14 22-18 11-16", false),
    ("10-14 22-18 12-16", false),
    ("10-14 23-18 14x23", false),
    ("10-14 23-19 6-10", false),
    ("10-14 23-19 7-10", false),
    ("10-14 23-19 11-15", false),
    ("10-14 23-19 11-16", false),
    ("10-14 23-19 14-18", false),
    ("10-14 24-19 6-10", false),
    ("10-14 24-19 7-10", false),
    ("10-14 24-19 11-16", false),
    ("10-14 24-19 14-18", false),
    ("10-14 24-20 6-10", false),
    ("10-14 24-20 7-10", false),
    ("10-14 24-20 11-15", false),
    ("10-14 24-20 11-16", false),
    ("10-14 24-20 14-18", false),
    ("10-15 21-17 6-10", false),
    ("10-15 21-17 7-10", false),
    ("10-15 21-17 9-13", false),
    ("10-15 21-17 11-16", false),
    ("10-15 21-17 15-18", false),
    ("10-15 22-17 6-10", false),
    ("10-15 22-17 7-10", false),
    ("10-15 22-17 9-13", false),
    ("10-15 22-17 11-16", false),
    ("10-15 22-17 15-19", false),
    ("10-15 22-18 15x22", false),
    ("10-15 23-18 6-10", false),
    ("10-15 23-18 7-10", false),
    ("10-15 23-18 9-14", false),
    ("10-15 23-18 11-16", false),
    ("10-15 23-18 12-16", false),
    ("10-15 23-19 6-10", false),
    ("10-15 23-19 7-10", false),
    ("10-15 23-19 11-16", true),
    ("10-15 24-19 15x24", false),
    ("10-15 24-20 6-10", false),
    ("10-15 24-20 7-10", false),
    ("10-15 24-20 15-19", false),
    ("11-15 21-17 8-11", false),
    ("11-15 21-17 9-13", false),
    ("11-15 21-17 9-14", false),
    ("11-15 21-17 15-19", false),
    ("11-15 22-17 8-11", false),
    ("11-15 22-17 9-13", false),
    ("11-15 22-17 15-18", false),
    ("11-15 22-17 15-19", false),
    ("11-15 22-18 15x22", false),
    ("11-15 23-18 8-11", false),
    ("11-15 23-18 9-14", false),
    ("11-15 23-18 10-14", false),
    ("11-15 23-18 12-16", false),
    ("11-15 23-18 15-19", false),
    ("11-15 23-19 8-11", false),
    ("11-15 23-19 9-13", false),
    ("11-15 23-19 9-14", false),
    ("11-15 24-19 15x24", false),
    ("11-15 24-20 8-11", false),
    ("11-15 24-20 12-16", false),
    ("11-15 24-20 15-18", false),
    ("11-16 21-17 7-11", false),
    ("11-16 21-17 8-11", false),
    ("11-16 21-17 9-13", false),
    ("11-16 21-17 9-14", false),
    ("11-16 21-17 16-20", false),
    ("11-16 22-17 7-11", false),
    ("11-16 22-17 8-11", false),
    ("11-16 22-17 9-13", true),
    ("11-16 22-17 16-20", false),
    ("11-16 22-18 7-11", false),
    ("11-16 22-18 8-11", false),
    ("11-16 22-18 16-19", false),
    ("11-16 22-18 16-20", false),
    ("11-16 23-18 7-11", false),
    ("11-16 23-18 8-11", false),
    ("11-16 23-18 9-14", false),
    ("11-16 23-18 10-14", false),
    ("11-16 23-18 16-20", false),
    ("11-16 23-19 16x23", true),
    ("11-16 24-19 7-11", false),
    ("11-16 24-19 8-11", false),
    ("11-16 24-19 16-20", false),
    ("11-16 24-20 7-11", false),
    ("11-16 24-20 16-19", false),
    ("12-16 21-17 9-13", false),
    ("12-16 21-17 9-14", false),
    ("12-16 21-17 16-19", false),
    ("12-16 21-17 16-20", false),
    ("12-16 22-17 16-19", false),
    ("12-16 22-17 16-20", false),
    ("12-16 22-18 16-19", false),
    ("12-16 22-18 16-20", false),
    ("12-16 23-18 16-19", false),
    ("12-16 23-18 16-20", false),
    ("12-16 24-19 16-20", false),
    ("12-16 24-20 8-12", false),
    ("12-16 24-20 10-15", true),
];

/// One opening of the deck.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Opening {
    number: usize,
}

impl Opening {
    /// The opening with this number, from 1 to 156.
    pub fn new(number: usize) -> Option<Opening> {
        (1..=DECK_SIZE)
            .contains(&number)
            .then_some(Opening { number })
    }

    /// Its number in the deck, from 1.
    pub fn number(self) -> usize {
        self.number
    }

    /// Its three moves in PDN, like `11-15 23-19 8-11`.
    pub fn notation(self) -> &'static str {
        DECK[self.number - 1].0
    }

    /// Whether it is one of the twelve openings added in 2004-05.
    pub fn is_newer(self) -> bool {
        DECK[self.number - 1].1
    }

    /// Its moves from the start. Every opening is checked legal by the tests,
    /// so this stops early only if the deck were miswritten.
    pub fn moves(self) -> Vec<Move> {
        let rules = Setup::STANDARD;
        let mut pos = Position::START;
        let mut out = Vec::new();
        for word in self.notation().split_whitespace() {
            let Ok(m) = notation::parse_move(&rules, &pos, word) else {
                break;
            };
            pos = pos.play(&m);
            out.push(m);
        }
        out
    }

    /// Every position from the start through the opening, the start first:
    /// a game's history to go on from.
    pub fn positions(self) -> Vec<Position> {
        let mut out = vec![Position::START];
        for m in self.moves() {
            let next = out[out.len() - 1].play(&m);
            out.push(next);
        }
        out
    }

    /// The position after the opening (White to move).
    pub fn position(self) -> Position {
        self.moves().iter().fold(Position::START, |p, m| p.play(m))
    }
}

impl fmt::Display for Opening {
    /// `#4 9-13 22-18 6-9`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {}", self.number, self.notation())
    }
}

/// Every opening of the deck, in order.
pub fn deck() -> impl Iterator<Item = Opening> {
    (1..=DECK_SIZE).map(|number| Opening { number })
}

/// An opening drawn at random; the same seed draws the same opening.
pub fn random(seed: u64) -> Opening {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Opening {
        number: rng.random_range(1..=DECK_SIZE),
    }
}

/// The seed of game `game` of a match (from 0) with random openings: the
/// first game's is the match's seed, so game 0 draws [`random`]`(seed)`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The opening whose position this is, if one is.
pub fn find(pos: &Position) -> Option<Opening> {
    deck().find(|o| o.position() == *pos)
}

/// An `--opening` value that names no opening of the deck.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("\"{0}\" is not an opening: write a number from 1 to {DECK_SIZE}, or random")]
pub struct UnknownOpening(pub String);

/// Reads `--opening`'s value: a number from 1 to 156, or `random` (drawn with `seed`).
pub fn choose(text: &str, seed: u64) -> Result<Opening, UnknownOpening> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("random") {
        return Ok(random(seed));
    }
    t.parse::<usize>()
        .ok()
        .and_then(Opening::new)
        .ok_or_else(|| UnknownOpening(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_choices() {
        assert_eq!(
            Opening::new(1).map(|o| o.notation()),
            Some("9-13 21-17 5-9")
        );
        assert_eq!(
            Opening::new(156).map(|o| o.notation()),
            Some("12-16 24-20 10-15")
        );
        assert_eq!(Opening::new(0), None);
        assert_eq!(choose(" 7 ", 0), Ok(Opening::new(7).unwrap()));
        assert_eq!(choose("random", 5), Ok(random(5)));
        assert_eq!(
            choose("157", 0).map_err(|e| e.to_string()),
            Err("\"157\" is not an opening: write a number from 1 to 156, or random".to_string())
        );
        assert_eq!(Opening::new(4).unwrap().to_string(), "#4 9-13 22-18 6-9");
    }
}
