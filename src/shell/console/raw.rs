//! The process's terminal modes and size, through rustix: saved at start-up,
//! put back when a signal ends the session, and the width for wrapping.

use std::io;

use rustix::termios::{self, OptionalActions, Termios};

/// Turns off the bracketed-paste mode a line editor turns on.
pub const BRACKETED_PASTE_OFF: &str = "\x1b[?2004l";

/// Standard input's terminal settings, if it is a terminal.
pub fn save() -> Option<Termios> {
    termios::tcgetattr(io::stdin()).ok()
}

/// Puts standard input's terminal settings back as saved.
pub fn restore(saved: &Termios) {
    // The terminal may be gone (SIGHUP): nothing to do about a failure.
    let _ = termios::tcsetattr(io::stdin(), OptionalActions::Now, saved);
}

/// The terminal's width in columns, if stdout is a terminal.
pub fn terminal_columns() -> Option<usize> {
    termios::tcgetwinsize(io::stdout())
        .ok()
        .filter(|size| size.ws_col > 0)
        .map(|size| usize::from(size.ws_col))
}
