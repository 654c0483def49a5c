//! Writes the endgame database's counts by material, the data that
//! `tests/draughts_endgame_counts.rs` checks:
//!
//! `cargo run --release --example draughts_endgame_counts -- --pieces 5 --dir target/endgame-db > tests/data/draughts/endgame5.counts`
//!
//! The database is read from (or built into) `--dir`, as `build-db` keeps it.

#[path = "common/args.rs"]
mod args;

use tallyho::engines::draughts::store::EndgameStore;
use tallyho::games::draughts::Setup;

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let pieces: u32 = get("--pieces").and_then(|t| t.parse().ok()).unwrap_or(5);
    let dir = get("--dir").unwrap_or_else(|| "target/endgame-db".into());
    let rules = Setup::STANDARD;
    let db = match EndgameStore::new(dir).load_or_build(pieces, rules, &mut |_, _| true) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("# Draughts endgame database, {pieces} pieces, compulsory captures, Black to move.");
    println!("# black-men black-kings white-men white-kings: black-wins black-losses draws");
    for ([bm, bk, wm, wk], [w, l, d]) in db.counts(pieces) {
        println!("{bm} {bk} {wm} {wk}: {w} {l} {d}");
    }
}
