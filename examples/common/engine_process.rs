//! An engine that speaks the engine-mode protocol, run as a process: the
//! draughts examples that play or question engines (`draughts_match`,
//! `draughts_review`) share it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// An engine process: its input, and its output lines arriving on a channel.
pub struct Engine {
    pub name: &'static str,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// The `info` line said before the last answer, if any.
    pub info: Option<String>,
}

impl Engine {
    pub fn start(name: &'static str, command: &str) -> Result<Engine, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            name,
            child,
            input,
            lines: rx,
            info: None,
        };
        e.send("isready")?;
        // The first `isready` waits for the engine's database.
        e.expect("readyok", Duration::from_secs(600))?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("engine {}: {e}", self.name))
    }

    /// The first line starting with `word`, within `timeout`.
    pub fn expect(&mut self, word: &str, timeout: Duration) -> Result<String, String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(word) => return Ok(line),
                Ok(line) if line.starts_with("info ") => self.info = Some(line),
                Ok(line) if line.starts_with("error") => {
                    return Err(format!("engine {} said: {line}", self.name));
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("engine {} did not answer in time", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("engine {} has gone", self.name));
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(50));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
