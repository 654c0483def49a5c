//! The computer players against the solved game: Overpowered never lets a won
//! position go, wins as fast as it can and resists as long as it can; and its
//! hounds beat every fox, under the capture rules on the Python project's board too.

mod common;
use common::Played;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use proptest::prelude::*;
use tallyho::games::fox::players::{Computer, Level, cunning};
use tallyho::games::fox::solver::Solver;
use tallyho::games::fox::{Board, Position, Rules, Setup, Side};

type Key = (Board, Rules);

/// One referee solver and one perfect player per board and rules, shared by all cases.
fn shared() -> &'static Mutex<HashMap<Key, (Solver, Computer)>> {
    static SHARED: OnceLock<Mutex<HashMap<Key, (Solver, Computer)>>> = OnceLock::new();
    SHARED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A position reached by random play from a board's start, not yet over.
fn reachable() -> impl Strategy<Value = (Position, Rules)> {
    let boards = proptest::sample::select(vec!["4x4", "6x6", "8x6", "6x8", "8x8", "5x5", "7x8"]);
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
                let mut pos =
                    Position::start_under(board, rules, board.default_fox_start(), first).ok()?;
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
    for (i, &level) in Level::ALL.iter().enumerate() {
        let mut fox = Computer::new(level, setup.rules, i as u64);
        for _ in 0..5 {
            let mut game = Played::new(setup.default_start(), setup.rules);
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

/// Plays one game between two computers from `start`; the winner.
fn play_out(start: Position, rules: Rules, fox: &mut Computer, hounds: &mut Computer) -> Side {
    let mut game = Played::new(start, rules);
    while game.ending().is_none() {
        let pos = *game.position();
        let player = if pos.to_move() == Side::Fox {
            &mut *fox
        } else {
            &mut *hounds
        };
        let mv = player.choose(&pos).expect("a game that goes on has a move");
        assert!(game.play(mv), "{pos}: {mv} is legal");
    }
    game.ending().expect("over").winner()
}

#[test]
fn every_level_plays_capture_games_on_odd_and_even_boards() {
    for board in ["7x8", "5x5", "6x6"] {
        let board: Board = board.parse().unwrap();
        let start =
            Position::start_under(board, Rules::Capture, board.default_fox_start(), Side::Fox)
                .unwrap();
        for &fox_level in Level::ALL {
            for &hounds_level in Level::ALL {
                let mut fox = Computer::new(fox_level, Rules::Capture, 3);
                let mut hounds = Computer::new(hounds_level, Rules::Capture, 4);
                for _ in 0..2 {
                    let winner = play_out(start, Rules::Capture, &mut fox, &mut hounds);
                    if hounds_level == Level::Overpowered {
                        // The hounds win every start here with best play.
                        assert_eq!(winner, Side::Hounds, "{board} fox {fox_level}");
                    }
                }
            }
        }
    }
}

#[test]
fn cunning_and_classic_understand_captures() {
    let board: Board = "7x8".parse().unwrap();
    let p = |t: &str| Position::parse_under(t, board, Rules::Capture).unwrap();
    let names = |moves: Vec<tallyho::games::fox::Move>| -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    };
    // A hound next to the fox takes it.
    let take = p("D4/C3,A1,E1,G1/hounds");
    assert_eq!(names(cunning(&take, Rules::Capture)), ["C3-D4"]);
    assert_eq!(
        names(tallyho::games::fox::players::classic_hounds(&take)),
        ["C3-D4"]
    );
    // The fox eats a hound nothing guards, and leaves one that is guarded.
    let meal = p("D4/C3,A5,E5,G5/fox");
    assert_eq!(names(cunning(&meal, Rules::Capture)), ["D4-C3"]);
    let guarded = p("D6/C5,B4,A1,G1/fox");
    assert!(!names(cunning(&guarded, Rules::Capture)).contains(&"D6-C5".to_string()));
    // Classic hounds do not step where the fox eats them for nothing.
    let wait = p("E5/C3/hounds");
    assert_eq!(
        names(tallyho::games::fox::players::classic_hounds(&wait)),
        ["C3-B4"]
    );
    // The classic fox prefers a square no hound can take it on.
    // Left first it would step to C3, where B2 takes it; it eats E3 instead.
    let fox = p("D4/B2,E3,G1/fox");
    for right_first in [true, false] {
        let mv = tallyho::games::fox::players::classic_fox(&fox, right_first).unwrap();
        assert_eq!(mv.to_string(), "D4-E3");
    }
}
