//! The signals that end a session, run against the real binary over pipes:
//! they end it promptly whatever its output is doing.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod scratch;
use scratch::{Housed, KillOnDrop, Scratch};

/// tallyho with `args`, its own home, stdin and stdout on pipes; killed,
/// then its home removed, when dropped.
fn spawn(tag: &str, args: &[&str]) -> Housed<KillOnDrop> {
    let home = Scratch::unmade(&format!("sig-{tag}"));
    let child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(args)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tallyho starts");
    Housed::new(KillOnDrop(child), home)
}

/// Waits for the child to end, at most `limit`; its exit code, if it ended.
fn ended_within(child: &mut Child, limit: Duration) -> Option<Option<i32>> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return Some(status.code());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn signal(child: &Child, signal: i32) {
    let pid = i32::try_from(child.id()).expect("a pid fits an i32");
    // SAFETY: sends a signal to a process this test started.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

#[test]
fn a_terminating_signal_ends_a_session_whose_output_nobody_reads() {
    // SIGTERM is in tests/signals_blocked.rs; a dropped ssh connection
    // (SIGHUP) and SIGQUIT must do the same.
    for (number, name) in [(libc::SIGHUP, "HUP"), (libc::SIGQUIT, "QUIT")] {
        let mut child = spawn(
            &format!("blocked-{name}"),
            &[
                "draughts",
                "--players",
                "0",
                "--games",
                "100000",
                "--level",
                "rubbish",
                "--no-history",
            ],
        );
        // Nobody reads stdout: the pipe fills and the game blocks writing.
        std::thread::sleep(Duration::from_secs(1));
        signal(&child, number);
        // The bound is loose for a busy machine; before the fix it hung for good.
        assert_eq!(
            ended_within(&mut child, Duration::from_secs(10)),
            Some(Some(128 + number)),
            "SIG{name} ends the session while its output is blocked"
        );
    }
}
