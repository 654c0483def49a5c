//! The move generator against a slow reference written here from the rules
//! alone (an 8x8 array, recursion, no bitboards): perft counts from data
//! files, and property tests on random positions.
//!
//! The data files (`tests/data/draughts/*.perft`) hold blocks of
//! `id NAME`, `fen FEN`, optionally `captures optional`, and `perft DEPTH COUNT`
//! lines. The start counts are the published ones; the hand-made positions'
//! counts came from this file's reference generator
//! (`cargo test --test draughts_movegen -- --ignored --nocapture print_reference_counts`).

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use proptest::prelude::*;
use tallyho::games::Rules;
use tallyho::games::draughts::{
    Captures, PdnSquare, Perft, Piece, Position, Setup, Side, fen, movegen,
};

// ---------------------------------------------------------------------------
// The reference: a board as an 8x8 array indexed [col][row], row 0 = rank 1.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct RefPiece {
    side: Side,
    king: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct RefBoard {
    cells: [[Option<RefPiece>; 8]; 8],
    to_move: Side,
}

type Path = Vec<(i32, i32)>;

impl RefBoard {
    fn from_position(pos: &Position) -> RefBoard {
        let mut cells = [[None; 8]; 8];
        for sq in PdnSquare::all() {
            let g = sq.grid();
            cells[g.col() as usize][g.row() as usize] = pos.piece(sq).map(|p| match p {
                Piece::Man(side) => RefPiece { side, king: false },
                Piece::King(side) => RefPiece { side, king: true },
            });
        }
        RefBoard {
            cells,
            to_move: pos.to_move(),
        }
    }

    fn at(&self, c: i32, r: i32) -> Option<Option<RefPiece>> {
        if (0..8).contains(&c) && (0..8).contains(&r) {
            Some(self.cells[c as usize][r as usize])
        } else {
            None
        }
    }

    fn forward(side: Side) -> i32 {
        match side {
            Side::Black => 1,
            Side::White => -1,
        }
    }

    fn far_row(side: Side) -> i32 {
        match side {
            Side::Black => 7,
            Side::White => 0,
        }
    }

    fn directions(p: RefPiece) -> Vec<(i32, i32)> {
        let f = Self::forward(p.side);
        if p.king {
            vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
        } else {
            vec![(1, f), (-1, f)]
        }
    }

    /// Every capture path from (c, r) for piece p, with `taken` squares
    /// already jumped (they stay on the board until the move ends).
    fn jumps(
        &self,
        p: RefPiece,
        path: &mut Path,
        taken: &mut Vec<(i32, i32)>,
        out: &mut Vec<Path>,
    ) {
        let (c, r) = *path.last().unwrap();
        let start = path[0];
        let mut more = false;
        for (dc, dr) in Self::directions(p) {
            let (mc, mr) = (c + dc, r + dr);
            let (lc, lr) = (c + 2 * dc, r + 2 * dr);
            let Some(Some(mid)) = self.at(mc, mr) else {
                continue;
            };
            if mid.side == p.side || taken.contains(&(mc, mr)) {
                continue;
            }
            let empty = match self.at(lc, lr) {
                Some(None) => true,
                Some(Some(_)) => (lc, lr) == start, // the mover has left its square
                None => false,
            };
            if !empty {
                continue;
            }
            more = true;
            path.push((lc, lr));
            taken.push((mc, mr));
            if !p.king && lr == Self::far_row(p.side) {
                out.push(path.clone()); // crowning ends the move
            } else {
                self.jumps(p, path, taken, out);
            }
            path.pop();
            taken.pop();
        }
        if !more && path.len() > 1 {
            out.push(path.clone());
        }
    }

    fn captures(&self) -> Vec<Path> {
        let mut out = Vec::new();
        for c in 0..8 {
            for r in 0..8 {
                if let Some(Some(p)) = self.at(c, r)
                    && p.side == self.to_move
                {
                    self.jumps(p, &mut vec![(c, r)], &mut Vec::new(), &mut out);
                }
            }
        }
        out
    }

    fn steps(&self) -> Vec<Path> {
        let mut out = Vec::new();
        for c in 0..8 {
            for r in 0..8 {
                if let Some(Some(p)) = self.at(c, r)
                    && p.side == self.to_move
                {
                    for (dc, dr) in Self::directions(p) {
                        if let Some(None) = self.at(c + dc, r + dr) {
                            out.push(vec![(c, r), (c + dc, r + dr)]);
                        }
                    }
                }
            }
        }
        out
    }

    fn moves(&self, captures: Captures) -> Vec<Path> {
        let caps = self.captures();
        if captures == Captures::Compulsory && !caps.is_empty() {
            return caps;
        }
        let mut all = caps;
        all.extend(self.steps());
        all
    }

