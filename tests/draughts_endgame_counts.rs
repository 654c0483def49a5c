//! The endgame database's counts of wins, losses and draws by material,
//! checked against data (`tests/data/draughts/endgame5.counts`, written by
//! `examples/draughts_endgame_counts.rs`) and against a second solver that
//! shares nothing with the database's but the move generator: a plain
//! fixpoint over kings-only positions kept in a hash map (a position is a
//! win if some move reaches a loss, a loss if every move reaches a win or
//! there is no move, a draw if neither ever becomes true).
//!
//! CI checks up to four pieces. The 5-piece checks are ignored by default:
//! `cargo test --release --test draughts_endgame_counts -- --ignored`
//! (the database is read from `target/endgame-db`, or built there, about two
//! minutes; the second solver takes a few minutes more).

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use tallyho::engines::draughts::store::EndgameStore;
use tallyho::games::draughts::endgame::Endgame;
use tallyho::games::draughts::{Position, Setup, Side, movegen};

type Counts = Vec<([u8; 4], [u64; 3])>;

fn data() -> Counts {
    let text = include_str!("data/draughts/endgame5.counts");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (m, c) = l.split_once(':').expect("a colon");
            let m: Vec<u8> = m.split_whitespace().map(|t| t.parse().unwrap()).collect();
            let c: Vec<u64> = c.split_whitespace().map(|t| t.parse().unwrap()).collect();
            ([m[0], m[1], m[2], m[3]], [c[0], c[1], c[2]])
        })
        .collect()
}

/// Win, loss or draw for the side to move, from the fixpoint.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Value {
    Win,
    Loss,
    Unknown,
}

/// Kings-only positions as (mover's kings, other side's kings), solved by
/// number of pieces, smallest first.
struct KingsSolver {
    values: HashMap<(u32, u32), Value>,
}

fn subsets(k: u32, avoid: u32, visit: &mut impl FnMut(u32)) {
    fn go(start: u32, k: u32, set: u32, avoid: u32, visit: &mut impl FnMut(u32)) {
        if k == 0 {
            visit(set);
            return;
        }
        for sq in start..32 {
            if avoid & (1 << sq) == 0 {
                go(sq + 1, k - 1, set | (1 << sq), avoid, visit);
            }
        }
    }
    go(0, k, 0, avoid, visit);
}

impl KingsSolver {
    fn new() -> KingsSolver {
        KingsSolver {
            values: HashMap::new(),
        }
    }

    /// Solves every kings-only position with exactly `n` pieces (those with
    /// fewer must be solved already).
    fn solve(&mut self, n: u32) {
        let mut open: Vec<(u32, u32)> = Vec::new();
        for mine in 1..n {
            subsets(mine, 0, &mut |a| {
                subsets(n - mine, a, &mut |b| open.push((a, b)));
            });
        }
        for &k in &open {
            self.values.insert(k, Value::Unknown);
        }
        loop {
            let mut changed = false;
            open.retain(|&(a, b)| {
                let pos = Position::new(a, b, a | b, Side::Black).expect("a position");
                let mut any_loss = false;
                let mut all_win = true;
                movegen::for_each_child(&pos, true, |c| {
                    let key = (c.pieces(Side::White), c.pieces(Side::Black));
                    let v = if key.0 == 0 {
                        Value::Loss
                    } else {
                        *self.values.get(&key).expect("solved before")
                    };
                    any_loss |= v == Value::Loss;
                    all_win &= v == Value::Win;
                });
                let v = if any_loss {
                    Value::Win
                } else if all_win {
                    Value::Loss
                } else {
                    return true;
                };
                self.values.insert((a, b), v);
                changed = true;
                false
            });
            if !changed {
                return;
            }
        }
    }

    /// Black's wins, losses and draws with `bk` kings against `wk`.
    fn counts(&self, bk: u32, wk: u32) -> [u64; 3] {
        let mut c = [0; 3];
        for (&(a, b), &v) in &self.values {
            if a.count_ones() == bk && b.count_ones() == wk {
                c[match v {
                    Value::Win => 0,
                    Value::Loss => 1,
                    Value::Unknown => 2,
                }] += 1;
            }
        }
        c
    }
}

fn kings_only(counts: &Counts) -> Vec<(u32, u32, [u64; 3])> {
    counts
        .iter()
        .filter(|(m, _)| m[0] == 0 && m[2] == 0)
        .map(|(m, c)| (m[1] as u32, m[3] as u32, *c))
        .collect()
}

#[test]
fn the_database_and_the_second_solver_agree_up_to_four_kings() {
    let db = Endgame::build(4, Setup::STANDARD);
    let mut solver = KingsSolver::new();
    for n in 2..=4 {
        solver.solve(n);
        let counts = db.counts(n);
        assert!(!counts.is_empty());
        for (bk, wk, c) in kings_only(&counts) {
            assert_eq!(solver.counts(bk, wk), c, "{bk} kings against {wk}");
        }
    }
    // Two kings against one win; one king against one draws unless a capture is at hand.
    let [w, l, _] = solver.counts(2, 1);
    assert!(w > 10 * l, "{w} {l}");
}

#[test]
fn the_data_file_covers_every_five_piece_material() {
    let counts = data();
    assert_eq!(counts.len(), 44);
    for (m, c) in &counts {
        assert_eq!(m.iter().map(|&n| n as u32).sum::<u32>(), 5, "{m:?}");
        assert!(c.iter().sum::<u64>() > 0, "{m:?}");
    }
    // Four kings against one always win, with Black to move.
    let four = counts.iter().find(|(m, _)| *m == [0, 4, 0, 1]).unwrap();
    assert_eq!(four.1[1] + four.1[2], 0);
}

/// The 5-piece database (read from `target/endgame-db`, or built there).
fn five() -> Endgame {
    EndgameStore::new(concat!(env!("CARGO_MANIFEST_DIR"), "/target/endgame-db"))
        .load_or_build(5, Setup::STANDARD, &mut |_, _| true)
        .expect("the 5-piece database")
}

#[test]
#[ignore = "builds the 5-piece database (minutes): run with --release --ignored"]
fn the_five_piece_database_matches_the_data() {
    assert_eq!(five().counts(5), data());
}

#[test]
#[ignore = "solves every kings-only position of up to 5 pieces (minutes): run with --release --ignored"]
fn the_second_solver_matches_the_five_king_data() {
    let mut solver = KingsSolver::new();
    for n in 2..=5 {
        solver.solve(n);
    }
    let expected = kings_only(&data());
    assert_eq!(expected.len(), 4);
    for (bk, wk, c) in expected {
        assert_eq!(solver.counts(bk, wk), c, "{bk} kings against {wk}");
    }
}
