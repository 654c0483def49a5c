//! Helpers shared by the server's tests: what a client has been shown, read
//! a piece at a time, the seek number a sentence names, two players seeking
//! and accepting, and a server that stops when dropped. The OpenSSH client,
//! `tallyho serve` as a child process and the store's own tests have
//! modules of their own.

#![allow(dead_code)]

pub mod keyed;
pub mod openssh;
pub mod process;
pub mod store;

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::Value;

use tallyho::server::limits::Limits;
use tallyho::server::store::{Store, StoreError};
use tallyho::server::{self, Config, Rules, Running};

/// What a client has been shown, and how far the test has read it.
#[derive(Default)]
pub struct Transcript {
    seen: String,
    read: usize,
}

impl Transcript {
    /// Adds what just arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        self.seen.push_str(&String::from_utf8_lossy(bytes));
    }

    /// Everything up to and including `text`, if it has arrived since the
    /// last take; the reading goes on after it.
    pub fn take(&mut self, text: &str) -> Option<String> {
        let at = self.seen[self.read..].find(text)?;
        let upto = self.read + at + text.len();
        let got = self.seen[self.read..upto].to_string();
        self.read = upto;
        Some(got)
    }

    /// What has arrived and is not yet read.
    pub fn unread(&self) -> &str {
        &self.seen[self.read..]
    }

    /// Adds what comes from `from` until `text` has arrived since the last
    /// take, for at most `patience`; everything up to and including it.
    pub fn wait_in(&mut self, from: &Receiver<Vec<u8>>, text: &str, patience: Duration) -> String {
        let end = Instant::now() + patience;
        loop {
            if let Some(got) = self.take(text) {
                return got;
            }
            let left = end.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "waited for {text:?}; got {:?}",
                self.unread()
            );
            if let Ok(bytes) = from.recv_timeout(left.min(Duration::from_millis(100))) {
                self.push(&bytes);
            }
        }
    }
}

/// How long a client waits for what it expects before the test fails.
const CLIENT_PATIENCE: Duration = Duration::from_secs(30);

/// A client of the line door, reading what it is shown a piece at a time.
pub struct Client {
    pub stream: TcpStream,
    pub shown: Transcript,
}

impl Client {
    pub fn connect(addr: impl ToSocketAddrs) -> Client {
        let stream = TcpStream::connect(addr).expect("the door takes a connection");
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .expect("a read timeout");
        Client {
            stream,
            shown: Transcript::default(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("the line is sent");
    }

    /// Reads until `text` has arrived since the last wait; everything up
    /// to and including it.
    pub fn wait_for(&mut self, text: &str) -> String {
        let end = Instant::now() + CLIENT_PATIENCE;
        loop {
            if let Some(got) = self.shown.take(text) {
                return got;
            }
            assert!(
                Instant::now() < end,
                "waited for {text:?}; got {:?}",
                self.shown.unread()
            );
            let mut buf = [0; 65536];
            match self.stream.read(&mut buf) {
                Ok(0) => panic!(
                    "closed while waiting for {text:?}; got {:?}",
                    self.shown.unread()
                ),
                Ok(n) => self.shown.push(&buf[..n]),
                Err(_) => {}
            }
        }
    }

    /// The next JSON event. The echo of `proto json`, the last line of
    /// the scripted dialect, is passed over.
    pub fn event(&mut self) -> Value {
        loop {
            let line = self.wait_for("\n");
            if line.trim() == "proto json" {
                continue;
            }
            return serde_json::from_str(line.trim())
                .unwrap_or_else(|e| panic!("not an event: {line:?}: {e}"));
        }
    }

    /// The next JSON event named `name`, and every event before it.
    pub fn events_to(&mut self, name: &str) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let event = self.event();
            let done = event["event"] == name;
            seen.push(event);
            if done {
                return seen;
            }
        }
    }

    /// The next event named `name`, skipping others.
    pub fn event_named(&mut self, name: &str) -> Value {
        loop {
            let event = self.event();
            if event["event"] == name {
                return event;
            }
        }
    }

    /// A client of the line door at `addr`, once it has been shown the
    /// lobby's first prompt.
    pub fn arrive(addr: impl ToSocketAddrs) -> Client {
        let mut client = Client::connect(addr);
        client.wait_for("> ");
        client
    }

    /// Takes the name `handle`, as a guest may.
    pub fn take_name(&mut self, handle: &str) {
        self.send(&format!("name {handle}"));
        self.wait_for(&format!("You are {handle}."));
    }

