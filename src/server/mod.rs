//! `tallyho serve`: two people on two terminals, over ssh and a plain line
//! port. A server session is a shell session over a network connection; the
//! server names no game's rules and reaches the games through
//! [`crate::cabinet`].
//!
//! - [`link`]: the seam between a door and a session: lines in, text out,
//!   both bounded.
//! - [`limits`]: what a connection may do before it says who it is.
//! - `lines` and `ssh`: the two doors.
//! - `session`: one connection's conversation, on a thread of its own.
//! - [`store`]: the one module that touches the database.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

pub mod limits;
pub mod ssh;
pub mod link;
mod session;
pub mod table;
pub mod store;

use limits::Gate;
use link::{Arrival, DoorEnd};

/// A running server as its doors see it: the gate, where a connection's
/// session starts, and the token that ends everything.
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

struct Inner {
    gate: Gate,
    data: PathBuf,
    shutdown: CancellationToken,
}

impl Server {
    /// A server keeping its data in `data`, letting connections in through `gate`.
    pub fn new(data: PathBuf, gate: Gate) -> Server {
        Server {
            inner: Arc::new(Inner {
                gate,
                data,
                shutdown: CancellationToken::new(),
            }),
        }
    }

    /// The gate every door lets connections in through.
    pub fn gate(&self) -> &Gate {
        &self.inner.gate
    }

    /// The data directory (the store, the host key, `history.jsonl`).
    pub fn data_dir(&self) -> &Path {
        &self.inner.data
    }

    /// Cancelled when the server shuts down.
    pub fn shutdown(&self) -> &CancellationToken {
        &self.inner.shutdown
    }

    /// Starts the session of a connection that has arrived; the door then
    /// moves lines and text through the end it gets back.
    pub fn arrive(&self, arrival: Arrival) -> DoorEnd {
        let (door, link) = link::link(arrival);
        session::spawn(self.clone(), link);
        door
    }
}
