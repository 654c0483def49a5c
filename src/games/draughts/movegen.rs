//! The move generator on 32-bit masks: steps by whole-board shifts, captures
//! by a recursion over one jumping piece, and counting without listing for
//! perft's last ply.

use super::bitboard::{Bits, Dir, step};
use super::moves::Move;
use super::position::{Position, Side};

/// The directions a side's men move in.
#[inline(always)]
const fn forward(side: Side) -> [Dir; 2] {
    match side {
        Side::Black => Dir::UP,
        Side::White => Dir::DOWN,
    }
}

#[inline(always)]
const fn is_forward(side: Side, d: Dir) -> bool {
    match side {
        Side::Black => matches!(d, Dir::UpRight | Dir::UpLeft),
        Side::White => matches!(d, Dir::DownRight | Dir::DownLeft),
    }
}

/// The pieces of the side to move that can capture now.
#[inline]
pub fn jumpers(pos: &Position) -> Bits {
    let side = pos.to_move();
    let men = pos.men(side);
    let kings = pos.kings(side);
    let opp = pos.pieces(side.other());
    let empty = pos.empty();
    let mut found = 0;
    for d in Dir::ALL {
        let movers = if is_forward(side, d) {
            men | kings
        } else {
            kings
        };
        // Work back from the landing squares: an enemy piece just before an
        // empty square, and one of ours just before that.
        found |= step(step(empty, d.back()) & opp, d.back()) & movers;
    }
    found
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    jumpers(pos) != 0
}

/// The squares the side to move can step to, direction by direction, with
/// the pieces that step there found by stepping back.
#[inline(always)]
fn step_targets(pos: &Position, d: Dir) -> Bits {
    let side = pos.to_move();
    let movers = if is_forward(side, d) {
        pos.pieces(side)
    } else {
        pos.kings(side)
    };
    step(movers, d) & pos.empty()
}

/// Whether the side to move has any move at all.
pub fn has_move(pos: &Position) -> bool {
    Dir::ALL.into_iter().any(|d| step_targets(pos, d) != 0) || has_capture(pos)
}

/// Appends every step (non-capture) of the side to move.
pub fn generate_steps(pos: &Position, out: &mut Vec<Move>) {
    for d in Dir::ALL {
        let mut targets = step_targets(pos, d);
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = step(1 << to, d.back()).trailing_zeros() as u8;
            out.push(Move::step(from, to));
        }
    }
}

/// What one capture search needs to know, fixed for the whole recursion.
struct JumpContext {
    dirs: &'static [Dir],
    /// Where a man's jump ends by crowning; empty for a king.
    crown: Bits,
    empty: Bits,
}

const ALL_DIRS: &[Dir] = &Dir::ALL;
const UP_DIRS: &[Dir] = &Dir::UP;
const DOWN_DIRS: &[Dir] = &Dir::DOWN;

fn context(pos: &Position, king: bool, from: Bits) -> JumpContext {
    let side = pos.to_move();
    let dirs = match (king, side) {
        (true, _) => ALL_DIRS,
        (false, Side::Black) => UP_DIRS,
        (false, Side::White) => DOWN_DIRS,
    };
    JumpContext {
        dirs,
        crown: if king { 0 } else { side.crown_row() },
        // The jumping piece has left its square, so a king may come back to it.
        // A taken piece stays until the move ends, but no jump can land on one:
        // landings keep the start's row and column parity, taken pieces do not.
        empty: pos.empty() | from,
    }
}

/// Appends every capture of the side to move, every path separately.
pub fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.to_move();
    let opp = pos.pieces(side.other());
    let mut js = jumpers(pos);
    while js != 0 {
        let from = js.trailing_zeros() as u8;
        js &= js - 1;
        let bit = 1u32 << from;
        let ctx = context(pos, pos.all_kings() & bit != 0, bit);
        extend(&ctx, bit, Move::jump_start(from), opp, out);
    }
}

