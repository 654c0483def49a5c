//! perft: how many move paths of each length there are from a position,
//! the standard check of a move generator. Each legal move (each capture
//! path) counts once; the last ply is counted without being played.
//!
//! Two counters: the plain walk, which measures the generator, and one with
//! a table of subtree counts, since many move orders reach the same position.
//! The table stores whole positions, so a hash collision can never give a
//! wrong count.

use super::movegen;
use super::moves::Move;
use super::position::Position;
use super::rules::Setup;
use super::zobrist;
use crate::games::{Deadline, Never};

/// Why a count stopped short of its number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Short {
    /// More than 128 bits hold.
    Overflow,
    /// The caller said stop (Ctrl-C).
    Stopped,
}

#[derive(Clone, Copy)]
struct Entry {
    pos: Position,
    depth: u32,
    count: u128,
}

/// A perft count: the number, or more than 128 bits can hold (a king
/// position forty plies deep has more paths than `u64` counts).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Count(pub Option<u128>);

impl Count {
    /// The number, if it fits in 128 bits.
    pub fn get(self) -> Option<u128> {
        self.0
    }
}

impl std::fmt::Display for Count {
    /// The number, or a sentence saying it does not fit.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => write!(f, "more than {} (too many to count)", u128::MAX),
        }
    }
}

/// A perft counter.
pub struct Perft {
    forced: bool,
    table: Vec<Option<Entry>>,
}

impl Perft {
    /// A plain counter for games under `rules`: every node is visited.
    pub fn new(rules: Setup) -> Perft {
        Perft {
            forced: rules.captures.forced(),
            table: Vec::new(),
        }
    }

    /// A counter that remembers subtree counts in a table of `2^log2_entries`
    /// entries (32 bytes each): the same counts, many times faster deep down.
    pub fn with_table(rules: Setup, log2_entries: u32) -> Perft {
        Perft {
            forced: rules.captures.forced(),
            table: vec![None; 1 << log2_entries.min(28)],
        }
    }

    /// The number of move paths of length `depth` from `pos`, or `None`
    /// when it is more than 128 bits hold.
    pub fn count(&mut self, pos: &Position, depth: u32) -> Option<u128> {
        self.count_until(pos, depth, &Never).ok()
    }

    /// [`Perft::count`], or `None` when `stop` passed before the count was
    /// whole (it is asked every few hundred leaves).
    pub fn count_stoppable(
        &mut self,
        pos: &Position,
        depth: u32,
        stop: &dyn Deadline,
    ) -> Option<Count> {
        match self.count_until(pos, depth, stop) {
            Ok(n) => Some(Count(Some(n))),
            Err(Short::Overflow) => Some(Count(None)),
            Err(Short::Stopped) => None,
        }
    }

    /// [`Perft::count`], stopping (with `Err`) soon after `stop` passes.
    fn count_until(
        &mut self,
        pos: &Position,
        depth: u32,
        stop: &dyn Deadline,
    ) -> Result<u128, Short> {
        if self.table.is_empty() {
            self.walk(pos, depth, stop)
        } else {
            self.walk_with_table(pos, depth, stop)
        }
    }

    fn walk(&self, pos: &Position, depth: u32, stop: &dyn Deadline) -> Result<u128, Short> {
        match depth {
            0 => Ok(1),
            1 => Ok(movegen::count_moves(pos, self.forced) as u128),
            2 => Ok(movegen::count_grandchildren(pos, self.forced) as u128),
            _ => {
                // Asked at every node three plies from the leaves: hundreds
                // of leaves apart, so a stop is seen at once and costs nothing.
                if stop.passed() {
                    return Err(Short::Stopped);
                }
                let mut n = Ok(0u128);
                movegen::for_each_child(pos, self.forced, |child| {
                    if let Ok(sum) = n {
                        n = self.walk(child, depth - 1, stop).and_then(|c| add(sum, c));
                    }
                });
                n
            }
        }
    }

    fn walk_with_table(
        &mut self,
        pos: &Position,
        depth: u32,
        stop: &dyn Deadline,
    ) -> Result<u128, Short> {
        if depth < 3 {
            return self.walk(pos, depth, stop);
        }
        let slot = (zobrist::key(pos) as usize) & (self.table.len() - 1);
        if let Some(e) = self.table[slot]
            && e.depth == depth
            && e.pos == *pos
        {
            return Ok(e.count);
        }
        if stop.passed() {
            return Err(Short::Stopped);
        }
        let mut n = Ok(0u128);
        movegen::for_each_child(pos, self.forced, |child| {
            if let Ok(sum) = n {
                n = self
                    .walk_with_table(child, depth - 1, stop)
                    .and_then(|c| add(sum, c));
            }
        });
        let count = n?;
        self.table[slot] = Some(Entry {
            pos: *pos,
            depth,
            count,
        });
        Ok(count)
    }

