//! The draughts engine mode on stdin and stdout, until the lead wires
//! `tallyho draughts engine` to the same function.
//!
//! `cargo run --release --example draughts_engine -- [--threads N] [--seed S] [--pieces 5] [--db-dir DIR] [--no-db] [--no-book]`
//!
//! Then type `position startpos moves 11-15`, `go movetime 1000`, `quit`.
//! `--threads` defaults to every core; matches give each engine one. The
//! endgame database of `--pieces` pieces, and no other, is read from
//! `--db-dir` (the user's data directory by default); when it is not there,
//! the 4-piece one is built at once and the larger one built and saved in
//! the background.

#[path = "common/args.rs"]
mod args;

use std::io::{self, BufReader};

use tallyho::engines::draughts::protocol::{self, Config, EndgameSource};
use tallyho::engines::draughts::store::EndgameStore;
use tallyho::games::draughts::Setup;
use tallyho::games::draughts::endgame::{MAX_PIECES, STORED_PIECES};

fn main() {
    let args = args::words();
    let value = |name: &str| args::value(&args, name).and_then(|t| t.parse::<u64>().ok());
    let threads = value("--threads")
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let rules = Setup::STANDARD;
    let pieces = value("--pieces").map_or(STORED_PIECES, |n| n as u32);
    let dir = args
        .iter()
        .position(|a| a == "--db-dir")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("", "", "tallyho").map(|d| d.data_dir().to_path_buf())
        });
    let endgame = if args.iter().any(|a| a == "--no-db") {
        None
    } else if let (Some(dir), true) = (dir, pieces > MAX_PIECES) {
        // Exactly the database named, so that a match says what it ran
        // with; a larger one in the same directory is left alone.
        Some(EndgameSource::from_store(
            rules,
            EndgameStore::new(dir),
            pieces..=pieces,
        ))
    } else {
        Some(EndgameSource::build_in_background(
            rules,
            pieces.min(MAX_PIECES),
        ))
    };
    let config = Config {
        rules,
        threads,
        seed: value("--seed").unwrap_or(0),
        book: !args.iter().any(|a| a == "--no-book"),
        endgame,
        unread: None,
    };
    // Standard input itself, not its lock: the protocol reads it on a
    // thread of its own, so that `stop` is heard during a search.
    if let Err(e) = protocol::run(BufReader::new(io::stdin()), io::stdout().lock(), config) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
