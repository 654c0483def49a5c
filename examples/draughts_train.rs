//! Trains the draughts evaluation's weights (`data/draughts_eval.txt`) from
//! the engine's own games, labelled by their results; with `--net`, the net
//! on top of them (`data/draughts_net.txt`).
//!
//! ```text
//! nice -n 19 cargo run --release --example draughts_train -- \
//!     --games 4000 --depth 8 --epochs 2000 --seed 1 --l2 1e-7 \
//!     --positions target/draughts-positions.txt --out data/draughts_eval.txt
//! ```
//!
//! `--positions FILE` keeps the positions: a second run reads them instead
//! of playing the games again. While the games are played they go to
//! `FILE.part`, a whole game at a time; a run that is stopped and started
//! again with the same command goes on after the last whole game, and the
//! games come out the same as in one run (each game is seeded by its number
//! and starts from a cleared engine).
//!
//! 1. Games: the engine (with the weights compiled in, and the 4-piece
//!    database or the one `--db-dir` names) plays itself at a fixed depth
//!    from each ballot opening in turn; in the first twelve plies after the
//!    opening it plays a random move one time in six, so no two games are
//!    alike. A game ends by the rules, or when the database covers the
//!    position (it gives the exact result), or at 250 plies (a draw).
//!    Everything is seeded and the search is depth-bound, so the same
//!    command gives the same games.
//! 2. Positions: every quiet position of those games from the one the
//!    ballot leaves on (the side to move has no capture), labelled 1, 1/2
//!    or 0 by the game's result for the side to move.
//! 3. Fitting: the model's value `s` is read as a probability of winning
//!    `1 / (1 + e^(-s/K))`; K is fitted first with the starting weights,
//!    then the weights by Adam on the cross-entropy over all positions, from
//!    the weights compiled in (`--from hand` starts from the hand-set ones).
//!
//! Options for further rounds (none of them made the committed linear
//! weights; `--net`, `--lambda 0.5` and `--hold-out` made the net):
//! - `--positions A,B,...` reads several kept files; each line is
//!   `FEN LABEL [SCORE]`, SCORE the depth-bound search's score where the
//!   engine searched the position (not where it played a random move);
//! - `--match-games A,B,...` adds the games of match logs (the lines
//!   `draughts_match --log` writes): each quiet position after the ballot
//!   opening, labelled by the game's result and with no score; with no
//!   `--positions`, these are all the positions. `--match-openings 3,40-78`
//!   takes only those openings' games, so that a match on the others
//!   measures the net on games it did not learn from;
//! - `--lambda L` blends the label: `L * result + (1 - L) * the score read
//!   as a probability`;
//! - `--patterns` fits the pattern terms too (`eval::WINDOWS` blocks of
//!   `eval::PATTERNS` ways each), those seen in fewer than `--min-seen N`
//!   positions (50) staying at zero;
//! - `--hold-out` keeps every tenth game out of the fit and keeps the
//!   epoch that predicts its positions best. (The nets before the eighth
//!   were fitted when it held out every tenth block of a hundred positions
//!   instead, which let positions of fitted games into the held-out set;
//!   the README's commands name the commits that fitted them.)
//! - `--db-dir DIR` (with `--pieces N`, 5 by default) reads the stored
//!   database of N pieces from DIR (`draughts_build_db` builds it): the
//!   self-play ends with it, and every game's label is judged by it
//!   before the fit (`judge`): a game that reached a position it covers
//!   takes its result from there; a draw that did not, whose last searched
//!   positions put one side ahead by a man and a half, is that side's win;
//!   the positions it covers are left out;
//! - `--dedupe` fits each position once (on each side of the hold-out),
//!   labelled with the mean of its games' results and of its scores,
//!   after the judging;
//! - `--net` fits the net (`net.rs`) on top of the linear weights instead,
//!   and writes `data/draughts_net.txt` (15 epochs unless `--epochs` says;
//!   `common/net_fit.rs` says how);
//! - `--refine` starts the net's fit from the net compiled in instead of
//!   seeded random weights, at a smaller first step (`--rate R`, 1e-4; 1e-3
//!   without `--refine`), and `--k K` keeps the scale that net was fitted at
//!   (its file's header gives K) instead of fitting it to the new positions.
//!
//! Single-threaded; run it under `nice`.

#[path = "common/args.rs"]
mod args;
#[path = "common/net_fit.rs"]
mod net_fit;
#[path = "common/stored_db.rs"]
mod stored_db;

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use tallyho::games::Never;
use tallyho::games::Rules;
use tallyho::games::draughts::endgame::{Endgame, Exact};
use tallyho::games::draughts::eval::{self, TERMS, Weights};
use tallyho::games::draughts::{
    Engine, Limits, Position, Score, Setup, Side, ballot, fen, movegen, notation,
};

