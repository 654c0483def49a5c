//! The game log: records round-trip, numbers never repeat, damaged lines are
//! skipped, only regular files are logs, a failed write leaves no torn line,
//! old logs stay readable, and appenders in many threads and processes never
//! lose a record.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use tallyho::games::fox::Setup;
use tallyho::games::{Game, Rules};
use tallyho::shell::date::{format_utc, utc_now};
use tallyho::shell::log::{Log, LogError, Record, Seat, Widths, parse_record, write_table};

mod scratch;
use scratch::{KillOnDrop, Scratch};

/// A fresh folder under the system temp folder, unique to this process and
/// call, and a log path in it. The folder is removed when the guard drops:
/// bind it (`let (_dir, path)`) for the whole test.
fn temp_path(what: &str) -> (Scratch, PathBuf) {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = Scratch::new(&format!("history-test-{n}-{what}"));
    let path = dir.join("history.jsonl");
    (dir, path)
}

/// A finished game: the first legal move every ply, until the game ends.
fn finished_game() -> (Setup, Game<Setup>) {
    let setup = Setup::default();
    let mut game = Game::new(Rules::start(&setup));
    while game.outcome(&setup).is_none() {
        let mv = setup.legal_moves(game.position())[0];
        game.play(&setup, mv).unwrap();
    }
    (setup, game)
}

fn seat(name: &str, side: &str, level: Option<&str>) -> Seat {
    Seat {
        name: name.to_string(),
        side: side.to_string(),
        level: level.map(String::from),
    }
}

fn record() -> Record {
    let (setup, game) = finished_game();
    let outcome = game.outcome(&setup).unwrap();
    let seats = vec![
        seat("Alice", "fox", None),
        seat("", "hounds", Some("cunning")),
    ];
    Record {
        date: "2026-11-23T02:11:11Z".to_string(),
        ..Record::of_game(&setup, "default", seats, &game, outcome, Some(42))
    }
}

fn no_wait() -> impl FnMut() {
    || {}
}

/// Every record of a log, and the damaged lines.
fn read(log: &Log) -> (Vec<Record>, usize) {
    let mut records = log.stream().unwrap();
    let mut all = Vec::new();
    while let Some(r) = records.next_record().unwrap() {
        all.push(r);
    }
    (all, records.damaged())
}

fn numbers(log: &Log) -> Vec<u64> {
    read(log).0.iter().map(|r| r.number).collect()
}

#[test]
fn record_from_a_finished_game() {
    let (setup, game) = finished_game();
    let outcome = game.outcome(&setup).unwrap();
    let r = record();
    assert_eq!((r.version, r.number), (2, 0));
    assert_eq!((r.game.as_str(), r.flow.as_str()), ("fox", "default"));
    assert_eq!(r.setup["board"], "8x8");
    assert_eq!(r.setup["rules"], "coursework");
    assert_eq!(r.start, "A8/B1,D1,F1,H1/fox");
    assert_eq!(r.plies as usize, game.moves().len());
    assert_eq!(r.moves[0], game.moves()[0].to_string());
    assert_eq!(r.outcome.winner, outcome.winner().map(|s| s.to_string()));
    assert_eq!(r.outcome.how, outcome.how());
    assert_eq!(
        r.winning_seat().unwrap().side,
        outcome.winner().unwrap().to_string()
    );
    assert_eq!(r.seed, Some(42));
}

#[test]
fn round_trip_and_numbering() {
    let (_dir, path) = temp_path("round-trip");
    let log = Log::new(path.clone());
    for expected in 1..=3 {
        assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), expected);
    }
    let (records, damaged) = read(&log);
    assert_eq!(damaged, 0);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(
            *r,
            Record {
                number: i as u64 + 1,
                ..record()
            }
        );
    }
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.starts_with("{\"version\":2,\"number\":1,\"date\":\"2026-11-23T02:11:11Z\""));
}

