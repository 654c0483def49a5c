//! A second look at a match's games (the `--log` of `draughts_match`): at
//! which of A's moves a much longer search would have played otherwise, and
//! whether A's search at the match's time finds that move when it is asked
//! again afresh.
//!
//! ```text
//! cargo run --release --example draughts_review -- --log games.txt \
//!     --engine "target/release/examples/draughts_engine --threads 1 --pieces 5" \
//!     [--result Loss] [--plies 4-25] [--deep 8000] [--movetime 1000] [--margin 60] [--jobs 2]
//! ```
//!
//! For each game A ended with `--result` (`Loss`, `Draw` or `Win`), each
//! position of `--plies` (counted from the start, the ballot's three
//! included) where A was to move with a choice is searched for `--deep`
//! milliseconds, in the game's order, as the game itself asked. Where the
//! long search's move is not the one A played, the position after A's move
//! is searched as long too, so that both moves have a score from the same
//! search. A position where A's move scored `--margin` hundredths of a man
//! or more below the long search's move is a slip. Each slip is then asked
//! again, at `--movetime` and after `newgame`, with nothing carried over
//! from the game: does the search at the match's time find the move?
//!
//! Book moves (answered with no `info` line) are passed over. The engine
//! is given one thread, as in the match, and `--jobs` games are reviewed
//! at once, each with its own engine.

#[path = "common/args.rs"]
mod args;
#[path = "common/engine_process.rs"]
mod engine_process;

use std::sync::Mutex;
use std::time::Duration;

use engine_process::Engine;
use tallyho::games::Rules;
use tallyho::games::draughts::{Position, Setup, notation};

struct Options {
    log: String,
    engine: String,
    result: String,
    plies: (usize, usize),
    deep: u64,
    movetime: u64,
    margin: i32,
    jobs: usize,
}

fn options() -> Result<Options, String> {
    let words = args::words();
    let get = |name: &str| args::value(&words, name);
    let number = |name: &str, default: u64| -> Result<u64, String> {
        get(name).map_or(Ok(default), |t| {
            t.parse::<u64>().map_err(|_| format!("{name}: {t}"))
        })
    };
    let plies = match get("--plies") {
        None => (4, 25),
        Some(t) => {
            let (a, b) = t.split_once('-').ok_or(format!("--plies: {t}"))?;
            let p = |s: &str| s.parse::<usize>().map_err(|_| format!("--plies: {t}"));
            (p(a)?, p(b)?)
        }
    };
    Ok(Options {
        log: get("--log").ok_or("--log FILE is needed")?,
        engine: get("--engine").ok_or("--engine COMMAND is needed")?,
        result: get("--result").unwrap_or_else(|| "Loss".into()),
        plies,
        deep: number("--deep", 8000)?,
        movetime: number("--movetime", 1000)?,
        margin: i32::try_from(number("--margin", 60)?).map_err(|_| "--margin: too large")?,
        jobs: usize::try_from(number("--jobs", 1)?.max(1)).unwrap_or(1),
    })
}

/// One game of the log: its opening, A's colour and the moves.
struct Game {
    opening: String,
    colour: String,
    moves: Vec<String>,
}

/// A's move against the long search's, at one position.
struct Slip {
    ply: usize,
    played: String,
    played_score: i32,
    best: String,
    best_score: i32,
    /// The move the search at the match's time chose afresh.
    again: String,
}

/// A game's slips, or why it could not be reviewed.
type Reviewed = Result<Vec<Slip>, String>;

/// The score of an `info` line, for the side to move; a won or lost
/// ending counts as a hundred men.
fn score(info: &str) -> Option<i32> {
    let words: Vec<&str> = info.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    let n = words.get(i + 2)?.parse::<i32>().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(n),
        "win" => Some(10_000 - n),
        "loss" => Some(n - 10_000),
        _ => None,
    }
}

/// Asks `engine` for its move after `moves`, in `ms`: the move and its
/// score, or no score for a book move.
fn ask(engine: &mut Engine, moves: &[String], ms: u64) -> Result<(String, Option<i32>), String> {
    engine.info = None;
    engine.send(&format!("position startpos moves {}", moves.join(" ")))?;
    engine.send(&format!("go movetime {ms}"))?;
    let reply = engine.expect("bestmove", Duration::from_millis(ms + 60_000))?;
    let m = reply.trim_start_matches("bestmove").trim().to_string();
    Ok((m, engine.info.take().as_deref().and_then(score)))
}

