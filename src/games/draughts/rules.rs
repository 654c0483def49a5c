//! The rules of English draughts under one setup: the legal moves, and how
//! a game ends (no move, threefold repetition, the forty-move rule).

use std::fmt;
use std::str::FromStr;

use super::ballot::{self, Opening};
use super::fen;
use super::movegen;
use super::moves::Move;
use super::position::{Position, Side};
use crate::games::names::UnknownChoice;
use crate::games::{self, Outcome, Square};

/// Whether a side that can capture must.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Captures {
    /// The laws of the game: a capture must be taken, and a multi-jump finished.
    #[default]
    Compulsory,
    /// Console checkers' house rule: a capture may be declined (a multi-jump
    /// once begun is still finished).
    Optional,
}

impl Captures {
    /// Both, the laws first.
    pub const ALL: [Captures; 2] = [Captures::Compulsory, Captures::Optional];

    /// The name on the command line and in the log.
    pub const fn name(self) -> &'static str {
        match self {
            Captures::Compulsory => "compulsory",
            Captures::Optional => "optional",
        }
    }

    /// Whether a capture must be taken.
    pub const fn forced(self) -> bool {
        matches!(self, Captures::Compulsory)
    }
}

impl fmt::Display for Captures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Captures {
    type Err = UnknownChoice;

    fn from_str(text: &str) -> Result<Captures, UnknownChoice> {
        Captures::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownChoice {
                text: text.trim().to_string(),
                what: "capture rule",
                names: &["compulsory", "optional"],
            })
    }
}

/// Why a log's draughts setup was refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// The capture rule is not one there is.
    #[error("{0}")]
    Captures(UnknownChoice),
    /// The opening is not in the ballot deck.
    #[error(
        "the setup's opening \"{0}\" is not in the deck: openings are numbered 1-{deck}",
        deck = ballot::DECK_SIZE
    )]
    Opening(String),
}

/// How a game of draughts ends, as the log names it (`Outcome::how`).
pub mod how {
    /// The side to move had no move (no pieces, or all blocked) and lost.
    pub const NO_MOVES: &str = "no-moves";
    /// The same position with the same side to move came a third time.
    pub const REPETITION: &str = "repetition";
    /// Forty moves by each side (80 plies) with no capture and no man moved.
    pub const FORTY_MOVES: &str = "forty-moves";
    /// Decided by the shell: the players agreed a draw.
    pub const AGREED: &str = "agreed";
    /// Decided by the shell: a player resigned.
    pub const RESIGNED: &str = "resigned";
}

/// Plies without a capture or a man's move that draw the game: forty moves each.
pub const QUIET_PLIES_FOR_DRAW: usize = 80;

/// Where a game starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Start {
    /// The usual start: Black's men on 1-12, White's on 21-32, Black to move.
    #[default]
    Standard,
    /// After the three moves of a ballot opening, White to move.
    Opening(Opening),
    /// A position set up (from a PDN file, say).
    Position(Position),
    /// A ballot opening drawn for each game of a match, from this seed
    /// (`--opening random`); [`Start::position`] is the first game's.
    Random(u64),
}

impl Start {
    /// The position a game starts from.
    pub fn position(self) -> Position {
        match self {
            Start::Standard => Position::START,
            Start::Opening(o) => o.position(),
            Start::Position(p) => p,
            Start::Random(seed) => ballot::random(seed).position(),
        }
    }

    /// The position game `game` of a match (from 0) starts from: for
    /// [`Start::Random`], an opening drawn afresh for each game.
    pub fn position_of_game(self, game: u64) -> Position {
        match self {
            Start::Random(seed) => ballot::random(ballot::game_seed(seed, game)).position(),
            other => other.position(),
        }
    }
}

/// English draughts under one setup: the value the shell holds as `Rules`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Setup {
    /// Whether captures are compulsory.
    pub captures: Captures,
    /// Where each game starts.
    pub start: Start,
}

impl Setup {
    /// The laws of the game.
    pub const STANDARD: Setup = Setup {
        captures: Captures::Compulsory,
        start: Start::Standard,
    };

    /// The game under a capture rule, from the usual start.
    pub const fn with_captures(captures: Captures) -> Setup {
        Setup {
            captures,
            start: Start::Standard,
        }
    }

    /// The same rules, every game starting from `start`.
    pub const fn starting(self, start: Start) -> Setup {
        Setup { start, ..self }
    }

    /// Every legal move into a reused list (cleared first), in generator order.
    pub fn moves_into(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        movegen::generate(pos, self.captures.forced(), out);
    }

