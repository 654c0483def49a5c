//! `tallyho serve`: two people on two terminals, over ssh and a plain line
//! port. A server session is a shell session over a network connection; the
//! server names no game's rules and reaches the games through
//! [`crate::cabinet`].
//!
//! - `store`: the one module that touches the database (SQLite, one writer thread).

pub mod store;
