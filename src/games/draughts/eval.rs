//! The static evaluation: how good a quiet position looks for the side to
//! move, in hundredths of a man.
//!
//! Two evaluations live here. [`hand`] is the hand-set one the engine had
//! first: material (scaled up as pieces come off, so the side ahead likes to
//! trade), the back rank, advancement, the centre, king placement, mobility
//! and men with a free run to crown. [`evaluate`], the engine's, is a linear
//! model of the same kind of terms ([`linear`]) plus a small net's value.
//! The linear model has terms, [`terms`], each with an opening and an
//! endgame weight blended by the pieces left; its weights were learnt from
//! the engine's own games (`examples/draughts_train.rs`, README "How the
//! evaluation was trained") and are kept in `data/draughts_eval.txt`. A small
//! net ([`super::net`]), learnt from the same kind of games, adds what the
//! linear terms leave unexplained.
//!
//! The model may also weigh patterns, as Scan does for international
//! draughts: how the men stand in each of nine overlapping 4x4 blocks of the
//! board, seen from the side to move (6,561 ways a block). The committed
//! weights give them none (patterns trained from the engine's games played
//! worse, README), and the evaluation skips them when no pattern has a
//! weight.

use std::sync::OnceLock;

use super::DataError;
use super::bitboard::{Bits, Dir, row, step};
use super::position::{Position, Side};

/// A man's worth.
pub const MAN: i32 = 100;
/// A king's worth.
pub const KING: i32 = 135;

