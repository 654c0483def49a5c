//! The shell: everything between a person (or a script) and a game, knowing
//! no game's rules. It reads lines, asks until an answer is valid, runs
//! matches and keeps the game log; a game's rules and face say the rest.

pub mod ask;
pub mod clock;
pub mod console;
pub mod date;
pub mod face;
pub mod lines;
pub mod log;
pub mod matchplay;
pub mod replay;
pub mod safe;
pub mod signals;
pub mod table;
pub mod text;
pub mod turn;