/// Reviews one game; its slips.
fn review(opts: &Options, game: &Game) -> Reviewed {
    let rules = Setup::STANDARD;
    let a_moves_first = game.colour == "black";
    let mut engine = Engine::start("A", &opts.engine)?;
    engine.send("newgame")?;
    let mut pos = Position::START;
    let mut slips = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        let a_to_move = ply % 2 == usize::from(!a_moves_first);
        if a_to_move && (opts.plies.0..=opts.plies.1).contains(&ply) && rules.moves(&pos).len() > 1
        {
            let before = &game.moves[..ply];
            let (best, best_score) = ask(&mut engine, before, opts.deep)?;
            if let Some(best_score) = best_score
                && best != *text
            {
                let (_, reply) = ask(&mut engine, &game.moves[..=ply], opts.deep)?;
                let played_score = reply.map_or(best_score, |s| -s);
                if best_score - played_score >= opts.margin {
                    slips.push(Slip {
                        ply,
                        played: text.clone(),
                        played_score,
                        best,
                        best_score,
                        again: String::new(),
                    });
                }
            }
        }
        let m = notation::parse_move(&rules, &pos, text)
            .map_err(|e| format!("opening {}: ply {ply}, {text}: {e}", game.opening))?;
        pos = rules.play(&pos, &m);
        if ply >= opts.plies.1 {
            break;
        }
    }
    for slip in &mut slips {
        engine.send("newgame")?;
        slip.again = ask(&mut engine, &game.moves[..slip.ply], opts.movetime)?.0;
    }
    Ok(slips)
}

fn main() {
    let opts = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("draughts_review: {e}");
            std::process::exit(2);
        }
    };
    let text = match std::fs::read_to_string(&opts.log) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("draughts_review: {}: {e}", opts.log);
            std::process::exit(2);
        }
    };
    let games: Vec<Game> = text
        .lines()
        .filter_map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            (w.len() > 5 && w[3] == opts.result).then(|| Game {
                opening: w[1].to_string(),
                colour: w[2].to_string(),
                moves: w[5..].iter().map(|m| m.to_string()).collect(),
            })
        })
        .collect();
    let next = Mutex::new(0usize);
    let done: Mutex<Vec<Reviewed>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap_or_else(|p| p.into_inner());
                        *n += 1;
                        *n - 1
                    };
                    let Some(game) = games.get(i) else { break };
                    let result = review(&opts, game);
                    let mut done = done.lock().unwrap_or_else(|p| p.into_inner());
                    print_game(&opts, game, &result);
                    done.push(result);
                }
            });
        }
    });
    let done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    let slips: Vec<&Slip> = done
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .flatten()
        .collect();
    let games_with = done
        .iter()
        .filter(|r| r.as_ref().is_ok_and(|s| !s.is_empty()))
        .count();
    let found = slips.iter().filter(|s| s.again == s.best).count();
    let repeated = slips.iter().filter(|s| s.again == s.played).count();
    println!(
        "{} games ({}), plies {}-{}: {} slips of {} hundredths of a man or more in {} games; \
         asked again at {} ms, the search played the long search's move at {}, the game's at {}, another at {}",
        games.len(),
        opts.result,
        opts.plies.0,
        opts.plies.1,
        slips.len(),
        opts.margin,
        games_with,
        opts.movetime,
        found,
        repeated,
        slips.len() - found - repeated
    );
}

fn print_game(opts: &Options, game: &Game, result: &Reviewed) {
    println!("opening {} with {}:", game.opening, game.colour);
    match result {
        Err(e) => println!("  not reviewed: {e}"),
        Ok(slips) if slips.is_empty() => println!("  no slip"),
        Ok(slips) => {
            for s in slips {
                println!(
                    "  ply {}: played {} ({}), {} ms prefer {} ({}); afresh at {} ms: {}",
                    s.ply,
                    s.played,
                    s.played_score,
                    opts.deep,
                    s.best,
                    s.best_score,
                    opts.movetime,
                    s.again
                );
            }
        }
    }
}
