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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

mod hub;
pub mod limits;
pub mod lines;
pub mod link;
mod referee;
mod session;
pub mod ssh;
pub mod store;

use limits::Gate;
use link::{Arrival, DoorEnd};
pub use referee::{Adjourned, Recovered};

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
    closing: CancellationToken,
    hub: hub::Hub,
    store: store::Store,
    grace: Duration,
    think: Duration,
    /// What the shutdown did with the games in progress, once it has.
    adjourned: Mutex<Option<Adjourned>>,
    /// What became of the games left unfinished when it last stopped, once
    /// they are brought back.
    recovered: std::sync::OnceLock<Recovered>,
}

/// How a server runs its games.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// How long a player who left may take to come back.
    pub grace: Duration,
    /// How long the server's computer thinks a move.
    pub think: Duration,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            grace: Duration::from_secs(120),
            think: Duration::from_millis(1000),
        }
    }
}

impl Server {
    /// A server keeping its data in `data` (the store is opened there),
    /// letting connections in through `gate`, its games run by `rules`.
    /// The games that were in progress when it last stopped come back
    /// adjourned.
    pub fn open(data: PathBuf, gate: Gate, rules: Rules) -> Result<Server, store::StoreError> {
        let store = store::Store::open(&data)?;
        // A server that was killed left its games in progress: adjourned now.
        store.adjourn_all()?;
        let unfinished = store.unfinished()?;
        let server = Server {
            inner: Arc::new(Inner {
                gate,
                data,
                shutdown: CancellationToken::new(),
                closing: CancellationToken::new(),
                hub: hub::Hub::default(),
                store,
                grace: rules.grace,
                think: rules.think,
                adjourned: Mutex::new(None),
                recovered: std::sync::OnceLock::new(),
            }),
        };
        let mut recovered = Recovered::default();
        for game in unfinished {
            server.restore(game, &mut recovered);
        }
        let _ = server.inner.recovered.set(recovered);
        Ok(server)
    }

    /// The store.
    fn store(&self) -> &store::Store {
        &self.inner.store
    }

    fn hub(&self) -> &hub::Hub {
        &self.inner.hub
    }

    /// How long a player who left may take to come back.
    fn grace(&self) -> Duration {
        self.inner.grace
    }

    /// How long the server's computer thinks.
    fn think(&self) -> Duration {
        self.inner.think
    }

    /// The gate every door lets connections in through.
    pub fn gate(&self) -> &Gate {
        &self.inner.gate
    }

    /// The data directory (the store, the host key, `history.jsonl`).
    pub fn data_dir(&self) -> &Path {
        &self.inner.data
    }

    /// Cancelled when the server is asked to shut down: the doors take no
    /// more connections, and every game is adjourned.
    pub fn shutdown(&self) -> &CancellationToken {
        &self.inner.shutdown
    }

    /// Cancelled once the players have been told of the shutdown: every
    /// connection closes.
    pub fn closing(&self) -> &CancellationToken {
        &self.inner.closing
    }

    /// What became, as the server started, of the games left unfinished
    /// when it last stopped.
    pub fn recovered(&self) -> Recovered {
        self.inner.recovered.get().copied().unwrap_or_default()
    }

    /// What the shutdown did with the games in progress, once it has.
    pub fn adjourned(&self) -> Option<Adjourned> {
        *self
            .inner
            .adjourned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the session of a connection that has arrived; the door then
    /// moves lines and text through the end it gets back.
    pub fn arrive(&self, arrival: Arrival) -> DoorEnd {
        let (door, link) = link::link(arrival);
        session::spawn(self.clone(), link);
        door
    }
}

/// What `tallyho serve` is told.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address both doors listen on.
    pub bind: std::net::IpAddr,
    /// The ssh door's port (0: the system chooses), or none.
    pub ssh_port: Option<u16>,
    /// The line door's port (0: the system chooses), or none.
    pub line_port: Option<u16>,
    /// The data directory.
    pub data: PathBuf,
    /// The limits on connections.
    pub limits: limits::Limits,
    /// How games run.
    pub rules: Rules,
}

