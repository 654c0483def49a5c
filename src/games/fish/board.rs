//! The board and its tiles: sizes from 4x4 to 8x8, the points of every tile
//! (the assignment's rings, or a random deal from a seed), and sums of points.

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use crate::games::grid::{Size, Square};

pub use crate::games::grid::{GRID as MAX_SIDE, MIN_SIDE, SizeError as BoardError};

/// A board size, 4x4 to 8x8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    size: Size,
}

impl Board {
    /// The assignment's board.
    pub const STANDARD: Board = Board {
        size: match Size::new(6, 6) {
            Some(size) => size,
            None => panic!("6x6 fits the grid"),
        },
    };

    /// A board `width` columns wide and `height` rows high.
    pub fn new(width: u8, height: u8) -> Result<Board, BoardError> {
        Size::playing(width, height).map(|size| Board { size })
    }

    /// A board of the size counted in some text, however large.
    pub fn counted(width: usize, height: usize) -> Result<Board, BoardError> {
        let side = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        Size::playing(side(width), side(height)).map(|size| Board { size })
    }

    /// Number of columns.
    pub fn width(self) -> u8 {
        self.size.width()
    }

    /// Number of rows.
    pub fn height(self) -> u8 {
        self.size.height()
    }

    /// The board as a plain grid size.
    pub fn size(self) -> Size {
        self.size
    }

    /// Whether a square lies on this board.
    pub fn contains(self, sq: Square) -> bool {
        self.size.contains(sq)
    }

    /// Every square of the board as a mask.
    pub fn mask(self) -> u64 {
        self.squares().fold(0, |m, sq| m | sq.bit())
    }

    /// Every square, row 1 (the top) first, left to right.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        self.size.squares()
    }

    /// Number of squares.
    pub fn area(self) -> u32 {
        u32::from(self.width()) * u32::from(self.height())
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::STANDARD
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width(), self.height())
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        Size::parse_playing(text).map(|size| Board { size })
    }
}

/// How the tiles' points are chosen.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Deal {
    /// The assignment's pattern: 1 on the rim, 2 on the next ring, 3 inside.
    #[default]
    Rings,
    /// Points 1-3 shuffled from a seed, in the board game's proportions.
    Random {
        /// The shuffle's seed.
        seed: u64,
    },
}

impl Deal {
    /// The name on the command line and in the log: `rings` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Deal::Rings => "rings",
            Deal::Random { .. } => "random",
        }
    }
}

/// The points of the tiles still on the board: 1 to 3 each, none where taken.
///
/// Two bit planes: `lo` holds the squares worth 1 or 3, `hi` those worth
/// 2 or 3, so a square with neither has no tile.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Tiles {
    lo: u64,
    hi: u64,
}

impl Tiles {
    /// The tiles of a fresh board.
    pub fn deal(board: Board, deal: Deal) -> Tiles {
        match deal {
            Deal::Rings => Tiles::rings(board),
            Deal::Random { seed } => Tiles::shuffled(board, seed),
        }
    }

    /// The ring pattern: a square's ring is its distance to the nearest
    /// edge; ring 0 is worth 1, ring 1 is worth 2, deeper rings 3.
    pub fn rings(board: Board) -> Tiles {
        let (w, h) = (board.width(), board.height());
        board.squares().fold(Tiles::default(), |tiles, sq| {
            let (c, r) = (sq.col(), sq.row());
            let ring = c.min(r).min(w - 1 - c).min(h - 1 - r);
            tiles.with(sq, (ring + 1).min(3))
        })
    }

    /// A random deal. The board game has 30 one-point, 20 two-point and 10
    /// three-point tiles; this keeps those proportions (rounding down the
    /// twos and threes), so at least half the tiles are worth 1 and there is
    /// always room for every penguin to start.
    pub fn shuffled(board: Board, seed: u64) -> Tiles {
        let n = board.area() as usize;
        let threes = n / 6;
        let twos = n / 3;
        let mut deck: Vec<u8> = std::iter::repeat_n(3, threes)
            .chain(std::iter::repeat_n(2, twos))
            .chain(std::iter::repeat_n(1, n - threes - twos))
            .collect();
        deck.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        board
            .squares()
            .zip(deck)
            .fold(Tiles::default(), |tiles, (sq, p)| tiles.with(sq, p))
    }

