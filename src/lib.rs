//! tallyho: Fox and Hounds at the console, after a 1978 BASIC program and a
//! C school project.
//!
//! The crate is a pure core with a thin shell. [`fox`] holds the game itself;
//! [`render`] and [`input`] turn positions into text and text into commands;
//! [`console`] and [`session`] hold the conversation with a player.

pub mod fox;
