//! Helpers shared by the draughts tests of the real binary: a private home,
//! the binary in it, two people playing typed lines, and the log as PDN.

#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;

use crate::scratch::Scratch;

/// A folder of its own for one test, removed when dropped: `group` names
/// the test file.
pub fn folder(group: &str, name: &str) -> Scratch {
    Scratch::new(&format!("{group}-{name}"))
}

/// The binary with a private home and game log, its colour decided only
/// by its output (not a terminal here), and a minute to finish.
pub fn tallyho(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TALLYHO_HISTORY", home.join("history.jsonl"))
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// Ann and Bob play one game of draughts typing `input`, from the game in
/// `file` if given: the exit status, stdout and stderr.
pub fn play(home: &Path, file: Option<&Path>, input: &str) -> (Option<i32>, String, String) {
    let mut cmd = tallyho(home);
    cmd.args(["draughts", "--players", "2", "--names", "Ann,Bob"])
        .args(["--games", "1"]);
    if let Some(file) = file {
        cmd.arg("--load").arg(file);
    }
    let out = cmd.write_stdin(input).output().expect("ran");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// The log's games as PDN (`tallyho history --pdn`), which must succeed.
pub fn exported(home: &Path) -> String {
    let out = tallyho(home)
        .args(["history", "--pdn"])
        .output()
        .expect("ran");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}
