//! How the memory given to a search changes what it proves in a time:
//! analyses one position from cold with a search of `--memory` MB (table
//! and region memo together) for `--think` ms, and prints the value, whether
//! it is exact, the time, the nodes and the table's size.
//!
//! `cargo run --release --example fish_memory -- --memory 8,16,32,64 '1111/1221/1221/1111 place:3/3 next:P'`

use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::Deadline;
use tallyho::games::fish::{Limits, Position, Search};

#[derive(Parser)]
struct Args {
    /// The position, in the notation `tallyho fish analyse` reads.
    position: String,
    /// Megabytes for the search, several joined by commas.
    #[arg(long, default_value = "64", value_delimiter = ',')]
    memory: Vec<usize>,
    /// Milliseconds to think.
    #[arg(long, default_value_t = 1000)]
    think: u64,
    /// Size the search for the board and the think, as a game does.
    #[arg(long)]
    sized: bool,
}

struct Clock(Instant);

impl Deadline for Clock {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let args = Args::parse();
    let pos = match Position::parse(&args.position) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!("memory_mb table_mb value exact ms nodes");
    for &mb in &args.memory {
        let mut search = if args.sized {
            Search::sized(pos.board(), Some(args.think), mb << 20)
        } else {
            Search::within(mb << 20)
        };
        let started = Instant::now();
        let clock = Clock(started + Duration::from_millis(args.think));
        let a = search.analyse(&pos, Limits::NONE, &clock);
        println!(
            "{mb:>9} {:>8} {:>+5} {:>5} {:>5} {}",
            search.table_bytes() >> 20,
            a.value,
            a.exact,
            started.elapsed().as_millis(),
            a.nodes
        );
    }
}
