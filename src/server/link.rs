//! The seam between a door and a session. A door (the ssh server, the line
//! port) turns a connection into lines in and bytes out; a session (a
//! blocking thread running the shell) reads those lines and writes those
//! bytes, and never learns which door it came through.
//!
//! Both directions are bounded. Lines wait in a short inbox: a client that
//! types faster than the session reads is slowed by its own connection. Text
//! waits in an outbox: a client that stops reading fills it, and is then
//! dropped, never waited on.

use std::io::{self, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::shell::console::LineSource;

/// The longest line a door passes on, in bytes; the rest of a longer line
/// is skipped as it arrives, never buffered.
pub const MAX_LINE: usize = 1024;

/// How many lines may wait for a session.
const INBOX: usize = 16;

/// How many pieces of text may wait for a slow reader before it is dropped.
const OUTBOX: usize = 512;

/// How long a session's own text waits for room in a full outbox.
const OWN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// How long the text of a retired session may take to leave before its
/// connection is closed all the same.
const RETIRE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// What a door passes to its session.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    /// A line, without its ending: at most [`MAX_LINE`] bytes of it and one
    /// more, with its whole length in bytes.
    Line(Vec<u8>, usize),
    /// Ctrl-C at a terminal.
    Interrupt,
    /// The session is asked to look at its game again (a move, an offer).
    Wake,
}

/// Which door a connection came through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Door {
    /// The ssh server.
    Ssh,
    /// The plain line port.
    Lines,
}

/// Who a connection says it is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Identity {
    /// A guest: every line-door client, and ssh's `guest` user.
    Guest,
    /// An ssh public key: the account. `user` is the name ssh logged in with.
    Key {
        /// The key's SHA-256 fingerprint, as `ssh-keygen -l` prints it.
        fingerprint: String,
        /// The user name given to ssh.
        user: String,
    },
}

/// How the far end talks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// A script or a plain client: every prompt printed, every line echoed.
    Script,
    /// A person at a terminal (an ssh pty): the door echoes as they type.
    Terminal,
    /// The machine dialect: one JSON event a line.
    Json,
}

/// A connection as a door hands it to the server.
pub struct Arrival {
    /// Where it comes from.
    pub peer: SocketAddr,
    /// Through which door.
    pub door: Door,
    /// Who it says it is.
    pub identity: Identity,
    /// How it talks.
    pub dialect: Dialect,
    /// Its screen's width in columns, 0 when unknown; a door updates it.
    pub width: Arc<AtomicUsize>,
    /// Whether a terminal there shows colour: not when its type is `dumb`,
    /// as local play decides. Only a [`Dialect::Terminal`] is coloured.
    pub colour: bool,
}

/// The door's end of a link.
pub struct DoorEnd {
    /// Where the door puts lines; closed when the session has ended.
    pub input: mpsc::Sender<Input>,
    /// Text for the connection; `None` when the session has ended.
    pub output: mpsc::Receiver<Vec<u8>>,
    /// Cancelled when the connection must close at once: the session ended,
    /// or its reader fell too far behind.
    pub closed: CancellationToken,
    /// The exit status a door that has one (ssh) reports once the session
    /// has ended: 0 unless the session refused the connection.
    pub status: Arc<AtomicU32>,
}

/// The session's end of a link.
pub struct Link {
    /// Lines from the door.
    pub inbox: mpsc::Receiver<Input>,
    /// Where others wake this session.
    pub waker: Waker,
    /// Text to the connection.
    pub outbox: Outbox,
    /// The connection as it arrived.
    pub arrival: Arrival,
}

/// Wakes a session to look at its game again.
/// It holds the inbox weakly: when the door drops its sender, the session
/// reads the end of input.
#[derive(Clone)]
pub struct Waker {
    input: mpsc::WeakSender<Input>,
}

impl Waker {
    /// Wakes the session, unless it already has something to read (it
    /// looks at its game after every line anyway).
    pub fn wake(&self) {
        if let Some(input) = self.input.upgrade() {
            let _ = input.try_send(Input::Wake);
        }
    }
}

/// The first byte of a notice to a player of the text dialect (a message
/// that comes whenever it comes, not an answer): the door takes it off, and
/// a terminal's door then shows the question waiting and the line being
/// typed again after the notice. It never reaches a player otherwise: text
/// from outside is escaped, and sessions write none.
pub const NOTICE: u8 = 0x1e;

