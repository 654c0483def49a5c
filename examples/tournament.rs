//! Computer against computer, for any game, without the console.
//!
//! ```text
//! cargo run --release --example tournament -- --game draughts --a overpowered --b cunning --games 20 --seed 1 --think 200
//! games=20 a_wins=.. b_wins=.. draws=..
//! ```
//!
//! The two levels take turns at the first side (the fox, Black, P): `a`
//! has it in even games, counting from 0. Draughts games start from
//! three-move ballot openings, each opening played twice with colours
//! reversed. `--think MS` is each move's deadline (default 1000, as in
//! the game); `--nodes N` bounds the fish search instead, for repeatable
//! runs; `--jobs J` plays J games at once. For Fox and Hounds, `--all`
//! prints every pairing of levels as `fox=.. hounds=.. games=.. fox_wins=..
//! hounds_wins=..`, the table the README quotes.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use tallyho::games::draughts;
use tallyho::games::draughts::ballot;
use tallyho::games::draughts::endgame::Endgame;
use tallyho::games::fish::{self, Deal, Limits};
use tallyho::games::fox;
use tallyho::games::{Computer, Deadline, Outcome, Rules};

#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Which {
    Fox,
    Draughts,
    Fish,
}

#[derive(Parser)]
struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "fox")]
    game: Which,
    /// The first player's level (in even games it has the first side).
    #[arg(long, default_value = "classic")]
    a: String,
    /// The second player's level.
    #[arg(long, default_value = "classic")]
    b: String,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed for the players, the openings and random tiles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds a searching computer may think per move.
    #[arg(long, default_value_t = 1000)]
    think: u64,
    /// Fish: a node budget per search, for repeatable runs.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: u32,
    /// Fox: every pairing of levels, fox against hounds.
    #[arg(long)]
    all: bool,
    /// Fox and fish: the board (default 8x8 for the fox, 6x6 for fish).
    #[arg(long)]
    board: Option<String>,
    /// Fox: the rules.
    #[arg(long, default_value = "coursework")]
    rules: fox::Rules,
    /// Fish: penguins each.
    #[arg(long, default_value_t = 1)]
    penguins: u32,
    /// Fish: `rings` or `random` (a new deal each game).
    #[arg(long, default_value = "rings")]
    tiles: String,
}

/// A deadline on the wall clock, as the shell builds from `--think`.
struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// What one game needs: the rules and the positions it starts from.
type Setup<R> = (R, Vec<<R as Rules>::Position>);

