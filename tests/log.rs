//! The game log through the real binary: concurrent processes, damaged lines,
//! `history`, `replay`, and a reader that closes the pipe early.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

mod scratch;
use scratch::{KillOnDrop, Scratch};

/// A fresh, private folder for one test and the log file in it. The folder
/// is removed when the guard drops: bind it (`let (_dir, log)`) for the
/// whole test.
fn log_path(name: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new(&format!("log-{name}"));
    let log = dir.join("history.jsonl");
    (dir, log)
}

fn tallyho(log: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TALLYHO_HISTORY", log)
        .env("HOME", log.parent().expect("in a folder"));
    cmd
}

/// The computer playing itself at its weakest level, `games` games from
/// `seed`, into `log`: real games, quickly.
fn computer_games(log: &Path, games: u32, seed: u64) -> Command {
    let mut cmd = tallyho(log);
    cmd.args(["--players", "0", "--level", "rubbish"]).args([
        "--games",
        &games.to_string(),
        "--seed",
        &seed.to_string(),
    ]);
    cmd
}

/// A log in `folder` that can take no game, though it is a file where it
/// should be: its last game's number is the largest there is.
fn used_up_log(folder: &Path) -> PathBuf {
    let seed = folder.join("seed.jsonl");
    computer_games(&seed, 1, 1).assert().success();
    let line = std::fs::read_to_string(&seed).expect("a record");
    let full = line.replacen("\"number\":1,", &format!("\"number\":{},", u64::MAX), 1);
    assert_ne!(full, line);
    let log = folder.join("used-up.jsonl");
    std::fs::write(&log, full).expect("written");
    log
}

/// The one record a log holds.
fn only_record(log: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(log).expect("log");
    serde_json::from_str(text.trim()).expect("one JSON record")
}

/// The records `tallyho history --json` lists.
fn records(log: &Path) -> Vec<serde_json::Value> {
    let output = tallyho(log)
        .args(["history", "--json"])
        .output()
        .expect("ran");
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).expect("a JSON array of records")
}

fn numbers(records: &[serde_json::Value]) -> Vec<u64> {
    records
        .iter()
        .map(|r| r["number"].as_u64().expect("a number"))
        .collect()
}

#[test]
fn two_processes_playing_at_once_keep_every_game_with_unique_numbers() {
    let (_dir, log) = log_path("concurrent");
    let games = 40;
    let spawn = |seed: &str| {
        KillOnDrop(
            StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
                .args([
                    "--players",
                    "0",
                    "--level",
                    "rubbish",
                    "--games",
                    &games.to_string(),
                    "--seed",
                    seed,
                ])
                .env("TALLYHO_HISTORY", &log)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .expect("started"),
        )
    };
    let (mut a, mut b) = (spawn("1"), spawn("2"));
    assert!(a.wait().expect("a ended").success());
    assert!(b.wait().expect("b ended").success());

    let all = records(&log);
    assert_eq!(all.len(), 2 * games);
    let mut seen = numbers(&all);
    seen.sort_unstable();
    assert_eq!(seen, (1..=2 * games as u64).collect::<Vec<_>>());
    for record in &all {
        assert_eq!(record["version"], 2);
        assert_eq!(record["game"], "fox");
        assert_eq!(record["flow"], "default");
        assert_eq!(record["setup"]["board"], "8x8");
        assert!(matches!(
            record["outcome"]["winner"].as_str(),
            Some("fox" | "hounds")
        ));
        let moves = record["moves"].as_array().expect("moves");
        assert_eq!(moves.len() as u64, record["plies"].as_u64().expect("plies"));
        assert_eq!(record["seats"][0]["level"], "rubbish");
        assert!(record["seed"].is_u64());
    }
}