/// The whole of a text a session of the terminal dialect sends each time it
/// takes a line (or Ctrl-C) from its inbox, after the question the line
/// answers: the ssh door then shows the line if it was typed ahead (see
/// `editor::Ahead`), and writes nothing of the mark.
pub const TAKEN: u8 = 0x1f;

/// A notice as a door writes it: its first newline ends the row of the
/// question it comes under, so where the row is already ended (`ended`) the
/// newline is left out rather than written as an empty line.
pub fn notice_text(text: &[u8], ended: bool) -> &[u8] {
    match text.strip_prefix(b"\n") {
        Some(rest) if ended => rest,
        _ => text,
    }
}

/// Text from a session's outbox as a door writes it: the notice mark taken
/// off, and whether it was a notice.
pub fn unmarked(mut text: Vec<u8>) -> (Vec<u8>, bool) {
    if text.first() == Some(&NOTICE) {
        text.remove(0);
        (text, true)
    } else {
        (text, false)
    }
}

/// The rows of a door that draws no screen (the line door, ssh with no
/// terminal): notices' marks taken off, and the question they interrupt
/// asked again after them, as a terminal's door shows it again, unless the
/// session speaks first (news that changes the question: it asks its own).
#[derive(Default)]
pub struct PlainRows {
    /// What the session wrote after its last newline: the question
    /// waiting, if any.
    open: Vec<u8>,
    /// A notice came under the question: it is owed again.
    owed: bool,
}

/// The longest question written again after a notice.
const LONGEST_QUESTION: usize = 4096;

/// How long a door waits after a notice for the session to speak before
/// asking the question again: a session woken by news asks its own at once.
pub const QUESTION_PAUSE: std::time::Duration = std::time::Duration::from_millis(150);

impl PlainRows {
    /// Whether the question is owed again: the door writes
    /// [`PlainRows::owed`] after [`QUESTION_PAUSE`] with nothing from the
    /// session.
    pub fn is_owed(&self) -> bool {
        self.owed
    }

    /// The question again, once, if it is owed.
    pub fn owed(&mut self) -> Vec<u8> {
        if std::mem::take(&mut self.owed) {
            self.open.clone()
        } else {
            Vec::new()
        }
    }

    /// Text from a session's outbox as the door writes it now.
    pub fn write(&mut self, text: Vec<u8>) -> Vec<u8> {
        let (text, notice) = unmarked(text);
        if notice {
            // The notice's rows end the question's; the row after it is
            // empty until the question is asked again.
            let out = notice_text(&text, self.open.is_empty() || self.owed).to_vec();
            self.owed = !self.open.is_empty();
            return out;
        }
        // The session speaks: its own question follows, if any. Its first
        // newline would end the question's row, which the notice ended.
        let mut text = text;
        if std::mem::take(&mut self.owed) {
            self.open.clear();
            if text.first() == Some(&b'\n') {
                text.remove(0);
            }
        }
        match text.iter().rposition(|&b| b == b'\n') {
            Some(end) => self.open = text[end + 1..].to_vec(),
            None => self.open.extend_from_slice(&text),
        }
        if self.open.len() > LONGEST_QUESTION {
            // Not a question: never written twice.
            self.open.clear();
        }
        text
    }
}

/// Text to one connection, bounded: when the reader falls too far behind,
/// the connection is closed instead of waited for.
#[derive(Clone)]
pub struct Outbox {
    text: mpsc::Sender<Vec<u8>>,
    closed: CancellationToken,
    /// Takes no more text: what was sent still leaves, then the
    /// connection closes as the session ends (see [`Outbox::retire`]).
    retired: Arc<AtomicBool>,
    /// The exit status the door reports when the session ends.
    status: Arc<AtomicU32>,
}

impl Outbox {
    /// Sends text; `false` if the connection is gone or was just closed for
    /// falling behind.
    pub fn send(&self, bytes: Vec<u8>) -> bool {
        if self.is_closed() {
            return false;
        }
        match self.text.try_send(bytes) {
            Ok(()) => true,
            Err(_) => {
                self.closed.cancel();
                false
            }
        }
    }

