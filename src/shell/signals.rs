//! Signals: Ctrl-C between prompts, and the signals that end a session
//! (SIGTERM, SIGHUP from a dropped ssh connection, SIGQUIT).
//!
//! rustyline puts the terminal in raw mode while it reads and only undoes it
//! when its read returns, which a signal's default action never lets happen.
//! So one thread waits for these signals and leaves on the main thread's
//! behalf: it lets a game-log append finish, puts the terminal back as it was
//! at start-up, says the final score and exits with 128 plus the signal.
//!
//! Leaving never waits on standard output: the main thread may be blocked
//! writing to it (a pipe nobody reads, a terminal paused with Ctrl-S), so the
//! last words go out without blocking, or not at all.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use rustix::termios::{self, OptionalActions, Termios};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use super::console::Terminal;
use super::safe;

/// Set by Ctrl-C outside a prompt (while the computer thinks or pauses):
/// the process's console reads it as its stop flag.
static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Set by the SIGINT handler itself, at the instant the signal arrives:
/// the signal thread notes Ctrl-C a moment later, and a question about to
/// be asked must not miss it in between (see [`keys_not_signals`]).
static CTRL_C_RAISED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// What to say if a signal ends the session: the score so far, as the
/// process's console last said it.
static FAREWELL: OnceLock<Farewell> = OnceLock::new();

/// Where a session keeps what a signal that ends it should say last.
pub type Farewell = Arc<Mutex<Option<String>>>;

/// The process's stop flag, set by Ctrl-C while no question is asked.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    Arc::clone(INTERRUPTED.get_or_init(Arc::default))
}

/// The process's farewell, which the signal thread says on leaving.
pub fn farewell() -> Farewell {
    Arc::clone(FAREWELL.get_or_init(Farewell::default))
}

/// The columns the process's console writes to, as they are when asked.
pub type Width = Arc<dyn Fn() -> usize + Send + Sync>;

/// The width the farewell is wrapped at, when leaving: the console's, so
/// it is laid out as the session's last words are when it ends itself.
/// Unset, the farewell is said as it is.
static FAREWELL_WIDTH: Mutex<Option<Width>> = Mutex::new(None);

/// Sets the width the farewell is wrapped at: the process's console's.
pub fn farewell_width(width: Width) {
    *FAREWELL_WIDTH.lock().unwrap_or_else(|e| e.into_inner()) = Some(width);
}

/// Held while a game is written to the log, so a signal never tears a record.
static WRITING: Mutex<()> = Mutex::new(());

/// The terminal's settings before rustyline changed them.
static SAVED: OnceLock<Termios> = OnceLock::new();

/// Whether a line editor may have turned on bracketed paste, to turn off.
static EDITING: AtomicBool = AtomicBool::new(false);

/// Starts the signal thread, once, for the process's `terminal` as read at
/// start-up. With a person at the terminal, Ctrl-C between prompts is noted
/// (see [`interrupted`]) instead of killing the process; a second Ctrl-C
/// before the first is noticed leaves at once.
///
/// Otherwise (a script's stdin), Ctrl-C ends the session as SIGTERM does:
/// the final score, then exit status 130.
pub fn install(terminal: Terminal) {
    install_catching(terminal, terminal.interactive());
}

/// As [`install`], but Ctrl-C is only noted (not an exit) when
/// `catch_ctrl_c` says, not only at a terminal at both ends: `join` reads
/// a person's lines from a terminal whatever its output is.
pub fn install_catching(terminal: Terminal, catch_ctrl_c: bool) {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        if terminal.stdin {
            save_terminal();
        }
        // The flag first: actions run in the order they were registered, so
        // a Ctrl-C is flagged before the signal thread hears of it, and
        // an exit that clears the flag clears its own Ctrl-C, not a second.
        let raised = Arc::clone(CTRL_C_RAISED.get_or_init(Arc::default));
        let _ = signal_hook::flag::register(SIGINT, raised);
        let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGINT
                        && catch_ctrl_c
                        && !interrupt_flag().swap(true, Ordering::SeqCst)
                    {
                        continue;
                    }
                    // A second Ctrl-C: the player will not wait, even for
                    // another program's lock on the log.
                    let hurried = signal == SIGINT && catch_ctrl_c;
                    leave(128 + signal, terminal.stdout, hurried);
                }
            });
    });
}

/// Notes that a line editor reads from the terminal, so that leaving turns
/// off the modes it may have turned on (bracketed paste).
pub fn editing() {
    EDITING.store(true, Ordering::SeqCst);
}

