//! The server's load benchmark: N clients on loopback, in pairs, play
//! random legal games to the end through the line door in the machine
//! dialect (`proto json`), and the server's peak memory and the move round
//! trip are measured.
//!
//! `cargo run --release --example server_load -- --clients 1000`
//!
//! Players think 100 ms a move on average (`--think`, uniformly 0 to twice
//! that); `--think 0` sends every move the moment the turn comes, so that
//! the server's throughput, not a game's pace, sets the round trip.
//!
//! The server runs in a child process (this example started again with
//! `--serve DIR`, which calls `tallyho::server::start` with the default
//! limits), so the memory reported is the server's alone: the child's
//! VmHWM from /proc/PID/status. The clients are tokio tasks on one thread
//! of this process. Each client connects from its own loopback address
//! (127.0.0.2 to 127.0.0.254 in turn), so the per-address limits let 1000
//! clients in.
//!
//! In each pair one client seeks and the other accepts that seek by its
//! number. A player to move picks uniformly among the `legal` moves of the
//! `position` event (a seeded ChaCha8 generator), and resigns when the game
//! reaches the ply cap. The round trip of a move is the time from sending
//! it to receiving the `position` event that follows the `move` event
//! showing it. Everything is bounded by `--timeout`; the example stops by
//! itself and exits 1 if not every game finished.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::StreamExt;
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;
use tokio_util::codec::{FramedRead, LinesCodec};

use tallyho::server::{self, Config, limits::Limits};

#[derive(Parser)]
struct Args {
    /// Clients, an even number: half seek, half accept.
    #[arg(long, default_value_t = 100)]
    clients: usize,
    /// Games each pair plays, one after another.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The game: fox, draughts, fish, or mixed (the pairs take the three in turn).
    #[arg(long, default_value = "mixed")]
    game: String,
    /// A player waits up to twice this many milliseconds (uniformly) before
    /// each move, so the mean is this; 0 plays flat out, a stress test of
    /// throughput rather than a game's pace.
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// A game that reaches this many plies is resigned by the player to move.
    #[arg(long, default_value_t = 400)]
    plies: u64,
    /// Seconds before the whole run is given up.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// Seeds the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Runs the server on this data directory (the child process's mode).
    #[arg(long, hide = true)]
    serve: Option<PathBuf>,
}

/// The most clients: the server's default limit on sessions in all.
const MAX_CLIENTS: usize = 2000;
/// The longest line the clients accept from the server.
const MAX_LINE: usize = 64 * 1024;
/// How many clients connect at once.
const CONNECTING: usize = 50;
/// How many failures are kept to print.
const FAILURES_KEPT: usize = 10;

fn main() {
    let args = Args::parse();
    if let Some(data) = &args.serve {
        serve(data);
        return;
    }
    if args.clients < 2 || args.clients % 2 == 1 || args.clients > MAX_CLIENTS {
        eprintln!("--clients must be even, from 2 to {MAX_CLIENTS}");
        std::process::exit(2);
    }
    let kinds: Vec<&'static str> = match args.game.as_str() {
        "fox" => vec!["fox"],
        "draughts" => vec!["draughts"],
        "fish" => vec!["fish"],
        "mixed" => vec!["fox", "draughts", "fish"],
        other => {
            eprintln!("--game {other}: fox, draughts, fish or mixed");
            std::process::exit(2);
        }
    };
    match run(&args, &kinds) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(why) => {
            eprintln!("server_load: {why}");
            std::process::exit(1);
        }
    }
}

/// The child's mode: the server on loopback, line door only, until stdin
/// closes (the parent ended).
fn serve(data: &Path) {
    let config = Config {
        bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
        ssh_port: None,
        line_port: Some(0),
        data: data.to_path_buf(),
        limits: Limits::default(),
        rules: server::Rules::default(),
    };
    let running = match server::start(config) {
        Ok(running) => running,
        Err(e) => {
            eprintln!("server_load --serve: cannot start the server: {e}");
            std::process::exit(1);
        }
    };
    if let Some(addr) = running.lines {
        println!("lines {addr}");
    }
    let _ = std::io::stdout().flush();
    let mut stdin = std::io::stdin().lock();
    let mut buf = [0u8; 256];
    while matches!(stdin.read(&mut buf), Ok(1..)) {}
    running.stop();
    std::process::exit(0);
}