    /// Sends the session's own text, waiting up to [`OWN_PATIENCE`] for
    /// room: a session that answers a long script writes faster than the
    /// door sends, and only a reader still full after that long has fallen
    /// behind. Others' notices ([`Outbox::send`]) never wait.
    pub fn send_own(&self, bytes: Vec<u8>) -> bool {
        let until = std::time::Instant::now() + OWN_PATIENCE;
        let mut bytes = bytes;
        loop {
            if self.is_closed() {
                return false;
            }
            match self.text.try_send(bytes) {
                Ok(()) => return true,
                Err(mpsc::error::TrySendError::Full(back)) if std::time::Instant::now() < until => {
                    bytes = back;
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                Err(_) => {
                    self.closed.cancel();
                    return false;
                }
            }
        }
    }

    /// Whether every text sent has been taken by the door.
    pub fn is_empty(&self) -> bool {
        self.text.capacity() == self.text.max_capacity()
    }

    /// Whether the connection is gone, or takes no more text.
    pub fn is_closed(&self) -> bool {
        self.closed.is_cancelled() || self.retired.load(Ordering::SeqCst)
    }

    /// Closes the connection.
    pub fn close(&self) {
        self.closed.cancel();
    }

    /// The session refused the connection: the door reports a failing exit
    /// status (1) when it ends, where it has one (ssh), so a script learns
    /// it was turned away.
    pub fn refused(&self) {
        self.status.store(1, Ordering::SeqCst);
    }

    /// Takes no more text, so the session ends at its next write, while
    /// what was sent before (its last words) still leaves: the door sends
    /// it and closes the connection once the session has ended. A reader
    /// that has not taken it within [`RETIRE_PATIENCE`] is closed all the
    /// same.
    pub fn retire(&self) {
        self.retired.store(true, Ordering::SeqCst);
        let closed = self.closed.clone();
        let spawned = std::thread::Builder::new()
            .name("retire".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                std::thread::sleep(RETIRE_PATIENCE);
                closed.cancel();
            });
        if spawned.is_err() {
            self.closed.cancel();
        }
    }

    /// A writer for a console.
    pub fn writer(&self) -> OutboxWriter {
        OutboxWriter {
            outbox: self.clone(),
            pending: Vec::new(),
        }
    }
}

/// A link's two ends, for a connection that has just arrived.
pub fn link(arrival: Arrival) -> (DoorEnd, Link) {
    let (input, inbox) = mpsc::channel(INBOX);
    let (text, output) = mpsc::channel(OUTBOX);
    let closed = CancellationToken::new();
    let status = Arc::new(AtomicU32::new(0));
    let waker = Waker {
        input: input.downgrade(),
    };
    let door = DoorEnd {
        input,
        output,
        closed: closed.clone(),
        status: Arc::clone(&status),
    };
    let link = Link {
        inbox,
        waker,
        outbox: Outbox {
            text,
            closed,
            retired: Arc::default(),
            status,
        },
        arrival,
    };
    (door, link)
}

/// A console's output over an outbox: text is sent at each flush.
pub struct OutboxWriter {
    outbox: Outbox,
    pending: Vec<u8>,
}

impl Write for OutboxWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.outbox.is_closed() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= 16 * 1024 {
            self.flush()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.outbox.send_own(std::mem::take(&mut self.pending)) {
            Ok(())
        } else {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }
}

/// A console's input over an inbox. A wake ends the read as the end of input
/// does, and says so in `woken`; Ctrl-C sets `interrupted` likewise.
pub struct InboxSource {
    inbox: mpsc::Receiver<Input>,
    flags: Arc<Flags>,
    /// Where to say that a line was taken ([`TAKEN`]), for a terminal.
    taken: Option<Outbox>,
    /// What came after wakes read together, for the next read.
    held: Option<Input>,
}

/// What ended a session's last read, when no line did.
#[derive(Default, Debug)]
pub struct Flags {
    /// A wake: the session should look at its game again.
    pub woken: AtomicBool,
    /// Ctrl-C.
    pub interrupted: AtomicBool,
    /// The door closed the input: the connection is gone.
    pub ended: AtomicBool,
    /// Whether a wake brings anything the session has not looked at.
    news: NewsCheck,
}

/// Asked when a wake comes: `false` when what the session's question
/// depends on is as it was at its last look, so the wake came for a change
/// already seen and the question stands (asked again, it would be written
/// twice). With none set, every wake is news.
#[derive(Default)]
struct NewsCheck(std::sync::Mutex<Option<Box<dyn Fn() -> bool + Send + Sync>>>);

