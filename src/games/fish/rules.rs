//! The setup of a game (board, tiles, penguins) and the shared `Rules` seam
//! the shell plays every game through.

use std::fmt;

use super::board::{Board, Deal, Tiles};
use super::notation::NotationError;
use super::position::{MAX_PENGUINS, Move, Position, Side};
use crate::games::{self, Outcome, Square};

/// Everything fixed before the first move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    board: Board,
    deal: Deal,
    penguins: u8,
}

/// Why a setup was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// Penguins outside 1-4.
    Penguins(u32),
    /// A log's setup with a missing or bad value.
    Log {
        /// The setup's key.
        key: &'static str,
        /// What is wrong with its value.
        problem: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Penguins(n) => write!(
                f,
                "{n} penguins each is not allowed: a player has 1 to {MAX_PENGUINS}"
            ),
            SetupError::Log { key, problem } => write!(f, "the setup's {key}: {problem}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a position's text does not fit this game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MismatchError {
    /// The text is not a position at all.
    #[error("{0}")]
    Notation(#[from] NotationError),
    /// A position on another board.
    #[error("the position is on a {found} board, this game on {game}")]
    Board {
        /// The position's board.
        found: Board,
        /// The game's board.
        game: Board,
    },
    /// More penguins for a side than the game gives.
    #[error("{side} has {count} penguins but this game gives each player {each}")]
    Penguins {
        /// The side.
        side: Side,
        /// Its penguins, placed and to place.
        count: u32,
        /// What the game gives each player.
        each: u8,
    },
}

impl Default for Setup {
    /// The assignment's game: 6x6, ring tiles, one penguin each.
    fn default() -> Setup {
        Setup {
            board: Board::STANDARD,
            deal: Deal::Rings,
            penguins: 1,
        }
    }
}

impl Setup {
    /// A setup, checked: 1 to 4 penguins a player. Every board and deal has
    /// at least eight 1-point tiles, enough for four penguins each.
    pub fn new(board: Board, deal: Deal, penguins: u32) -> Result<Setup, SetupError> {
        match u8::try_from(penguins) {
            Ok(n) if (1..=MAX_PENGUINS).contains(&n) => Ok(Setup {
                board,
                deal,
                penguins: n,
            }),
            _ => Err(SetupError::Penguins(penguins)),
        }
    }

    /// The board size.
    pub fn board(&self) -> Board {
        self.board
    }

    /// How the tiles are dealt.
    pub fn deal(&self) -> Deal {
        self.deal
    }

    /// Penguins per player.
    pub fn penguins(&self) -> u8 {
        self.penguins
    }

    /// The tiles of a fresh board.
    pub fn tiles(&self) -> Tiles {
        Tiles::deal(self.board, self.deal)
    }

    /// The setup a log recorded with [`games::Rules::setup`].
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> Result<Setup, SetupError> {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| k.as_ref() == key)
                .map(|(_, v)| v.as_ref().trim())
        };
        let log = |key: &'static str, problem: String| SetupError::Log { key, problem };
        let board = match get("board") {
            Some(text) => text
                .parse::<Board>()
                .map_err(|e| log("board", e.to_string()))?,
            None => Board::STANDARD,
        };
        let deal = match get("tiles") {
            None | Some("rings") => Deal::Rings,
            Some("random") => {
                let seed = get("seed").ok_or_else(|| log("seed", "missing".to_string()))?;
                let seed = logged_number(seed, &format!("a seed is 0 to {}", u64::MAX))
                    .map_err(|problem| log("seed", problem))?;
                Deal::Random { seed }
            }
            Some(other) => {
                return Err(log(
                    "tiles",
                    format!("\"{other}\" is neither rings nor random"),
                ));
            }
        };
        let penguins = match get("penguins") {
            Some(text) => logged_number(text, &format!("a player has 1 to {MAX_PENGUINS}"))
                .map_err(|problem| log("penguins", problem))?,
            None => 1,
        };
        Setup::new(board, deal, penguins)
    }
}

/// A whole number from a log's setup. One too large for its field is said
/// to be, with `range`, the values the field may hold: its digits are a
/// number all the same.
fn logged_number<T: std::str::FromStr<Err = std::num::ParseIntError>>(
    text: &str,
    range: &str,
) -> Result<T, String> {
    text.parse()
        .map_err(|e: std::num::ParseIntError| match e.kind() {
            std::num::IntErrorKind::PosOverflow => format!("\"{text}\" is too large: {range}"),
            // A whole number all the same, below zero.
            _ if text
                .strip_prefix('-')
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) =>
            {
                format!("\"{text}\" is below zero: {range}")
            }
            _ => format!("\"{text}\" is not a number"),
        })
}