fn main() {
    let args = args::words();
    let get = |name: &str| args::value(&args, name);
    let num = |name: &str, default: u64| get(name).and_then(|t| t.parse().ok()).unwrap_or(default);
    let fit_net = args.iter().any(|a| a == "--net");
    let games = num("--games", 2000) as usize;
    let depth = num("--depth", 6) as u32;
    let epochs = num("--epochs", if fit_net { 15 } else { 2000 }) as usize;
    let seed = num("--seed", 1);
    let out = get("--out").unwrap_or_else(|| {
        if fit_net {
            "data/draughts_net.txt".into()
        } else {
            "data/draughts_eval.txt".into()
        }
    });
    let l2: f64 = get("--l2").and_then(|t| t.parse().ok()).unwrap_or(1e-7);
    let cache = get("--positions");
    let lambda: f64 = get("--lambda").and_then(|t| t.parse().ok()).unwrap_or(1.0);
    let min_seen = num("--min-seen", 50) as u32;
    let patterns = args.iter().any(|a| a == "--patterns");
    let hold_out = args.iter().any(|a| a == "--hold-out");
    // The options beyond the first round's, as the weights file names them.
    let mut more = String::new();
    if lambda != 1.0 {
        more.push_str(&format!(" --lambda {lambda}"));
    }
    if patterns {
        more.push_str(&format!(" --patterns --min-seen {min_seen}"));
    }
    if hold_out {
        more.push_str(" --hold-out");
    }
    // The database the games are judged by (and the self-play ends with).
    let db = get("--db-dir").map(|dir| {
        let pieces = num("--pieces", 5) as u32;
        more.push_str(&format!(" --db-dir {dir} --pieces {pieces}"));
        Arc::new(stored_db::load_or_exit(&dir, pieces, Setup::STANDARD, 2))
    });
    let start = if get("--from").as_deref() == Some("hand") {
        eval::hand_weights()
    } else {
        eval::weights().clone()
    };

    // Games of matches against other engines, with the openings to take.
    let matches = get("--match-games").map(|paths| {
        let list = get("--match-openings").unwrap_or_else(|| format!("1-{}", ballot::DECK_SIZE));
        let openings =
            args::numbers(&list, "--match-openings", ballot::DECK_SIZE).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2);
            });
        (paths, list, openings)
    });
    let t = Instant::now();
    let mut from = format!("{games} games at depth {depth}");
    let mut samples = match cache.as_deref() {
        Some(path) if Path::new(path).exists() || path.contains(',') => {
            from = format!("{} file(s)", path.split(',').count());
            read_positions(path).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2);
            })
        }
        Some(path) => {
            let mut kept = Kept::open(path).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1);
            });
            let s = play_games(games, depth, seed, db.clone(), Some(&mut kept));
            kept.finish().unwrap_or_else(|e| {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            });
            s
        }
        None if matches.is_some() => {
            from = "no file".into();
            Vec::new()
        }
        None => play_games(games, depth, seed, db.clone(), None),
    };
    eprintln!(
        "{} positions from {from} in {:.0} s",
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    // The options that say where the positions came from, for the header.
    let mut source = match &cache {
        Some(path) => format!("--positions {path}"),
        None if matches.is_some() => String::new(),
        None => format!("--games {games} --depth {depth}"),
    };
    // The linear fit's header names the games' seed; the net's names its own.
    let played = cache.is_none() && matches.is_none();
    if let Some((paths, list, openings)) = &matches {
        let first = samples.last().map_or(0, |l| l.game + 1);
        let (n, read) = read_match_games(paths, openings, first).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2);
        });
        eprintln!("{} positions from {n} games of matches", read.len());
        samples.extend(read);
        source = format!("{source} --match-games {paths} --match-openings {list}")
            .trim_start()
            .to_string();
    }
    if let Some(db) = &db {
        let before = samples.len();
        let (judged, changed) = judge(&samples, db);
        samples = judged;
        eprintln!(
            "judged by the {}-piece database: {} games' results changed by it, {} by their \
             last scores; {} of {before} positions left",
            db.max_pieces(),
            changed[0],
            changed[1],
            samples.len()
        );
    }
    if args.iter().any(|a| a == "--dedupe") {
        let before = samples.len();
        samples = dedupe(samples, hold_out);
        more.push_str(" --dedupe");
        eprintln!("{} of {before} positions left once each", samples.len());
    }
    if fit_net {
        let mut made = format!("{source} --net --epochs {epochs} --seed {seed}{more}");
        let refine = args.iter().any(|a| a == "--refine");
        let rate: f32 = get("--rate")
            .and_then(|t| t.parse().ok())
            .unwrap_or(if refine { 1e-4 } else { 1e-3 });
        if refine {
            made.push_str(&format!(" --refine --rate {rate:e}"));
        }
        let mut fit = net_fit::Samples::new(samples.iter().map(|l| (&l.pos, l.y, l.score)));
        // A net refined keeps the scale it was fitted at (`--k`; the
        // committed net's header gives it).
        let k = match get("--k").and_then(|t| t.parse::<f64>().ok()) {
            Some(k) => {
                made.push_str(&format!(" --k {k}"));
                k
            }
            None => fit.fit_k(),
        };
        fit.blend(k, lambda);
        let opts = net_fit::NetFit {
            k,
            epochs,
            rate,
            seed,
            start: refine.then(|| tallyho::games::draughts::net::learnt().clone()),
        };
        let held: Vec<bool> = samples.iter().map(|l| hold_out && held_game(l)).collect();
        train_net(&fit, &held, &opts, &made, &out);
        return;
    }
    let mut all: Vec<Sample> = samples
        .iter()
        .map(|l| Sample::new(&l.pos, l.y, patterns))
        .collect();
    let k = fit_k(&all, &start);
    // The label: the game's result, blended with the search's score read as
    // a probability when `--lambda` is below 1 (positions the engine did
    // not search keep the result).
    for (sample, l) in all.iter_mut().zip(&samples) {
        if let Some(score) = l.score {
            sample.y = lambda * l.y + (1.0 - lambda) * sigmoid(score as f64 / k);
        }
    }
    // With `--hold-out`, every tenth game is kept out of the fit, to choose
    // the epoch; without it every position is fitted and the last epoch
    // kept.
    let (held, data): (Vec<_>, Vec<_>) = all
        .into_iter()
        .enumerate()
        .partition(|&(i, _)| hold_out && held_game(&samples[i]));
    let held: Vec<Sample> = held.into_iter().map(|(_, s)| s).collect();
    let data: Vec<Sample> = data.into_iter().map(|(_, s)| s).collect();
    eprintln!(
        "K = {k:.0}; {} positions fitted, {} held out; loss with the starting weights {:.5}",
        data.len(),
        held.len(),
        loss(&data, &start, k)
    );
    let fit = Fit {
        k,
        epochs,
        l2,
        min_seen,
    };
    let w = train(&data, &held, start.clone(), &fit);
    eprintln!("loss after training {:.5}", loss(&data, &w, k));
    let mut text = format!(
        "# Draughts evaluation weights: NAME OPENING ENDGAME (hundredths of a man).\n\
         # Made by: cargo run --release --example draughts_train -- {source}{seeded} \
         --epochs {epochs} --l2 {l2:e}{more}\n\
         # from {} positions; K = {k:.0}; loss {:.4} before, {:.4} after.\n",
        data.len(),
        loss(&data, &start, k),
        loss(&data, &w, k),
        seeded = if played {
            format!(" --seed {seed}")
        } else {
            String::new()
        },
    );
    text.push_str(&eval::format_weights(&w));
    std::fs::write(&out, text).expect("cannot write the weights");
    eprintln!("wrote {out}");
}