#[test]
fn a_record_too_long_to_read_back_is_refused_not_written() {
    let (_dir, path) = temp_path("too-long");
    let log = Log::new(path.clone());
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 1);
    // A tag of control characters carried from a loaded file: each is six
    // bytes in JSON, so 200,000 of them pass the 1 MiB a line may hold.
    let mut long = record();
    long.setup.insert("Event".into(), "\u{1}".repeat(200_000));
    let err = log.append(&long, &mut no_wait()).unwrap_err();
    assert!(
        matches!(err, LogError::TooLong(_, n) if n > 1 << 20),
        "{err}"
    );
    assert!(err.to_string().contains("so it is not kept"), "{err}");
    // Nothing was written: the next game takes the next number, and every
    // record reads back whole.
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 2);
    assert_eq!(numbers(&log), [1, 2]);
    assert_eq!(read(&log).1, 0);
}

#[test]
fn a_log_of_the_first_release_stays_readable() {
    let log = Log::new(PathBuf::from("tests/data/history-v1.jsonl"));
    let (records, damaged) = read(&log);
    assert_eq!(damaged, 0);
    assert_eq!(records.len(), 6);
    let first = &records[0];
    assert_eq!((first.version, first.number), (1, 1));
    assert_eq!(first.game, "fox");
    assert_eq!(first.seats[0], seat("SWTP", "fox", Some("rubbish")));
    assert_eq!(first.seats[1], seat("ALTAIR", "hounds", Some("rubbish")));
    assert_eq!(first.outcome.winner.as_deref(), Some("hounds"));
    assert_eq!(records[3].flow, "classic");
    assert_eq!(records[2].setup["board"], "6x6");
    // A log of the first release goes on numbering after its last game.
    let (_dir, path) = temp_path("v1");
    fs::copy("tests/data/history-v1.jsonl", &path).unwrap();
    assert_eq!(
        Log::new(path.clone())
            .append(&record(), &mut no_wait())
            .unwrap(),
        7
    );
}

#[test]
fn damaged_last_lines_count_as_numbers_used() {
    let (_dir, path) = temp_path("corrupt");
    let log = Log::new(path.clone());
    log.append(&record(), &mut no_wait()).unwrap();
    log.append(&record(), &mut no_wait()).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "{\"number\":2,\"date\": this is not json";
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 3);
    assert_eq!(read(&log).1, 1);
    assert_eq!(numbers(&log), [1, 3]);
}

#[test]
fn a_truncated_last_line_gets_a_fresh_line_after_it() {
    let (_dir, path) = temp_path("truncated");
    let log = Log::new(path.clone());
    log.append(&record(), &mut no_wait()).unwrap();
    let whole = serde_json::to_string(&record()).unwrap();
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut file, &whole.as_bytes()[..whole.len() / 2]).unwrap();
    drop(file);
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 3);
    assert_eq!(read(&log).1, 1);
    assert_eq!(numbers(&log), [1, 3]);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
}

#[test]
fn the_largest_number_is_never_shared() {
    let (_dir, path) = temp_path("largest");
    let last = Record {
        number: u64::MAX,
        ..record()
    };
    fs::write(&path, serde_json::to_string(&last).unwrap() + "\n").unwrap();
    let log = Log::new(path.clone());
    let refused = log.append(&record(), &mut no_wait()).unwrap_err();
    assert!(matches!(refused, LogError::Full(_)), "{refused}");
    assert!(refused.to_string().contains("largest number"));
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 1);
}

/// A largest number near the end that leaves none after it does not stop
/// the log: the game goes one past the last record, as it would otherwise.
#[test]
fn the_largest_number_earlier_leaves_the_last_ones_successor() {
    let (_dir, path) = temp_path("largest-earlier");
    let line = |number| serde_json::to_string(&Record { number, ..record() }).unwrap() + "\n";
    fs::write(&path, line(u64::MAX) + &line(2)).unwrap();
    let log = Log::new(path.clone());
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 3);
    // Below the largest, the next number is past the largest.
    fs::write(&path, line(5) + &line(3)).unwrap();
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 6);
}

