//! A game in progress: how it was set up, the moves so far, and taking them back.

use super::board::{Board, Square};
use super::position::{Ending, Move, PlacementError, Position, Rules, Side};

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
    pub fn check_fox_start(&self, sq: Square) -> Result<Square, String> {
        if self.fox_choices().contains(&sq) {
            Ok(sq)
        } else {
            let names: Vec<String> = self.fox_choices().iter().map(|s| s.to_string()).collect();
            Err(format!(
                "the fox cannot start on {sq}: it starts on a dark square of the top row ({})",
                names.join(", ")
            ))
        }
    }

    /// The start position with the fox on `fox`.
    pub fn start(&self, fox: Square) -> Result<Position, PlacementError> {
        Position::start(self.board, fox, self.first)
    }

    /// The start position with the fox on its given square, or the board's default.
    pub fn default_start(&self) -> Position {
        let fox = self
            .fox_start
            .unwrap_or_else(|| self.board.default_fox_start());
        self.start(fox).unwrap_or_else(|_| {
            Position::start(self.board, self.board.default_fox_start(), self.first)
                .expect("the default start is legal")
        })
    }
}

/// A game: its rules, where it started and every move since.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from a start position.
    pub fn new(start: Position, rules: Rules) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Every move so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.position().ending(self.rules)
    }

    /// Plays a move. Returns `false`, changing nothing, if it is not legal now
    /// or the game is over.
    pub fn play(&mut self, mv: Move) -> bool {
        let now = *self.position();
        if self.ending().is_some() || !now.legal_moves().contains(&mv) {
            return false;
        }
        self.positions.push(now.play(mv));
        self.moves.push(mv);
        true
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
}