impl std::fmt::Debug for NewsCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewsCheck")
    }
}

impl Flags {
    /// From now on, a wake ends a read only where `check` says it brings
    /// news.
    pub fn news_when(&self, check: impl Fn() -> bool + Send + Sync + 'static) {
        *self.news.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(check));
    }

    /// From now on, every wake ends a read.
    pub fn every_wake(&self) {
        *self.news.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn is_news(&self) -> bool {
        self.news
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_none_or(|check| check())
    }

    /// Whether the last read was ended by a wake; clears it.
    pub fn take_woken(&self) -> bool {
        self.woken.swap(false, Ordering::SeqCst)
    }

    /// Whether the last read was ended by Ctrl-C; clears it.
    pub fn take_interrupted(&self) -> bool {
        self.interrupted.swap(false, Ordering::SeqCst)
    }
}

impl InboxSource {
    /// A source over `inbox`, telling wakes and Ctrl-C in `flags`.
    pub fn new(inbox: mpsc::Receiver<Input>, flags: Arc<Flags>) -> InboxSource {
        InboxSource {
            inbox,
            flags,
            taken: None,
            held: None,
        }
    }

    /// The same, saying in `outbox` each time a line or Ctrl-C is taken.
    pub fn telling(self, outbox: Outbox) -> InboxSource {
        InboxSource {
            taken: Some(outbox),
            ..self
        }
    }

    fn took(&self) {
        if let Some(outbox) = &self.taken {
            outbox.send_own(vec![TAKEN]);
        }
    }
}

impl LineSource for InboxSource {
    fn at_line_start(&self) -> bool {
        self.flags.interrupted.load(Ordering::SeqCst)
    }

    fn next_line(&mut self, cap: usize) -> io::Result<Option<(Vec<u8>, usize)>> {
        loop {
            let next = match self.held.take() {
                Some(held) => Some(held),
                None => self.inbox.blocking_recv(),
            };
            return match next {
                None => {
                    self.flags.ended.store(true, Ordering::SeqCst);
                    Ok(None)
                }
                Some(Input::Wake) => {
                    // Wakes waiting behind this one ask for the same look
                    // at the game: one look, and the question asked once.
                    loop {
                        match self.inbox.try_recv() {
                            Ok(Input::Wake) => {}
                            Ok(other) => {
                                self.held = Some(other);
                                break;
                            }
                            Err(_) => break,
                        }
                    }
                    // A wake for a change the session saw at its last look
                    // (it came after the look): the read goes on.
                    if !self.flags.is_news() {
                        continue;
                    }
                    self.flags.woken.store(true, Ordering::SeqCst);
                    Ok(None)
                }
                Some(Input::Interrupt) => {
                    self.took();
                    self.flags.interrupted.store(true, Ordering::SeqCst);
                    Ok(None)
                }
                Some(Input::Line(mut bytes, total)) => {
                    self.took();
                    bytes.truncate(cap + 1);
                    Ok(Some((bytes, total)))
                }
            };
        }
    }
}

/// Cuts a stream of bytes into lines for a link: `\n`, `\r\n` or a lone
/// `\r` (old Macintosh files) ends a line, and of a line longer than
/// [`MAX_LINE`] only the first bytes are kept while the rest is counted.
/// Used by the line door and by ssh without a terminal.
#[derive(Default)]
pub struct LineCutter {
    kept: Vec<u8>,
    total: usize,
    /// The last byte ended a line with `\r`: a `\n` now is the same end.
    after_cr: bool,
}

