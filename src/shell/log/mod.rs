//! The game log: one JSON record per finished game of any game, appended to
//! a JSON-lines file that tallyho never rewrites.
//!
//! [`record`] holds the format (one shape for every game, and the first
//! release's), [`store`] the file (opening, locking, numbering, appending,
//! reading, damage), [`check`] what reading notices in records that read (a
//! number used twice, a date that cannot be), and [`table`] the history
//! table.

pub mod check;
pub mod record;
pub mod store;
pub mod table;

pub use check::{Doubt, Doubts, date_problem};
pub use record::{Ending, Record, Seat, VERSION, parse_record};
pub use store::{
    Hold, Keeper, Kept, Locked, Log, LogError, OpenError, Records, Skipped, open_regular,
};
pub use table::{
    TableError, Widths, game_line, result_words, seats_words, show_in_menu, write_table,
};

/// A warning on standard error.
pub fn warn(text: &str) {
    crate::shell::console::error_line(&format!("tallyho: warning: {text}"));
}
