//! The setup of a game, and Fox and Hounds as the shell sees it through the
//! game seams.

use super::board::{Board, BoardError, Square};
use super::notation::NotationError;
use super::players::{Computer, Level};
use super::position::{Move, PlacementError, Position, Rules, Side};
use crate::games::names::UnknownChoice;
use crate::games::{self, Advice, Deadline, Outcome, Verdict};

/// A fox start square that is not on the board's top row of dark squares.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "the fox cannot start on {square}: it starts on a dark square of the top row ({})",
    self.choices.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
)]
pub struct FoxStartError {
    /// The square asked for.
    pub square: Square,
    /// The squares the fox may start on.
    pub choices: Vec<Square>,
}

/// Why a log's Fox and Hounds setup was refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// A setup with no value for this name.
    #[error("the setup has no {0}")]
    Missing(&'static str),
    /// The board is not one there is.
    #[error("{0}")]
    Board(BoardError),
    /// The rule set is not one there is.
    #[error("{0}")]
    Rules(UnknownChoice),
}

/// Everything fixed before the first move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The board size.
    pub board: Board,
    /// The ending rules.
    pub rules: Rules,
    /// Where the fox starts; `None` lets the fox's player choose.
    pub fox_start: Option<Square>,
    /// Who moves first.
    pub first: Side,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: Board::STANDARD,
            rules: Rules::Coursework,
            fox_start: Some(Board::STANDARD.default_fox_start()),
            first: Side::Fox,
        }
    }
}

impl Setup {
    /// The squares the fox may start on: the dark squares of the top row.
    pub fn fox_choices(&self) -> Vec<Square> {
        self.board
            .dark_squares_of_row(self.board.top_row())
            .collect()
    }

    /// Checks a fox start square for this board.
    pub fn check_fox_start(&self, sq: Square) -> Result<Square, FoxStartError> {
        let choices = self.fox_choices();
        if choices.contains(&sq) {
            Ok(sq)
        } else {
            Err(FoxStartError {
                square: sq,
                choices,
            })
        }
    }

    /// The start position with the fox on `fox`.
    pub fn start(&self, fox: Square) -> Result<Position, PlacementError> {
        Position::start_under(self.board, self.rules, fox, self.first)
    }

    /// The start position with the fox on its given square, or the board's default.
    pub fn default_start(&self) -> Position {
        let fox = self
            .fox_start
            .unwrap_or_else(|| self.board.default_fox_start());
        self.start(fox).unwrap_or_else(|_| {
            Position::start_under(
                self.board,
                self.rules,
                self.board.default_fox_start(),
                self.first,
            )
            .expect("the default start is legal")
        })
    }
}

/// Fox and Hounds as the shell sees it: the setup is the rules value.
impl games::Rules for Setup {
    type Position = Position;
    type Move = Move;
    type Side = Side;

    const GAME: &'static str = "fox";

    fn sides(&self) -> [Side; 2] {
        [Side::Fox, Side::Hounds]
    }

    fn start(&self) -> Position {
        self.default_start()
    }

    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move()
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if pos.ending(self.rules).is_some() {
            return Vec::new();
        }
        pos.legal_moves().to_vec()
    }

    fn play(&self, pos: &Position, mv: &Move) -> Position {
        pos.play(*mv)
    }

    fn outcome(&self, history: &[Position]) -> Option<Outcome<Side>> {
        let ending = history.last()?.ending(self.rules)?;
        Some(Outcome::Win {
            winner: ending.winner(),
            how: ending.name(),
        })
    }

    fn path(&self, mv: &Move) -> Vec<Square> {
        vec![mv.from(), mv.to()]
    }

    fn notation(&self, pos: &Position) -> String {
        pos.notation()
    }

    type PositionError = NotationError;
    type SetupError = SetupError;

    fn parse_position(&self, text: &str) -> Result<Position, NotationError> {
        Position::parse_under(text, self.board, self.rules)
    }

    fn setup(&self) -> Vec<(&'static str, String)> {
        vec![
            ("board", self.board.to_string()),
            ("rules", self.rules.name().to_string()),
        ]
    }

    fn from_setup(pairs: &[(&str, &str)]) -> Result<Setup, SetupError> {
        let get = |key: &'static str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .ok_or(SetupError::Missing(key))
        };
        let board: Board = get("board")?.parse().map_err(SetupError::Board)?;
        let rules: Rules = get("rules")?.parse().map_err(SetupError::Rules)?;
        Ok(Setup {
            board,
            rules,
            ..Setup::default()
        })
    }

    fn start_choices(&self) -> Option<(Side, Vec<Position>)> {
        if self.fox_start.is_some() {
            return None;
        }
        let starts = self
            .fox_choices()
            .into_iter()
            .filter_map(|sq| self.start(sq).ok())
            .collect();
        Some((Side::Fox, starts))
    }
}

impl games::Computers for Setup {
    type Level = Level;
    type Player = Computer;

    fn computer(&self, level: Level, seed: u64) -> Computer {
        Computer::new(level, self.rules, seed)
    }
}

impl games::Computer<Setup> for Computer {
    fn reseed(&mut self, seed: u64) {
        Computer::reseed(self, seed);
    }

    fn choose(
        &mut self,
        _rules: &Setup,
        history: &[Position],
        _deadline: &dyn Deadline,
    ) -> Option<Move> {
        Computer::choose(self, history.last()?)
    }

    fn choose_start(&mut self, _rules: &Setup, starts: &[Position]) -> usize {
        Computer::choose_start(self, starts)
    }

    fn advise(
        &mut self,
        rules: &Setup,
        history: &[Position],
        _deadline: &dyn Deadline,
    ) -> Option<Advice<Move, Side>> {
        let pos = history.last()?;
        let solver = self.solver(pos.board(), rules.rules);
        let value = solver.value(pos);
        let best = solver.best_moves(pos);
        (!best.is_empty()).then_some(Advice {
            best,
            verdict: Verdict::Win {
                winner: value.winner,
                plies: Some(value.plies),
            },
        })
    }
}
