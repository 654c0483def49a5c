//! English draughts' face: the seed's boards and sentences, and its command line.

pub mod cli;
