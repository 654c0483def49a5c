//! The game log: records round-trip, numbers never repeat, damaged lines are
//! skipped, and appenders in many threads and processes never lose a record.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use tallyho::games::fox::{Game, Rules, Setup};
use tallyho::history::{Log, Player, Reading, Record, format_utc, table, utc_now};

/// A fresh path under the system temp folder, unique to this process and call.
fn temp_path(what: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "tallyho-history-test-{}-{n}-{what}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    dir.join("history.jsonl")
}

/// Removes a test's folder.
fn clean(path: &std::path::Path) {
    let _ = fs::remove_dir_all(path.parent().expect("a test path has a folder"));
}

/// A finished game: the first legal move every ply, until the game ends.
fn finished_game() -> Game {
    let setup = Setup::default();
    let mut game = Game::new(setup.default_start(), Rules::Coursework);
    while game.ending().is_none() {
        let mv = game.position().legal_moves()[0];
        assert!(game.play(mv));
    }
    game
}

fn record() -> Record {
    Record::from_game(
        "default",
        &finished_game(),
        Player::human("Alice"),
        Player::computer("", "cunning"),
        Some(42),
        "2026-11-23T02:11:11Z".to_string(),
    )
    .expect("the game has ended")
}

#[test]
fn record_from_a_finished_game() {
    let game = finished_game();
    let r = record();
    assert_eq!(r.number, 0);
    assert_eq!(r.flow, "default");
    assert_eq!(r.board, "8x8");
    assert_eq!(r.rules, "coursework");
    assert_eq!(r.start, "A8/B1,D1,F1,H1/fox");
    assert_eq!(r.plies as usize, game.moves().len());
    assert_eq!(r.moves.len(), game.moves().len());
    assert_eq!(r.moves[0], game.moves()[0].to_string());
    assert!(r.moves.iter().all(|m| m.len() == 5 && &m[2..3] == "-"));
    let ending = game.ending().unwrap();
    assert_eq!(r.ending, ending.name());
    assert_eq!(r.winner, ending.winner().name());
    assert_eq!(r.seed, Some(42));
}

#[test]
fn an_unfinished_game_has_no_record() {
    let game = Game::new(Setup::default().default_start(), Rules::Coursework);
    let none = Record::from_game(
        "classic",
        &game,
        Player::human("a"),
        Player::human("b"),
        None,
        utc_now(),
    );
    assert_eq!(none, None);
}

#[test]
fn round_trip_and_numbering() {
    let path = temp_path("round-trip");
    let log = Log::new(path.clone());
    assert_eq!(log.path(), path);
    for expected in 1..=3 {
        assert_eq!(log.append(&record()).unwrap(), expected);
    }
    let reading = log.read().unwrap();
    assert_eq!(reading.skipped, 0);
    let numbers: Vec<u64> = reading.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 2, 3]);
    for r in &reading.records {
        assert_eq!(
            *r,
            Record {
                number: r.number,
                ..record()
            }
        );
    }
    // One JSON object per line, each ending in a newline.
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.ends_with("}\n"));
    assert!(text.starts_with("{\"number\":1,\"date\":\"2026-11-23T02:11:11Z\""));
    clean(&path);
}

#[test]
fn a_corrupt_line_is_skipped_and_its_number_never_reused() {
    let path = temp_path("corrupt");
    let log = Log::new(path.clone());
    log.append(&record()).unwrap();
    log.append(&record()).unwrap();
    // Damage record 2 so that its number can no longer be read.
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "{\"number\":2,\"date\": this is not json";
    fs::write(&path, lines.join("\n") + "\n").unwrap();

    assert_eq!(log.append(&record()).unwrap(), 3);
    let reading = log.read().unwrap();
    assert_eq!(reading.skipped, 1);
    let numbers: Vec<u64> = reading.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 3]);
    clean(&path);
}

#[test]
fn a_truncated_last_line_gets_a_fresh_line_after_it() {
    let path = temp_path("truncated");
    let log = Log::new(path.clone());
    log.append(&record()).unwrap();
    // A writer cut off mid-record: half a line, no newline.
    let whole = serde_json::to_string(&record()).unwrap();
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut file, &whole.as_bytes()[..whole.len() / 2]).unwrap();
    drop(file);

    assert_eq!(log.read().unwrap().skipped, 1);
    assert_eq!(log.append(&record()).unwrap(), 3);
    let reading = log.read().unwrap();
    assert_eq!(reading.skipped, 1);
    let numbers: Vec<u64> = reading.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 3]);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
    clean(&path);
}

#[test]
fn a_missing_file_reads_as_empty() {
    let path = temp_path("missing");
    let reading = Log::new(path.clone()).read().unwrap();
    assert_eq!(reading, Reading::default());
    assert!(!path.exists(), "reading creates nothing");
}

