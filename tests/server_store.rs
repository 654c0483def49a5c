//! The server's store: accounts and handles, moves that survive a killed
//! server, games in progress that come back adjourned, finished games in
//! `history.jsonl` as `tallyho history` reads them, ratings that move the
//! right way for the right players, and files that are not our store
//! refused with a message.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use tallyho::games::fox::Setup;
use tallyho::games::{Game, Rules};
use tallyho::server::store::{
    AccountId, GameId, HandleTaken, NewGame, PlayerRef, Rating, Store, StoreError,
};
use tallyho::shell::log::{Record, Seat};

mod scratch;
mod server_common;
use scratch::KillOnDrop;
use server_common::store::{
    account, ann_against_bob, database, folder, fresh_store, log_at, new_game, person, record_of,
    seat,
};

fn computer(level: &str) -> Option<PlayerRef> {
    Some(PlayerRef::Computer {
        level: level.to_string(),
    })
}

/// Begins a game and finishes it at once with this winner side.
fn play(store: &Store, game: &NewGame, winner: Option<&str>) -> tallyho::server::store::Finished {
    let id = store.begin_game(game).unwrap();
    store
        .finish_game(id, &record_of(game, winner, &[]), game.rated)
        .unwrap()
}

/// Every record of a log, which has no damaged lines.
fn logged(path: &Path) -> Vec<Record> {
    let (all, damaged) = log_at(path);
    assert_eq!(damaged, 0, "no damaged lines in {}", path.display());
    all
}

#[test]
fn accounts_are_found_by_key_and_handles_are_taken_in_any_case() {
    let (dir, store) = fresh_store("accounts");
    assert_eq!(store.account_for_key("SHA256:ann").unwrap(), None);
    assert!(store.handle_free("Ann").unwrap());

    let ann = store.create_account("SHA256:ann", "Ann").unwrap().unwrap();
    assert_eq!(ann.handle, "Ann");
    assert_eq!(
        store.account_for_key("SHA256:ann").unwrap(),
        Some(ann.clone())
    );
    for taken in ["Ann", "ann", "ANN", "aNn"] {
        assert!(!store.handle_free(taken).unwrap(), "{taken} is taken");
    }
    assert!(store.handle_free("Anna").unwrap());
    assert_eq!(
        store.create_account("SHA256:other", "aNN").unwrap(),
        Err(HandleTaken)
    );
    assert_eq!(store.account_for_key("SHA256:other").unwrap(), None);

    let again = store.create_account("SHA256:ann", "Bob").unwrap_err();
    assert!(matches!(again, StoreError::KeyHasAccount(_)));
    assert_eq!(
        again.to_string(),
        "this key already belongs to the account Ann"
    );
    assert!(
        store.handle_free("Bob").unwrap(),
        "a refused account takes no handle"
    );

    let bob = store.create_account("SHA256:bob", "Bob").unwrap().unwrap();
    assert_ne!(bob.id, ann.id);
    drop(store);

    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.account_for_key("SHA256:ann").unwrap(), Some(ann));
    assert_eq!(store.account_for_key("SHA256:bob").unwrap(), Some(bob));
    assert!(!store.handle_free("BOB").unwrap());
}

