//! Property tests of the rules: the move generator against a brute-force one,
//! hounds never stepping back, every game ending within the bound the
//! forward-only hounds impose, and the capture rules' own properties.

mod common;
use common::Played;

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::subsequence;
use tallyho::games::fox::{Board, Ending, Position, Rules, Setup, Side, Square};

/// Any supported board.
fn boards() -> impl Strategy<Value = Board> {
    proptest::sample::select(Board::all().collect::<Vec<_>>())
}

/// Any placement of the fox and the hounds on dark squares of a board, either side to move.
fn positions() -> impl Strategy<Value = Position> {
    boards().prop_flat_map(|board| {
        let dark: Vec<Square> = tallyho::games::fox::squares(board.dark_mask()).collect();
        let n = board.hound_count() + 1;
        (subsequence(dark, n).prop_shuffle(), any::<bool>()).prop_map(move |(squares, fox)| {
            let side = if fox { Side::Fox } else { Side::Hounds };
            Position::new(board, squares[0], squares[1..].iter().copied(), side)
                .expect("distinct dark squares make a position")
        })
    })
}

/// Any position of the capture rules: up to the start's hounds, the fox on
/// the board or taken, either side to move.
fn capture_positions() -> impl Strategy<Value = Position> {
    boards().prop_flat_map(|board| {
        let dark: Vec<Square> = tallyho::games::fox::squares(board.dark_mask()).collect();
        (0..=board.hound_count()).prop_flat_map(move |k| {
            (
                subsequence(dark.clone(), k + 1).prop_shuffle(),
                any::<bool>(),
                proptest::bool::weighted(0.1),
            )
                .prop_filter_map(
                    "a taken fox needs its taker",
                    move |(squares, fox, taken)| {
                        let side = if fox { Side::Fox } else { Side::Hounds };
                        let fox = (!taken).then_some(squares[0]);
                        Position::new_under(
                            board,
                            Rules::Capture,
                            fox,
                            squares[1..].iter().copied(),
                            side,
                        )
                        .ok()
                    },
                )
        })
    })
}

/// Whether a hound stands on every square next to the fox, by scanning the board.
fn brute_force_boxed_in(pos: &Position) -> bool {
    let Some(fox) = pos.fox() else {
        return false;
    };
    pos.board().size().squares().all(|sq| {
        let next = sq.col().abs_diff(fox.col()) == 1 && sq.row().abs_diff(fox.row()) == 1;
        !next || pos.piece_at(sq) == Some(Side::Hounds)
    })
}

/// Every move by scanning every pair of squares of the board: the rules as
/// written. With captures, a piece may step onto one of the other side.
fn brute_force_moves(pos: &Position) -> BTreeSet<(Square, Square)> {
    let board = pos.board();
    let all: Vec<Square> = (0..board.height())
        .flat_map(|r| (0..board.width()).map(move |c| Square::new(c, r)))
        .collect();
    let mut moves = BTreeSet::new();
    for &from in &all {
        if pos.piece_at(from) != Some(pos.to_move()) {
            continue;
        }
        for &to in &all {
            let dc = to.col() as i32 - from.col() as i32;
            let dr = to.row() as i32 - from.row() as i32;
            let step = dc.abs() == 1
                && match pos.to_move() {
                    Side::Fox => dr.abs() == 1,
                    Side::Hounds => dr == 1,
                };
            let open = match pos.piece_at(to) {
                None => true,
                Some(side) => pos.captures() && side != pos.to_move(),
            };
            if step && open {
                moves.insert((from, to));
            }
        }
    }
    moves
}

