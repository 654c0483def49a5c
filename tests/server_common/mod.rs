//! Helpers shared by the server's tests: what a client has been shown, read
//! a piece at a time, the seek number a sentence names, and a server that
//! stops when dropped.

#![allow(dead_code)]

use std::ops::Deref;
use std::path::Path;
use std::time::{Duration, Instant};

use tallyho::server::store::{Store, StoreError};
use tallyho::server::{self, Config, Running};

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

/// A server in this process, stopped when dropped (its doors closed, its
/// thread joined, its store closed or a second waited for it), so nothing
/// is still writing to its data folder when the folder goes.
pub struct Serving(Option<Running>);

impl Serving {
    pub fn start(config: Config) -> Serving {
        Serving(Some(server::start(config).expect("the server starts")))
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
/// and one may still keep a guest's game in the store and the log as it
/// goes; a grace timer's thread holds the store until its time is up, too
/// long to wait for (and it writes nothing).
pub fn closed(data: &Path) {
    let end = Instant::now() + Duration::from_secs(1);
    while let Err(StoreError::InUse(_)) = Store::open(data) {
        if Instant::now() > end {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
