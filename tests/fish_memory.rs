//! The penguin game's searches fit a short machine: under a limit on
//! address space that two fixed 128 MB tables once overran (the process
//! aborted with SIGABRT, status 134), `analyse` answers and a game with
//! hints plays on.

#![cfg(target_os = "linux")]

use std::process::Command;

mod scratch;
use scratch::Scratch;

/// Runs tallyho with `args` under `ulimit -v` of `kb` kilobytes, with a
/// private log directory named by `tag`; returns the status code and
/// standard output.
fn limited(tag: &str, kb: u32, args: &str, input: &str) -> (Option<i32>, String) {
    // A folder for each call: the tests run at once, and each removes its own.
    let dir = Scratch::new(&format!("fish-memory-{tag}"));
    let script = format!(
        "ulimit -v {kb} && printf '{input}' | exec \"$0\" {args}",
        kb = kb,
        input = input,
        args = args
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tallyho"))
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .env("TALLYHO_HISTORY", dir.join("history.jsonl"))
        .output()
        .expect("sh runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn analyse_answers_under_150_mb_of_address_space() {
    let (code, out) = limited(
        "analyse",
        150_000,
        "fish analyse --think 200 '.111../122221/12..21/12..21/122221/.11111 P:6,2 A:6,5 points:1+3+3+1/1+3+3+1 next:P'",
        "",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Value:"), "{out}");
}

#[test]
fn a_game_with_hints_plays_under_150_mb_of_address_space() {
    // P, then a hint and a start tile, a hint and a move: two searches.
    let (code, out) = limited(
        "hints",
        150_000,
        "fish --players 1 --level overpowered --think 100 --games 1 --names Ann",
        "P\\nhint\\n1 1\\nhint\\nquit\\n",
    );
    assert!(code.is_some_and(|c| c != 134), "{code:?} {out}");
    assert_eq!(out.matches("Hint:").count(), 2, "{out}");
}
