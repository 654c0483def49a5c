//! Draughts as one run of tallyho plays it: the core's rules, and one
//! endgame database that every computer player of the run shares, built on a
//! thread of its own so that no computer move waits for it.
//!
//! The core stays pure: its players build a database themselves when they
//! need one, which would stall a move for seconds. Here the build starts when
//! the first Overpowered player sits down (or the first hint is asked for),
//! and each player takes the database between moves once it is ready.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::games::draughts::endgame::{self, Endgame};
use crate::games::draughts::{Draughts, Level, Move, Player, Position, Side};
use crate::games::{self, Advice, Computers, Deadline, Outcome, Rules, Square};

/// An endgame database being built, or built, shared by handles.
#[derive(Clone, Default)]
pub struct SharedEndgame(Arc<Building>);

#[derive(Default)]
struct Building {
    started: AtomicBool,
    db: OnceLock<Arc<Endgame>>,
}

impl SharedEndgame {
    /// Starts building the database for `rules` on its own thread, once.
    pub fn start(&self, rules: Draughts) {
        self.start_with(rules, endgame::MAX_PIECES);
    }

    /// Starts building a database of `pieces` pieces, once (tests use a small one).
    pub fn start_with(&self, rules: Draughts, pieces: u32) {
        if self.0.started.swap(true, Ordering::SeqCst) {
            return;
        }
        let building = Arc::clone(&self.0);
        let spawned = std::thread::Builder::new()
            .name("endgame".into())
            .spawn(move || {
                let db = Endgame::build(pieces, rules);
                let _ = building.db.set(Arc::new(db));
            });
        if spawned.is_err() {
            // No thread: the players simply play without the database.
            self.0.started.store(false, Ordering::SeqCst);
        }
    }

    /// The database, once it is built.
    pub fn ready(&self) -> Option<Arc<Endgame>> {
        self.0.db.get().cloned()
    }
}

/// The rules of a run of `tallyho draughts`, and its shared database.
#[derive(Clone)]
pub struct Session {
    /// The rules and the start of every game.
    pub rules: Draughts,
    endgame: SharedEndgame,
}

impl Session {
    /// A session under these rules; nothing is built until a player needs it.
    pub fn new(rules: Draughts) -> Session {
        Session {
            rules,
            endgame: SharedEndgame::default(),
        }
    }

    /// The database its players share, built or being built.
    pub fn endgame(&self) -> &SharedEndgame {
        &self.endgame
    }
}

impl Rules for Session {
    type Position = Position;
    type Move = Move;
    type Side = Side;

    const GAME: &'static str = Draughts::GAME;
    const BY_AGREEMENT: bool = Draughts::BY_AGREEMENT;

    fn sides(&self) -> [Side; 2] {
        self.rules.sides()
    }

    fn start(&self) -> Position {
        self.rules.start()
    }

    fn to_move(&self, pos: &Position) -> Side {
        self.rules.to_move(pos)
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.rules.legal_moves(pos)
    }

    fn play(&self, pos: &Position, mv: &Move) -> Position {
        self.rules.play(pos, mv)
    }

    fn outcome(&self, history: &[Position]) -> Option<Outcome<Side>> {
        self.rules.outcome(history)
    }

    fn path(&self, mv: &Move) -> Vec<Square> {
        self.rules.path(mv)
    }

    fn notation(&self, pos: &Position) -> String {
        self.rules.notation(pos)
    }

    fn parse_position(&self, text: &str) -> Result<Position, String> {
        self.rules.parse_position(text)
    }

    fn setup(&self) -> Vec<(&'static str, String)> {
        self.rules.setup()
    }

    fn from_setup(pairs: &[(&str, &str)]) -> Result<Session, String> {
        Draughts::from_setup(pairs).map(Session::new)
    }
}

/// A computer player of a session: the core's player, handed the shared
/// database as soon as it is ready.
pub struct SessionPlayer {
    player: Player,
    endgame: SharedEndgame,
    attached: bool,
}

impl SessionPlayer {
    /// Takes the database if it is ready and not yet taken.
    fn catch_up(&mut self) {
        if !self.attached
            && self.player.level() == Level::Overpowered
            && let Some(db) = self.endgame.ready()
        {
            self.player.attach_endgame(db);
            self.attached = true;
        }
    }
}

impl Computers for Session {
    type Level = Level;
    type Player = SessionPlayer;

    fn computer(&self, level: Level, seed: u64) -> SessionPlayer {
        if level == Level::Overpowered {
            self.endgame.start(self.rules);
        }
        SessionPlayer {
            player: Player::new(level, self.rules, seed).without_endgame(),
            endgame: self.endgame.clone(),
            attached: false,
        }
    }
}

impl games::Computer<Session> for SessionPlayer {
    fn choose(
        &mut self,
        rules: &Session,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Move> {
        self.catch_up();
        self.player.choose_move(&rules.rules, history, deadline)
    }

    fn advise(
        &mut self,
        rules: &Session,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Advice<Move, Side>> {
        self.catch_up();
        self.player.advise(&rules.rules, history, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Computer as _;
    use crate::games::Never;

    #[test]
    fn overpowered_players_take_the_database_once_it_is_built() {
        let session = Session::new(Draughts::STANDARD);
        session.endgame().start_with(session.rules, 2);
        let mut p = session.computer(Level::Overpowered, 1);
        for _ in 0..500 {
            if session.endgame().ready().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(session.endgame().ready().is_some());
        let pos = crate::games::draughts::fen::parse("B:WK20:BK1").unwrap();
        assert!(p.choose(&session, &[pos], &Never).is_some());
        assert!(p.attached);
        assert!(p.player.endgame().is_some());
    }

    #[test]
    fn players_that_need_no_database_build_none() {
        let session = Session::new(Draughts::STANDARD);
        let mut p = session.computer(Level::Greedy, 1);
        assert!(p.choose(&session, &[Position::START], &Never).is_some());
        assert!(!session.endgame.0.started.load(Ordering::SeqCst));
        assert_eq!(
            Session::from_setup(&[("captures", "optional")]).map(|s| s.rules.captures),
            Ok(crate::games::draughts::Captures::Optional)
        );
    }
}
