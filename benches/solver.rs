//! The solver's speed target: everything reachable from the 8x8 start, with
//! values and both counts, in under 50 ms. `cargo bench --bench solver`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use tallyho::games::fox::solver::{Solver, analyse};
use tallyho::games::fox::{Rules, Setup};

fn solve_8x8_start(c: &mut Criterion) {
    let start = Setup::default().default_start();
    let mut group = c.benchmark_group("analyse 8x8 start");
    group.sample_size(20);
    for rules in Rules::ALL {
        group.bench_function(rules.name(), |b| {
            b.iter(|| analyse(black_box(&start), rules))
        });
    }
    group.finish();

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

criterion_group!(benches, solve_8x8_start);
criterion_main!(benches);
