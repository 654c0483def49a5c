//! The games' pure cores, one folder each, and the seams the shell sees them
//! through. Nothing under `games/` prints, reads, sleeps or looks at the clock.
//!
//! A game is a [`Rules`] value (its setup: board size, rule options) plus
//! computer players ([`Computer`]). The shell keeps a game in progress as the
//! list of positions since the start, so rules that look back (a draw by
//! repetition) see the whole game, and taking a move back is dropping a position.

use std::fmt;
use std::str::FromStr;

#[macro_use]
mod names;
pub mod draughts;
pub mod fish;
pub mod fox;
mod game;
pub mod grid;
mod kind;

pub use game::{Game, PlayError};
pub use grid::Square;
pub use kind::{FoxFlow, GameKind, UnknownGame};
pub use names::{UnknownChoice, UnknownLevel, UnknownSide, and_list, or_list};

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome<S> {
    /// One side won. `how` names the way in the log: `fox-trapped`, `no-moves`.
    Win {
        /// The side that won.
        winner: S,
        /// A short kebab-case name of how, stable across releases.
        how: &'static str,
    },
    /// Nobody won. `how` is `repetition`, `forty-moves`, `agreed`, `equal-points`…
    Draw {
        /// A short kebab-case name of how, stable across releases.
        how: &'static str,
    },
}

impl<S: Copy> Outcome<S> {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<S> {
        match *self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// How it ended, as the log names it.
    pub fn how(&self) -> &'static str {
        match *self {
            Outcome::Win { how, .. } | Outcome::Draw { how } => how,
        }
    }
}

/// The rules of one two-sided game under one setup.
///
/// Positions are values. A move is named by a player as a path of squares
/// ([`Rules::path`]): the shell narrows the legal moves by the squares typed
/// so far, so a game never parses a whole move itself.
pub trait Rules {
    /// Everything that decides what may happen next.
    type Position: Clone + PartialEq + fmt::Debug;
    /// One move. `Display` is its notation in the game log (`A8-B7`, `22x15x6`);
    /// it must tell apart every two legal moves of a position.
    type Move: Clone + PartialEq + fmt::Debug + fmt::Display;
    /// One of the two sides. `Display` is its name in the log and in
    /// questions (`fox`, `black`); `FromStr` is the one parser of a side.
    type Side: Copy + Eq + fmt::Debug + fmt::Display + FromStr<Err = UnknownSide>;

    /// The game's name in the log and on the command line: `fox`, `draughts`, `fish`.
    const GAME: &'static str;

    /// Whether players may agree a draw or resign (draughts); the shell then
    /// offers `draw` and `resign`, and logs `agreed` and `resigned` endings.
    const BY_AGREEMENT: bool = false;

    /// The two sides: seat 1 plays the first in the first game, and the
    /// seats swap sides after each game.
    fn sides(&self) -> [Self::Side; 2];

    /// The start position of this setup.
    fn start(&self) -> Self::Position;

    /// The side to move.
    fn to_move(&self, pos: &Self::Position) -> Self::Side;

    /// Every legal move, in a stable order. Empty when the game is over.
    fn legal_moves(&self, pos: &Self::Position) -> Vec<Self::Move>;