#[test]
fn the_data_folder_is_made_private_and_holds_the_database_and_the_log() {
    let dir = folder("folder");
    let inner = dir.path().join("serve");
    let store = Store::open(&inner).unwrap();
    let mode = fs::metadata(&inner).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let db = fs::metadata(inner.join("server.db"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(db, 0o600);
    assert_eq!(store.history_path(), inner.join("history.jsonl"));
}

#[test]
fn moves_are_kept_in_order_and_survive_closing_without_a_flush() {
    let (dir, store) = fresh_store("moves");
    let ann = account(&store, "Ann");
    let game = new_game(
        "fox",
        [
            seat("Ann", "fox", person(ann)),
            seat("guest1", "hounds", None),
        ],
        false,
    );
    let id = store.begin_game(&game).unwrap();
    for (ply, mv) in (0..).zip(["A8-B7", "H1-G2", "B7-A8"]) {
        store.add_move(id, ply, mv).unwrap();
    }
    let gap = store.add_move(id, 5, "G2-F3").unwrap_err();
    assert_eq!(
        gap.to_string(),
        format!("game {id} has 3 moves stored, so its next move is ply 3, not 5")
    );
    assert!(matches!(
        store.add_move(id, 1, "H1-G2"),
        Err(StoreError::Ply { .. })
    ));
    store.take_back(id, 1).unwrap();
    let too_many = store.take_back(id, 3).unwrap_err();
    assert_eq!(
        too_many.to_string(),
        format!("game {id} has 2 moves stored, so 3 cannot be taken back")
    );
    store.add_move(id, 2, "G2-F3").unwrap();
    let nowhere = store.add_move(GameId(999), 0, "A8-B7").unwrap_err();
    assert_eq!(nowhere.to_string(), "there is no game 999 in progress");
    drop(store);

    let store = Store::open(dir.path()).unwrap();
    let games = store.unfinished().unwrap();
    assert_eq!(games.len(), 1);
    let kept = &games[0];
    assert_eq!(kept.id, id);
    assert_eq!(kept.moves, ["A8-B7", "H1-G2", "G2-F3"]);
    assert_eq!(kept.seats, game.seats);
    assert_eq!(kept.setup, game.setup);
    assert_eq!(kept.start, game.start);
    assert!(!kept.adjourned);
}

#[test]
fn games_in_progress_come_back_oldest_first_and_adjourned() {
    let (dir, store) = fresh_store("unfinished");
    let (_, _, first) = ann_against_bob(&store, true);
    let second = new_game(
        "draughts",
        [
            seat("Computer", "black", computer("cunning")),
            seat("guest7", "white", None),
        ],
        false,
    );
    let one = store.begin_game(&first).unwrap();
    let two = store.begin_game(&second).unwrap();
    store.add_move(two, 0, "11-15").unwrap();
    store.set_adjourned(one, true).unwrap();
    assert_eq!(store.adjourn_all().unwrap(), 1, "one game was being played");
    drop(store);

    let store = Store::open(dir.path()).unwrap();
    assert_eq!(
        store.adjourn_all().unwrap(),
        0,
        "both were adjourned already"
    );
    let games = store.unfinished().unwrap();
    let ids: Vec<GameId> = games.iter().map(|g| g.id).collect();
    assert_eq!(ids, [one, two]);
    assert!(games.iter().all(|g| g.adjourned));
    assert_eq!(games[0].seats, first.seats);
    assert!(games[0].rated);
    assert_eq!(games[1].seats, second.seats);
    assert_eq!(games[1].game, "draughts");
    assert_eq!(games[1].moves, ["11-15"]);
    assert!(!games[1].rated);

    store.set_adjourned(two, false).unwrap();
    let games = store.unfinished().unwrap();
    assert!(games[0].adjourned && !games[1].adjourned);
}

/// The child of the kill test: keeps moves, says so, and waits to be killed.
fn killed_child(dir: &Path) {
    let store = Store::open(dir).unwrap();
    let (_, _, rated) = ann_against_bob(&store, true);
    play(&store, &rated, Some("fox"));
    let game = new_game(
        "fox",
        [seat("guest1", "fox", None), seat("guest2", "hounds", None)],
        false,
    );
    let id = store.begin_game(&game).unwrap();
    for (ply, mv) in (0..).zip(["A8-B7", "H1-G2", "B7-A8", "G2-F3"]) {
        store.add_move(id, ply, mv).unwrap();
    }
    println!("kept {id}");
    // Bounded, should the parent never kill.
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn moves_finished_games_and_ratings_survive_a_killed_server() {
    const CHILD: &str = "TALLYHO_STORE_KILLED_CHILD";
    if let Some(dir) = std::env::var_os(CHILD) {
        killed_child(Path::new(&dir));
        return;
    }
    let dir = folder("killed");
    let mut child = KillOnDrop(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "moves_finished_games_and_ratings_survive_a_killed_server",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut id = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        // The harness may print the test's name on the same line first.
        let line = line.unwrap();
        if let Some((_, n)) = line.split_once("kept ") {
            id = Some(GameId(n.trim().parse().unwrap()));
            break;
        }
    }
    // SIGKILL: no destructor, no checkpoint, no clean close.
    child.kill().unwrap();
    child.wait().unwrap();
    let id = id.expect("the child kept its moves");

    let store = Store::open(dir.path()).unwrap();
    let ann = store.account_for_key("SHA256:key-of-Ann").unwrap().unwrap();
    let rating = store.rating(&PlayerRef::Account(ann.id), "fox").unwrap();
    assert!(rating.rating > 1500.0 && rating.games == 1, "{rating:?}");
    assert_eq!(store.history(ann.id, 10).unwrap().len(), 1);
    assert_eq!(logged(&store.history_path()).len(), 1);
    assert_eq!(store.adjourn_all().unwrap(), 1);
    let games = store.unfinished().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].id, id);
    assert_eq!(games[0].moves, ["A8-B7", "H1-G2", "B7-A8", "G2-F3"]);
    assert!(games[0].adjourned);
}

#[test]
fn moves_from_many_threads_are_all_kept() {
    let (_dir, store) = fresh_store("threads");
    let games: Vec<GameId> = (0..8)
        .map(|_| {
            let game = new_game(
                "fox",
                [seat("a", "fox", None), seat("b", "hounds", None)],
                false,
            );
            store.begin_game(&game).unwrap()
        })
        .collect();
    std::thread::scope(|scope| {
        for &id in &games {
            let store = store.clone();
            scope.spawn(move || {
                for ply in 0..40 {
                    store.add_move(id, ply, &format!("m{ply}")).unwrap();
                }
                // Refused moves in the middle undo only themselves.
                assert!(store.add_move(id, 99, "x").is_err());
            });
        }
    });
    let kept = store.unfinished().unwrap();
    assert_eq!(kept.len(), 8);
    for game in kept {
        let expected: Vec<String> = (0..40).map(|ply| format!("m{ply}")).collect();
        assert_eq!(game.moves, expected, "game {}", game.id);
    }
}

/// A real game of Fox and Hounds, to the end, for `tallyho history`.
fn fox_game() -> (NewGame, Record) {
    let setup = Setup::default();
    let mut game = Game::new(Rules::start(&setup));
    while game.outcome(&setup).is_none() {
        let mv = setup.legal_moves(game.position())[0];
        game.play(&setup, mv).unwrap();
    }
    let outcome = game.outcome(&setup).unwrap();
    let seats = vec![
        Seat {
            name: "Ann".to_string(),
            side: "fox".to_string(),
            level: None,
        },
        Seat {
            name: "Bob".to_string(),
            side: "hounds".to_string(),
            level: None,
        },
    ];
    let record = Record::of_game(&setup, "default", seats, &game, outcome, None);
    let new = NewGame {
        game: record.game.clone(),
        flow: record.flow.clone(),
        setup: record.setup.clone().into_iter().collect(),
        start: record.start.clone(),
        seats: [seat("Ann", "fox", None), seat("Bob", "hounds", None)],
        rated: false,
    };
    (new, record)
}

#[test]
fn finished_games_go_to_the_database_and_to_history_jsonl() {
    let (_dir, store) = fresh_store("finished");
    let ann = account(&store, "Ann");
    let (mut new, record) = fox_game();
    new.seats[0].player = person(ann);
    let id = store.begin_game(&new).unwrap();
    for (ply, mv) in (0..).zip(&record.moves) {
        store.add_move(id, ply, mv).unwrap();
    }
    let finished = store.finish_game(id, &record, false).unwrap();
    assert_eq!(finished.number, Some(1));
    assert_eq!(finished.log_error, None);
    assert!(finished.ratings.is_empty(), "an unrated game");
    assert!(store.unfinished().unwrap().is_empty());
    assert!(matches!(
        store.add_move(id, 0, "A8-B7"),
        Err(StoreError::AlreadyFinished(_))
    ));
    let again = store.finish_game(id, &record, false).unwrap_err();
    assert_eq!(again.to_string(), format!("game {id} has already finished"));

    let second = new_game(
        "fox",
        [
            seat("guest1", "fox", None),
            seat("Ann", "hounds", person(ann)),
        ],
        false,
    );
    assert_eq!(play(&store, &second, Some("hounds")).number, Some(2));

    let log = logged(&store.history_path());
    assert_eq!(log.len(), 2);
    let mode = fs::metadata(store.history_path())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600, "history.jsonl is the owner's alone");
    assert_eq!(
        log[0],
        Record {
            number: 1,
            ..record.clone()
        }
    );
    assert_eq!(log[1].number, 2);
    assert_eq!(log[1].seats[1].name, "Ann");

    let history = store.history(ann, 10).unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0], log[0], "oldest first, newest last");
    assert_eq!(history[1], log[1]);
    assert_eq!(store.history(ann, 1).unwrap(), [log[1].clone()]);

    // The local game log's own commands read the server's games.
    let output = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .arg("history")
        .arg("--history")
        .arg(store.history_path())
        .output()
        .unwrap();
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{table}");
    assert!(table.contains("Ann (fox)"), "{table}");
    assert!(table.contains("Bob (hounds)"), "{table}");
    assert!(table.contains("guest1 (fox)"), "{table}");
}

