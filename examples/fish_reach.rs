//! How far exact analysis reaches: plays games (random placement, then
//! `--level` against itself, Cunning by default, `--think` ms a move),
//! analyses every position with at most
//! `--from` tiles left from cold (a fresh search each time) until the value
//! is proven or `--cap` milliseconds pass, and prints a table by tiles left.
//!
//! `cargo run --release --example fish_reach -- --games 20 --from 30 --cap 10000`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::fish::players::{Computer, Level};
use tallyho::games::fish::{Board, Deal, Limits, Position, Search, Setup};
use tallyho::games::{Deadline, Rules};

#[derive(Parser)]
struct Args {
    /// Games to take positions from.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Analyse positions with at most this many tiles left.
    #[arg(long, default_value_t = 30)]
    from: u32,
    /// Give up on a position after this many milliseconds.
    #[arg(long, default_value_t = 10_000)]
    cap: u64,
    /// Board size.
    #[arg(long, default_value = "6x6")]
    board: Board,
    /// Penguins per player.
    #[arg(long, default_value_t = 1)]
    penguins: u32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deal random tiles instead of the rings.
    #[arg(long)]
    random: bool,
    /// The level playing the games.
    #[arg(long, default_value = "cunning")]
    level: Level,
    /// Milliseconds a move for the players.
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// Print every position analysed.
    #[arg(long)]
    verbose: bool,
}

struct Clock(Instant);

impl Deadline for Clock {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let args = Args::parse();
    // tiles left -> (positions, proven, times of the proven in ms)
    let mut table: BTreeMap<u32, (u32, u32, Vec<u128>)> = BTreeMap::new();
    for g in 0..args.games {
        let deal = if args.random {
            Deal::Random {
                seed: args.seed + u64::from(g),
            }
        } else {
            Deal::Rings
        };
        let Ok(setup) = Setup::new(args.board, deal, args.penguins) else {
            eprintln!("bad setup");
            return;
        };
        let seed = args.seed * 1000 + u64::from(g) * 2;
        let mut placer = Computer::new(Level::Rubbish, seed);
        let mut players = [
            Computer::new(args.level, seed),
            Computer::new(args.level, seed + 1),
        ];
        let mut pos: Position = setup.start();
        while !pos.is_over() {
            if pos.tiles_left() <= args.from && !pos.placing() {
                let started = Instant::now();
                let clock = Clock(started + Duration::from_millis(args.cap));
                let a = Search::new().analyse(&pos, Limits::NONE, &clock);
                let ms = started.elapsed().as_millis();
                let row = table.entry(pos.tiles_left()).or_default();
                row.0 += 1;
                if a.exact {
                    row.1 += 1;
                    row.2.push(ms);
                }
                if args.verbose {
                    println!("{pos}  exact={} value={} ms={ms}", a.exact, a.value);
                }
            }
            let mover = if pos.placing() {
                &mut placer
            } else {
                &mut players[pos.to_move().index()]
            };
            let clock = Clock(Instant::now() + Duration::from_millis(args.think));
            let Some(mv) = mover.choose_move(&pos, &clock) else {
                break;
            };
            pos = setup.play(&pos, &mv);
        }
    }
    println!("tiles_left positions proven median_ms max_ms");
    for (tiles, (n, proven, mut times)) in table.into_iter().rev() {
        times.sort_unstable();
        let median = times.get(times.len() / 2).copied().unwrap_or(0);
        let max = times.last().copied().unwrap_or(0);
        println!("{tiles:>10} {n:>9} {proven:>6} {median:>9} {max:>6}");
    }
}
