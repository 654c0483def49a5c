//! The game log against the adversarial round: a FIFO swapped in never
//! hangs a reader, a hostile field never floods standard error, a game is
//! reported kept only once it is in the log, and a log in a folder that does
//! not exist is refused instead of its folders being made.

use std::fs;
use std::path::Path;
use std::process::Command as StdCommand;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use tallyho::games::draughts::Setup;
use tallyho::shell::log::{Keeper, Kept, Log, LogError, OpenError, open_regular, parse_record};
use tallyho::shell::replay::{FIELD_WIDTH, RebuildError, rebuild, rules_of};

mod scratch;
use scratch::Scratch;

/// A fresh folder of its own for one test, removed when dropped.
fn folder(name: &str) -> Scratch {
    Scratch::new(&format!("log-safety-{name}"))
}

fn tallyho(log: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("XDG_DATA_HOME")
        .env("TALLYHO_HISTORY", log)
        .env("HOME", log.parent().expect("in a folder"))
        .timeout(Duration::from_secs(20));
    cmd
}

fn mkfifo(path: &Path) {
    let made = StdCommand::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
}

/// A log holding one finished game of `game`, made by the real binary.
fn one_game(log: &Path, game: &[&str]) -> serde_json::Value {
    tallyho(log)
        .args(game)
        .args([
            "--players",
            "0",
            "--level",
            "rubbish",
            "--games",
            "1",
            "--seed",
            "2",
        ])
        .assert()
        .success();
    let line = fs::read_to_string(log).expect("log");
    serde_json::from_str(line.trim()).expect("one JSON record")
}

/// Runs `f` on another thread and fails if it takes longer than `limit`.
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .expect("finished in time, without hanging")
}

