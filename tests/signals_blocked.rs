//! A signal that ends a session ends it even while standard output is
//! blocked (a pipe nobody reads): leaving never waits on the output.

use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

#[test]
fn sigterm_ends_a_session_whose_output_nobody_reads() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["draughts", "--players", "0", "--games", "100000"])
        .args(["--level", "rubbish", "--no-history", "--seed", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tallyho started");
    // Nobody reads the pipe: within a moment it is full and every write blocks.
    thread::sleep(Duration::from_secs(2));
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill ran");
    assert!(sent.success());
    let asked = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waited") {
            break Some(status);
        }
        if asked.elapsed() > Duration::from_secs(5) {
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("tallyho was still running 5 s after SIGTERM");
    };
    assert_eq!(status.code(), Some(143));
}

#[test]
fn ctrl_c_ends_a_scripted_session_with_the_score_and_130() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args([
            "fish",
            "--players",
            "2",
            "--names",
            "Ann,Bob",
            "--no-history",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tallyho started");
    // The script's pipe stays open: tallyho waits at its first question.
    let input = child.stdin.take();
    thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill ran");
    assert!(sent.success());
    let out = child.wait_with_output().expect("tallyho ended");
    drop(input);
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Final score: Ann:0 - Bob:0"), "{stdout}");
}
