//! Builds an endgame database into a directory and times it, as
//! `tallyho draughts build-db --pieces N` will (with a progress bar).
//!
//! `cargo run --release --example draughts_build_db -- --pieces 5 --dir DIR [--optional]`
//!
//! A database already in the directory is read back and checked instead.

#[path = "common/args.rs"]
mod args;

use std::time::Instant;

use tallyho::engines::draughts::store::EndgameStore;
use tallyho::games::draughts::{Captures, Setup};

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let pieces: u32 = get("--pieces").and_then(|t| t.parse().ok()).unwrap_or(5);
    let dir = get("--dir").unwrap_or_else(|| "target/endgame-db".into());
    let captures = if args.iter().any(|a| a == "--optional") {
        Captures::Optional
    } else {
        Captures::Compulsory
    };
    let rules = Setup::with_captures(captures);
    let store = EndgameStore::new(&dir);
    let started = Instant::now();
    let mut last = 0;
    let result = store.load_or_build(pieces, rules, &mut |done, total| {
        let percent = done * 100 / total.max(1);
        if percent >= last + 5 || done == total {
            last = percent;
            eprintln!(
                "{percent:3}% ({done} of {total} entries) {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        true
    });
    match result {
        Ok(db) => println!(
            "pieces={} captures={captures} entries={} bytes={} longest={} plies, ready in {:.1} s: {}",
            db.max_pieces(),
            db.positions(),
            db.size_bytes(),
            db.longest_win(),
            started.elapsed().as_secs_f64(),
            store.path(pieces, rules).display()
        ),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
