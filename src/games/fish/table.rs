//! The transposition table: values of positions already searched, keyed by
//! everything that decides the rest of the game (never the points so far,
//! since the search values only the points still to come).

use super::node::{Node, Step};

/// How a stored value relates to the true one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value itself (at its depth).
    Exact,
    /// At least this.
    Lower,
    /// At most this.
    Upper,
}

/// The draft of a value found without any estimate below it: good at any depth.
pub const PROVEN: u8 = u8::MAX;

/// One stored position.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: [u64; 4],
    meta: u16,
    /// The value, from the side to move's view, in points still to come.
    pub value: i16,
    /// The depth searched below it, or [`PROVEN`].
    pub draft: u8,
    /// Exact value or a bound.
    pub bound: Bound,
    /// The best move found, packed; 0 for none.
    pub best: u16,
}

const EMPTY: Entry = Entry {
    key: [0; 4],
    meta: 0,
    value: 0,
    draft: 0,
    bound: Bound::Exact,
    best: 0,
};

/// The key of a node: the two point planes of the tiles (which also say
/// which tiles remain), both sides' penguins, and a word holding the side to
/// move, the placements left and a bit that tells a used slot from an empty one.
fn key_of(node: &Node) -> ([u64; 4], u16) {
    let (lo, hi) = node.tiles.planes();
    let meta = 0x8000
        | node.side as u16
        | u16::from(node.to_place[0]) << 1
        | u16::from(node.to_place[1]) << 5;
    ([lo, hi, node.pens[0], node.pens[1]], meta)
}

/// Mixes a key into a table index.
fn hash(key: &[u64; 4], meta: u16) -> u64 {
    let mut h = u64::from(meta).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &k in key {
        h = (h ^ k).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 32;
    }
    h
}

/// A table of two-slot buckets: the first slot keeps the deeper search, the
/// second always takes the newest.
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` buckets.
    pub fn new(bits: u32) -> Table {
        let buckets = 1usize << bits;
        Table {
            slots: vec![EMPTY; 2 * buckets],
            mask: buckets - 1,
        }
    }

    fn bucket(&self, key: &[u64; 4], meta: u16) -> usize {
        2 * (hash(key, meta) as usize & self.mask)
    }

    /// What is stored for `node`, if anything.
    pub fn probe(&self, node: &Node) -> Option<Entry> {
        let (key, meta) = key_of(node);
        let b = self.bucket(&key, meta);
        self.slots[b..b + 2]
            .iter()
            .find(|e| e.meta == meta && e.key == key)
            .copied()
    }

    /// Stores a result for `node`.
    pub fn store(&mut self, node: &Node, value: i32, draft: u8, bound: Bound, best: Option<Step>) {
        let (key, meta) = key_of(node);
        let b = self.bucket(&key, meta);
        let entry = Entry {
            key,
            meta,
            value: value.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            draft,
            bound,
            best: best.map_or(0, Step::packed),
        };
        let deep = &mut self.slots[b];
        if deep.meta == 0 || draft >= deep.draft || (deep.key == key && deep.meta == meta) {
            *deep = entry;
        } else {
            self.slots[b + 1] = entry;
        }
    }
}
