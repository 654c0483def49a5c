//! A finished game whose ending the database refuses (a full disk): the
//! store keeps it, stores it once the database takes changes again (after
//! the next change, or at shutdown), with its winner and ratings, and it
//! survives a restart; an ending never stored leaves its game in progress
//! with every move. The refusal is a trigger on the finished games, put in
//! and taken out by the test, that fails as a full disk does.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use tallyho::server::store::{GameId, NewGame, Store, StoreError};
use tallyho::shell::log::Record;

mod scratch;
mod server_common;
use server_common::store::{
    ann_against_bob, empty, fill, fresh_store, log_at, new_game, record_of, seat,
};

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

const MOVES: [&str; 2] = ["A8-B7", "B1-A2"];

/// A game begun with [`MOVES`] played, and its record as resigned by the
/// hounds.
fn begun(store: &Store, game: &NewGame) -> (GameId, Record) {
    let id = store.begin_game(game).unwrap();
    for (ply, mv) in (0..).zip(MOVES) {
        store.add_move(id, ply, mv).unwrap();
    }
    (id, record_of(game, Some("fox"), &MOVES))
}

/// Every record of the data folder's `history.jsonl`.
fn logged(store: &Store) -> Vec<Record> {
    log_at(&store.history_path()).0
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
    let (dir, store) = fresh_store("next-change");
    let (ann, _, game) = ann_against_bob(&store, true);
    let (id, record) = begun(&store, &game);
    let (other, _) = begun(&store, &game);

    fill(dir.path(), "finished");
    refused(&store, dir.path(), id, &record, true);
    // Nothing moved yet: the game is in progress in the database.
    assert!(store.ratings(Some("fox")).unwrap().is_empty());
    assert!(store.history(ann, 10).unwrap().is_empty());
    assert_eq!(store.unfinished().unwrap().len(), 2);

    // Room again: the next change stored brings the ending in.
    empty(dir.path(), "finished");
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
    let (dir, store) = fresh_store("shutdown");
    // Two guests: their game cannot come back after a restart, so only
    // the stored ending keeps who won.
    let guests = [seat("guest1", "fox", None), seat("guest2", "hounds", None)];
    let (id, record) = begun(&store, &new_game("fox", guests, false));
    fill(dir.path(), "finished");
    refused(&store, dir.path(), id, &record, false);
    // Still full: a flush keeps it waiting.
    store.flush().unwrap();
    assert_eq!(store.endings_waiting(), 1);
    empty(dir.path(), "finished");
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
    let (dir, store) = fresh_store("never");
    let (_, _, game) = ann_against_bob(&store, true);
    let (id, record) = begun(&store, &game);
    fill(dir.path(), "finished");
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