#[test]
fn a_byte_order_mark_is_tolerated() {
    let (_dir, path) = temp_path("bom");
    let mut text = b"\xEF\xBB\xBF".to_vec();
    text.extend(
        serde_json::to_string(&Record {
            number: 5,
            ..record()
        })
        .unwrap()
        .bytes(),
    );
    text.push(b'\n');
    fs::write(&path, text).unwrap();
    let log = Log::new(path.clone());
    assert_eq!(numbers(&log), [5]);
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 6);
}

#[test]
fn a_missing_file_reads_as_empty_and_is_not_made() {
    let (_dir, path) = temp_path("missing");
    assert_eq!(read(&Log::new(path.clone())), (vec![], 0));
    assert!(!path.exists());
}

#[test]
fn only_a_regular_file_is_a_log() {
    let (_dir, path) = temp_path("special");
    let folder = path.parent().unwrap().to_path_buf();
    let fifo = folder.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for special in [
        fifo,
        PathBuf::from("/dev/zero"),
        PathBuf::from("/dev/null"),
        folder,
    ] {
        let log = Log::new(special.clone());
        let appended = log.append(&record(), &mut no_wait());
        assert!(
            matches!(appended, Err(LogError::NotAFile(_))),
            "{special:?}: {appended:?}"
        );
        assert!(matches!(log.stream(), Err(LogError::NotAFile(_))));
    }
}

#[test]
fn a_lock_held_too_long_gives_up_after_saying_so() {
    let (_dir, path) = temp_path("locked");
    let log = Log::new(path.clone()).with_patience(Duration::from_millis(1500));
    log.append(&record(), &mut no_wait()).unwrap();
    let holder = fs::File::open(&path).unwrap();
    holder.lock().unwrap();
    let mut told = 0;
    let refused = log.append(&record(), &mut || told += 1).unwrap_err();
    assert!(matches!(refused, LogError::Locked(..)), "{refused}");
    assert_eq!(told, 1, "said once, after a second");
    drop(holder);
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 2);
}

/// Set in a child process: a log to append to with a file size limit.
const CHILD_FULL: &str = "TALLYHO_HISTORY_TEST_FULL_DISK";

/// The child's half of the full-disk test: the file may grow by 10 bytes only.
#[test]
fn child_full_disk() {
    let Some(path) = std::env::var_os(CHILD_FULL) else {
        return;
    };
    let path = PathBuf::from(path);
    let length = fs::metadata(&path).unwrap().len();
    // SAFETY: plain calls that set this process's own limit and signal disposition.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let limit = libc::rlimit {
            rlim_cur: length + 10,
            rlim_max: libc::RLIM_INFINITY,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &limit), 0);
    }
    let failed = Log::new(path.clone()).append(&record(), &mut no_wait());
    assert!(matches!(failed, Err(LogError::Io(..))), "{failed:?}");
    assert_eq!(fs::metadata(&path).unwrap().len(), length, "cut back");
}

#[test]
fn a_full_disk_leaves_no_torn_line() {
    let (_dir, path) = temp_path("full");
    let log = Log::new(path.clone());
    log.append(&record(), &mut no_wait()).unwrap();
    let before = fs::read(&path).unwrap();
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_full_disk", "--test-threads=1", "--quiet"])
        .env(CHILD_FULL, &path)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read(&path).unwrap(), before);
    // The next game goes in as if nothing happened.
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 2);
    assert_eq!(
        read(&log),
        (
            vec![
                Record {
                    number: 1,
                    ..record()
                },
                Record {
                    number: 2,
                    ..record()
                }
            ],
            0
        )
    );
}

#[test]
fn a_huge_line_is_damage_not_memory() {
    let (_dir, path) = temp_path("huge");
    let mut text = vec![b'{'; 3 << 20];
    text.push(b'\n');
    text.extend(
        serde_json::to_string(&Record {
            number: 9,
            ..record()
        })
        .unwrap()
        .bytes(),
    );
    text.push(b'\n');
    fs::write(&path, text).unwrap();
    let log = Log::new(path.clone());
    assert_eq!(numbers(&log), [9]);
    assert_eq!(read(&log).1, 1);
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 10);
}

