//! Draughts' engine as a run of tallyho hosts it: one endgame database
//! shared by every computer player and built on a thread of its own
//! ([`session`]), the databases kept on disk ([`store`]), and the engine
//! mode's line protocol ([`protocol`]).

pub mod protocol;
pub mod session;
pub mod store;

pub use session::{Session, SharedEndgame};
pub use store::{EndgameStore, StoreError};