#[test]
fn a_damaged_line_is_skipped_by_history_and_by_the_numbering() {
    let (_dir, log) = log_path("damaged");
    let play = |seed: &str| {
        tallyho(&log)
            .args([
                "--players",
                "0",
                "--level",
                "classic",
                "--games",
                "2",
                "--seed",
                seed,
            ])
            .assert()
            .success();
    };
    play("5");
    // Damage the first record in the middle of the log, as a crash or an editor might.
    let text = std::fs::read_to_string(&log).expect("log written");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(lines.len(), 2);
    let half = lines[0].len() / 2;
    lines[0].truncate(half);
    std::fs::write(&log, lines.join("\n") + "\n").expect("rewritten by the test");
    play("6");

    tallyho(&log)
        .arg("history")
        .assert()
        .success()
        .stderr(predicate::str::contains("skipped 1 damaged line"))
        .stdout(predicate::str::contains("No."));
    let all = records(&log);
    assert_eq!(numbers(&all), [2, 3, 4]);
}

#[test]
fn records_of_a_newer_version_are_read_with_a_warning() {
    let (_dir, log) = log_path("newer");
    computer_games(&log, 1, 3).assert().success();
    let mut record = only_record(&log);
    record["version"] = 3.into();
    record["number"] = 2.into();
    record["a field of the future"] = "ignored".into();
    let mut text = std::fs::read_to_string(&log).expect("log");
    text += &(record.to_string() + "\n");
    std::fs::write(&log, text).expect("rewritten by the test");

    let said = "warning: 1 record in";
    let why = "was written by a newer tallyho (record version 3; this one writes 2)";
    let output = tallyho(&log).arg("history").output().expect("ran");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(said) && stderr.contains(why), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().count(),
        3,
        "a header and two games: {stdout}"
    );
    // The JSON listing and a replay read it too; the menu's table says it.
    assert_eq!(numbers(&records(&log)), [1, 2]);
    tallyho(&log)
        .args(["replay", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Game 2"))
        .stderr(predicate::str::contains(why));
    tallyho(&log)
        .args(["replay", "1"])
        .assert()
        .success()
        .stderr("");
    let output = tallyho(&log).write_stdin("4\n6\n").output().expect("ran");
    let menu = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    assert!(
        menu.contains("Warning: 1 record in") && menu.contains(why),
        "{menu}"
    );
}

#[test]
fn replay_prints_every_move_and_refuses_an_unknown_game() {
    let (_dir, log) = log_path("replay");
    tallyho(&log)
        .args([
            "--players",
            "0",
            "--level",
            "cunning",
            "--games",
            "1",
            "--seed",
            "9",
        ])
        .assert()
        .success();
    let plies = records(&log)[0]["plies"].as_u64().expect("plies");
    let output = tallyho(&log).args(["replay", "1"]).output().expect("ran");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("text");
    assert!(text.starts_with("Game 1, "), "{text}");
    assert!(text.contains(&format!("\n{plies}. ")));
    assert!(text.trim_end().ends_with('.'));
    assert!(text.contains(" won! "), "{text}");
    tallyho(&log)
        .args(["replay", "7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 7"));
}

#[test]
fn an_empty_name_is_shown_alike_by_history_and_replay() {
    let (_dir, log) = log_path("empty-names");
    computer_games(&log, 1, 4).assert().success();
    let text = std::fs::read_to_string(&log).expect("log");
    let mut record: serde_json::Value = serde_json::from_str(text.trim()).expect("a record");
    for seat in record["seats"].as_array_mut().expect("seats") {
        seat["name"] = serde_json::Value::from("");
    }
    std::fs::write(&log, format!("{record}\n")).expect("written");
    let history = tallyho(&log).arg("history").output().expect("ran");
    let history = String::from_utf8(history.stdout).expect("text");
    assert!(history.contains("Computer (fox, rubbish)"), "{history}");
    let replay = tallyho(&log).args(["replay", "1"]).output().expect("ran");
    let replay = String::from_utf8(replay.stdout).expect("text");
    assert!(replay.contains("\n1. Computer moved "), "{replay}");
    assert!(!replay.contains(".  moved "), "{replay}");
    assert!(replay.contains(", Computer won!"), "{replay}");
}

#[test]
fn replay_of_a_damaged_line_says_what_is_wrong_with_it() {
    let (_dir, log) = log_path("damaged-replay");
    computer_games(&log, 2, 3).assert().success();
    let text = std::fs::read_to_string(&log).expect("log");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // A third seat of `null`: the line keeps its number but is no record.
    lines[1] = lines[1].replacen("\"seats\":[", "\"seats\":[null,", 1);
    std::fs::write(&log, lines.join("\n") + "\n").expect("written");
    tallyho(&log)
        .args(["replay", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("game 2 in "))
        .stderr(predicate::str::contains(
            "cannot be read: its line is damaged (invalid type: null",
        ));
    tallyho(&log).args(["replay", "1"]).assert().success();
    // A line cut short still names its game.
    let cut = &lines[1][..100];
    std::fs::write(&log, format!("{}\n{cut}\n", lines[0])).expect("written");
    tallyho(&log)
        .args(["replay", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot be read: its line is damaged (EOF",
        ));
    tallyho(&log)
        .args(["replay", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 3"))
        .stderr(predicate::str::contains("1 damaged line was skipped"));
}

#[test]
fn a_game_whose_number_falls_on_damaged_lines_without_one_is_said_to_be_damaged() {
    let (_dir, log) = log_path("numberless");
    computer_games(&log, 2, 3).assert().success();
    let text = std::fs::read_to_string(&log).expect("log");
    let lines: Vec<&str> = text.lines().collect();
    // Game 1, then two lines no number can be read from: the appender
    // counts them as games 2 and 3, and the next game is 4.
    std::fs::write(&log, format!("{}\ngarbage\n{{\"cut\n", lines[0])).expect("written");
    computer_games(&log, 1, 5).assert().success();
    assert_eq!(numbers(&records(&log)), [1, 4]);
    for n in ["2", "3"] {
        tallyho(&log)
            .args(["replay", n])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "game {n} in "
            )))
            .stderr(predicate::str::contains(
                "cannot be read: its line is damaged (its number falls on the 2 damaged lines after game 1, whose numbers cannot be read)",
            ));
    }
    tallyho(&log).args(["replay", "4"]).assert().success();
    tallyho(&log)
        .args(["replay", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 5"));
    // At the end of the log too.
    std::fs::write(&log, format!("{}\ngarbage\n", lines[0])).expect("written");
    tallyho(&log)
        .args(["replay", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "(its number falls on the damaged line after game 1, whose numbers cannot be read)",
        ));
    tallyho(&log)
        .args(["replay", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 3"));
}

#[test]
fn history_into_a_closed_pipe_exits_quietly() {
    let (_dir, log) = log_path("pipe");
    computer_games(&log, 1, 3).assert().success();
    // Many copies of the record make a table longer than a pipe's buffer.
    let line = std::fs::read_to_string(&log)
        .expect("log")
        .lines()
        .next()
        .expect("a record")
        .to_string();
    let many: String = (1..=3000)
        .map(|n| line.replacen("\"number\":1,", &format!("\"number\":{n},"), 1) + "\n")
        .collect();
    std::fs::write(&log, many).expect("written");

    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .arg("history")
        .env("TALLYHO_HISTORY", &log)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("started");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a line");
    assert!(first.trim_start().starts_with("No."), "{first}");
    let output = child.wait_with_output().expect("ended");
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn no_history_keeps_nothing_and_an_unwritable_log_warns_for_each_game() {
    let (_dir, log) = log_path("none");
    computer_games(&log, 2, 1)
        .arg("--no-history")
        .assert()
        .success();
    assert!(!log.exists());

    // A log that cannot take a game (here its numbers are used up): each
    // game is said lost, play goes on, and the exit status tells a script
    // that results were lost.
    let blocked = used_up_log(log.parent().expect("folder"));
    let output = computer_games(&blocked, 3, 1).output().expect("ran");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("warning: this game was not kept").count(),
        3,
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("Final score"));
}

#[test]
fn a_game_the_log_could_not_take_outranks_a_refused_line_in_the_exit_status() {
    let (_dir, log) = log_path("lost");
    let resign = |log: &Path| {
        tallyho(log)
            .args(["draughts", "--players", "2", "--names", "Ann,Bob"])
            .args(["--games", "1"])
            .write_stdin("\nzz\nresign\ny\n")
            .timeout(std::time::Duration::from_secs(20))
            .assert()
    };
    // Kept: the refused line alone decides (3).
    resign(&log)
        .code(3)
        .stdout(predicate::str::contains("Ann:0 - Bob:1"));
    assert_eq!(numbers(&records(&log)), [1]);
    // Not kept: the lost result comes first (1), and the score says so.
    let blocked = used_up_log(log.parent().expect("folder"));
    resign(&blocked)
        .code(1)
        .stderr(predicate::str::contains("warning: this game was not kept"))
        .stdout(predicate::str::contains(
            "Final score: Ann:0 - Bob:1 (1 game not in the log)",
        ));
}

#[test]
fn the_warning_that_a_game_was_not_kept_follows_its_result() {
    let (dir, log) = log_path("lost-order");
    let blocked = used_up_log(log.parent().expect("folder"));
    // Both streams into one file, as a terminal shows them.
    let both = dir.join("both.txt");
    let file = std::fs::File::create(&both).expect("the file is made");
    let status = StdCommand::new(assert_cmd::cargo::cargo_bin!("tallyho"))
        .args(["--players", "2", "--names", "Ann,Bob", "--board", "4x4"])
        .env("TALLYHO_HISTORY", &blocked)
        .env("HOME", &dir)
        .stdin(Stdio::piped())
        .stdout(file.try_clone().expect("a second handle"))
        .stderr(file)
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(b"B3\nB1 C2\nA2\nno\n")?;
            }
            child.wait()
        })
        .expect("tallyho runs");
    assert_eq!(status.code(), Some(1));
    let shown = std::fs::read_to_string(&both).expect("the output is read");
    let result = shown.find("Fox, Ann won!").expect(&shown);
    let warning = shown.find("this game was not kept").expect(&shown);
    assert!(result < warning, "{shown}");
}

#[test]
fn a_session_whose_output_closes_early_says_whether_its_games_were_finished() {
    use std::io::Read;
    let (_dir, log) = log_path("closed");
    // The reader takes a little and goes away (`| head -c 100`); fifty games
    // fill far more than a pipe holds, so the session meets the closed pipe
    // before it has finished them.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("tallyho"))
        .env("TALLYHO_HISTORY", &log)
        .env("HOME", log.parent().expect("in a folder"))
        .args(["--players", "0", "--level", "rubbish"])
        .args(["--games", "50", "--seed", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("started");
    let mut out = child.stdout.take().expect("piped");
    let mut first = [0u8; 100];
    out.read_exact(&mut first)
        .expect("the session's first bytes");
    drop(out);
    let status = child.wait().expect("ended");
    assert_eq!(status.code(), Some(4), "fewer games than --games asked for");
    assert!(records(&log).len() < 50);
}

#[test]
fn a_fifo_or_a_device_is_refused_and_never_hangs() {
    let (_dir, dir) = log_path("special");
    let fifo = dir.parent().expect("folder").join("fifo");
    assert!(
        StdCommand::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    for special in [
        fifo.as_path(),
        Path::new("/dev/zero"),
        Path::new("/dev/null"),
    ] {
        for command in [&["history"][..], &["replay", "1"][..]] {
            tallyho(special)
                .args(command)
                .timeout(std::time::Duration::from_secs(10))
                .assert()
                .code(1)
                .stderr(predicate::str::contains("is not a regular file"));
        }
        // Before play it is refused, so that no game is played to be lost.
        computer_games(special, 1, 1)
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("is not a regular file"));
    }
}

#[test]
fn a_link_to_a_missing_folder_is_refused_before_play() {
    let (_dir, log) = log_path("dangling");
    let folder = log.parent().expect("folder");
    std::fs::create_dir_all(folder).expect("folder made");
    let link = folder.join("link.jsonl");
    std::os::unix::fs::symlink(folder.join("nowhere/h.jsonl"), &link).expect("link made");
    computer_games(&link, 1, 1)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("nowhere does not exist"));
    // A chain of links, the last relative, into that folder: refused too.
    let sub = folder.join("sub");
    std::fs::create_dir_all(&sub).expect("folder made");
    std::os::unix::fs::symlink("gone/h.jsonl", sub.join("l2")).expect("link made");
    let chain = folder.join("chain.jsonl");
    std::os::unix::fs::symlink("sub/l2", &chain).expect("link made");
    computer_games(&chain, 1, 1)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("gone does not exist"));
    // A link to a file yet to be made, in a folder that is there, is fine.
    let fine = folder.join("fine.jsonl");
    std::os::unix::fs::symlink(folder.join("h.jsonl"), &fine).expect("link made");
    computer_games(&fine, 1, 1).assert().success();
    assert_eq!(records(&fine).len(), 1);
}

#[test]
fn replay_stops_at_the_end_and_reports_moves_after_it() {
    let (_dir, log) = log_path("after-end");
    computer_games(&log, 1, 2).assert().success();
    let mut record = only_record(&log);
    let moves = record["moves"].as_array_mut().expect("moves");
    let last = moves.last().expect("a move").clone();
    moves.push(last);
    std::fs::write(&log, record.to_string() + "\n").expect("written");
    tallyho(&log)
        .args(["replay", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("1 more move is logged"));
}

#[test]
fn escapes_in_the_log_reach_the_terminal_as_text() {
    let (_dir, log) = log_path("escapes");
    let v1 = std::fs::read_to_string("tests/data/history-v1.jsonl").expect("v1 log");
    let evil = v1
        .lines()
        .next()
        .expect("a record")
        .replace("\"SWTP\"", "\"\\u001b]0;owned\\u0007\\u001b[2J\"")
        .replace("\"rubbish\"", &format!("\"{}\"", "z".repeat(65_536)));
    std::fs::write(&log, format!("\u{feff}{evil}\n")).expect("written");
    let out = tallyho(&log).arg("history").output().expect("ran");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("\\u{1b}]0;owned"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() < 200), "{text}");
    let out = tallyho(&log).args(["replay", "1"]).output().expect("ran");
    assert!(out.status.success());
    assert!(!out.stdout.contains(&0x1b));
    // The long field is cut, not wrapped over a screenful of lines.
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let long = text.lines().filter(|l| l.contains("zzzz")).count();
    assert!(long < 3, "the long level fills {long} lines");
}

#[test]
fn every_game_of_a_first_release_log_replays() {
    let (_dir, log) = log_path("v1");
    std::fs::copy("tests/data/history-v1.jsonl", &log).expect("copied");
    for n in 1..=6 {
        tallyho(&log)
            .args(["replay", &n.to_string()])
            .assert()
            .success()
            // The 1978 games end in their own words.
            .stdout(predicate::str::contains(" won! ").or(predicate::str::contains(" WIN!")));
    }
    tallyho(&log)
        .arg("history")
        .assert()
        .success()
        .stdout(predicate::str::contains("fox classic"));
}

/// The figures the README quotes for a log of 100,000 games: one append,
/// and the peak memory of `history` and `replay` reading it.
/// `cargo test --release --test log -- --ignored --nocapture scale`
#[test]
#[ignore = "builds a 100,000-game log; run by hand for the README's figures"]
fn scale_of_a_hundred_thousand_games() {
    use tallyho::shell::log::{Log, parse_record};
    let (_dir, log) = log_path("scale");
    let v1 = std::fs::read_to_string("tests/data/history-v1.jsonl").expect("v1 log");
    let record = parse_record(v1.lines().next().expect("a line").as_bytes()).expect("a record");
    let line = serde_json::to_string(&record).expect("json");
    let mut text = String::new();
    for n in 1..=100_000 {
        text.push_str(&line.replacen("\"number\":1,", &format!("\"number\":{n},"), 1));
        text.push('\n');
    }
    std::fs::write(&log, &text).expect("written");
    println!("log: {} MB", text.len() / 1_000_000);
    // A forked child starts with this process's memory: let the log text go first.
    drop(text);
    // The first append also waits for the freshly written file to reach the disk.
    Log::new(log.clone())
        .append(&record, &mut || {})
        .expect("appended");
    let started = std::time::Instant::now();
    let number = Log::new(log.clone())
        .append(&record, &mut || {})
        .expect("appended");
    println!(
        "append to 100,000 games: {:.2} ms (number {number})",
        started.elapsed().as_secs_f64() * 1000.0
    );
    // GNU time reports the child's own peak (a forked child's count would
    // include this process's memory).
    for args in [
        &["history"][..],
        &["history", "--json"][..],
        &["replay", "100002"][..],
    ] {
        let out = StdCommand::new("/usr/bin/time")
            .args(["-f", "%e s, peak %M KB"])
            .arg(env!("CARGO_BIN_EXE_tallyho"))
            .args(args)
            .env("TALLYHO_HISTORY", &log)
            .stdout(Stdio::null())
            .output()
            .expect("GNU time is installed");
        assert!(out.status.success());
        println!(
            "tallyho {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
}

#[test]
fn replay_steps_forward_back_and_to_a_move_and_a_1978_game_keeps_its_board() {
    let (_dir, log) = log_path("step");
    std::fs::copy("tests/data/history-v1.jsonl", &log).expect("copied");
    let out = tallyho(&log)
        .args(["replay", "4", "--step"])
        .write_stdin("n\nb\n3\n\nx\nq\n")
        .output()
        .expect("ran");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    // The 1978 board, line 1 at the top, in its own notation.
    assert!(text.contains(" 1  X H X H X H X H\n"), "{text}");
    assert!(text.contains("1. YOU MOVED FROM 1,2 TO 2,3"), "{text}");
    assert!(
        text.contains("Move 1 of 14. Enter or n: next, b: back, a number: go there, q: quit? b")
    );
    assert!(text.contains("Move 0 of 14."));
    assert!(text.contains("3. YOU MOVED FROM 2,3 TO 3,4"));
    assert!(text.contains("4. I MOVED FROM 7,2 TO 6,1"));
    assert!(
        text.contains("Type Enter or n for the next move, b to go back, a move number 0-14, or q.")
    );
    assert!(!text.contains("5. I MOVED"), "q stopped it");
}

#[test]
fn replay_refuses_a_record_whose_outcome_or_plies_contradict_its_moves() {
    let (_dir, log) = log_path("contradict");
    computer_games(&log, 1, 2).assert().success();
    let record = only_record(&log);
    let winner = record["outcome"]["winner"]
        .as_str()
        .expect("a winner")
        .to_string();
    let other = if winner == "fox" { "hounds" } else { "fox" };
    for (field, value, why) in [
        (
            "winner",
            serde_json::json!(other),
            format!("but it says a {other} win ("),
        ),
        (
            "winner",
            serde_json::Value::Null,
            format!("moves end in a {winner} win ("),
        ),
        (
            "plies",
            serde_json::json!(99),
            "it says 99 plies".to_string(),
        ),
    ] {
        let mut bad = record.clone();
        if field == "plies" {
            bad["plies"] = value;
        } else {
            bad["outcome"]["winner"] = value;
        }
        std::fs::write(&log, bad.to_string() + "\n").expect("written");
        tallyho(&log)
            .args(["replay", "1"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(why));
    }
}

#[test]
fn a_reader_held_up_by_a_pager_never_keeps_a_game_out() {
    let (_dir, log) = log_path("pager");
    let v1 = std::fs::read_to_string("tests/data/history-v1.jsonl").expect("v1 log");
    // Enough games that the table fills the pipe and the reader blocks.
    let many: String = (0..3000)
        .map(|_| v1.lines().next().expect("a line").to_string() + "\n")
        .collect();
    std::fs::write(&log, many).expect("written");
    let mut reader = KillOnDrop(
        StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
            .arg("history")
            .env("TALLYHO_HISTORY", &log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("started"),
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    computer_games(&log, 1, 1)
        .timeout(std::time::Duration::from_secs(5))
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    let _ = reader.kill();
    let _ = reader.wait();
    let text = std::fs::read_to_string(&log).expect("log");
    assert_eq!(text.lines().count(), 3001);
}

/// A session of two computer games on `log`, whose lock another program
/// (the file returned) holds: once the first game is over and its append
/// waits for the lock, as its warning says.
fn waiting_for_the_lock(log: &Path) -> (std::fs::File, KillOnDrop) {
    std::fs::write(log, "").expect("log made");
    let holder = std::fs::File::options()
        .append(true)
        .open(log)
        .expect("log opened");
    holder.lock().expect("lock taken");
    let mut child = KillOnDrop(
        StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["--players", "0", "--level", "rubbish", "--games", "2"])
            .args(["--seed", "1"])
            .env("TALLYHO_HISTORY", log)
            .env("HOME", log.parent().expect("in a folder"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawned"),
    );
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut said = String::new();
    stderr.read_line(&mut said).expect("a warning");
    assert!(said.contains("waiting for another program"), "{said}");
    (holder, child)
}

#[test]
fn a_signal_while_an_append_waits_for_the_lock_still_keeps_the_game() {
    use std::os::unix::process::ExitStatusExt;

    let (_dir, log) = log_path("signal-while-locked");
    // The first game is over and its append waits for the lock: end it.
    let (holder, mut child) = waiting_for_the_lock(&log);
    // SAFETY: kill only sends a signal to the child spawned above.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    holder.unlock().expect("lock let go");
    let status = child.wait().expect("exited");
    assert_eq!(
        status.code().or(status.signal().map(|s| 128 + s)),
        Some(143)
    );
    // The second game may have finished too before the signal's exit won the log.
    let kept = numbers(&records(&log));
    assert_eq!(
        kept.first(),
        Some(&1),
        "the finished game is kept: {kept:?}"
    );
}

/// A script's second SIGINT, while a finished game waits for another
/// program's lock, leaves at once, as a terminal's second Ctrl-C does: the
/// game is not kept, and nothing of it is begun in the log.
#[test]
fn a_scripts_second_sigint_does_not_wait_for_another_programs_lock() {
    use std::os::unix::process::ExitStatusExt;

    let (_dir, log) = log_path("second-sigint-while-locked");
    let (holder, mut child) = waiting_for_the_lock(&log);
    for _ in 0..2 {
        // SAFETY: kill only sends a signal to the child spawned above.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Ended while the lock is still held: it did not wait for it (the
    // log's patience is ten seconds).
    let mut status = None;
    for _ in 0..250 {
        status = child.try_wait().expect("looked at");
        if status.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = status.expect("ended with the lock still held");
    assert_eq!(
        status.code().or(status.signal().map(|s| 128 + s)),
        Some(130)
    );
    drop(holder);
    assert_eq!(std::fs::read_to_string(&log).expect("log"), "");
}

#[test]
fn a_line_numbered_0_is_no_game() {
    let (_dir, log) = log_path("zero");
    computer_games(&log, 2, 3).assert().success();
    let text = std::fs::read_to_string(&log).expect("log");
    std::fs::write(&log, text.replacen("\"number\":1,", "\"number\":0,", 1)).expect("written");
    tallyho(&log)
        .arg("history")
        .assert()
        .success()
        .stderr(predicate::str::contains("skipped 1 damaged line"))
        .stdout(predicate::str::contains("\n  2  "))
        .stdout(predicate::str::contains("\n  0  ").not());
}

#[test]
fn replay_says_a_setup_number_is_too_large_and_what_it_may_be() {
    let (_dir, log) = log_path("too-large");
    computer_games(&log, 1, 3)
        .args(["fish", "--tiles", "random"])
        .assert()
        .success();
    let record = only_record(&log);
    for (key, value, said) in [
        (
            "seed",
            "18446744073709551616",
            "the setup's seed: \"18446744073709551616\" is too large: a seed is 0 to 18446744073709551615",
        ),
        (
            "penguins",
            "99999999999",
            "the setup's penguins: \"99999999999\" is too large: a player has 1 to 4",
        ),
    ] {
        let mut bad = record.clone();
        bad["setup"][key] = serde_json::json!(value);
        std::fs::write(&log, bad.to_string() + "\n").expect("written");
        tallyho(&log)
            .args(["replay", "1"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!("error: game 1 cannot be replayed: {said}\n"));
    }
}

#[test]
fn repeated_numbers_and_impossible_dates_are_warned_of_line_by_line() {
    let (_dir, log) = log_path("doubts");
    computer_games(&log, 2, 3).assert().success();
    let all = records(&log);
    // Line 3 is game 1 again, dated in a month 13; line 4 is game 3, dated
    // 30 February.
    let mut again = all[0].clone();
    again["date"] = "2026-13-01T10:00:00Z".into();
    let mut third = all[1].clone();
    third["number"] = 3.into();
    third["date"] = "2025-02-30T12:00:00Z".into();
    let lines: Vec<String> = [&all[0], &all[1], &again, &third]
        .iter()
        .map(|r| r.to_string() + "\n")
        .collect();
    std::fs::write(&log, lines.concat()).expect("written");
    let shown = log.display().to_string();
    let expected = format!(
        "tallyho: warning: game 1 (line 3 of {shown}) is dated \"2026-13-01T10:00:00Z\": there is no month 13: months are 01-12\n\
         tallyho: warning: line 3 of {shown} is numbered 1, as an earlier game is: replay 1 shows the first\n\
         tallyho: warning: game 3 (line 4 of {shown}) is dated \"2025-02-30T12:00:00Z\": February 2025 has days 01-28, not 30\n"
    );
    // Every game is still listed, and each problem said once.
    let output = tallyho(&log).arg("history").output().expect("ran");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().count(),
        5,
        "a header and four games: {stdout}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), expected);
    let output = tallyho(&log)
        .args(["history", "--json"])
        .output()
        .expect("ran");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), expected);
    // A replay says what is wrong with its own game only.
    tallyho(&log)
        .args(["replay", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Game 1, 20"))
        .stderr(format!(
            "tallyho: warning: game 1 is in {shown} more than once, on line 1 and again on line 3: this is line 1's\n"
        ));
    tallyho(&log)
        .args(["replay", "2"])
        .assert()
        .success()
        .stderr("");
    tallyho(&log)
        .args(["replay", "3"])
        .assert()
        .success()
        .stderr(format!(
            "tallyho: warning: game 3 (line 4 of {shown}) is dated \"2025-02-30T12:00:00Z\": February 2025 has days 01-28, not 30\n"
        ));
}

#[test]
fn a_log_of_many_problems_is_warned_of_in_a_few_lines() {
    let (_dir, log) = log_path("many-doubts");
    computer_games(&log, 1, 3).assert().success();
    let line = std::fs::read_to_string(&log).expect("log");
    // 20,000 copies of game 1: 19,999 repeats.
    std::fs::write(&log, line.repeat(20_000)).expect("written");
    let output = tallyho(&log).arg("history").output().expect("ran");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().count(), 20_001);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said: Vec<&str> = stderr.lines().collect();
    assert_eq!(said.len(), 11, "{stderr}");
    let shown = log.display().to_string();
    assert_eq!(
        said[0],
        format!(
            "tallyho: warning: line 2 of {shown} is numbered 1, as an earlier game is: replay 1 shows the first"
        )
    );
    assert_eq!(
        said[10],
        format!(
            "tallyho: warning: 19989 more problems of these kinds (a number used before, a date that cannot be) in {shown} are not listed"
        )
    );
}