    /// Each legal move with the number of paths of length `depth` that start with it.
    pub fn divide(&mut self, pos: &Position, depth: u32, rules: Setup) -> Vec<(Move, Count)> {
        rules
            .moves(pos)
            .into_iter()
            .map(|m| (m, Count(self.count(&pos.play(&m), depth.saturating_sub(1)))))
            .collect()
    }
}

/// A sum of counts, or [`Short::Overflow`] past 128 bits.
fn add(a: u128, b: u128) -> Result<u128, Short> {
    a.checked_add(b).ok_or(Short::Overflow)
}

/// perft for one depth, with the plain walk.
pub fn perft(pos: &Position, depth: u32, rules: Setup) -> Count {
    Count(Perft::new(rules).count(pos, depth))
}

/// perft for every depth from 1 to `max_depth`, in order: what
/// `tallyho draughts perft DEPTH [FEN]` prints as `perft(D) = N`. Lazy, so a
/// caller can print each line as it comes. Uses a 16 MB table. The first
/// count too big for 128 bits says so and ends the list.
pub fn perft_each(
    pos: Position,
    max_depth: u32,
    rules: Setup,
) -> impl Iterator<Item = (u32, Count)> {
    perft_each_until(pos, max_depth, rules, &Never)
}

/// [`perft_each`], ending early, in the middle of a depth, soon after
/// `stop` passes: the counts it gave are whole, the one it was on is not
/// given. The caller tells a stop from the end by asking `stop`.
pub fn perft_each_until<'a>(
    pos: Position,
    max_depth: u32,
    rules: Setup,
    stop: &'a dyn Deadline,
) -> impl Iterator<Item = (u32, Count)> + 'a {
    let mut counter = Perft::with_table(rules, 19);
    let mut over = false;
    (1..=max_depth).map_while(move |d| {
        if over {
            return None;
        }
        let n = match counter.count_until(&pos, d, stop) {
            Ok(n) => Some(n),
            Err(Short::Overflow) => None,
            Err(Short::Stopped) => return None,
        };
        over = n.is_none();
        Some((d, Count(n)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: [u64; 7] = [7, 49, 302, 1469, 7361, 36768, 179740];

    #[test]
    fn start_counts_match_the_published_ones() {
        let counts: Vec<u128> = perft_each(Position::START, 7, Setup::STANDARD)
            .filter_map(|(_, n)| n.get())
            .collect();
        assert_eq!(counts, START.map(u128::from));
        let mut plain = Perft::new(Setup::STANDARD);
        for (d, &n) in START.iter().enumerate() {
            assert_eq!(plain.count(&Position::START, d as u32 + 1), Some(n as u128));
        }
    }

    #[test]
    fn a_stop_ends_the_counting_within_a_depth() {
        struct After(std::cell::Cell<u32>);
        impl Deadline for After {
            fn passed(&self) -> bool {
                let left = self.0.get();
                self.0.set(left.saturating_sub(1));
                left == 0
            }
        }
        // Asked a few hundred times, then stopped: depth 12 is never given.
        let stop = After(std::cell::Cell::new(300));
        let counts: Vec<(u32, Count)> =
            perft_each_until(Position::START, 12, Setup::STANDARD, &stop).collect();
        assert!(!counts.is_empty() && counts.len() < 12, "{counts:?}");
        for (d, n) in &counts {
            assert_eq!(*n, perft(&Position::START, *d, Setup::STANDARD));
        }
        assert!(stop.passed());
    }

    #[test]
    fn two_kings_count_past_64_bits() {
        let pos = crate::games::draughts::fen::parse("W:WK1:BK32").unwrap();
        let counts: Vec<Count> = perft_each(pos, 40, Setup::STANDARD)
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        let n39 = counts[38].get().unwrap();
        let n40 = counts[39].get().unwrap();
        assert!(n40 > u64::MAX as u128, "{n40}");
        assert!(n40 > n39);
        assert_eq!(
            Count(None).to_string(),
            format!("more than {} (too many to count)", u128::MAX)
        );
    }
}
