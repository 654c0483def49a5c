//! The move generator on 32-bit masks: steps by whole-board shifts, captures
//! by a recursion over one jumping piece, and counting without listing for
//! perft's last ply.
//!
//! The side to move and the piece kind are const parameters, so every
//! direction loop unrolls and each step compiles to two shifts.

use super::bitboard::{Bits, Dir, step};
use super::moves::Move;
use super::position::{Position, Side};

/// Runs `$body` once for each direction a piece of this kind may move in,
/// with `$d` bound to a literal direction: straight-line code rather than a
/// loop, so every `step` folds to its two shifts.
macro_rules! each_dir {
    ($black:expr, $king:expr, |$d:ident| $body:block) => {{
        if $king || $black {
            let $d = Dir::UpRight;
            $body
        }
        if $king || $black {
            let $d = Dir::UpLeft;
            $body
        }
        if $king || !$black {
            let $d = Dir::DownRight;
            $body
        }
        if $king || !$black {
            let $d = Dir::DownLeft;
            $body
        }
    }};
}

#[inline(always)]
const fn crown<const BLACK: bool, const KING: bool>() -> Bits {
    if KING {
        0
    } else if BLACK {
        Side::Black.crown_row()
    } else {
        Side::White.crown_row()
    }
}

/// The board split for the side to move.
#[derive(Clone, Copy)]
struct Split {
    men: Bits,
    kings: Bits,
    opp: Bits,
    empty: Bits,
}

#[inline(always)]
fn split(pos: &Position) -> Split {
    let side = pos.to_move();
    Split {
        men: pos.men(side),
        kings: pos.kings(side),
        opp: pos.pieces(side.other()),
        empty: pos.empty(),
    }
}

/// Runs a const-generic function for the side to move.
macro_rules! for_side {
    ($pos:expr, $f:ident ( $($arg:expr),* )) => {
        match $pos.to_move() {
            Side::Black => $f::<true>($($arg),*),
            Side::White => $f::<false>($($arg),*),
        }
    };
}

/// Pieces among `movers` (men, or kings if `KING`) that can jump now.
#[inline(always)]
fn jumpers_in<const BLACK: bool, const KING: bool>(movers: Bits, opp: Bits, empty: Bits) -> Bits {
    let mut found = 0;
    each_dir!(BLACK, KING, |d| {
        // Work back from the landing squares: an enemy piece just before an
        // empty square, and one of ours just before that.
        found |= step(step(empty, d.back()) & opp, d.back()) & movers;
    });
    found
}

#[inline(always)]
fn jumpers_for<const BLACK: bool>(s: Split) -> Bits {
    let men = jumpers_in::<BLACK, false>(s.men, s.opp, s.empty);
    // Most positions have no kings: skip their four directions.
    if s.kings == 0 {
        men
    } else {
        men | jumpers_in::<BLACK, true>(s.kings, s.opp, s.empty)
    }
}

/// The pieces of the side to move that can capture now.
#[inline]
pub fn jumpers(pos: &Position) -> Bits {
    let s = split(pos);
    for_side!(pos, jumpers_for(s))
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    jumpers(pos) != 0
}

/// The pieces that may step in direction `d`: all of them forward, kings back.
#[inline(always)]
fn steppers<const BLACK: bool>(s: Split, d: Dir) -> Bits {
    let forward = match d {
        Dir::UpRight | Dir::UpLeft => BLACK,
        Dir::DownRight | Dir::DownLeft => !BLACK,
    };
    if forward { s.men | s.kings } else { s.kings }
}

#[inline(always)]
fn count_steps_for<const BLACK: bool>(s: Split) -> u64 {
    let all = s.men | s.kings;
    let (up, down) = if BLACK {
        (all, s.kings)
    } else {
        (s.kings, all)
    };
    let mut n = 0;
    if up != 0 {
        n += count_steps_one_way::<true>(up, s.empty);
    }
    if down != 0 {
        n += count_steps_one_way::<false>(down, s.empty);
    }
    n
}

