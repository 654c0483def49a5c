//! "Hey, That's My Fish!"'s face: the assignment's board and sentences, and its command line.

pub mod cli;
