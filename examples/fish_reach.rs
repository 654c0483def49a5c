//! How far exact analysis reaches within a time, on positions from strong
//! play. Two measures:
//!
//! - `--games N`: plays N games on 6x6 (random placement, then `--level`
//!   against itself, Overpowered by default, `--think` ms a move), and
//!   analyses every position with `--from` tiles left or fewer from cold (a
//!   fresh search each time, as `tallyho fish analyse` makes one) for at most
//!   `--cap` ms, then prints, by tiles left, how many were proven within
//!   `--within` ms (the default analyse time), how many at all, and the
//!   times of the proven ones.
//! - `--placements N`: every placement position of the 4x4 board with N
//!   penguins each (every way P and A can have placed some, P first and
//!   alternately), analysed the same way.
//!
//! ```text
//! cargo run --release --example fish_reach -- --games 6 --think 3000 --from 30 --cap 5000
//! cargo run --release --example fish_reach -- --placements 1 --cap 5000
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::fish::players::{Computer, Level};
use tallyho::games::fish::{Board, Deal, Limits, Move, Position, Setup, analyse};
use tallyho::games::{Deadline, Rules};

#[derive(Parser)]
struct Args {
    /// Games to take 6x6 positions from.
    #[arg(long, default_value_t = 0)]
    games: u32,
    /// Every 4x4 placement position with this many penguins each.
    #[arg(long)]
    placements: Option<u8>,
    /// Analyse game positions with at most this many tiles left.
    #[arg(long, default_value_t = 30)]
    from: u32,
    /// ... and at least this many.
    #[arg(long, default_value_t = 0)]
    to: u32,
    /// Give up on a position after this many milliseconds.
    #[arg(long, default_value_t = 5_000)]
    cap: u64,
    /// Count as in time the positions proven within this many milliseconds.
    #[arg(long, default_value_t = 1_000)]
    within: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The level playing the games.
    #[arg(long, default_value = "overpowered")]
    level: Level,
    /// Milliseconds a move for the players.
    #[arg(long, default_value_t = 3000)]
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

/// By tiles left (or placements made): positions, proven in time, proven
/// at all, and the times of the proven ones in ms.
type Table = BTreeMap<u32, (u32, u32, u32, Vec<u128>)>;

fn measure(pos: &Position, key: u32, args: &Args, table: &mut Table) {
    let started = Instant::now();
    let clock = Clock(started + Duration::from_millis(args.cap));
    let a = analyse(pos, Limits::NONE, &clock);
    let ms = started.elapsed().as_millis();
    let row = table.entry(key).or_default();
    row.0 += 1;
    if a.exact {
        row.2 += 1;
        row.3.push(ms);
        if ms <= u128::from(args.within) {
            row.1 += 1;
        }
    }
    if args.verbose {
        println!("{pos}  exact={} value={:+} ms={ms}", a.exact, a.value);
    }
}

fn games(args: &Args, table: &mut Table) {
    let setup = Setup::new(Board::STANDARD, Deal::Rings, 1).expect("the standard setup");
    for g in 0..args.games {
        let seed = args.seed * 1000 + u64::from(g) * 2;
        let mut placer = Computer::new(Level::Rubbish, seed);
        let mut players = [
            Computer::new(args.level, seed),
            Computer::new(args.level, seed + 1),
        ];
        let mut pos: Position = setup.start();
        while !pos.is_over() {
            let left = pos.tiles_left();
            if left <= args.from && left >= args.to && !pos.placing() {
                measure(&pos, left, args, table);
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
}

fn placements(n: u8, args: &Args, table: &mut Table) {
    let Ok(setup) = Setup::new(Board::new(4, 4).expect("4x4"), Deal::Rings, n.into()) else {
        eprintln!("1 to 4 penguins");
        return;
    };
    let mut seen = BTreeSet::new();
    let mut frontier = vec![setup.start()];
    while let Some(pos) = frontier.pop() {
        if !pos.placing() || !seen.insert(pos.notation()) {
            continue;
        }
        for mv in pos.legal_moves() {
            if let Move::Place(_) = mv {
                frontier.push(pos.play(mv));
            }
        }
    }
    for text in seen {
        let pos = Position::parse(&text).expect("a reached position");
        let placed = u32::from(2 * n - pos.to_place(tallyho::games::fish::Side::P))
            - u32::from(pos.to_place(tallyho::games::fish::Side::A));
        measure(&pos, placed, args, table);
    }
}

fn main() {
    let args = Args::parse();
    let mut table = Table::new();
    let what = if let Some(n) = args.placements {
        placements(n, &args, &mut table);
        "placed"
    } else {
        games(&args, &mut table);
        "tiles_left"
    };
    println!(
        "{what:>10} positions in_{}ms proven median_ms max_ms",
        args.within
    );
    for (key, (n, in_time, proven, mut times)) in table.into_iter().rev() {
        times.sort_unstable();
        let median = times.get(times.len() / 2).copied().unwrap_or(0);
        let max = times.last().copied().unwrap_or(0);
        println!("{key:>10} {n:>9} {in_time:>9} {proven:>6} {median:>9} {max:>6}");
    }
}
