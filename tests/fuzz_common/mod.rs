//! What the fuzz tests of whole sessions share: a cut-off input stream, a
//! session run on a thread so that a hang fails the test, and the number of
//! cases.

use std::io::{self, Cursor, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use proptest::prelude::*;
use tallyho::shell::console::Console;

/// An output the test keeps a handle on while the session writes to it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A whole input stream of up to `most` lines of `line`, cut off anywhere
/// (in the middle of a line too).
pub fn stream(line: impl Strategy<Value = Vec<u8>>, most: usize) -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(line, 0..most),
        any::<proptest::sample::Index>(),
    )
        .prop_map(|(lines, cut)| {
            let mut bytes = Vec::new();
            for l in lines {
                bytes.extend_from_slice(&l);
                bytes.push(b'\n');
            }
            let keep = if bytes.is_empty() {
                0
            } else {
                cut.index(bytes.len() + 1)
            };
            bytes.truncate(keep);
            bytes
        })
}

/// Runs a session on a scripted console fed `input`, on a thread of its
/// own, so that a hang fails the test instead of stalling it: what it
/// wrote, or why it did not end well.
pub fn run_session<T>(
    input: Vec<u8>,
    session: impl FnOnce(&mut Console) -> io::Result<T> + Send + 'static,
) -> Result<String, String> {
    let out = Shared::default();
    let sink = out.clone();
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let mut console = Console::scripted(Box::new(Cursor::new(input)), Box::new(sink), false);
        let result = session(&mut console);
        let _ = done.send(result.map(|_| ()).map_err(|e| e.to_string()));
    });
    match finished.recv_timeout(Duration::from_secs(120)) {
        Ok(Ok(())) => Ok(String::from_utf8_lossy(&out.0.lock().expect("not poisoned")).to_string()),
        Ok(Err(e)) => Err(format!("session failed: {e}")),
        Err(mpsc::RecvTimeoutError::Timeout) => Err("session did not end in time".into()),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("session panicked".into()),
    }
}

/// How many cases: `TALLYHO_FUZZ_CASES`, or `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("TALLYHO_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
