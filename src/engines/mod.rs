//! The computer players as a process runs them, around the pure cores in
//! [`crate::games`]: what needs threads, the clock or files. A game whose
//! computer players need none of that has no folder here.

pub mod draughts;
