//! Computer against computer, without the console.
//!
//! `cargo run --release --example tournament -- --fox cunning --hounds classic --games 1000 --seed 1`
//! prints `fox=cunning hounds=classic games=1000 fox_wins=A hounds_wins=B`;
//! `--all` plays every pairing of levels. `--board 7x8 --rules capture` plays
//! the Python project's game (the fox starts on D8, the default there).

use clap::Parser;
use tallyho::games::fox::players::{Computer, Level};
use tallyho::games::fox::{Board, Game, Position, Rules, Side};

#[derive(Parser)]
struct Args {
    /// The fox's level.
    #[arg(long, default_value = "classic")]
    fox: Level,
    /// The hounds' level.
    #[arg(long, default_value = "classic")]
    hounds: Level,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed for every game's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play every pairing of levels.
    #[arg(long)]
    all: bool,
    /// Board size.
    #[arg(long, default_value = "8x8")]
    board: Board,
    /// Ending rules.
    #[arg(long, default_value = "coursework")]
    rules: Rules,
}

/// Plays `games` games and counts the fox's and the hounds' wins.
fn pairing(args: &Args, fox: Level, hounds: Level) -> (u32, u32) {
    // Under the rules' own moves: with captures under the capture rules.
    let start = Position::start_under(
        args.board,
        args.rules,
        args.board.default_fox_start(),
        Side::Fox,
    )
    .expect("the default start is a position");
    // One player per side for the whole pairing, as in a session: the perfect
    // player's solved table is reused from game to game.
    let mut fox_player = Computer::new(fox, args.rules, args.seed.wrapping_mul(2));
    let mut hound_player = Computer::new(hounds, args.rules, args.seed.wrapping_mul(2) + 1);
    let (mut fox_wins, mut hound_wins) = (0, 0);
    for _ in 0..args.games {
        let mut game = Game::new(start, args.rules);
        let ending = loop {
            if let Some(ending) = game.ending() {
                break ending;
            }
            let pos = *game.position();
            let player = match pos.to_move() {
                Side::Fox => &mut fox_player,
                Side::Hounds => &mut hound_player,
            };
            let mv = player.choose(&pos).expect("a game that goes on has a move");
            game.play(mv);
        };
        match ending.winner() {
            Side::Fox => fox_wins += 1,
            Side::Hounds => hound_wins += 1,
        }
    }
    (fox_wins, hound_wins)
}

fn main() {
    let args = Args::parse();
    let pairs: Vec<(Level, Level)> = if args.all {
        Level::ALL
            .iter()
            .flat_map(|&f| Level::ALL.iter().map(move |&h| (f, h)))
            .collect()
    } else {
        vec![(args.fox, args.hounds)]
    };
    for (fox, hounds) in pairs {
        let (fox_wins, hound_wins) = pairing(&args, fox, hounds);
        println!(
            "fox={fox} hounds={hounds} games={} fox_wins={fox_wins} hounds_wins={hound_wins}",
            args.games
        );
    }
}
