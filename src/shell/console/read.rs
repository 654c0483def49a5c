//! Reading lines: rustyline at a terminal, plain lines otherwise, each
//! capped at [`MAX_LINE`] bytes and checked before any game sees it.

use std::io::{self, BufRead};
use std::os::fd::AsFd;
use std::sync::{Arc, Mutex};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustyline::history::MemHistory;
use rustyline::{ColorMode, CompletionType, Config, Editor, EventHandler, KeyEvent};

use super::completion::{Answers, Redraw};
use super::{BadLine, MAX_LINE, Reply};
use crate::shell::signals::StopFlag;

/// Where lines come from.
pub(super) enum Reader {
    /// rustyline, at a terminal; `typed` holds the line when Ctrl-L asks for
    /// a redraw; `unheard` is the last line read, kept for the history (and
    /// Up-arrow) once the next question shows it was not refused.
    Editor {
        editor: Box<Editor<Answers, MemHistory>>,
        typed: Arc<Mutex<Option<String>>>,
        unheard: Option<String>,
    },
    /// Plain lines. `echo` repeats each line after its prompt, for scripts;
    /// a dumb terminal echoes what is typed itself.
    Plain { input: Box<dyn BufRead>, echo: bool },
}

impl Reader {
    /// rustyline on the process's terminal, if it starts.
    pub(super) fn editor() -> Option<Reader> {
        let config = Config::builder()
            // Forced even without colour: rustyline shows the line through
            // the highlighter (which escapes controls) only when colouring.
            // The prompt is styled, or not, by the console itself.
            .color_mode(ColorMode::Forced)
            // Only lines the game took go into the history: see `unheard`.
            .auto_add_history(false)
            .completion_type(CompletionType::List)
            .build();
        let mut editor = Editor::with_config(config).ok()?;
        editor.set_helper(Some(Answers::default()));
        let typed = Arc::new(Mutex::new(None));
        editor.bind_sequence(
            KeyEvent::ctrl('L'),
            EventHandler::Conditional(Box::new(Redraw {
                typed: Arc::clone(&typed),
            })),
        );
        Some(Reader::Editor {
            editor: Box::new(editor),
            typed,
            unheard: None,
        })
    }

    /// Standard input for a person at a dumb terminal: Ctrl-C ends the read.
    pub(super) fn watched_stdin(stop: StopFlag) -> Reader {
        Reader::Plain {
            input: Box::new(io::BufReader::new(WatchedStdin { stop })),
            echo: false,
        }
    }

    /// The line read last was refused: it stays out of the history.
    pub(super) fn forget_last(&mut self) {
        if let Reader::Editor { unheard, .. } = self {
            *unheard = None;
        }
    }

    /// The line read last was taken: into the history it goes, before the
    /// next question.
    pub(super) fn keep_last(&mut self) {
        if let Reader::Editor {
            editor, unheard, ..
        } = self
            && let Some(line) = unheard.take()
            && !line.trim().is_empty()
        {
            let _ = editor.add_history_entry(line);
        }
    }
}

/// Takes a line's bytes as text, refusing what no game should see.
pub(super) fn check(bytes: Vec<u8>) -> Reply {
    if bytes.len() > MAX_LINE {
        return Reply::Bad(BadLine::TooLong(bytes.len()));
    }
    match String::from_utf8(bytes) {
        Err(_) => Reply::Bad(BadLine::NotUtf8),
        Ok(line) if line.chars().any(|c| c.is_control() && c != '\t') => {
            Reply::Bad(BadLine::Control)
        }
        Ok(line) => Reply::Line(line),
    }
}

/// Standard input for a person at a terminal without line editing. The
/// signal thread only raises the session's stop flag on Ctrl-C, and a
/// blocked read would go on waiting for Enter, so this waits for input in
/// short slices and reads Ctrl-C as the end of input: the player leaves, as
/// with Ctrl-D.
struct WatchedStdin {
    stop: StopFlag,
}

impl io::Read for WatchedStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let stdin = io::stdin();
        let slice = Timespec {
            tv_sec: 0,
            tv_nsec: 50_000_000,
        };
        loop {
            if self.stop.is_raised() {
                return Ok(0);
            }
            let mut wanted = [PollFd::new(&stdin, PollFlags::IN)];
            match poll(&mut wanted, Some(&slice)) {
                Ok(0) | Err(rustix::io::Errno::INTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(e.into()),
            }
            // Reading the descriptor itself, not through std's buffered
            // stdin, leaves no input buffered where poll cannot see it.
            match rustix::io::read(stdin.as_fd(), &mut *buf) {
                Ok(read) => return Ok(read),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// Reads one line without its line ending, keeping at most `cap` bytes of it
/// (plus one, to tell it was longer) and skipping the rest; also returns its
/// whole length. `None` at end of input.
pub(super) fn read_capped(
    input: &mut dyn BufRead,
    cap: usize,
) -> io::Result<Option<(Vec<u8>, usize)>> {
    let mut kept = Vec::new();
    let mut total = 0;
    let mut started = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(started.then_some((kept, total)));
        }
        started = true;
        // LF, CRLF and a lone CR (old Macintosh files) all end a line.
        let end = buf.iter().position(|&b| b == b'\n' || b == b'\r');
        let line = &buf[..end.unwrap_or(buf.len())];
        let room = (cap + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&line[..line.len().min(room)]);
        total += line.len();
        let ending = end.map(|i| buf[i]);
        let used = end.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        match ending {
            Some(b'\r') => {
                // The LF of a CRLF belongs to this line's ending.
                if next_byte(input)? == Some(b'\n') {
                    input.consume(1);
                }
                return Ok(Some((kept, total)));
            }
            Some(_) => return Ok(Some((kept, total))),
            None => {}
        }
    }
}

/// The next byte of input, not consumed.
fn next_byte(input: &mut dyn BufRead) -> io::Result<Option<u8>> {
    loop {
        match input.fill_buf() {
            Ok(buf) => return Ok(buf.first().copied()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}
