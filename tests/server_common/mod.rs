//! Helpers shared by the server's tests: what a client has been shown, read
//! a piece at a time, and the seek number a sentence names.

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
