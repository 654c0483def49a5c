//! `tallyho draughts perft` on a count that would run for days: it says so
//! early, and Ctrl-C stops it with the counts so far whole and status 130.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod scratch;
use scratch::{KillOnDrop, Scratch};

#[test]
fn a_long_perft_says_so_and_ctrl_c_stops_it() {
    let home = Scratch::new("perft");
    // Killed if the test fails before its Ctrl-C: depth 20 would run for days.
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["draughts", "perft", "20"])
            .env("HOME", &home)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("started"),
    );
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    // Standard error is read on a thread, so the warning can be awaited
    // with a bound and never races the Ctrl-C.
    let (said, heard) = std::sync::mpsc::channel();
    let err = BufReader::new(child.stderr.take().expect("stderr"));
    let reader = std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            if said.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let started = Instant::now();
    // Depth 13 takes about a second; 20 would take days.
    while !lines.iter().any(|l: &String| l.starts_with("perft(12)")) {
        let mut line = String::new();
        if out.read_line(&mut line).expect("read") == 0 {
            break;
        }
        lines.push(line.trim_end().to_string());
        assert!(started.elapsed() < Duration::from_secs(120), "{lines:?}");
    }
    assert_eq!(
        lines.last().map(String::as_str),
        Some("perft(12) = 388623673")
    );
    // The warning comes once a depth has been timed growing fast: after
    // depth 11 or 12, before the long ones.
    let warning = heard
        .recv_timeout(Duration::from_secs(120))
        .expect("a warning before the long depths");
    assert!(
        warning.starts_with("perft: depths ") && warning.contains("-20 would take about "),
        "{warning}"
    );
    assert!(
        ["hours", "days", "years"]
            .iter()
            .any(|unit| warning.contains(unit)),
        "{warning}"
    );
    assert!(warning.ends_with("Ctrl-C stops it."), "{warning}");
    let pid = i32::try_from(child.id()).expect("a pid");
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let status = child.wait().expect("ended");
    let mut rest = String::new();
    out.read_to_string(&mut rest).expect("read");
    reader.join().expect("stderr read");
    let err: Vec<String> = heard.try_iter().collect();
    assert_eq!(status.code(), Some(130), "{err:?}");
    // Every line printed is a whole count.
    for line in rest.lines() {
        assert!(line.starts_with("perft(1"), "{line}");
    }
    let mut said = err.iter().map(String::as_str);
    let stopped = said.next().unwrap_or_default();
    assert!(
        stopped.starts_with("perft: stopped by Ctrl-C while counting depth 1")
            && stopped.ends_with("; the counts above are whole."),
        "{err:?}"
    );
}

#[test]
fn a_short_perft_says_nothing_of_time() {
    let out = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["draughts", "perft", "40", "W:WK1:BK32"])
        .output()
        .expect("ran");
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 40);
}

#[test]
fn a_full_standard_error_does_not_stop_the_count() {
    let home = Scratch::new("perft-full");
    // The warning about time goes to a standard error that takes nothing:
    // the count goes on past it, and Ctrl-C still stops it.
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["draughts", "perft", "20"])
            .env("HOME", &home)
            .stdout(Stdio::piped())
            .stderr(
                std::fs::File::options()
                    .write(true)
                    .open("/dev/full")
                    .expect("/dev/full"),
            )
            .spawn()
            .expect("started"),
    );
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let started = Instant::now();
    let mut last = String::new();
    // The warning is written after depth 12, before depth 13 is counted.
    while !last.starts_with("perft(13)") {
        last.clear();
        if out.read_line(&mut last).expect("read") == 0 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{last}");
    }
    assert_eq!(last.trim_end(), "perft(13) = 1766623630");
    let pid = i32::try_from(child.id()).expect("a pid");
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    assert_eq!(child.wait().expect("ended").code(), Some(130));
}
