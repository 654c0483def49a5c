//! Makes the opening book, `data/draughts_book.txt`: for the start, every
//! position after one and two plies, and each of the 156 ballot openings,
//! the engine's move after a search to a fixed depth (without the
//! databases, and without the book itself). `--replies` adds every
//! position after White's answer to a ballot opening. The committed book:
//!
//! `nice -n 19 cargo run --release --example draughts_book -- --depth 22 --replies --out data/draughts_book.txt`
//!
//! Single-threaded and depth-bound, so the same command gives the same book.

#[path = "common/args.rs"]
mod args;

use std::collections::BTreeMap;
use std::time::Instant;

use tallyho::games::Never;
use tallyho::games::draughts::{Engine, Limits, Position, Setup, ballot, fen};

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let depth: u32 = get("--depth").and_then(|t| t.parse().ok()).unwrap_or(22);
    let out = get("--out").unwrap_or_else(|| "data/draughts_book.txt".into());
    let rules = Setup::STANDARD;
    // Every position up to two plies, then the ballot openings.
    let mut positions = vec![Position::START];
    for m in rules.moves(&Position::START) {
        let one = Position::START.play(&m);
        positions.push(one);
        for r in rules.moves(&one) {
            positions.push(one.play(&r));
        }
    }
    // With `--replies`, also every position after White's answer to a
    // ballot opening: Black's first free move.
    let replies = args.iter().any(|a| a == "--replies");
    let mut answers = Vec::new();
    for o in ballot::deck() {
        let pos = o.position();
        positions.push(pos);
        if replies {
            answers.extend(rules.moves(&pos).iter().map(|m| pos.play(m)));
        }
    }
    positions.extend(answers);
    let mut book = BTreeMap::new();
    let started = Instant::now();
    let mut engine = Engine::new(rules, 22);
    for (n, pos) in positions.iter().enumerate() {
        let key = fen::write(pos);
        if book.contains_key(&key) {
            continue;
        }
        engine.clear();
        let limits = Limits {
            max_depth: depth,
            use_endgame: false,
        };
        let r = engine.search(&[*pos], limits, &Never);
        if let Some(m) = r.best {
            book.insert(key, m.to_string());
        }
        if (n + 1) % 20 == 0 {
            eprintln!(
                "{} of {} positions, {:.0} s",
                n + 1,
                positions.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    let flag = if replies { " --replies" } else { "" };
    let mut text = format!(
        "# Draughts opening book: FEN MOVE, the engine's move at depth {depth}.\n\
         # Made by: cargo run --release --example draughts_book -- --depth {depth}{flag}\n"
    );
    for (f, m) in &book {
        text.push_str(&format!("{f} {m}\n"));
    }
    std::fs::write(&out, text).expect("cannot write the book");
    eprintln!(
        "{} positions in {:.0} s: {out}",
        book.len(),
        started.elapsed().as_secs_f64()
    );
}