#[test]
fn a_game_the_log_could_not_take_goes_there_on_the_next_start_once() {
    let (dir, store) = fresh_store("relog");
    // A folder where the log should be: the log cannot take the game.
    fs::create_dir(store.history_path()).unwrap();
    let game = new_game(
        "fox",
        [seat("guest1", "fox", None), seat("guest2", "hounds", None)],
        false,
    );
    let finished = play(&store, &game, Some("fox"));
    assert_eq!(finished.number, None);
    let said = finished.log_error.unwrap();
    assert!(said.contains("is not a regular file"), "{said}");
    drop(store);

    fs::remove_dir(dir.path().join("history.jsonl")).unwrap();
    let store = Store::open(dir.path()).unwrap();
    let log = logged(&store.history_path());
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].seats[0].name, "guest1");
    drop(store);

    // Appended but its number not noted (the server stopped between the
    // two): the next start finds it in the log and appends nothing.
    let conn = database(dir.path());
    conn.execute("UPDATE finished SET log_number = NULL", [])
        .unwrap();
    drop(conn);
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(logged(&store.history_path()).len(), 1);
    let game = new_game(
        "fox",
        [seat("guest3", "fox", None), seat("guest4", "hounds", None)],
        false,
    );
    assert_eq!(play(&store, &game, None).number, Some(2));
}