    fn play(&self, path: &Path) -> RefBoard {
        let mut b = self.clone();
        let (c0, r0) = path[0];
        let mut p = b.cells[c0 as usize][r0 as usize].take().unwrap();
        for w in path.windows(2) {
            let ((a, b1), (c, d)) = (w[0], w[1]);
            if (c - a).abs() == 2 {
                b.cells[((a + c) / 2) as usize][((b1 + d) / 2) as usize] = None;
            }
        }
        let (cl, rl) = *path.last().unwrap();
        if rl == Self::far_row(p.side) {
            p.king = true;
        }
        b.cells[cl as usize][rl as usize] = Some(p);
        b.to_move = b.to_move.other();
        b
    }

    fn perft(&self, depth: u32, captures: Captures) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(captures)
            .iter()
            .map(|m| self.play(m).perft(depth - 1, captures))
            .sum()
    }
}

fn grid_paths(rules: &Setup, pos: &Position) -> BTreeSet<Path> {
    rules
        .legal_moves(pos)
        .iter()
        .map(|m| {
            rules
                .path(m)
                .iter()
                .map(|s| (s.col() as i32, s.row() as i32))
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// perft data files.

struct Case {
    id: String,
    fen: String,
    captures: Captures,
    counts: Vec<(u32, u64)>,
}

fn read_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "id" => cases.push(Case {
                id: value.to_string(),
                fen: String::new(),
                captures: Captures::Compulsory,
                counts: Vec::new(),
            }),
            "fen" => cases.last_mut().unwrap().fen = value.to_string(),
            "captures" => cases.last_mut().unwrap().captures = value.parse().unwrap(),
            "perft" => {
                let (d, c) = value.split_once(' ').unwrap();
                let count = (d.parse().unwrap(), c.trim().parse().unwrap());
                cases.last_mut().unwrap().counts.push(count);
            }
            _ => panic!("line {}: unknown key {key}", n + 1),
        }
    }
    cases
}

fn all_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("tests/data/draughts")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    for f in files {
        out.extend(read_cases(&std::fs::read_to_string(&f).unwrap()));
    }
    out
}

/// Above this many nodes a count is left to the ignored deep test.
const FAST_NODES: u64 = 5_000_000;

#[test]
fn perft_counts_from_the_data_files() {
    let cases = all_cases();
    assert!(
        cases.len() >= 8,
        "the data files hold {} positions",
        cases.len()
    );
    for case in cases {
        let rules = Setup::with_captures(case.captures);
        let pos = rules.parse_position(&case.fen).unwrap();
        let mut plain = Perft::new(rules);
        let mut table = Perft::with_table(rules, 14);
        for &(d, n) in case.counts.iter().filter(|c| c.1 <= FAST_NODES) {
            assert_eq!(
                plain.count(&pos, d),
                Some(n as u128),
                "{} perft({d})",
                case.id
            );
            assert_eq!(
                table.count(&pos, d),
                Some(n as u128),
                "{} perft({d}) with a table",
                case.id
            );
        }
    }
}

/// The reference agrees with the files wherever it is quick enough.
#[test]
fn the_reference_generator_agrees_with_the_data_files() {
    for case in all_cases() {
        let rules = Setup::with_captures(case.captures);
        let board = RefBoard::from_position(&rules.parse_position(&case.fen).unwrap());
        for &(d, n) in case.counts.iter().filter(|c| c.1 <= 20_000) {
            assert_eq!(
                board.perft(d, case.captures),
                n,
                "{} reference perft({d})",
                case.id
            );
        }
    }
}

/// Every count in the files, however deep: `cargo test --release --test
/// draughts_movegen -- --ignored deep_perft` (perft(12) from the start).
#[test]
#[ignore]
fn deep_perft() {
    for case in all_cases() {
        let rules = Setup::with_captures(case.captures);
        let pos = rules.parse_position(&case.fen).unwrap();
        let mut counter = Perft::with_table(rules, 20);
        for &(d, n) in &case.counts {
            assert_eq!(
                counter.count(&pos, d),
                Some(n as u128),
                "{} perft({d})",
                case.id
            );
        }
    }
}