    /// Every legal move, sorted by their squares' numbers.
    pub fn moves(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        self.moves_into(pos, &mut out);
        out.sort_by_key(|m| m.squares());
        out
    }

    /// The captures of the side to move (all paths), whatever the capture rule.
    pub fn captures_available(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        movegen::generate_captures(pos, &mut out);
        out.sort_by_key(|m| m.squares());
        out
    }

    /// Whether the side to move has any legal move.
    pub fn has_move(&self, pos: &Position) -> bool {
        movegen::has_move(pos)
    }

    /// The legal move written in this notation (`11-15`, `22x15x6`), exactly
    /// as `Display` writes it.
    pub fn find(&self, pos: &Position, text: &str) -> Option<Move> {
        let text = text.trim();
        self.moves(pos).into_iter().find(|m| m.to_string() == text)
    }
}

/// Whether a ply from `before` to `after` is a quiet one for the forty-move
/// rule: nothing taken and no man moved (only kings stepped).
pub fn is_quiet_ply(before: &Position, after: &Position) -> bool {
    before.piece_count() == after.piece_count()
        && Side::ALL.into_iter().all(|s| before.men(s) == after.men(s))
}

/// How many plies at the end of the history were quiet.
pub fn quiet_plies(history: &[Position]) -> usize {
    history
        .windows(2)
        .rev()
        .take_while(|w| is_quiet_ply(&w[0], &w[1]))
        .count()
}

/// How often the last position of the history has occurred, counting it.
/// Only the quiet stretch can hold an earlier copy: a capture or a man's
/// move can never be undone.
pub fn repetitions(history: &[Position]) -> usize {
    let Some(last) = history.last() else {
        return 0;
    };
    let quiet = quiet_plies(history);
    history[history.len() - 1 - quiet..]
        .iter()
        .filter(|p| *p == last)
        .count()
}

impl games::Rules for Setup {
    type Position = Position;
    type Move = Move;
    type Side = Side;

    const GAME: &'static str = "draughts";

    const BY_AGREEMENT: bool = true;

    fn sides(&self) -> [Side; 2] {
        Side::ALL
    }

