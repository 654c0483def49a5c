//! A finished game whose ending the database refuses (a full disk): the
//! store keeps it, stores it once the database takes changes again (after
//! the next change, or at shutdown), with its winner and ratings, and it
//! survives a restart; an ending never stored leaves its game in progress
//! with every move. The refusal is a trigger on the finished games, put in
//! and taken out by the test, that fails as a full disk does.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use tallyho::server::store::{AccountId, GameId, NewGame, PlayerRef, SeatInfo, Store, StoreError};
use tallyho::shell::log::{Ending, Log, Record, Seat};

mod scratch;
use scratch::Scratch;

/// A fresh data folder, not yet made (the store makes it).
fn folder(what: &str) -> Scratch {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Scratch::unmade(&format!("store-waiting-{n}-{what}"))
}

/// The store in `dir` opened again, once the last one has let go of it
/// (the thread that stored a waiting ending may hold it a moment more).
fn reopen(dir: &Path) -> Store {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        match Store::open(dir) {
            Err(StoreError::InUse(_)) if Instant::now() < end => {
                std::thread::sleep(Duration::from_millis(10));
            }
            opened => return opened.unwrap(),
        }
    }
}

/// Another connection to the store's database, as an operator's tool.
fn sqlite(dir: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("server.db")).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn
}

/// From now on the database refuses every finished game as a full disk.
fn fill(dir: &Path) {
    sqlite(dir)
        .execute_batch(
            "CREATE TRIGGER full BEFORE INSERT ON finished
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;",
        )
        .unwrap();
}

/// The database takes finished games again.
fn empty(dir: &Path) {
    sqlite(dir).execute_batch("DROP TRIGGER full").unwrap();
}

fn account(store: &Store, handle: &str) -> AccountId {
    store
        .create_account(&format!("SHA256:key-of-{handle}"), handle)
        .unwrap()
        .unwrap()
        .id
}

fn seat(handle: &str, side: &str, player: Option<PlayerRef>) -> SeatInfo {
    SeatInfo {
        handle: handle.to_string(),
        side: side.to_string(),
        player,
    }
}

fn fox_game(seats: [SeatInfo; 2], rated: bool) -> NewGame {
    NewGame {
        game: "fox".to_string(),
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

const MOVES: [&str; 2] = ["A8-B7", "B1-A2"];

/// A game begun with [`MOVES`] played, and its record as resigned by the
/// hounds.
fn begun(store: &Store, game: &NewGame) -> (GameId, Record) {
    let id = store.begin_game(game).unwrap();
    for (ply, mv) in (0..).zip(MOVES) {
        store.add_move(id, ply, mv).unwrap();
    }
    let record = Record {
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
                level: None,
            })
            .collect(),
        outcome: Ending {
            winner: Some("fox".to_string()),
            how: "resigned".to_string(),
            score: None,
        },
        plies: 2,
        start: game.start.clone(),
        moves: MOVES.iter().map(|m| m.to_string()).collect(),
        seed: None,
    };
    (id, record)
}

/// Every record of the data folder's `history.jsonl`.
fn logged(store: &Store) -> Vec<Record> {
    let mut records = Log::new(store.history_path()).stream().unwrap();
    let mut all = Vec::new();
    while let Some(r) = records.next_record().unwrap() {
        all.push(r);
    }
    all
}

/// Finishing `id` is refused as a full disk: the error says so, names no
/// file, and the ending waits.
fn refused(store: &Store, dir: &Path, id: GameId, record: &Record, rated: bool) {
    let e = store.finish_game(id, record, rated).unwrap_err();
    assert!(
        matches!(&e, StoreError::EndingWaits { game, reason }
            if *game == id && reason == "database or disk is full"),
        "{e:?}"
    );
    let said = e.to_string();
    assert!(said.contains("stores it as soon as it can"), "{said}");
    assert!(
        !said.contains("server.db") && !said.contains(&dir.display().to_string()),
        "no file named to players: {said}"
    );
    assert_eq!(store.endings_waiting(), 1);
}