    /// The position after a legal move.
    fn play(&self, pos: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The outcome, if the game is over. `history` is every position since
    /// the start, the current one last; it is never empty.
    fn outcome(&self, history: &[Self::Position]) -> Option<Outcome<Self::Side>>;

    /// The squares a player names for a move, in order: `[from, to]`,
    /// `[from, landing, landing]` for a multi-jump, or `[to]` for a placement.
    fn path(&self, mv: &Self::Move) -> Vec<Square>;

    /// The position in the game's text notation, as the log and `analyse` use it.
    fn notation(&self, pos: &Self::Position) -> String;

    /// The score a game of points ends with, for the log and its table:
    /// `22-24`, the first side's first. `None` for a game won or drawn
    /// without points.
    fn score(&self, pos: &Self::Position) -> Option<String> {
        let _ = pos;
        None
    }

    /// Why a position's text was refused: a message fit for a player.
    type PositionError: std::error::Error + Send + Sync + 'static;

    /// Why a log's setup pairs were refused: a message fit for a player.
    type SetupError: std::error::Error + Send + Sync + 'static;

    /// Reads a position in the game's notation, checked.
    fn parse_position(&self, text: &str) -> Result<Self::Position, Self::PositionError>;

    /// The setup as name/value pairs for the log (`board`, `rules`…).
    fn setup(&self) -> Vec<(&'static str, String)>;

    /// The setup again from the log's pairs; the error says what is wrong.
    fn from_setup(pairs: &[(&str, &str)]) -> Result<Self, Self::SetupError>
    where
        Self: Sized;

    /// When the setup leaves the start open: the side whose player picks it,
    /// and the starts to pick from. `None` when [`Rules::start`] is the start.
    fn start_choices(&self) -> Option<(Self::Side, Vec<Self::Position>)> {
        None
    }

    /// How game `game` of a match (0 for the first) begins, where the setup
    /// says more than [`Rules::start`]: its start position and the moves
    /// already played from it, which are the game's past (a loaded game's
    /// moves count toward a repetition, and are not taken back). `None`:
    /// from the start, no moves played.
    fn prelude(&self, game: u64) -> Option<(Self::Position, Vec<Self::Move>)> {
        let _ = game;
        None
    }
}

/// The levels and players a game's computer offers.
pub trait Computers: Rules + Sized {
    /// A computer level.
    type Level: Level;
    /// A computer player at one level.
    type Player: Computer<Self>;

    /// A player at `level`, its randomness seeded from `seed`.
    fn computer(&self, level: Self::Level, seed: u64) -> Self::Player;

    /// The strongest level, which gives hints.
    fn best_level() -> Self::Level {
        *Self::Level::ALL
            .last()
            .expect("a game has a computer level")
    }
}

/// A computer player of one game. Each holds its own seeded randomness, so
/// the same seed and the same moves give the same choices.
pub trait Computer<R: Rules> {
    /// The move to play, or `None` if there is none. `history` is as in
    /// [`Rules::outcome`]. A player that searches stops when `deadline` says so.
    fn choose(
        &mut self,
        rules: &R,
        history: &[R::Position],
        deadline: &dyn Deadline,
    ) -> Option<R::Move>;

    /// Picks one of `starts` (see [`Rules::start_choices`]); the first by default.
    fn choose_start(&mut self, rules: &R, starts: &[R::Position]) -> usize {
        let _ = (rules, starts);
        0
    }

    /// Reseeds the player's randomness. The shell reseeds before every move
    /// from the match's seed and the ply, so that after `undo` the same
    /// position gets the same reply: a player cannot fish for a better one.
    fn reseed(&mut self, seed: u64);

    /// Whether this player, to move or not, takes a draw that `offerer`
    /// offers in the position `history` ends in. The game decides: the
    /// default takes it only where its advice proves a draw, or a win for
    /// the offerer, or an exact score no better for itself than a draw.
    fn accepts_draw(
        &mut self,
        rules: &R,
        history: &[R::Position],
        offerer: R::Side,
        deadline: &dyn Deadline,
    ) -> bool {
        match self.advise(rules, history, deadline).map(|a| a.verdict) {
            Some(Verdict::Draw) => true,
            Some(Verdict::Win { winner, .. }) => winner == offerer,
            Some(Verdict::Score { value, exact: true }) => {
                let to_move = history.last().map(|pos| rules.to_move(pos));
                // The score is the side to move's: turn it to the offerer's.
                let offerers = if to_move == Some(offerer) {
                    value
                } else {
                    -value
                };
                offerers >= 0
            }
            Some(Verdict::Score { exact: false, .. }) | None => false,
        }
    }

    /// The best moves and the verdict on them, for a hint; `None` when this
    /// player cannot judge.
    fn advise(
        &mut self,
        rules: &R,
        history: &[R::Position],
        deadline: &dyn Deadline,
    ) -> Option<Advice<R::Move, R::Side>> {
        let _ = (rules, history, deadline);
        None
    }
}

/// A judgement of a position by a computer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict<S> {
    /// Exact: `winner` wins with best play, in `plies` when known.
    Win {
        /// The side that wins.
        winner: S,
        /// Plies to the end with best play (the winner hurries, the loser holds out).
        plies: Option<u32>,
    },
    /// Exact: a draw with best play.
    Draw,
    /// A score for the side to move, in the game's own units (points,
    /// hundredths of a man); `exact` when it is the value with best play.
    Score {
        /// Positive is good for the side to move.
        value: i32,
        /// Whether the search saw to the end.
        exact: bool,
    },
}

/// What a hint tells: the best moves found, best first, and the verdict.
#[derive(Clone, PartialEq, Debug)]
pub struct Advice<M, S> {
    /// Every move judged best, in order of preference; never empty.
    pub best: Vec<M>,
    /// The verdict with best play.
    pub verdict: Verdict<S>,
}

/// When a computer must stop thinking. The shell owns the clock; the core
/// only asks. A search checks it every few thousand nodes.
pub trait Deadline {
    /// Whether time is up (or the player pressed Ctrl-C).
    fn passed(&self) -> bool;
}

/// A deadline that never passes: for exact solvers, tests and tools.
pub struct Never;

impl Deadline for Never {
    fn passed(&self) -> bool {
        false
    }
}

/// A computer level: a name on the command line and in the log.
pub trait Level:
    Copy + Eq + fmt::Debug + fmt::Display + FromStr<Err = UnknownLevel> + 'static
{
    /// Every level, weakest first.
    const ALL: &'static [Self];
    /// A line saying how it plays, for the menu.
    fn description(self) -> &'static str;

    /// Reads a level by its name (its `Display`), in any case: the one
    /// parser behind every game's `FromStr`, so every game refuses alike.
    fn parse_name(text: &str) -> Result<Self, UnknownLevel> {
        let text = text.trim();
        let names: Vec<String> = Self::ALL.iter().map(ToString::to_string).collect();
        if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(text)) {
            return Ok(Self::ALL[i]);
        }
        Err(UnknownLevel {
            text: text.to_string(),
            names,
        })
    }
}
