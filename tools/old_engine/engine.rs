//! The engine as it was at commit 20890f2 (before issue 18), speaking the
//! engine-mode protocol of `src/shell/engine.rs`, so matches can set the new
//! engine against it. `tools/old_engine/build.sh` copies this file into a
//! checkout of that commit as an example and builds it; it uses only that
//! commit's library.
//!
//! Commands: `position startpos|fen FEN [moves …]`, `go movetime MS`,
//! `go depth N`, `newgame`, `isready`, `quit`. The 4-piece database is built
//! before the first line is read, as the new engine's `isready` waits for it.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tallyho::games::Deadline;
use tallyho::games::draughts::{
    Draughts, Endgame, Engine, Level, Limits, Player, Position, fen, notation,
};

struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let rules = Draughts::STANDARD;
    let db = Arc::new(Endgame::build(4, rules));
    let fresh = || Player::new(Level::Overpowered, rules, 0).with_endgame(Arc::clone(&db));
    let mut player = fresh();
    let mut history = vec![Position::START];
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.len() > 16 * 1024 {
            let _ = writeln!(out, "error line too long");
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            [] => continue,
            ["quit"] => break,
            ["isready"] => "readyok".to_string(),
            ["newgame"] => {
                player = fresh();
                continue;
            }
            ["position", rest @ ..] => match position(rules, rest) {
                Ok(h) => {
                    history = h;
                    continue;
                }
                Err(e) => format!("error {e}"),
            },
            ["go", "movetime", ms] => match ms.parse::<u64>() {
                Ok(ms) => {
                    let deadline = Until(Instant::now() + Duration::from_millis(ms));
                    match player.choose_move(&rules, &history, &deadline) {
                        Some(m) => format!("bestmove {m}"),
                        None => "bestmove none".into(),
                    }
                }
                Err(_) => "error bad movetime".into(),
            },
            ["go", "depth", n] => match n.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => {
                    let mut engine = Engine::new(rules, 20).with_endgame(Arc::clone(&db));
                    let limits = Limits {
                        max_depth: d,
                        use_endgame: true,
                    };
                    let r = engine.search(&history, limits, &tallyho::games::Never);
                    match r.best {
                        Some(m) => format!("bestmove {m}"),
                        None => "bestmove none".into(),
                    }
                }
                _ => "error bad depth".into(),
            },
            _ => "error unknown command".into(),
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

fn position(rules: Draughts, args: &[&str]) -> Result<Vec<Position>, String> {
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (Position::START, rest),
        Some((&"fen", rest)) => {
            let end = rest.iter().position(|&w| w == "moves").unwrap_or(rest.len());
            let pos = fen::parse(&rest[..end].join(" ")).map_err(|e| e.to_string())?;
            (pos, &rest[end..])
        }
        _ => return Err("position wants startpos or fen".into()),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", m)) => m,
        Some(_) => return Err("expected moves".into()),
    };
    let mut history = vec![start];
    for text in moves {
        let pos = history[history.len() - 1];
        let m = notation::parse_move(&rules, &pos, text).map_err(|e| e.to_string())?;
        history.push(pos.play(&m));
    }
    Ok(history)
}
