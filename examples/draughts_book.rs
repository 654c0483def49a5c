//! Makes the opening book, `data/draughts_book.txt`: for the start, every
//! position after one and two plies, and each of the 156 ballot openings,
//! the engine's move after a search to a fixed depth (without the
//! databases, and without the book itself). `--replies` adds every
//! position after White's answer to a ballot opening (Black's first free
//! move); `--second` adds, after Black's book move there, every position
//! after White's next answer (Black's second free move). `--from FILE`
//! starts from a book already made and searches none of its positions
//! again. The committed book (at commit feeabd1):
//!
//! `nice -n 19 cargo run --release --example draughts_book -- --depth 22 --replies`
//!
//! The second level was made with `--from data/draughts_book.txt --depth 22
//! --second --jobs 2` and measured, and is not in the book (README, "The
//! opening book").
//!
//! `--hard CP` goes further for Black where the engine's own search (at
//! `--depth`) sees White at least CP hundredths of a man ahead after the
//! ballot: there every position of Black's first `--hard-moves` free moves
//! (default 3; after each of White's answers, Black's book move) is
//! searched again to `--hard-depth` (default `--depth` + 2), replacing what
//! the book held. Made with `--from data/draughts_book.txt --depth 22
//! --hard 40 --hard-depth 24 --hard-moves 2 --jobs 2` and measured, it is
//! not in the book either.
//!
//! Each position is searched alone, on one thread, to a fixed depth, with
//! the table cleared first, so the same command gives the same book
//! whatever `--jobs` is.

#[path = "common/args.rs"]
mod args;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tallyho::games::Never;
use tallyho::games::draughts::{Engine, Limits, Position, Report, Score, Setup, ballot, book, fen};

/// Searches every position of `positions` not yet in `book` on `jobs`
/// threads and adds the engine's move for each.
fn search_all(
    positions: &[Position],
    depth: u32,
    jobs: usize,
    book: &mut BTreeMap<String, String>,
    started: Instant,
) {
    let mut seen = BTreeSet::new();
    let mut keys = Vec::new();
    let mut todo = Vec::new();
    for pos in positions {
        let key = fen::write(pos);
        if !book.contains_key(&key) && seen.insert(key.clone()) {
            keys.push(key);
            todo.push(*pos);
        }
    }
    for (key, report) in keys
        .into_iter()
        .zip(search_each(&todo, depth, jobs, started))
    {
        if let Some(m) = report.best {
            book.insert(key, m.to_string());
        }
    }
}

/// The score of each position for the side to move, searched as
/// `search_all` searches, in hundredths of a man (a forced win or loss as
/// a hundred men).
fn scores(positions: &[Position], depth: u32, jobs: usize, started: Instant) -> Vec<i32> {
    search_each(positions, depth, jobs, started)
        .into_iter()
        .map(|report| match report.score {
            Score::Points(cp) => cp,
            Score::Win(_) => 10_000,
            Score::Loss(_) => -10_000,
        })
        .collect()
}

/// Searches each position alone to `depth` (without the databases, the
/// table cleared first) on `jobs` threads, and gives the reports in the
/// order of `positions`, saying every twentieth how far it has come.
fn search_each(positions: &[Position], depth: u32, jobs: usize, started: Instant) -> Vec<Report> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let found = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new(Setup::STANDARD, 22);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(pos) = positions.get(i) else { break };
                    engine.clear();
                    let limits = Limits {
                        max_depth: depth,
                        use_endgame: false,
                    };
                    let report = engine.search(&[*pos], limits, &Never);
                    found.lock().expect("a book thread panicked")[i] = Some(report);
                    let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if n.is_multiple_of(20) || n == positions.len() {
                        eprintln!(
                            "{n} of {} positions, {:.0} s",
                            positions.len(),
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    found
        .into_inner()
        .expect("a book thread panicked")
        .into_iter()
        .map(|r| r.expect("every position is searched"))
        .collect()
}

/// The position after the book's move at `pos`, if the book has one.
fn after_book_move(
    rules: &Setup,
    book: &BTreeMap<String, String>,
    pos: &Position,
) -> Option<Position> {
    let text = book.get(&fen::write(pos))?;
    let m = rules
        .moves(pos)
        .into_iter()
        .find(|m| m.to_string() == *text)?;
    Some(pos.play(&m))
}

/// The number an option was given, if it was; a word that is not one
/// stops the program with status 2 rather than being passed over.
fn number<T: std::str::FromStr>(text: Option<String>, name: &str) -> Option<T> {
    let text = text?;
    match text.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            eprintln!("{name} wants a number: {text}");
            std::process::exit(2)
        }
    }
}