/// The four central squares: 14, 15, 18, 19 (F4, D4, E5, C5).
const CENTRE: Bits = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The eight squares around the middle, where a king controls most.
const KING_CENTRE: Bits = CENTRE | (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
/// The board's edge squares (columns A and H, rows 1 and 8).
const EDGE: Bits = 0x0808_0808 | 0x1010_1010 | row(0) | row(7);
/// Black's back-rank guards: 1 and 3 (G1, C1), the "bridge" that keeps
/// White's men from crowning; White's are 30 and 32.
const BLACK_BRIDGE: Bits = (1 << 0) | (1 << 2);
const WHITE_BRIDGE: Bits = (1 << 29) | (1 << 31);

fn side_terms(pos: &Position, side: Side, their_men: u32, total: u32) -> i32 {
    let men = pos.men(side);
    let kings = pos.kings(side);
    let mut s = 0;
    // Advancement: each man's rows travelled; worth more as the board empties.
    let adv_weight = if total <= 10 {
        6
    } else if total <= 16 {
        3
    } else {
        1
    };
    let mut m = men;
    while m != 0 {
        let i = m.trailing_zeros();
        m &= m - 1;
        let travelled = match side {
            Side::Black => i / 4,
            Side::White => 7 - i / 4,
        } as i32;
        s += travelled * adv_weight;
    }
    // The back rank holds while the other side still has men to crown.
    if their_men > 0 {
        let (home, bridge) = match side {
            Side::Black => (row(0), BLACK_BRIDGE),
            Side::White => (row(7), WHITE_BRIDGE),
        };
        s += (men & home).count_ones() as i32 * 4;
        if men & bridge == bridge {
            s += 12;
        }
    }
    s += (men & CENTRE).count_ones() as i32 * 4;
    s += (kings & KING_CENTRE).count_ones() as i32 * 6;
    s -= (kings & EDGE).count_ones() as i32 * 6;
    s
}

/// Men one step from crowning with a free crowning square ahead: most of
/// them crown next move.
fn runaways(pos: &Position, side: Side) -> i32 {
    let empty = pos.empty();
    let (last, dirs) = match side {
        Side::Black => (row(6), Dir::UP),
        Side::White => (row(1), Dir::DOWN),
    };
    let near = pos.men(side) & last;
    let free = dirs
        .iter()
        .fold(0, |acc, &d| acc | (step(step(near, d) & empty, d.back())));
    free.count_ones() as i32 * 25
}

/// How many steps each piece of `side` could make.
fn mobility(pos: &Position, side: Side) -> i32 {
    let empty = pos.empty();
    let all = pos.pieces(side);
    let kings = pos.kings(side);
    let (fwd, back) = match side {
        Side::Black => (Dir::UP, Dir::DOWN),
        Side::White => (Dir::DOWN, Dir::UP),
    };
    let mut n = 0;
    for d in fwd {
        n += (step(all, d) & empty).count_ones();
    }
    for d in back {
        n += (step(kings, d) & empty).count_ones();
    }
    n as i32
}

/// The hand-set evaluation: the side to move's view of a quiet position.
pub fn hand(pos: &Position) -> i32 {
    let me = pos.to_move();
    let them = me.other();
    let material =
        |s: Side| pos.men(s).count_ones() as i32 * MAN + pos.kings(s).count_ones() as i32 * KING;
    let (mine, theirs) = (material(me), material(them));
    if theirs == 0 {
        return 10_000;
    }
    if mine == 0 {
        return -10_000;
    }
    let total = pos.piece_count();
    // Ahead by the same material counts for more with fewer pieces left, so
    // the side ahead trades down (toward the endgame database).
    let diff = mine - theirs;
    let mut score = diff + diff * 4 / total as i32;
    let their_men = pos.men(them).count_ones();
    let my_men = pos.men(me).count_ones();
    score += side_terms(pos, me, their_men, total) - side_terms(pos, them, my_men, total);
    score += runaways(pos, me) - runaways(pos, them);
    score += 2 * (mobility(pos, me) - mobility(pos, them));
    // With kings against kings and ahead, close in: keep our kings near theirs.
    if diff > 0 && pos.men(me) == 0 {
        score += hunt(pos.kings(me), pos.pieces(them));
    } else if diff < 0 && pos.men(them) == 0 {
        score -= hunt(pos.kings(them), pos.pieces(me));
    }
    score
}

/// A bonus for hunters standing close to their prey.
fn hunt(hunters: Bits, prey: Bits) -> i32 {
    let mut total = 0;
    let mut h = hunters;
    while h != 0 {
        let a = h.trailing_zeros();
        h &= h - 1;
        let mut nearest = 7;
        let mut p = prey;
        while p != 0 {
            let b = p.trailing_zeros();
            p &= p - 1;
            nearest = nearest.min(distance(a, b));
        }
        total += 7 - nearest as i32;
    }
    total * 3
}

/// King steps between two squares (bit indices).
fn distance(a: u32, b: u32) -> u32 {
    let col = |i: u32| {
        if (i / 4).is_multiple_of(2) {
            6 - 2 * (i % 4)
        } else {
            7 - 2 * (i % 4)
        }
    };
    let (ra, rb) = (a / 4, b / 4);
    ra.abs_diff(rb).max(col(a).abs_diff(col(b)))
}

/// Per-side terms: a man on each square, a king on each square (squares
/// counted from the side's own home row), then mobility, runaways, the
/// bridge and the back rank (68 in all).
const MOBILITY: usize = 64;
const RUNAWAY: usize = 65;
const BRIDGE: usize = 66;
const BACK_RANK: usize = 67;
/// Whole-position terms: the move (tempo), a capture threatened against the
/// side to move, and the men and kings ahead scaled by the pieces left.
const TEMPO: usize = 68;
const THREAT: usize = 69;
const MEN_AHEAD: usize = 70;
const KINGS_AHEAD: usize = 71;
/// The terms before the patterns.
pub const BASE_TERMS: usize = 72;
/// The pattern windows: 4x4 blocks of the board (eight dark squares each),
/// seen from the side to move, at rows 1-4, 3-6 and 5-8 and columns A-D,
/// C-F and E-H; they overlap by two rows or two columns.
pub const WINDOWS: usize = 9;
/// The ways the men can stand on a window's eight squares: each square is
/// empty (kings count as empty), the mover's man or the other side's man.
pub const PATTERNS: usize = 6561;
/// How many terms the model has: a weight for each pattern of each window
/// follows the base terms.
pub const TERMS: usize = BASE_TERMS + WINDOWS * PATTERNS;

/// Eight squares as a number in base 3, each square's digit 1 when its bit
/// is set: the mover's men give `TERNARY[mine] + 2 * TERNARY[theirs]`.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut v, mut digit, mut j) = (0u16, 1u16, 0);
        while j < 8 {
            if bits & (1 << j) != 0 {
                v += digit;
            }
            digit *= 3;
            j += 1;
        }
        t[bits] = v;
        bits += 1;
    }
    t
};

/// The eight bits of a window: two squares of each of four rows.
#[inline]
fn window_bits(bits: Bits, window: usize) -> usize {
    let (row0, col) = (window / 3 * 2, window % 3);
    let mut out = 0;
    for j in 0..4 {
        out |= ((bits >> (4 * (row0 + j) + col)) & 3) << (2 * j);
    }
    out as usize
}

/// The pattern of `window` with these men, seen from the mover's side.
#[inline]
fn pattern(mine: Bits, theirs: Bits, window: usize) -> usize {
    TERNARY[window_bits(mine, window)] as usize + 2 * TERNARY[window_bits(theirs, window)] as usize
}

