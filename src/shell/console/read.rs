//! Reading lines: capped in length, checked as text, and from a terminal
//! without line editing in short slices, so Ctrl-C is seen at once.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{BadLine, Reply};
use crate::shell::lines::AnyNewline;

/// The terminal's width in columns, if stdout is a terminal.
pub fn terminal_columns() -> Option<usize> {
    terminal_size::terminal_size_of(rustix::stdio::stdout())
        .map(|(terminal_size::Width(w), _)| usize::from(w))
        .filter(|&w| w > 0)
}

/// The width of the terminal stderr writes to, if it is one.
pub fn error_columns() -> Option<usize> {
    terminal_size::terminal_size_of(rustix::stdio::stderr())
        .map(|(terminal_size::Width(w), _)| usize::from(w))
        .filter(|&w| w > 0)
}

/// The terminal's height in rows, if stdout is a terminal.
pub fn terminal_rows() -> Option<usize> {
    terminal_size::terminal_size_of(rustix::stdio::stdout())
        .map(|(_, terminal_size::Height(h))| usize::from(h))
        .filter(|&h| h > 0)
}

/// Takes a line's bytes as text, refusing what no game should see. A Tab
/// separates words as a space does, and is read as one: nothing after
/// shows it (`say` and `tell` pass words on as typed).
pub(super) fn check(bytes: Vec<u8>, cap: usize) -> Reply {
    if bytes.len() > cap {
        return Reply::Bad(BadLine::TooLong(bytes.len(), cap));
    }
    match String::from_utf8(bytes) {
        Err(_) => Reply::Bad(BadLine::NotUtf8),
        Ok(line) if line.chars().any(|c| c.is_control() && c != '\t') => {
            Reply::Bad(BadLine::Control)
        }
        Ok(line) => Reply::Line(line.replace('\t', " ")),
    }
}

/// Standard input for a person at a terminal without line editing. The
/// signal thread only notes Ctrl-C, and a blocked read would go on waiting
/// for Enter, so this waits for input in short slices and reads Ctrl-C (the
/// `stop` flag) as the end of input: the player leaves, as with Ctrl-D.
pub(super) struct WatchedStdin {
    /// Set when the player presses Ctrl-C.
    pub(super) stop: Arc<AtomicBool>,
}

impl io::Read for WatchedStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let stdin = rustix::stdio::stdin();
        let slice = Timespec {
            tv_sec: 0,
            tv_nsec: 50_000_000,
        };
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(0);
            }
            let mut wanted = [PollFd::new(&stdin, PollFlags::IN)];
            match poll(&mut wanted, Some(&slice)) {
                Ok(0) => continue,
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
            // The descriptor itself, not std's buffered stdin: no input is
            // left buffered where poll cannot see it.
            match rustix::io::read(stdin, &mut *buf) {
                Ok(read) => return Ok(read),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// Reads one line without its line ending (LF, CRLF or a lone CR, a line
/// ended by a CR returned at once), keeping at most `cap` bytes of it (plus
/// one, to tell it was longer) and skipping the rest; also returns its whole
/// length. `None` at end of input.
pub(super) fn read_capped(
    input: &mut dyn BufRead,
    newlines: &mut AnyNewline,
    cap: usize,
) -> io::Result<Option<(Vec<u8>, usize)>> {
    let line = newlines.read(input, cap)?;
    Ok(line.map(|l| (l.kept, l.length)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_is_read_as_a_space_and_other_controls_are_refused() {
        assert!(matches!(
            check(b"say a\tb".to_vec(), 100),
            Reply::Line(line) if line == "say a b"
        ));
        assert!(matches!(
            check(b"say a\x1bb".to_vec(), 100),
            Reply::Bad(BadLine::Control)
        ));
    }
}
