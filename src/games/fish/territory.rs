//! Territory: which free tiles each side reaches first, counting queen
//! moves over free tiles, the search's estimate of what is still to come.

use super::board::Tiles;
use super::geometry::queen_moves_of_set;

/// The free tiles split by who reaches them first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Territory {
    /// Tiles each side (`P` then `A`) reaches in fewer moves than the other.
    pub first: [u64; 2],
    /// Tiles both reach in the same number of moves.
    pub tied: u64,
}

impl Territory {
    /// Breadth-first in queen moves from each side's penguins at once: a
    /// layer is one occluded fill of the whole frontier, so the cost grows
    /// with the distance, not with the number of tiles.
    pub fn of(penguins: [u64; 2], free: u64) -> Territory {
        let mut seen = [0u64; 2];
        let mut frontier = penguins;
        let mut out = Territory::default();
        while frontier[0] | frontier[1] != 0 {
            let next = [0, 1].map(|s| queen_moves_of_set(frontier[s], free) & !seen[s]);
            let unclaimed = !(seen[0] | seen[1]);
            out.first[0] |= next[0] & !next[1] & unclaimed;
            out.first[1] |= next[1] & !next[0] & unclaimed;
            out.tied |= next[0] & next[1] & unclaimed;
            seen[0] |= next[0];
            seen[1] |= next[1];
            frontier = next;
        }
        out
    }

    /// Points of each side's territory, `P` then `A`, and of the tied tiles.
    pub fn points(&self, tiles: Tiles) -> ([u32; 2], u32) {
        (
            [tiles.sum(self.first[0]), tiles.sum(self.first[1])],
            tiles.sum(self.tied),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::grid::Square;

    #[test]
    fn a_line_splits_at_the_middle() {
        // One row of six free tiles between two penguins on columns 0 and 7.
        let free = (1..7).fold(0u64, |m, c| m | Square::new(c, 0).bit());
        let p = Square::new(0, 0).bit();
        let a = Square::new(7, 0).bit();
        let t = Territory::of([p, a], free);
        // Everything is one queen move from both: all tied.
        assert_eq!(t.tied, free);
        // Block the middle: each side owns its half.
        let cut = free & !Square::new(4, 0).bit();
        let t = Territory::of([p, a], cut);
        assert_eq!(t.first[0], cut & 0b1110);
        assert_eq!(t.first[1], cut & 0b0110_0000);
    }
}
