//! A match between two draughts engines that speak the engine-mode protocol
//! (`src/shell/engine.rs`), over the 156 three-move ballot openings with
//! each engine taking each colour, at equal time per move. The games are
//! judged by tallyho's rules (no moves loses; threefold repetition and forty
//! moves a side without a capture or a man's move draw); a game that reaches
//! the ply cap is a draw, and an engine that answers late, wrongly or not at
//! all loses that game. The cap (`--max-plies`, 1,000 by default) only bounds
//! a game the rules have not ended; at 300, the default before, it cut short
//! endings that one side was winning (the README's match section).
//!
//! ```text
//! cargo run --release --example draughts_match -- \
//!     --a "target/release/examples/draughts_engine --threads 1" \
//!     --b "target/old_engine/draughts_old_engine" \
//!     --movetime 100 [--openings 1-156 or 3,17,40-42] [--max-plies 1000] [--jobs 1] [--log games.txt]
//!     [--colour black|white]
//! ```
//!
//! `--colour` plays only the games where A has that colour: a change that
//! touches only one colour's moves (a book of Black's moves) is measured
//! in half the time.
//!
//! Each engine is its own process, started once per worker and told
//! `newgame` before each game; give each `--threads 1` so both think on one
//! core. `--jobs N` plays N games at once (each with its own pair of engines).
//! The score is A's: a win 1, a draw 1/2. Where an engine says `info depth
//! D nodes N` before its move, the last lines give its median depth and
//! mean nodes a move, on boards of more than twelve pieces.

#[path = "common/args.rs"]
mod args;
#[path = "common/engine_process.rs"]
mod engine_process;

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use engine_process::Engine;

use tallyho::games::Rules;
use tallyho::games::draughts::{Move, Position, Setup, Side, ballot, notation};

struct Options {
    a: String,
    b: String,
    movetime: u64,
    /// The ballot openings to play, by number.
    openings: Vec<usize>,
    /// A's colour in the games to play, when not both.
    colour: Option<Side>,
    max_plies: usize,
    jobs: usize,
    timeout: Duration,
    log: Option<String>,
}

fn options() -> Result<Options, String> {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let num = |name: &str, default: u64| -> Result<u64, String> {
        get(name).map_or(Ok(default), |t| {
            t.parse().map_err(|_| format!("{name} wants a number: {t}"))
        })
    };
    let a = get("--a").ok_or("--a \"COMMAND\" names engine A")?;
    let b = get("--b").ok_or("--b \"COMMAND\" names engine B")?;
    let movetime = num("--movetime", 100)?;
    // `--openings 1-26`, or a list of numbers and ranges: `3,17,40-42`.
    let openings = args::numbers(
        &get("--openings").unwrap_or_else(|| format!("1-{}", ballot::DECK_SIZE)),
        "--openings",
        ballot::DECK_SIZE,
    )?;
    Ok(Options {
        a,
        b,
        movetime,
        openings,
        max_plies: num("--max-plies", 1000)? as usize,
        jobs: num("--jobs", 1)?.max(1) as usize,
        timeout: Duration::from_millis(num("--timeout", movetime * 10 + 5000)?),
        log: get("--log"),
        colour: match get("--colour").as_deref() {
            None => None,
            Some("black") => Some(Side::Black),
            Some("white") => Some(Side::White),
            Some(t) => return Err(format!("--colour is black or white, not {t}")),
        },
    })
}

/// For engines A and B: the depth each searched move reached, and the sum
/// of their nodes, as their `info` lines said, on boards with more than
/// [`BUSY`] pieces.
static SEARCHED: [Mutex<(Vec<u32>, u64)>; 2] =
    [Mutex::new((Vec::new(), 0)), Mutex::new((Vec::new(), 0))];

/// The pieces on a board past which its searches are counted: in endings
/// the database and the few moves make searches deep, and would say
/// nothing of the middle game.
const BUSY: u32 = 12;

/// Adds engine `name`'s `info depth D nodes N …` line to [`SEARCHED`].
fn note_info(name: &str, line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1)?.parse::<u64>().ok())
    };
    if let (Some(depth), Some(nodes)) = (field("depth"), field("nodes")) {
        let mut sums = SEARCHED[usize::from(name == "B")]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        sums.0.push(u32::try_from(depth).unwrap_or(u32::MAX));
        sums.1 = sums.1.saturating_add(nodes);
    }
}

/// How a game ended, for A.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Result3 {
    Win,
    Draw,
    Loss,
}

struct Game {
    number: usize,
    opening: usize,
    a_side: Side,
    result: Result3,
    how: String,
    moves: Vec<Move>,
}

/// Plays one game; `a` has `a_side`. Engines that fail lose the game.
fn play(
    engines: [&mut Engine; 2],
    a_side: Side,
    opening: ballot::Opening,
    opts: &Options,
) -> (Result3, String, Vec<Move>) {
    let rules = Setup::STANDARD;
    let [a, b] = engines;
    let mut moves = opening.moves();
    let mut history = opening.positions();
    for e in [&mut *a, &mut *b] {
        if let Err(e) = e.send("newgame") {
            return (Result3::Draw, format!("aborted: {e}"), moves);
        }
    }
    let lose = |side: Side| {
        if side == a_side {
            Result3::Loss
        } else {
            Result3::Win
        }
    };
    loop {
        if let Some(outcome) = rules.outcome(&history) {
            return match outcome.winner() {
                Some(w) => (lose(w.other()), outcome.how().to_string(), moves),
                None => (Result3::Draw, outcome.how().to_string(), moves),
            };
        }
        if moves.len() >= opts.max_plies {
            return (Result3::Draw, "ply-cap".into(), moves);
        }
        let pos: Position = history[history.len() - 1];
        let side = pos.to_move();
        let engine: &mut Engine = if side == a_side { &mut *a } else { &mut *b };
        let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        engine.info = None;
        let asked = engine
            .send(&format!("position startpos moves {}", list.join(" ")))
            .and_then(|_| engine.send(&format!("go movetime {}", opts.movetime)))
            .and_then(|_| engine.expect("bestmove", opts.timeout));
        let reply = match asked {
            Ok(r) => r,
            Err(e) => return (lose(side), e, moves),
        };
        if let Some(info) = engine.info.take()
            && pos.occupied().count_ones() > BUSY
        {
            note_info(engine.name, &info);
        }
        let text = reply.trim_start_matches("bestmove").trim();
        let m = match notation::parse_move(&rules, &pos, text) {
            Ok(m) => m,
            Err(e) => {
                return (
                    lose(side),
                    format!("engine {} played {text}: {e}", engine.name),
                    moves,
                );
            }
        };
        history.push(rules.play(&pos, &m));
        moves.push(m);
    }
}