#[test]
fn a_log_another_program_holds_takes_the_game_when_the_next_one_ends() {
    let (dir, store) = fresh_store("held");
    let guests = |a: &str, b: &str| {
        new_game(
            "fox",
            [seat(a, "fox", None), seat(b, "hounds", None)],
            false,
        )
    };
    // Another program holds the log's lock (flock, as tallyho takes it):
    // the game's end does not wait for it, but says so.
    let holder = fs::File::create(store.history_path()).unwrap();
    holder.lock().unwrap();
    let finished = play(&store, &guests("guest1", "guest2"), Some("fox"));
    assert_eq!(finished.number, None);
    let said = finished.log_error.unwrap();
    assert!(said.ends_with(" for 250 milliseconds"), "{said}");
    // While it is known to be held, the next end does not wait at all.
    let finished = play(&store, &guests("guest3", "guest4"), Some("fox"));
    let said = finished.log_error.unwrap();
    assert!(
        said.contains("another program holds the lock on "),
        "{said}"
    );
    assert!(logged(&store.history_path()).is_empty());
    // Let go: the next game's end takes all three, in the order they ended.
    holder.unlock().unwrap();
    let finished = play(&store, &guests("guest5", "guest6"), Some("hounds"));
    assert_eq!(finished.number, Some(3));
    let names =
        |log: Vec<Record>| -> Vec<String> { log.iter().map(|r| r.seats[0].name.clone()).collect() };
    assert_eq!(
        names(logged(&store.history_path())),
        ["guest1", "guest3", "guest5"]
    );
    // Held again, and the server starts afresh with a game waiting: it
    // opens without waiting for the log, and the game goes in, first,
    // when the next one ends.
    holder.lock().unwrap();
    play(&store, &guests("guest7", "guest8"), None);
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    holder.unlock().unwrap();
    play(&store, &guests("guest9", "guest10"), None);
    assert_eq!(
        names(logged(&store.history_path())),
        ["guest1", "guest3", "guest5", "guest7", "guest9"]
    );
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_rated_win_moves_the_winner_up_and_the_loser_down_in_that_game_only() {
    let (dir, store) = fresh_store("win");
    let (ann, _, game) = ann_against_bob(&store, true);
    let start = Rating::default();
    assert_eq!(
        (start.rating, start.deviation, start.volatility, start.games),
        (1500.0, 350.0, 0.06, 0)
    );
    let finished = play(&store, &game, Some("fox"));
    let [(a_name, a_before, a_after), (b_name, b_before, b_after)] =
        <[_; 2]>::try_from(finished.ratings).unwrap();
    assert_eq!((a_name.as_str(), b_name.as_str()), ("Ann", "Bob"));
    assert_eq!((a_before, b_before), (start, start));
    assert!(a_after.rating > 1500.0 && b_after.rating < 1500.0);
    assert!(
        close(a_after.rating - 1500.0, 1500.0 - b_after.rating),
        "symmetric"
    );
    assert!(a_after.deviation < 350.0 && b_after.deviation < 350.0);
    assert_eq!((a_after.games, b_after.games), (1, 1));

    let ann_fox = store.rating(&PlayerRef::Account(ann), "fox").unwrap();
    assert_eq!(ann_fox, a_after);
    assert_eq!(
        store.rating(&PlayerRef::Account(ann), "draughts").unwrap(),
        start
    );

    let board = store.ratings(Some("fox")).unwrap();
    let names: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bob"], "best first");
    assert!(board.iter().all(|r| !r.computer && r.game == "fox"));
    assert!(store.ratings(Some("draughts")).unwrap().is_empty());

    // Seat 1 winning: the ratings move the other way, and survive a restart.
    play(&store, &game, Some("hounds"));
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    let ann_now = store.rating(&PlayerRef::Account(ann), "fox").unwrap();
    assert!(ann_now.rating < a_after.rating);
    assert_eq!(ann_now.games, 2);
}

#[test]
fn a_draw_moves_the_weaker_player_up_and_equals_only_in_certainty() {
    let (_dir, store) = fresh_store("draw");
    let ann = account(&store, "Ann");
    let bob = account(&store, "Bob");
    let cat = account(&store, "Cat");
    let game = |a: AccountId, b: AccountId| {
        new_game(
            "draughts",
            [seat("x", "black", person(a)), seat("y", "white", person(b))],
            true,
        )
    };
    let even = play(&store, &game(ann, bob), None);
    for (_, before, after) in &even.ratings {
        assert!(close(after.rating, before.rating), "{after:?}");
        assert!(after.deviation < before.deviation);
    }
    // Ann beats Cat, then Cat draws with Ann: Cat gains, Ann loses.
    play(&store, &game(ann, cat), Some("black"));
    let draw = play(&store, &game(cat, ann), None);
    let [
        (cat_name, cat_before, cat_after),
        (ann_name, ann_before, ann_after),
    ] = <[_; 2]>::try_from(draw.ratings).unwrap();
    assert_eq!((cat_name.as_str(), ann_name.as_str()), ("Cat", "Ann"));
    assert!(ann_before.rating > cat_before.rating);
    assert!(cat_after.rating > cat_before.rating);
    assert!(ann_after.rating < ann_before.rating);
}

#[test]
fn a_computer_level_is_a_rated_player_of_its_own_game() {
    let (_dir, store) = fresh_store("computer");
    let ann = account(&store, "Ann");
    let cunning = PlayerRef::Computer {
        level: "cunning".to_string(),
    };
    let game = new_game(
        "draughts",
        [
            seat("Computer", "black", computer("cunning")),
            seat("Ann", "white", person(ann)),
        ],
        true,
    );
    let finished = play(&store, &game, Some("white"));
    assert_eq!(finished.ratings[0].0, "cunning");
    let level = store.rating(&cunning, "draughts").unwrap();
    assert!(level.rating < 1500.0);
    assert_eq!(level.games, 1);
    assert!(
        store
            .rating(&PlayerRef::Account(ann), "draughts")
            .unwrap()
            .rating
            > 1500.0
    );
    assert_eq!(store.rating(&cunning, "fish").unwrap(), Rating::default());

    let board = store.ratings(None).unwrap();
    let rows: Vec<(&str, bool, &str)> = board
        .iter()
        .map(|r| (r.name.as_str(), r.computer, r.game.as_str()))
        .collect();
    assert_eq!(
        rows,
        [("Ann", false, "draughts"), ("cunning", true, "draughts")]
    );

    // Two computers, or a player against themself, move nothing.
    let machines = new_game(
        "draughts",
        [
            seat("C1", "black", computer("cunning")),
            seat("C2", "white", computer("rubbish")),
        ],
        true,
    );
    assert!(play(&store, &machines, Some("black")).ratings.is_empty());
    let alone = new_game(
        "draughts",
        [
            seat("Ann", "black", person(ann)),
            seat("Ann", "white", person(ann)),
        ],
        true,
    );
    assert!(play(&store, &alone, Some("black")).ratings.is_empty());
    assert_eq!(store.rating(&cunning, "draughts").unwrap(), level);
}

#[test]
fn guests_and_unrated_games_leave_ratings_alone() {
    let (_dir, store) = fresh_store("unrated");
    let (ann, _, unrated) = ann_against_bob(&store, false);
    let with_guest = new_game(
        "fox",
        [
            seat("Ann", "fox", person(ann)),
            seat("guest1", "hounds", None),
        ],
        true,
    );
    assert!(play(&store, &with_guest, Some("fox")).ratings.is_empty());
    assert!(play(&store, &unrated, Some("fox")).ratings.is_empty());
    // Offered as rated, finished as unrated (the caller's word counts).
    let id = store
        .begin_game(&NewGame {
            rated: true,
            ..unrated.clone()
        })
        .unwrap();
    let finished = store
        .finish_game(id, &record_of(&unrated, Some("fox"), &[]), false)
        .unwrap();
    assert!(finished.ratings.is_empty());
    assert_eq!(
        store.rating(&PlayerRef::Account(ann), "fox").unwrap(),
        Rating::default()
    );
    assert!(store.ratings(None).unwrap().is_empty());
    assert_eq!(store.history(ann, 10).unwrap().len(), 3);
}

#[test]
fn a_rated_game_whose_winner_is_no_seat_stays_in_progress() {
    let (_dir, store) = fresh_store("winner");
    let (_, _, game) = ann_against_bob(&store, true);
    let id = store.begin_game(&game).unwrap();
    let refused = store
        .finish_game(id, &record_of(&game, Some("geese"), &[]), true)
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "game {id}'s winner geese is not the side of exactly one seat, so it cannot be rated; the game stays in progress"
        )
    );
    assert_eq!(store.unfinished().unwrap().len(), 1);
    assert!(!store.history_path().exists(), "nothing logged");
    assert!(store.ratings(None).unwrap().is_empty());
}