/// Fits the net on top of the evaluation and writes it to `out`; `made`
/// is the command line's options, for the file's header.
fn train_net(
    samples: &net_fit::Samples,
    held: &[bool],
    opts: &net_fit::NetFit,
    made: &str,
    out: &str,
) {
    let k = opts.k;
    let (held, fitted): (Vec<usize>, Vec<usize>) = (0..samples.len()).partition(|&i| held[i]);
    let f = net_fit::fit(samples, fitted, &held, opts);
    eprintln!(
        "K = {k:.0}; loss without the net {:.5} (held out {:.5}), with it {:.5} ({:.5}), epoch {}",
        f.before.0, f.before.1, f.after.0, f.after.1, f.epoch
    );
    let mut text = format!(
        "# Draughts evaluation net, added to the linear weights' value (src/games/draughts/net.rs).\n\
         # Made by: cargo run --release --example draughts_train -- {made}\n\
         # from {} positions; K = {k:.0}; loss {:.4} without the net, {:.4} with it (epoch {}).\n",
        samples.len(),
        f.before.0,
        f.after.0,
        f.epoch
    );
    text.push_str(&tallyho::games::draughts::net::format(&f.net));
    // The engine falls back to no net at all if it cannot read the file.
    if let Err(e) = tallyho::games::draughts::net::parse(&text) {
        eprintln!("the fitted net does not read back ({e}); {out} not written");
        std::process::exit(1);
    }
    std::fs::write(out, text).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    });
    eprintln!("wrote {out}");
}

