//! Builds the draughts endgame database, times it, checks every value
//! against its moves, and prints its size.
//!
//! `cargo run --release --example draughts_endgame -- [PIECES] [--optional] [--save FILE]`

use std::time::Instant;

use tallyho::games::draughts::endgame::Endgame;
use tallyho::games::draughts::{Captures, Setup};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pieces = args.iter().find_map(|a| a.parse::<u32>().ok()).unwrap_or(4);
    let captures = if args.iter().any(|a| a == "--optional") {
        Captures::Optional
    } else {
        Captures::Compulsory
    };
    let started = Instant::now();
    let db = Endgame::build(pieces, Setup::with_captures(captures));
    let built = started.elapsed().as_secs_f64();
    println!(
        "pieces={} captures={captures} positions={} bytes={} build={built:.2}s longest={} plies",
        db.max_pieces(),
        db.positions(),
        db.size_bytes(),
        db.longest_win()
    );
    let started = Instant::now();
    match db.verify() {
        Ok(n) => println!(
            "verified {n} positions in {:.2}s",
            started.elapsed().as_secs_f64()
        ),
        Err(e) => {
            eprintln!("verify failed: {e}");
            std::process::exit(1);
        }
    }
    if let Some(i) = args.iter().position(|a| a == "--save") {
        let path = args.get(i + 1).map(String::as_str).unwrap_or("draughts.db");
        if let Err(e) = std::fs::write(path, db.to_bytes()) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        println!("saved {path}");
    }
}
