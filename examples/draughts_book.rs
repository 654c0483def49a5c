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
//! `--learn FILE` learns from the engine's own games, as Chinook's and
//! Cake's books did: FILE holds one game a line (the engine's colour, its
//! result, the moves). Where a move of the engine's after the ballot has
//! scored a quarter of the points or less over `--learn-games` games or
//! more (default 3), each lost game through it gets another move at the
//! first such position where one will do: a move that scored half or more
//! there over two games or more, or else the engine's best other move if
//! its score at `--depth` is within `--learn-margin` (default 30 hundredths
//! of a man) of the move that lost. `--learn-plies` (default 40) bounds how
//! far into each game it looks. `data/draughts_games.txt` is the record
//! of the README's matches against GuiNN. The book learned from it with
//! `--from data/draughts_book.txt --learn data/draughts_games.txt --depth
//! 20 --jobs 2` (49 positions) was measured and is not the committed one
//! (README, "The opening book").
//!
//! Each position is searched alone, on one thread, to a fixed depth, with
//! the table cleared first, so the same command gives the same book
//! whatever `--jobs` is.

#[path = "common/args.rs"]
mod args;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tallyho::games::Never;
use tallyho::games::draughts::{
    Engine, Limits, Move, Position, Report, Score, Setup, ballot, book, fen,
};

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

/// One game of a match record: whether the engine had Black, what it
/// scored in half points (0, 1 or 2), and the moves from the start.
struct Record {
    black: bool,
    halves: u32,
    moves: Vec<String>,
}

/// Reads a match record: lines of `COLOUR RESULT MOVES…` (the engine's
/// colour, `black` or `white`, and its result, `Win`, `Draw` or `Loss`),
/// as `draughts_match --log` writes them after its first three words.
/// `#` lines are comments. A line it cannot read stops the program.
fn read_records(path: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if first.starts_with('#') {
            continue;
        }
        let black = match first {
            "black" => true,
            "white" => false,
            _ => {
                eprintln!("{path}:{}: black or white first, not {first}", n + 1);
                std::process::exit(2)
            }
        };
        let halves = match words.next() {
            Some("Win") => 2,
            Some("Draw") => 1,
            Some("Loss") => 0,
            other => {
                eprintln!("{path}:{}: Win, Draw or Loss, not {other:?}", n + 1);
                std::process::exit(2)
            }
        };
        out.push(Record {
            black,
            halves,
            moves: words.map(str::to_string).collect(),
        });
    }
    out
}

/// Learns from the engine's own games: where a move of the engine's has
/// scored a quarter or less over `min_games` games or more, the first such
/// position of each lost game gets the engine's best other move, if its
/// score at `depth` is within `margin` of the move that lost (or another
/// move scored half or more over two games or more there); otherwise the
/// next such position of that game is tried. Gives the new book entries.
fn learn(
    records: &[Record],
    plies: usize,
    min_games: u32,
    depth: u32,
    margin: i32,
    jobs: usize,
    started: Instant,
) -> BTreeMap<String, String> {
    let rules = Setup::STANDARD;
    // The engine's decision points of each game: (FEN, move) at each ply
    // after the ballot where it was to move and had a choice.
    let mut stats: HashMap<(String, String), (u32, u32)> = HashMap::new();
    let mut paths = Vec::new();
    for (g, r) in records.iter().enumerate() {
        let mut pos = Position::START;
        let mut path = Vec::new();
        for (ply, text) in r.moves.iter().enumerate().take(plies) {
            let Some(m) = rules.find(&pos, text) else {
                eprintln!("game {}: {text} is not a move at ply {}", g + 1, ply + 1);
                std::process::exit(2)
            };
            let engine_to_move = (ply % 2 == 0) == r.black;
            if ply >= 3 && engine_to_move && rules.moves(&pos).len() > 1 {
                let key = (fen::write(&pos), text.clone());
                let e = stats.entry(key.clone()).or_default();
                e.0 += 1;
                e.1 += r.halves;
                path.push((key, pos));
            }
            pos = pos.play(&m);
        }
        paths.push(path);
    }
    let bad = |key: &(String, String)| {
        stats
            .get(key)
            .is_some_and(|&(n, h)| n >= min_games && 2 * h <= n)
    };
    let mut learned = BTreeMap::new();
    for (r, path) in records.iter().zip(&paths) {
        if r.halves > 0 {
            continue;
        }
        for (key, pos) in path {
            if learned.contains_key(&key.0) {
                break;
            }
            if !bad(key) {
                continue;
            }
            let legal = rules.moves(pos);
            let here = |m: &Move| (key.0.clone(), m.to_string());
            if legal.iter().all(|m| bad(&here(m))) {
                continue;
            }
            // A move that did well here in the record.
            let tried = legal
                .iter()
                .filter_map(|m| {
                    let &(n, h) = stats.get(&here(m))?;
                    (n >= 2 && h >= n).then_some((h * 1000 / n, m.to_string()))
                })
                .max();
            if let Some((_, m)) = tried {
                eprintln!("{}: {} scored well in the record", key.0, m);
                learned.insert(key.0.clone(), m);
                break;
            }
            let children: Vec<Position> = legal.iter().map(|m| pos.play(m)).collect();
            let seen = scores(&children, depth.saturating_sub(1), jobs, started);
            let played = legal.iter().position(|m| m.to_string() == key.1);
            let lost = -seen[played.expect("the record's move is legal where it was played")];
            let best = legal
                .iter()
                .zip(&seen)
                .filter(|(m, _)| !bad(&here(m)))
                .map(|(m, s)| (-s, m.to_string()))
                .max();
            if let Some((score, m)) = best
                && score >= lost - margin
            {
                eprintln!("{}: {} ({score}) for {} ({lost})", key.0, m, key.1);
                learned.insert(key.0.clone(), m);
                break;
            }
        }
    }
    learned
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
    if let Some(path) = get("--learn") {
        let records = read_records(&path);
        let plies: usize = number(get("--learn-plies"), "--learn-plies").unwrap_or(40);
        let min_games: u32 = number(get("--learn-games"), "--learn-games").unwrap_or(3);
        let margin: i32 = number(get("--learn-margin"), "--learn-margin").unwrap_or(30);
        let learned = learn(&records, plies, min_games, depth, margin, jobs, started);
        eprintln!(
            "{} positions learned from {} games",
            learned.len(),
            records.len()
        );
        book.extend(learned);
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