/// Self-play games: each quiet position with the result for the side to
/// move. With `kept`, the games it already holds come first and are not
/// played again, and each new game is added to it as it ends.
fn play_games(
    games: usize,
    depth: u32,
    seed: u64,
    db: Option<Arc<Endgame>>,
    mut kept: Option<&mut Kept>,
) -> Vec<Labelled> {
    let rules = Setup::STANDARD;
    let db = db.unwrap_or_else(|| Arc::new(Endgame::build(4, rules)));
    let mut engine = Engine::new(rules, 18).with_endgame(Arc::clone(&db));
    let mut out = kept
        .as_deref_mut()
        .map_or_else(Vec::new, |k| std::mem::take(&mut k.positions));
    let openings: Vec<ballot::Opening> = ballot::deck().collect();
    let first = kept.as_ref().map_or(0, |k| k.games);
    if first > 0 {
        eprintln!("{first} games kept from a run that stopped; going on from there");
    }
    for g in first..games {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(g as u64));
        let opening = openings[g % openings.len()];
        let mut history = opening.positions();
        let mut scores: Vec<(usize, i32)> = Vec::new();
        engine.clear();
        let black_result: f64 = loop {
            let pos = history[history.len() - 1];
            if let Some(o) = rules.outcome(&history) {
                break match o.winner() {
                    Some(Side::Black) => 1.0,
                    Some(Side::White) => 0.0,
                    None => 0.5,
                };
            }
            if db.covers(&pos)
                && let Some(e) = db.probe(&pos)
            {
                let mover = match e {
                    Exact::Win(_) => 1.0,
                    Exact::Loss(_) => 0.0,
                    Exact::Draw => 0.5,
                };
                break if pos.to_move() == Side::Black {
                    mover
                } else {
                    1.0 - mover
                };
            }
            if history.len() > 250 {
                break 0.5;
            }
            let moves = rules.moves(&pos);
            let ply = history.len() - 4;
            let m = if ply < 12 && rng.random_range(0..6) == 0 {
                *moves.choose(&mut rng).expect("a move")
            } else {
                let limits = Limits {
                    max_depth: depth,
                    use_endgame: true,
                };
                let report = engine.search(&history, limits, &Never);
                scores.push((history.len() - 1, score_value(report.score)));
                match report.best {
                    Some(m) => m,
                    None => {
                        break if pos.to_move() == Side::Black {
                            0.0
                        } else {
                            1.0
                        };
                    }
                }
            };
            history.push(pos.play(&m));
        };
        let from = out.len();
        for (at, &pos) in history.iter().enumerate().skip(3) {
            let score = scores.iter().find(|s| s.0 == at).map(|s| s.1);
            out.extend(Labelled::quiet(pos, black_result, score, g as u32));
        }
        if let Some(k) = kept.as_deref_mut()
            && let Err(e) = k.add(&out[from..])
        {
            eprintln!("{}: {e}", k.part.display());
            std::process::exit(1);
        }
        if (g + 1) % 100 == 0 {
            eprintln!("{} games, {} positions", g + 1, out.len());
        }
    }
    out
}

/// A positions file being written as its games are played: `FILE.part`,
/// each game's lines followed by `# game N`, renamed to `FILE` when all
/// the games are in.
struct Kept {
    path: PathBuf,
    part: PathBuf,
    file: File,
    /// Whole games in the part file.
    games: usize,
    /// Their positions.
    positions: Vec<Labelled>,
}

impl Kept {
    /// Opens `path.part`, keeping the whole games a stopped run left there
    /// and dropping whatever followed the last of them.
    fn open(path: &str) -> Result<Kept, String> {
        let part = PathBuf::from(format!("{path}.part"));
        let shown = part.display().to_string();
        let text = match std::fs::read_to_string(&part) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{shown}: {e}")),
        };
        let (mut end, mut games) = (0, 0);
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            at += line.len();
            if let Some(n) = line.strip_prefix("# game ")
                && line.ends_with('\n')
                && let Ok(n) = n.trim().parse::<usize>()
            {
                end = at;
                games = n;
            }
        }
        let mut positions = Vec::new();
        parse_positions(&shown, &text[..end], &mut positions)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&part)
            .and_then(|f| f.set_len(end as u64).map(|()| f))
            .map_err(|e| format!("{shown}: {e}"))?;
        Ok(Kept {
            path: PathBuf::from(path),
            part,
            file,
            games,
            positions,
        })
    }

    /// Adds one game's positions.
    fn add(&mut self, positions: &[Labelled]) -> std::io::Result<()> {
        self.games += 1;
        let mut text = positions_text(positions);
        text.push_str(&format!("# game {}\n", self.games));
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }

    /// Every game is in: the part file becomes the positions file.
    fn finish(self) -> std::io::Result<()> {
        drop(self.file);
        std::fs::rename(&self.part, &self.path)
    }
}