#[test]
fn an_ending_the_database_refused_is_stored_once_it_has_room_and_survives_a_restart() {
    let dir = folder("next-change");
    let store = Store::open(dir.path()).unwrap();
    let ann = account(&store, "Ann");
    let bob = account(&store, "Bob");
    let people = [
        seat("Ann", "fox", Some(PlayerRef::Account(ann))),
        seat("Bob", "hounds", Some(PlayerRef::Account(bob))),
    ];
    let game = fox_game(people.clone(), true);
    let (id, record) = begun(&store, &game);
    let (other, _) = begun(&store, &game);

    fill(dir.path());
    refused(&store, dir.path(), id, &record, true);
    // Nothing moved yet: the game is in progress in the database.
    assert!(store.ratings(Some("fox")).unwrap().is_empty());
    assert!(store.history(ann, 10).unwrap().is_empty());
    assert_eq!(store.unfinished().unwrap().len(), 2);

    // Room again: the next change stored brings the ending in.
    empty(dir.path());
    store.take_back(other, 1).unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    while store.endings_waiting() > 0 {
        assert!(Instant::now() < end, "the ending was never stored");
        std::thread::sleep(Duration::from_millis(20));
    }
    let check = |store: &Store| {
        let board = store.ratings(Some("fox")).unwrap();
        let names: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Ann", "Bob"], "the winner first");
        assert!(board[0].rating.rating > 1500.0 && board[1].rating.rating < 1500.0);
        assert_eq!((board[0].rating.games, board[1].rating.games), (1, 1));
        let history = store.history(ann, 10).unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].outcome.winner.as_deref(), Some("fox"));
        assert_eq!(history[0].outcome.how, "resigned");
        assert_eq!(history[0].moves, MOVES);
        let log = logged(store);
        assert_eq!(log.len(), 1, "logged once");
        assert_eq!(log[0].outcome.winner.as_deref(), Some("fox"));
        let unfinished = store.unfinished().unwrap();
        assert_eq!(
            unfinished.iter().map(|g| g.id).collect::<Vec<_>>(),
            [other],
            "the finished game is no longer in progress"
        );
    };
    check(&store);
    drop(store);
    let store = reopen(dir.path());
    check(&store);
}

#[test]
fn an_ending_still_waiting_at_shutdown_gets_a_last_try() {
    let dir = folder("shutdown");
    let store = Store::open(dir.path()).unwrap();
    // Two guests: their game cannot come back after a restart, so only
    // the stored ending keeps who won.
    let guests = [seat("guest1", "fox", None), seat("guest2", "hounds", None)];
    let (id, record) = begun(&store, &fox_game(guests, false));
    fill(dir.path());
    refused(&store, dir.path(), id, &record, false);
    // Still full: a flush keeps it waiting.
    store.flush().unwrap();
    assert_eq!(store.endings_waiting(), 1);
    empty(dir.path());
    // As at SIGTERM: the flush stores it, before any timer would.
    store.flush().unwrap();
    assert_eq!(store.endings_waiting(), 0);
    drop(store);

    let store = reopen(dir.path());
    assert_eq!(store.adjourn_all().unwrap(), 0);
    assert!(store.unfinished().unwrap().is_empty());
    let log = logged(&store);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].outcome.winner.as_deref(), Some("fox"));
    assert_eq!(log[0].outcome.how, "resigned");
    assert_eq!(log[0].seats[0].name, "guest1");
}

#[test]
fn an_ending_never_stored_leaves_its_game_in_progress_with_every_move() {
    let dir = folder("never");
    let store = Store::open(dir.path()).unwrap();
    let ann = account(&store, "Ann");
    let bob = account(&store, "Bob");
    let people = [
        seat("Ann", "fox", Some(PlayerRef::Account(ann))),
        seat("Bob", "hounds", Some(PlayerRef::Account(bob))),
    ];
    let (id, record) = begun(&store, &fox_game(people, true));
    fill(dir.path());
    refused(&store, dir.path(), id, &record, true);
    // The store closes with the ending not stored (as a killed server
    // leaves it): the game is as it was before it ended.
    drop(store);

    let store = reopen(dir.path());
    assert_eq!(store.adjourn_all().unwrap(), 1);
    let games = store.unfinished().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].id, id);
    assert_eq!(games[0].moves, MOVES);
    assert!(games[0].adjourned && games[0].rated);
    assert!(store.ratings(Some("fox")).unwrap().is_empty());
    assert!(logged(&store).is_empty());
    assert_eq!(store.endings_waiting(), 0);
}