    /// These tiles with `sq` worth `points` (0 takes the tile away).
    pub fn with(self, sq: Square, points: u8) -> Tiles {
        let bit = sq.bit();
        let (lo, hi) = (self.lo & !bit, self.hi & !bit);
        Tiles {
            lo: if points & 1 != 0 { lo | bit } else { lo },
            hi: if points & 2 != 0 { hi | bit } else { hi },
        }
    }

    /// These tiles without the squares of `mask`.
    pub fn without(self, mask: u64) -> Tiles {
        Tiles {
            lo: self.lo & !mask,
            hi: self.hi & !mask,
        }
    }

    /// Only the tiles on the squares of `mask`.
    pub fn within(self, mask: u64) -> Tiles {
        Tiles {
            lo: self.lo & mask,
            hi: self.hi & mask,
        }
    }

    /// The points of the tile on `sq`, 0 if it is taken.
    pub fn points(self, sq: Square) -> u8 {
        let lo = (self.lo >> sq.index()) & 1;
        let hi = (self.hi >> sq.index()) & 1;
        (lo + 2 * hi) as u8
    }

    /// The squares that still hold a tile.
    pub fn present(self) -> u64 {
        self.lo | self.hi
    }

    /// The squares holding a tile worth exactly `points`.
    pub fn worth(self, points: u8) -> u64 {
        match points {
            1 => self.lo & !self.hi,
            2 => self.hi & !self.lo,
            3 => self.lo & self.hi,
            _ => 0,
        }
    }

    /// The sum of the points on the squares of `mask`.
    pub fn sum(self, mask: u64) -> u32 {
        (self.lo & mask).count_ones() + 2 * (self.hi & mask).count_ones()
    }

    /// The sum of every tile's points.
    pub fn total(self) -> u32 {
        self.sum(!0)
    }

    /// Tiles from their two planes (see [`Tiles::planes`]).
    pub fn from_planes(lo: u64, hi: u64) -> Tiles {
        Tiles { lo, hi }
    }

    /// The two planes, for hashing: the squares worth 1 or 3, and 2 or 3.
    pub fn planes(self) -> (u64, u64) {
        (self.lo, self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(board: Board, tiles: Tiles) -> Vec<String> {
        (0..board.height())
            .map(|r| {
                (0..board.width())
                    .map(|c| char::from(b'0' + tiles.points(Square::new(c, r))))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_standard_rings_are_the_assignments_board() {
        let tiles = Tiles::rings(Board::STANDARD);
        assert_eq!(
            rows(Board::STANDARD, tiles),
            ["111111", "122221", "123321", "123321", "122221", "111111"]
        );
        assert_eq!(tiles.total(), 20 + 24 + 12);
    }

    #[test]
    fn rings_generalise_and_cap_at_three() {
        let b = Board::new(8, 5).unwrap();
        assert_eq!(
            rows(b, Tiles::rings(b)),
            ["11111111", "12222221", "12333321", "12222221", "11111111"]
        );
        let b = Board::new(4, 4).unwrap();
        assert_eq!(rows(b, Tiles::rings(b)), ["1111", "1221", "1221", "1111"]);
    }

    #[test]
    fn a_random_deal_keeps_the_proportions_and_repeats_with_its_seed() {
        let b = Board::STANDARD;
        let t = Tiles::shuffled(b, 7);
        assert_eq!(t, Tiles::shuffled(b, 7));
        assert_ne!(t, Tiles::shuffled(b, 8));
        assert_eq!(t.worth(3).count_ones(), 6);
        assert_eq!(t.worth(2).count_ones(), 12);
        assert_eq!(t.worth(1).count_ones(), 18);
        assert_eq!(t.present(), b.mask());
    }

    #[test]
    fn board_sizes_parse_with_precise_errors() {
        assert_eq!("5x7".parse::<Board>().unwrap().to_string(), "5x7");
        let err = |t: &str| t.parse::<Board>().unwrap_err().to_string();
        assert_eq!(
            err("3x6"),
            "a board 3 squares wide is not supported: the width must be 4 to 8"
        );
        assert_eq!(
            err("9x300"),
            "9x300 is not a supported board: the width and the height must each be 4 to 8"
        );
        assert_eq!(
            err("six"),
            "\"six\" is not a board size: write WIDTHxHEIGHT, like 8x8 or 6x6"
        );
    }
}