#[test]
fn a_seat_of_an_account_that_does_not_exist_is_refused() {
    let (_dir, store) = fresh_store("noaccount");
    let game = new_game(
        "fox",
        [
            seat("Who", "fox", person(AccountId(42))),
            seat("g", "hounds", None),
        ],
        true,
    );
    let refused = store.begin_game(&game).unwrap_err();
    assert_eq!(refused.to_string(), "there is no account 42");
    assert!(store.unfinished().unwrap().is_empty());
}

#[test]
fn a_damaged_database_is_refused_with_its_name() {
    let dir = folder("damaged");
    fs::create_dir_all(dir.path()).unwrap();
    let db = dir.path().join("server.db");
    fs::write(&db, "these are not the pages of a database\n".repeat(200)).unwrap();
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(
        matches!(refused, StoreError::NotADatabase(_)),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "{} is not a database tallyho can read (damaged, or not an SQLite file): move it aside to start an empty store, or restore it from a backup",
            db.display()
        )
    );
    assert_eq!(
        fs::read(&db).unwrap(),
        "these are not the pages of a database\n"
            .repeat(200)
            .as_bytes(),
        "the file is left as it was"
    );
}

#[test]
fn a_database_damaged_inside_is_found_on_open() {
    let (dir, store) = fresh_store("inside");
    for n in 0..300 {
        account(&store, &format!("player{n:04}"));
    }
    store.flush().unwrap();
    drop(store);
    let db = dir.path().join("server.db");
    let mut bytes = fs::read(&db).unwrap();
    assert!(bytes.len() > 8 * 4096, "several pages");
    // Scribble over every page but the first (the header and schema).
    for byte in bytes.iter_mut().skip(4096) {
        *byte = 0x5a;
    }
    fs::write(&db, &bytes).unwrap();
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(
        matches!(
            refused,
            StoreError::Damaged(..) | StoreError::NotADatabase(_)
        ),
        "{refused:?}"
    );
    assert!(refused.to_string().contains("server.db"), "{refused}");
}

