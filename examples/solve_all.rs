//! Solves every supported board from its standard start under every rule set
//! and prints a table: `cargo run --release --example solve_all`. Odd widths
//! and the capture rules go to the general solver, the rest to the dense one.
//!
//! It then solves every start (each fox square, either side first) to find the
//! largest game count, which shows how close the counts come to a `u128`.

use std::time::Instant;

use tallyho::games::fox::solver::{GameCount, analyse};
use tallyho::games::fox::{Board, Position, Rules, Setup, Side};

fn main() {
    println!(
        "{:<5} {:<10} {:<6} {:>5} {:>10} {:>28} {:>10}",
        "board", "rules", "winner", "plies", "reachable", "possible games", "time"
    );
    for board in Board::all() {
        for rules in Rules::ALL {
            let start = Position::start_under(board, rules, board.default_fox_start(), Side::Fox)
                .expect("the default start is a position");
            let clock = Instant::now();
            let analysis = analyse(&start, rules);
            let time = clock.elapsed();
            println!(
                "{:<5} {:<10} {:<6} {:>5} {:>10} {:>28} {:>8.2}ms",
                board.to_string(),
                rules.name(),
                analysis.value.winner.name(),
                analysis.value.plies,
                analysis.reachable,
                analysis.possible_games,
                time.as_secs_f64() * 1000.0
            );
        }
    }

    let mut largest = (GameCount::ZERO, String::new());
    let clock = Instant::now();
    for board in Board::all() {
        for rules in Rules::ALL {
            for first in [Side::Fox, Side::Hounds] {
                let setup = Setup {
                    board,
                    rules,
                    fox_start: None,
                    first,
                };
                for fox in setup.fox_choices() {
                    let start = Position::start_under(board, rules, fox, first)
                        .expect("every top-row dark square is a start");
                    let games = analyse(&start, rules).possible_games;
                    if games > largest.0 {
                        largest = (
                            games,
                            format!("{board} {rules}, fox on {fox}, {first} first"),
                        );
                    }
                }
            }
        }
    }
    println!(
        "\nlargest count over every start: {} ({} bits, {} a u128) at {}; {:.0}ms",
        largest.0,
        largest.0.bits(),
        if largest.0.to_u128().is_some() {
            "fits"
        } else {
            "does not fit"
        },
        largest.1,
        clock.elapsed().as_secs_f64() * 1000.0
    );
}
