//! The penguin game's rules, checked as properties over random games on
//! random setups: moves are straight unbroken lines and every such line is a
//! move, the points add up, a skipped player really had no move, and the
//! notation reads back what it wrote.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tallyho::faces::fish::text::refusal;

use tallyho::games::Rules;
use tallyho::games::fish::{
    Board, Deal, Move, Named, Position, Setup, Side, at, parse_square, skipped,
};
use tallyho::games::grid::{Square, squares};

/// Every legal slide found the slow way: walk each of the eight directions
/// from each penguin, square by square, while the tiles are free.
fn slides_by_walking(pos: &Position) -> Vec<Move> {
    let free = pos.free();
    let mut out = Vec::new();
    for from in pos.penguins(pos.to_move()) {
        for to in pos.board().squares() {
            let (dc, dr) = (
                to.col() as i32 - from.col() as i32,
                to.row() as i32 - from.row() as i32,
            );
            let straight = (dc, dr) != (0, 0) && (dc == 0 || dr == 0 || dc.abs() == dr.abs());
            if !straight {
                continue;
            }
            let steps = dc.abs().max(dr.abs());
            let clear = (1..=steps).all(|k| {
                let sq = Square::new(
                    (from.col() as i32 + k * dc.signum()) as u8,
                    (from.row() as i32 + k * dr.signum()) as u8,
                );
                free & sq.bit() != 0
            });
            if clear {
                out.push(Move::Slide { from, to });
            }
        }
    }
    out.sort_by_key(|m| (m.from().map(Square::index), m.to().index()));
    out
}