impl LineCutter {
    /// Feeds bytes; calls `line` with each line they complete.
    pub fn feed(&mut self, bytes: &[u8], line: &mut dyn FnMut(Input)) {
        for &b in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            if b == b'\n' && after_cr {
                continue;
            }
            if b == b'\n' || b == b'\r' {
                let kept = std::mem::take(&mut self.kept);
                line(Input::Line(kept, std::mem::take(&mut self.total)));
            } else {
                self.total = self.total.saturating_add(1);
                if self.kept.len() <= MAX_LINE {
                    self.kept.push(b);
                }
            }
        }
    }

    /// The unfinished last line at the end of input, if any.
    pub fn finish(&mut self) -> Option<Input> {
        (self.total > 0).then(|| {
            Input::Line(
                std::mem::take(&mut self.kept),
                std::mem::take(&mut self.total),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wakes_waiting_together_are_read_as_one() {
        let (input, inbox) = mpsc::channel(8);
        let flags = Arc::new(Flags::default());
        let mut source = InboxSource::new(inbox, Arc::clone(&flags));
        for sent in [Input::Wake, Input::Wake, Input::Wake] {
            input.try_send(sent).expect("room");
        }
        input
            .try_send(Input::Line(b"11-15".to_vec(), 5))
            .expect("room");
        input.try_send(Input::Wake).expect("room");
        drop(input);
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(flags.take_woken());
        assert_eq!(
            source.next_line(64).ok(),
            Some(Some((b"11-15".to_vec(), 5)))
        );
        assert!(!flags.take_woken());
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(flags.take_woken());
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(!flags.take_woken());
        assert!(flags.ended.load(Ordering::SeqCst));
    }

    #[test]
    fn a_wake_with_no_news_leaves_the_read_going() {
        let (input, inbox) = mpsc::channel(8);
        let flags = Arc::new(Flags::default());
        let mut source = InboxSource::new(inbox, Arc::clone(&flags));
        let news = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&news);
        flags.news_when(move || seen.load(Ordering::SeqCst));
        input.try_send(Input::Wake).expect("room");
        input
            .try_send(Input::Line(b"11-15".to_vec(), 5))
            .expect("room");
        input.try_send(Input::Wake).expect("room");
        input.try_send(Input::Wake).expect("room");
        // The first wake brings nothing new: the line is read.
        assert_eq!(
            source.next_line(64).ok(),
            Some(Some((b"11-15".to_vec(), 5)))
        );
        assert!(!flags.take_woken());
        // Now something changed: the wakes end the read, once.
        news.store(true, Ordering::SeqCst);
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(flags.take_woken());
        // With no check, every wake is news.
        news.store(false, Ordering::SeqCst);
        flags.every_wake();
        input.try_send(Input::Wake).expect("room");
        drop(input);
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(flags.take_woken());
        assert_eq!(source.next_line(64).ok(), Some(None));
        assert!(flags.ended.load(Ordering::SeqCst));
    }

    fn cut(bytes: &[u8]) -> Vec<Input> {
        let mut lines = Vec::new();
        let mut cutter = LineCutter::default();
        cutter.feed(bytes, &mut |l| lines.push(l));
        lines.extend(cutter.finish());
        lines
    }

    #[test]
    fn lines_are_cut_at_newlines_and_long_ones_counted_not_kept() {
        assert_eq!(
            cut(b"who\r\nseek fox\nend"),
            vec![
                Input::Line(b"who".to_vec(), 3),
                Input::Line(b"seek fox".to_vec(), 8),
                Input::Line(b"end".to_vec(), 3)
            ]
        );
        // A lone CR ends a line too; CR LF is one end, even split in two.
        assert_eq!(
            cut(b"who\rgames\r\n\nx"),
            vec![
                Input::Line(b"who".to_vec(), 3),
                Input::Line(b"games".to_vec(), 5),
                Input::Line(Vec::new(), 0),
                Input::Line(b"x".to_vec(), 1)
            ]
        );
        let mut long = vec![b'x'; 1 << 20];
        long.push(b'\n');
        let lines = cut(&long);
        let [Input::Line(kept, total)] = &lines[..] else {
            panic!("one line: {lines:?}");
        };
        assert_eq!(*total, 1 << 20);
        assert_eq!(kept.len(), MAX_LINE + 1);
    }

    #[test]
    fn an_outbox_that_overflows_closes_its_connection() {
        let arrival = Arrival {
            peer: SocketAddr::from(([127, 0, 0, 1], 1)),
            door: Door::Lines,
            identity: Identity::Guest,
            dialect: Dialect::Script,
            width: Arc::default(),
            colour: false,
        };
        let (door, link) = link(arrival);
        for _ in 0..OUTBOX {
            assert!(link.outbox.send(b"x".to_vec()));
        }
        assert!(!door.closed.is_cancelled());
        assert!(!link.outbox.send(b"x".to_vec()));
        assert!(door.closed.is_cancelled());
        let mut writer = link.outbox.writer();
        assert!(
            writer
                .write_all(b"more")
                .and_then(|()| writer.flush())
                .is_err()
        );
    }
}