fn extend(ctx: &JumpContext, at: Bits, mv: Move, opp: Bits, out: &mut Vec<Move>) {
    let mut went_on = false;
    for &d in ctx.dirs {
        let over = step(at, d) & opp;
        if over == 0 {
            continue;
        }
        let land = step(over, d) & ctx.empty;
        if land == 0 {
            continue;
        }
        went_on = true;
        let next = mv.then_jump(land.trailing_zeros() as u8, over);
        if land & ctx.crown != 0 {
            // A man crowned by a jump stops there.
            out.push(next);
        } else {
            extend(ctx, land, next, opp & !over, out);
        }
    }
    if !went_on && mv.is_capture() {
        out.push(mv);
    }
}

fn count_extend(ctx: &JumpContext, at: Bits, opp: Bits, first: bool) -> u64 {
    let mut n = 0;
    for &d in ctx.dirs {
        let over = step(at, d) & opp;
        if over == 0 {
            continue;
        }
        let land = step(over, d) & ctx.empty;
        if land == 0 {
            continue;
        }
        n += if land & ctx.crown != 0 {
            1
        } else {
            count_extend(ctx, land, opp & !over, false)
        };
    }
    if n == 0 && !first { 1 } else { n }
}

/// Whether a piece on `at` moving in `dirs` can jump again.
#[inline(always)]
fn can_jump(at: Bits, dirs: &[Dir], opp: Bits, empty: Bits) -> bool {
    dirs.iter()
        .any(|&d| step(step(at, d) & opp, d) & empty != 0)
}

/// Counts the capture paths of one side's pieces jumping in `dirs`, first
/// jumps for all pieces at once by shifts; only a landing that can jump
/// again is followed one piece at a time. Most captures are single jumps,
/// so this is where perft's leaves spend their time.
#[inline(always)]
fn count_jumps_by(movers: Bits, dirs: &'static [Dir], crown: Bits, opp: Bits, empty: Bits) -> u64 {
    let mut n = 0;
    for &d in dirs {
        let mut lands = step(step(movers, d) & opp, d) & empty;
        while lands != 0 {
            let land = lands & lands.wrapping_neg();
            lands &= lands - 1;
            if land & crown != 0 {
                n += 1;
                continue;
            }
            let over = step(land, d.back());
            let from = step(over, d.back());
            let empty = empty | from;
            let opp = opp & !over;
            if can_jump(land, dirs, opp, empty) {
                let ctx = JumpContext { dirs, crown, empty };
                n += count_extend(&ctx, land, opp, false);
            } else {
                n += 1;
            }
        }
    }
    n
}

/// How many captures the side to move has, counting paths.
pub fn count_captures(pos: &Position) -> u64 {
    let side = pos.to_move();
    let opp = pos.pieces(side.other());
    let empty = pos.empty();
    let men_dirs = match side {
        Side::Black => UP_DIRS,
        Side::White => DOWN_DIRS,
    };
    count_jumps_by(pos.men(side), men_dirs, side.crown_row(), opp, empty)
        + count_jumps_by(pos.kings(side), ALL_DIRS, 0, opp, empty)
}

/// How many steps the side to move has.
#[inline]
pub fn count_steps(pos: &Position) -> u64 {
    Dir::ALL
        .into_iter()
        .map(|d| step_targets(pos, d).count_ones() as u64)
        .sum()
}

/// Appends every legal move: captures only when one exists and `forced`,
/// otherwise captures first, then steps.
pub fn generate(pos: &Position, forced: bool, out: &mut Vec<Move>) {
    let before = out.len();
    generate_captures(pos, out);
    if !forced || out.len() == before {
        generate_steps(pos, out);
    }
}

/// How many legal moves there are, without listing them.
#[inline]
pub fn count_moves(pos: &Position, forced: bool) -> u64 {
    let captures = count_captures(pos);
    if forced && captures > 0 {
        captures
    } else {
        captures + count_steps(pos)
    }
}

/// The forward directions of a side's men, for other modules' geometry.
pub const fn men_directions(side: Side) -> [Dir; 2] {
    forward(side)
}
