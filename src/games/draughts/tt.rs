//! The transposition table: what a search learnt about a position (a score
//! bound, the depth it came from, the best move), kept by Zobrist key so a
//! position reached again by another order is not searched twice.

use std::sync::atomic::{AtomicU64, Ordering};

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
    /// Whether the score is exact, a lower bound or an upper bound.
    pub bound: Bound,
    /// Where the best move stands in the generator's list for the position.
    pub best: u8,
}

/// No best move known.
pub const NO_MOVE: u8 = u8::MAX;

/// A table of `2^bits` slots; a new result replaces an old one unless the
/// old came from a deeper search of the same position.
///
/// Search threads share one table without locks: a slot holds the entry's
/// data and its key xored with that data, so an entry torn by two threads
/// writing at once fails the key check and reads as absent.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
}

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.score as u16 as u64)
            | ((self.depth as u8 as u64) << 16)
            | (bound << 24)
            | ((self.best as u64) << 32)
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            score: data as u16 as i16,
            depth: (data >> 16) as u8 as i8,
            bound: match (data >> 24) as u8 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (data >> 32) as u8,
        }
    }
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits.clamp(4, 28))
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// The entry for this key, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [k, d] = self.slot(key);
        let data = d.load(Ordering::Relaxed);
        let check = k.load(Ordering::Relaxed);
        // An empty slot (both zero) matches only the key 0 with data 0,
        // which is no real entry (its depth would be 0 with an exact score
        // of 0 and best move 0): accept it as harmless.
        (check ^ data == key).then(|| Entry::unpack(key, data))
    }

    /// Stores a result.
    #[inline]
    pub fn store(&self, entry: Entry) {
        let slot = self.slot(entry.key);
        if let Some(old) = self.probe(entry.key)
            && old.depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        let data = entry.pack();
        slot[1].store(data, Ordering::Relaxed);
        slot[0].store(entry.key ^ data, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [k, d] in &self.slots {
            k.store(0, Ordering::Relaxed);
            d.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_whole() {
        let t = Table::new(8);
        let e = Entry {
            key: 0xdead_beef_1234_5678,
            score: -29_950,
            depth: 5,
            bound: Bound::Upper,
            best: 17,
        };
        assert_eq!(t.probe(e.key), None);
        t.store(e);
        assert_eq!(t.probe(e.key), Some(e));
        assert_eq!(t.probe(e.key ^ 1 << 40), None);
        // A shallower bound does not replace a deeper result.
        t.store(Entry {
            depth: 2,
            score: 5,
            bound: Bound::Lower,
            ..e
        });
        assert_eq!(t.probe(e.key), Some(e));
        t.clear();
        assert_eq!(t.probe(e.key), None);
    }
}