#[test]
fn opening_a_fifo_to_read_never_hangs_and_is_refused() {
    let dir = folder("open-fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let opened = within(Duration::from_secs(5), move || open_regular(&fifo));
    assert!(matches!(opened, Err(OpenError::NotAFile(_))), "{opened:?}");
    assert!(matches!(open_regular(&dir), Err(OpenError::Folder(_))));
    for special in ["/dev/zero", "/dev/null"] {
        let opened = open_regular(Path::new(special));
        assert!(
            matches!(opened, Err(OpenError::NotAFile(_))),
            "{special}: {opened:?}"
        );
    }
    let file = dir.join("plain");
    fs::write(&file, "text").expect("written");
    assert!(open_regular(&file).is_ok());
    let missing = open_regular(&dir.join("missing"));
    assert!(
        matches!(&missing, Err(OpenError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound)
    );
}

/// A thread told to stop, and waited for, when dropped: also when the test
/// fails, so it is done with the test's folder before the folder goes.
struct Stopping {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Stopping {
    /// Stops the thread and waits for it: false if it panicked.
    fn stop(mut self) -> bool {
        self.finish()
    }

    fn finish(&mut self) -> bool {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .is_none_or(|thread| thread.join().is_ok())
    }
}

impl Drop for Stopping {
    fn drop(&mut self) {
        self.finish();
    }
}

#[test]
fn a_fifo_swapped_in_for_the_log_never_hangs_history_or_replay() {
    let dir = folder("swap");
    let log = dir.join("history.jsonl");
    one_game(&log, &[]);
    let regular = dir.join("regular");
    fs::rename(&log, &regular).expect("moved");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    // Swaps the log between the regular file and the FIFO, atomically, as
    // fast as it can, while the readers run.
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, log, dir) = (stop.clone(), log.clone(), dir.to_path_buf());
        std::thread::spawn(move || {
            let spare = dir.join("spare");
            while !stop.load(Ordering::Relaxed) {
                for source in [&regular, &fifo] {
                    let _ = fs::remove_file(&spare);
                    fs::hard_link(source, &spare).expect("linked");
                    fs::rename(&spare, &log).expect("swapped");
                }
            }
        })
    };
    let swapper = Stopping {
        stop,
        thread: Some(swapper),
    };
    let (mut kept, mut refused) = (0, 0);
    for run in 0..60 {
        let args: &[&str] = if run % 2 == 0 {
            &["history"]
        } else {
            &["replay", "1"]
        };
        // The timeout fails the test if a run hangs on the FIFO.
        let output = tallyho(&log)
            .args(args)
            .timeout(Duration::from_secs(10))
            .output()
            .expect("ran");
        match output.status.code() {
            Some(0) => kept += 1,
            Some(1) => {
                let stderr = String::from_utf8_lossy(&output.stderr);
                assert!(stderr.contains("is not a regular file"), "{stderr}");
                refused += 1;
            }
            other => panic!("{args:?} ended with {other:?}: it hung or failed"),
        }
    }
    assert!(swapper.stop(), "the swapper failed");
    assert_eq!(kept + refused, 60);
    eprintln!("{kept} runs read the log, {refused} refused the FIFO");
}

/// Asserts a command fails with a short, safe complaint about the log.
fn refused_briefly(log: &Path, args: &[&str], says: &str) {
    let output = tallyho(log).args(args).output().expect("ran");
    assert_eq!(output.status.code(), Some(1), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.len() < 1000,
        "{args:?}: {} bytes on stderr",
        stderr.len()
    );
    assert!(stderr.contains(says), "{args:?}: {stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

#[test]
fn a_hostile_field_is_quoted_cut_by_replay_and_history_pdn() {
    let dir = folder("hostile");
    let log = dir.join("history.jsonl");
    let fox = one_game(&log, &[]);
    let draughts = one_game(&dir.join("draughts.jsonl"), &["draughts"]);
    let hostile = format!("\u{1b}[31m{}", "x".repeat(300_000));
    let cut = format!("\\u{{1b}}[31m{}…", "x".repeat(FIELD_WIDTH - 11));
    for (record, args) in [
        (&fox, &["replay", "1"][..]),
        (&draughts, &["history", "--pdn", "1"][..]),
    ] {
        let mut bad = record.clone();
        bad["outcome"]["winner"] = serde_json::json!(hostile);
        fs::write(&log, bad.to_string() + "\n").expect("written");
        // A winner that is no side is said to be none, never quoted.
        refused_briefly(&log, args, "its winner is not a side of the game");
        let mut bad = record.clone();
        bad["outcome"]["how"] = serde_json::json!(hostile);
        bad["outcome"]["winner"] = serde_json::Value::Null;
        fs::write(&log, bad.to_string() + "\n").expect("written");
        refused_briefly(&log, args, &format!("but it says a draw ({cut})"));
        let mut bad = record.clone();
        bad["start"] = serde_json::json!(hostile);
        fs::write(&log, bad.to_string() + "\n").expect("written");
        refused_briefly(&log, args, "its start position does not read");
        let mut bad = record.clone();
        bad["moves"][0] = serde_json::json!(hostile);
        fs::write(&log, bad.to_string() + "\n").expect("written");
        refused_briefly(
            &log,
            args,
            "move 1 (\\u{1b}[31mxxxxxxxxx…) is not legal there",
        );
        // No players, or both on one side: never replayed as a game.
        let mut bad = record.clone();
        bad["seats"] = serde_json::json!([]);
        fs::write(&log, bad.to_string() + "\n").expect("written");
        refused_briefly(&log, args, "its players are not one for each side");
        let mut bad = record.clone();
        bad["seats"][1]["side"] = bad["seats"][0]["side"].clone();
        fs::write(&log, bad.to_string() + "\n").expect("written");
        refused_briefly(&log, args, "its players are not one for each side");
    }
}

#[test]
fn a_long_name_in_replays_header_is_cut_alone_between_escapes() {
    let dir = folder("long-name");
    let log = dir.join("history.jsonl");
    let mut record = one_game(&log, &[]);
    let side = record["seats"][0]["side"]
        .as_str()
        .expect("a side")
        .to_string();
    record["seats"][0]["name"] = serde_json::json!("\u{202e}".repeat(1000));
    fs::write(&log, record.to_string() + "\n").expect("written");
    let output = tallyho(&log).args(["replay", "1"]).output().expect("ran");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let header = stdout.lines().next().expect("a header");
    // The name is cut after a whole escape, and its side and level stay.
    assert!(
        header.contains(&format!("}}… ({side}, rubbish)")),
        "{header}"
    );
    assert!(!header.contains('\u{202e}'), "{header}");
}

#[test]
fn a_hostile_setup_field_is_quoted_cut() {
    let dir = folder("setup");
    let log = dir.join("history.jsonl");
    let mut record = one_game(&log, &["draughts"]);
    record["setup"]["opening"] = serde_json::json!("9".repeat(300_000));
    let record = parse_record(record.to_string().as_bytes()).expect("a record");
    let why = rules_of::<Setup>(&record).expect_err("no such opening");
    assert!(matches!(why, RebuildError::Setup(_)));
    let said = why.to_string();
    assert!(
        said.contains(&format!(
            "\"{}…\" is not in the deck",
            "9".repeat(FIELD_WIDTH - 1)
        )),
        "{said}"
    );
    assert!(said.len() < 300, "{}", said.len());
}

#[test]
fn a_game_is_reported_kept_only_once_it_is_in_the_log() {
    let dir = folder("kept");
    let log_path = dir.join("history.jsonl");
    let mut line = one_game(&log_path, &[]);
    line["number"] = serde_json::json!(0);
    let record = parse_record(line.to_string().as_bytes()).expect("a record");
    let log = Log::new(log_path.clone());
    let numbers = |log: &Log| {
        let mut records = log.stream().expect("readable");
        let mut numbers = Vec::new();
        while let Some(record) = records.next_record().expect("readable") {
            numbers.push(record.number);
        }
        numbers
    };
    let keeper = Keeper::new(Some(log.clone()));
    let mut seen = Vec::new();
    let kept = keeper.keep_then(&record, |kept| {
        // What a score would count here is already in the log.
        assert!(kept.is_logged() && kept.counts());
        seen = numbers(&log);
    });
    assert!(matches!(kept, Kept::Logged(2)), "{kept:?}");
    assert_eq!(seen, [1, 2]);
    assert!(matches!(keeper.keep(&record), Kept::Logged(3)));

    let off = Keeper::new(None).keep(&record);
    assert!(matches!(off, Kept::Off) && off.counts() && !off.is_logged());

    let nowhere = Log::new(dir.join("missing").join("history.jsonl"));
    let lost = Keeper::new(Some(nowhere.clone())).keep(&record);
    assert!(
        matches!(lost, Kept::Lost(LogError::NoFolder { .. })),
        "{lost:?}"
    );
    assert!(!lost.counts() && !lost.is_logged());
    let refused = Keeper::open(Some(nowhere)).expect_err("no folder");
    assert!(refused.to_string().contains("does not exist"), "{refused}");
    assert!(!dir.join("missing").exists());
    assert!(Keeper::open(Some(log)).is_ok() && Keeper::open(None).is_ok());
}

#[test]
fn a_log_in_a_missing_folder_is_refused_and_no_folder_is_made() {
    let dir = folder("missing");
    let log = dir.join("no").join("such").join("history.jsonl");
    let said = "the folder";
    for args in [
        &["history"][..],
        &["replay", "1"][..],
        &["history", "--json"][..],
    ] {
        let output = tallyho(&log).args(args).output().expect("ran");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(said) && stderr.contains("does not exist"),
            "{stderr}"
        );
        let output = tallyho(&dir)
            .args(args)
            .arg("--history")
            .arg(&log)
            .output()
            .expect("ran");
        assert_eq!(output.status.code(), Some(1), "--history {args:?}");
    }
    let file = dir.join("file");
    fs::write(&file, "").expect("a file");
    let output = tallyho(&file.join("history.jsonl"))
        .arg("history")
        .output()
        .expect("ran");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("file is not a folder, so the game log"),
        "{stderr}"
    );
    // Playing is refused before it starts, with status 1, and nothing is made.
    let output = tallyho(&log)
        .args(["--players", "0", "--level", "rubbish", "--games", "1"])
        .output()
        .expect("ran");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!dir.join("no").exists(), "no folder was made");
}