/// Whether Ctrl-C has reached this process as a signal, even if the
/// signal thread has not yet noted it.
pub fn ctrl_c_raised() -> bool {
    CTRL_C_RAISED
        .get()
        .is_some_and(|raised| raised.load(Ordering::SeqCst))
}

/// The terminal reading Ctrl-C as a key, not a signal, while held.
///
/// A line editor takes the terminal only once its read has begun, and a
/// Ctrl-C pressed in the instant before that becomes a signal the editor
/// never sees: it would go on waiting for a line, the Ctrl-C lost. So the
/// console turns signals off first, then looks at [`ctrl_c_raised`]: a
/// Ctrl-C pressed before is seen there, one pressed after waits in the
/// input for the editor. Dropping this turns signals on again, for Ctrl-C
/// while the computer thinks.
pub struct KeysNotSignals {
    _private: (),
}

/// Turns the terminal's signal keys off until the result is dropped;
/// `None` when standard input is not a terminal (nothing to turn off).
pub fn keys_not_signals() -> Option<KeysNotSignals> {
    set_signal_keys(false).then_some(KeysNotSignals { _private: () })
}

impl Drop for KeysNotSignals {
    fn drop(&mut self) {
        set_signal_keys(true);
    }
}

/// Turns the terminal's signal keys (Ctrl-C, Ctrl-\, Ctrl-Z) on or off,
/// leaving its other settings as they are; false if it could not.
fn set_signal_keys(on: bool) -> bool {
    let stdin = rustix::stdio::stdin();
    let Ok(mut settings) = termios::tcgetattr(stdin) else {
        return false;
    };
    settings.local_modes.set(termios::LocalModes::ISIG, on);
    termios::tcsetattr(stdin, OptionalActions::Now, &settings).is_ok()
}

/// Set once a signal has said the process must end: the signal thread
/// leaves as soon as the record being written is whole.
static LEAVING: AtomicBool = AtomicBool::new(false);

