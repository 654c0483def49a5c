//! Signals: Ctrl-C between prompts, and the signals that end a session
//! (SIGTERM, SIGHUP from a dropped ssh connection, SIGQUIT).
//!
//! rustyline puts the terminal in raw mode while it reads and only undoes it
//! when its read returns, which a signal's default action never lets happen.
//! So one thread waits for these signals and leaves on the main thread's
//! behalf: it lets a game-log append finish, puts the terminal back as it was
//! at start-up, says the final score and exits with 128 plus the signal.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

/// Set by Ctrl-C outside a prompt (while the computer thinks or pauses).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What to say if a signal ends the session: the score so far.
static FAREWELL: Mutex<Option<String>> = Mutex::new(None);

/// Held while a game is written to the log, so a signal never tears a record.
static WRITING: Mutex<()> = Mutex::new(());

/// The terminal's settings before rustyline changed them.
static SAVED: OnceLock<libc::termios> = OnceLock::new();

/// Starts the signal thread, once. With `catch_ctrl_c`, Ctrl-C between
/// prompts is noted (see [`interrupted`]) instead of killing the process; a
/// second Ctrl-C before the first is noticed leaves at once.
pub fn install(catch_ctrl_c: bool) {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        save_terminal();
        let mut wanted = vec![SIGTERM, SIGHUP, SIGQUIT];
        if catch_ctrl_c {
            wanted.push(SIGINT);
        }
        let Ok(mut signals) = Signals::new(wanted) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGINT && !INTERRUPTED.swap(true, Ordering::SeqCst) {
                        continue;
                    }
                    leave(128 + signal);
                }
            });
    });
}

/// Whether Ctrl-C was pressed while no question was asked.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Sets what a signal that ends the session says last, or nothing.
pub fn set_farewell(line: Option<String>) {
    *FAREWELL.lock().unwrap_or_else(|e| e.into_inner()) = line;
}

/// Holds off a signal's exit while a record is written.
pub fn writing() -> MutexGuard<'static, ()> {
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Puts the terminal back, says the farewell on a line of its own, and exits.
fn leave(status: i32) -> ! {
    let _writing = writing();
    restore_terminal();
    let farewell = FAREWELL.lock().unwrap_or_else(|e| e.into_inner()).take();
    // The terminal may be gone (SIGHUP): nothing to do about a failed write.
    let mut out = io::stdout().lock();
    match farewell {
        Some(line) => {
            let _ = writeln!(out, "\n{line}");
        }
        // At least leave the shell's prompt a line of its own.
        None if io::stdout().is_terminal() => {
            let _ = writeln!(out);
        }
        None => {}
    }
    let _ = out.flush();
    std::process::exit(status)
}

fn save_terminal() {
    if !io::stdin().is_terminal() {
        return;
    }
    // SAFETY: tcgetattr only writes the termios struct it is given, which is
    // plain old data and fully initialised by zeroing.
    unsafe {
        let mut settings: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(libc::STDIN_FILENO, &mut settings) == 0 {
            let _ = SAVED.set(settings);
        }
    }
}

fn restore_terminal() {
    if let Some(settings) = SAVED.get() {
        // SAFETY: tcsetattr reads the struct saved by tcgetattr at start-up.
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, settings);
        }
    }
}
