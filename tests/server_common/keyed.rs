//! A player with an account, linked to a server in this process as the ssh
//! door links a key's login, but with no ssh in between: lines in, text
//! out (the notice mark taken off, as every door does), in the scripted
//! dialect. For tests of what accounts see that need no real client.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use tallyho::server::Server;
use tallyho::server::link::{Arrival, Dialect, Door, Identity, Input, unmarked};
use tokio::sync::mpsc::Sender;

use super::{Speaker, Transcript};

/// How long a keyed player waits for what it expects.
const PATIENCE: Duration = Duration::from_secs(20);

/// A player logged in with a key of their own.
pub struct Keyed {
    input: Sender<Input>,
    text: Receiver<Vec<u8>>,
    pub shown: Transcript,
}

impl Keyed {
    /// Logs in to `server` with a key that is `user`'s alone, as the ssh
    /// user `user`: a new key claims that handle.
    pub fn login(server: &Server, user: &str) -> Keyed {
        Keyed::login_with(server, user, user)
    }

    /// Logs in to `server` as the ssh user `user` with the key named `key`.
    pub fn login_with(server: &Server, user: &str, key: &str) -> Keyed {
        Keyed::login_in(server, user, key, Dialect::Script)
    }

    /// The same, talking in `dialect` (a terminal's is asked what a
    /// script's is not).
    pub fn login_in(server: &Server, user: &str, key: &str, dialect: Dialect) -> Keyed {
        let door = server.arrive(Arrival {
            peer: SocketAddr::from(([127, 0, 0, 1], 1)),
            door: Door::Ssh,
            identity: Identity::Key {
                fingerprint: format!("SHA256:test-key-{key}"),
                user: user.to_string(),
            },
            dialect,
            width: Arc::default(),
            colour: false,
        });
        let mut output = door.output;
        let (tx, text) = channel();
        std::thread::spawn(move || {
            while let Some(bytes) = output.blocking_recv() {
                if tx.send(unmarked(bytes).0).is_err() {
                    break;
                }
            }
        });
        Keyed {
            input: door.input,
            text,
            shown: Transcript::default(),
        }
    }
}

impl Speaker for Keyed {
    fn send(&mut self, line: &str) {
        let sent = self
            .input
            .blocking_send(Input::Line(line.as_bytes().to_vec(), line.len()));
        assert!(sent.is_ok(), "the session takes {line:?}");
    }

    fn wait_for(&mut self, text: &str) -> String {
        self.shown.wait_in(&self.text, text, PATIENCE)
    }
}
