//! The store's own tests: fresh data folders, accounts, seats and games to
//! begin, the record a finished game leaves, the log it goes to, and the
//! database reached as an operator's tool would.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use tallyho::server::store::{AccountId, NewGame, PlayerRef, SeatInfo, Store};
use tallyho::shell::log::{Ending, Log, Record, Seat};

use crate::scratch::Scratch;

/// A fresh data folder under the system temp folder, not yet made (the
/// store makes it), removed when dropped.
pub fn folder(what: &str) -> Scratch {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Scratch::unmade(&format!("store-test-{n}-{what}"))
}

/// A store opened in a fresh data folder: the folder first, so that it is
/// dropped after the store.
pub fn fresh_store(what: &str) -> (Scratch, Store) {
    let dir = folder(what);
    let store = Store::open(dir.path()).expect("a fresh store opens");
    (dir, store)
}

/// A new account for `handle`, with a key of its own.
pub fn account(store: &Store, handle: &str) -> AccountId {
    let fingerprint = format!("SHA256:key-of-{handle}");
    store
        .create_account(&fingerprint, handle)
        .expect("the store takes an account")
        .expect("the handle is free")
        .id
}

/// A seat at a game: who sits there, on which side, and as which player
/// (`None` for a guest).
pub fn seat(handle: &str, side: &str, player: Option<PlayerRef>) -> SeatInfo {
    SeatInfo {
        handle: handle.to_string(),
        side: side.to_string(),
        player,
    }
}

/// The player with the account `id`.
pub fn person(id: AccountId) -> Option<PlayerRef> {
    Some(PlayerRef::Account(id))
}

/// A game of `game` between two seats, from Fox and Hounds' start.
pub fn new_game(game: &str, seats: [SeatInfo; 2], rated: bool) -> NewGame {
    NewGame {
        game: game.to_string(),
        flow: "default".to_string(),
        setup: vec![
            ("board".to_string(), "8x8".to_string()),
            ("rules".to_string(), "coursework".to_string()),
        ],
        start: "A8/B1,D1,F1,H1/fox".to_string(),
        seats,
        rated,
    }
}

/// Accounts for Ann and Bob in `store` (Ann's made first), and a game of
/// Fox and Hounds between them, rated or not: Ann the fox, Bob the hounds.
pub fn ann_against_bob(store: &Store, rated: bool) -> (AccountId, AccountId, NewGame) {
    let ann = account(store, "Ann");
    let bob = account(store, "Bob");
    let seats = [
        seat("Ann", "fox", person(ann)),
        seat("Bob", "hounds", person(bob)),
    ];
    (ann, bob, new_game("fox", seats, rated))
}

/// The record of a game the store keeps, won by `winner` (a side) by
/// resignation, or drawn by agreement, after `moves`.
pub fn record_of(game: &NewGame, winner: Option<&str>, moves: &[&str]) -> Record {
    Record {
        version: 2,
        number: 0,
        date: "2026-11-25T10:00:00Z".to_string(),
        game: game.game.clone(),
        flow: game.flow.clone(),
        setup: game.setup.iter().cloned().collect::<BTreeMap<_, _>>(),
        seats: game
            .seats
            .iter()
            .map(|s| Seat {
                name: s.handle.clone(),
                side: s.side.clone(),
                level: match &s.player {
                    Some(PlayerRef::Computer { level }) => Some(level.clone()),
                    _ => None,
                },
            })
            .collect(),
        outcome: Ending {
            winner: winner.map(String::from),
            how: if winner.is_some() {
                "resigned"
            } else {
                "agreed"
            }
            .to_string(),
            score: None,
        },
        plies: u32::try_from(moves.len()).expect("a game's plies fit a u32"),
        start: game.start.clone(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        seed: None,
    }
}

/// Every record of the log at `path`, and how many of its lines were
/// damaged.
pub fn log_at(path: &Path) -> (Vec<Record>, usize) {
    let mut records = Log::new(path.to_path_buf())
        .stream()
        .expect("the log can be read");
    let mut all = Vec::new();
    while let Some(r) = records.next_record().expect("the log reads on") {
        all.push(r);
    }
    (all, records.damaged())
}

/// Another connection to the database in the data folder `data`, as an
/// operator's tool has, waiting up to ten seconds for the server's.
pub fn database(data: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(data.join("server.db")).expect("the database opens");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("a busy timeout");
    conn
}

/// From now on the database refuses `table`'s new rows as a full disk
/// does.
pub fn fill(data: &Path, table: &str) {
    database(data)
        .execute_batch(&format!(
            "CREATE TRIGGER full_{table} BEFORE INSERT ON {table}
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;"
        ))
        .expect("the trigger is made");
}

/// The database takes `table`'s new rows again.
pub fn empty(data: &Path, table: &str) {
    database(data)
        .execute_batch(&format!("DROP TRIGGER full_{table}"))
        .expect("the trigger is dropped");
}