/// Steps up (`UP`) or down from `pieces` to `empty`, counted together: one
/// direction is a shift by 4 from every row; the other is a shift by 3 from
/// one row parity and by 5 from the other, landing on disjoint rows, so the
/// two halves share one population count.
#[inline(always)]
fn count_steps_one_way<const UP: bool>(pieces: Bits, empty: Bits) -> u64 {
    use super::bitboard::{EVEN_ROWS, FILE_A, FILE_H, ODD_ROWS};
    let (by4, by3or5) = if UP {
        (
            pieces << 4,
            ((pieces & ODD_ROWS & !FILE_H) << 3) | ((pieces & EVEN_ROWS & !FILE_A) << 5),
        )
    } else {
        (
            pieces >> 4,
            ((pieces & EVEN_ROWS & !FILE_A) >> 3) | ((pieces & ODD_ROWS & !FILE_H) >> 5),
        )
    };
    let both = (((by4 & empty) as u64) << 32) | (by3or5 & empty) as u64;
    both.count_ones() as u64
}

/// How many steps the side to move has.
#[inline]
pub fn count_steps(pos: &Position) -> u64 {
    let s = split(pos);
    for_side!(pos, count_steps_for(s))
}

/// Whether the side to move has any move at all.
pub fn has_move(pos: &Position) -> bool {
    count_steps(pos) > 0 || has_capture(pos)
}

fn generate_steps_for<const BLACK: bool>(s: Split, out: &mut Vec<Move>) {
    each_dir!(BLACK, true, |d| {
        let mut targets = step(steppers::<BLACK>(s, d), d) & s.empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = step(1 << to, d.back()).trailing_zeros() as u8;
            out.push(Move::step(from, to));
        }
    });
}

/// Appends every step (non-capture) of the side to move.
pub fn generate_steps(pos: &Position, out: &mut Vec<Move>) {
    let s = split(pos);
    for_side!(pos, generate_steps_for(s, out))
}

/// Follows one capture from `at` and appends every way it can end.
/// The jumping piece has left its square, so a king may come back to it
/// (`empty` includes the start). A taken piece stays until the move ends, but
/// no jump can land on one: landings keep the start's row and column parity,
/// taken pieces do not. So only `opp` shrinks as the capture goes on.
fn extend<const BLACK: bool, const KING: bool>(
    at: Bits,
    mv: Move,
    opp: Bits,
    empty: Bits,
    out: &mut Vec<Move>,
) {
    let mut went_on = false;
    each_dir!(BLACK, KING, |d| {
        let over = step(at, d) & opp;
        let land = step(over, d) & empty;
        if land != 0 {
            went_on = true;
            let next = mv.then_jump(land.trailing_zeros() as u8, over);
            if land & crown::<BLACK, KING>() != 0 {
                // A man crowned by a jump stops there.
                out.push(next);
            } else {
                extend::<BLACK, KING>(land, next, opp & !over, empty, out);
            }
        }
    });
    if !went_on && mv.is_capture() {
        out.push(mv);
    }
}

fn captures_of<const BLACK: bool, const KING: bool>(s: Split, out: &mut Vec<Move>) {
    let movers = if KING { s.kings } else { s.men };
    let mut js = jumpers_in::<BLACK, KING>(movers, s.opp, s.empty);
    while js != 0 {
        let from = js.trailing_zeros() as u8;
        js &= js - 1;
        let bit = 1u32 << from;
        extend::<BLACK, KING>(bit, Move::jump_start(from), s.opp, s.empty | bit, out);
    }
}

fn generate_captures_for<const BLACK: bool>(s: Split, out: &mut Vec<Move>) {
    captures_of::<BLACK, false>(s, out);
    if s.kings != 0 {
        captures_of::<BLACK, true>(s, out);
    }
}

/// Appends every capture of the side to move, every path separately.
pub fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
    let s = split(pos);
    for_side!(pos, generate_captures_for(s, out))
}

/// Counts the ways a capture that has reached `at` can end.
fn count_extend<const BLACK: bool, const KING: bool>(at: Bits, opp: Bits, empty: Bits) -> u64 {
    let mut n = 0;
    each_dir!(BLACK, KING, |d| {
        let over = step(at, d) & opp;
        let land = step(over, d) & empty;
        if land != 0 {
            n += if land & crown::<BLACK, KING>() != 0 {
                1
            } else {
                count_extend::<BLACK, KING>(land, opp & !over, empty)
            };
        }
    });
    n.max(1)
}

