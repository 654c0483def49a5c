//! The solver proved against a plain, slow reference (memoised minimax over a
//! hash map, written here from the rules alone) on every position of small
//! boards, odd widths and the capture rules included, by hand on a few
//! positions, and by the invariant that a value agrees with its children's values.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use tallyho::games::fox::solver::{Analysis, GameCount, Solver, Value, analyse};
use tallyho::games::fox::{Board, Move, Position, Rules, Setup, Side, squares};

/// Memoised minimax straight from the semantics, one rule set.
struct Reference {
    rules: Rules,
    memo: HashMap<Position, (Value, u128)>,
}

impl Reference {
    fn new(rules: Rules) -> Reference {
        Reference {
            rules,
            memo: HashMap::new(),
        }
    }

    /// The value and the number of complete games from `pos`.
    fn solve(&mut self, pos: &Position) -> (Value, u128) {
        if let Some(&known) = self.memo.get(pos) {
            return known;
        }
        let solved = match pos.ending(self.rules) {
            Some(ending) => (
                Value {
                    winner: ending.winner(),
                    plies: 0,
                },
                1,
            ),
            None => {
                let side = pos.to_move();
                let children: Vec<(Value, u128)> = pos
                    .legal_moves()
                    .iter()
                    .map(|&mv| self.solve(&pos.play(mv)))
                    .collect();
                let games = children.iter().map(|c| c.1).sum();
                let wins = children
                    .iter()
                    .filter(|c| c.0.winner == side)
                    .map(|c| c.0.plies);
                let value = match wins.min() {
                    Some(quickest) => Value {
                        winner: side,
                        plies: quickest + 1,
                    },
                    None => Value {
                        winner: side.other(),
                        plies: children.iter().map(|c| c.0.plies).max().unwrap() + 1,
                    },
                };
                (value, games)
            }
        };
        self.memo.insert(*pos, solved);
        solved
    }

    /// Every move achieving the value, worked out from the children again.
    fn best(&mut self, pos: &Position) -> Vec<Move> {
        if pos.ending(self.rules).is_some() {
            return Vec::new();
        }
        let side = pos.to_move();
        let moves = pos.legal_moves().to_vec();
        let values: Vec<Value> = moves
            .iter()
            .map(|&mv| self.solve(&pos.play(mv)).0)
            .collect();
        let wins = values
            .iter()
            .filter(|v| v.winner == side)
            .map(|v| v.plies)
            .min();
        let target = match wins {
            Some(quickest) => Value {
                winner: side,
                plies: quickest,
            },
            None => Value {
                winner: side.other(),
                plies: values.iter().map(|v| v.plies).max().unwrap(),
            },
        };
        moves
            .into_iter()
            .zip(values)
            .filter(|&(_, v)| v == target)
            .map(|(mv, _)| mv)
            .collect()
    }

    /// Distinct positions reachable from `pos`, itself included, not going past an ending.
    fn reachable(&self, pos: &Position) -> u64 {
        let mut seen = HashSet::from([*pos]);
        let mut stack = vec![*pos];
        while let Some(p) = stack.pop() {
            if p.ending(self.rules).is_some() {
                continue;
            }
            for &mv in p.legal_moves().iter() {
                let child = p.play(mv);
                if seen.insert(child) {
                    stack.push(child);
                }
            }
        }
        seen.len() as u64
    }

    fn analysis(&mut self, pos: &Position) -> Analysis {
        let (value, games) = self.solve(pos);
        Analysis {
            value,
            best: self.best(pos),
            reachable: self.reachable(pos),
            possible_games: GameCount::from(games),
        }
    }
}

/// Every legal placement of a board with either side to move, reachable or
/// not, without captures: the fox and every hound.
fn every_position(board: Board) -> Vec<Position> {
    let dark: Vec<_> = squares(board.dark_mask()).collect();
    let mut out = Vec::new();
    for &fox in &dark {
        for set in hound_sets(board, board.hound_count()) {
            if set.contains(&fox) {
                continue;
            }
            for side in [Side::Fox, Side::Hounds] {
                out.push(Position::new(board, fox, set.iter().copied(), side).unwrap());
            }
        }
    }
    out
}