/// A quiet position of a game: the game's result for the side to move
/// (1, 1/2 or 0) and, where the engine searched it (not where it played a
/// random move), the search's score for it.
#[derive(Clone, Copy)]
struct Labelled {
    pos: Position,
    y: f64,
    score: Option<i32>,
    /// The game it comes from, numbered across every source read, so that
    /// `--hold-out` keeps whole games out of the fit.
    game: u32,
}

impl Labelled {
    /// `pos` with a game's result for Black (1, 1/2 or 0) turned to the
    /// side to move's, if it is quiet (no capture for the side to move) and
    /// both sides still have pieces.
    fn quiet(pos: Position, black_result: f64, score: Option<i32>, game: u32) -> Option<Labelled> {
        let y = if pos.to_move() == Side::Black {
            black_result
        } else {
            1.0 - black_result
        };
        let quiet = pos.pieces(Side::Black) != 0
            && pos.pieces(Side::White) != 0
            && !movegen::has_capture(&pos);
        quiet.then_some(Labelled {
            pos,
            y,
            score,
            game,
        })
    }
}

/// How far ahead, in hundredths of a man on average over a drawn game's
/// last [`JUDGED_SCORES`] searched positions, one side must be for `judge`
/// to give it the game.
const JUDGED_AHEAD: i32 = 150;
const JUDGED_SCORES: usize = 10;

/// The positions, game by game, with their labels mended by what `db`
/// knows. A game that reached a position the database covers takes its
/// result from there: the self-play may have ended it otherwise, with a
/// smaller database, by the cap of 250 plies or by a slip the database
/// would not make. A draw that never got there, in whose last searched
/// positions one side was ahead by [`JUDGED_AHEAD`] on average, is that
/// side's win: most such games are cut off by the cap. Positions the
/// database covers are left out, as the engine never evaluates them. Gives
/// the games changed by the database and by their scores.
fn judge(samples: &[Labelled], db: &Endgame) -> (Vec<Labelled>, [usize; 2]) {
    // A value for the side to move as Black's, and back.
    let turn = |l: &Labelled, v: f64| {
        if l.pos.to_move() == Side::Black {
            v
        } else {
            1.0 - v
        }
    };
    let mut out = Vec::with_capacity(samples.len());
    let mut changed = [0; 2];
    for game in samples.chunk_by(|a, b| a.game == b.game) {
        let was = turn(&game[0], game[0].y);
        let exact = game
            .iter()
            .find(|l| db.covers(&l.pos))
            .and_then(|l| db.probe(&l.pos).map(|e| (l, e)));
        let result = match exact {
            Some((l, e)) => {
                let mover = match e {
                    Exact::Win(_) => 1.0,
                    Exact::Loss(_) => 0.0,
                    Exact::Draw => 0.5,
                };
                let r = turn(l, mover);
                changed[0] += usize::from(r != was);
                r
            }
            None if was == 0.5 => {
                let last: Vec<i32> = game
                    .iter()
                    .rev()
                    .filter_map(|l| {
                        l.score.map(|s| {
                            if l.pos.to_move() == Side::Black {
                                s
                            } else {
                                -s
                            }
                        })
                    })
                    .take(JUDGED_SCORES)
                    .collect();
                let mean = last.iter().sum::<i32>() / last.len().max(1) as i32;
                let r = if mean >= JUDGED_AHEAD {
                    1.0
                } else if mean <= -JUDGED_AHEAD {
                    0.0
                } else {
                    0.5
                };
                changed[1] += usize::from(r != was);
                r
            }
            None => was,
        };
        out.extend(
            game.iter()
                .filter(|l| !db.covers(&l.pos))
                .map(|l| Labelled {
                    y: turn(l, result),
                    ..*l
                }),
        );
    }
    (out, changed)
}

/// `--dedupe`: each position once on each side of the hold-out, where it
/// first came, with the mean of its results and of its search scores.
/// Opening positions come in many games; they would otherwise weigh as
/// much as all the later positions of those games.
fn dedupe(samples: Vec<Labelled>, hold_out: bool) -> Vec<Labelled> {
    /// A position's copies so far: where the first is in `out`, how many
    /// came, their results' sum, and their scores' sum and count.
    #[derive(Default)]
    struct Copies {
        at: usize,
        n: u32,
        y: f64,
        score: i64,
        scored: u32,
    }
    let mut seen: HashMap<(Position, bool), Copies> = HashMap::new();
    let mut out: Vec<Labelled> = Vec::new();
    for l in samples {
        let key = (l.pos, hold_out && held_game(&l));
        let c = seen.entry(key).or_insert_with(|| {
            out.push(l);
            Copies {
                at: out.len() - 1,
                ..Copies::default()
            }
        });
        c.n += 1;
        c.y += l.y;
        if let Some(s) = l.score {
            c.score += i64::from(s);
            c.scored += 1;
        }
    }
    for c in seen.into_values() {
        out[c.at].y = c.y / f64::from(c.n);
        out[c.at].score = (c.scored > 0).then(|| (c.score / i64::from(c.scored)) as i32);
    }
    out
}