/// What the clients count together.
#[derive(Default)]
struct Stats {
    /// Every move's round trip.
    round_trips: Vec<Duration>,
    /// The round trips of the moves answered by a position with no legal
    /// moves, a game's last (the server keeps the finished game before it
    /// answers), and of the others. Both are in `round_trips` too.
    endings: Vec<Duration>,
    others: Vec<Duration>,
    /// Games that reached their `end`.
    finished: u64,
    /// Games resigned at the ply cap.
    resigned: u64,
    /// Seeks refused because the server held too many open seeks.
    seek_refusals: u64,
    /// Moves refused by the server (there should be none).
    move_errors: u64,
    /// Lines that were not a JSON event: the banner, and any echo or
    /// prompt after `proto json`.
    other_lines: u64,
    /// Why clients stopped early, the first few.
    failures: Vec<String>,
    /// How many clients stopped early.
    failed: u64,
}

type Shared = Arc<Mutex<Stats>>;

fn stats(shared: &Shared) -> std::sync::MutexGuard<'_, Stats> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// A client's connection: JSON events in, plain lines out.
struct Conn {
    lines: FramedRead<OwnedReadHalf, LinesCodec>,
    write: OwnedWriteHalf,
}

impl Conn {
    async fn send(&mut self, line: &str) -> Result<(), String> {
        self.write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .map_err(|e| format!("cannot send {line:?}: {e}"))
    }

    /// The next event, skipping the lines that are not one.
    async fn event(&mut self, shared: &Shared) -> Result<Value, String> {
        loop {
            let line = match self.lines.next().await {
                None => return Err("the server closed the connection".into()),
                Some(Err(e)) => return Err(format!("reading: {e}")),
                Some(Ok(line)) => line,
            };
            if line.starts_with("Sorry:") {
                return Err(format!("refused: {line}"));
            }
            // A prompt may stand before an event on its line.
            let event = line
                .find('{')
                .and_then(|i| serde_json::from_str::<Value>(&line[i..]).ok())
                .filter(|v| v.get("event").is_some());
            match event {
                Some(event) => return Ok(event),
                None => stats(shared).other_lines += 1,
            }
        }
    }
}

fn field<'a>(event: &'a Value, name: &str) -> &'a str {
    event.get(name).and_then(Value::as_str).unwrap_or("")
}

fn kind_of(event: &Value) -> &str {
    field(event, "event")
}

/// Connects from `from`, turns the machine dialect on and waits for the
/// `welcome` that answers it.
async fn connect(from: IpAddr, to: SocketAddr, shared: Shared) -> Result<Conn, String> {
    let socket = TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    socket
        .bind(SocketAddr::new(from, 0))
        .map_err(|e| format!("bind {from}: {e}"))?;
    let stream = socket
        .connect(to)
        .await
        .map_err(|e| format!("connect from {from}: {e}"))?;
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    let mut conn = Conn {
        lines: FramedRead::new(read, LinesCodec::new_with_max_length(MAX_LINE)),
        write,
    };
    conn.send("proto json").await?;
    loop {
        if kind_of(&conn.event(&shared).await?) == "welcome" {
            return Ok(conn);
        }
    }
}

/// One side of a pair.
enum Role {
    /// Seeks, and tells its partner the seek's number.
    Seeker(mpsc::UnboundedSender<u64>),
    /// Accepts the seek its partner names.
    Accepter(mpsc::UnboundedReceiver<u64>),
}

/// How every player plays.
#[derive(Clone, Copy)]
struct Play {
    games: u32,
    think: u64,
    plies: u64,
}