#[test]
fn another_programs_database_and_a_newer_one_are_refused() {
    let dir = folder("foreign");
    fs::create_dir_all(dir.path()).unwrap();
    let conn = database(dir.path());
    conn.execute_batch("CREATE TABLE recipes (name TEXT)")
        .unwrap();
    drop(conn);
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(matches!(refused, StoreError::Foreign(_)), "{refused:?}");
    assert!(
        refused
            .to_string()
            .contains("another program's SQLite database")
    );

    let dir = folder("newer");
    drop(Store::open(dir.path()).unwrap());
    let conn = database(dir.path());
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(
        refused.to_string().contains(
            "was written by a newer tallyho (its schema is version 99; this one knows up to 2)"
        ),
        "{refused}"
    );
}

/// A store opened after `sql` ran on its database: an empty file, or one
/// a store made first when `made`.
fn opened_after(name: &str, made: bool, sql: &str) -> Result<Store, StoreError> {
    let dir = folder(name);
    fs::create_dir_all(dir.path()).expect("the folder is made");
    if made {
        drop(Store::open(dir.path()).expect("a store is made"));
    }
    let conn = database(dir.path());
    conn.execute_batch(sql)
        .expect("the database takes the change");
    drop(conn);
    Store::open(dir.path())
}

#[test]
fn a_database_marked_as_ours_by_hand_is_refused_in_a_sentence() {
    const MARK: &str = "PRAGMA application_id = 1414285391;";
    // Marked as a tallyho store of the first version, with no tables.
    let refused = opened_after("marked", false, &format!("{MARK} PRAGMA user_version = 1"))
        .err()
        .unwrap();
    assert!(matches!(refused, StoreError::Damaged(..)), "{refused:?}");
    assert!(
        refused.to_string().contains(
            "is damaged (it is marked as a tallyho server's store of schema version 1, but has no table accounts)"
        ),
        "{refused}"
    );
    // Marked, with no version, over a table of the same name as one of
    // ours; marked at a version tallyho never writes.
    for (name, sql, said) in [
        (
            "marked-clash",
            "CREATE TABLE accounts (x)",
            "schema version is 0, which tallyho never writes",
        ),
        (
            "marked-negative",
            "PRAGMA user_version = -1",
            "schema version is -1, which tallyho never writes",
        ),
    ] {
        let refused = opened_after(name, false, &format!("{MARK} {sql}"))
            .err()
            .unwrap();
        assert!(refused.to_string().contains(said), "{refused}");
    }
    // Every table there, each with a column of its own: the first missing
    // column is named, and no SQL is quoted.
    let refused = opened_after(
        "marked-columns",
        true,
        "DROP TABLE moves; CREATE TABLE moves (q TEXT)",
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        refused.contains(
            "is damaged (it is marked as a tallyho server's store of schema version 2, but its table moves has no column game)"
        ),
        "{refused}"
    );
    // Names in another case are the same names to SQLite.
    let renamed = "ALTER TABLE accounts RENAME COLUMN handle TO HANDLE; ALTER TABLE games RENAME TO g; ALTER TABLE g RENAME TO GAMES";
    assert!(opened_after("marked-case", true, renamed).is_ok());
}

#[test]
fn a_first_version_database_is_upgraded_and_keeps_unseen_endings_until_read() {
    let dir = folder("upgrade");
    let store = Store::open(dir.path()).unwrap();
    let (ann, _, game) = ann_against_bob(&store, true);
    let id = store.begin_game(&game).unwrap();
    drop(store);
    // As the first schema left it.
    let conn = database(dir.path());
    conn.execute_batch("DROP TABLE unseen; PRAGMA user_version = 1")
        .unwrap();
    drop(conn);

    let store = Store::open(dir.path()).unwrap();
    store.note_unseen(ann, id).unwrap();
    // Not stored yet as finished: it waits for its ending.
    assert!(store.take_unseen(ann).unwrap().is_empty());
    let record = record_of(&game, Some("fox"), &[]);
    store.finish_game(id, &record, game.rated).unwrap();
    let unseen = store.take_unseen(ann).unwrap();
    assert_eq!(unseen.len(), 1);
    assert_eq!(unseen[0].game, id);
    assert_eq!(unseen[0].record.outcome, record.outcome);
    assert_eq!(unseen[0].ratings.len(), 2, "{unseen:?}");
    assert!(store.take_unseen(ann).unwrap().is_empty(), "told once");
    drop(store);
    let version: i64 = database(dir.path())
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, 2);
}

/// A first-version file that already holds a table the upgrade makes
/// (made by hand, or by another program) is refused in a sentence, not
/// half upgraded.
#[test]
fn a_first_version_database_with_a_later_table_is_refused() {
    let refused = opened_after(
        "upgrade-clash",
        true,
        "DROP TABLE unseen; CREATE TABLE unseen (x); PRAGMA user_version = 1",
    )
    .err()
    .unwrap();
    let text = refused.to_string();
    assert!(
        text.contains(
            "it is marked as a tallyho server's store of schema version 1, but it already has a table unseen, which only a later version makes"
        ),
        "{text}"
    );
}