/// A term's name in the weights file; a pattern's names its window and its
/// eight squares, the lowest first: `-` empty, `o` the mover's man, `x` the
/// other side's.
pub fn term_name(i: usize) -> String {
    match i {
        0..32 => format!("man{}", i + 1),
        32..64 => format!("king{}", i - 31),
        MOBILITY => "mobility".into(),
        RUNAWAY => "runaway".into(),
        BRIDGE => "bridge".into(),
        BACK_RANK => "back-rank".into(),
        TEMPO => "tempo".into(),
        THREAT => "threat".into(),
        MEN_AHEAD => "men-ahead".into(),
        KINGS_AHEAD => "kings-ahead".into(),
        BASE_TERMS..TERMS => {
            let (window, mut p) = ((i - BASE_TERMS) / PATTERNS, (i - BASE_TERMS) % PATTERNS);
            let mut name = format!("pattern{}:", window + 1);
            for _ in 0..8 {
                name.push(['-', 'o', 'x'][p % 3]);
                p /= 3;
            }
            name
        }
        _ => format!("term{i}"),
    }
}

/// The term a name gives, as [`term_name`] writes it.
fn term_index(name: &str) -> Option<usize> {
    if let Some(rest) = name.strip_prefix("pattern") {
        let (window, squares) = rest.split_once(':')?;
        let window = window
            .parse::<usize>()
            .ok()
            .filter(|w| (1..=WINDOWS).contains(w))?;
        if squares.len() != 8 {
            return None;
        }
        let mut p = 0;
        for c in squares.chars().rev() {
            p = p * 3 + ['-', 'o', 'x'].iter().position(|&d| d == c)?;
        }
        return Some(BASE_TERMS + (window - 1) * PATTERNS + p);
    }
    (0..BASE_TERMS).find(|&i| term_name(i) == name)
}

/// The phase of a position: its pieces, at most 24. A term's weight is
/// `(opening * phase + endgame * (24 - phase)) / 24`.
pub fn phase(pos: &Position) -> i32 {
    pos.piece_count().min(24) as i32
}

/// Calls `visit(term, value)` for each term of the model that is not zero,
/// from the side to move's view (the other side's per-side terms count
/// negatively). Both sides must have pieces.
#[inline]
pub fn terms(pos: &Position, visit: impl FnMut(usize, i32)) {
    terms_with(pos, true, visit);
}

/// [`terms`], the patterns only when asked for.
#[inline]
fn terms_with(pos: &Position, patterns: bool, mut visit: impl FnMut(usize, i32)) {
    let me = pos.to_move();
    let them = me.other();
    let (my_men, their_men) = (pos.men(me), pos.men(them));
    for (side, sign) in [(me, 1), (them, -1)] {
        let other_men = if side == me { their_men } else { my_men };
        // A side's squares counted from its own home row: Black's as they
        // are, White's turned half round.
        let orient = |i: u32| match side {
            Side::Black => i as usize,
            Side::White => 31 - i as usize,
        };
        let mut m = pos.men(side);
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            visit(orient(i), sign);
        }
        let mut k = pos.kings(side);
        while k != 0 {
            let i = k.trailing_zeros();
            k &= k - 1;
            visit(32 + orient(i), sign);
        }
        visit(MOBILITY, sign * mobility(pos, side));
        let r = runaways(pos, side) / 25;
        if r != 0 {
            visit(RUNAWAY, sign * r);
        }
        if other_men != 0 {
            let (home, bridge) = match side {
                Side::Black => (row(0), BLACK_BRIDGE),
                Side::White => (row(7), WHITE_BRIDGE),
            };
            let men = pos.men(side);
            if men & bridge == bridge {
                visit(BRIDGE, sign);
            }
            let back = (men & home).count_ones() as i32;
            if back != 0 {
                visit(BACK_RANK, sign * back);
            }
        }
    }
    visit(TEMPO, 1);
    if super::movegen::has_capture(&pos.with_side(them)) {
        visit(THREAT, 1);
    }
    let total = pos.piece_count().max(1) as i32;
    let men = my_men.count_ones() as i32 - their_men.count_ones() as i32;
    let kings = pos.kings(me).count_ones() as i32 - pos.kings(them).count_ones() as i32;
    if men != 0 {
        visit(MEN_AHEAD, men * 24 / total);
    }
    if kings != 0 {
        visit(KINGS_AHEAD, kings * 24 / total);
    }
    if !patterns {
        return;
    }
    // The men in each window, seen from the mover's side.
    let (mine, theirs) = match me {
        Side::Black => (my_men, their_men),
        Side::White => (my_men.reverse_bits(), their_men.reverse_bits()),
    };
    for window in 0..WINDOWS {
        visit(
            BASE_TERMS + window * PATTERNS + pattern(mine, theirs, window),
            1,
        );
    }
}