/// Whether `--hold-out` keeps this position's game out of the fit: every
/// tenth game.
fn held_game(l: &Labelled) -> bool {
    l.game % 10 == 9
}

/// A search score as a number: wins and losses as +-3000 (thirty men).
fn score_value(score: Score) -> i32 {
    match score {
        Score::Points(s) => s.clamp(-3000, 3000),
        Score::Win(_) => 3000,
        Score::Loss(_) => -3000,
    }
}

/// Positions as lines `FEN LABEL [SCORE]`, to train again without playing
/// again.
fn positions_text(samples: &[Labelled]) -> String {
    samples
        .iter()
        .map(|l| match l.score {
            Some(score) => format!("{} {} {score}\n", fen::write(&l.pos), l.y),
            None => format!("{} {}\n", fen::write(&l.pos), l.y),
        })
        .collect()
}

/// Reads the games of match logs (`draughts_match --log`), several files
/// separated by commas: each line `GAME OPENING COLOUR RESULT HOW MOVES…`
/// (`#` lines are comments),
/// COLOUR engine A's and RESULT its result (`Win`, `Draw`, `Loss`). Each
/// quiet position after the ballot opening with more than four pieces (the
/// databases know the rest) is labelled by the result for the side to
/// move. Only the games of `openings` are read, a game logged twice (the
/// same opening and moves) once, and a game an engine failed in (HOW
/// `engine …` or `aborted …`) not at all. Gives the games read and their
/// positions.
/// The games are numbered on from `first_game`.
fn read_match_games(
    paths: &str,
    openings: &[usize],
    first_game: u32,
) -> Result<(usize, Vec<Labelled>), String> {
    let rules = Setup::STANDARD;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let at = || format!("{path}:{}", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [_, opening, colour, result, how, moves @ ..] = words.as_slice() else {
                return Err(format!(
                    "{}: expected GAME OPENING COLOUR RESULT HOW MOVES",
                    at()
                ));
            };
            let opening: usize = opening
                .parse()
                .map_err(|_| format!("{}: no opening number: {opening}", at()))?;
            if !openings.contains(&opening)
                || how.starts_with("engine")
                || how.starts_with("aborted")
                || !seen.insert((opening, moves.join(" ")))
            {
                continue;
            }
            let a_black = match *colour {
                "black" => true,
                "white" => false,
                other => return Err(format!("{}: no colour: {other}", at())),
            };
            let black_result = match (*result, a_black) {
                ("Draw", _) => 0.5,
                ("Win", true) | ("Loss", false) => 1.0,
                ("Win", false) | ("Loss", true) => 0.0,
                (other, _) => return Err(format!("{}: no result: {other}", at())),
            };
            let game = first_game + seen.len() as u32;
            let mut pos = Position::START;
            for (ply, text) in moves.iter().enumerate() {
                if ply >= 3 && pos.piece_count() > 4 {
                    out.extend(Labelled::quiet(pos, black_result, None, game));
                }
                let m = notation::parse_move(&rules, &pos, text)
                    .map_err(|e| format!("{}: move {} ({text}): {e}", at(), ply + 1))?;
                pos = pos.play(&m);
            }
        }
    }
    Ok((seen.len(), out))
}

/// Reads positions written by [`Kept`] (`#` lines are comments): several
/// files may be named, separated by commas.
fn read_positions(paths: &str) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        parse_positions(path, &text, &mut out)?;
    }
    Ok(out)
}

/// Adds the positions of `text`, read from `path`, to `out`.
/// The lines of a game are followed by `# game N`; its positions are
/// numbered on from the last game in `out`.
fn parse_positions(path: &str, text: &str, out: &mut Vec<Labelled>) -> Result<(), String> {
    let mut game = out.last().map_or(0, |l| l.game + 1);
    for line in text.lines() {
        if line.starts_with("# game ") && out.last().is_some_and(|l| l.game == game) {
            game += 1;
        }
        if line.starts_with('#') {
            continue;
        }
        let mut words = line.split(' ');
        let (Some(f), Some(y)) = (words.next(), words.next()) else {
            return Err(format!("{path}: expected FEN LABEL [SCORE]: {line}"));
        };
        let pos = fen::parse(f).map_err(|e| e.to_string())?;
        let y = y.parse::<f64>().map_err(|e| e.to_string())?;
        let score = match words.next() {
            Some(t) => Some(t.parse::<i32>().map_err(|e| e.to_string())?),
            None => None,
        };
        out.push(Labelled {
            pos,
            y,
            score,
            game,
        });
    }
    Ok(())
}

