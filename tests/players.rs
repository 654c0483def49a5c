//! The computer players against the solved game: Overpowered never lets a won
//! position go, wins as fast as it can and resists as long as it can; and its
//! hounds beat every fox.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use proptest::prelude::*;
use tallyho::games::fox::players::{Computer, Level};
use tallyho::games::fox::solver::Solver;
use tallyho::games::fox::{Board, Game, Position, Rules, Setup, Side};

type Key = (Board, Rules);

/// One referee solver and one perfect player per board and rules, shared by all cases.
fn shared() -> &'static Mutex<HashMap<Key, (Solver, Computer)>> {
    static SHARED: OnceLock<Mutex<HashMap<Key, (Solver, Computer)>>> = OnceLock::new();
    SHARED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A position reached by random play from a board's start, not yet over.
fn reachable() -> impl Strategy<Value = (Position, Rules)> {
    let boards = proptest::sample::select(vec!["4x4", "6x6", "8x6", "6x8", "8x8"]);
    (
        boards,
        proptest::sample::select(Rules::ALL.to_vec()),
        any::<bool>(),
        proptest::collection::vec(any::<proptest::sample::Index>(), 0..60),
    )
        .prop_filter_map(
            "the game ended before the walk",
            |(board, rules, hounds_first, walk)| {
                let board: Board = board.parse().ok()?;
                let first = if hounds_first {
                    Side::Hounds
                } else {
                    Side::Fox
                };
                let setup = Setup {
                    board,
                    rules,
                    fox_start: None,
                    first,
                };
                let mut pos = setup.default_start();
                for step in walk {
                    if pos.ending(rules).is_some() {
                        return None;
                    }
                    let moves = pos.legal_moves();
                    pos = pos.play(*step.get(&moves));
                }
                pos.ending(rules).is_none().then_some((pos, rules))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn overpowered_keeps_every_win_and_plays_the_exact_best(case in reachable()) {
        let (pos, rules) = case;
        let mut shared = shared().lock().expect("not poisoned");
        let (referee, player) = shared
            .entry((pos.board(), rules))
            .or_insert_with(|| (Solver::new(pos.board(), rules), Computer::new(Level::Overpowered, rules, 1)));
        let before = referee.value(&pos);
        let mv = player.choose(&pos).expect("a game that goes on has a move");
        prop_assert!(pos.legal_moves().contains(&mv));
        let after = referee.value(&pos.play(mv));
        // Never from won to lost; and no slower win, no quicker loss.
        prop_assert_eq!(after.winner, before.winner);
        prop_assert_eq!(after.plies + 1, before.plies);
    }
}

#[test]
fn overpowered_hounds_beat_every_fox() {
    let setup = Setup::default();
    let mut hounds = Computer::new(Level::Overpowered, setup.rules, 7);
    for (i, level) in Level::ALL.into_iter().enumerate() {
        let mut fox = Computer::new(level, setup.rules, i as u64);
        for _ in 0..5 {
            let mut game = Game::new(setup.default_start(), setup.rules);
            while game.ending().is_none() {
                let pos = *game.position();
                let player = if pos.to_move() == Side::Fox {
                    &mut fox
                } else {
                    &mut hounds
                };
                assert!(game.play(player.choose(&pos).expect("a move")));
            }
            assert_eq!(
                game.ending().map(|e| e.winner()),
                Some(Side::Hounds),
                "fox {level}"
            );
        }
    }
}
