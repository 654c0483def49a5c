//! The static evaluation: how good a quiet position looks for the side to
//! move, in hundredths of a man. Material first (scaled up as pieces come
//! off, so the side ahead likes to trade), then the back rank, advancement,
//! the centre, king placement, mobility and men with a free run to crown.

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

/// The side to move's view of a quiet position.
pub fn evaluate(pos: &Position) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    #[test]
    fn the_start_is_level_and_material_counts() {
        assert_eq!(evaluate(&Position::START), 0);
        let up = fen::parse("B:W21-31:B1-12").unwrap();
        assert!(evaluate(&up) > 80);
        assert!(evaluate(&up.with_side(Side::White)) < -80);
        assert_eq!(distance(0, 31), 7);
    }
}