/// A position's terms, its phase and its label.
struct Sample {
    terms: Vec<(u32, f32)>,
    phase: f64,
    y: f64,
}

impl Sample {
    fn new(pos: &Position, y: f64, patterns: bool) -> Sample {
        let mut terms = Vec::new();
        eval::terms(pos, |i, v| {
            if patterns || i < eval::BASE_TERMS {
                terms.push((i as u32, v as f32));
            }
        });
        Sample {
            terms,
            phase: eval::phase(pos) as f64 / 24.0,
            y,
        }
    }

    fn value(&self, w: &[[f64; 2]]) -> f64 {
        let (mut a, mut b) = (0.0, 0.0);
        for &(i, v) in &self.terms {
            a += w[i as usize][0] * v as f64;
            b += w[i as usize][1] * v as f64;
        }
        a * self.phase + b * (1.0 - self.phase)
    }
}

fn to_f64(w: &Weights) -> Vec<[f64; 2]> {
    w.iter().map(|&[a, b]| [a as f64, b as f64]).collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of the predictions against the labels.
fn loss_f(data: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let mut total = 0.0;
    for s in data {
        let p = sigmoid(s.value(w) / k).clamp(1e-9, 1.0 - 1e-9);
        total -= s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln();
    }
    total / data.len().max(1) as f64
}

fn loss(data: &[Sample], w: &Weights, k: f64) -> f64 {
    loss_f(data, &to_f64(w), k)
}

/// The scale that best fits the starting weights' values to the results.
fn fit_k(data: &[Sample], w: &Weights) -> f64 {
    let w = to_f64(w);
    net_fit::least(20.0, 2000.0, |k| loss_f(data, &w, k))
}

/// What training is asked to do.
struct Fit {
    k: f64,
    epochs: usize,
    l2: f64,
    /// A pattern seen in fewer training positions keeps the weight zero.
    min_seen: u32,
}

/// Adam on the mean cross-entropy, full batch, with a pull of `l2` toward
/// the starting weights (terms seldom seen, such as kings early on, keep
/// their starting values instead of fitting noise); patterns seen fewer
/// than `min_seen` times are not fitted at all. The weights kept are those
/// of the epoch with the lowest loss on the held-out positions.
fn train(data: &[Sample], held: &[Sample], start: Weights, fit: &Fit) -> Weights {
    let k = fit.k;
    let w0 = to_f64(&start);
    let mut seen = vec![0u32; TERMS];
    for s in data {
        for &(i, _) in &s.terms {
            seen[i as usize] += 1;
        }
    }
    let free: Vec<bool> = (0..TERMS)
        .map(|i| i < eval::BASE_TERMS || seen[i] >= fit.min_seen)
        .collect();
    if seen[eval::BASE_TERMS..].iter().any(|&n| n > 0) {
        eprintln!(
            "{} of {} patterns seen at least {} times",
            free[eval::BASE_TERMS..].iter().filter(|&&f| f).count(),
            TERMS - eval::BASE_TERMS,
            fit.min_seen
        );
    }
    let mut w = w0.clone();
    let mut best = (loss_f(held, &w, k), w.clone(), 0);
    let choose = !held.is_empty();
    let mut m = vec![[0.0f64; 2]; TERMS];
    let mut v = vec![[0.0f64; 2]; TERMS];
    let (rate, b1, b2) = (0.5, 0.9, 0.999);
    let n = data.len().max(1) as f64;
    for epoch in 1..=fit.epochs {
        let mut g = vec![[0.0f64; 2]; TERMS];
        for s in data {
            let p = sigmoid(s.value(&w) / k);
            let d = (p - s.y) / k;
            for &(i, x) in &s.terms {
                g[i as usize][0] += d * x as f64 * s.phase;
                g[i as usize][1] += d * x as f64 * (1.0 - s.phase);
            }
        }
        for i in (0..TERMS).filter(|&i| free[i]) {
            for j in 0..2 {
                let gr = g[i][j] / n + fit.l2 * (w[i][j] - w0[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * gr;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * gr * gr;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        if choose && epoch % 25 == 0 {
            let h = loss_f(held, &w, k);
            if h < best.0 {
                best = (h, w.clone(), epoch);
            }
            if epoch % 250 == 0 {
                eprintln!(
                    "epoch {epoch}: loss {:.5}, held out {h:.5}",
                    loss_f(data, &w, k)
                );
            }
        } else if epoch % 250 == 0 {
            eprintln!("epoch {epoch}: loss {:.5}", loss_f(data, &w, k));
        }
    }
    if !choose {
        best = (0.0, w, fit.epochs);
    } else {
        eprintln!("kept epoch {} (held-out loss {:.5})", best.2, best.0);
    }
    best.1
        .iter()
        .map(|&[a, b]| [a.round() as i32, b.round() as i32])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fens: &[(&str, f64, Option<i32>)], game: u32) -> Vec<Labelled> {
        fens.iter()
            .map(|&(f, y, score)| Labelled {
                pos: fen::parse(f).expect("a FEN"),
                y,
                score,
                game,
            })
            .collect()
    }

    #[test]
    fn kept_positions_are_numbered_game_by_game_across_files() {
        let one =
            "B:W21,22:B1,2 0.5 10\nW:W21,22:B1,6 0.5\n# game 1\nB:W21,22:B1,2 1 -4\n# game 2\n";
        let mut out = Vec::new();
        parse_positions("one", one, &mut out).expect("read");
        parse_positions("two", "B:W21,22:B1,2 0 7\n# game 1\n", &mut out).expect("read");
        let games: Vec<u32> = out.iter().map(|l| l.game).collect();
        assert_eq!(games, [0, 0, 1, 2]);
        assert_eq!(out[0].score, Some(10));
        assert_eq!(out[1].score, None);
        let held: Vec<bool> = (0..20)
            .map(|g| held_game(&game(&[("B:W21,22:B1,2", 0.5, None)], g)[0]))
            .collect();
        assert_eq!(held.iter().filter(|&&h| h).count(), 2);
        assert!(held[9] && held[19]);
    }

    #[test]
    fn a_draw_the_database_calls_a_win_is_relabelled_and_its_covered_positions_left_out() {
        let db = Endgame::build(3, Setup::STANDARD);
        // Black's two kings against one: a win for Black, though the game
        // was labelled a draw. Its first position has four pieces.
        let drawn = game(
            &[
                ("W:WK11,30:BK23,K32", 0.5, Some(-500)),
                ("B:WK11:BK23,K32", 0.5, Some(900)),
            ],
            0,
        );
        let (out, changed) = judge(&drawn, &db);
        assert_eq!(changed, [1, 0]);
        assert_eq!(out.len(), 1, "the 3-piece position is left out");
        // White to move in the kept position: a loss for White.
        assert_eq!(out[0].y, 0.0);
        assert_eq!(out[0].score, Some(-500));
    }

    #[test]
    fn a_draw_cut_off_with_one_side_well_ahead_goes_to_that_side() {
        let db = Endgame::build(3, Setup::STANDARD);
        let start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        let after = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15";
        // Black to move +200, White to move -200: Black ahead by two men.
        let ahead = [(start, 0.5, Some(200)), (after, 0.5, Some(-200))];
        let (out, changed) = judge(&game(&ahead, 0), &db);
        assert_eq!(changed, [0, 1]);
        assert_eq!([out[0].y, out[1].y], [1.0, 0.0]);
        // A man and a bit is not enough: the draw stands.
        let level = [(start, 0.5, Some(120)), (after, 0.5, Some(-120))];
        let (out, changed) = judge(&game(&level, 0), &db);
        assert_eq!(changed, [0, 0]);
        assert_eq!([out[0].y, out[1].y], [0.5, 0.5]);
        // A game already won is left as it was, whatever its last scores.
        let won = [(start, 0.0, Some(200)), (after, 1.0, Some(-200))];
        let (out, changed) = judge(&game(&won, 0), &db);
        assert_eq!(changed, [0, 0]);
        assert_eq!([out[0].y, out[1].y], [0.0, 1.0]);
    }

    #[test]
    fn dedupe_keeps_each_position_once_a_side_of_the_hold_out_with_mean_labels() {
        let a = "B:W21,22:B1,2";
        let b = "W:W21,22:B1,6";
        let mut all = game(&[(a, 1.0, Some(40)), (b, 0.5, None)], 0);
        all.extend(game(&[(a, 0.0, None), (b, 0.5, Some(-10))], 1));
        all.extend(game(&[(a, 0.5, Some(20))], 2));
        // Game 9 is held out: its copy of `a` stays apart.
        all.extend(game(&[(a, 0.0, Some(-90))], 9));
        let out = dedupe(all.clone(), true);
        let got: Vec<(u32, f64, Option<i32>)> =
            out.iter().map(|l| (l.game, l.y, l.score)).collect();
        assert_eq!(
            got,
            [(0, 0.5, Some(30)), (0, 0.5, Some(-10)), (9, 0.0, Some(-90))]
        );
        // Without the hold-out, game 9's copy joins the others.
        let out = dedupe(all, false);
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].y, out[0].score), (0.375, Some(-10)));
    }
}
