//! Computer against computer at draughts, from three-move ballot openings,
//! colours alternating each game (each opening is played twice, once from
//! each side).
//!
//! `cargo run --release --example draughts_tournament -- --a cunning --b greedy --games 100 --seed 1 [--think 100]`
//!
//! prints `games=N a_wins=N b_wins=N draws=N`. Both players of an
//! overpowered pairing share one endgame database, built before the first game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use tallyho::games::Rules;
use tallyho::games::draughts::endgame::Endgame;
use tallyho::games::draughts::players::{Level, Player};
use tallyho::games::draughts::{Draughts, Side, ballot};
use tallyho::games::{Deadline, Outcome};

#[derive(Parser)]
struct Args {
    /// Player A's level.
    #[arg(long)]
    a: Level,
    /// Player B's level.
    #[arg(long)]
    b: Level,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed for the openings and the players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Thinking time per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think: u64,
    /// Print each game's opening, result and last position.
    #[arg(long)]
    verbose: bool,
    /// Play only game K of the series (1-based), to look at it again.
    #[arg(long)]
    only: Option<u32>,
}

struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let args = Args::parse();
    let rules = Draughts::STANDARD;
    let db = [args.a, args.b]
        .contains(&Level::Overpowered)
        .then(|| Arc::new(Endgame::build(4, rules)));
    let make = |level, seed| {
        let p = Player::new(level, rules, seed);
        match &db {
            Some(db) => p.with_endgame(db.clone()),
            None => p,
        }
    };
    let mut a = make(args.a, args.seed.wrapping_mul(2));
    let mut b = make(args.b, args.seed.wrapping_mul(2) + 1);
    let (mut a_wins, mut b_wins, mut draws) = (0, 0, 0);
    let mut opening = ballot::random(args.seed);
    for game in 0..args.games {
        if game % 2 == 0 {
            opening = ballot::random(args.seed.wrapping_add(game as u64));
        }
        if args.only.is_some_and(|k| k != game + 1) {
            continue;
        }
        // A is Black in even games, White in odd ones.
        let a_side = if game % 2 == 0 {
            Side::Black
        } else {
            Side::White
        };
        let mut history = opening.positions();
        let outcome = loop {
            if let Some(o) = rules.outcome(&history) {
                break o;
            }
            let here = *history.last().expect("a game has a position");
            let player = if here.to_move() == a_side {
                &mut a
            } else {
                &mut b
            };
            let deadline = Until(Instant::now() + Duration::from_millis(args.think));
            let mv = player
                .choose_move(&rules, &history, &deadline)
                .expect("a game that goes on has a move");
            history.push(rules.play(&here, &mv));
        };
        let result = match outcome {
            Outcome::Win { winner, .. } if winner == a_side => {
                a_wins += 1;
                "a"
            }
            Outcome::Win { .. } => {
                b_wins += 1;
                "b"
            }
            Outcome::Draw { .. } => {
                draws += 1;
                "draw"
            }
        };
        if args.verbose {
            let end = history.last().expect("a game has a position");
            eprintln!(
                "game {} {opening} a={a_side} {result} ({}, {} plies) end {}",
                game + 1,
                outcome.how(),
                history.len() - 1,
                rules.notation(end)
            );
        }
    }
    println!(
        "games={} a_wins={a_wins} b_wins={b_wins} draws={draws}",
        args.games
    );
}