/// Counts capture paths: the first jumps of all pieces at once by shifts;
/// only a landing that can jump again is followed one piece at a time. Most
/// captures are single jumps, so this is where perft's leaves spend their time.
#[inline(always)]
fn count_captures_of<const BLACK: bool, const KING: bool>(s: Split) -> u64 {
    let movers = if KING { s.kings } else { s.men };
    let mut n = 0;
    each_dir!(BLACK, KING, |d| {
        let mut lands = step(step(movers, d) & s.opp, d) & s.empty;
        if !KING {
            // A man landing on the crowning row stops there.
            let crowned = lands & crown::<BLACK, KING>();
            if crowned != 0 {
                n += crowned.count_ones() as u64;
                lands &= !crowned;
            }
        }
        while lands != 0 {
            let land = lands & lands.wrapping_neg();
            lands &= lands - 1;
            let over = step(land, d.back());
            let from = step(over, d.back());
            let (opp, empty) = (s.opp & !over, s.empty | from);
            // Most captures are single jumps: check for a second inline.
            let mut again = 0;
            each_dir!(BLACK, KING, |e| {
                again |= step(step(land, e) & opp, e) & empty;
            });
            n += if again == 0 {
                1
            } else {
                count_extend::<BLACK, KING>(land, opp, empty)
            };
        }
    });
    n
}

#[inline(always)]
fn count_captures_for<const BLACK: bool>(s: Split) -> u64 {
    let men = count_captures_of::<BLACK, false>(s);
    if s.kings == 0 {
        men
    } else {
        men + count_captures_of::<BLACK, true>(s)
    }
}

/// How many captures the side to move has, counting paths.
pub fn count_captures(pos: &Position) -> u64 {
    let s = split(pos);
    for_side!(pos, count_captures_for(s))
}

#[inline(always)]
fn count_moves_for<const BLACK: bool>(s: Split, forced: bool) -> u64 {
    let captures = count_captures_for::<BLACK>(s);
    if forced && captures > 0 {
        captures
    } else {
        captures + count_steps_for::<BLACK>(s)
    }
}

/// How many legal moves there are, without listing them.
#[inline]
pub fn count_moves(pos: &Position, forced: bool) -> u64 {
    let s = split(pos);
    for_side!(pos, count_moves_for(s, forced))
}

fn generate_for<const BLACK: bool>(s: Split, forced: bool, out: &mut Vec<Move>) {
    let before = out.len();
    if jumpers_for::<BLACK>(s) != 0 {
        generate_captures_for::<BLACK>(s, out);
    }
    if !forced || out.len() == before {
        generate_steps_for::<BLACK>(s, out);
    }
}

/// Appends every legal move: captures only when one exists and `forced`,
/// otherwise captures first, then steps.
pub fn generate(pos: &Position, forced: bool, out: &mut Vec<Move>) {
    let s = split(pos);
    for_side!(pos, generate_for(s, forced, out))
}

/// The fixed parts of a capture being followed for [`for_each_child`].
struct ChildJump {
    from: Bits,
    mine: Bits,
    theirs: Bits,
    kings: Bits,
    was_king: bool,
}

/// Follows a capture from `at` and visits the position after each way it
/// can end, with no move built.
fn child_jumps<const BLACK: bool, const KING: bool, F: FnMut(&Position)>(
    c: &ChildJump,
    at: Bits,
    taken: Bits,
    opp: Bits,
    empty: Bits,
    visit: &mut F,
) {
    let mut went_on = false;
    each_dir!(BLACK, KING, |d| {
        let over = step(at, d) & opp;
        let land = step(over, d) & empty;
        if land != 0 {
            went_on = true;
            if land & crown::<BLACK, KING>() != 0 {
                visit(&jump_child::<BLACK>(c, land, taken | over));
            } else {
                child_jumps::<BLACK, KING, F>(c, land, taken | over, opp & !over, empty, visit);
            }
        }
    });
    if !went_on && taken != 0 {
        visit(&jump_child::<BLACK>(c, at, taken));
    }
}

