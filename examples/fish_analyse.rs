//! Analyses one penguin-game position, as `tallyho fish analyse` will.
//!
//! `cargo run --release --example fish_analyse -- "POSITION" [--think MS] [--nodes N]`
//! prints the best move, the value (P's points minus A's at the end) and
//! whether it is exact. Without `--think` it searches until the value is proven.

use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::Deadline;
use tallyho::games::fish::{Limits, Position, Search};

#[derive(Parser)]
struct Args {
    /// The position, in notation (default: the 6x6 start).
    position: Option<String>,
    /// Think at most this many milliseconds.
    #[arg(long)]
    think: Option<u64>,
    /// Search at most this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

struct Clock(Option<Instant>);

impl Deadline for Clock {
    fn passed(&self) -> bool {
        self.0.is_some_and(|end| Instant::now() >= end)
    }
}

fn main() {
    let args = Args::parse();
    let text = args.position.unwrap_or_else(|| {
        "111111/122221/123321/123321/122221/111111 place:1/1 next:P".to_string()
    });
    let pos = match Position::parse(&text) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let clock = Clock(args.think.map(|ms| started + Duration::from_millis(ms)));
    let limits = Limits {
        nodes: args.nodes,
        depth: None,
    };
    let a = Search::new().analyse(&pos, limits, &clock);
    let best = a.best.map_or("none".to_string(), |m| m.to_string());
    println!(
        "best={best} value={} exact={} depth={} nodes={} ms={}",
        a.value,
        a.exact,
        a.depth,
        a.nodes,
        started.elapsed().as_millis()
    );
}
