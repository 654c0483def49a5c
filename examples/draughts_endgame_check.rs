//! Checks a kept endgame database a second way, by sampling: random
//! positions with exactly `--pieces` pieces, each stored value compared with
//! the values after each of its moves (the game's own recursion: a win in
//! `d` has a move to a loss in `d - 1` and none quicker, and so on), read
//! from the same database. The solver never looks at a position this way,
//! so a solver bug shows as a mismatch.
//!
//! `cargo run --release --example draughts_endgame_check -- --pieces 6 --dir DIR [--samples 1000000] [--seed 1]`
//!
//! The database is read from `--dir`, as `build-db` keeps it; it is not
//! built here.

#[path = "common/args.rs"]
mod args;
#[path = "common/stored_db.rs"]
mod stored_db;

use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use tallyho::games::draughts::endgame::Exact;
use tallyho::games::draughts::{Position, Setup, fen};

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let num = |name: &str, default: u64| get(name).and_then(|t| t.parse().ok()).unwrap_or(default);
    let pieces = num("--pieces", 6) as usize;
    let samples = num("--samples", 1_000_000);
    let seed = num("--seed", 1);
    let dir = get("--dir").unwrap_or_else(|| "target/endgame-db".into());
    let rules = Setup::STANDARD;
    let t = Instant::now();
    let db = stored_db::load_or_exit(&dir, pieces as u32, rules, 1);
    eprintln!("read in {:.1} s", t.elapsed().as_secs_f64());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut checked, mut wrong) = (0u64, 0u64);
    let mut tally = [0u64; 3];
    while checked < samples {
        let pos = random_position(&mut rng, pieces);
        let Some(stored) = db.probe(&pos) else {
            continue;
        };
        let expected = rules
            .moves(&pos)
            .iter()
            .filter_map(|m| db.probe(&pos.play(m)).map(Exact::before))
            .max_by_key(|v| v.rank())
            .unwrap_or(Exact::Loss(0));
        checked += 1;
        tally[match stored {
            Exact::Win(_) => 0,
            Exact::Loss(_) => 1,
            Exact::Draw => 2,
        }] += 1;
        if stored != expected {
            wrong += 1;
            if wrong <= 5 {
                println!(
                    "{}: stored {stored}, its moves give {expected}",
                    fen::write(&pos)
                );
            }
        }
    }
    println!(
        "{checked} positions of {pieces} pieces checked in {:.1} s: {} wins, {} losses, {} draws \
         for the side to move; {wrong} disagree with their moves",
        t.elapsed().as_secs_f64(),
        tally[0],
        tally[1],
        tally[2]
    );
    if wrong > 0 {
        std::process::exit(1);
    }
}

/// A random position with `pieces` pieces, both sides on the board, no man
/// on its crowning row.
fn random_position(rng: &mut ChaCha8Rng, pieces: usize) -> Position {
    loop {
        let mut squares: Vec<u32> = (1..=32).collect();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for _ in 0..pieces {
            let square = squares.swap_remove(rng.random_range(0..squares.len()));
            let is_black = rng.random_range(0..2) == 0;
            let crowned = if is_black { square >= 29 } else { square <= 4 };
            let king = crowned || rng.random_range(0..2) == 0;
            let text = format!("{}{square}", if king { "K" } else { "" });
            if is_black {
                black.push(text);
            } else {
                white.push(text);
            }
        }
        if black.is_empty() || white.is_empty() {
            continue;
        }
        let side = if rng.random_range(0..2) == 0 {
            "B"
        } else {
            "W"
        };
        let text = format!("{side}:W{}:B{}", white.join(","), black.join(","));
        if let Ok(pos) = fen::parse(&text) {
            return pos;
        }
    }
}
