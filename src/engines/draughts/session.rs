//! Draughts as one run of tallyho plays it: the core's rules, and one
//! endgame database that every computer player of the run shares, built on a
//! thread of its own so that no computer move waits for it.
//!
//! The core stays pure: its players build a database themselves when they
//! need one, which would stall a move for seconds. Here the build starts when
//! the first Overpowered player sits down (or the first hint is asked for),
//! and each player takes the database between moves once it is ready.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::engines::draughts::store::EndgameStore;
use crate::games::draughts::endgame::{self, Endgame};
use crate::games::draughts::{Level, Move, PdnGame, Player, Position, Setup, Side, pdn};
use crate::games::{self, Advice, Computers, Deadline, Outcome, Rules, Square};

/// The log's setup key for a loaded game's PDN tags, written as PDN tag
/// pairs, so that the game written out as PDN carries them.
pub const LOADED_TAGS: &str = "pdn-tags";

/// An endgame database being built, or built, shared by handles. With a
/// store on disk it is read from there; else the 4-piece one is read or
/// built (seconds, and kept), then the larger one built and saved for next
/// time ([`EndgameStore::supply`]).
#[derive(Clone, Default)]
pub struct SharedEndgame(Arc<Building>);

#[derive(Default)]
struct Building {
    started: AtomicBool,
    /// The largest database ready so far.
    db: Mutex<Option<Arc<Endgame>>>,
    store: Mutex<Option<(EndgameStore, u32)>>,
}

impl SharedEndgame {
    /// Keeps databases in `store`, up to `pieces` pieces (call before the
    /// first [`SharedEndgame::start`]).
    pub fn keep_in(&self, store: EndgameStore, pieces: u32) {
        *lock(&self.0.store) = Some((store, pieces));
    }

    /// Starts building the database for `rules` on its own thread, once.
    pub fn start(&self, rules: Setup) {
        self.start_with(rules, endgame::MAX_PIECES);
    }

    /// Starts building a database of `pieces` pieces in memory, once (tests
    /// use a small one); with a store, reads or builds its larger one too.
    pub fn start_with(&self, rules: Setup, pieces: u32) {
        if self.0.started.swap(true, Ordering::SeqCst) {
            return;
        }
        let building = Arc::clone(&self.0);
        let store = lock(&self.0.store).clone();
        let spawned = std::thread::Builder::new()
            .name("endgame".into())
            .spawn(move || {
                let mut set = |db: Endgame| {
                    *lock(&building.db) = Some(Arc::new(db));
                    true
                };
                match store {
                    Some((store, big)) => {
                        store.supply(rules, pieces, big..=endgame::LARGEST_PIECES, &mut set);
                    }
                    None => {
                        set(Endgame::build(pieces, rules));
                    }
                }
            });
        if spawned.is_err() {
            // No thread: the players simply play without the database.
            self.0.started.store(false, Ordering::SeqCst);
        }
    }

    /// The largest database ready so far.
    pub fn ready(&self) -> Option<Arc<Endgame>> {
        lock(&self.0.db).clone()
    }

    /// The database once ready, waiting for it no longer than `deadline`
    /// (so a move's thinking time bounds the wait, as `--think` promises).
    pub fn ready_within(&self, deadline: &dyn Deadline) -> Option<Arc<Endgame>> {
        self.holding_within(0, deadline)
    }