fn setup_strategy() -> impl Strategy<Value = Setup> {
    (4u8..=8, 4u8..=8, any::<Option<u64>>(), 1u32..=4).prop_map(|(w, h, seed, n)| {
        let deal = seed.map_or(Deal::Rings, |seed| Deal::Random { seed });
        Setup::new(Board::new(w, h).unwrap(), deal, n).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_keep_every_rule(setup in setup_strategy(), picks in prop::collection::vec(any::<u16>(), 0..80)) {
        let start = setup.start();
        let total = start.tiles().total();
        let mut pos = start;
        let mut picks = picks.into_iter().cycle();
        loop {
            // The notation reads back the same position.
            prop_assert_eq!(Position::parse(&pos.notation()), Ok(pos));
            prop_assert_eq!(setup.parse_position(&pos.notation()), Ok(pos));
            // The points add up: both players' points and the tiles left.
            prop_assert_eq!(pos.score(Side::P) + pos.score(Side::A) + pos.tiles().total(), total);
            let moves = pos.legal_moves();
            prop_assert_eq!(moves.is_empty(), pos.is_over());
            if pos.is_over() {
                prop_assert!(!pos.can_move(Side::P) && !pos.can_move(Side::A));
                let outcome = setup.outcome(&[pos]);
                prop_assert!(outcome.is_some());
                break;
            }
            if pos.placing() {
                for m in &moves {
                    // Placements go on free 1-point tiles.
                    prop_assert!(matches!(m, Move::Place(_)));
                    prop_assert_eq!(pos.tiles().points(m.to()), 1);
                    prop_assert_eq!(pos.penguin_on(m.to()), None);
                }
            } else {
                // Exactly the straight, unbroken lines over free tiles.
                prop_assert_eq!(&moves, &slides_by_walking(&pos));
            }
            for m in &moves {
                prop_assert_eq!(pos.refusal(&m.path()), None);
                prop_assert!(pos.is_legal(*m));
            }
            let Some(k) = picks.next() else { break };
            let mv = moves[usize::from(k) % moves.len()];
            let next = setup.play(&pos, &mv);
            // The tile left is taken and scored to the mover; nothing else changes.
            if let Move::Slide { from, .. } = mv {
                let mover = pos.to_move();
                prop_assert_eq!(next.tiles().points(from), 0);
                prop_assert_eq!(
                    next.score(mover),
                    pos.score(mover) + u32::from(pos.tiles().points(from))
                );
                prop_assert_eq!(next.haul(mover).len(), pos.haul(mover).len() + 1);
            }
            // A skipped player really had no move; one not skipped had one.
            match skipped(&pos, &next) {
                Some(side) => {
                    prop_assert_eq!(side, pos.to_move().other());
                    prop_assert!(next.placing() && next.to_place(side) == 0 || !next.can_move(side));
                    prop_assert_eq!(next.to_move(), pos.to_move());
                }
                None => prop_assert!(next.is_over() || next.to_move() != pos.to_move()),
            }
            pos = next;
        }
    }

    #[test]
    fn a_typed_path_is_refused_exactly_when_no_legal_move_starts_with_it(
        setup in setup_strategy(),
        picks in prop::collection::vec(any::<u16>(), 0..40),
        path in prop::collection::vec((0u8..8, 0u8..8), 1..3),
    ) {
        let mut pos = setup.start();
        for k in picks {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[usize::from(k) % moves.len()]);
        }
        let path: Vec<Square> = path.into_iter().map(|(c, r)| Square::new(c, r)).collect();
        let starts = pos.legal_moves().iter().any(|m| m.path().starts_with(&path));
        let refusal = pos.refusal(&path);
        prop_assert_eq!(refusal.is_none(), starts, "{:?} {}", refusal, pos);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Whatever is typed, the readers answer with a value or an error.
    #[test]
    fn readers_never_panic(text in "\\PC{0,60}", near in "[0-9(), .P:A/;+x-]{0,40}") {
        for t in [&text, &near] {
            let _ = Position::parse(t);
            let _ = parse_square(Board::STANDARD, t);
            let _ = tallyho::games::fish::parse_path(Board::STANDARD, t);
            let _ = t.parse::<Board>();
            let _ = Setup::from_pairs(&[("board", t.as_str()), ("tiles", "random"), ("seed", t.as_str())]);
            let _ = Setup::default().parse_position(t);
        }
        let rows = format!("111111/122221/123321/123321/122221/111111 {near}");
        let _ = Position::parse(&rows);
    }
}

#[test]
fn the_assignments_examples_play_as_shown() {
    let b = Board::STANDARD;
    let sq = |r, c| at(b, r, c).unwrap();
    let slide = |from, to| Move::Slide { from, to };
    // The example state: P at (1,2) may go to (2,3) but not to (3,2).
    let p =
        Position::parse(".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P").unwrap();
    let q = p.play(slide(sq(1, 2), sq(2, 3)));
    assert_eq!(
        q.notation(),
        "..111./..2221/12..21/123.21/122221/111111 P:2,3 A:4,3 points:1/- next:A"
    );
    assert_eq!(
        p.refusal(&[sq(1, 2), sq(3, 2)])
            .map(|r| refusal(&r))
            .unwrap(),
        "(2,2) is taken, so there is no path from (1,2) to (3,2)"
    );
    // (1,2) to (1,5) to (6,5) is allowed; (6,5) to (3,2) is not.
    // (A is not on the example's boards; here it waits on row 6.)
    let p =
        Position::parse(".1111./..2221/12..21/12..21/122221/111111 P:1,2 A:6,1 next:P").unwrap();
    let p = p.play(slide(sq(1, 2), sq(1, 5)));
    let p = p.play(slide(sq(6, 1), sq(6, 2)));
    let p2 = p.play(slide(sq(1, 5), sq(6, 5)));
    assert_eq!(p2.penguins(Side::P).collect::<Vec<_>>(), [sq(6, 5)]);
    let p3 = p2.play(slide(sq(6, 2), sq(5, 2)));
    assert_eq!(
        p3.refusal(&[sq(6, 5), sq(3, 2)])
            .map(|r| refusal(&r))
            .unwrap(),
        "(4,3) is taken, so there is no path from (6,5) to (3,2)"
    );
    // The skip example: P at (2,4) has no move, so A moves twice and the game ends.
    let p =
        Position::parse("....../..22.1/12...1/.2..21/.2..../...... P:2,3 A:4,2 next:P").unwrap();
    let p1 = p.play(slide(sq(2, 3), sq(2, 4)));
    assert_eq!(skipped(&p, &p1), None);
    assert_eq!(p1.to_move(), Side::A);
    let p2 = p1.play(slide(sq(4, 2), sq(3, 2)));
    assert_eq!(skipped(&p1, &p2), Some(Side::P));
    assert_eq!(p2.to_move(), Side::A);
    let p3 = p2.play(slide(sq(3, 2), sq(3, 1)));
    assert!(p3.is_over());
    assert_eq!(skipped(&p2, &p3), None);
    // Both penguins still stand on their last tiles, which nobody collects.
    assert_eq!(p3.tiles().points(sq(2, 4)), 2);
    assert_eq!(p3.tiles().points(sq(3, 1)), 1);
    assert_eq!(p3.haul(Side::A).sum_line(), "2+2 = 4");
    assert_eq!(p3.haul(Side::P).sum_line(), "2 = 2");
}

#[test]
fn squares_are_named_row_then_column_from_the_top() {
    let b = Board::STANDARD;
    let sq = parse_square(b, "(2,4)").unwrap();
    assert_eq!((sq.row(), sq.col()), (1, 3));
    assert_eq!(Named(sq).to_string(), "(2,4)");
    assert_eq!(squares(sq.bit()).count(), 1);
}
