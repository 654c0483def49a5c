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
use super::rules::Draughts;
use super::zobrist;

#[derive(Clone, Copy)]
struct Entry {
    pos: Position,
    depth: u32,
    count: u64,
}

/// A perft counter.
pub struct Perft {
    forced: bool,
    table: Vec<Option<Entry>>,
}

impl Perft {
    /// A plain counter for games under `rules`: every node is visited.
    pub fn new(rules: Draughts) -> Perft {
        Perft {
            forced: rules.captures.forced(),
            table: Vec::new(),
        }
    }

    /// A counter that remembers subtree counts in a table of `2^log2_entries`
    /// entries (32 bytes each): the same counts, many times faster deep down.
    pub fn with_table(rules: Draughts, log2_entries: u32) -> Perft {
        Perft {
            forced: rules.captures.forced(),
            table: vec![None; 1 << log2_entries.min(28)],
        }
    }

    /// The number of move paths of length `depth` from `pos`.
    pub fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        if self.table.is_empty() {
            self.walk(pos, depth)
        } else {
            self.walk_with_table(pos, depth)
        }
    }

    fn walk(&self, pos: &Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => movegen::count_moves(pos, self.forced),
            2 => movegen::count_grandchildren(pos, self.forced),
            _ => {
                let mut n = 0;
                movegen::for_each_child(pos, self.forced, |child| {
                    n += self.walk(child, depth - 1);
                });
                n
            }
        }
    }

    fn walk_with_table(&mut self, pos: &Position, depth: u32) -> u64 {
        if depth < 3 {
            return self.walk(pos, depth);
        }
        let slot = (zobrist::key(pos) as usize) & (self.table.len() - 1);
        if let Some(e) = self.table[slot]
            && e.depth == depth
            && e.pos == *pos
        {
            return e.count;
        }
        let mut n = 0;
        movegen::for_each_child(pos, self.forced, |child| {
            n += self.walk_with_table(child, depth - 1);
        });
        self.table[slot] = Some(Entry {
            pos: *pos,
            depth,
            count: n,
        });
        n
    }

    /// Each legal move with the number of paths of length `depth` that start with it.
    pub fn divide(&mut self, pos: &Position, depth: u32, rules: Draughts) -> Vec<(Move, u64)> {
        rules
            .moves(pos)
            .into_iter()
            .map(|m| (m, self.count(&pos.play(&m), depth.saturating_sub(1))))
            .collect()
    }
}

/// perft for one depth, with the plain walk.
pub fn perft(pos: &Position, depth: u32, rules: Draughts) -> u64 {
    Perft::new(rules).count(pos, depth)
}

/// perft for every depth from 1 to `max_depth`, in order: what
/// `tallyho draughts perft DEPTH [FEN]` prints as `perft(D) = N`. Lazy, so a
/// caller can print each line as it comes. Uses a 16 MB table.
pub fn perft_each(
    pos: Position,
    max_depth: u32,
    rules: Draughts,
) -> impl Iterator<Item = (u32, u64)> {
    let mut counter = Perft::with_table(rules, 19);
    (1..=max_depth).map(move |d| (d, counter.count(&pos, d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: [u64; 7] = [7, 49, 302, 1469, 7361, 36768, 179740];

    #[test]
    fn start_counts_match_the_published_ones() {
        let counts: Vec<u64> = perft_each(Position::START, 7, Draughts::STANDARD)
            .map(|(_, n)| n)
            .collect();
        assert_eq!(counts, START);
        let mut plain = Perft::new(Draughts::STANDARD);
        for (d, &n) in START.iter().enumerate() {
            assert_eq!(plain.count(&Position::START, d as u32 + 1), n);
        }
    }
}