#[inline(always)]
fn jump_child<const BLACK: bool>(c: &ChildJump, to: Bits, taken: Bits) -> Position {
    let (side, other) = if BLACK {
        (Side::Black, Side::White)
    } else {
        (Side::White, Side::Black)
    };
    let mine = (c.mine & !c.from) | to;
    let theirs = c.theirs & !taken;
    let kings = c.kings & !taken & !c.from;
    let kings = if c.was_king || to & side.crown_row() != 0 {
        kings | to
    } else {
        kings
    };
    if BLACK {
        Position::from_parts(mine, theirs, kings, other)
    } else {
        Position::from_parts(theirs, mine, kings, other)
    }
}

fn child_captures_of<const BLACK: bool, const KING: bool, F: FnMut(&Position)>(
    pos: &Position,
    s: Split,
    visit: &mut F,
) {
    let movers = if KING { s.kings } else { s.men };
    let mut js = jumpers_in::<BLACK, KING>(movers, s.opp, s.empty);
    let side = if BLACK { Side::Black } else { Side::White };
    while js != 0 {
        let bit = js & js.wrapping_neg();
        js &= js - 1;
        let c = ChildJump {
            from: bit,
            mine: pos.pieces(side),
            theirs: s.opp,
            kings: pos.all_kings(),
            was_king: KING,
        };
        child_jumps::<BLACK, KING, F>(&c, bit, 0, s.opp, s.empty | bit, visit);
    }
}

fn children_for<const BLACK: bool, F: FnMut(&Position)>(
    pos: &Position,
    forced: bool,
    visit: &mut F,
) {
    let s = split(pos);
    if jumpers_for::<BLACK>(s) != 0 {
        child_captures_of::<BLACK, false, F>(pos, s, visit);
        if s.kings != 0 {
            child_captures_of::<BLACK, true, F>(pos, s, visit);
        }
        if forced {
            return;
        }
    }
    let (side, other) = if BLACK {
        (Side::Black, Side::White)
    } else {
        (Side::White, Side::Black)
    };
    let mine = pos.pieces(side);
    let theirs = pos.pieces(other);
    let kings = pos.all_kings();
    each_dir!(BLACK, true, |d| {
        let movers = steppers::<BLACK>(s, d);
        let mut targets = step(movers, d) & s.empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let from = step(to, d.back());
            let moved = mine ^ (from | to);
            let kings = if kings & from != 0 {
                kings ^ (from | to)
            } else {
                kings | (to & side.crown_row())
            };
            let child = if BLACK {
                Position::from_parts(moved, theirs, kings, other)
            } else {
                Position::from_parts(theirs, moved, kings, other)
            };
            visit(&child);
        }
    });
}

/// Calls `visit` with the position after each legal move, in the order
/// [`generate`] lists them, without building any move. perft and the
/// endgame database walk with it.
#[inline]
pub fn for_each_child<F: FnMut(&Position)>(pos: &Position, forced: bool, mut visit: F) {
    match pos.to_move() {
        Side::Black => children_for::<true, F>(pos, forced, &mut visit),
        Side::White => children_for::<false, F>(pos, forced, &mut visit),
    }
}

/// The board split for a side known at compile time.
#[inline(always)]
fn split_for<const BLACK: bool>(pos: &Position) -> Split {
    let (me, opp) = if BLACK {
        (pos.pieces(Side::Black), pos.pieces(Side::White))
    } else {
        (pos.pieces(Side::White), pos.pieces(Side::Black))
    };
    let kings = pos.all_kings();
    Split {
        men: me & !kings,
        kings: me & kings,
        opp,
        empty: !(me | opp),
    }
}

/// How many moves there are after each legal move, added up: perft's last
/// two plies in one pass, the side of each ply fixed at compile time.
pub fn count_grandchildren(pos: &Position, forced: bool) -> u64 {
    let mut n = 0;
    match pos.to_move() {
        Side::Black => children_for::<true, _>(pos, forced, &mut |c: &Position| {
            n += count_moves_for::<false>(split_for::<false>(c), forced)
        }),
        Side::White => children_for::<false, _>(pos, forced, &mut |c: &Position| {
            n += count_moves_for::<true>(split_for::<true>(c), forced)
        }),
    }
    n
}