/// A server running on a thread of its own.
pub struct Running {
    /// The ssh door's address, if open.
    pub ssh: Option<std::net::SocketAddr>,
    /// The line door's address, if open.
    pub lines: Option<std::net::SocketAddr>,
    server: Server,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The server.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// Stops the server and waits for its doors to close.
    pub fn stop(mut self) {
        self.server.shutdown().cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Waits until the server stops; what it did with the games in
    /// progress.
    pub fn wait(mut self) -> Adjourned {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.server.adjourned().unwrap_or_default()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.server.shutdown().cancel();
    }
}

/// Binds the doors and starts the server on a thread of its own.
pub fn start(config: Config) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let bind =
        |port: Option<u16>, door: &str| -> std::io::Result<Option<tokio::net::TcpListener>> {
            match port {
                None => Ok(None),
                Some(port) => {
                    let at = std::net::SocketAddr::new(config.bind, port);
                    // Which door could not open, and where: a port in use says
                    // only "Address already in use".
                    let std_listener = std::net::TcpListener::bind(at).map_err(|e| {
                        std::io::Error::new(e.kind(), format!("the {door} door on {at}: {e}"))
                    })?;
                    std_listener.set_nonblocking(true)?;
                    let _guard = runtime.enter();
                    Ok(Some(tokio::net::TcpListener::from_std(std_listener)?))
                }
            }
        };
    // What could refuse the start is found before anything is made in the
    // data folder: what stands in it (another server using it is named as
    // such, before its doors are found taken), the doors, then a host key
    // that cannot be read.
    store::Store::check(&config.data).map_err(std::io::Error::other)?;
    let ssh = bind(config.ssh_port, "ssh")?;
    let lines = bind(config.line_port, "line")?;
    // (A data folder that is not a folder is the store's to name.)
    if config.ssh_port.is_some() && config.data.is_dir() {
        for file in [ssh::HOST_KEY_FILE, ssh::HOST_KEY_PUB_FILE] {
            store::check_file(&config.data.join(file)).map_err(std::io::Error::other)?;
        }
        ssh::existing_host_key(&config.data).map_err(std::io::Error::other)?;
    }
    let server = Server::open(config.data.clone(), Gate::new(config.limits), config.rules)
        .map_err(std::io::Error::other)?;
    if config.ssh_port.is_some() {
        // A host key that cannot be made stops the start, not the door.
        ssh::host_key(&config.data).map_err(std::io::Error::other)?;
    }
    let ssh_addr = ssh.as_ref().map(|l| l.local_addr()).transpose()?;
    let lines_addr = lines.as_ref().map(|l| l.local_addr()).transpose()?;
    let doors = server.clone();
    let thread = std::thread::Builder::new()
        .name("server".into())
        .spawn(move || {
            runtime.block_on(async move {
                let mut tasks = Vec::new();
                if let Some(listener) = lines {
                    tasks.push(tokio::spawn(lines::serve(listener, doors.clone())));
                }
                if let Some(listener) = ssh {
                    tasks.push(tokio::spawn(ssh::serve(listener, doors.clone())));
                }
                doors.shutdown().cancelled().await;
                let farewell = doors.clone();
                let _ = tokio::task::spawn_blocking(move || {
                    let adjourned = farewell.adjourn_all();
                    *farewell
                        .inner
                        .adjourned
                        .lock()
                        .unwrap_or_else(|e| e.into_inner()) = Some(adjourned);
                    let _ = farewell.store().flush();
                })
                .await;
                // A moment for the farewells to reach the players.
                let end = tokio::time::Instant::now() + Duration::from_secs(2);
                while doors.hub().online() > 0 && tokio::time::Instant::now() < end {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    if doors.hub().all_quiet() {
                        break;
                    }
                }
                doors.closing().cancel();
                for task in tasks {
                    let _ = task.await;
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(2));
        })?;
    Ok(Running {
        ssh: ssh_addr,
        lines: lines_addr,
        server,
        thread: Some(thread),
    })
}
