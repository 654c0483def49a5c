//! Zobrist keys: a 64-bit hash of a position, from random numbers fixed at
//! compile time (SplitMix64 from a constant seed), so keys are the same on
//! every run and every machine.

use super::bitboard::Bits;
use super::position::{Position, Side};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// One key per piece kind (black man, white man, black king, white king)
/// per square, then one for White to move.
const KEYS: ([[u64; 32]; 4], u64) = {
    let mut table = [[0u64; 32]; 4];
    let mut state = 0x7A11_7B0D_2A06_0011;
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 32 {
            let (next, key) = splitmix(state);
            state = next;
            table[kind][sq] = key;
            sq += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix(state);
    (table, side)
};

#[inline(always)]
fn fold(mut bits: Bits, keys: &[u64; 32]) -> u64 {
    let mut h = 0;
    while bits != 0 {
        h ^= keys[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    h
}

/// The position's key. Computed whole: a position is three words, and a
/// search rarely holds more than a few pieces' worth of change per ply.
#[inline]
pub fn key(pos: &Position) -> u64 {
    let (t, side) = &KEYS;
    let mut h = fold(pos.men(Side::Black), &t[0])
        ^ fold(pos.men(Side::White), &t[1])
        ^ fold(pos.kings(Side::Black), &t[2])
        ^ fold(pos.kings(Side::White), &t[3]);
    if pos.to_move() == Side::White {
        h ^= side;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_and_are_fixed() {
        let (t, side) = &KEYS;
        let mut all: Vec<u64> = t.iter().flatten().copied().collect();
        all.push(*side);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 129);
        let start = key(&Position::START);
        assert_ne!(start, key(&Position::START.with_side(Side::White)));
        assert_eq!(start, key(&Position::START));
    }
}
