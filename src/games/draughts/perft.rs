//! perft: how many move paths of each length there are from a position,
//! the standard check of a move generator. Each legal move (each capture
//! path) counts once; the last ply is counted without being played.

use super::movegen;
use super::moves::Move;
use super::position::Position;
use super::rules::Draughts;

/// A perft counter with move lists reused from call to call.
pub struct Perft {
    forced: bool,
    lists: Vec<Vec<Move>>,
}

impl Perft {
    /// A counter for games under `rules`.
    pub fn new(rules: Draughts) -> Perft {
        Perft {
            forced: rules.captures.forced(),
            lists: Vec::new(),
        }
    }

    /// The number of move paths of length `depth` from `pos`.
    pub fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        self.walk(pos, depth, 0)
    }

    fn walk(&mut self, pos: &Position, depth: u32, ply: usize) -> u64 {
        match depth {
            0 => 1,
            1 => movegen::count_moves(pos, self.forced),
            _ => {
                if self.lists.len() <= ply {
                    self.lists.resize_with(ply + 1, || Vec::with_capacity(32));
                }
                let mut list = std::mem::take(&mut self.lists[ply]);
                list.clear();
                movegen::generate(pos, self.forced, &mut list);
                let mut n = 0;
                for mv in &list {
                    n += self.walk(&pos.play(mv), depth - 1, ply + 1);
                }
                self.lists[ply] = list;
                n
            }
        }
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

/// perft for one depth.
pub fn perft(pos: &Position, depth: u32, rules: Draughts) -> u64 {
    Perft::new(rules).count(pos, depth)
}

/// perft for every depth from 1 to `max_depth`, in order: what
/// `tallyho draughts perft DEPTH [FEN]` prints as `perft(D) = N`. Lazy, so a
/// caller can print each line as it comes.
pub fn perft_each(
    pos: Position,
    max_depth: u32,
    rules: Draughts,
) -> impl Iterator<Item = (u32, u64)> {
    let mut counter = Perft::new(rules);
    (1..=max_depth).map(move |d| (d, counter.count(&pos, d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_counts_match_the_published_ones() {
        let counts: Vec<u64> = perft_each(Position::START, 7, Draughts::STANDARD)
            .map(|(_, n)| n)
            .collect();
        assert_eq!(counts, [7, 49, 302, 1469, 7361, 36768, 179740]);
    }
}