/// Prints the reference's counts for the hand-made positions, to fill the
/// data files: `cargo test --release --test draughts_movegen -- --ignored
/// --nocapture print_reference_counts`.
#[test]
#[ignore]
fn print_reference_counts() {
    for case in all_cases().into_iter().filter(|c| c.id != "start") {
        let rules = Setup::with_captures(case.captures);
        let board = RefBoard::from_position(&rules.parse_position(&case.fen).unwrap());
        println!("id {}", case.id);
        for d in 1..=7 {
            let n = board.perft(d, case.captures);
            println!("perft {d} {n}");
            if n > 3_000_000 {
                break;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Named positions.

fn pos(text: &str) -> Position {
    fen::parse(text).unwrap()
}

fn moves(rules: Setup, p: &Position) -> Vec<String> {
    rules.legal_moves(p).iter().map(|m| m.to_string()).collect()
}

#[test]
fn a_king_may_jump_round_a_ring_both_ways_and_come_home() {
    // Black king on 11 (C3); white men on 15 (D4), 14 (F4), 6 (F2), 7 (D2).
    let p = pos("B:W6,7,14,15:BK11");
    assert_eq!(moves(Setup::STANDARD, &p), ["11x2x9x18x11", "11x18x9x2x11"]);
}

#[test]
fn crowning_ends_a_jump() {
    // A black man on 23 (D6) jumps 26 to 30 (F8) and is crowned there,
    // though a king on 30 could go on over 25.
    let p = pos("B:W25,26:B23");
    assert_eq!(moves(Setup::STANDARD, &p), ["23x30"]);
    let after = p.play(&Setup::STANDARD.legal_moves(&p)[0]);
    assert_eq!(
        after.piece(PdnSquare::new(30).unwrap()),
        Some(Piece::King(Side::Black))
    );
}

#[test]
fn captures_are_compulsory_unless_optional() {
    let p = pos("B:W18:B14,1");
    assert_eq!(moves(Setup::STANDARD, &p), ["14x23"]);
    let optional = Setup::with_captures(Captures::Optional);
    assert_eq!(moves(optional, &p), ["1-5", "1-6", "14-17", "14x23"]);
}

// ---------------------------------------------------------------------------
// Property tests on random positions.

fn arb_position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..9, 32), any::<bool>()).prop_map(|(cells, white)| {
        let (mut black, mut whites, mut kings) = (0u32, 0u32, 0u32);
        for (i, c) in cells.iter().enumerate() {
            let bit = 1u32 << i;
            match c {
                0 => black |= bit,
                1 => whites |= bit,
                2 => {
                    black |= bit;
                    kings |= bit
                }
                3 => {
                    whites |= bit;
                    kings |= bit
                }
                _ => {}
            }
        }
        // Men on their crowning row are kings; at most twelve a side.
        kings |= (black & 0xF000_0000) | (whites & 0x0000_000F);
        while black.count_ones() > 12 {
            black &= black - 1;
        }
        while whites.count_ones() > 12 {
            whites &= whites - 1;
        }
        let side = if white { Side::White } else { Side::Black };
        Position::new(black, whites, kings, side).unwrap()
    })
}

/// Positions a real game reaches: random plies from the start.
fn arb_game_position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(any::<u16>(), 0..80)).prop_map(|picks| {
        let rules = Setup::STANDARD;
        let mut p = rules.start();
        for pick in picks {
            let ms = rules.legal_moves(&p);
            if ms.is_empty() {
                break;
            }
            p = p.play(&ms[pick as usize % ms.len()]);
        }
        p
    })
}

fn check_against_reference(p: &Position) -> Result<(), TestCaseError> {
    for captures in Captures::ALL {
        let rules = Setup::with_captures(captures);
        let board = RefBoard::from_position(p);
        let expected: BTreeSet<Path> = board.moves(captures).into_iter().collect();
        let got = grid_paths(&rules, p);
        prop_assert_eq!(&got, &expected, "{} {}", fen::write(p), captures);
        // No two moves print alike, and counting agrees with listing.
        let list = rules.legal_moves(p);
        let names: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(names.len(), list.len());
        prop_assert_eq!(
            movegen::count_moves(p, captures.forced()),
            list.len() as u64
        );
        // Children without moves are the positions after the moves, in order.
        let mut listed = Vec::new();
        movegen::generate(p, captures.forced(), &mut listed);
        let mut children = Vec::new();
        movegen::for_each_child(p, captures.forced(), |c| children.push(*c));
        let played: Vec<Position> = listed.iter().map(|m| p.play(m)).collect();
        prop_assert_eq!(&children, &played);
        // Each move's result is the reference's.
        for m in &list {
            let path: Path = rules
                .path(m)
                .iter()
                .map(|s| (s.col() as i32, s.row() as i32))
                .collect();
            prop_assert_eq!(RefBoard::from_position(&p.play(m)), board.play(&path));
        }
    }
    // Under the laws, captures are offered exactly when one exists.
    let caps = RefBoard::from_position(p).captures();
    let list = Setup::STANDARD.legal_moves(p);
    prop_assert_eq!(
        list.iter().all(|m| m.is_capture()) && !list.is_empty(),
        !caps.is_empty()
    );
    prop_assert_eq!(movegen::has_capture(p), !caps.is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn legals_are_the_references_on_random_boards(p in arb_position()) {
        check_against_reference(&p)?;
    }

    #[test]
    fn legals_are_the_references_in_random_games(p in arb_game_position()) {
        check_against_reference(&p)?;
    }

    #[test]
    fn fen_round_trips(p in arb_position()) {
        prop_assert_eq!(fen::parse(&fen::write(&p)), Ok(p));
    }

    #[test]
    fn flipping_twice_is_nothing_and_keeps_the_move_count(p in arb_position()) {
        prop_assert_eq!(p.flipped().flipped(), p);
        prop_assert_eq!(
            movegen::count_moves(&p.flipped(), true),
            movegen::count_moves(&p, true)
        );
    }
}