/// What a session refused before play said on standard error: it ended
/// with status 1, and nothing was played.
fn refused_unplayed(output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty(), "played: {output:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_default_log_makes_its_own_folder() {
    let home = folder("default");
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("TALLYHO_HISTORY")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", &home)
        .args(["--players", "0", "--level", "rubbish", "--games", "1"])
        .timeout(Duration::from_secs(20))
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    let log = home.join(".local/share/tallyho/history.jsonl");
    assert_eq!(fs::read_to_string(&log).expect("made").lines().count(), 1);
}

#[test]
fn rebuild_refusals_are_typed() {
    let dir = folder("typed");
    let log = dir.join("history.jsonl");
    let mut record = one_game(&log, &[]);
    record["plies"] = serde_json::json!(99);
    let record = parse_record(record.to_string().as_bytes()).expect("a record");
    let rules = rules_of::<tallyho::games::fox::Setup>(&record).expect("a setup");
    let refused = rebuild(&rules, &record).expect_err("99 plies");
    assert!(
        matches!(refused, RebuildError::Plies { said: 99, .. }),
        "{refused}"
    );
}

#[test]
fn the_score_says_when_a_game_it_counts_is_not_in_the_log() {
    let dir = folder("unlogged");
    let game = |log: &Path| {
        tallyho(log)
            .args(["--players", "0", "--level", "rubbish"])
            .args(["--games", "1", "--seed", "1"])
            .output()
            .expect("ran")
    };
    // A log that takes no game: its last game's number is the largest.
    let log = dir.join("history.jsonl");
    assert!(game(&log).status.success());
    let line = std::fs::read_to_string(&log).expect("a record");
    let full = line.replacen("\"number\":1,", &format!("\"number\":{},", u64::MAX), 1);
    std::fs::write(&log, full).expect("written");
    let output = game(&log);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Final score:") && stdout.contains("(1 game not in the log)"),
        "{stdout}"
    );
}