    /// A database of at least `pieces` pieces once one is ready, waiting no
    /// longer than `deadline`: a smaller one ready first (the quick one, in
    /// seconds, before the large one) is passed over.
    pub fn holding_within(&self, pieces: u32, deadline: &dyn Deadline) -> Option<Arc<Endgame>> {
        loop {
            if let Some(db) = self.ready().filter(|db| db.max_pieces() >= pieces) {
                return Some(db);
            }
            if deadline.passed() || !self.0.started.load(Ordering::SeqCst) {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The lock, even if a thread panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The rules of a run of `tallyho draughts`, and its shared database.
#[derive(Clone)]
pub struct Session {
    /// The rules and the start of every game.
    pub rules: Setup,
    endgame: SharedEndgame,
    /// Overpowered's search threads.
    threads: usize,
    /// The time a computer's move is given, to size its table.
    think_ms: Option<u64>,
    /// A game read from a PDN file (`--load`): every game of the session
    /// goes on from its last position, its moves the game's past.
    loaded: Option<Arc<PdnGame>>,
}

impl Session {
    /// A session under these rules; nothing is built until a player needs it.
    pub fn new(rules: Setup) -> Session {
        Session {
            rules,
            endgame: SharedEndgame::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            think_ms: None,
            loaded: None,
        }
    }

    /// The same session, every game going on from `game`: its start, its
    /// moves already played, its tags kept for the log (see [`LOADED_TAGS`]).
    pub fn with_loaded(mut self, game: PdnGame) -> Session {
        self.loaded = Some(Arc::new(game));
        self
    }

    /// The game read from a PDN file, if any (`--load`).
    pub fn loaded(&self) -> Option<&PdnGame> {
        self.loaded.as_deref()
    }

    /// The same session whose computer players are given about `think_ms`
    /// milliseconds a move (`--think`), so that Overpowered's table is sized
    /// for it.
    pub fn with_think(mut self, think_ms: u64) -> Session {
        self.think_ms = Some(think_ms);
        self
    }

    /// The same session whose Overpowered players search on `threads`
    /// threads (every core by default; `--threads`).
    pub fn with_threads(mut self, threads: usize) -> Session {
        self.threads = threads.max(1);
        self
    }

    /// The same session keeping its databases in `store`, up to `pieces`
    /// pieces (the user's data directory; five pieces by default).
    pub fn with_store(self, store: EndgameStore, pieces: u32) -> Session {
        self.endgame.keep_in(store, pieces);
        self
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

    const GAME: &'static str = Setup::GAME;
    const BY_AGREEMENT: bool = Setup::BY_AGREEMENT;

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

    type PositionError = <Setup as Rules>::PositionError;
    type SetupError = <Setup as Rules>::SetupError;

    fn parse_position(&self, text: &str) -> Result<Position, Self::PositionError> {
        self.rules.parse_position(text)
    }

    fn setup(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.rules.setup();
        if let Some(game) = &self.loaded
            && !game.tags.is_empty()
        {
            pairs.push((LOADED_TAGS, pdn::write_tags(&game.tags)));
        }
        pairs
    }

    fn prelude(&self, game: u64) -> Option<(Position, Vec<Move>)> {
        match &self.loaded {
            Some(loaded) => Some((loaded.start, loaded.moves.clone())),
            None => self.rules.prelude(game),
        }
    }

    fn from_setup(pairs: &[(&str, &str)]) -> Result<Session, Self::SetupError> {
        Setup::from_setup(pairs).map(Session::new)
    }
}

/// A computer player of a session: the core's player, handed the shared
/// database as soon as it is ready (and the larger one when that is).
pub struct SessionPlayer {
    player: Player,
    endgame: SharedEndgame,
    attached: bool,
    /// The pieces of the database it has.
    pieces: u32,
}

impl SessionPlayer {
    /// Takes the database if it is ready and larger than the one it has.
    fn catch_up(&mut self) {
        if self.player.level() == Level::Overpowered
            && let Some(db) = self.endgame.ready()
            && (!self.attached || db.max_pieces() > self.pieces)
        {
            self.pieces = db.max_pieces();
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
        let mut player = Player::new(level, self.rules, seed)
            .without_endgame()
            .with_threads(self.threads);
        if let Some(think_ms) = self.think_ms {
            player.fit_to(think_ms);
        }
        SessionPlayer {
            player,
            endgame: self.endgame.clone(),
            attached: false,
            pieces: 0,
        }
    }
}

impl games::Computer<Session> for SessionPlayer {
    fn reseed(&mut self, seed: u64) {
        self.player.reseed(seed);
    }

    fn accepts_draw(
        &mut self,
        rules: &Session,
        history: &[Position],
        offerer: Side,
        deadline: &dyn Deadline,
    ) -> bool {
        self.catch_up();
        self.player
            .accepts_draw(&rules.rules, history, offerer, deadline)
    }

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
    #[test]
    fn a_store_is_read_first_and_filled_once() {
        let dir = crate::scratch::Scratch::unmade("session-store");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        // A small "large" database (3 pieces) over a 2-piece quick one.
        let shared = SharedEndgame::default();
        shared.keep_in(store.clone(), 3);
        shared.start_with(rules, 2);
        let mut pieces = 0;
        for _ in 0..1000 {
            pieces = shared.ready().map_or(0, |d| d.max_pieces());
            if pieces == 3 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(pieces, 3);
        assert!(store.load(3, rules).unwrap().is_some());
        // The next run reads it.
        let next = SharedEndgame::default();
        next.keep_in(store, 3);
        next.start_with(rules, 2);
        let db = next.ready_within(&Never).unwrap();
        assert!(db.max_pieces() >= 2);
    }

    use super::*;
    use crate::games::Computer as _;
    use crate::games::Never;

    #[test]
    fn overpowered_players_take_the_database_once_it_is_built() {
        let session = Session::new(Setup::STANDARD);
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
    fn overpowered_tables_are_sized_for_the_time_a_move_is_given() {
        // A second a move, as the game gives by default: 2^18 entries.
        let session = Session::new(Setup::STANDARD);
        let p = session.computer(Level::Overpowered, 1);
        assert_eq!(p.player.table_bits(), Some(18));
        let quick = Session::new(Setup::STANDARD).with_think(100);
        let p = quick.computer(Level::Overpowered, 1);
        assert_eq!(p.player.table_bits(), Some(16));
        let p = quick.computer(Level::Greedy, 1);
        assert_eq!(p.player.table_bits(), None);
    }

    #[test]
    fn players_that_need_no_database_build_none() {
        let session = Session::new(Setup::STANDARD);
        let mut p = session.computer(Level::Greedy, 1);
        assert!(p.choose(&session, &[Position::START], &Never).is_some());
        assert!(!session.endgame.0.started.load(Ordering::SeqCst));
        assert!(session.endgame().ready_within(&Never).is_none());
        assert_eq!(
            Session::from_setup(&[("captures", "optional")]).map(|s| s.rules.captures),
            Ok(crate::games::draughts::Captures::Optional)
        );
    }
}
