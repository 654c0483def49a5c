//! The command line end to end: options, colour decisions, exit statuses and
//! closed pipes, through the real binary.

use std::io::{Read, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

fn tallyho() -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    let home = std::env::temp_dir().join(format!("tallyho-cli-{}", std::process::id()));
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TALLYHO_HISTORY")
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"));
    cmd
}

const TWO: [&str; 4] = ["--players", "2", "--names", "a,b"];

#[test]
fn a_pipe_gets_letters_and_no_escape_codes() {
    tallyho()
        .args(TWO)
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("8 F X O X O X O X"))
        .stdout(predicate::str::contains("\u{1b}").not());
}

#[test]
fn color_always_colours_a_pipe_and_never_wins_over_the_environment() {
    tallyho()
        .args(TWO)
        .args(["--color", "always"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{1b}["));
    tallyho()
        .args(TWO)
        .env("CLICOLOR_FORCE", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}["));
    tallyho()
        .args(TWO)
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}").not());
    tallyho()
        .args(TWO)
        .args(["--color", "never"])
        .env("CLICOLOR_FORCE", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}").not());
}

#[test]
fn bad_options_are_usage_errors_with_status_2() {
    tallyho()
        .args(["--board", "5x5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the width must be 4, 6 or 8"));
    tallyho()
        .args(["--fox-start", "B8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--fox-start: the fox cannot start on B8: it starts on a dark square of the top row (A8, C8, E8, G8)",
        ));
    tallyho()
        .args(["--names", "a,b,c"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--names: give one or two names"));
    tallyho()
        .args(["--rules", "chess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a rule set"));
}

#[test]
fn options_set_the_board_rules_and_first_mover() {
    tallyho()
        .args(TWO)
        .args(["--board", "8x7", "--first", "hounds", "--rules", "escape"])
        .write_stdin("help\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Hound (b) next"))
        .stdout(predicate::str::contains("7 X F X O X O X O"))
        .stdout(predicate::str::contains("(8x7 board, escape rules)"));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(TWO)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("started");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    // Whether or not tallyho is still reading, a broken pipe here is fine.
    let _ = stdin.write_all("help\n".repeat(1000).as_bytes());
    drop(stdin);
    let status = child.wait().expect("exited");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read");
    assert!(status.success(), "status {status:?}, stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