#[test]
fn one_server_at_a_time_uses_a_data_folder() {
    let (dir, store) = fresh_store("inuse");
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(matches!(refused, StoreError::InUse(_)), "{refused:?}");
    assert!(
        refused
            .to_string()
            .starts_with("another tallyho server is using the data folder")
    );
    let clone = store.clone();
    drop(store);
    assert!(Store::open(dir.path()).is_err(), "a clone keeps it open");
    drop(clone);
    assert!(Store::open(dir.path()).is_ok());
}

#[test]
fn a_file_where_the_folder_should_be_is_refused() {
    let dir = folder("file");
    fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("serve");
    fs::write(&file, "x").unwrap();
    let refused = Store::open(&file).err().unwrap();
    assert!(matches!(refused, StoreError::NotAFolder(_)), "{refused:?}");
}

#[test]
fn a_folder_or_database_behind_a_loop_of_links_is_said_to_be() {
    let dir = folder("link-loop");
    fs::create_dir_all(dir.path()).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    for data in [a.clone(), a.join("serve")] {
        let refused = Store::open(&data).err().unwrap();
        assert!(matches!(refused, StoreError::LinkLoop(_)), "{refused:?}");
        assert_eq!(
            refused.to_string(),
            format!(
                "{} leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so it cannot hold the server's data: name another --data folder",
                data.display()
            )
        );
    }
    // The database file itself a link to itself.
    let data = dir.path().join("serve");
    fs::create_dir_all(&data).unwrap();
    std::os::unix::fs::symlink("server.db", data.join("server.db")).unwrap();
    let refused = Store::open(&data).err().unwrap();
    assert!(matches!(refused, StoreError::LinkLoop(_)), "{refused:?}");
}

#[test]
fn a_folder_or_database_that_is_a_link_to_nothing_is_said_to_be() {
    let dir = folder("dangling");
    fs::create_dir_all(dir.path()).unwrap();
    let data = dir.path().join("serve");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &data).unwrap();
    let refused = Store::open(&data).err().unwrap();
    assert_eq!(
        refused.to_string(),
        format!(
            "{} is a symbolic link to nothing, so it cannot hold the server's data: make what it leads to, or name another --data folder",
            data.display()
        )
    );
    assert!(
        !dir.path().join("nowhere").exists(),
        "nothing made through it"
    );
    fs::remove_file(&data).unwrap();
    fs::create_dir_all(&data).unwrap();
    std::os::unix::fs::symlink("nothere", data.join("server.db")).unwrap();
    let refused = Store::open(&data).err().unwrap();
    assert!(matches!(refused, StoreError::Dangling(_)), "{refused:?}");
    assert!(!data.join("nothere").exists(), "nothing made through it");
    // The lock and SQLite's own files are made through no such link either.
    fs::remove_file(data.join("server.db")).unwrap();
    for name in [
        "server.lock",
        "server.db-wal",
        "server.db-shm",
        "server.db-journal",
        "history.jsonl",
    ] {
        let link = data.join(name);
        // The lock file, left by the refused start above, is replaced.
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink("nothere", &link).unwrap();
        let refused = Store::open(&data).err().unwrap();
        let says = if name.starts_with("server.db-") {
            // SQLite opens no link there, to something or not.
            "is a symbolic link, where SQLite keeps a file of its own beside the database: remove the link"
        } else {
            "is a symbolic link to nothing, so it cannot hold the server's data: make what it leads to, or name another --data folder"
        };
        assert_eq!(refused.to_string(), format!("{} {says}", link.display()));
        assert!(
            !data.join("nothere").exists(),
            "nothing made through {name}"
        );
        fs::remove_file(&link).unwrap();
    }
    // With none left, the store opens.
    assert!(Store::open(&data).is_ok());
}

/// A folder, a pipe or a loop of links where the store keeps a file is
/// called what it is, naming the file, before anything is written.
/// Asserts that a refused start made nothing in `data`: it holds only the
/// file `name` put there.
fn holds_only(data: &Path, name: &str) {
    let mut held: Vec<String> = fs::read_dir(data)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    held.sort();
    assert_eq!(held, [name], "a refused start leaves nothing made");
}

/// A database refused for what is in it leaves nothing made beside it
/// (no lock file), and a data folder made for it is taken away again.
#[test]
fn a_store_refused_for_its_database_leaves_nothing_made() {
    let dir = folder("refused-inside");
    let data = dir.path().join("serve");
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join("server.db"), vec![0x5a_u8; 5000]).unwrap();
    let refused = Store::open(&data).err().unwrap();
    assert!(
        matches!(refused, StoreError::NotADatabase(_)),
        "{refused:?}"
    );
    holds_only(&data, "server.db");
}

