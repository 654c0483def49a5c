//! perft from the command line, timed: what `tallyho draughts perft` will print.
//!
//! `cargo run --release --example draughts_perft -- 12 [FEN] [--optional]`

use std::time::Instant;

use tallyho::games::Rules;
use tallyho::games::draughts::{Captures, Draughts, perft_each};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let optional = args.iter().any(|a| a == "--optional");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let depth: u32 = rest.first().and_then(|d| d.parse().ok()).unwrap_or(10);
    let rules = Draughts {
        captures: if optional {
            Captures::Optional
        } else {
            Captures::Compulsory
        },
    };
    let pos = match rest.get(1) {
        Some(fen) => match rules.parse_position(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => rules.start(),
    };
    let started = Instant::now();
    let mut total = 0u64;
    for (d, n) in perft_each(pos, depth, rules) {
        total += n;
        println!("perft({d}) = {n}");
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{secs:.3} s for every depth to {depth}; {:.1} M leaf nodes/s",
        total as f64 / secs / 1e6
    );
}
