//! Property tests of the rules: the move generator against a brute-force one,
//! hounds never stepping back, and every game ending within the bound the
//! forward-only hounds impose.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::subsequence;
use tallyho::games::fox::{Board, Game, Position, Rules, Setup, Side, Square};

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

/// Every move by scanning every pair of squares of the board: the rules as written.
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
            if step && pos.piece_at(to).is_none() {
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
        let setup = Setup { board, rules, fox_start: None, first };
        let mut game = Game::new(setup.default_start(), rules);
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
    let mut game = Game::new(Setup::default().default_start(), Rules::Coursework);
    let hound_move = Setup::default()
        .default_start()
        .with_side(Side::Hounds)
        .legal_moves()[0];
    assert!(!game.play(hound_move));
    assert_eq!(game.moves().len(), 0);
}