/// A client's games, one after another.
async fn client(
    conn: &mut Conn,
    mut role: Role,
    kind: &str,
    play: Play,
    mut rng: ChaCha8Rng,
    shared: &Shared,
) -> Result<(), String> {
    for _ in 0..play.games {
        match &mut role {
            Role::Seeker(partner) => {
                let n = seek(conn, kind, &mut rng, shared).await?;
                partner
                    .send(n)
                    .map_err(|_| "the partner is gone".to_string())?;
            }
            Role::Accepter(partner) => {
                let n = partner.recv().await.ok_or("the partner is gone")?;
                conn.send(&format!("accept {n}")).await?;
            }
        }
        let side = loop {
            let event = conn.event(shared).await?;
            match kind_of(&event) {
                "start" => break field(&event, "side").to_string(),
                "error" => return Err(format!("accept: {}", field(&event, "message"))),
                _ => {}
            }
        };
        game(conn, &side, play, &mut rng, shared).await?;
        if matches!(role, Role::Seeker(_)) {
            stats(shared).finished += 1;
        }
    }
    Ok(())
}

/// Opens a seek and returns its number; when the server holds too many
/// open seeks, waits a little and tries again.
async fn seek(
    conn: &mut Conn,
    kind: &str,
    rng: &mut ChaCha8Rng,
    shared: &Shared,
) -> Result<u64, String> {
    loop {
        conn.send(&format!("seek {kind}")).await?;
        loop {
            let event = conn.event(shared).await?;
            match kind_of(&event) {
                "seeking" => {
                    return event
                        .get("n")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| format!("a seek without its number: {event}"));
                }
                "error" if field(&event, "message").contains("too many open seeks") => {
                    stats(shared).seek_refusals += 1;
                    let wait = rng.random_range(20..200);
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    break;
                }
                "error" => return Err(format!("seek: {}", field(&event, "message"))),
                _ => {}
            }
        }
    }
}

/// A move sent and not yet seen in a `position`.
struct Pending {
    ply: u64,
    sent: Instant,
    shown: bool,
}