/// A's colour in game `i` (from 0): Black in even games.
fn side_of(i: usize) -> Side {
    if i.is_multiple_of(2) {
        Side::Black
    } else {
        Side::White
    }
}

fn main() {
    let opts = match options() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    // Game 2k-1: A black from opening k; game 2k: A white. With
    // `--colour`, only the games where A has that colour.
    let games: Arc<Vec<usize>> = Arc::new(
        (0..2 * opts.openings.len())
            .filter(|i| opts.colour.is_none_or(|c| c == side_of(*i)))
            .collect(),
    );
    let total = games.len();
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Mutex<Vec<Game>>> = Arc::new(Mutex::new(Vec::new()));
    let log = opts.log.as_ref().map(|path| {
        Arc::new(Mutex::new(
            std::fs::File::create(path).expect("cannot write the log"),
        ))
    });
    let started = Instant::now();
    let workers: Vec<_> = (0..opts.jobs)
        .map(|_| {
            let (opts, games, next, results, log) = (
                Arc::clone(&opts),
                Arc::clone(&games),
                Arc::clone(&next),
                Arc::clone(&results),
                log.clone(),
            );
            std::thread::spawn(move || {
                let mut pair: Option<(Engine, Engine)> = None;
                loop {
                    let Some(&i) = games.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        return;
                    };
                    if pair.is_none() {
                        match (Engine::start("A", &opts.a), Engine::start("B", &opts.b)) {
                            (Ok(a), Ok(b)) => pair = Some((a, b)),
                            (Err(e), _) | (_, Err(e)) => {
                                eprintln!("{e}");
                                std::process::exit(1);
                            }
                        }
                    }
                    let Some((a, b)) = pair.as_mut() else { return };
                    let opening = ballot::Opening::new(opts.openings[i / 2]).expect("in the deck");
                    let a_side = side_of(i);
                    let (result, how, moves) = play([a, b], a_side, opening, &opts);
                    // An engine that failed is restarted for the next game.
                    if how.starts_with("engine") || how.starts_with("aborted") {
                        pair = None;
                    }
                    let game = Game {
                        number: i + 1,
                        opening: opening.number(),
                        a_side,
                        result,
                        how,
                        moves,
                    };
                    let mut all = results.lock().unwrap_or_else(|p| p.into_inner());
                    report(&game, &all, total, started);
                    if let Some(log) = &log {
                        let line: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
                        let mut f = log.lock().unwrap_or_else(|p| p.into_inner());
                        let _ = writeln!(
                            f,
                            "{} {} {} {:?} {} {}",
                            game.number,
                            game.opening,
                            game.a_side,
                            game.result,
                            game.how,
                            line.join(" ")
                        );
                    }
                    all.push(game);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let all = results.lock().unwrap_or_else(|p| p.into_inner());
    let (w, d, l) = tally(&all);
    println!(
        "final: A {w} wins, {d} draws, {l} losses in {} games: {:.1}/{} ({:.1}%)",
        all.len(),
        w as f64 + d as f64 / 2.0,
        all.len(),
        percent(w, d, l)
    );
    for (name, sums) in ["A", "B"].iter().zip(&SEARCHED) {
        let (depths, nodes) = &mut *sums.lock().unwrap_or_else(|p| p.into_inner());
        if depths.is_empty() {
            continue;
        }
        depths.sort_unstable();
        println!(
            "{name}, on boards of more than {BUSY} pieces: {} moves searched, median depth {}, {:.0} nodes a move",
            depths.len(),
            depths[depths.len() / 2],
            *nodes as f64 / depths.len() as f64
        );
    }
}

fn tally(games: &[Game]) -> (usize, usize, usize) {
    let count = |r| games.iter().filter(|g| g.result == r).count();
    (
        count(Result3::Win),
        count(Result3::Draw),
        count(Result3::Loss),
    )
}

fn percent(w: usize, d: usize, l: usize) -> f64 {
    let n = (w + d + l).max(1) as f64;
    100.0 * (w as f64 + d as f64 / 2.0) / n
}

fn report(game: &Game, before: &[Game], total: usize, started: Instant) {
    let (mut w, mut d, mut l) = tally(before);
    match game.result {
        Result3::Win => w += 1,
        Result3::Draw => d += 1,
        Result3::Loss => l += 1,
    }
    println!(
        "{}/{total}: game {} opening {} A {}: {:?} ({}, {} plies)  A +{w} ={d} -{l} {:.1}%  {:.0}s",
        before.len() + 1,
        game.number,
        game.opening,
        game.a_side,
        game.result,
        game.how,
        game.moves.len(),
        percent(w, d, l),
        started.elapsed().as_secs_f64()
    );
}