impl games::Rules for Setup {
    type Position = Position;
    type Move = Move;
    type Side = Side;

    const GAME: &'static str = "fish";

    fn sides(&self) -> [Side; 2] {
        Side::BOTH
    }

    fn start(&self) -> Position {
        Position::start(self.board, self.tiles(), self.penguins)
    }

    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move()
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves()
    }

    fn play(&self, pos: &Position, mv: &Move) -> Position {
        pos.play(*mv)
    }

    fn outcome(&self, history: &[Position]) -> Option<Outcome<Side>> {
        history.last().and_then(Position::outcome)
    }

    fn path(&self, mv: &Move) -> Vec<Square> {
        mv.path()
    }

    fn notation(&self, pos: &Position) -> String {
        pos.notation()
    }

    /// Reads a position and checks it belongs to this setup: the same board
    /// size and no more penguins a side. (The tiles may differ: analysis
    /// takes any position.)
    fn score(&self, pos: &Position) -> Option<String> {
        Some(format!("{}-{}", pos.score(Side::P), pos.score(Side::A)))
    }

    type PositionError = MismatchError;
    type SetupError = SetupError;

    fn parse_position(&self, text: &str) -> Result<Position, MismatchError> {
        let pos = Position::parse(text)?;
        if pos.board() != self.board {
            return Err(MismatchError::Board {
                found: pos.board(),
                game: self.board,
            });
        }
        for side in Side::BOTH {
            let count = pos.penguin_mask(side).count_ones() + u32::from(pos.to_place(side));
            if count > u32::from(self.penguins) {
                return Err(MismatchError::Penguins {
                    side,
                    count,
                    each: self.penguins,
                });
            }
        }
        Ok(pos)
    }

    fn setup(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("board", self.board.to_string()),
            ("tiles", self.deal.name().to_string()),
        ];
        if let Deal::Random { seed } = self.deal {
            pairs.push(("seed", seed.to_string()));
        }
        pairs.push(("penguins", self.penguins.to_string()));
        pairs
    }

    fn from_setup(pairs: &[(&str, &str)]) -> Result<Setup, SetupError> {
        Setup::from_pairs(pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules;

    #[test]
    fn setups_round_trip_through_the_log_pairs() {
        for setup in [
            Setup::default(),
            Setup::new(Board::new(8, 5).unwrap(), Deal::Random { seed: 9 }, 3).unwrap(),
        ] {
            let pairs = setup.setup();
            assert_eq!(Setup::from_pairs(&pairs), Ok(setup));
        }
        assert_eq!(
            Setup::default().setup(),
            [
                ("board", "6x6".to_string()),
                ("tiles", "rings".to_string()),
                ("penguins", "1".to_string())
            ]
        );
        assert_eq!(
            Setup::new(Board::STANDARD, Deal::Rings, 5)
                .unwrap_err()
                .to_string(),
            "5 penguins each is not allowed: a player has 1 to 4"
        );
        assert_eq!(
            Setup::from_pairs(&[("tiles", "random")])
                .unwrap_err()
                .to_string(),
            "the setup's seed: missing"
        );
        // A number too large for its field is one all the same.
        let refused = |pairs: &[(&str, &str)]| Setup::from_pairs(pairs).unwrap_err().to_string();
        assert_eq!(
            refused(&[("tiles", "random"), ("seed", "18446744073709551616")]),
            "the setup's seed: \"18446744073709551616\" is too large: a seed is 0 to 18446744073709551615"
        );
        assert_eq!(
            refused(&[("penguins", "99999999999")]),
            "the setup's penguins: \"99999999999\" is too large: a player has 1 to 4"
        );
        assert_eq!(
            refused(&[("penguins", "-1")]),
            "the setup's penguins: \"-1\" is below zero: a player has 1 to 4"
        );
        assert_eq!(
            refused(&[("tiles", "random"), ("seed", "x1")]),
            "the setup's seed: \"x1\" is not a number"
        );
    }

    #[test]
    fn positions_must_fit_the_setup() {
        let s = Setup::default();
        let start = s.start();
        assert_eq!(s.parse_position(&s.notation(&start)), Ok(start));
        assert_eq!(
            s.parse_position("1111/1221/1221/1111 place:1/1 next:P")
                .map_err(|e| e.to_string()),
            Err("the position is on a 4x4 board, this game on 6x6".to_string())
        );
        assert_eq!(
            s.parse_position("111111/122221/123321/123321/122221/111111 place:2/2 next:P")
                .map_err(|e| e.to_string()),
            Err("P has 2 penguins but this game gives each player 1".to_string())
        );
    }
}