#[test]
fn a_damaged_end_of_many_megabytes_counts_as_its_lines() {
    // Record 9, then a line of 3 MiB of junk, a short damaged line, and
    // 64 MiB of zeros with no line end (a crash can leave such an end):
    // three damaged lines after record 9, so the next game is 13.
    let (_dir, path) = temp_path("zeros");
    let mut text = serde_json::to_string(&Record {
        number: 9,
        ..record()
    })
    .unwrap()
    .into_bytes();
    text.push(b'\n');
    text.extend(vec![b'x'; 3 << 20]);
    text.extend(b"\n{\"number\":\n");
    fs::write(&path, &text).unwrap();
    let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(text.len() as u64 + (64 << 20)).unwrap();
    drop(file);
    let log = Log::new(path.clone());
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 13);
    assert_eq!(numbers(&log), [9, 13]);
}

/// Checks a log holds exactly records 1..=n, every one well formed.
fn assert_complete(path: &Path, n: u64) {
    let log = Log::new(path.to_path_buf());
    let (records, damaged) = read(&log);
    assert_eq!(damaged, 0);
    let numbers: BTreeSet<u64> = records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, (1..=n).collect());
    assert_eq!(fs::read_to_string(path).unwrap().lines().count() as u64, n);
}

#[test]
fn threads_appending_at_once_lose_nothing() {
    let (_dir, path) = temp_path("threads");
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let log = Log::new(path.clone());
            std::thread::spawn(move || {
                (0..50)
                    .map(|_| log.append(&record(), &mut no_wait()).unwrap())
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
}

/// Set in a child process: the log it appends to.
const CHILD_LOG: &str = "TALLYHO_HISTORY_TEST_CHILD_LOG";

/// The child's half of the process test; does nothing in a normal run.
#[test]
fn child_appender() {
    if let Some(path) = std::env::var_os(CHILD_LOG) {
        let log = Log::new(PathBuf::from(path));
        for _ in 0..25 {
            log.append(&record(), &mut no_wait()).unwrap();
        }
    }
}

#[test]
fn processes_appending_at_once_lose_nothing() {
    let (_dir, path) = temp_path("processes");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..6)
        .map(|_| {
            KillOnDrop(
                Command::new(&exe)
                    .args(["--exact", "child_appender", "--test-threads=1", "--quiet"])
                    .env(CHILD_LOG, &path)
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap(),
            )
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_complete(&path, 150);
}

fn table(records: &[Record]) -> String {
    table_within(records, None)
}

/// The table as a terminal `columns` wide would get it.
fn table_within(records: &[Record], columns: Option<usize>) -> String {
    let (_dir, path) = temp_path("table");
    let text: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    fs::write(&path, text).unwrap();
    let mut out = Vec::new();
    write_table(&Log::new(path.clone()), &mut out, columns).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_screen_too_narrow_for_the_table_gets_a_few_lines_a_game() {
    let game = Record {
        number: 7,
        plies: 36,
        seats: vec![
            seat("Ann", "fox", None),
            seat("ALTAIR", "hounds", Some("overpowered")),
        ],
        outcome: tallyho::shell::log::Ending {
            winner: Some("hounds".to_string()),
            how: "fox-trapped".to_string(),
            score: None,
        },
        ..record()
    };
    // Wide enough: the table, names cut if need be.
    assert!(table_within(std::slice::from_ref(&game), Some(80)).starts_with("No.  Date"));
    let expected = [
        "  7  2026-11-23 02:11  fox",
        "     First:  Ann (fox)",
        "     Second: ALTAIR (hounds, overpo…",
        "     Winner: ALTAIR, 36 plies",
    ]
    .map(|line| format!("{line}\n"))
    .concat();
    assert_eq!(
        table_within(std::slice::from_ref(&game), Some(36)),
        expected
    );
    // A long winner's name gives way to the points and the plies.
    let long = Record {
        seats: vec![
            seat("Ann", "P", None),
            seat("Bartholomew Smithy", "A", None),
        ],
        outcome: tallyho::shell::log::Ending {
            winner: Some("A".to_string()),
            how: "most-points".to_string(),
            score: Some("5-13".to_string()),
        },
        plies: 16,
        ..game
    };
    let shown = table_within(&[long], Some(36));
    assert!(
        shown.contains("     Winner: Barthol… 13-5, 16 plies\n"),
        "{shown}"
    );
}

#[test]
fn table_aligns_names_by_display_width_and_cuts_long_ones() {
    let row = |number, a: Seat, b: Seat, winner: Option<&str>, plies| Record {
        number,
        plies,
        seats: vec![a, b],
        outcome: tallyho::shell::log::Ending {
            winner: winner.map(String::from),
            how: "fox-home".to_string(),
            score: None,
        },
        ..record()
    };
    let records = [
        row(
            1,
            seat("Al", "fox", None),
            seat("狐狸先生", "hounds", None),
            Some("fox"),
            7,
        ),
        row(
            2,
            seat("狐狸先生", "fox", None),
            seat("Al", "hounds", None),
            Some("hounds"),
            31,
        ),
        row(
            10,
            seat("", "fox", Some("cunning")),
            seat(&"R".repeat(60), "hounds", Some("easy")),
            None,
            112,
        ),
    ];
    let expected = "\
No.  Date              Game  First                    Second                              Winner  Plies
  1  2026-11-23 02:11  fox   Al (fox)                 狐狸先生 (hounds)                   Al          7
  2  2026-11-23 02:11  fox   狐狸先生 (fox)           Al (hounds)                         Al         31
 10  2026-11-23 02:11  fox   Computer (fox, cunning)  RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR…  draw      112
";
    assert_eq!(table(&records), expected);
}

#[test]
fn nothing_from_the_log_reaches_the_terminal_as_an_escape() {
    let evil = Record {
        date: "\u{1b}]0;pwned\u{7}".to_string(),
        seats: vec![
            seat("\u{1b}[2J\u{202e}Ann", "fox", None),
            seat(&"x".repeat(65_536), "hounds", Some("\u{9b}31m")),
        ],
        flow: "\u{1b}c".to_string(),
        number: 1,
        ..record()
    };
    let text = table(&[evil]);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{9b}') && !text.contains('\u{202e}'),
        "{text}"
    );
    assert!(text.contains("\\u{1b}"));
    assert!(text.lines().all(|l| l.chars().count() < 200));
}

#[test]
fn an_empty_table_says_so() {
    assert_eq!(table(&[]), "No games yet.\n");
    assert!(Widths::default().header().starts_with("No.  Date"));
}

#[test]
fn lines_that_are_not_records_are_refused() {
    assert!(parse_record(b"{}").is_err());
    assert!(parse_record(b"[1,2]").is_err());
    assert!(parse_record(b"{\"number\":-1}").is_err());
    assert!(parse_record(&serde_json::to_vec(&record()).unwrap()).is_ok());
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

#[test]
fn a_huge_damaged_end_is_read_back_in_blocks() {
    let (_dir, path) = temp_path("huge-end");
    let log = Log::new(path.clone());
    log.append(&record(), &mut no_wait()).unwrap();
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut file, &vec![b'{'; 5 << 20]).unwrap();
    drop(file);
    // The junk may have been record 2.
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 3);
    assert_eq!(numbers(&log), [1, 3]);
}

#[test]
fn a_log_of_only_a_byte_order_mark_is_empty() {
    let (_dir, path) = temp_path("bom-only");
    fs::write(&path, b"\xEF\xBB\xBF").unwrap();
    let log = Log::new(path.clone());
    assert_eq!(read(&log), (vec![], 0));
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 1);
}

#[test]
fn numbers_edited_out_of_order_are_not_given_again() {
    let (_dir, path) = temp_path("disorder");
    let text: String = [5, 5, 3]
        .map(|n| {
            serde_json::to_string(&Record {
                number: n,
                ..record()
            })
            .unwrap()
                + "\n"
        })
        .concat();
    fs::write(&path, text).unwrap();
    let log = Log::new(path.clone());
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 6);
    assert_eq!(log.append(&record(), &mut no_wait()).unwrap(), 7);
}
