//! `tallyho draughts engine` as a match tool sees it, through the real
//! binary on pipes: a long search ends at once on `stop` or `quit`, and
//! `isready` is answered while it runs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

mod draughts_common;
mod scratch;

use scratch::Scratch;

/// Far more than any answer here takes, so that no test is flaky; a search
/// that waited for its `movetime` would take a minute.
const PATIENCE: Duration = Duration::from_secs(10);

/// A position out of the book with a choice of moves: the engine searches.
const SEARCHED: &str = "position fen W:W21,22,23,24,25:B5,9,10,11,12";

/// The engine on pipes, killed when dropped (a failed test leaves nothing).
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    _home: Scratch,
}

impl Engine {
    fn start(name: &str) -> Engine {
        let home = draughts_common::folder("engine-mode", name);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["draughts", "engine", "--threads", "1"])
            .env("HOME", &*home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("TALLYHO_HISTORY", home.join("history.jsonl"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let input = child.stdin.take().expect("piped stdin");
        let output = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
            _home: home,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.input, "{text}").expect("the engine reads");
        self.input.flush().expect("the engine reads");
    }

    /// The next line, which must come within [`PATIENCE`].
    fn next(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("an answer within ten seconds")
    }

    /// The next line that is not `info`.
    fn answer(&self) -> String {
        loop {
            let line = self.next();
            if !line.starts_with("info ") {
                return line;
            }
        }
    }

    /// Whether the engine ended (its output closed) within [`PATIENCE`].
    fn ended(&self) -> bool {
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(_) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return true,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return false,
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn stop_ends_a_long_search_with_a_move_and_isready_is_answered_meanwhile() {
    let mut engine = Engine::start("stop");
    engine.send(SEARCHED);
    engine.send("go movetime 60000");
    engine.send("isready");
    assert_eq!(engine.answer(), "readyok");
    engine.send("stop");
    let best = engine.answer();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove none",
        "{best}"
    );
    // The engine goes on as before.
    engine.send("perft 1");
    assert_eq!(engine.answer(), "perft 1 7");
    engine.send("quit");
    assert!(engine.ended(), "quit ends the program");
}

#[test]
fn quit_during_a_long_search_ends_the_program() {
    let mut engine = Engine::start("quit");
    engine.send(SEARCHED);
    engine.send("go movetime 60000");
    engine.send("quit");
    assert!(engine.ended(), "quit ends the search and the program");
}

/// A search that outlives its input ends once nobody can read its answer
/// (the program that started the engine has gone), rather than running for
/// the day its `movetime` asks; while someone reads, it is answered.
#[test]
fn a_search_past_the_end_of_the_input_ends_when_its_reader_goes() {
    let home = draughts_common::folder("engine-mode", "reader-gone");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["draughts", "engine", "--threads", "1", "--no-book"])
        .env("HOME", &*home)
        .env("XDG_DATA_HOME", home.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("piped stdin");
    let output = child.stdout.take().expect("piped stdout");
    writeln!(input, "{SEARCHED}\ngo movetime 86400000").expect("the engine reads");
    drop(input);
    // Its reader reads a little, then goes.
    std::thread::sleep(Duration::from_millis(300));
    drop(output);
    let start = std::time::Instant::now();
    let ended = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break Some(status);
        }
        if start.elapsed() > PATIENCE {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(ended.is_some(), "the search ran on with nobody to read it");
}
