//! What each game says and draws: boards, sentences, help, and how a player
//! names squares. Each game's face implements the shell's
//! [`Face`](crate::shell::face::Face) and returns strings; the shell prints them.

pub mod draughts;
pub mod fish;
pub mod fox;
