//! The penguin game's speed targets. `cargo bench --bench fish`.
//!
//! - A computer move at the default setting (Overpowered, a 1000 ms
//!   deadline, a fresh player each time, so its table starts cold) from
//!   typical 6x6 positions: it must stay within a second. It stops when the
//!   deadline passes, so the figure is the deadline plus how late it stops.
//! - Exact solves of compact, unseparated regions with 16, 20 and 24 tiles
//!   left, from cold.
//! - `analyse` at its default 1000 ms, from cold, on positions of a game
//!   between two Overpowered players thinking 3 s a move, at 30 to 26 tiles
//!   left, and on the 4x4 starts with 1 to 3 penguins each. A position proven
//!   sooner stops sooner; one that is not takes the whole second (it says
//!   which on stderr). `examples/fish_reach.rs` measures many more.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tallyho::shell::matchplay::thinking_time;

use tallyho::games::fish::players::{Computer, Level};
use tallyho::games::fish::{Limits, Position, Search, analyse};
use tallyho::games::{Deadline, Never};

/// A deadline on the wall clock, as the shell builds from `--think`.
struct Clock(Instant);

impl Deadline for Clock {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn position(text: &str) -> Position {
    match Position::parse(text) {
        Ok(pos) => pos,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn computer_move(c: &mut Criterion) {
    let cases = [
        (
            "start",
            "111111/122221/123321/123321/122221/111111 place:1/1 next:P",
        ),
        (
            "after placement",
            "111111/122221/123321/123321/122221/111111 P:1,1 A:1,6 next:P",
        ),
        (
            "midgame",
            ".1111./122221/123.21/123.21/122221/111111 P:4,3 A:3,3 points:1+3/1+3 next:P",
        ),
    ];
    let mut group = c.benchmark_group("computer move 6x6, think 1000 ms");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(12));
    for (name, text) in cases {
        let pos = position(text);
        // The player is made and dropped outside the timing: freeing its
        // table takes some 15 ms that a game pays once, at its end.
        group.bench_function(name, |b| {
            b.iter_batched(
                || Computer::new(Level::Overpowered, 1),
                |mut player| {
                    // As the shell gives a computer its --think of 1000 ms.
                    let clock = Clock(Instant::now() + thinking_time(1000));
                    black_box(player.choose_move(black_box(&pos), &clock));
                    player
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn exact_solves(c: &mut Criterion) {
    let cases = [
        (
            "16 tiles",
            "....../.1221./.2332./.2332./.1221./...... P:2,2 A:5,5 next:P",
        ),
        (
            "20 tiles",
            "....../12221./23332./23332./12221./...... P:2,1 A:5,5 next:P",
        ),
        (
            "24 tiles",
            "....../122221/233332/233332/122221/...... P:2,1 A:5,6 next:P",
        ),
    ];
    let mut group = c.benchmark_group("exact solve 6x6");
    group.sample_size(10);
    for (name, text) in cases {
        let pos = position(text);
        group.bench_function(name, |b| {
            b.iter(|| {
                let a = Search::new().analyse(black_box(&pos), Limits::NONE, &Never);
                assert!(a.exact);
                a.value
            })
        });
    }
    group.finish();
}

fn analyse_strong_play(c: &mut Criterion) {
    let cases = [
        (
            "6x6 30 tiles",
            "11111./122221/12..21/12.3.1/122221/11111. P:5,4 A:1,2 points:1+3+2/1+3+3 next:P",
        ),
        (
            "6x6 29 tiles",
            "11111./122221/12..21/12.3.1/122.21/11111. P:5,2 A:1,2 points:1+3+2+2/1+3+3 next:A",
        ),
        (
            "6x6 28 tiles",
            "1.111./122221/12..21/12.3.1/122.21/11111. P:5,2 A:4,2 points:1+3+2+2/1+3+3+1 next:P",
        ),
        (
            "6x6 28 tiles, the issue's",
            ".111../122221/12..21/12..21/122221/.11111 P:6,2 A:6,5 points:1+3+3+1/1+3+3+1 next:P",
        ),
        (
            "6x6 27 tiles",
            "1.111./122221/12..21/12.3.1/1.2.21/11111. P:5,3 A:4,2 points:1+3+2+2+2/1+3+3+1 next:A",
        ),
        (
            "6x6 26 tiles",
            "1.111./122221/12..21/1..3.1/1.2.21/11111. P:5,3 A:2,2 points:1+3+2+2+2/1+3+3+1+2 next:P",
        ),
        (
            "4x4 start, 1 penguin",
            "1111/1221/1221/1111 place:1/1 next:P",
        ),
        (
            "4x4 start, 2 penguins",
            "1111/1221/1221/1111 place:2/2 next:P",
        ),
        (
            "4x4 start, 3 penguins",
            "1111/1221/1221/1111 place:3/3 next:P",
        ),
    ];
    let mut group = c.benchmark_group("analyse 1000 ms");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(100));
    group.measurement_time(Duration::from_secs(10));
    for (name, text) in cases {
        let pos = position(text);
        let mut proven = [0u32; 2];
        group.bench_function(name, |b| {
            b.iter(|| {
                let clock = Clock(Instant::now() + Duration::from_millis(1000));
                let a = analyse(black_box(&pos), Limits::NONE, &clock);
                proven[usize::from(a.exact)] += 1;
                a.value
            })
        });
        eprintln!(
            "{name}: proven in {} of {} runs",
            proven[1],
            proven[0] + proven[1]
        );
    }
    group.finish();
}

criterion_group!(benches, computer_move, exact_solves, analyse_strong_play);
criterion_main!(benches);
