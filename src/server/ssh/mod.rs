//! The ssh door: the server's host key, who a client is (its public key is
//! its account; `guest` needs none), and one session channel a connection,
//! moved between russh and a session's link.
//!
//! Every request a client makes on its channel is answered, yes or no (russh
//! answers none by itself). russh's `Channel` is split at once and its read
//! half dropped: input arrives through the handler's callbacks, so nothing
//! holds a channel that is never read. Output goes through the write half,
//! which waits for the client's window: a client that stops reading fills
//! its session's outbox, and is then closed.

pub mod editor;

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};
use russh::server::{Auth, ChannelOpenHandle, Config, Msg, Session, VerifiedPublicKey};
use russh::{ChannelId, ChannelWriteHalf, Disconnect, MethodKind, MethodSet, SshId};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_util::sync::{CancellationToken, DropGuard};
use tokio_util::task::TaskTracker;

use super::Server;
use super::limits::{Limits, Permit};
use super::link::{
    Arrival, Dialect, Door, DoorEnd, Identity, Input, LineCutter, PlainRows, QUESTION_PAUSE,
};
use crate::shell::log::{OpenError, open_regular};
use editor::{Ahead, Edit, Editor, InSight, Place, Typed};

/// The host key's file in the data directory.
pub const HOST_KEY_FILE: &str = "ssh_host_ed25519_key";

/// Its public half, beside it, for the operator to hand out.
pub const HOST_KEY_PUB_FILE: &str = "ssh_host_ed25519_key.pub";

/// The user who may log in with no key, as a guest.
pub const GUEST: &str = "guest";

/// The one command `ssh host COMMAND` runs: the machine dialect.
const JSON_COMMAND: &[u8] = b"json";

/// How long a client may take to say who it is. A handshake stopped half
/// way was seen to hold its place twice this long (the version exchange,
/// then the login), so half a minute keeps every case within a minute.
const AUTH_TIME: Duration = Duration::from_secs(30);

/// A failed authentication is answered after this long, whatever failed.
const REJECTION_TIME: Duration = Duration::from_secs(1);

/// How often a silent client is asked whether it is still there; three
/// unanswered asks close it.
const KEEPALIVE: Duration = Duration::from_secs(30);

/// How long the sessions get to say goodbye when the server shuts down, if
/// it does not close the connections sooner.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How long the last text of a closing session may take to leave.
const DRAIN_TIME: Duration = Duration::from_secs(2);

/// Why the host key could not be had.
#[derive(Debug, thiserror::Error)]
pub enum HostKeyError {
    /// The data directory could not be made.
    #[error("cannot create the data directory {}: {source}", .path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The key file could not be read or written.
    #[error("cannot {what} the ssh host key {}: {source}", .path.display())]
    File {
        /// "read" or "write".
        what: &'static str,
        /// The key file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is there but holds no usable key.
    #[error(
        "{} is not an ssh host key this server can use ({why}); move it away and a new key is made at the next start",
        .path.display()
    )]
    NotAKey {
        /// The key file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Others may read the key.
    #[error("the ssh host key {} may be read by others (mode {mode:o}); run: chmod 600 {}", .path.display(), .path.display())]
    Exposed {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
}

/// The server's Ed25519 host key, kept in `dir` as [`HOST_KEY_FILE`]
/// (OpenSSH's format, mode 0600): made on the first start, the same on
/// every later one. `dir` is created (mode 0700) if missing.
pub fn host_key(dir: &Path) -> Result<PrivateKey, HostKeyError> {
    if let Some(key) = existing_host_key(dir)? {
        keep_public_half(dir, &key);
        return Ok(key);
    }
    let path = dir.join(HOST_KEY_FILE);
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|source| HostKeyError::Directory {
            path: dir.to_path_buf(),
            source,
        })?;
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(|e| {
        HostKeyError::NotAKey {
            path: path.clone(),
            why: format!("cannot make one: {e}"),
        }
    })?;
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| HostKeyError::NotAKey {
            path: path.clone(),
            why: format!("cannot write one: {e}"),
        })?;
    let write_error = |source| HostKeyError::File {
        what: "write",
        path: path.clone(),
        source,
    };
    // Written whole under another name and then linked into place, so two
    // servers starting at once agree on one key and neither reads half a file.
    let temporary = dir.join(format!("{HOST_KEY_FILE}.{}.new", std::process::id()));
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(write_error(e));
    }
    let linked = fs::hard_link(&temporary, &path);
    let _ = fs::remove_file(&temporary);
    match linked {
        Ok(()) => {
            keep_public_half(dir, &key);
            Ok(key)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let bytes = fs::read(&path).map_err(|source| HostKeyError::File {
                what: "read",
                path: path.clone(),
                source,
            })?;
            read_key(&path, &bytes)
        }
        Err(e) => Err(write_error(e)),
    }
}

