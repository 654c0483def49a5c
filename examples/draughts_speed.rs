//! The engine's speed: nodes a second and the depth reached in a fixed time,
//! on one thread and on more, from the start and from ballot openings.
//!
//! `cargo run --release --example draughts_speed -- [--ms 1000] [--threads 1,2] [--positions 8] [--depth D] [--bits B]`
//!
//! Each search starts from an empty table of `2^bits` entries (by default
//! the size `overpowered` gives a move of `--ms`: 16 up to 300 ms, else
//! 18); the figures are the mean over the
//! positions (the start, then ballot openings 1, 21, 41, …). With `--depth`,
//! each search goes to that depth instead, however long it takes, and the
//! figures are the time and nodes over all the positions: the same search
//! makes the same nodes, so a change that only makes it faster shows as
//! time alone.

#[path = "common/args.rs"]
mod args;

use std::time::{Duration, Instant};

use tallyho::games::Deadline;
use tallyho::games::draughts::{Engine, Limits, Position, Setup, ballot, table_bits};

struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// No time limit: `--depth` alone ends the search.
struct Never;

impl Deadline for Never {
    fn passed(&self) -> bool {
        false
    }
}

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let ms: u64 = get("--ms").and_then(|t| t.parse().ok()).unwrap_or(1000);
    let count: usize = get("--positions").and_then(|t| t.parse().ok()).unwrap_or(8);
    let to_depth: Option<u32> = get("--depth").and_then(|t| t.parse().ok());
    let threads: Vec<usize> = get("--threads")
        .unwrap_or_else(|| "1,2".into())
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect();
    let mut games: Vec<Vec<Position>> = vec![vec![Position::START]];
    games.extend(
        ballot::deck()
            .step_by(20)
            .map(|o| o.positions())
            .take(count.saturating_sub(1)),
    );
    let bits: u32 = get("--bits")
        .and_then(|t| t.parse().ok())
        .unwrap_or(table_bits(ms));
    let rules = Setup::STANDARD;
    for &t in &threads {
        let (mut nodes, mut depth, mut secs) = (0u64, 0u32, 0.0f64);
        for history in &games {
            let mut engine = Engine::new(rules, bits).with_threads(t);
            let start = Instant::now();
            let r = match to_depth {
                Some(d) => engine.search(
                    history,
                    Limits {
                        max_depth: d,
                        ..Limits::default()
                    },
                    &Never,
                ),
                None => engine.search(
                    history,
                    Limits::default(),
                    &Until(start + Duration::from_millis(ms)),
                ),
            };
            secs += start.elapsed().as_secs_f64();
            nodes += r.nodes;
            depth += r.depth;
        }
        if let Some(d) = to_depth {
            println!(
                "{t} thread{}: {:.2} s and {nodes} nodes to depth {d} ({} positions)",
                if t == 1 { "" } else { "s" },
                secs,
                games.len()
            );
            continue;
        }
        println!(
            "{t} thread{}: {:.2} M nodes/s, depth {:.1} in {ms} ms (mean of {} positions)",
            if t == 1 { "" } else { "s" },
            nodes as f64 / secs / 1e6,
            depth as f64 / games.len() as f64,
            games.len()
        );
    }
}