/// The model's weights: opening and endgame, for each term.
pub type Weights = Vec<[i32; 2]>;

/// The learnt weights, from the committed data file.
pub fn weights() -> &'static Weights {
    &learnt().0
}

/// The learnt weights, and whether any pattern has a weight (when none
/// has, the evaluation does not look at the patterns).
fn learnt() -> &'static (Weights, bool) {
    static LEARNT: OnceLock<(Weights, bool)> = OnceLock::new();
    LEARNT.get_or_init(|| {
        let w = parse_weights(include_str!("../../../data/draughts_eval.txt"))
            .unwrap_or_else(|_| hand_weights());
        let patterns = w[BASE_TERMS..].iter().any(|&p| p != [0, 0]);
        (w, patterns)
    })
}

/// Reads a weights file: a line `NAME OPENING ENDGAME` for every base term
/// and for each pattern whose weights are not zero, in any order; `#`
/// starts a comment.
pub fn parse_weights(text: &str) -> Result<Weights, DataError> {
    let mut w = vec![[0; 2]; TERMS];
    let mut seen = [false; BASE_TERMS];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, a, b] = words[..] else {
            return Err(DataError::Line {
                line: n + 1,
                reason: "expected NAME OPENING ENDGAME".to_string(),
            });
        };
        let i = term_index(name).ok_or_else(|| DataError::Line {
            line: n + 1,
            reason: format!("no term named {name}"),
        })?;
        let num = |t: &str| {
            t.parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= 10_000)
                .ok_or_else(|| DataError::Line {
                    line: n + 1,
                    reason: format!("{t} is not a weight"),
                })
        };
        w[i] = [num(a)?, num(b)?];
        if let Some(s) = seen.get_mut(i) {
            *s = true;
        }
    }
    match seen.iter().position(|&s| !s) {
        Some(i) => Err(DataError::Missing(format!("weight for {}", term_name(i)))),
        None => Ok(w),
    }
}

/// Writes weights as [`parse_weights`] reads them: every base term, and the
/// patterns whose weights are not zero.
pub fn format_weights(w: &Weights) -> String {
    let mut out = String::new();
    for (i, [a, b]) in w.iter().enumerate() {
        if i < BASE_TERMS || (*a, *b) != (0, 0) {
            out.push_str(&format!("{} {a} {b}\n", term_name(i)));
        }
    }
    out
}

/// The model's weights closest to the hand evaluation: where training starts.
pub fn hand_weights() -> Weights {
    let mut w = vec![[0; 2]; TERMS];
    for i in 0..32u32 {
        let travelled = (i / 4) as i32;
        let centre = if CENTRE & (1 << i) != 0 { 4 } else { 0 };
        w[i as usize] = [MAN + travelled + centre, MAN + 6 * travelled + centre];
        let king = KING + if KING_CENTRE & (1 << i) != 0 { 6 } else { 0 }
            - if EDGE & (1 << i) != 0 { 6 } else { 0 };
        w[32 + i as usize] = [king, king];
    }
    w[MOBILITY] = [2, 2];
    w[RUNAWAY] = [25, 25];
    w[BRIDGE] = [12, 12];
    w[BACK_RANK] = [4, 4];
    w[MEN_AHEAD] = [17, 17];
    w[KINGS_AHEAD] = [22, 22];
    w
}

/// The model's value with these weights (training uses this).
#[inline]
pub fn model(pos: &Position, w: &[[i32; 2]]) -> i32 {
    model_with(pos, w, true)
}

#[inline]
fn model_with(pos: &Position, w: &[[i32; 2]], patterns: bool) -> i32 {
    let (mut opening, mut endgame) = (0, 0);
    terms_with(pos, patterns, |i, v| {
        opening += w[i][0] * v;
        endgame += w[i][1] * v;
    });
    let p = phase(pos);
    (opening * p + endgame * (24 - p)) / 24
}

/// The linear model's value alone, with the learnt weights. Both sides must
/// have pieces.
pub fn linear(pos: &Position) -> i32 {
    let (w, patterns) = learnt();
    model_with(pos, w, *patterns)
}

/// The engine's evaluation: the side to move's view of a quiet position,
/// the linear model's value and the net's ([`super::net`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, || super::net::learnt().value(pos))
}

