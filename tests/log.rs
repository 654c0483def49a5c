//! The game log through the real binary: concurrent processes, damaged lines,
//! `history`, `replay`, and a reader that closes the pipe early.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

/// A fresh, private log file for one test.
fn log_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tallyho-log-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("history.jsonl")
}

fn tallyho(log: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TALLYHO_HISTORY", log)
        .env("HOME", log.parent().expect("in a folder"));
    cmd
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
    let log = log_path("concurrent");
    let games = 40;
    let spawn = |seed: &str| {
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
            .expect("started")
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
    let log = log_path("damaged");
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
fn replay_prints_every_move_and_refuses_an_unknown_game() {
    let log = log_path("replay");
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
    assert!(text.contains(&format!("Move {plies}: ")));
    assert!(text.trim_end().ends_with('.'));
    assert!(text.contains(" won! "), "{text}");
    tallyho(&log)
        .args(["replay", "7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 7"));
}

#[test]
fn history_into_a_closed_pipe_exits_quietly() {
    let log = log_path("pipe");
    tallyho(&log)
        .args([
            "--players",
            "0",
            "--level",
            "rubbish",
            "--games",
            "1",
            "--seed",
            "3",
        ])
        .assert()
        .success();
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
    let log = log_path("none");
    tallyho(&log)
        .args([
            "--players",
            "0",
            "--level",
            "rubbish",
            "--games",
            "2",
            "--no-history",
        ])
        .assert()
        .success();
    assert!(!log.exists());

    let blocked = log.parent().expect("folder").join("file-not-folder");
    std::fs::write(&blocked, "").expect("a file");
    let output = tallyho(&blocked.join("history.jsonl"))
        .args(["--players", "0", "--level", "rubbish", "--games", "3"])
        .output()
        .expect("ran");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("warning: this game was not kept").count(),
        3,
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("Final score"));
}
