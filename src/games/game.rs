//! A game in progress, for any rules: the positions since the start, the
//! moves between them, and an ending the players agreed on, if any.

use std::fmt;

use super::{Outcome, Rules};

/// Why a move was not played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is already over.
    Over,
    /// The move is not legal in the current position.
    Illegal,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::Over => "the game is over",
            PlayError::Illegal => "that move is not legal here",
        })
    }
}

impl std::error::Error for PlayError {}

/// A game: where it started, every move since, and how it ended.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    positions: Vec<R::Position>,
    moves: Vec<R::Move>,
    /// An ending the rules do not see: a resignation or an agreed draw.
    settled: Option<Outcome<R::Side>>,
}

impl<R: Rules> Game<R> {
    /// A game from a start position.
    pub fn new(start: R::Position) -> Game<R> {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            settled: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &R::Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The start position.
    pub fn start(&self) -> &R::Position {
        &self.positions[0]
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[R::Position] {
        &self.positions
    }

    /// Every move so far.
    pub fn moves(&self) -> &[R::Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self, rules: &R) -> Option<Outcome<R::Side>> {
        self.settled.or_else(|| rules.outcome(&self.positions))
    }

    /// Plays a move, or says why not and changes nothing.
    pub fn play(&mut self, rules: &R, mv: R::Move) -> Result<(), PlayError> {
        if self.outcome(rules).is_some() {
            return Err(PlayError::Over);
        }
        let now = self.position();
        if !rules.legal_moves(now).contains(&mv) {
            return Err(PlayError::Illegal);
        }
        let next = rules.play(now, &mv);
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Ends the game by the players' word: a resignation or an agreed draw.
    /// Nothing changes if it is already over.
    pub fn settle(&mut self, rules: &R, outcome: Outcome<R::Side>) {
        if self.outcome(rules).is_none() {
            self.settled = Some(outcome);
        }
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<R::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.settled = None;
        Some(mv)
    }
}
