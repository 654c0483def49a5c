//! perft from the command line, each depth timed: what `tallyho draughts
//! perft` will print, plus the time.
//!
//! `cargo run --release --example draughts_perft -- 12 [FEN] [--optional] [--plain]`
//!
//! `--plain` visits every node (the generator's own speed); by default
//! subtree counts are remembered in a table, as `perft_each` does.

use std::time::Instant;

use tallyho::games::Rules;
use tallyho::games::draughts::{Captures, Perft, Setup};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let optional = args.iter().any(|a| a == "--optional");
    let plain = args.iter().any(|a| a == "--plain");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let depth: u32 = rest.first().and_then(|d| d.parse().ok()).unwrap_or(10);
    let rules = Setup::with_captures(if optional {
        Captures::Optional
    } else {
        Captures::Compulsory
    });
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
    let mut counter = if plain {
        Perft::new(rules)
    } else {
        Perft::with_table(rules, 19)
    };
    let mut last = Instant::now();
    for d in 1..=depth {
        let Some(n) = counter.count(&pos, d) else {
            println!("perft({d}) = {}", tallyho::games::draughts::Count(None));
            return;
        };
        let secs = last.elapsed().as_secs_f64();
        println!(
            "perft({d}) = {n}  ({secs:.3} s, {:.1} M leaves/s)",
            n as f64 / secs.max(1e-9) / 1e6
        );
        last = Instant::now();
    }
}
