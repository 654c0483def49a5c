//! Computer against computer at the penguin game, without the console.
//!
//! `cargo run --release --example fish_tournament -- --a overpowered --b greedy --games 100 --seed 1`
//! prints `games=N a_wins=N b_wins=N draws=N`. The players alternate who
//! starts: in even games (counting from 0) `a` is P and places first.
//! `--think MS` is each computer move's deadline (default 1000, as in the
//! game); `--nodes N` bounds each search instead, for repeatable runs;
//! `--jobs J` plays J games at once (each game is single-threaded).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::Deadline;
use tallyho::games::fish::players::{Computer, Level};
use tallyho::games::fish::{Board, Deal, Limits, Setup, Side};
use tallyho::games::{Outcome, Rules};

#[derive(Parser)]
struct Args {
    /// The first seat's level.
    #[arg(long)]
    a: Level,
    /// The second seat's level.
    #[arg(long)]
    b: Level,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed for the players (and for random tiles).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds a computer may think per move.
    #[arg(long, default_value_t = 1000)]
    think: u64,
    /// A node budget per move instead of relying on the clock alone.
    #[arg(long)]
    nodes: Option<u64>,
    /// Board size.
    #[arg(long, default_value = "6x6")]
    board: Board,
    /// Penguins per player.
    #[arg(long, default_value_t = 1)]
    penguins: u32,
    /// `rings` or `random` (a new deal each game, from the seed).
    #[arg(long, default_value = "rings")]
    tiles: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: u32,
    /// Print each game's result as it ends.
    #[arg(long)]
    verbose: bool,
}

/// A deadline on the wall clock, as the shell builds from `--think`.
struct Clock(Instant);

impl Deadline for Clock {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// Plays game `i`; returns which seat won (0 for a, 1 for b) or `None` for a draw.
fn play(args: &Args, i: u32) -> Result<Option<usize>, String> {
    let deal = match args.tiles.as_str() {
        "rings" => Deal::Rings,
        "random" => Deal::Random {
            seed: args
                .seed
                .wrapping_mul(1_000_003)
                .wrapping_add(u64::from(i / 2)),
        },
        other => return Err(format!("\"{other}\" is neither rings nor random")),
    };
    let setup = Setup::new(args.board, deal, args.penguins).map_err(|e| e.to_string())?;
    let limits = Limits {
        nodes: args.nodes,
        depth: None,
    };
    let base = args
        .seed
        .wrapping_mul(0x9E37_79B9)
        .wrapping_add(u64::from(i) * 2);
    let mut seats = [
        Computer::new(args.a, base).with_limits(limits),
        Computer::new(args.b, base + 1).with_limits(limits),
    ];
    // Seat a plays P in even games.
    let seat_of = |side: Side| (side.index() + i as usize) % 2;
    let mut history = vec![setup.start()];
    loop {
        if let Some(outcome) = setup.outcome(&history) {
            return Ok(match outcome {
                Outcome::Win { winner, .. } => Some(seat_of(winner)),
                Outcome::Draw { .. } => None,
            });
        }
        let pos = *history.last().ok_or("empty history")?;
        let seat = seat_of(pos.to_move());
        let clock = Clock(Instant::now() + Duration::from_millis(args.think));
        let mv = seats[seat]
            .choose_move(&pos, &clock)
            .ok_or_else(|| format!("no move in {pos}"))?;
        history.push(setup.play(&pos, &mv));
    }
}

fn main() {
    let args = Args::parse();
    let next = Mutex::new(0u32);
    let tally = Mutex::new([0u32; 3]);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        if *n >= args.games {
                            return;
                        }
                        *n += 1;
                        *n - 1
                    };
                    match play(&args, i) {
                        Ok(result) => {
                            let slot = result.unwrap_or(2);
                            tally.lock().unwrap_or_else(|e| e.into_inner())[slot] += 1;
                            if args.verbose {
                                eprintln!("game {i}: {}", ["a", "b", "draw"][slot]);
                            }
                        }
                        Err(e) => {
                            eprintln!("{e}");
                            std::process::exit(2);
                        }
                    }
                }
            });
        }
    });
    let [a, b, d] = *tally.lock().unwrap_or_else(|e| e.into_inner());
    println!("games={} a_wins={a} b_wins={b} draws={d}", args.games);
}
