//! What `tallyho draughts analyse FEN [--think MS] [--json]` will print,
//! until the lead wires it into the command line.
//!
//! `cargo run --release --example draughts_analyse -- "B:W18,24,K10:B12,16,K22" --think 1000 [--json] [--no-db]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use tallyho::games::Deadline;
use tallyho::games::draughts::{Endgame, Setup, analyse, fen};

struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let think = args
        .iter()
        .position(|a| a == "--think")
        .and_then(|i| args.get(i + 1))
        .and_then(|t| t.parse().ok())
        .unwrap_or(1000u64);
    let text = args
        .iter()
        .find(|a| a.contains(':'))
        .map(String::as_str)
        .unwrap_or("B:W21-32:B1-12");
    let pos = match fen::parse(text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let rules = Setup::STANDARD;
    let db = (!args.iter().any(|a| a == "--no-db")).then(|| Arc::new(Endgame::build(4, rules)));
    // The clock starts after the database is built, as a cached one would be.
    let deadline = Until(Instant::now() + Duration::from_millis(think));
    let a = analyse(&rules, &[pos], &deadline, db);
    if json {
        println!("{}", a.to_json());
        return;
    }
    match a.best {
        Some(m) => println!("best move: {m}"),
        None => println!("no move: {} has lost", pos.to_move()),
    }
    println!("score: {} (depth {}, {} nodes)", a.score, a.depth, a.nodes);
    println!("line: {}", a.pv_text(1));
    if let Some(e) = a.exact {
        println!("exact (endgame database): {e}");
    }
}