    fn start(&self) -> Position {
        self.start.position()
    }

    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move()
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.moves(pos)
    }

    fn play(&self, pos: &Position, mv: &Move) -> Position {
        pos.play(mv)
    }

    /// No move loses (`no-moves`); then the third occurrence of a position
    /// (`repetition`) and 80 quiet plies (`forty-moves`) draw.
    fn outcome(&self, history: &[Position]) -> Option<Outcome<Side>> {
        let pos = history.last()?;
        if !movegen::has_move(pos) {
            return Some(Outcome::Win {
                winner: pos.to_move().other(),
                how: how::NO_MOVES,
            });
        }
        if repetitions(history) >= 3 {
            return Some(Outcome::Draw {
                how: how::REPETITION,
            });
        }
        if quiet_plies(history) >= QUIET_PLIES_FOR_DRAW {
            return Some(Outcome::Draw {
                how: how::FORTY_MOVES,
            });
        }
        None
    }

    fn path(&self, mv: &Move) -> Vec<Square> {
        mv.grid_path()
    }

    fn notation(&self, pos: &Position) -> String {
        fen::write(pos)
    }

    type PositionError = fen::FenError;
    type SetupError = SetupError;

    fn parse_position(&self, text: &str) -> Result<Position, fen::FenError> {
        fen::parse(text)
    }

    /// The capture rule, and the ballot opening when games start from one.
    /// A position set up is not named: the log keeps every game's start.
    fn setup(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("captures", self.captures.name().to_string())];
        match self.start {
            Start::Opening(o) => pairs.push(("opening", o.number().to_string())),
            // Each game's own opening is its start, which the log keeps.
            Start::Standard | Start::Position(_) | Start::Random(_) => {}
        }
        pairs
    }

    /// A random opening is drawn afresh for each game.
    fn prelude(&self, game: u64) -> Option<(Position, Vec<Move>)> {
        match self.start {
            Start::Random(_) => Some((self.start.position_of_game(game), Vec::new())),
            _ => None,
        }
    }

    fn from_setup(pairs: &[(&str, &str)]) -> Result<Setup, SetupError> {
        let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let captures = match get("captures") {
            Some(v) => v.parse().map_err(SetupError::Captures)?,
            None => Captures::Compulsory,
        };
        let start = match get("opening") {
            Some(v) => Start::Opening(
                v.trim()
                    .parse::<usize>()
                    .ok()
                    .and_then(Opening::new)
                    .ok_or_else(|| SetupError::Opening(v.to_string()))?,
            ),
            None => Start::Standard,
        };
        Ok(Setup { captures, start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules as _;
    use crate::games::draughts::fen;

    fn pos(text: &str) -> Position {
        fen::parse(text).unwrap()
    }

    #[test]
    fn a_side_without_a_move_loses() {
        let rules = Setup::STANDARD;
        assert_eq!(
            rules.outcome(&[pos("B:W32:B28")]),
            Some(Outcome::Win {
                winner: Side::White,
                how: how::NO_MOVES
            })
        );
        assert_eq!(
            rules.outcome(&[pos("W:W:B28")]),
            Some(Outcome::Win {
                winner: Side::Black,
                how: how::NO_MOVES
            })
        );
        assert_eq!(rules.outcome(&[Position::START]), None);
    }

    #[test]
    fn the_third_time_a_position_comes_round_is_a_draw() {
        let rules = Setup::STANDARD;
        let mut history = vec![pos("B:WK32:BK1")];
        let shuffle = ["1-5", "32-27", "5-1", "27-32"];
        for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
            assert_eq!(rules.outcome(&history), None, "after {i} plies");
            let here = *history.last().unwrap();
            let m = rules.find(&here, text).unwrap();
            history.push(here.play(&m));
        }
        assert_eq!(repetitions(&history), 3);
        assert_eq!(
            rules.outcome(&history),
            Some(Outcome::Draw {
                how: how::REPETITION
            })
        );
    }

    #[test]
    fn eighty_quiet_plies_draw_and_a_mans_move_resets_the_count() {
        let rules = Setup::STANDARD;
        // Kings wandering (the positions need not follow by legal moves for
        // the count), a black man fixed on 9.
        let quiet = |i: usize| {
            let side = if i.is_multiple_of(2) {
                Side::Black
            } else {
                Side::White
            };
            Position::new(
                (1 << 8) | (1 << (i % 8)),
                1 << (16 + (i / 8) % 16),
                (1 << (i % 8)) | (1 << (16 + (i / 8) % 16)),
                side,
            )
            .unwrap()
        };
        let history: Vec<Position> = (0..=80).map(quiet).collect();
        assert_eq!(quiet_plies(&history), 80);
        assert_eq!(
            rules.outcome(&history),
            Some(Outcome::Draw {
                how: how::FORTY_MOVES
            })
        );
        assert_eq!(rules.outcome(&history[..80]), None);
        // The man moved at ply 1: only 79 quiet plies since.
        let mut moved = history.clone();
        moved[0] = Position::new((1 << 4) | 1, 1 << 16, 1 | (1 << 16), Side::Black).unwrap();
        assert_eq!(quiet_plies(&moved), 79);
    }

    #[test]
    fn a_random_opening_is_drawn_for_each_game() {
        let rules = Setup::STANDARD.starting(Start::Random(7));
        let starts: Vec<Position> = (0..12)
            .map(|game| rules.prelude(game).map(|(p, moves)| (p, moves.len())))
            .map(|p| {
                let (pos, moves) = p.unwrap();
                assert_eq!(moves, 0);
                pos
            })
            .collect();
        assert_eq!(starts[0], rules.start());
        assert_eq!(starts[0], ballot::random(7).position());
        let mut distinct = starts.clone();
        distinct.sort_by_key(fen::write);
        distinct.dedup();
        assert!(
            distinct.len() >= 10,
            "{} openings in 12 games",
            distinct.len()
        );
        assert!(starts.iter().all(|p| ballot::find(p).is_some()));
        assert_eq!(Setup::STANDARD.prelude(3), None);
    }

    #[test]
    fn setup_names_the_capture_rule_and_the_opening() {
        assert_eq!(
            Setup::STANDARD.setup(),
            vec![("captures", "compulsory".to_string())]
        );
        let opening = Opening::new(102).unwrap();
        let rules = Setup::with_captures(Captures::Optional).starting(Start::Opening(opening));
        let pairs = rules.setup();
        assert_eq!(
            pairs,
            vec![
                ("captures", "optional".to_string()),
                ("opening", "102".to_string())
            ]
        );
        let read: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(Setup::from_setup(&read), Ok(rules));
        assert_eq!(rules.start(), opening.position());
        assert!(Setup::from_setup(&[("opening", "random")]).is_err());
        let random = Setup::STANDARD.starting(Start::Random(9));
        assert_eq!(random.setup(), vec![("captures", "compulsory".to_string())]);
        assert_eq!("Optional".parse::<Captures>(), Ok(Captures::Optional));
        assert_eq!(
            "sometimes".parse::<Captures>().map_err(|e| e.to_string()),
            Err("\"sometimes\" is not a capture rule: write compulsory or optional".into())
        );
    }
}