/// Every position after a move of `pos`.
fn after_each_move(rules: &Setup, pos: &Position) -> Vec<Position> {
    rules.moves(pos).iter().map(|m| pos.play(m)).collect()
}

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let depth: u32 = number(get("--depth"), "--depth").unwrap_or(22);
    let jobs: usize = number(get("--jobs"), "--jobs").unwrap_or(1);
    let hard: Option<i32> = number(get("--hard"), "--hard");
    let hard_depth: u32 = number(get("--hard-depth"), "--hard-depth").unwrap_or(depth + 2);
    let moves: usize = number(get("--hard-moves"), "--hard-moves").unwrap_or(3);
    let out = get("--out").unwrap_or_else(|| "data/draughts_book.txt".into());
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let (replies, second) = (has("--replies") || has("--second"), has("--second"));
    let rules = Setup::STANDARD;
    // Every position up to two plies, then the ballot openings.
    let mut positions = vec![Position::START];
    for one in after_each_move(&rules, &Position::START) {
        positions.push(one);
        positions.extend(after_each_move(&rules, &one));
    }
    let openings: Vec<Position> = ballot::deck().map(|o| o.position()).collect();
    positions.extend(&openings);
    // With `--from FILE`, the book begins as that file's, whose positions
    // are not searched again, and its header lines are kept.
    let mut book = BTreeMap::new();
    let mut header = String::new();
    if let Some(from) = get("--from") {
        let text = std::fs::read_to_string(&from).expect("cannot read the book to extend");
        let read = book::parse(&text).unwrap_or_else(|e| panic!("{from}: {e}"));
        book.extend(read.iter().map(|(pos, m)| (fen::write(pos), m.clone())));
        for line in text.lines() {
            if line.starts_with("# Made by") || line.starts_with("# Extended by") {
                header.push_str(line);
                header.push('\n');
            }
        }
    }
    let started = Instant::now();
    search_all(&positions, depth, jobs, &mut book, started);
    if replies {
        // Black's first free move: after each White answer.
        let answers: Vec<Position> = openings
            .iter()
            .flat_map(|p| after_each_move(&rules, p))
            .collect();
        search_all(&answers, depth, jobs, &mut book, started);
        if second {
            // Black's second free move: Black's book move, then each of
            // White's answers.
            let again: Vec<Position> = answers
                .iter()
                .filter_map(|pos| after_book_move(&rules, &book, pos))
                .flat_map(|p| after_each_move(&rules, &p))
                .collect();
            search_all(&again, depth, jobs, &mut book, started);
        }
    }
    if let Some(cp) = hard {
        // The ballot position has White to move: its score is White's.
        let seen = scores(&openings, depth, jobs, started);
        let hard: Vec<Position> = openings
            .iter()
            .zip(&seen)
            .enumerate()
            .filter(|(_, (_, s))| **s >= cp)
            .map(|(i, (p, s))| {
                eprintln!("opening {}: White {s}", i + 1);
                *p
            })
            .collect();
        eprintln!("{} openings where White is {cp} or more ahead", hard.len());
        let mut level = hard;
        for _ in 0..moves {
            let answers: Vec<Position> = level
                .iter()
                .flat_map(|p| after_each_move(&rules, p))
                .collect();
            for pos in &answers {
                book.remove(&fen::write(pos));
            }
            search_all(&answers, hard_depth, jobs, &mut book, started);
            level = answers
                .iter()
                .filter_map(|pos| after_book_move(&rules, &book, pos))
                .collect();
        }
    }
    // The command that made it, without what does not change the book.
    let mut kept = Vec::new();
    let mut words = args.iter();
    while let Some(w) = words.next() {
        if w == "--jobs" || w == "--out" {
            words.next();
        } else {
            kept.push(w.as_str());
        }
    }
    let command = format!(
        "cargo run --release --example draughts_book -- {}",
        kept.join(" ")
    );
    let said = if header.is_empty() {
        "Made"
    } else {
        "Extended"
    };
    let mut text = format!(
        "# Draughts opening book: FEN MOVE, the engine's move after a search to a fixed depth.\n\
         {header}# {said} by: {command}\n"
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
