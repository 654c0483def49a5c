//! The solver's speed target: everything reachable from the 8x8 start, with
//! values and both counts, in under 50 ms for the coursework's rule sets.
//! The capture rules and odd widths go to the general solver, measured on
//! 8x8 and on the Python project's 7x8. `cargo bench --bench solver`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use tallyho::games::fox::solver::{Solver, analyse};
use tallyho::games::fox::{Board, Position, Rules, Setup, Side};

/// The start of `board` under `rules`, with its own moves.
fn start(board: Board, rules: Rules) -> Position {
    Position::start_under(board, rules, board.default_fox_start(), Side::Fox)
        .expect("the default start is a position")
}

fn solve_8x8_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("analyse 8x8 start");
    group.sample_size(20);
    for rules in Rules::ALL {
        let start = start(Board::STANDARD, rules);
        group.bench_function(rules.name(), |b| {
            b.iter(|| analyse(black_box(&start), rules))
        });
    }
    group.finish();

    let start = Setup::default().default_start();
    let mut group = c.benchmark_group("solver 8x8 start");
    group.sample_size(20);
    group.bench_function("first value, coursework", |b| {
        b.iter(|| Solver::new(start.board(), Rules::Coursework).value(black_box(&start)))
    });
    let mut solver = Solver::new(start.board(), Rules::Coursework);
    solver.value(&start);
    group.bench_function("later best moves, coursework", |b| {
        b.iter(|| solver.best_moves(black_box(&start)))
    });
    group.finish();
}

fn solve_7x8_capture(c: &mut Criterion) {
    let board: Board = "7x8".parse().expect("a supported board");
    let start = start(board, Rules::Capture);
    let mut group = c.benchmark_group("7x8 capture start");
    group.sample_size(20);
    group.bench_function("analyse", |b| {
        b.iter(|| analyse(black_box(&start), Rules::Capture))
    });
    group.bench_function("first value", |b| {
        b.iter(|| Solver::new(board, Rules::Capture).value(black_box(&start)))
    });
    let mut solver = Solver::new(board, Rules::Capture);
    solver.value(&start);
    group.bench_function("later best moves", |b| {
        b.iter(|| solver.best_moves(black_box(&start)))
    });
    group.finish();
}

criterion_group!(benches, solve_8x8_start, solve_7x8_capture);
criterion_main!(benches);