/// The host key kept in `dir`, if there is one yet; makes nothing. A
/// start checks it before making anything, so that a damaged key refuses
/// the start before the store is made.
pub fn existing_host_key(dir: &Path) -> Result<Option<PrivateKey>, HostKeyError> {
    let path = dir.join(HOST_KEY_FILE);
    let read_error = |source| HostKeyError::File {
        what: "read",
        path: path.clone(),
        source,
    };
    // Opened without waiting (a pipe there would hold the start for good),
    // and read only if it is a file, and only as much as a key takes.
    let file = match open_regular(&path) {
        Ok(file) => file,
        Err(OpenError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(OpenError::Io(_, e)) => return Err(read_error(e)),
        Err(OpenError::Denied(_)) => {
            return Err(read_error(io::ErrorKind::PermissionDenied.into()));
        }
        Err(OpenError::Folder(_) | OpenError::NotAFile(_)) => {
            return Err(HostKeyError::NotAKey {
                path,
                why: "it is not a file".into(),
            });
        }
    };
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(file, MAX_KEY_FILE), &mut bytes)
        .map_err(read_error)?;
    read_key(&path, &bytes).map(Some)
}

/// Writes the key's public half beside it ([`HOST_KEY_PUB_FILE`]) where
/// it is missing or holds anything but that key: the fingerprint the
/// operator hands players is read from it. Nothing there is waited on (a
/// pipe), and what is not a file is left alone (a start refuses it).
fn keep_public_half(dir: &Path, key: &PrivateKey) {
    let path = dir.join(HOST_KEY_PUB_FILE);
    match open_regular(&path) {
        // Not a file: a start refuses it; nothing is written there.
        Err(OpenError::Folder(_) | OpenError::NotAFile(_)) => return,
        Err(_) => {}
        Ok(file) => {
            let mut text = String::new();
            let _ = io::Read::read_to_string(&mut io::Read::take(file, MAX_KEY_FILE), &mut text);
            let there = russh::keys::PublicKey::from_openssh(text.trim());
            if there.is_ok_and(|there| there.key_data() == key.public_key().key_data()) {
                return;
            }
        }
    }
    let Ok(public) = key.public_key().to_openssh() else {
        return;
    };
    // Never through a link: it could lead to a file outside the folder
    // (someone's own key); a link there is left as it is.
    let _ = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o644)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW)
        .open(&path)
        .and_then(|mut file| file.write_all((public + "\n").as_bytes()));
}

/// The most of a host key file that is read: an Ed25519 key in OpenSSH's
/// format takes under half a kilobyte.
const MAX_KEY_FILE: u64 = 64 * 1024;

/// The first line of a private key in OpenSSH's format.
const OPENSSH_KEY_BEGINS: &str = "-----BEGIN OPENSSH PRIVATE KEY-----";