/// tallyho run as a user whom permissions stop: this one, or, where the
/// tests run as root (`made` was made by root), nobody.
fn as_a_user(made: &Path) -> StdCommand {
    let root = std::os::unix::fs::MetadataExt::uid(&fs::metadata(made).expect("made")) == 0;
    if root {
        let mut cmd = StdCommand::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_tallyho"));
        cmd
    } else {
        StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
    }
}

/// A log that may not be written, or a new one in a folder that may not be,
/// is refused before play with status 1: no game is played only to be lost.
/// Run as another user where the tests run as root, whom permissions do not
/// stop.
#[test]
fn a_log_that_may_not_be_written_is_refused_before_play() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("unwritable");
    let locked = dir.join("locked");
    fs::create_dir(&locked).expect("a folder");
    let old = locked.join("old.jsonl");
    fs::write(&old, "").expect("a log");
    fs::set_permissions(&old, fs::Permissions::from_mode(0o444)).expect("chmod");
    // Written but not read: the next number is read from the log's end.
    let unread = locked.join("unread.jsonl");
    fs::write(&unread, "").expect("a log");
    fs::set_permissions(&unread, fs::Permissions::from_mode(0o622)).expect("chmod");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).expect("chmod");
    for log in [old.clone(), unread, locked.join("new.jsonl")] {
        let output = as_a_user(&old)
            .args(["--players", "0", "--level", "rubbish", "--games", "1"])
            .arg("--history")
            .arg(&log)
            .env("HOME", &dir)
            .env_remove("XDG_DATA_HOME")
            .output()
            .expect("ran");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{log:?}: {stderr}");
        assert!(output.stdout.is_empty(), "played: {output:?}");
        assert!(
            stderr.contains("may not be read and written by you, so no game can be kept in it"),
            "{stderr}"
        );
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A new log in a folder no one may make a file in, as `/sys` (where even
/// root, whom `access` lets write anywhere, may not): refused before play.
#[test]
fn a_new_log_where_no_file_can_be_made_is_refused_before_play() {
    if !Path::new("/sys/kernel").is_dir() {
        return;
    }
    let refused = refused_before_play("no-file-made", Path::new("/sys/tallyho-test.jsonl"));
    assert!(
        refused.contains("so no game can be kept in it"),
        "{refused}"
    );
}

/// What a computer game with `log` as its log says on standard error, having
/// been refused with status 1 before any game was played.
fn refused_before_play(tag: &str, log: &Path) -> String {
    let dir = folder(tag);
    let output = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["--players", "0", "--level", "rubbish", "--games", "1"])
        .arg("--history")
        .arg(log)
        .env("HOME", &dir)
        .env_remove("XDG_DATA_HOME")
        .output()
        .expect("ran");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty(), "played: {output:?}");
    stderr
}