fn rules() -> impl Strategy<Value = Rules> {
    proptest::sample::select(Rules::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn move_generation_agrees_with_brute_force(pos in positions()) {
        let generated: BTreeSet<(Square, Square)> =
            pos.legal_moves().iter().map(|m| (m.from(), m.to())).collect();
        prop_assert_eq!(generated.len(), pos.legal_moves().len(), "no move twice");
        prop_assert_eq!(generated, brute_force_moves(&pos));
    }

    #[test]
    fn hounds_never_move_backwards(pos in positions()) {
        for mv in pos.legal_moves().iter() {
            let after = pos.play(*mv);
            prop_assert_eq!(after.to_move(), pos.to_move().other());
            if pos.to_move() == Side::Hounds {
                prop_assert_eq!(mv.to().row(), mv.from().row() + 1);
                prop_assert_eq!(after.fox(), pos.fox());
            } else {
                prop_assert_eq!(after.hound_mask(), pos.hound_mask());
            }
        }
    }

    #[test]
    fn every_game_ends_within_the_forward_bound(
        board in boards(),
        rules in rules(),
        hounds_first in any::<bool>(),
        choices in proptest::collection::vec(any::<proptest::sample::Index>(), 200),
    ) {
        let first = if hounds_first { Side::Hounds } else { Side::Fox };
        let start = Position::start_under(board, rules, board.default_fox_start(), first).unwrap();
        let mut game = Played::new(start, rules);
        // Each hound can step forward at most height-1 times, and the fox moves between.
        let bound = 2 * board.hound_count() * (board.height() as usize - 1) + 2;
        let mut choices = choices.into_iter();
        while game.ending().is_none() {
            prop_assert!(game.moves().len() <= bound, "game longer than {}", bound);
            let moves = game.position().legal_moves();
            prop_assert!(!moves.is_empty(), "a game that has not ended has a move");
            let pick = choices.next().expect("200 choices outlast any game");
            prop_assert!(game.play(*pick.get(&moves)));
        }
        prop_assert!(game.moves().len() <= bound);
    }
}

#[test]
fn playing_an_illegal_move_changes_nothing() {
    let mut game = Played::new(Setup::default().default_start(), Rules::Coursework);
    let hound_move = Setup::default()
        .default_start()
        .with_side(Side::Hounds)
        .legal_moves()[0];
    assert!(!game.play(hound_move));
    assert_eq!(game.moves().len(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn capture_moves_agree_with_brute_force(pos in capture_positions()) {
        let generated: BTreeSet<(Square, Square)> =
            pos.legal_moves().iter().map(|m| (m.from(), m.to())).collect();
        prop_assert_eq!(generated.len(), pos.legal_moves().len(), "no move twice");
        prop_assert_eq!(generated, brute_force_moves(&pos));
    }

    #[test]
    fn only_the_fox_eats_and_a_hound_on_the_fox_ends_the_game(pos in capture_positions()) {
        // Once the fox is taken the game is over, whatever the hounds could still do.
        let moves = if pos.fox().is_some() { pos.legal_moves().to_vec() } else { Vec::new() };
        for mv in moves {
            let after = pos.play(mv);
            let eaten = usize::from(pos.is_capture(mv));
            match pos.to_move() {
                Side::Fox => {
                    prop_assert_eq!(after.hound_count() + eaten, pos.hound_count());
                    prop_assert_eq!(after.fox(), Some(mv.to()));
                    // The square it left is empty: a fox that has just moved is never boxed in.
                    prop_assert!(!after.fox_boxed_in());
                }
                Side::Hounds => {
                    prop_assert_eq!(after.hound_count(), pos.hound_count());
                    prop_assert_eq!(after.fox().is_none(), eaten == 1);
                    if eaten == 1 {
                        prop_assert_eq!(after.ending(Rules::Capture), Some(Ending::FoxCaptured));
                        prop_assert!(after.legal_moves().is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn boxed_in_is_a_loss_and_no_move_is_a_loss(pos in capture_positions()) {
        let ending = pos.ending(Rules::Capture);
        prop_assert_eq!(pos.fox_boxed_in(), brute_force_boxed_in(&pos));
        if pos.fox().is_some_and(|f| f.row() > 0) && brute_force_boxed_in(&pos) {
            prop_assert_eq!(ending, Some(Ending::FoxBoxedIn));
        }
        let before = pos.fox().is_none_or(|f| f.row() == 0) || brute_force_boxed_in(&pos);
        if pos.legal_moves().is_empty() && !before {
            let ending = ending.expect("a side without a move has lost");
            prop_assert_eq!(ending.winner(), pos.to_move().other());
        }
        // The coursework's early win never applies under capture.
        prop_assert_ne!(ending, Some(Ending::FoxEscaped));
    }

    #[test]
    fn capture_games_check_every_move_and_end_in_time(
        board in boards(),
        hounds_first in any::<bool>(),
        choices in proptest::collection::vec(any::<proptest::sample::Index>(), 200),
    ) {
        let first = if hounds_first { Side::Hounds } else { Side::Fox };
        let start =
            Position::start_under(board, Rules::Capture, board.default_fox_start(), first).unwrap();
        let mut game = Played::new(start, Rules::Capture);
        let bound = 2 * board.hound_count() * (board.height() as usize - 1) + 2;
        let mut choices = choices.into_iter();
        while game.ending().is_none() {
            let pos = *game.position();
            let moves = pos.legal_moves();
            prop_assert!(!moves.is_empty(), "a game that has not ended has a move");
            let mv = *choices.next().expect("200 choices outlast any game").get(&moves);
            prop_assert!(game.play(mv), "every generated move is legal");
            let after = *game.position();
            // Checked after every move: taken, home, boxed in, or stuck.
            let expected = if after.fox().is_none() {
                Some(Ending::FoxCaptured)
            } else if after.fox().is_some_and(|f| f.row() == 0) {
                Some(Ending::FoxHome)
            } else if brute_force_boxed_in(&after) {
                Some(Ending::FoxBoxedIn)
            } else if after.legal_moves().is_empty() {
                Some(if after.to_move() == Side::Fox { Ending::FoxTrapped } else { Ending::HoundsStuck })
            } else {
                None
            };
            prop_assert_eq!(game.ending(), expected);
            prop_assert!(game.moves().len() <= bound, "game longer than {}", bound);
        }
        prop_assert!(game.position().hound_count() <= board.hound_count());
    }
}