/// Plays one game between two players; `a_first` gives `a` the first side.
/// Returns 1 if `a` won, 2 if `b` won, 0 for a draw.
fn play<'p, R: Rules>(
    (rules, mut history): Setup<R>,
    a: &mut (dyn Computer<R> + 'p),
    b: &mut (dyn Computer<R> + 'p),
    a_first: bool,
    think: u64,
) -> u8 {
    let first = rules.sides()[0];
    let outcome = loop {
        if let Some(outcome) = rules.outcome(&history) {
            break outcome;
        }
        let here = history.last().expect("a game has a position").clone();
        let a_moves = (rules.to_move(&here) == first) == a_first;
        let player: &mut (dyn Computer<R> + 'p) = if a_moves { a } else { b };
        let deadline = Until(Instant::now() + Duration::from_millis(think));
        let Some(mv) = player.choose(&rules, &history, &deadline) else {
            break rules
                .outcome(&history)
                .unwrap_or(Outcome::Draw { how: "no-move" });
        };
        history.push(rules.play(&here, &mv));
    };
    match outcome.winner() {
        None => 0,
        Some(side) if (side == first) == a_first => 1,
        Some(_) => 2,
    }
}

/// Plays `games` games, `jobs` at a time, and prints the one line.
fn tournament<R, P>(
    args: &Args,
    setup: impl Fn(u32) -> Setup<R> + Sync,
    player: impl Fn(&str, u64) -> P + Sync,
) where
    R: Rules,
    P: Computer<R>,
{
    let counts = Mutex::new([0u32; 3]);
    let next = Mutex::new(0u32);
    std::thread::scope(|scope| {
        for job in 0..args.jobs.max(1) {
            let (counts, next, setup, player) = (&counts, &next, &setup, &player);
            scope.spawn(move || {
                // Each job keeps its players from game to game, as a session
                // does: a solver's table is built once.
                let seed = args
                    .seed
                    .wrapping_mul(1000)
                    .wrapping_add(u64::from(job) * 2);
                let mut a = player(&args.a, seed);
                let mut b = player(&args.b, seed + 1);
                loop {
                    let game = {
                        let mut next = next.lock().expect("not poisoned");
                        if *next >= args.games {
                            break;
                        }
                        *next += 1;
                        *next - 1
                    };
                    let result = play(setup(game), &mut a, &mut b, game % 2 == 0, args.think);
                    counts.lock().expect("not poisoned")[usize::from(result)] += 1;
                }
            });
        }
    });
    let [draws, a_wins, b_wins] = *counts.lock().expect("not poisoned");
    println!(
        "games={} a_wins={a_wins} b_wins={b_wins} draws={draws}",
        args.games
    );
}

fn level<L: std::str::FromStr<Err: std::fmt::Display>>(text: &str) -> L {
    text.parse().unwrap_or_else(|e| {
        eprintln!("tournament: {e}");
        std::process::exit(2)
    })
}

fn fox_game(args: &Args) {
    let board: fox::Board = args
        .board
        .as_deref()
        .unwrap_or("8x8")
        .parse()
        .unwrap_or_else(|e| {
            eprintln!("tournament: {e}");
            std::process::exit(2)
        });
    let setup = fox::Setup {
        board,
        rules: args.rules,
        fox_start: Some(board.default_fox_start()),
        first: fox::Side::Fox,
    };
    let start = |_| (setup, vec![Rules::start(&setup)]);
    let player = |name: &str, seed| fox::players::Computer::new(level(name), args.rules, seed);
    if !args.all {
        return tournament(args, start, player);
    }
    for &f in fox::players::Level::ALL {
        for &h in fox::players::Level::ALL {
            let mut fox_player =
                fox::players::Computer::new(f, args.rules, args.seed.wrapping_mul(2));
            let mut hound_player =
                fox::players::Computer::new(h, args.rules, args.seed.wrapping_mul(2) + 1);
            let mut fox_wins = 0;
            for game in 0..args.games {
                fox_wins +=
                    u32::from(play(start(game), &mut fox_player, &mut hound_player, true, 0) == 1);
            }
            println!(
                "fox={f} hounds={h} games={} fox_wins={fox_wins} hounds_wins={}",
                args.games,
                args.games - fox_wins
            );
        }
    }
}

fn draughts_game(args: &Args) {
    let levels = [args.a.as_str(), args.b.as_str()].map(level::<draughts::players::Level>);
    let endgame = levels
        .contains(&draughts::players::Level::Overpowered)
        .then(|| Arc::new(Endgame::build(4, draughts::Setup::STANDARD)));
    // Each opening twice, colours reversed.
    let start = |game: u32| {
        let opening = ballot::random(args.seed.wrapping_add(u64::from(game / 2)));
        (draughts::Setup::STANDARD, opening.positions())
    };
    let player = |name: &str, seed| {
        let player = draughts::players::Player::new(level(name), draughts::Setup::STANDARD, seed);
        match &endgame {
            Some(db) => player.with_endgame(Arc::clone(db)),
            None => player,
        }
    };
    tournament(args, start, player);
}

fn fish_game(args: &Args) {
    let board: fish::Board = args
        .board
        .as_deref()
        .unwrap_or("6x6")
        .parse()
        .unwrap_or_else(|e| {
            eprintln!("tournament: {e}");
            std::process::exit(2)
        });
    let random = args.tiles == "random";
    let start = |game: u32| {
        let deal = if random {
            Deal::Random {
                seed: args.seed.wrapping_add(u64::from(game / 2)),
            }
        } else {
            Deal::Rings
        };
        let setup = fish::Setup::new(board, deal, args.penguins).unwrap_or_else(|e| {
            eprintln!("tournament: {e}");
            std::process::exit(2)
        });
        (setup, vec![setup.start()])
    };
    let player = |name: &str, seed| {
        let player = fish::players::Computer::new(level(name), seed);
        match args.nodes {
            Some(n) => player.with_limits(Limits::nodes(n)),
            None => player,
        }
    };
    tournament(args, start, player);
}

fn main() {
    let args = Args::parse();
    match args.game {
        Which::Fox => fox_game(&args),
        Which::Draughts => draughts_game(&args),
        Which::Fish => fish_game(&args),
    }
}
