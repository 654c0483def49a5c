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

/// One stored position, unpacked.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The value, from the side to move's view, in points still to come.
    pub value: i16,
    /// The depth searched below it, or [`PROVEN`].
    pub draft: u8,
    /// Exact value or a bound.
    pub bound: Bound,
    /// The best move found, packed; 0 for none.
    pub best: u16,
}

/// Two independent 64-bit hashes of everything that decides the rest of the
/// game: the two point planes of the tiles (which also say which tiles
/// remain), both sides' penguins, the side to move and the placements left.
/// The first picks the bucket, the second is stored to recognise the
/// position: a false match needs both to collide, about once in 2^64 probes.
fn hashes(node: &Node) -> (u64, u64) {
    let (lo, hi) = node.tiles.planes();
    let meta =
        node.side as u64 | u64::from(node.to_place[0]) << 1 | u64::from(node.to_place[1]) << 5;
    let mix = |seed: u64, mult: u64| {
        [lo, hi, node.pens[0], node.pens[1], meta]
            .iter()
            .fold(seed, |h, &k| {
                let h = (h ^ k).wrapping_mul(mult);
                h ^ (h >> 29)
            })
    };
    (
        mix(0x243F_6A88_85A3_08D3, 0xFF51_AFD7_ED55_8CCD),
        // Never 0: 0 marks an empty slot.
        mix(0x1319_8A2E_0370_7344, 0xC4CE_B9FE_1A85_EC53) | 1,
    )
}

fn pack(e: Entry) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    u64::from(e.value as u16) | u64::from(e.best) << 16 | u64::from(e.draft) << 32 | bound << 40
}

fn unpack(word: u64) -> Entry {
    Entry {
        value: word as u16 as i16,
        best: (word >> 16) as u16,
        draft: (word >> 32) as u8,
        bound: match (word >> 40) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

/// A table of two-slot buckets, 16 bytes a slot: the first slot keeps the
/// deeper search, the second always takes the newest.
pub struct Table {
    // Each slot is [signature, packed entry]; all zeros is empty.
    slots: Vec<[u64; 2]>,
    mask: usize,
}

/// The smallest table: 2^10 buckets, 32 KB.
pub const MIN_BITS: u32 = 10;
/// The largest: 2^26 buckets, 2 GB.
pub const MAX_BITS: u32 = 26;

impl Table {
    /// A table of `2^bits` buckets (`32 << bits` bytes), or as many fewer
    /// halvings as the machine can give (see [`Table::within`]).
    pub fn new(bits: u32) -> Table {
        Table::within(32usize << bits.clamp(MIN_BITS, MAX_BITS))
    }

    /// The largest table of at most `bytes` (at least the smallest) that
    /// the allocator grants: each size is asked for fallibly, and a refusal
    /// halves it, so a short machine gets a smaller table, never an abort.
    /// The smallest table is asked for like any small allocation.
    pub fn within(bytes: usize) -> Table {
        let mut bits = (bytes / 32).max(1).ilog2().clamp(MIN_BITS, MAX_BITS);
        loop {
            let buckets = 1usize << bits;
            let mut slots: Vec<[u64; 2]> = Vec::new();
            if bits == MIN_BITS
                || (headroom(16 * 2 * buckets) && slots.try_reserve_exact(2 * buckets).is_ok())
            {
                slots.resize(2 * buckets, [0, 0]);
                return Table {
                    slots,
                    mask: buckets - 1,
                };
            }
            bits -= 1;
        }
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// What is stored for `node`, if anything.
    pub fn probe(&self, node: &Node) -> Option<Entry> {
        let (index, signature) = hashes(node);
        let b = 2 * (index as usize & self.mask);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s[0] == signature)
            .map(|s| unpack(s[1]))
    }

    /// Stores a result for `node`.
    pub fn store(&mut self, node: &Node, value: i32, draft: u8, bound: Bound, best: Option<Step>) {
        let (index, signature) = hashes(node);
        let b = 2 * (index as usize & self.mask);
        let entry = Entry {
            value: value.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            draft,
            bound,
            best: best.map_or(0, Step::packed),
        };
        let slot = [signature, pack(entry)];
        let deep = self.slots[b];
        if deep[0] == 0 || deep[0] == signature || draft >= unpack(deep[1]).draft {
            self.slots[b] = slot;
        } else {
            self.slots[b + 1] = slot;
        }
    }
}

/// Bytes left free beside a large allocation, for the small ones that
/// follow (which abort if refused): 16 MB.
pub const HEADROOM: usize = 16 << 20;

/// Whether the allocator grants `bytes` and [`HEADROOM`] more. The probe is
/// freed at once: the caller then asks for `bytes`, fallibly too.
pub fn headroom(bytes: usize) -> bool {
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes.saturating_add(HEADROOM))
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_fits_its_budget_and_never_falls_below_the_smallest() {
        assert_eq!(Table::within(1 << 20).bytes(), 1 << 20);
        assert_eq!(Table::within(3 << 20).bytes(), 2 << 20);
        assert_eq!(Table::within(0).bytes(), 32 << MIN_BITS);
        assert_eq!(Table::new(12).bytes(), 32 << 12);
    }
}
