//! tallyho: Fox and Hounds at the console, after a 1978 BASIC program and a
//! C school project.
//!
//! A pure core with a thin shell:
//! - [`fox`]: the game itself: board, rules, position notation, solver;
//! - [`render`]: boards drawn into strings, in letters or colour;
//! - [`input`]: what a player typed, read into commands and squares;
//! - [`text`]: every sentence the default flow says;
//! - [`console`]: the line reader, rustyline or plain lines;
//! - [`session`]: the conversations, built on the console and the core;
//! - [`history`]: the game log on disk;
//! - [`cli`] and [`app`]: the command line and what it runs.

pub mod app;
pub mod cli;
pub mod console;
pub mod games;
pub mod history;
pub mod input;
pub mod render;
pub mod session;
pub mod text;