/// [`evaluate`] with the net's value from `net`, called only where it is
/// needed: the search keeps the net's hidden sums from ply to ply.
#[inline]
pub fn evaluate_with(pos: &Position, net: impl FnOnce() -> i32) -> i32 {
    let me = pos.to_move();
    let them = me.other();
    if pos.pieces(them) == 0 {
        return 10_000;
    }
    if pos.pieces(me) == 0 {
        return -10_000;
    }
    let mut score = linear(pos) + net();
    // With kings against kings and ahead, close in: keep our kings near theirs.
    let material =
        |s: Side| pos.men(s).count_ones() as i32 * MAN + pos.kings(s).count_ones() as i32 * KING;
    let diff = material(me) - material(them);
    if diff > 0 && pos.men(me) == 0 {
        score += hunt(pos.kings(me), pos.pieces(them));
    } else if diff < 0 && pos.men(them) == 0 {
        score -= hunt(pos.kings(them), pos.pieces(me));
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    #[test]
    fn the_start_is_level_and_material_counts() {
        // About level: the linear terms but for the move itself (the learnt
        // tempo term); the net, learnt from games that start three moves in,
        // within a fifth of a man more.
        assert!(linear(&Position::START).abs() <= 10);
        assert!(evaluate(&Position::START).abs() <= 30);
        let up = fen::parse("B:W21-31:B1-12").unwrap();
        assert!(evaluate(&up) > 80);
        assert!(evaluate(&up.with_side(Side::White)) < -80);
        assert_eq!(distance(0, 31), 7);
        assert_eq!(hand(&Position::START), 0);
    }

    #[test]
    fn the_committed_weights_are_whole() {
        let text = include_str!("../../../data/draughts_eval.txt");
        let w = parse_weights(text).unwrap();
        assert_eq!(parse_weights(&format_weights(&w)).as_ref(), Ok(&w));
        assert_eq!(
            parse_weights("man1 1 2").map_err(|e| e.to_string()),
            Err("no weight for man2".to_string())
        );
        // A man is worth about a man in the opening.
        assert!((60..160).contains(&w[10][0]), "{:?}", w[10]);
    }

    #[test]
    fn pattern_names_read_back_and_cover_the_board() {
        for i in [0, 40, 71, 72, 73, 72 + 6560, 72 + 6561, TERMS - 1] {
            assert_eq!(term_index(&term_name(i)), Some(i), "{}", term_name(i));
        }
        assert_eq!(term_name(BASE_TERMS + 1), "pattern1:o-------");
        assert_eq!(term_name(BASE_TERMS + 2), "pattern1:x-------");
        assert_eq!(term_index("pattern10:--------"), None);
        assert_eq!(term_index("pattern1:-------"), None);
        // Every square lies in some window, and each window holds eight.
        let mut covered: Bits = 0;
        for window in 0..WINDOWS {
            let one = (0..32).filter(|&i| window_bits(1 << i, window) != 0);
            assert_eq!(one.clone().count(), 8);
            covered |= one.fold(0, |acc, i| acc | 1 << i);
        }
        assert_eq!(covered, Bits::MAX);
        // The start, Black to move: the first window (rows 1-4, the mover's
        // side) holds six of Black's men and none of White's.
        let mut seen = Vec::new();
        terms(&Position::START, |i, _| {
            if i >= BASE_TERMS {
                seen.push(term_name(i));
            }
        });
        assert_eq!(seen.len(), WINDOWS);
        assert_eq!(seen[0], "pattern1:oooooo--");
        assert_eq!(seen[8], "pattern9:--xxxxxx");
    }

    #[test]
    fn each_side_sees_the_same_in_its_own_place() {
        // The model reads a position from the mover's side, so a position
        // and the same one turned round with colours swapped score alike.
        for text in [
            "B:W21-31:B1-12",
            "W:W18,24,K10:B12,16,K22",
            "B:W19,27:B15,3",
            "W:W14,18,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,15",
        ] {
            let pos = fen::parse(text).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.flipped()), "{text}");
            let mut a = Vec::new();
            let mut b = Vec::new();
            terms(&pos, |i, v| a.push((i, v)));
            terms(&pos.flipped(), |i, v| b.push((i, v)));
            a.sort();
            b.sort();
            assert_eq!(a, b, "{text}");
        }
    }

    #[test]
    fn the_model_with_hand_weights_is_near_the_hand_evaluation() {
        let w = hand_weights();
        for text in [
            "B:W21-31:B1-12",
            "W:W18,24,K10:B12,16,K22",
            "B:W19,27:B15,3",
        ] {
            let pos = fen::parse(text).unwrap();
            let (a, b) = (model(&pos, &w), hand(&pos));
            assert!((a - b).abs() < 60, "{text}: model {a}, hand {b}");
        }
    }
}
