//! Signals: Ctrl-C between prompts, and the signals that end a session
//! (SIGTERM, SIGHUP from a dropped ssh connection, SIGQUIT, and SIGINT when
//! no person is at a terminal).
//!
//! A session's share of this is a [`Session`] value: its stop flag, the line
//! it says last, and the guard held while it writes a record. Nothing here
//! is global but the process's own session, which `main` hands the signal
//! thread through [`install`].
//!
//! rustyline puts the terminal in raw mode and bracketed-paste mode while it
//! reads and only undoes them when its read returns, which a signal's
//! default action never lets happen. So one thread waits for these signals
//! and leaves on the main thread's behalf: it lets a game-log append finish,
//! puts the terminal back as it was at start-up, says the final score if it
//! can without waiting for a blocked output, and exits with 128 plus the signal.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, mpsc};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use super::console::raw;

/// How long a leaving session waits for its last words to be written: an
/// output nobody reads (a full pipe, a terminal paused by Ctrl-S) never
/// holds the exit up longer.
const LAST_WORDS: Duration = Duration::from_millis(300);

/// "Stop now": Ctrl-C noted for one session, while no question was asked.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not yet raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises the flag; `true` if it was already raised.
    pub fn raise(&self) -> bool {
        self.0.swap(true, Ordering::SeqCst)
    }

    /// Whether the flag is raised.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// One session's share of the signals: cheap to clone, each clone the same
/// session. A signal thread (or a server ending a connection) reaches the
/// session through it.
#[derive(Clone, Debug, Default)]
pub struct Session {
    stop: StopFlag,
    farewell: Arc<Mutex<Option<String>>>,
    writing: Arc<Mutex<()>>,
    editing: Arc<AtomicBool>,
}

impl Session {
    /// A fresh session: not stopped, nothing to say.
    pub fn new() -> Session {
        Session::default()
    }

    /// The session's stop flag.
    pub fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// Whether Ctrl-C was pressed while no question was asked.
    pub fn interrupted(&self) -> bool {
        self.stop.is_raised()
    }

    /// Sets what a signal that ends the session says last, or nothing.
    pub fn set_farewell(&self, line: Option<String>) {
        *self.farewell.lock().unwrap_or_else(|e| e.into_inner()) = line;
    }

    /// Takes what the session says last.
    pub fn take_farewell(&self) -> Option<String> {
        self.farewell
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// Holds off a signal's exit while a record is written.
    pub fn writing(&self) -> MutexGuard<'_, ()> {
        self.writing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes whether a line editor has the terminal in its modes now.
    pub fn set_editing(&self, on: bool) {
        self.editing.store(on, Ordering::SeqCst);
    }

    /// Whether a line editor has the terminal in its modes now.
    pub fn editing(&self) -> bool {
        self.editing.load(Ordering::SeqCst)
    }
}

/// The process's own session: the one its terminal and signals belong to.
pub fn process() -> &'static Session {
    static PROCESS: OnceLock<Session> = OnceLock::new();
    PROCESS.get_or_init(Session::new)
}

/// Whether Ctrl-C was pressed in the process's own session.
pub fn interrupted() -> bool {
    process().interrupted()
}

/// Sets what a signal that ends the process's session says last, or nothing.
pub fn set_farewell(line: Option<String>) {
    process().set_farewell(line);
}

/// Holds off a signal's exit while the process's session writes a record.
pub fn writing() -> MutexGuard<'static, ()> {
    process().writing()
}

/// What the signal thread needs to know of the process's terminal, decided
/// once by whoever starts it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch {
    /// A person is at the terminal: Ctrl-C is noted for the session instead
    /// of ending it, and a second Ctrl-C before the first is noticed leaves.
    pub interactive: bool,
    /// Standard output is a terminal: a farewell-less exit still leaves the
    /// shell's prompt a line of its own.
    pub stdout_terminal: bool,
}

/// Starts the signal thread for `session`, once in a process.
pub fn install(session: &Session, watch: Watch) {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let saved = raw::save();
        let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT]) else {
            return;
        };
        let session = session.clone();
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGINT && watch.interactive && !session.stop.raise() {
                        continue;
                    }
                    leave(&session, watch, saved.as_ref(), 128 + signal);
                }
            });
    });
}

/// Puts the terminal back, says the farewell on a line of its own if the
/// output takes it in time, and exits.
fn leave(
    session: &Session,
    watch: Watch,
    saved: Option<&rustix::termios::Termios>,
    status: i32,
) -> ! {
    let _writing = session.writing();
    if let Some(saved) = saved {
        raw::restore(saved);
    }
    let mut words = String::new();
    if session.editing() {
        words.push_str(raw::BRACKETED_PASTE_OFF);
    }
    match session.take_farewell() {
        Some(line) => words.push_str(&format!("\n{line}\n")),
        // At least leave the shell's prompt a line of its own.
        None if watch.stdout_terminal => words.push('\n'),
        None => {}
    }
    // Another thread writes, so a blocked output (or the main thread
    // holding stdout's lock while blocked) cannot hold up the exit.
    let (done, said) = mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("farewell".into())
        .spawn(move || {
            // The terminal may be gone (SIGHUP): nothing to do about a failed write.
            let mut out = io::stdout().lock();
            let _ = out.write_all(words.as_bytes());
            let _ = out.flush();
            let _ = done.send(());
            // Keeps the lock, so nothing the main thread says comes after.
            loop {
                std::thread::park();
            }
        });
    let _ = said.recv_timeout(LAST_WORDS);
    // `exit` flushes stdout only if its lock is free, so it cannot block.
    std::process::exit(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sessions_keep_their_own_flags_and_farewells() {
        let one = Session::new();
        let two = Session::new();
        let seen_by_a_signal = one.clone();
        one.set_farewell(Some("one".into()));
        two.set_farewell(Some("two".into()));
        assert!(!seen_by_a_signal.stop.raise());
        assert!(one.interrupted() && !two.interrupted());
        assert_eq!(seen_by_a_signal.take_farewell().as_deref(), Some("one"));
        assert_eq!(two.take_farewell().as_deref(), Some("two"));
        assert_eq!(one.take_farewell(), None);
    }
}
