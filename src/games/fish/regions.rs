//! Separated penguins: when no free tile can be reached by both sides, each
//! side's best is a problem of its own (a longest path, weighted by the tiles
//! left, through its own region), solved exactly by a memoised depth-first
//! search with a bound.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::Tiles;
use super::geometry::{flood, neighbours, queen_moves};
use super::table::headroom;
use crate::games::Deadline;
use crate::games::grid::squares;

/// A hasher for keys made of bit masks: multiply and rotate, as the
/// compiler's own map does; the standard one is far slower here.
#[derive(Default)]
pub struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A map keyed by bit masks.
pub type MaskMap<K, V> = HashMap<K, V, BuildHasherDefault<MaskHasher>>;

/// What the memo knows of a state: its value, or only a bound above it.
#[derive(Clone, Copy)]
enum Known {
    Exact(u16),
    AtMost(u16),
}

/// The single-side solver, with a memo kept between calls (its keys hold the
/// tiles' points, so any game may share it) and a node budget per call.
pub struct RegionSolver {
    memo: MaskMap<(u64, u64, u64), Known>,
    /// Entries kept before the memo is cleared.
    memo_limit: usize,
    nodes: u64,
    limit: u64,
    aborted: bool,
}

/// Bytes an entry of the memo takes, counting the map's spare room: 33 a
/// bucket, and up to twice the buckets of the entries after growing.
const ENTRY_BYTES: usize = 64;

impl Default for RegionSolver {
    fn default() -> RegionSolver {
        RegionSolver::new()
    }
}

impl RegionSolver {
    /// An empty solver whose memo takes up to 32 MB.
    pub fn new() -> RegionSolver {
        RegionSolver::within(32 << 20)
    }

    /// An empty solver whose memo takes up to about `bytes` (at least a
    /// thousand entries); it grows fallibly, so a short machine gets a
    /// smaller memo, never an abort.
    pub fn within(bytes: usize) -> RegionSolver {
        RegionSolver {
            memo: MaskMap::default(),
            memo_limit: (bytes / ENTRY_BYTES).max(1024),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
        }
    }

    /// Nodes visited over all calls.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The most points the penguins `pens` of one side can still collect,
    /// alone on `tiles` (the other side's penguins removed from `tiles`' free
    /// squares by the caller, or separated from these). `None` if more than
    /// `budget` nodes were needed or `deadline` passed (it is asked every
    /// few thousand nodes).
    pub fn best(
        &mut self,
        tiles: Tiles,
        pens: u64,
        budget: u64,
        deadline: &dyn Deadline,
    ) -> Option<u32> {
        if self.memo.len() >= self.memo_limit {
            self.memo.clear();
        }
        self.limit = self.nodes.saturating_add(budget);
        self.aborted = false;
        let free = tiles.present() & !pens;
        // Penguins that share no reachable tile are independent: sum them.
        let mut total = 0;
        let mut left = pens;
        while left != 0 {
            let mut group = left & left.wrapping_neg();
            let mut reach = flood(group, free);
            loop {
                let joined = squares(left & !group)
                    .filter(|p| flood(p.bit(), free) & reach != 0)
                    .fold(0, |m, p| m | p.bit());
                if joined == 0 {
                    break;
                }
                group |= joined;
                reach = flood(group, free);
            }
            left &= !group;
            let region = tiles.within(reach | group);
            total += self.search(region, group, -1, deadline);
            if self.aborted {
                return None;
            }
        }
        Some(total as u32)
    }