/// A file the kernel makes up as it is read (`/proc`, `/sys`) says it is
/// regular, but is no log: refused before play, and for `history`.
#[test]
fn a_file_of_proc_is_no_log() {
    let made_up = Path::new("/proc/self/status");
    if !made_up.is_file() {
        return;
    }
    let refused = refused_before_play("proc-log", made_up);
    assert!(refused.contains("is not a regular file"), "{refused}");
    let dir = folder("proc-history");
    let output = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .arg("history")
        .arg("--history")
        .arg(made_up)
        .env("HOME", &dir)
        .output()
        .expect("ran");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
}

/// What stands in the log's way is said in the README's words, not the
/// system's: a log this user may not read, a file where the default log's
/// folder would be made (for `history` and for play), and a link to a log
/// in a folder that does not exist, which is no empty log.
#[test]
fn a_log_that_cannot_be_read_is_said_in_words() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("unreadable");
    let unread = dir.join("unread.jsonl");
    fs::write(&unread, "").expect("a log");
    fs::set_permissions(&unread, fs::Permissions::from_mode(0o200)).expect("chmod");
    // Another user (see `as_a_user`) must reach the file through the folder.
    fs::set_permissions(&*dir, fs::Permissions::from_mode(0o777)).expect("chmod");
    let output = as_a_user(&unread)
        .arg("history")
        .arg("--history")
        .arg(&unread)
        .env("HOME", &*dir)
        .output()
        .expect("ran");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        format!(
            "error: {} may not be read by you, so its games cannot be shown",
            unread.display()
        )
    );

    let file = dir.join("file");
    fs::write(&file, "").expect("a file");
    let default_log = |args: &[&str]| {
        let output = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(args)
            .env("HOME", &*dir)
            .env("XDG_DATA_HOME", &file)
            .env_remove("TALLYHO_HISTORY")
            .output()
            .expect("ran");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty(), "{output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let said = format!(
        "error: {} is not a folder, so the game log {} cannot be kept there",
        file.display(),
        file.join("tallyho").join("history.jsonl").display()
    );
    for args in [
        &["history"][..],
        &["--players", "0", "--level", "rubbish", "--games", "1"],
    ] {
        let stderr = default_log(args);
        assert!(stderr.starts_with(&said), "{args:?}: {stderr}");
    }

    // A link to nowhere where the default log's folder would be made.
    let data = dir.join("data");
    fs::create_dir(&data).expect("a folder");
    std::os::unix::fs::symlink(dir.join("missing"), data.join("tallyho")).expect("a link");
    let output = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["--players", "0", "--level", "rubbish", "--games", "1"])
        .env("HOME", &*dir)
        .env("XDG_DATA_HOME", &data)
        .env_remove("TALLYHO_HISTORY")
        .output()
        .expect("ran");
    let stderr = refused_unplayed(&output);
    assert!(
        stderr.contains("tallyho is not a folder, so the game log"),
        "{stderr}"
    );

    // A link to itself names no file.
    let looped = dir.join("loop.jsonl");
    std::os::unix::fs::symlink(&looped, &looped).expect("a link");
    for args in [&["history"][..], &["--players", "0", "--level", "rubbish"]] {
        let output = tallyho(&looped).args(args).output().expect("ran");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("loop.jsonl leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so it cannot be the game log"),
            "{args:?}: {stderr}"
        );
    }

    // A folder that is a loop of links is called one, not a missing folder.
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::os::unix::fs::symlink(&b, &a).expect("a link");
    std::os::unix::fs::symlink(&a, &b).expect("a link");
    let inside = a.join("h.jsonl");
    let output = tallyho(&inside)
        .args(["--players", "0", "--level", "rubbish"])
        .output()
        .expect("ran");
    let stderr = refused_unplayed(&output);
    assert!(
        stderr.contains(&format!(
            "the folder {} leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so the game log {} cannot be kept there",
            a.display(),
            inside.display()
        )),
        "{stderr}"
    );

    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(dir.join("nowhere").join("x.jsonl"), &link).expect("a link");
    let output = tallyho(&link).arg("history").output().expect("ran");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("nowhere does not exist, so the game log"),
        "{stderr}"
    );
}