    /// Turns to the machine dialect; the welcome event it answers with.
    pub fn speak_json(&mut self) -> Value {
        self.send("proto json");
        self.event_named("welcome")
    }
}

/// Someone in the scripted dialect, at either door: lines typed, and text
/// waited for.
pub trait Speaker {
    /// Types `line`.
    fn send(&mut self, line: &str);

    /// Waits until `text` has come; everything up to and including it.
    fn wait_for(&mut self, text: &str) -> String;
}

impl Speaker for Client {
    fn send(&mut self, line: &str) {
        Client::send(self, line);
    }

    fn wait_for(&mut self, text: &str) -> String {
        Client::wait_for(self, text)
    }
}

/// `seeker` seeks a game of Fox and Hounds as the fox, in the scripted
/// dialect, and `taker` accepts it: the seek's number.
pub fn fox_seek_taken(seeker: &mut impl Speaker, taker: &mut impl Speaker) -> String {
    seeker.send("seek fox --side fox");
    let n = seek_number(&seeker.wait_for(" is open: fox ("));
    taker.send(&format!("accept {n}"));
    n
}

/// The number in "Seek N is open", the last such sentence of `said`.
pub fn seek_number(said: &str) -> String {
    said.rsplit("Seek ")
        .next()
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}

/// A test's rules: a player who left has `grace` to come back, and the
/// computer thinks for a twentieth of a second.
pub fn quick_rules(grace: Duration) -> Rules {
    Rules {
        grace,
        think: Duration::from_millis(50),
    }
}

/// A server in this process, stopped when dropped (its doors closed, its
/// thread joined, its store closed or a second waited for it), so nothing
/// is still writing to its data folder when the folder goes.
pub struct Serving(Option<Running>);

impl Serving {
    pub fn start(config: Config) -> Serving {
        Serving(Some(server::start(config).expect("the server starts")))
    }

    /// A server on loopback keeping its data in `data`, with only its line
    /// door open, on a port the system picks.
    pub fn lines(data: PathBuf, limits: Limits, rules: Rules) -> Serving {
        Serving::start(Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            ssh_port: None,
            line_port: Some(0),
            data,
            limits,
            rules,
        })
    }

    /// A server on loopback keeping its data in `data`, with only its ssh
    /// door open, on a port the system picks, and the default limits.
    pub fn ssh(data: PathBuf, rules: Rules) -> Serving {
        Serving::start(Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            ssh_port: Some(0),
            line_port: None,
            data,
            limits: Limits::default(),
            rules,
        })
    }

    /// The line door's address.
    pub fn line_door(&self) -> SocketAddr {
        self.lines.expect("the line door is open")
    }

    /// The ssh door's port.
    pub fn ssh_port(&self) -> u16 {
        self.ssh.expect("the ssh door is open").port()
    }

    /// Stops the server now rather than at the end of the test.
    pub fn stop(self) {}
}

impl Deref for Serving {
    type Target = Running;

    fn deref(&self) -> &Running {
        self.0.as_ref().expect("running until dropped")
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(running) = self.0.take() {
            let data = running.server().data_dir().to_path_buf();
            running.stop();
            closed(&data);
        }
    }
}

/// Waits, a second at most, until no server holds the store in `data`. A
/// stopped server's sessions end on threads of their own within moments,
/// holding the store as they go; a grace timer's thread holds it until its
/// time is up, too long to wait for (and it writes nothing).
pub fn closed(data: &Path) {
    let end = Instant::now() + Duration::from_secs(1);
    while let Err(StoreError::InUse(_)) = Store::open(data) {
        if Instant::now() > end {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for a program in a pseudo-terminal (`join`) to end, and checks
/// that it ended with status 0: `why` says why it should have.
pub fn ends_with_status_0(
    session: &mut expectrl::session::OsSession,
    why: &str,
) -> Result<(), expectrl::Error> {
    use expectrl::Expect;
    use expectrl::process::unix::WaitStatus;
    session.expect(expectrl::Eof)?;
    let pid = session.get_process().pid();
    let status = session.get_process().wait().expect("it can be waited for");
    assert_eq!(status, WaitStatus::Exited(pid, 0), "{why}");
    Ok(())
}

/// The lines a reader gives, on a thread of their own.
pub fn lines(reader: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// `tallyho join ADDR` as a child process, its input and output on pipes
/// (its standard error thrown away), killed when dropped.
pub fn piped_join(addr: &str) -> crate::scratch::KillOnDrop {
    crate::scratch::KillOnDrop(
        std::process::Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["join", addr])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("tallyho join starts"),
    )
}
