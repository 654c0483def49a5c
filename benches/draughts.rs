//! Draughts speed: perft (the generator, plain and with its table), the
//! engine at fixed depths, and the endgame database's build.
//! `cargo bench --bench draughts`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tallyho::games::Never;
use tallyho::games::draughts::endgame::Endgame;
use tallyho::games::draughts::search::{Engine, Limits};
use tallyho::games::draughts::{Perft, Position, Setup, fen};

fn perft(c: &mut Criterion) {
    let rules = Setup::STANDARD;
    let mut group = c.benchmark_group("draughts perft");
    group.sample_size(10);
    // 18,391,564 leaves: the throughput line reads as leaves a second.
    group.throughput(Throughput::Elements(18_391_564));
    group.bench_function("plain perft(10) from the start", |b| {
        b.iter(|| Perft::new(rules).count(black_box(&Position::START), 10))
    });
    group.throughput(Throughput::Elements(388_623_673));
    group.bench_function("perft(12) from the start with a 16 MB table", |b| {
        b.iter(|| Perft::with_table(rules, 19).count(black_box(&Position::START), 12))
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    let rules = Setup::STANDARD;
    let middle = fen::parse("B:W14,19,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,12,13,15")
        .expect("a legal position");
    let mut group = c.benchmark_group("draughts search");
    group.sample_size(10);
    for (name, pos, depth) in [("start", Position::START, 12), ("middle game", middle, 12)] {
        // Nodes per iteration are fixed for a fresh engine, so the elements
        // line reads as nodes a second.
        let mut probe = Engine::new(rules, 20);
        let limits = Limits {
            max_depth: depth,
            use_endgame: false,
        };
        let nodes = probe.search(&[pos], limits, &Never).nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name} to depth {depth}"), |b| {
            b.iter(|| {
                let mut e = Engine::new(rules, 20);
                e.search(black_box(&[pos]), limits, &Never)
            })
        });
    }
    group.finish();
}

fn endgame(c: &mut Criterion) {
    let rules = Setup::STANDARD;
    let mut group = c.benchmark_group("draughts endgame database");
    group.sample_size(10);
    group.bench_function("build, three pieces", |b| {
        b.iter(|| Endgame::build(black_box(3), rules))
    });
    group.bench_function("build, four pieces", |b| {
        b.iter(|| Endgame::build(black_box(4), rules))
    });
    group.finish();
}

criterion_group!(benches, perft, search, endgame);
criterion_main!(benches);