/// Holds off a signal's exit while a record is written. Once a signal is
/// leaving, no new record starts: the caller waits for the exit instead, so
/// a session never outruns the signal to a clean end of its own.
pub fn writing() -> Option<MutexGuard<'static, ()>> {
    hold_if_leaving();
    Some(WRITING.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Set while a finished game waits for another program's lock on the log,
/// nothing written yet: a second Ctrl-C leaves then without waiting. The
/// signal thread holds it from the moment it sees it set until the exit,
/// so the keeper cannot go on to write.
static WAITING_FOR_LOCK: Mutex<bool> = Mutex::new(false);

/// The keeper's hold on a signal's exit, for the log's [`Keeper`].
///
/// [`Keeper`]: crate::shell::log::Keeper
pub const HOLD: crate::shell::log::Hold = crate::shell::log::Hold {
    writing,
    waiting: waiting_for_lock,
};

/// Notes that a finished game starts or stops waiting for another
/// program's lock on the log.
pub fn waiting_for_lock(waiting: bool) {
    *WAITING_FOR_LOCK.lock().unwrap_or_else(|e| e.into_inner()) = waiting;
}

/// Waits for the exit a signal has begun, if it has: for the end of a
/// session, which must not end first with a status of its own.
pub fn hold_if_leaving() {
    while LEAVING.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// Puts the terminal back, says the farewell on a line of its own, and exits.
fn leave(status: i32, stdout_terminal: bool, hurried: bool) -> ! {
    LEAVING.store(true, Ordering::SeqCst);
    let held = if hurried {
        hold_unless_waiting_for_lock()
    } else {
        hold_unless_hurried()
    };
    // Left while a finished game waited for the log: it is not kept, and
    // the score (said before it) does not count it.
    let unkept = held.1.is_some();
    restore_terminal();
    let farewell = farewell().lock().unwrap_or_else(|e| e.into_inner()).take();
    let mut last = String::new();
    if EDITING.load(Ordering::SeqCst) {
        // Bracketed paste off: rustyline turns it on while it reads.
        last.push_str("\x1b[?2004l");
    }
    // Wrapped at words for the screen as it is now, as `quit` would.
    let width = FAREWELL_WIDTH
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let wrapped = |text: &str| match &width {
        Some(width) => safe::wrap(text, width()),
        None => text.to_string(),
    };
    match farewell {
        Some(line) if unkept => last.push_str(&format!(
            "\n{}\n{}\n",
            wrapped(&line),
            wrapped(
                "The game just finished is not in the log, nor in this score: another program held the log."
            )
        )),
        Some(line) => last.push_str(&format!("\n{}\n", wrapped(&line))),
        // At least leave the shell's prompt a line of its own.
        None if stdout_terminal => last.push('\n'),
        None => {}
    }
    say_without_waiting(last.as_bytes());
    std::process::exit(status)
}

/// The hold on the log's record for an exit that waits for it to be
/// written, unless a Ctrl-C comes while it waits (a script's second
/// SIGINT, as a terminal's second Ctrl-C): then as a hurried exit.
fn hold_unless_hurried() -> (
    Option<MutexGuard<'static, ()>>,
    Option<MutexGuard<'static, bool>>,
) {
    let raised = CTRL_C_RAISED.get();
    // The Ctrl-C that began this exit, if one did, is not a second.
    if let Some(raised) = raised {
        raised.store(false, Ordering::SeqCst);
    }
    loop {
        match WRITING.try_lock() {
            Ok(writing) => return (Some(writing), None),
            Err(std::sync::TryLockError::Poisoned(e)) => return (Some(e.into_inner()), None),
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
        if raised.is_some_and(|r| r.load(Ordering::SeqCst)) {
            return hold_unless_waiting_for_lock();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The hold on the log's record for a hurried exit: the record's own, or,
/// while the record waits for another program's lock with nothing
/// written, the lock-wait flag, held to the exit so the record is never
/// begun.
fn hold_unless_waiting_for_lock() -> (
    Option<MutexGuard<'static, ()>>,
    Option<MutexGuard<'static, bool>>,
) {
    loop {
        match WRITING.try_lock() {
            Ok(writing) => return (Some(writing), None),
            Err(std::sync::TryLockError::Poisoned(e)) => return (Some(e.into_inner()), None),
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
        let waiting = WAITING_FOR_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        if *waiting {
            return (None, Some(waiting));
        }
        drop(waiting);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Writes `bytes` to standard output without waiting: not through the
/// stdout lock the main thread may hold while blocked, and only as much as
/// the descriptor takes at once. The terminal may be gone (SIGHUP): a failed
/// write is nothing to act on.
fn say_without_waiting(bytes: &[u8]) {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    if bytes.is_empty() {
        return;
    }
    let out = rustix::stdio::stdout();
    let Ok(flags) = fcntl_getfl(out) else { return };
    let _ = fcntl_setfl(out, flags | OFlags::NONBLOCK);
    let _ = rustix::io::write(out, bytes);
    let _ = fcntl_setfl(out, flags);
}

fn save_terminal() {
    if let Ok(settings) = termios::tcgetattr(rustix::stdio::stdin()) {
        let _ = SAVED.set(settings);
    }
}

/// Ctrl-Z at join's line editor: the terminal put back as it was before
/// the editor, the process group stopped as the terminal's own Ctrl-Z
/// stops it, and once it is continued (`fg`), the editor's settings again,
/// for the editor to draw its line anew.
///
/// The stop may reach another thread of the process a moment after the
/// signal is sent, so the editor's settings wait for the SIGCONT that ends
/// it: set at once, the shell would put its own back over them as the
/// stop began. A stop that never comes (an orphaned process group, where
/// the signal is ignored) is waited for half a second.
pub fn suspend_editing() {
    static CONTINUED: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();
    let continued = CONTINUED.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGCONT, Arc::clone(&flag))
            .ok()
            .map(|_| flag)
    });
    let stdin = rustix::stdio::stdin();
    let Ok(editing) = termios::tcgetattr(stdin) else {
        return;
    };
    restore_terminal();
    if let Some(flag) = continued {
        flag.store(false, Ordering::SeqCst);
    }
    let _ = rustix::process::kill_current_process_group(rustix::process::Signal::TSTP);
    if let Some(flag) = continued {
        let until = std::time::Instant::now() + std::time::Duration::from_millis(500);
        while !flag.load(Ordering::SeqCst) && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    let _ = termios::tcsetattr(stdin, OptionalActions::Now, &editing);
    // The window may have been resized meanwhile: the editor learns its
    // width as from a resize.
    let _ =
        rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::WINCH);
}

/// Puts the terminal back as it was when [`install`] was called: for a
/// program ending while another thread may hold it raw (join's line
/// editor, when the server has gone).
pub fn restore() {
    restore_terminal();
}

fn restore_terminal() {
    if let Some(settings) = SAVED.get() {
        let _ = termios::tcsetattr(rustix::stdio::stdin(), OptionalActions::Now, settings);
    }
}
