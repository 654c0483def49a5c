//! The transposition table: what a search learnt about a position (a score
//! bound, the depth it came from, the best move), kept by Zobrist key so a
//! position reached again by another order is not searched twice.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

/// A table of `2^bits` entries in buckets of two. The first entry of a
/// bucket keeps the deepest result of the current search (or of an older
/// one until a result of this search comes along); the second takes every
/// other result, so that shallow results near the leaves, which come in
/// their millions, cannot push out the deep ones near the root, and the
/// deep ones of earlier moves give way once they are stale.
///
/// Search threads share one table without locks: an entry holds its data
/// and its key xored with that data, so an entry torn by two threads
/// writing at once fails the key check and reads as absent.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    /// Which search is storing: each search's entries carry it, and the
    /// first entry of a bucket gives way to any result once it is stale.
    generation: AtomicU8,
}

impl Entry {
    fn pack(&self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.score as u16 as u64)
            | ((self.depth as u8 as u64) << 16)
            | (bound << 24)
            | ((self.best as u64) << 32)
            | ((generation as u64) << 40)
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            score: data as u16 as i16,
            depth: depth_of(data),
            bound: match (data >> 24) as u8 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (data >> 32) as u8,
        }
    }
}

fn depth_of(data: u64) -> i8 {
    (data >> 16) as u8 as i8
}

fn generation_of(data: u64) -> u8 {
    (data >> 40) as u8
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits.clamp(4, 28))
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            // Empty entries belong to generation 0, so they read as stale.
            generation: AtomicU8::new(1),
        }
    }

    /// The table's size: `2^bits` entries.
    pub fn bits(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }

    /// The two entries of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let at = (key as usize) & (self.slots.len() - 2);
        &self.slots[at..at + 2]
    }

    /// Marks what is stored so far as from an earlier search: call it as
    /// a new search begins.
    pub fn next_search(&self) {
        let next = self
            .generation
            .load(Ordering::Relaxed)
            .wrapping_add(1)
            .max(1);
        self.generation.store(next, Ordering::Relaxed);
    }

    /// The entry for this key, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|[k, d]| {
            let data = d.load(Ordering::Relaxed);
            // An empty entry (both zero) matches only the key 0 with data
            // 0, which is no real entry (its depth would be 0 with an exact
            // score of 0 and best move 0): accept it as harmless.
            (k.load(Ordering::Relaxed) ^ data == key).then(|| Entry::unpack(key, data))
        })
    }

    /// Stores a result.
    #[inline]
    pub fn store(&self, entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let [deep, other] = self.bucket(entry.key) else {
            return;
        };
        let deep_data = deep[1].load(Ordering::Relaxed);
        let deep_key = deep[0].load(Ordering::Relaxed) ^ deep_data;
        let data = entry.pack(generation);
        let write = |slot: &[AtomicU64; 2], key: u64, data: u64| {
            slot[1].store(data, Ordering::Relaxed);
            slot[0].store(key ^ data, Ordering::Relaxed);
        };
        if deep_key == entry.key {
            // The same position: a shallower bound does not replace a
            // deeper result.
            if depth_of(deep_data) <= entry.depth || entry.bound == Bound::Exact {
                write(deep, entry.key, data);
            }
        } else if generation_of(deep_data) != generation || depth_of(deep_data) <= entry.depth {
            // The deep entry moves down to the other place.
            write(other, deep_key, deep_data);
            write(deep, entry.key, data);
        } else {
            write(other, entry.key, data);
        }
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

    /// Entries whose keys share a bucket with `key` in a table of 2^8.
    fn neighbours(key: u64, count: u64) -> impl Iterator<Item = Entry> {
        (1..=count).map(move |i| Entry {
            key: key ^ (i << 20),
            score: i as i16,
            depth: 1,
            bound: Bound::Lower,
            best: 0,
        })
    }

    #[test]
    fn a_deep_result_outlives_shallow_ones_until_a_later_search() {
        let t = Table::new(8);
        let deep = Entry {
            key: 0x0123_4567_89ab_cdef,
            score: 40,
            depth: 12,
            bound: Bound::Exact,
            best: 3,
        };
        t.store(deep);
        // A thousand shallow results of other positions in the same
        // bucket: each takes the second place, the deep one stays.
        for e in neighbours(deep.key, 1000) {
            t.store(e);
            assert_eq!(t.probe(e.key), Some(e));
        }
        assert_eq!(t.probe(deep.key), Some(deep));
        let last = neighbours(deep.key, 1000).last().unwrap();
        // Within the same search a deeper result of another position
        // takes the first place and the old one moves to the second.
        let deeper = Entry {
            key: deep.key ^ (5000 << 20),
            depth: 13,
            ..deep
        };
        t.store(deeper);
        assert_eq!(t.probe(deeper.key), Some(deeper));
        assert_eq!(t.probe(deep.key), Some(deep));
        assert_eq!(t.probe(last.key), None);
        // In the next search the deep result is stale: the first shallow
        // result of another position takes its place and the second
        // shallow one pushes it out.
        t.next_search();
        let mut fresh = neighbours(deep.key ^ (9000 << 20), 2);
        let (a, b) = (fresh.next().unwrap(), fresh.next().unwrap());
        t.store(a);
        assert_eq!(t.probe(a.key), Some(a));
        assert_eq!(t.probe(deeper.key), Some(deeper));
        assert_eq!(t.probe(deep.key), None);
        t.store(b);
        assert_eq!(t.probe(b.key), Some(b));
        assert_eq!(t.probe(a.key), Some(a));
        assert_eq!(t.probe(deeper.key), None);
    }
}
