//! The transposition table: what a search learnt about a position (a score
//! bound, the depth it came from, the best move), kept by Zobrist key so a
//! position reached again by another order is not searched twice.

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// The score is at least this (the search failed high).
    Lower,
    /// The score is at most this (every move failed low).
    Upper,
}

/// One remembered search result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The full key, to tell positions sharing a slot apart.
    pub key: u64,
    /// The score, with win distances counted from this position.
    pub score: i16,
    /// How deep the search below it went.
    pub depth: i8,
    pub bound: Bound,
    /// Where the best move stands in the generator's list for the position.
    pub best: u8,
}

/// No best move known.
pub const NO_MOVE: u8 = u8::MAX;

/// A table of `2^bits` slots; a new result replaces an old one unless the
/// old came from a deeper search of the same position.
pub struct Table {
    slots: Vec<Option<Entry>>,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![None; 1 << bits.clamp(4, 28)],
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry for this key, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores a result.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let i = self.slot(entry.key);
        if let Some(old) = self.slots[i]
            && old.key == entry.key
            && old.depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        self.slots[i] = Some(entry);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }
}
