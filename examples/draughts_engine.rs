//! The draughts engine mode on stdin and stdout, until the lead wires
//! `tallyho draughts engine` to the same function.
//!
//! `cargo run --release --example draughts_engine -- [--threads N] [--seed S] [--no-db]`
//!
//! Then type `position startpos moves 11-15`, `go movetime 1000`, `quit`.
//! `--threads` defaults to every core; matches give each engine one.

use std::io::{self, BufReader};

use tallyho::games::draughts::Draughts;
use tallyho::games::draughts::endgame::MAX_PIECES;
use tallyho::shell::engine::{self, Config, EndgameSource};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|t| t.parse::<u64>().ok())
    };
    let threads = value("--threads")
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let rules = Draughts::STANDARD;
    let endgame = (!args.iter().any(|a| a == "--no-db"))
        .then(|| EndgameSource::build_in_background(rules, MAX_PIECES));
    let config = Config {
        rules,
        threads,
        seed: value("--seed").unwrap_or(0),
        endgame,
    };
    let stdin = io::stdin();
    if let Err(e) = engine::run(BufReader::new(stdin.lock()), io::stdout().lock(), config) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