    /// Best future points of `pens` on `tiles`; a result at most `alpha` is
    /// only an upper bound, anything above is exact.
    fn search(&mut self, tiles: Tiles, pens: u64, alpha: i32, deadline: &dyn Deadline) -> i32 {
        self.nodes += 1;
        if self.nodes > self.limit || (self.nodes.is_multiple_of(4096) && deadline.passed()) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let free = tiles.present() & !pens;
        let movable = squares(pens)
            .filter(|p| neighbours(p.bit()) & free != 0)
            .fold(0u64, |m, p| m | p.bit());
        if movable == 0 {
            return 0;
        }
        let (lo, hi) = tiles.planes();
        let key = (pens, lo, hi);
        match self.memo.get(&key) {
            Some(&Known::Exact(v)) => return v.into(),
            Some(&Known::AtMost(v)) if i32::from(v) <= alpha => return v.into(),
            _ => {}
        }
        // Collected tiles are the reachable ones, plus the own tile of each
        // penguin that moves, less the tile each such penguin ends on (at
        // least the cheapest reachable). A penguin may never move, so it adds
        // only what its tile is worth above that.
        let reach = flood(movable, free);
        let cheapest = (1..=3).find(|&p| tiles.worth(p) & reach != 0).unwrap_or(3) as i32;
        let own: i32 = squares(movable)
            .map(|p| (tiles.sum(p.bit()) as i32 - cheapest).max(0))
            .sum();
        let bound = if movable.count_ones() == 1 {
            // A lone penguin must move: it surely collects its tile.
            (tiles.sum(movable) + tiles.sum(reach)) as i32 - cheapest
        } else {
            tiles.sum(reach) as i32 + own
        };
        if bound <= alpha {
            return bound;
        }
        // Moves toward squares with the fewest ways on first: such squares
        // are visited now or never, the order that finds long tours soonest.
        let mut moves: Vec<(u32, u64, u64)> = Vec::with_capacity(32);
        for from in squares(movable) {
            for to in squares(queen_moves(from, free)) {
                let onward = (neighbours(to.bit()) & free & !to.bit()).count_ones();
                moves.push((onward, from.bit(), to.bit()));
            }
        }
        moves.sort_unstable_by_key(|m| m.0);
        let mut best = 0;
        for (_, from, to) in moves {
            let gained = tiles.sum(from) as i32;
            let child = tiles.without(from);
            let v =
                gained + self.search(child, pens ^ from ^ to, alpha.max(best) - gained, deadline);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if best >= bound {
                    break;
                }
            }
        }
        let known = if best > alpha {
            Known::Exact(best as u16)
        } else {
            Known::AtMost(best as u16)
        };
        self.remember(key, known);
        best
    }

    /// Stores what a search found, if there is room: a full memo, or one the
    /// allocator will not grow, is cleared instead (it only saves work).
    fn remember(&mut self, key: (u64, u64, u64), known: Known) {
        // Growing doubles the map: ask for that much (40 bytes an entry),
        // with room to spare, before the map asks.
        if self.memo.len() == self.memo.capacity()
            && (self.memo.len() >= self.memo_limit
                || !headroom(self.memo.capacity().max(16) * 80)
                || self.memo.try_reserve(1).is_err())
        {
            self.memo.clear();
            return;
        }
        self.memo.insert(key, known);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::board::Board;
    use crate::games::grid::Square;

    /// Every path, tried the slow way (remembering positions seen).
    fn brute(tiles: Tiles, pens: u64, seen: &mut HashMap<(Tiles, u64), u32>) -> u32 {
        if let Some(&v) = seen.get(&(tiles, pens)) {
            return v;
        }
        let free = tiles.present() & !pens;
        let mut best = 0;
        for from in squares(pens) {
            for to in squares(queen_moves(from, free)) {
                let gained = tiles.sum(from.bit());
                let child = tiles.without(from.bit());
                best = best.max(gained + brute(child, pens ^ from.bit() ^ to.bit(), seen));
            }
        }
        seen.insert((tiles, pens), best);
        best
    }

    #[test]
    fn the_bounded_search_agrees_with_brute_force() {
        let board = Board::new(4, 4).unwrap();
        let mut seed = 12345u64;
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut tiles = Tiles::shuffled(board, seed);
            // Take away some tiles, keep one or two penguins.
            tiles = tiles.without((seed >> 20) & (seed >> 36 | seed >> 44) & board.mask());
            let present: Vec<Square> = squares(tiles.present()).collect();
            if present.len() < 3 {
                continue;
            }
            let a = present[(seed >> 8) as usize % present.len()];
            let b = present[(seed >> 16) as usize % present.len()];
            let pens = if seed & 1 == 0 {
                a.bit()
            } else {
                a.bit() | b.bit()
            };
            let mut solver = RegionSolver::new();
            let want = brute(tiles, pens, &mut HashMap::new());
            assert_eq!(
                solver.best(tiles, pens, u64::MAX, &crate::games::Never),
                Some(want)
            );
        }
    }
}