/// Plays one game to its `end`.
async fn game(
    conn: &mut Conn,
    side: &str,
    play: Play,
    rng: &mut ChaCha8Rng,
    shared: &Shared,
) -> Result<(), String> {
    let mut ply = 0;
    let mut pending: Option<Pending> = None;
    let mut legal: Vec<String> = Vec::new();
    let mut refused = 0;
    let mut resigned = false;
    loop {
        let event = conn.event(shared).await?;
        match kind_of(&event) {
            "move" => {
                ply = event.get("ply").and_then(Value::as_u64).unwrap_or(ply);
                if let Some(p) = &mut pending
                    && p.ply == ply
                {
                    p.shown = true;
                }
            }
            "position" => {
                if let Some(p) = pending.take_if(|p| p.shown) {
                    let took = p.sent.elapsed();
                    let mut st = stats(shared);
                    st.round_trips.push(took);
                    // No legal moves after a move: it ended the game.
                    if event
                        .get("legal")
                        .and_then(Value::as_array)
                        .is_some_and(Vec::is_empty)
                    {
                        st.endings.push(took);
                    } else {
                        st.others.push(took);
                    }
                    refused = 0;
                }
                legal = event
                    .get("legal")
                    .and_then(Value::as_array)
                    .map(|l| {
                        l.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default();
                if pending.is_none() && !resigned && field(&event, "to_move") == side {
                    if ply >= play.plies {
                        conn.send("resign").await?;
                        resigned = true;
                        stats(shared).resigned += 1;
                    } else {
                        pending = mv(conn, &legal, ply, play, rng).await?;
                    }
                }
            }
            "error" => {
                // A refused move leaves the turn where it was: try another.
                stats(shared).move_errors += 1;
                if pending.take().is_some() {
                    refused += 1;
                    if refused > 3 {
                        return Err(format!("moves refused: {}", field(&event, "message")));
                    }
                    pending = mv(conn, &legal, ply, play, rng).await?;
                }
            }
            "end" => return Ok(()),
            _ => {}
        }
    }
}

/// Sends a random legal move, after the think time.
async fn mv(
    conn: &mut Conn,
    legal: &[String],
    ply: u64,
    play: Play,
    rng: &mut ChaCha8Rng,
) -> Result<Option<Pending>, String> {
    let Some(chosen) = legal.choose(rng) else {
        return Ok(None);
    };
    if play.think > 0 {
        let wait = rng.random_range(0..=2 * play.think);
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
    let sent = Instant::now();
    conn.send(chosen).await?;
    Ok(Some(Pending {
        ply: ply + 1,
        sent,
        shown: false,
    }))
}

/// The server's process: started, and ended when this is dropped.
struct ServerChild {
    child: Child,
    data: PathBuf,
}

impl ServerChild {
    fn start() -> Result<(ServerChild, SocketAddr), String> {
        let data = std::env::temp_dir().join(format!("tallyho-load-{}", std::process::id()));
        std::fs::create_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
        let exe = std::env::current_exe().map_err(|e| format!("this example's path: {e}"))?;
        let mut child = Command::new(exe)
            .arg("--serve")
            .arg(&data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let stdout = child.stdout.take().ok_or("the server's output")?;
        let server = ServerChild { child, data };
        let mut first = String::new();
        BufReader::new(stdout.take(256))
            .read_line(&mut first)
            .map_err(|e| format!("the server's first line: {e}"))?;
        let addr = first
            .trim()
            .strip_prefix("lines ")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("the server said {first:?}, not its line door"))?;
        Ok((server, addr))
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ServerChild {
    fn drop(&mut self) {
        // Closing its stdin stops it; it is killed if it takes too long.
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// A number from a `/proc/PID/status` line such as `VmHWM:  1234 kB`.
fn status_field(pid: u32, name: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// A process's CPU time (user and system), from `/proc/PID/stat`.
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the line.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system and touches no memory of ours.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (hz > 0).then(|| ticks as f64 / hz as f64)
}

/// A share of a sorted list: `q` from 0 to 1, nearest rank.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// The loopback address client `i` connects from.
fn source(i: usize) -> IpAddr {
    let last = 2 + (i % 253) as u8;
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

fn run(args: &Args, kinds: &[&'static str]) -> Result<bool, String> {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.timeout);
    let (server, addr) = ServerChild::start()?;
    let pid = server.pid();
    let pairs = args.clients / 2;
    println!(
        "server_load: {} clients ({pairs} pairs), {} game(s) a pair of {}, think {} ms, ply cap {}, seed {}",
        args.clients,
        args.games,
        kinds.join("/"),
        args.think,
        args.plies,
        args.seed
    );
    println!(
        "server: child process {pid} (this example with --serve, default limits), line door {addr}; \
         clients: tokio tasks on one thread, from 127.0.0.2-127.0.0.254"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("the clients' runtime: {e}"))?;
    let shared: Shared = Arc::default();
    let play = Play {
        games: args.games,
        think: args.think,
        plies: args.plies,
    };
    let mut peak_threads = 0;
    let mut connected_in = None;
    let mut connected_rss = None;
    let mut games_in = None;
    let complete = runtime.block_on(async {
        let until = tokio::time::Instant::from_std(deadline);
        // Every client connects before any game starts, so the games run
        // with all of them online.
        let mut conns = Vec::with_capacity(args.clients);
        let connecting = async {
            for first in (0..args.clients).step_by(CONNECTING) {
                let batch = (first..(first + CONNECTING).min(args.clients))
                    .map(|i| connect(source(i), addr, shared.clone()));
                for conn in futures_util::future::join_all(batch).await {
                    conns.push(conn?);
                }
            }
            Ok::<(), String>(())
        };
        match tokio::time::timeout_at(until, connecting).await {
            Ok(Ok(())) => {}
            Ok(Err(why)) => return Err(why),
            Err(_) => return Err(format!("connecting took more than {} s", args.timeout)),
        }
        connected_in = Some(started.elapsed());
        connected_rss = status_field(pid, "VmRSS");
        let games_started = Instant::now();
        let mut tasks = Vec::with_capacity(args.clients);
        let mut conns = conns.into_iter();
        for pair in 0..pairs {
            let kind = kinds[pair % kinds.len()];
            let (tx, rx) = mpsc::unbounded_channel();
            for (k, role) in [Role::Seeker(tx), Role::Accepter(rx)]
                .into_iter()
                .enumerate()
            {
                let Some(mut conn) = conns.next() else {
                    return Err("a client went missing".to_string());
                };
                let shared = shared.clone();
                let seed = args
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add((2 * pair + k) as u64);
                tasks.push(tokio::spawn(async move {
                    let rng = ChaCha8Rng::seed_from_u64(seed);
                    let result = client(&mut conn, role, kind, play, rng, &shared).await;
                    if let Err(why) = result {
                        let mut st = stats(&shared);
                        st.failed += 1;
                        if st.failures.len() < FAILURES_KEPT {
                            st.failures.push(why);
                        }
                    }
                    // Online until every game is over.
                    conn
                }));
            }
        }
        // The server's threads, looked at while the games run.
        let mut all = futures_util::future::join_all(tasks);
        let mut tick = tokio::time::interval(Duration::from_millis(200));
        let finished = loop {
            tokio::select! {
                conns = &mut all => break Some(conns),
                _ = tick.tick() => {
                    peak_threads = peak_threads.max(status_field(pid, "Threads").unwrap_or(0));
                }
                () = tokio::time::sleep_until(until) => break None,
            }
        };
        games_in = Some(games_started.elapsed());
        peak_threads = peak_threads.max(status_field(pid, "Threads").unwrap_or(0));
        let Some(conns) = finished else {
            return Ok(false);
        };
        for mut conn in conns.into_iter().flatten() {
            let _ = tokio::time::timeout(Duration::from_secs(1), conn.send("quit")).await;
        }
        Ok(true)
    });
    let hwm = status_field(pid, "VmHWM");
    let server_cpu = cpu_seconds(&pid.to_string());
    drop(runtime);
    let client_cpu = cpu_seconds("self");
    drop(server);
    let complete = complete?;
    let wall = started.elapsed();

    let mut st = stats(&shared);
    st.round_trips.sort_unstable();
    st.endings.sort_unstable();
    st.others.sort_unstable();
    let expected = pairs as u64 * u64::from(args.games);
    if let Some(t) = connected_in {
        let rss = connected_rss.map_or_else(String::new, |kb| {
            format!("; server memory then (VmRSS) {:.1} MB", kb as f64 / 1024.0)
        });
        println!(
            "connected {} clients in {:.2} s{rss}",
            args.clients,
            t.as_secs_f64()
        );
    }
    println!(
        "games finished: {} of {expected} ({} resigned at the ply cap); moves {}; \
         moves refused {}; seeks refused (too many open) {}",
        st.finished,
        st.resigned,
        st.round_trips.len(),
        st.move_errors,
        st.seek_refusals
    );
    println!(
        "move round trip: median {}, p99 {}, max {}",
        ms(quantile(&st.round_trips, 0.5)),
        ms(quantile(&st.round_trips, 0.99)),
        ms(st.round_trips.last().copied().unwrap_or_default())
    );
    for (what, list) in [
        ("a game's last moves", &st.endings),
        ("the other moves", &st.others),
    ] {
        println!(
            "  {what} ({}): median {}, p99 {}, max {}",
            list.len(),
            ms(quantile(list, 0.5)),
            ms(quantile(list, 0.99)),
            ms(list.last().copied().unwrap_or_default())
        );
    }
    match hwm {
        Some(kb) => println!(
            "server peak memory (VmHWM of the server process): {:.1} MB; peak threads {peak_threads}",
            kb as f64 / 1024.0
        ),
        None => println!("server peak memory: unknown (no /proc/{pid}/status)"),
    }
    let cpu = |c: Option<f64>| c.map_or_else(|| "unknown".into(), |s| format!("{s:.1} s"));
    println!(
        "CPU: server {}, clients {}",
        cpu(server_cpu),
        cpu(client_cpu)
    );
    println!(
        "wall {:.2} s (games {:.2} s); lines that were no event (banner, echo, prompts): {}",
        wall.as_secs_f64(),
        games_in.unwrap_or_default().as_secs_f64(),
        st.other_lines
    );
    if st.failed > 0 {
        println!("{} clients stopped early; the first reasons:", st.failed);
        for why in &st.failures {
            println!("  {why}");
        }
    }
    if !complete {
        println!("timed out after {} s", args.timeout);
    }
    Ok(complete && st.failed == 0 && st.finished == expected)
}