fn read_key(path: &Path, bytes: &[u8]) -> Result<PrivateKey, HostKeyError> {
    let not_a_key = |why: String| HostKeyError::NotAKey {
        path: path.to_path_buf(),
        why,
    };
    if !String::from_utf8_lossy(bytes)
        .trim_start()
        .starts_with(OPENSSH_KEY_BEGINS)
    {
        return Err(not_a_key(format!(
            "it does not begin as a private key in OpenSSH's format does, with {OPENSSH_KEY_BEGINS}"
        )));
    }
    let key = PrivateKey::from_openssh(bytes).map_err(|e| not_a_key(e.to_string()))?;
    if key.is_encrypted() {
        return Err(not_a_key("it is protected by a passphrase".into()));
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(not_a_key(format!(
            "it is {}, not Ed25519",
            key.algorithm().as_str()
        )));
    }
    if let Ok(meta) = fs::metadata(path) {
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(HostKeyError::Exposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    Ok(key)
}

/// A key's fingerprint as `ssh-keygen -l` prints it: `SHA256:…`.
pub fn fingerprint(key: &russh::keys::PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// Runs the ssh door on `listener` until the server shuts down; then waits
/// (a few seconds at most) for its connections to end: each ends when the
/// server is closing, after the last words of its session. Fails only when
/// the host key cannot be had.
pub async fn serve(listener: TcpListener, server: Server) -> io::Result<()> {
    let key = host_key(server.data_dir()).map_err(io::Error::other)?;
    let config = Arc::new(config(key, server.gate().limits()));
    let connections = TaskTracker::new();
    let shutdown = server.shutdown().clone();
    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a moment rather than spin, and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match server.gate().admit(peer, Instant::now()) {
            Ok(permit) => {
                connections.spawn(connection(
                    stream,
                    peer,
                    permit,
                    Arc::clone(&config),
                    server.clone(),
                ));
            }
            Err(why) => {
                connections.spawn(async move {
                    let mut stream = stream;
                    let said = format!("tallyho: {why}\r\n");
                    let _ = tokio::time::timeout(Duration::from_secs(1), async {
                        let _ = stream.write_all(said.as_bytes()).await;
                        let _ = stream.shutdown().await;
                    })
                    .await;
                });
            }
        }
    }
    drop(listener);
    connections.close();
    let _ = tokio::time::timeout(
        SHUTDOWN_GRACE + DRAIN_TIME + Duration::from_secs(1),
        connections.wait(),
    )
    .await;
    Ok(())
}

/// russh's settings for this server.
fn config(key: PrivateKey, limits: Limits) -> Config {
    Config {
        server_id: SshId::Standard(concat!("SSH-2.0-tallyho_", env!("CARGO_PKG_VERSION")).into()),
        methods: MethodSet::from(&[MethodKind::PublicKey, MethodKind::None][..]),
        auth_rejection_time: REJECTION_TIME,
        // OpenSSH opens with "none" to learn the methods: no need to wait.
        auth_rejection_time_initial: Some(Duration::ZERO),
        keys: vec![key],
        max_auth_attempts: 6,
        inactivity_timeout: Some(limits.idle),
        keepalive_interval: Some(KEEPALIVE),
        keepalive_max: 3,
        nodelay: true,
        ..Config::default()
    }
}

/// What a connection's handler and its watcher share.
struct Watch {
    /// When the client last typed; the idle timeout counts from it.
    last_input: Mutex<Instant>,
    /// The sessions running on the connection's channels, and when the
    /// last one ended (none yet: no shell or command was asked for): a
    /// connection with none has the time to authenticate to start one, or
    /// close.
    sessions: Mutex<(usize, Option<Instant>)>,
    /// Wakes the connection's watch to look at its deadline again.
    changed: tokio::sync::Notify,
    /// Whether the client has said who it is.
    authenticated: AtomicBool,
    /// The client sent more than [`MAX_QUEUED`] before its session read it.
    flooded: AtomicBool,
    /// Cancelled to close the connection at once.
    kill: CancellationToken,
}

impl Watch {
    /// A session starts on one of the connection's channels.
    fn session_started(&self) {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
    }

    /// When a connection with no session running must close, and why:
    /// logged in, with no shell or command asked for, or every session
    /// over while the client keeps the connection, it would hold one of
    /// its address's places for nothing. `None` while a session runs.
    fn without_session(&self, opened: Instant) -> Option<(Instant, &'static str)> {
        match *self.sessions.lock().unwrap_or_else(|e| e.into_inner()) {
            (0, None) => Some((opened + AUTH_TIME, "no session was started in time")),
            (0, Some(ended)) => Some((ended + AUTH_TIME, "no session is left on the connection")),
            _ => None,
        }
    }

    /// A session (or a command answered at once) has ended.
    fn session_ended(&self) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.0 = sessions.0.saturating_sub(1);
        sessions.1 = Some(Instant::now());
        drop(sessions);
        self.changed.notify_one();
    }

    fn touch(&self) {
        *self.last_input.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn last_input(&self) -> Instant {
        *self.last_input.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The stream for russh and a second handle on the same socket, to shut it
/// from here.
fn two_handles(stream: TcpStream) -> Option<(TcpStream, std::net::TcpStream)> {
    let std = stream.into_std().ok()?;
    let keep = std.try_clone().ok()?;
    Some((TcpStream::from_std(std).ok()?, keep))
}

impl Watch {
    /// When the connection must end unless something happens first, and
    /// why: the shutdown's grace, the time to authenticate, or idleness.
    fn deadline(
        &self,
        leaving: Option<Instant>,
        opened: Instant,
        idle: Duration,
    ) -> (Instant, &'static str) {
        if let Some(at) = leaving {
            (at, "the server is shutting down")
        } else if !self.authenticated.load(Ordering::SeqCst) {
            (opened + AUTH_TIME, "authentication took too long")
        } else if let Some(at_most) = self.without_session(opened) {
            at_most
        } else {
            (
                self.last_input() + idle,
                "closed after too long without input",
            )
        }
    }
}

/// One TCP connection, from the handshake to its end. The permit is held
/// all the while.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    permit: Permit,
    config: Arc<Config>,
    server: Server,
) {
    // A second handle on the socket: russh's reader may hold the stream in
    // a task of its own, so the connection is shut from here when it ends.
    let Some((stream, socket)) = two_handles(stream) else {
        return;
    };
    let idle = server.gate().limits().idle;
    let opened = Instant::now();
    let watch = Arc::new(Watch {
        last_input: Mutex::new(opened),
        authenticated: AtomicBool::new(false),
        sessions: Mutex::new((0, None)),
        changed: tokio::sync::Notify::new(),
        flooded: AtomicBool::new(false),
        kill: CancellationToken::new(),
    });
    let handler = Handler {
        server: server.clone(),
        peer,
        identity: None,
        watch: Arc::clone(&watch),
        channels: HashMap::new(),
    };
    // russh reads the client's version line before it hands the session
    // over: a client that sends none holds its place only so long.
    // A shutdown does not wait for a handshake: nobody has logged in yet.
    let started = tokio::select! {
        started = tokio::time::timeout(
            AUTH_TIME,
            russh::server::run_stream(config, stream, handler),
        ) => started.ok().and_then(Result::ok),
        () = server.shutdown().cancelled() => None,
    };
    let Some(session) = started else {
        let _ = socket.shutdown(std::net::Shutdown::Both);
        return;
    };
    let handle = session.handle();
    tokio::pin!(session);
    // When the server shuts down, the sessions tell their players and then
    // `closing` is cancelled: each channel ends with what was said, and a
    // client that does not leave then is disconnected.
    let mut leaving: Option<Instant> = None;
    let mut closing = false;
    let why = loop {
        let now = Instant::now();
        let (deadline, why) = watch.deadline(leaving, opened, idle);
        if now >= deadline {
            break Some(why);
        }
        tokio::select! {
            _ = &mut session => break None,
            () = watch.kill.cancelled() => break Some(if watch.flooded.load(Ordering::SeqCst) {
                FLOODED
            } else {
                "the connection fell behind"
            }),
            // The times are counted from now, not from `now` above: the
            // loop may have waited long for this (a quiet player's
            // connection waits here for its idle time), and a grace counted
            // from then would be over before the players were told.
            // Someone who has not logged in has no game and nothing to be
            // told: they go at once.
            () = server.shutdown().cancelled(), if leaving.is_none() => {
                let grace = if watch.authenticated.load(Ordering::SeqCst) {
                    SHUTDOWN_GRACE
                } else {
                    Duration::ZERO
                };
                leaving = Some(Instant::now() + grace);
            }
            () = server.closing().cancelled(), if !closing => {
                closing = true;
                let soon = Instant::now() + DRAIN_TIME + Duration::from_secs(1);
                leaving = Some(leaving.map_or(soon, |at| at.min(soon)));
            }
            () = tokio::time::sleep_until(deadline.into()) => {}
            // A session ended: the deadline may be sooner now.
            () = watch.changed.notified() => {}
        }
    };
    if let Some(why) = why {
        let _ = tokio::time::timeout(
            Duration::from_secs(1),
            handle.disconnect(Disconnect::ByApplication, why.into(), String::new()),
        )
        .await;
        // A handler waiting on a session's inbox gives up now.
        watch.kill.cancel();
        // Someone logged in may still be reading their last words; nobody
        // else is waited for.
        if watch.authenticated.load(Ordering::SeqCst) {
            let _ = tokio::time::timeout(Duration::from_secs(2), &mut session).await;
        }
    }
    let _ = socket.shutdown(std::net::Shutdown::Both);
    drop(permit);
}

/// How a channel's input is read.
enum Reader {
    /// No terminal: lines cut at `\n`.
    Lines(LineCutter),
    /// A terminal: keys, edited here.
    Keys(Editor),
}

/// A session channel.
struct Channel {
    write: Option<ChannelWriteHalf<Msg>>,
    /// The width of the client's terminal, shared with its session.
    width: Arc<AtomicUsize>,
    pty: bool,
    /// The terminal's type, from the pty request, is `dumb`: no colour.
    dumb: bool,
    started: bool,
    /// Where lines go, until the client's input ends.
    input: Option<Forward>,
    reader: Reader,
    /// The keys typed at a terminal, shared with the output task.
    keys: Arc<std::sync::Mutex<Keys>>,
    /// Stops the channel's output task when the channel goes.
    _output: Option<DropGuard>,
}

/// What a channel's handler and its output task share of a terminal's keys.
#[derive(Default)]
struct Keys {
    /// The line being typed, for the output task to show again after text
    /// the session writes while it is typed.
    typed: Typed,
    /// The echo of lines typed ahead, for the output task to show after
    /// the session's questions.
    ahead: Ahead,
    /// Where the line being typed starts on its row, after the question:
    /// the output task says, for Backspace to climb a wrapped line.
    start: usize,
}

/// Lines on their way to a session. The handler hands them over at once and
/// a task of the channel's waits for room in the session's inbox: a handler
/// that waited itself would hold up russh's loop, and with it the output, so
/// a script sent faster than it is answered would fill the session's outbox
/// and be cut off as a reader that fell behind.
struct Forward {
    queue: mpsc::UnboundedSender<Input>,
    /// What the lines queued take, as [`MAX_QUEUED`] counts it.
    queued: Arc<AtomicUsize>,
}

/// The most a channel's queued lines may take, in bytes, each counted
/// [`LINE_COST`] more than its text: past it the client is sending faster
/// than any script needs, and the connection is closed.
const MAX_QUEUED: usize = 1 << 20;

/// Why a connection that sent more than [`MAX_QUEUED`] ahead is closed.
const FLOODED: &str =
    "more than a mebibyte of input came before it could be read: the connection is closed";
const LINE_COST: usize = 64;

fn cost(input: &Input) -> usize {
    LINE_COST
        + match input {
            Input::Line(bytes, _) => bytes.len(),
            Input::Interrupt | Input::Wake => 0,
        }
}

impl Forward {
    /// Starts the task that passes the queued lines on to `inbox`; when the
    /// forward is dropped, the task passes on what is queued and then drops
    /// `inbox`, and the session reads the end of its input.
    fn to(inbox: mpsc::Sender<Input>) -> Forward {
        let (queue, mut lines) = mpsc::unbounded_channel::<Input>();
        let queued = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&queued);
        tokio::spawn(async move {
            while let Some(line) = lines.recv().await {
                counted.fetch_sub(cost(&line), Ordering::SeqCst);
                if inbox.send(line).await.is_err() {
                    break;
                }
            }
        });
        Forward { queue, queued }
    }
}

/// One connection's russh handler.
struct Handler {
    server: Server,
    peer: SocketAddr,
    identity: Option<Identity>,
    watch: Arc<Watch>,
    channels: HashMap<ChannelId, Channel>,
}

impl Handler {
    /// Starts the session of `id` in `dialect`; false if it cannot start.
    fn start(&mut self, id: ChannelId, dialect: Dialect) -> bool {
        let identity = self.identity.clone().unwrap_or(Identity::Guest);
        let peer = self.peer;
        let Some(channel) = self.channels.get_mut(&id) else {
            return false;
        };
        let Some(write) = channel.write.take() else {
            return false;
        };
        let DoorEnd {
            input,
            output,
            closed,
            status,
        } = self.server.arrive(Arrival {
            peer,
            door: Door::Ssh,
            identity,
            dialect,
            width: Arc::clone(&channel.width),
            colour: !channel.dumb,
        });
        channel.started = true;
        self.watch.session_started();
        channel.input = Some(Forward::to(input));
        if channel.pty {
            channel.reader = Reader::Keys(Editor::default());
            if dialect == Dialect::Terminal {
                channel.keys.lock().unwrap_or_else(|e| e.into_inner()).ahead = Ahead::taking();
            }
        }
        let stop = CancellationToken::new();
        channel._output = Some(stop.clone().drop_guard());
        let pumped = pump(
            write,
            output,
            Ends {
                closed,
                status,
                closing: self.server.closing().clone(),
                stop,
                kill: self.watch.kill.clone(),
            },
            channel
                .pty
                .then(|| (Arc::clone(&channel.keys), Arc::clone(&channel.width))),
        );
        let watch = Arc::clone(&self.watch);
        tokio::spawn(async move {
            pumped.await;
            watch.session_ended();
        });
        true
    }

    /// Passes lines to a session through its channel's queue, never
    /// waiting; a client that has queued more than [`MAX_QUEUED`] is
    /// disconnected.
    fn send(&mut self, id: ChannelId, inputs: Vec<Input>) -> Result<(), russh::Error> {
        let Some(forward) = self.channels.get(&id).and_then(|c| c.input.as_ref()) else {
            return Ok(());
        };
        for input in inputs {
            let cost = cost(&input);
            if forward.queued.fetch_add(cost, Ordering::SeqCst) + cost > MAX_QUEUED {
                // Nothing more is read, and the connection closes with the
                // reason, which ssh shows (`Received disconnect …`).
                self.watch.flooded.store(true, Ordering::SeqCst);
                self.end_input(id);
                self.watch.kill.cancel();
                return Ok(());
            }
            if forward.queue.send(input).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// The channel's input has ended: its session sees the end of input.
    fn end_input(&mut self, id: ChannelId) {
        if let Some(channel) = self.channels.get_mut(&id) {
            channel.input = None;
        }
    }

    /// A request on `id` that may be granted once the channel is open and
    /// before its session starts.
    fn before_start(&self, id: ChannelId) -> bool {
        self.channels.get(&id).is_some_and(|c| !c.started)
    }
}

/// Answers a channel request yes or no.
fn answer(session: &mut Session, id: ChannelId, yes: bool) -> Result<(), russh::Error> {
    if yes {
        session.channel_success(id)
    } else {
        session.channel_failure(id)
    }
}

fn columns(width: u32) -> usize {
    usize::try_from(width).unwrap_or(0)
}

impl russh::server::Handler for Handler {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        if user == GUEST {
            self.identity = Some(Identity::Guest);
            return Ok(Auth::Accept);
        }
        Ok(Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.identity = Some(Identity::Key {
            fingerprint: fingerprint(key.public_key),
            user: user.to_string(),
        });
        Ok(Auth::Accept)
    }

    async fn auth_succeeded(&mut self, _session: &mut Session) -> Result<(), Self::Error> {
        self.watch.authenticated.store(true, Ordering::SeqCst);
        self.watch.touch();
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: russh::Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One session a connection: the gate counts connections.
        if !self.channels.is_empty() {
            reply
                .reject(russh::ChannelOpenFailure::ResourceShortage)
                .await;
            return Ok(());
        }
        let (read, write) = channel.split();
        // Input comes through the callbacks; a read half kept unread would
        // stall the connection once its buffer filled.
        drop(read);
        self.channels.insert(
            write.id(),
            Channel {
                write: Some(write),
                width: Arc::default(),
                pty: false,
                dumb: false,
                started: false,
                input: None,
                reader: Reader::Lines(LineCutter::default()),
                keys: Arc::default(),
                _output: None,
            },
        );
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        id: ChannelId,
        term: &str,
        col_width: u32,
        _row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let yes = self.before_start(id);
        if let Some(channel) = self.channels.get_mut(&id).filter(|_| yes) {
            channel.pty = true;
            channel.dumb = term.eq_ignore_ascii_case("dumb");
            channel.width.store(columns(col_width), Ordering::Relaxed);
        }
        answer(session, id, yes)
    }

    async fn window_change_request(
        &mut self,
        id: ChannelId,
        col_width: u32,
        _row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let channel = self.channels.get(&id);
        if let Some(channel) = channel {
            channel.width.store(columns(col_width), Ordering::Relaxed);
        }
        answer(session, id, channel.is_some())
    }

    async fn shell_request(
        &mut self,
        id: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let pty = self.channels.get(&id).is_some_and(|c| c.pty);
        let dialect = if pty {
            Dialect::Terminal
        } else {
            Dialect::Script
        };
        let yes = self.before_start(id) && self.start(id, dialect);
        answer(session, id, yes)
    }

    async fn exec_request(
        &mut self,
        id: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.before_start(id) {
            return answer(session, id, false);
        }
        if data == JSON_COMMAND {
            let yes = self.start(id, Dialect::Json);
            return answer(session, id, yes);
        }
        // The request is taken, as a shell takes an unknown command, and
        // the command fails the way one does.
        answer(session, id, true)?;
        let command = crate::shell::safe::text(&String::from_utf8_lossy(data));
        let command = crate::shell::safe::cut(&command, 60);
        let said = format!(
            "tallyho: no command \"{command}\" here; log in with no command to play, or run \"json\" for the machine dialect\r\n"
        );
        if let Some(channel) = self.channels.get_mut(&id) {
            channel.started = true;
            channel.write = None;
        }
        // A command answered at once: a session begun and ended.
        self.watch.session_started();
        self.watch.session_ended();
        session.extended_data(id, 1, said.into_bytes())?;
        session.exit_status_request(id, 2)?;
        session.eof(id)?;
        session.close(id)
    }

    async fn env_request(
        &mut self,
        id: ChannelId,
        _variable_name: &str,
        _variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        answer(session, id, false)
    }

    async fn subsystem_request(
        &mut self,
        id: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        answer(session, id, false)
    }

    async fn x11_request(
        &mut self,
        id: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        answer(session, id, false)
    }

    async fn data(
        &mut self,
        id: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.watch.touch();
        let Some(channel) = self.channels.get_mut(&id) else {
            return Ok(());
        };
        if channel.input.is_none() {
            return Ok(());
        }
        let mut inputs = Vec::new();
        let mut ended = false;
        match &mut channel.reader {
            Reader::Lines(cutter) => cutter.feed(data, &mut |line| inputs.push(line)),
            Reader::Keys(editor) => {
                let mut keys = channel.keys.lock().unwrap_or_else(|e| e.into_inner());
                editor.place(Place {
                    start: keys.start,
                    width: if channel.dumb {
                        0
                    } else {
                        channel.width.load(Ordering::Relaxed)
                    },
                });
                let mut shown = Vec::new();
                let mut echo = Vec::new();
                let mut edits = Vec::new();
                // Key by key: a line handed over is shown now, or when the
                // session takes it (see `Ahead`).
                for &b in data {
                    // What Ctrl-C drops, shown with it if it waits.
                    let dropped = (b == 0x03).then(|| editor.shown_line());
                    editor.feed(&[b], &mut echo, &mut edits);
                    let (now, input) = match edits.pop() {
                        None => {
                            shown.extend_from_slice(keys.ahead.key(&echo));
                            echo.clear();
                            continue;
                        }
                        Some(Edit::End) => {
                            ended = true;
                            break;
                        }
                        Some(Edit::Line(line, total)) => {
                            let whole = || [line.as_bytes(), b"\r\n"].concat();
                            let now = keys.ahead.handed(std::mem::take(&mut echo), whole);
                            (now, Input::Line(line.into_bytes(), total))
                        }
                        Some(Edit::Interrupt) => {
                            let dropped = dropped.unwrap_or_default();
                            let whole = || [dropped.as_bytes(), b"^C\r\n"].concat();
                            let now = keys.ahead.handed(std::mem::take(&mut echo), whole);
                            (now, Input::Interrupt)
                        }
                    };
                    // Shown: the question on the screen is answered.
                    keys.typed.handed |= !now.is_empty();
                    shown.extend_from_slice(&now);
                    inputs.push(input);
                }
                keys.typed.line = editor.shown_line();
                drop(keys);
                if !shown.is_empty() {
                    session.data(id, shown)?;
                }
            }
        }
        self.send(id, inputs)?;
        if ended {
            self.end_input(id);
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        id: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let last = match self.channels.get_mut(&id).map(|c| &mut c.reader) {
            Some(Reader::Lines(cutter)) => cutter.finish(),
            _ => None,
        };
        self.send(id, last.into_iter().collect())?;
        self.end_input(id);
        Ok(())
    }

    async fn channel_close(
        &mut self,
        id: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Its session sees the end of input; its output task stops.
        self.channels.remove(&id);
        Ok(())
    }
}

/// The channel is gone: the session's last words go nowhere, but they are
/// taken until it ends, so that it ends as after any end of input (leaving
/// its game to wait) and not on a failed write.
async fn discard(mut output: mpsc::Receiver<Vec<u8>>, closed: CancellationToken) {
    loop {
        tokio::select! {
            text = output.recv() => if text.is_none() {
                return;
            },
            () = closed.cancelled() => return,
        }
    }
}

/// What ends a channel's output task.
struct Ends {
    /// The session ended, or its client fell behind.
    closed: CancellationToken,
    /// The exit status the session leaves (0 unless it refused the login).
    status: Arc<AtomicU32>,
    /// The server is closing every connection.
    closing: CancellationToken,
    /// The channel is gone (the client closed it, or the connection).
    stop: CancellationToken,
    /// Cancelled by the task to have the whole connection closed.
    kill: CancellationToken,
}

/// Moves a session's text to its channel until the session ends, then ends
/// the channel as a program does: its exit status (0 unless the session
/// refused the login), EOF, close. With a
/// terminal (`keys`: the line being typed there and the echo of lines
/// typed ahead, and the terminal's width), line ends are written as a
/// terminal needs them, the typed line is kept in sight, and a line typed
/// ahead is shown when the session takes it.
async fn pump(
    write: ChannelWriteHalf<Msg>,
    mut output: mpsc::Receiver<Vec<u8>>,
    ends: Ends,
    keys: Option<(Arc<std::sync::Mutex<Keys>>, Arc<AtomicUsize>)>,
) {
    let Ends {
        closed,
        status,
        closing,
        stop,
        kill,
    } = ends;
    let mut after_cr = false;
    let mut in_sight = InSight::default();
    let plain = std::sync::Mutex::new(PlainRows::default());
    let mut to_channel = |text: Vec<u8>| match &keys {
        None => plain.lock().unwrap_or_else(|e| e.into_inner()).write(text),
        Some((keys, width)) => {
            let (text, notice) = crate::server::link::unmarked(text);
            let width = width.load(Ordering::Relaxed);
            let mut keys = keys.lock().unwrap_or_else(|e| e.into_inner());
            if text == [crate::server::link::TAKEN] {
                // The session took a line: shown now if it was typed
                // ahead, after the question it answers.
                let Some(echo) = keys.ahead.taken() else {
                    return Vec::new();
                };
                keys.typed.handed = true;
                return editor::crlf(&echo, &mut after_cr);
            }
            // Taken with the flag put down: this text is the session's
            // answer, or comes before it. While echo is held, nothing
            // typed since is on the screen.
            let holding = keys.ahead.holding();
            let now = Typed {
                line: if holding {
                    String::new()
                } else {
                    keys.typed.line.clone()
                },
                handed: std::mem::take(&mut keys.typed.handed),
            };
            let mut out = in_sight.write(&text, &now, notice, width);
            keys.start = in_sight.column();
            // A question: what is typed of the next line follows it, once
            // no line typed ahead waits.
            let question = !notice && !text.is_empty() && !text.ends_with(b"\n");
            if question && keys.ahead.asked() {
                out.extend_from_slice(keys.typed.line.as_bytes());
            }
            drop(keys);
            editor::crlf(&out, &mut after_cr)
        }
    };
    loop {
        // After a notice, the question again (without a terminal), unless
        // the session speaks first.
        let owed = plain.lock().unwrap_or_else(|e| e.into_inner()).is_owed();
        let text = tokio::select! {
            biased;
            () = stop.cancelled() => return discard(output, closed).await,
            text = output.recv() => text.map(&mut to_channel),
            () = tokio::time::sleep(QUESTION_PAUSE), if owed => {
                Some(plain.lock().unwrap_or_else(|e| e.into_inner()).owed())
            }
            () = closed.cancelled() => None,
            () = closing.cancelled() => None,
        };
        let Some(text) = text else { break };
        if text.is_empty() {
            continue;
        }
        tokio::select! {
            sent = write.data_bytes(text) => if sent.is_err() {
                return;
            },
            () = stop.cancelled() => return discard(output, closed).await,
            // The client stopped reading and its outbox filled.
            () = closed.cancelled() => break,
        }
    }
    // What the session said last (its goodbye) still leaves, if the client
    // takes it in reasonable time.
    let drained = tokio::time::timeout(DRAIN_TIME, async {
        while let Ok(text) = output.try_recv() {
            let text = to_channel(text);
            if !text.is_empty() {
                write.data_bytes(text).await?;
            }
        }
        write.exit_status(status.load(Ordering::SeqCst)).await?;
        write.eof().await?;
        write.close().await
    })
    .await;
    if drained.is_err() {
        kill.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    fn scratch(tag: &str) -> Scratch {
        Scratch::unmade(&format!("hostkey-{tag}"))
    }

    #[test]
    fn the_host_key_is_made_once_private_and_kept() {
        let root = scratch("kept");
        let dir = root.join("serve");
        let first = host_key(&dir).unwrap();
        let path = dir.join(HOST_KEY_FILE);
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir_mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(dir_mode, 0o700);
        let again = host_key(&dir).unwrap();
        assert_eq!(first.public_key(), again.public_key());
        assert!(fingerprint(first.public_key()).starts_with("SHA256:"));
        // The public half, whose fingerprint players are given, is made
        // again where it is missing or holds anything but this key; a link
        // there is never written through.
        let public = dir.join(HOST_KEY_PUB_FILE);
        let other = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let other = other.public_key().to_openssh().unwrap();
        for there in [None, Some("not a key\n".to_string()), Some(other)] {
            match there {
                None => fs::remove_file(&public).unwrap(),
                Some(text) => fs::write(&public, text).unwrap(),
            }
            host_key(&dir).unwrap();
            let text = fs::read_to_string(&public).unwrap();
            let read = russh::keys::PublicKey::from_openssh(text.trim()).unwrap();
            assert_eq!(read.key_data(), first.public_key().key_data());
        }
        let elsewhere = root.join("elsewhere.pub");
        fs::write(&elsewhere, "someone's key\n").unwrap();
        fs::remove_file(&public).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &public).unwrap();
        host_key(&dir).unwrap();
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "someone's key\n");
    }

    #[test]
    fn a_login_that_starts_no_session_has_the_time_to_authenticate_only() {
        let opened = Instant::now();
        let idle = Duration::from_secs(1800);
        let watch = Watch {
            last_input: Mutex::new(opened),
            sessions: Mutex::new((0, None)),
            changed: tokio::sync::Notify::new(),
            authenticated: AtomicBool::new(false),
            flooded: AtomicBool::new(false),
            kill: CancellationToken::new(),
        };
        let at = |watch: &Watch| watch.deadline(None, opened, idle);
        assert_eq!(
            at(&watch),
            (opened + AUTH_TIME, "authentication took too long")
        );
        // Logged in, and no shell or command asked for: no longer.
        watch.authenticated.store(true, Ordering::SeqCst);
        assert_eq!(
            at(&watch),
            (opened + AUTH_TIME, "no session was started in time")
        );
        // A session: the idle time, from the last key.
        watch.session_started();
        assert_eq!(
            at(&watch),
            (opened + idle, "closed after too long without input")
        );
        // Its session over, and the client keeps the connection: the time
        // to authenticate again, from the end.
        watch.session_ended();
        let (at_end, why) = at(&watch);
        assert_eq!(why, "no session is left on the connection");
        assert!(at_end > opened + AUTH_TIME - Duration::from_millis(1));
        assert!(at_end <= Instant::now() + AUTH_TIME);
        // Another session on it: the idle time again.
        watch.session_started();
        assert_eq!(
            at(&watch),
            (opened + idle, "closed after too long without input")
        );
    }

    #[test]
    fn a_file_that_is_no_key_gives_a_clear_error() {
        let dir = scratch("garbage");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(HOST_KEY_FILE);
        fs::write(&path, "not a key\n").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let error = host_key(&dir).unwrap_err().to_string();
        assert!(error.contains("is not an ssh host key"), "{error}");
        assert!(
            error.contains("it does not begin as a private key in OpenSSH's format does"),
            "{error}"
        );
        assert!(error.contains("move it away"), "{error}");
        // A good key that others may read is refused too, as sshd does.
        fs::remove_file(&path).unwrap();
        host_key(&dir).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        let error = host_key(&dir).unwrap_err().to_string();
        assert!(error.contains("chmod 600"), "{error}");
    }
}