/// A database whose header says it is a newer tallyho's, or another
/// program's, is refused from its header alone: nothing in the folder is
/// written, made or taken away (SQLite, opening it to write, would have).
#[test]
fn a_database_refused_by_its_header_is_not_touched() {
    type Seen = Vec<(String, u64, std::time::SystemTime)>;
    let seen = |dir: &Path| -> Seen {
        let mut all: Seen = fs::read_dir(dir)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                let meta = entry.metadata().unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                (name, meta.len(), meta.modified().unwrap())
            })
            .collect();
        all.sort();
        all.push((
            ".".into(),
            0,
            fs::metadata(dir).unwrap().modified().unwrap(),
        ));
        all
    };
    for (name, sql) in [
        ("header-newer", "PRAGMA user_version = 99"),
        ("header-foreign", "PRAGMA application_id = 7"),
    ] {
        let dir = folder(name);
        drop(Store::open(dir.path()).unwrap());
        let conn = database(dir.path());
        conn.execute_batch(sql).unwrap();
        drop(conn);
        let before = seen(dir.path());
        // Any change would show in a time at least this much later.
        std::thread::sleep(Duration::from_millis(20));
        let refused = Store::open(dir.path()).err().unwrap();
        assert!(
            matches!(refused, StoreError::TooNew { .. } | StoreError::Foreign(_)),
            "{name}: {refused:?}"
        );
        assert_eq!(seen(dir.path()), before, "{name}: the folder as it was");
    }
}

/// A newer tallyho's header still in the write-ahead log, past the
/// header check, is refused by SQLite's read: closing, the store folds
/// nothing into the file, and the log stays as it was.
#[test]
fn a_newer_header_waiting_in_the_write_ahead_log_is_refused_and_left_there() {
    let dir = folder("header-in-wal");
    drop(Store::open(dir.path()).unwrap());
    let conn = database(dir.path());
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    )
    .unwrap();
    conn.execute_batch("PRAGMA wal_autocheckpoint = 0; PRAGMA user_version = 99;")
        .unwrap();
    drop(conn);
    let read = |name: &str| fs::read(dir.path().join(name)).unwrap();
    let (db, wal) = (read("server.db"), read("server.db-wal"));
    assert!(!wal.is_empty());
    let refused = Store::open(dir.path()).err().unwrap();
    assert!(
        matches!(refused, StoreError::TooNew { found: 99, .. }),
        "{refused:?}"
    );
    assert!(read("server.db") == db, "the file as it was");
    assert!(read("server.db-wal") == wal, "the log as it was");
}

#[test]
fn what_stands_where_the_store_keeps_a_file_is_called_what_it_is() {
    let dir = folder("not-files");
    let data = dir.path().join("serve");
    let files = [
        "server.db",
        "server.lock",
        "server.db-wal",
        "server.db-journal",
        "history.jsonl",
    ];
    for name in files {
        fs::create_dir_all(&data).unwrap();
        let path = data.join(name);
        fs::create_dir(&path).unwrap();
        let refused = Store::open(&data).err().unwrap();
        assert_eq!(
            refused.to_string(),
            format!(
                "{} is a folder, where the server keeps a file of its own: move it aside, or name another --data folder",
                path.display()
            )
        );
        holds_only(&data, name);
        fs::remove_dir_all(&data).unwrap();
    }
    for name in files {
        fs::create_dir_all(&data).unwrap();
        let path = data.join(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {name}");
        let refused = Store::open(&data).err().unwrap();
        assert!(
            refused.to_string().starts_with(&format!(
                "{} is a special file (a pipe, a socket or a device), where the server keeps a file",
                path.display()
            )),
            "{refused}"
        );
        holds_only(&data, name);
        fs::remove_dir_all(&data).unwrap();
        fs::create_dir_all(&data).unwrap();
        std::os::unix::fs::symlink(name, &path).unwrap();
        let refused = Store::open(&data).err().unwrap();
        holds_only(&data, name);
        if name.starts_with("server.db-") {
            assert!(
                matches!(refused, StoreError::SqliteLink(_)),
                "{name}: {refused:?}"
            );
        } else {
            assert!(
                matches!(refused, StoreError::LinkLoop(_)),
                "{name}: {refused:?}"
            );
        }
        fs::remove_dir_all(&data).unwrap();
    }
    // A database that is a link to a file elsewhere: SQLite's files are
    // made beside that file, and checked there.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::create_dir_all(&data).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("kept.db"), data.join("server.db")).unwrap();
    fs::write(elsewhere.join("kept.db"), "").unwrap();
    fs::create_dir(elsewhere.join("kept.db-wal")).unwrap();
    let refused = Store::open(&data).err().unwrap();
    assert!(
        refused.to_string().starts_with(&format!(
            "{} is a folder, where the server keeps a file of its own",
            fs::canonicalize(&elsewhere)
                .unwrap()
                .join("kept.db-wal")
                .display()
        )),
        "{refused}"
    );
    fs::remove_dir(elsewhere.join("kept.db-wal")).unwrap();
    assert!(
        Store::open(&data).is_ok(),
        "a database linked elsewhere opens"
    );
}

#[test]
fn the_store_is_shared_between_threads() {
    fn shared<T: Send + Sync + Clone>() {}
    shared::<Store>();
    fn sendable<T: Send + Sync>() {}
    sendable::<StoreError>();
}