/// Every position of a board under the capture rules: any number of hounds
/// up to the start's, the fox on any other dark square or taken, either side to move.
fn every_capture_position(board: Board) -> Vec<Position> {
    let dark: Vec<_> = squares(board.dark_mask()).collect();
    let mut out = Vec::new();
    for k in 0..=board.hound_count() {
        for set in hound_sets(board, k) {
            let foxes = dark.iter().map(|&sq| Some(sq)).chain([None]);
            for fox in foxes.filter(|fox| fox.is_none_or(|sq| !set.contains(&sq))) {
                for side in [Side::Fox, Side::Hounds] {
                    // A taken fox needs a hound to have taken it.
                    if let Ok(p) =
                        Position::new_under(board, Rules::Capture, fox, set.iter().copied(), side)
                    {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Every set of `k` dark squares, each in square order.
fn hound_sets(board: Board, k: usize) -> Vec<Vec<tallyho::games::fox::Square>> {
    let dark: Vec<_> = squares(board.dark_mask()).collect();
    let mut sets: Vec<Vec<_>> = vec![Vec::new()];
    for _ in 0..k {
        sets = sets
            .into_iter()
            .flat_map(|set| {
                let after = set
                    .last()
                    .map_or(0, |&last| dark.iter().position(|&d| d == last).unwrap() + 1);
                dark[after..]
                    .iter()
                    .map(move |&d| [set.clone(), vec![d]].concat())
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    sets
}

/// Every start under `rules`: each fox square, either side first.
fn every_start(board: Board, rules: Rules) -> Vec<Position> {
    let mut out = Vec::new();
    for first in [Side::Fox, Side::Hounds] {
        let setup = Setup {
            board,
            rules,
            fox_start: None,
            first,
        };
        for fox in setup.fox_choices() {
            out.push(Position::start_under(board, rules, fox, first).unwrap());
        }
    }
    out
}

/// The same placement as a position of `rules`: with captures under the capture rules.
fn under(p: &Position, rules: Rules) -> Position {
    p.under(rules).unwrap()
}

fn pos(text: &str) -> Position {
    Position::parse(text, Board::STANDARD).unwrap()
}

fn value(winner: Side, plies: u32) -> Value {
    Value { winner, plies }
}

#[test]
fn hand_checked_positions() {
    for rules in Rules::ALL {
        let trapped = pos("A4/B3,B5,F1,H1/fox");
        let a = analyse(&trapped, rules);
        assert_eq!(a.value, value(Side::Hounds, 0), "{rules}");
        assert_eq!(
            (a.best.len(), a.reachable, a.possible_games),
            (0, 1, GameCount::ONE)
        );

        let stuck = pos("A2/A8,C8,E8,G8/hounds");
        let a = analyse(&stuck, rules);
        assert_eq!(a.value, value(Side::Fox, 0), "{rules}");
        assert_eq!(
            (a.best.len(), a.reachable, a.possible_games),
            (0, 1, GameCount::ONE)
        );
    }

    // One step from row 1, hounds far behind: under standard rules either
    // step down wins at once; the early-win rules have already ended it.
    let near = pos("C2/B5,D5,F5,H5/fox");
    let a = analyse(&near, Rules::Standard);
    assert_eq!(a.value, value(Side::Fox, 1));
    let best: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["C2-B1", "C2-D1"]);
    assert_eq!(analyse(&near, Rules::Coursework).value, value(Side::Fox, 0));

    // The fox boxed into a corner, hounds to move: every hound move but the
    // one that lets it out leaves it trapped, so the hounds win in 1.
    let corner = pos("A8/B7,H1,F1,D1/hounds");
    let a = analyse(&corner, Rules::Standard);
    assert_eq!(a.value, value(Side::Hounds, 1));
    let best: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["D1-C2", "D1-E2", "F1-E2", "F1-G2", "H1-G2"]);
}

#[test]
fn every_4x4_position_matches_the_reference_in_full() {
    let board = Board::new(4, 4).unwrap();
    let positions = every_position(board);
    assert_eq!(positions.len(), 8 * 21 * 2);
    let mut compared = 0;
    for rules in Rules::ALL {
        let mut reference = Reference::new(rules);
        let mut solver = Solver::new(board, rules);
        for p in positions.iter().map(|p| under(p, rules)) {
            let expected = reference.analysis(&p);
            assert_eq!(analyse(&p, rules), expected, "{p} {rules}");
            assert_eq!(solver.value(&p), expected.value, "{p} {rules}");
            assert_eq!(solver.best_moves(&p), expected.best, "{p} {rules}");
            compared += 1;
        }
    }
    assert_eq!(compared, 4 * 336);
}

#[test]
fn every_6x6_position_matches_the_reference() {
    let board = Board::new(6, 6).unwrap();
    let positions = every_position(board);
    assert_eq!(positions.len(), 18 * 680 * 2);
    let (mut valued, mut counted, mut nontrivial) = (0, 0, 0);
    for rules in Rules::ALL {
        let mut reference = Reference::new(rules);
        let mut solver = Solver::new(board, rules);
        for (i, p) in positions.iter().map(|p| under(p, rules)).enumerate() {
            let p = &p;
            let (value, _) = reference.solve(p);
            assert_eq!(solver.value(p), value, "{p} {rules}");
            assert_eq!(solver.best_moves(p), reference.best(p), "{p} {rules}");
            valued += 1;
            // Full analyses, counts included, for a spread sample: a full
            // search per position would be slow in a debug build.
            if i % 97 == 0 {
                let expected = reference.analysis(p);
                assert_eq!(analyse(p, rules), expected, "{p} {rules}");
                counted += 1;
                nontrivial += usize::from(expected.reachable > 100);
            }
        }
        for p in &every_start(board, rules) {
            assert_eq!(analyse(p, rules), reference.analysis(p), "{p} {rules}");
            counted += 1;
        }
    }
    assert_eq!(valued, 4 * 24480);
    assert!(counted > 4 * 250, "{counted}");
    assert!(nontrivial > 100, "{nontrivial}");
}

#[test]
fn start_figures_stay_put() {
    // From `cargo run --release --example solve_all`; the 6x6 ones are also
    // checked against the reference above.
    let start = Setup::default().default_start();
    let a = analyse(&start, Rules::Coursework);
    assert_eq!(a.value, value(Side::Hounds, 44));
    assert_eq!(a.reachable, 698_723);
    assert_eq!(
        a.possible_games.to_string(),
        "123592426482023212066309801156"
    );
    let best: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["A8-B7"]);
}

/// Checks that the value of `p` follows from its children's values, and that
/// the best moves are exactly the children keeping it.
fn check_consistent(solver: &mut Solver, p: &Position, rules: Rules) {
    let v = solver.value(p);
    let best = solver.best_moves(p);
    match p.ending(rules) {
        Some(ending) => {
            assert_eq!(v, value(ending.winner(), 0), "{p}");
            assert!(best.is_empty());
        }
        None => {
            let side = p.to_move();
            let children: Vec<(Move, Value)> = p
                .legal_moves()
                .iter()
                .map(|&mv| (mv, solver.value(&p.play(mv))))
                .collect();
            assert!(!children.is_empty());
            let quickest = children
                .iter()
                .filter(|c| c.1.winner == side)
                .map(|c| c.1.plies)
                .min();
            let expected = match quickest {
                Some(q) => value(side, q + 1),
                None => value(
                    side.other(),
                    children.iter().map(|c| c.1.plies).max().unwrap() + 1,
                ),
            };
            assert_eq!(v, expected, "{p}");
            let keeping: Vec<Move> = children
                .iter()
                .filter(|c| c.1 == value(v.winner, v.plies - 1))
                .map(|c| c.0)
                .collect();
            assert_eq!(best, keeping, "{p}");
            assert!(!best.is_empty());
        }
    }
}

#[test]
fn every_6x8_value_agrees_with_its_children() {
    let board = Board::new(6, 8).unwrap();
    let mut checked = 0;
    for rules in Rules::ALL {
        let mut solver = Solver::new(board, rules);
        for p in every_position(board).iter().step_by(3) {
            check_consistent(&mut solver, &under(p, rules), rules);
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn random_8x8_games_agree_with_their_children() {
    let solvers: Vec<RefCell<Solver>> = Rules::ALL
        .iter()
        .map(|&r| RefCell::new(Solver::new(Board::STANDARD, r)))
        .collect();
    let visited = RefCell::new(0usize);
    let strategy = (
        0..Rules::ALL.len(),
        0..4usize,
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 60),
    );
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    runner
        .run(&strategy, |(r, fox, hounds_first, choices)| {
            let rules = Rules::ALL[r];
            let first = if hounds_first {
                Side::Hounds
            } else {
                Side::Fox
            };
            let setup = Setup {
                board: Board::STANDARD,
                rules,
                fox_start: None,
                first,
            };
            let mut p =
                Position::start_under(setup.board, rules, setup.fox_choices()[fox], first).unwrap();
            let mut solver = solvers[r].borrow_mut();
            for choice in choices {
                check_consistent(&mut solver, &p, rules);
                *visited.borrow_mut() += 1;
                if p.ending(rules).is_some() {
                    break;
                }
                let moves = p.legal_moves();
                p = p.play(moves[choice as usize % moves.len()]);
            }
            prop_assert!(p.ending(rules).is_some(), "a game lasts under 60 plies");
            Ok(())
        })
        .unwrap();
    assert!(*visited.borrow() > 64 * 10, "{}", visited.borrow());
}

#[test]
fn counts_on_6x6_add_up_over_the_children() {
    let board = Board::new(6, 6).unwrap();
    let mut checked = 0;
    for rules in Rules::ALL {
        for p in every_position(board).iter().step_by(89) {
            let p = &under(p, rules);
            let whole = analyse(p, rules);
            if p.ending(rules).is_some() {
                assert_eq!((whole.reachable, whole.possible_games), (1, GameCount::ONE));
                continue;
            }
            let children: Vec<Analysis> = p
                .legal_moves()
                .iter()
                .map(|&mv| analyse(&p.play(mv), rules))
                .collect();
            let sum = children.iter().fold(GameCount::ZERO, |s, c| {
                s.checked_add(c.possible_games).unwrap()
            });
            assert_eq!(whole.possible_games, sum, "{p} {rules}");
            let most = children.iter().map(|c| c.reachable).max().unwrap();
            let total: u64 = children.iter().map(|c| c.reachable).sum();
            assert!(
                whole.reachable > most && whole.reachable <= total + 1,
                "{p} {rules}"
            );
            checked += 1;
        }
    }
    assert!(checked > 4 * 150, "{checked}");
}

#[test]
fn every_small_capture_position_matches_the_reference_in_full() {
    // Even and odd widths; every hound count and the taken fox; counts too.
    let mut compared = 0;
    for board in ["4x4", "5x4", "4x5", "5x5"] {
        let board: Board = board.parse().unwrap();
        let rules = Rules::Capture;
        let mut reference = Reference::new(rules);
        let mut solver = Solver::new(board, rules);
        for p in &every_capture_position(board) {
            let expected = reference.analysis(p);
            assert_eq!(analyse(p, rules), expected, "{board} {p}");
            assert_eq!(solver.value(p), expected.value, "{board} {p}");
            assert_eq!(solver.best_moves(p), expected.best, "{board} {p}");
            compared += 1;
        }
    }
    assert!(compared > 4000, "{compared}");
}

#[test]
fn odd_widths_match_the_reference_under_every_rule_set() {
    for board in ["5x5", "7x4", "5x6"] {
        let board: Board = board.parse().unwrap();
        for rules in Rules::ALL {
            let mut reference = Reference::new(rules);
            let mut solver = Solver::new(board, rules);
            let positions: Vec<Position> = if rules.captures() {
                every_capture_position(board)
            } else {
                every_position(board)
            };
            for (i, p) in positions.iter().enumerate().step_by(3) {
                let (value, _) = reference.solve(p);
                assert_eq!(solver.value(p), value, "{board} {p} {rules}");
                assert_eq!(
                    solver.best_moves(p),
                    reference.best(p),
                    "{board} {p} {rules}"
                );
                if i % 61 == 0 {
                    assert_eq!(
                        analyse(p, rules),
                        reference.analysis(p),
                        "{board} {p} {rules}"
                    );
                }
            }
            for p in &every_start(board, rules) {
                assert_eq!(
                    analyse(p, rules),
                    reference.analysis(p),
                    "{board} {p} {rules}"
                );
            }
        }
    }
}

#[test]
fn the_python_projects_start_is_a_hounds_win_in_14() {
    // 7 columns by 8 rows, A1 dark, the fox on D8 moving first: measured
    // before this solver existed, and reproduced by `examples/solve_all.rs`.
    let board: Board = "7x8".parse().unwrap();
    let start = Position::parse_under("D8/A1,C1,E1,G1/fox", board, Rules::Capture).unwrap();
    assert_eq!(board.default_fox_start(), start.fox().unwrap());
    let a = analyse(&start, Rules::Capture);
    assert_eq!(a.value, value(Side::Hounds, 14));
    let best: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["D8-C7", "D8-E7"]);
    assert_eq!(a.reachable, 630_647);
    assert_eq!(
        a.possible_games.to_string(),
        "41970504397722976235502608576256"
    );
    let mut solver = Solver::new(board, Rules::Capture);
    assert_eq!(solver.value(&start), a.value);
    assert_eq!(solver.best_moves(&start), a.best);
}

#[test]
fn hand_checked_capture_positions() {
    let board: Board = "7x8".parse().unwrap();
    let p = |t: &str| Position::parse_under(t, board, Rules::Capture).unwrap();
    let a = |t: &str| analyse(&p(t), Rules::Capture);
    // A hound next to the fox, hounds to move: it takes the fox.
    let take = a("D4/C3,A1,E1,G1/hounds");
    assert_eq!(take.value, value(Side::Hounds, 1));
    let best: Vec<String> = take.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["C3-D4"]);
    // The fox eats an unguarded hound on row 1 and is home.
    let home = a("D2/C1,A5,E5,G5/fox");
    assert_eq!(home.value, value(Side::Fox, 1));
    let best: Vec<String> = home.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(best, ["D2-C1", "D2-E1"]);
    // Taken, boxed in, or no hounds left to move: over at once.
    for (t, winner) in [
        ("x/D4,A1,E1/fox", Side::Hounds),
        ("B8/A7,C7/fox", Side::Hounds),
        ("D4//hounds", Side::Fox),
    ] {
        let over = a(t);
        assert_eq!(over.value, value(winner, 0), "{t}");
        assert_eq!(
            (over.reachable, over.possible_games),
            (1, GameCount::ONE),
            "{t}"
        );
    }
}