#[test]
fn an_unwritable_path_is_an_error() {
    let path = temp_path("unwritable");
    let folder = path.parent().unwrap();
    fs::create_dir_all(folder).unwrap();
    let blocker = folder.join("a-file");
    fs::write(&blocker, "not a folder").unwrap();
    let log = Log::new(blocker.join("history.jsonl"));
    assert!(log.append(&record()).is_err());
    assert!(log.read().is_err());
    // The log is a folder: it can be neither appended to nor read.
    let log = Log::new(folder.to_path_buf());
    assert!(log.append(&record()).is_err());
    clean(&path);
}

#[test]
fn default_path_is_named_history_jsonl() {
    // Only the name is checked: the real home directory is never touched.
    if let Some(path) = Log::default_path() {
        assert_eq!(path.file_name().unwrap(), "history.jsonl");
        assert!(path.to_string_lossy().contains("tallyho"));
    }
}

/// Checks a log holds exactly records 1..=n, every one well formed.
fn assert_complete(path: &std::path::Path, n: u64) {
    let reading = Log::new(path.to_path_buf()).read().unwrap();
    assert_eq!(reading.skipped, 0);
    assert_eq!(reading.records.len() as u64, n);
    let numbers: BTreeSet<u64> = reading.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, (1..=n).collect());
    assert_eq!(fs::read_to_string(path).unwrap().lines().count() as u64, n);
}

#[test]
fn threads_appending_at_once_lose_nothing() {
    let path = temp_path("threads");
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let log = Log::new(path.clone());
            std::thread::spawn(move || {
                (0..50)
                    .map(|_| log.append(&record()).unwrap())
                    .collect::<Vec<u64>>()
            })
        })
        .collect();
    let mut returned = BTreeSet::new();
    for handle in handles {
        for n in handle.join().unwrap() {
            assert!(returned.insert(n), "number {n} given twice");
        }
    }
    assert_eq!(returned, (1..=400).collect());
    assert_complete(&path, 400);
    clean(&path);
}

/// Set in a child process: the log it appends to.
const CHILD_LOG: &str = "TALLYHO_HISTORY_TEST_CHILD_LOG";

/// The child's half of the process test; does nothing in a normal run.
#[test]
fn child_appender() {
    if let Some(path) = std::env::var_os(CHILD_LOG) {
        let log = Log::new(PathBuf::from(path));
        for _ in 0..25 {
            log.append(&record()).unwrap();
        }
    }
}

#[test]
fn processes_appending_at_once_lose_nothing() {
    let path = temp_path("processes");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..6)
        .map(|_| {
            Command::new(&exe)
                .args(["--exact", "child_appender", "--test-threads=1", "--quiet"])
                .env(CHILD_LOG, &path)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_complete(&path, 150);
    clean(&path);
}

#[test]
fn table_aligns_names_of_any_width() {
    let row = |number, fox: Player, hounds: Player, winner: &str, plies| Record {
        number,
        plies,
        fox,
        hounds,
        winner: winner.to_string(),
        date: "2026-11-23T02:11:11Z".to_string(),
        ..record()
    };
    let records = [
        row(
            1,
            Player::human("Al"),
            Player::human("Bernadette"),
            "fox",
            7,
        ),
        row(
            2,
            Player::human("Bernadette"),
            Player::human("Al"),
            "hounds",
            31,
        ),
        row(
            10,
            Player::computer("", "cunning"),
            Player::computer("Rex", "easy"),
            "hounds",
            112,
        ),
    ];
    let expected = "\
No.  Date              Fox                 Hounds      Winner      Plies
  1  2026-11-23 02:11  Al                  Bernadette  Al              7
  2  2026-11-23 02:11  Bernadette          Al          Al             31
 10  2026-11-23 02:11  Computer (cunning)  Rex (easy)  Rex (easy)    112";
    assert_eq!(table(&records), expected);
}

#[test]
fn an_empty_table_says_so() {
    assert_eq!(table(&[]), "No games yet.");
}

#[test]
fn dates_are_iso_8601_utc() {
    assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
    assert_eq!(format_utc(-1), "1969-12-31T23:59:59Z");
    assert_eq!(format_utc(951_868_799), "2000-02-29T23:59:59Z");
    assert_eq!(format_utc(951_868_800), "2000-03-01T00:00:00Z");
    assert_eq!(format_utc(1_795_399_871), "2026-11-23T02:11:11Z");

    let now = utc_now();
    let b = now.as_bytes();
    assert_eq!(b.len(), 20, "{now}");
    for (i, &c) in b.iter().enumerate() {
        match i {
            4 | 7 => assert_eq!(c, b'-', "{now}"),
            10 => assert_eq!(c, b'T', "{now}"),
            13 | 16 => assert_eq!(c, b':', "{now}"),
            19 => assert_eq!(c, b'Z', "{now}"),
            _ => assert!(c.is_ascii_digit(), "{now}"),
        }
    }
}
