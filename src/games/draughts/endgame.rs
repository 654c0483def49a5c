//! The endgame database: the exact value (win, loss or draw, and in how many
//! plies) of every position with few pieces, by retrograde analysis. Built in
//! memory on first use; `to_bytes`/`from_bytes` let the shell keep it on disk.
//!
//! Positions are stored with Black to move only: a position with White to
//! move is looked up turned half round with the colours swapped. A slice
//! holds one material balance (black men, black kings, white men, white
//! kings); each side's men and kings are numbered as sets of squares
//! (combinatorial number system), so a slice is a plain array of bytes.
//!
//! Values count plies to the end of the game under perfect play: the winner
//! wins as fast as it can, the loser holds out as long as it can. The draw
//! rules (repetition, forty moves) are not part of the values. With five
//! pieces a winning line can run some sixty plies before its first capture,
//! so a win or a loss is only sure where it ends before the forty-move
//! count could draw the game ([`Exact::stands_after`]).

use std::fmt;

use super::bitboard::{Bits, Dir, indices, step};
use super::movegen;
use super::moves::Move;
use super::position::{Position, Side};
use super::rules::{Captures, QUIET_PLIES_FOR_DRAW, Setup};

/// The most pieces [`Endgame::build`] covers: four, built in memory in a
/// few seconds wherever an engine needs one.
pub const MAX_PIECES: u32 = 4;
/// The database built on first use and kept on disk by the shell: five
/// pieces take 187 million entries, a byte each, and minutes to build.
pub const STORED_PIECES: u32 = 5;
/// The most pieces any database covers ([`Endgame::build_with_progress`]):
/// six take 3.7 billion entries, built only when asked for
/// (`tallyho draughts build-db --pieces 6`).
pub const LARGEST_PIECES: u32 = 6;

/// A position's exact value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Exact {
    /// The side to move wins in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies (even; 0: it has no move).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Exact {
    /// From a stored byte: 0 is a draw, `d + 1` the end in `d` plies.
    const fn from_byte(b: u8) -> Exact {
        match b {
            0 => Exact::Draw,
            _ if (b - 1) % 2 == 1 => Exact::Win((b - 1) as u32),
            _ => Exact::Loss((b - 1) as u32),
        }
    }

    const fn to_byte(self) -> u8 {
        match self {
            Exact::Draw => 0,
            Exact::Win(d) | Exact::Loss(d) => {
                if d >= 254 {
                    255
                } else {
                    d as u8 + 1
                }
            }
        }
    }

    /// Whether the value stands in a game whose last `quiet` plies took
    /// nothing and moved no man: a draw always does, a win or a loss only
    /// where the game ends before the forty-move rule could draw it.
    pub const fn stands_after(self, quiet: usize) -> bool {
        match self {
            Exact::Draw => true,
            Exact::Win(d) | Exact::Loss(d) => quiet + d as usize <= QUIET_PLIES_FOR_DRAW,
        }
    }

    /// The value for the player who moved into a position of this value.
    pub const fn before(self) -> Exact {
        match self {
            Exact::Win(d) => Exact::Loss(d + 1),
            Exact::Loss(d) => Exact::Win(d + 1),
            Exact::Draw => Exact::Draw,
        }
    }

    /// Orders values for the side to move: faster wins, then draws, then
    /// slower losses.
    pub const fn rank(self) -> i64 {
        match self {
            Exact::Win(d) => 1_000_000 - d as i64,
            Exact::Draw => 0,
            Exact::Loss(d) => -1_000_000 + d as i64,
        }
    }
}

impl fmt::Display for Exact {
    /// `win in 7 plies`, `loss in 12 plies`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exact::Win(d) => write!(f, "win in {}", super::search::plies(*d)),
            Exact::Loss(d) => write!(f, "loss in {}", super::search::plies(*d)),
            Exact::Draw => write!(f, "draw"),
        }
    }
}

/// Binomial coefficients C(n, k) for n up to 32 and k up to 6.
const BINOM: [[u32; 7]; 33] = {
    let mut t = [[0u32; 7]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The rank of a set of squares among all sets of its size.
#[inline(always)]
fn rank(set: Bits) -> u32 {
    let mut r = 0;
    for (i, sq) in indices(set).enumerate() {
        r += BINOM[sq as usize][i + 1];
    }
    r
}

/// The set of `k` squares below `n` with this rank.
fn unrank(mut r: u32, k: usize, n: usize) -> Bits {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut c = top - 1;
        while BINOM[c][i] > r {
            c -= 1;
        }
        set |= 1 << c;
        r -= BINOM[c][i];
        top = c;
    }
    set
}

/// Black men stand on squares 1-28, white men on 5-32: 28 squares each.
const MEN_SQUARES: usize = 28;
const WHITE_MEN_SHIFT: u32 = 4;

/// A material balance: black men, black kings, white men, white kings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Material([u8; 4]);

/// How many material codes there are: each count from 0 to 6.
const SLOTS: usize = 7 * 7 * 7 * 7;

impl Material {
    fn of(pos: &Position) -> Material {
        Material([
            pos.men(Side::Black).count_ones() as u8,
            pos.kings(Side::Black).count_ones() as u8,
            pos.men(Side::White).count_ones() as u8,
            pos.kings(Side::White).count_ones() as u8,
        ])
    }

    fn total(self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    fn men(self) -> u32 {
        (self.0[0] + self.0[2]) as u32
    }

    /// The material seen from the other side.
    fn swapped(self) -> Material {
        let [a, b, c, d] = self.0;
        Material([c, d, a, b])
    }

    /// The slot in the table of slices: the four counts as digits in base
    /// 7 (so slots sort as the counts do).
    fn code(self) -> usize {
        self.0.iter().fold(0, |acc, &n| acc * 7 + n as usize)
    }

    fn sizes(self) -> [u32; 4] {
        let [bm, bk, wm, wk] = self.0.map(|n| n as usize);
        [
            BINOM[MEN_SQUARES][bm],
            BINOM[32][bk],
            BINOM[MEN_SQUARES][wm],
            BINOM[32][wk],
        ]
    }

    fn len(self) -> usize {
        self.sizes().iter().map(|&s| s as usize).product()
    }

    /// Every balance with both sides on the board and at most `max` pieces,
    /// in an order where every capture or crowning leads to an earlier one.
    fn all(max: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for code in 0..SLOTS {
            let m = Material([
                (code / 343) as u8,
                (code / 49 % 7) as u8,
                (code / 7 % 7) as u8,
                (code % 7) as u8,
            ]);
            if m.total() <= max && m.0[0] + m.0[1] > 0 && m.0[2] + m.0[3] > 0 {
                out.push(m);
            }
        }
        out.sort_by_key(|m| (m.total(), m.men(), m.code()));
        out
    }
}

/// The index of a position (Black to move) within its material's slice.
#[inline]
fn index_of(pos: &Position, m: Material) -> usize {
    let [_, s1, s2, s3] = m.sizes();
    let bm = rank(pos.men(Side::Black)) as usize;
    let bk = rank(pos.kings(Side::Black)) as usize;
    let wm = rank(pos.men(Side::White) >> WHITE_MEN_SHIFT) as usize;
    let wk = rank(pos.kings(Side::White)) as usize;
    ((bm * s1 as usize + bk) * s2 as usize + wm) * s3 as usize + wk
}

/// The position (Black to move) at an index, if its pieces do not overlap.
fn position_at(index: usize, m: Material) -> Option<Position> {
    let [_, s1, s2, s3] = m.sizes().map(|s| s as usize);
    let wk = index % s3;
    let rest = index / s3;
    let wm = rest % s2;
    let rest = rest / s2;
    let bk = rest % s1;
    let bm = rest / s1;
    let [nbm, nbk, nwm, nwk] = m.0.map(|n| n as usize);
    let bm = unrank(bm as u32, nbm, MEN_SQUARES);
    let bk = unrank(bk as u32, nbk, 32);
    let wm = unrank(wm as u32, nwm, MEN_SQUARES) << WHITE_MEN_SHIFT;
    let wk = unrank(wk as u32, nwk, 32);
    let all = [bm, bk, wm, wk];
    let union = all.iter().fold(0, |a, &s| a | s);
    if union.count_ones() as usize != nbm + nbk + nwm + nwk {
        return None;
    }
    Some(Position::from_parts(bm | bk, wm | wk, bk | wk, Side::Black))
}

/// Positions with White to move are stored turned round, as Black to move.
#[inline]
fn canonical(pos: &Position) -> Position {
    match pos.to_move() {
        Side::Black => *pos,
        Side::White => pos.flipped(),
    }
}

/// Exact values for every position with up to a few pieces.
#[derive(Clone, PartialEq, Eq)]
pub struct Endgame {
    max_pieces: u32,
    captures: Captures,
    /// Indexed by `Material::code`.
    slices: Vec<Vec<u8>>,
}

impl fmt::Debug for Endgame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Endgame {{ max_pieces: {}, captures: {}, bytes: {} }}",
            self.max_pieces,
            self.captures,
            self.size_bytes()
        )
    }
}

const RESOLVED: u8 = u8::MAX;

impl Endgame {
    /// Solves every position with at most `max_pieces` pieces (capped at
    /// [`MAX_PIECES`]) under these rules. Four pieces take a few seconds.
    pub fn build(max_pieces: u32, rules: Setup) -> Endgame {
        Endgame::build_with_progress(max_pieces.min(MAX_PIECES), rules, &mut |_, _| true)
            .unwrap_or_else(|| Endgame::build(0, rules))
    }

    /// How many positions (valid or not) a database of `max_pieces` pieces
    /// stores: its size in bytes, less a few for the header.
    pub fn entries(max_pieces: u32) -> usize {
        Material::all(max_pieces.min(LARGEST_PIECES))
            .iter()
            .map(|m| m.len())
            .sum()
    }

    /// Solves every position with at most `max_pieces` pieces (capped at
    /// [`LARGEST_PIECES`]), telling `progress(done, total)` (in entries)
    /// after each material balance; it returns `false` to stop the build,
    /// which then gives `None`.
    pub fn build_with_progress(
        max_pieces: u32,
        rules: Setup,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Option<Endgame> {
        let max_pieces = max_pieces.min(LARGEST_PIECES);
        let total = Endgame::entries(max_pieces);
        let mut done = 0;
        let mut db = Endgame {
            max_pieces,
            captures: rules.captures,
            slices: vec![Vec::new(); SLOTS],
        };
        let materials = Material::all(max_pieces);
        for &m in &materials {
            if db.slices[m.code()].is_empty() {
                let pair: Vec<Material> = if m.swapped() == m {
                    vec![m]
                } else {
                    vec![m, m.swapped()]
                };
                db.solve(&pair);
                done += pair.iter().map(|m| m.len()).sum::<usize>();
                if !progress(done, total) {
                    return None;
                }
            }
        }
        Some(db)
    }

    /// How many pieces it covers.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The capture rule its values hold under.
    pub fn captures(&self) -> Captures {
        self.captures
    }

    /// How many positions it stores (Black to move; each stands for its mirror too).
    pub fn positions(&self) -> usize {
        self.slices.iter().map(Vec::len).sum()
    }

    /// For each material balance (black men, black kings, white men, white
    /// kings) with exactly `pieces` pieces: how many positions with Black to
    /// move are wins, losses and draws for Black. Overlapping placements
    /// are not positions and are not counted.
    pub fn counts(&self, pieces: u32) -> Vec<([u8; 4], [u64; 3])> {
        Material::all(self.max_pieces)
            .into_iter()
            .filter(|m| m.total() == pieces)
            .map(|m| {
                let mut c = [0u64; 3];
                let slice = &self.slices[m.code()];
                for (index, &b) in slice.iter().enumerate() {
                    if position_at(index, m).is_none() {
                        continue;
                    }
                    let k = match Exact::from_byte(b) {
                        Exact::Win(_) => 0,
                        Exact::Loss(_) => 1,
                        Exact::Draw => 2,
                    };
                    c[k] += 1;
                }
                (m.0, c)
            })
            .collect()
    }

    /// The longest forced win it holds, in plies.
    pub fn longest_win(&self) -> u32 {
        self.slices
            .iter()
            .flatten()
            .map(|&b| match Exact::from_byte(b) {
                Exact::Win(d) | Exact::Loss(d) => d,
                Exact::Draw => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Its size in memory, in bytes (one a position).
    pub fn size_bytes(&self) -> usize {
        self.positions()
    }

    /// Whether it holds this position's value.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.piece_count() <= self.max_pieces
    }

    /// The exact value for the side to move, if covered.
    pub fn probe(&self, pos: &Position) -> Option<Exact> {
        let c = canonical(pos);
        if c.pieces(Side::Black) == 0 {
            return Some(Exact::Loss(0));
        }
        if !self.covers(&c) || c.pieces(Side::White) == 0 {
            return None;
        }
        let m = Material::of(&c);
        let slice = self.slices.get(m.code())?;
        slice.get(index_of(&c, m)).map(|&b| Exact::from_byte(b))
    }

    /// The moves that keep the exact value: the fastest wins, the slowest
    /// losses, or every drawing move. `None` if not covered.
    pub fn best_moves(&self, rules: &Setup, pos: &Position) -> Option<Vec<Move>> {
        if rules.captures != self.captures {
            return None;
        }
        self.probe(pos)?;
        let scored: Vec<(Move, i64)> = rules
            .moves(pos)
            .into_iter()
            .filter_map(|m| Some((m, self.probe(&pos.play(&m))?.before().rank())))
            .collect();
        let best = scored.iter().map(|s| s.1).max()?;
        Some(
            scored
                .into_iter()
                .filter(|s| s.1 == best)
                .map(|s| s.0)
                .collect(),
        )
    }

    /// The value of a position the solver has finished with (lower slices).
    fn solved(&self, c: &Position) -> Exact {
        if c.pieces(Side::Black) == 0 {
            return Exact::Loss(0);
        }
        let m = Material::of(c);
        match self
            .slices
            .get(m.code())
            .and_then(|s| s.get(index_of(c, m)))
        {
            Some(&b) => Exact::from_byte(b),
            // Unreachable with a correct order; a draw keeps it harmless.
            None => Exact::Draw,
        }
    }

    /// The moves of `pos` out of its material pair (captures, crownings),
    /// whose values are known: how many moves stay inside, and the best
    /// value of those that leave, if any do.
    #[inline]
    fn exits(&self, pos: &Position, forced: bool) -> (u32, Option<Exact>) {
        let mut inside = 0;
        let mut best: Option<Exact> = None;
        let other = Material::of(pos).swapped();
        movegen::for_each_child(pos, forced, |child| {
            let c = child.flipped();
            if c.pieces(Side::Black) != 0 && Material::of(&c) == other {
                inside += 1;
            } else {
                let v = self.solved(&c).before();
                if best.is_none_or(|b| v.rank() > b.rank()) {
                    best = Some(v);
                }
            }
        });
        (inside, best)
    }

    /// Solves one material balance together with its mirror (the positions
    /// each side's quiet moves lead to): every position is seeded from its
    /// exits, then values pass back along quiet moves, nearest ends first.
    fn solve(&mut self, pair: &[Material]) {
        let mut retro = Retro::new(pair, self.captures.forced());
        retro.seed(self);
        let mut d = 0;
        while d < retro.buckets.len() {
            let mut k = 0;
            while k < retro.buckets[d].len() {
                let id = retro.buckets[d][k] as usize;
                k += 1;
                retro.settle(self, d as u32, id);
            }
            d += 1;
        }
        for (which, &m) in pair.iter().enumerate() {
            let start = retro.offsets[which];
            self.slices[m.code()] = retro.values[start..start + m.len()].to_vec();
        }
    }

    /// Checks every stored value against the values after each move (the
    /// game's own recursion): a win in `d` has a move to a loss in `d - 1`
    /// and none quicker, a loss in `d` only moves to wins, the slowest in
    /// `d - 1`, and a draw has a drawing move and no winning one. Values that
    /// pass are exact, by induction on the distance. Returns how many
    /// positions were checked.
    pub fn verify(&self) -> Result<usize, Mismatch> {
        let forced = self.captures.forced();
        let mut checked = 0;
        for m in Material::all(self.max_pieces) {
            for index in 0..m.len() {
                let Some(pos) = position_at(index, m) else {
                    continue;
                };
                checked += 1;
                let stored = self.solved(&pos);
                let mut children = Vec::new();
                movegen::for_each_child(&pos, forced, |c| {
                    children.push(self.solved(&c.flipped()).before())
                });
                let expected = match children.iter().max_by_key(|v| v.rank()) {
                    None => Exact::Loss(0),
                    Some(&best) => best,
                };
                if stored != expected {
                    return Err(Mismatch {
                        position: pos,
                        stored,
                        expected,
                    });
                }
            }
        }
        Ok(checked)
    }

    /// The database as bytes, to keep on disk: what it is, its pieces and
    /// capture rule, a slice of values for each material balance, then a
    /// checksum of all before.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.positions() + HEADER_LEN + 8);
        let _ = self.write_parts(&mut |part: &[u8]| {
            out.extend_from_slice(part);
            Ok::<(), std::convert::Infallible>(())
        });
        out
    }

    /// Hands `put` the bytes of [`Endgame::to_bytes`] a part at a time (a
    /// six-piece database need never be copied whole), stopping at its
    /// first error.
    pub fn write_parts<E>(&self, put: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        let mut sum = Checksum::default();
        let mut header = MAGIC.to_vec();
        header.push(self.max_pieces as u8);
        header.push(match self.captures {
            Captures::Compulsory => 0,
            Captures::Optional => 1,
        });
        sum.add(&header);
        put(&header)?;
        for m in Material::all(self.max_pieces) {
            let slice = &self.slices[m.code()];
            sum.add(slice);
            put(slice)?;
        }
        put(&sum.0.to_le_bytes())
    }

    /// A database from [`Endgame::to_bytes`], checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Endgame, BytesError> {
        let mut rest = bytes;
        Endgame::read_parts(
            &mut |len| {
                let (part, tail) = rest.split_at(len.min(rest.len()));
                rest = tail;
                Ok(part.to_vec())
            },
            |_, _| Ok(()),
            |reason| reason,
        )
    }

    /// A database read a part at a time and checked: `next(len)` gives the
    /// next `len` bytes (fewer at the end), so no more is ever asked for
    /// than the database its header names holds. `expect` is shown the
    /// header's pieces and capture rule before any value is read, and may
    /// refuse them; `damaged` words what is wrong with the bytes.
    pub fn read_parts<E>(
        next: &mut dyn FnMut(usize) -> Result<Vec<u8>, E>,
        expect: impl FnOnce(u32, Captures) -> Result<(), E>,
        damaged: impl Fn(BytesError) -> E,
    ) -> Result<Endgame, E> {
        let mut sum = Checksum::default();
        let head = next(HEADER_LEN)?;
        sum.add(&head);
        let (max_pieces, captures) = read_header(&head).map_err(&damaged)?;
        expect(max_pieces, captures)?;
        let mut slices = vec![Vec::new(); SLOTS];
        for m in Material::all(max_pieces) {
            let slice = next(m.len())?;
            if slice.len() < m.len() {
                return Err(damaged(BytesError::CutShort));
            }
            sum.add(&slice);
            slices[m.code()] = slice;
        }
        let tail = next(9)?;
        match tail.len() {
            0..8 => Err(damaged(BytesError::CutShort)),
            8 if tail[..] != sum.0.to_le_bytes() => Err(damaged(BytesError::Checksum)),
            8 => Ok(Endgame {
                max_pieces,
                captures,
                slices,
            }),
            _ => Err(damaged(BytesError::LeftOver)),
        }
    }
}

/// What a stored database's header says: its pieces and capture rule.
fn read_header(head: &[u8]) -> Result<(u32, Captures), BytesError> {
    let Some(rest) = head.strip_prefix(MAGIC) else {
        return Err(if MAGIC.starts_with(head) {
            BytesError::CutShort
        } else {
            BytesError::NotADatabase
        });
    };
    let [pieces, captures] = rest[..] else {
        return Err(BytesError::CutShort);
    };
    let max_pieces = pieces as u32;
    if max_pieces > LARGEST_PIECES {
        return Err(BytesError::Pieces(max_pieces));
    }
    let captures = match captures {
        0 => Captures::Compulsory,
        1 => Captures::Optional,
        _ => return Err(BytesError::NoCaptureRule),
    };
    Ok((max_pieces, captures))
}

/// How many bytes a stored database's header holds: [`MAGIC`], its pieces
/// and its capture rule.
const HEADER_LEN: usize = MAGIC.len() + 2;

const MAGIC: &[u8] = b"tallyho draughts endgame v1\n";

/// Why bytes are not a database [`Endgame::to_bytes`] wrote.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BytesError {
    /// They do not begin as a database does.
    #[error("not a tallyho draughts endgame database")]
    NotADatabase,
    /// They end before the database does.
    #[error("the endgame database is cut short")]
    CutShort,
    /// The checksum does not match: the file is damaged.
    #[error("the endgame database is damaged (checksum)")]
    Checksum,
    /// More pieces than a database holds.
    #[error("the endgame database claims {0} pieces")]
    Pieces(u32),
    /// No capture rule this game has.
    #[error("the endgame database names no capture rule")]
    NoCaptureRule,
    /// Bytes after the last entry.
    #[error("the endgame database has bytes left over")]
    LeftOver,
}

/// A stored value that its position's moves contradict.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "{}: stored {stored}, but its moves give {expected}",
    super::fen::write(position)
)]
pub struct Mismatch {
    /// The position.
    pub position: Position,
    /// The value stored for it.
    pub stored: Exact,
    /// The value its moves give.
    pub expected: Exact,
}

/// FNV-1a over a stored database's bytes, enough to notice a damaged file;
/// taken a part at a time, so a large database need not be held twice.
struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }
}

impl Checksum {
    /// Takes in more bytes.
    fn add(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        });
    }
}

/// The working state of one retrograde solve: a material pair's positions
/// numbered one after the other, their values, and the positions waiting,
/// by distance to the end, to pass their value back.
struct Retro<'a> {
    /// The pair: a material balance and its mirror, or one balance alone.
    pair: &'a [Material],
    /// The first number of each material's positions.
    offsets: Vec<usize>,
    /// Whether captures are compulsory.
    forced: bool,
    /// Each position's value as a byte.
    values: Vec<u8>,
    /// Quiet moves left to be refuted, or RESOLVED.
    left: Vec<u8>,
    /// The positions to settle at each distance.
    buckets: Vec<Vec<u32>>,
    /// Whether a position has passed its value back: it can wait in two
    /// buckets (an exit win and a quicker quiet win) but does so only once.
    spread: Vec<bool>,
}

impl<'a> Retro<'a> {
    /// Nothing known yet about the positions of `pair`.
    fn new(pair: &'a [Material], forced: bool) -> Retro<'a> {
        let offsets: Vec<usize> = pair
            .iter()
            .scan(0, |acc, m| {
                let o = *acc;
                *acc += m.len();
                Some(o)
            })
            .collect();
        let total: usize = pair.iter().map(|m| m.len()).sum();
        Retro {
            pair,
            offsets,
            forced,
            values: vec![0u8; total],
            left: vec![RESOLVED; total],
            buckets: Vec::new(),
            spread: vec![false; total],
        }
    }

    /// Queues position `id` to settle at distance `d`.
    #[inline]
    fn push(&mut self, d: u32, id: usize) {
        let d = d as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(id as u32);
    }

    /// Values every position by its exits: an end or a position with only
    /// exits is known, others wait for their quiet moves; a loss, or a win
    /// by an exit, is queued at its distance.
    fn seed(&mut self, db: &Endgame) {
        for (which, &m) in self.pair.iter().enumerate() {
            for index in 0..m.len() {
                let Some(pos) = position_at(index, m) else {
                    continue;
                };
                let id = self.offsets[which] + index;
                match db.exits(&pos, self.forced) {
                    (0, None) => {
                        self.values[id] = Exact::Loss(0).to_byte();
                        self.push(0, id);
                    }
                    (0, Some(v)) => {
                        self.values[id] = v.to_byte();
                        if let Exact::Win(d) | Exact::Loss(d) = v {
                            self.push(d, id);
                        }
                    }
                    (n, best) => {
                        self.left[id] = n as u8;
                        if let Some(Exact::Win(d)) = best {
                            // A win by a capture or a crowning, unless a quiet
                            // move wins sooner: settled when its turn comes.
                            self.push(d, id);
                        }
                    }
                }
            }
        }
    }

    /// Settles position `id`, taken from the bucket of distance `d`, and
    /// passes its value back to the positions with a quiet move into it.
    #[inline]
    fn settle(&mut self, db: &Endgame, d: u32, id: usize) {
        if self.spread[id] {
            return;
        }
        self.spread[id] = true;
        let which = self.offsets.iter().rposition(|&o| o <= id).unwrap_or(0);
        let Some(pos) = position_at(id - self.offsets[which], self.pair[which]) else {
            return;
        };
        if self.left[id] != RESOLVED {
            // A pending exit win, or a loss whose last quiet move was refuted.
            let v = match db.exits(&pos, self.forced).1 {
                Some(Exact::Win(w)) if w == d => Exact::Win(w),
                _ => Exact::Loss(d),
            };
            self.values[id] = v.to_byte();
            self.left[id] = RESOLVED;
        }
        let value = Exact::from_byte(self.values[id]);
        if value == Exact::Draw {
            return;
        }
        unmoves(&pos.flipped(), |p| self.pass_back(db, p, value));
    }

    /// Passes `value`, of the position a quiet move of `p` leads to, back to
    /// `p`: a loss there is a win here; a win there refutes one quiet move,
    /// and once all are refuted `p` loses, or draws or wins by an exit.
    #[inline]
    fn pass_back(&mut self, db: &Endgame, p: &Position, value: Exact) {
        let m = Material::of(p);
        let Some(w) = self.pair.iter().position(|&q| q == m) else {
            return;
        };
        let pid = self.offsets[w] + index_of(p, self.pair[w]);
        if self.left[pid] == RESOLVED {
            return;
        }
        match value {
            Exact::Loss(l) => {
                self.values[pid] = Exact::Win(l + 1).to_byte();
                self.left[pid] = RESOLVED;
                self.push(l + 1, pid);
            }
            Exact::Win(w) => {
                self.left[pid] -= 1;
                if self.left[pid] == 0 {
                    match db.exits(p, self.forced).1 {
                        Some(Exact::Win(_)) => {
                            // Its exit win is waiting in a later bucket.
                            self.left[pid] = 1;
                        }
                        Some(Exact::Draw) => {
                            self.values[pid] = 0;
                            self.left[pid] = RESOLVED;
                        }
                        Some(Exact::Loss(e)) if e > w + 1 => self.push(e, pid),
                        _ => self.push(w + 1, pid),
                    }
                }
            }
            Exact::Draw => {}
        }
    }
}

/// Calls `visit` with every position (Black to move) from which a quiet
/// Black move (a step that crowns nothing) gives `after` (White to move).
fn unmoves(after: &Position, mut visit: impl FnMut(&Position)) {
    let black = after.pieces(Side::Black);
    let white = after.pieces(Side::White);
    let kings = after.all_kings();
    let empty = after.empty();
    for d in Dir::ALL {
        let men_too = matches!(d, Dir::DownRight | Dir::DownLeft);
        let movers = if men_too { black } else { black & kings };
        // A piece now on `t` came from `s`, one step back along `d`.
        let mut from = step(movers, d) & empty;
        while from != 0 {
            let s = from & from.wrapping_neg();
            from &= from - 1;
            let t = step(s, d.back());
            let was_king = kings & t != 0;
            let k = if was_king { (kings & !t) | s } else { kings };
            visit(&Position::from_parts(
                (black & !t) | s,
                white,
                k,
                Side::Black,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    #[test]
    fn ranks_and_positions_round_trip() {
        for m in Material::all(3) {
            for i in (0..m.len()).step_by(97) {
                if let Some(p) = position_at(i, m) {
                    assert_eq!(index_of(&p, m), i);
                    assert_eq!(Material::of(&p), m);
                }
            }
        }
        assert_eq!(unrank(rank(0b1011), 3, 32), 0b1011);
        // Six of a kind: the most a six-piece balance holds.
        assert_eq!(unrank(rank(0b11_1111 << 20), 6, 32), 0b11_1111 << 20);
        let m = Material([5, 0, 1, 0]);
        let p = Position::from_parts(0b1_1111 << 8, 1 << 30, 0, Side::Black);
        assert_eq!(Material::of(&p), m);
        assert_eq!(position_at(index_of(&p, m), m), Some(p));
    }

    #[test]
    fn six_pieces_have_their_material_codes_and_five_keep_their_layout() {
        let six = Material::all(6);
        let codes: std::collections::HashSet<usize> = six.iter().map(|m| m.code()).collect();
        assert_eq!(codes.len(), six.len());
        assert!(six.iter().all(|m| m.code() < SLOTS));
        assert!(six.contains(&Material([5, 0, 1, 0])));
        assert!(six.contains(&Material([0, 1, 0, 5])));
        assert_eq!(Endgame::entries(5), 187_110_300);
        assert_eq!(Endgame::entries(6), 3_739_728_040);
        // Databases kept on disk before six pieces were possible read the
        // same: the bytes of the 3- and 4-piece ones, to the checksum.
        let three = Endgame::build(3, Setup::STANDARD).to_bytes();
        assert_eq!(three.len(), 216_038);
        assert_eq!(
            three[three.len() - 8..],
            0x3c15_52b6_467e_97ee_u64.to_le_bytes()
        );
    }

    #[test]
    fn small_endings_have_their_known_values() {
        let db = Endgame::build(3, Setup::STANDARD);
        let v = |t: &str| db.probe(&fen::parse(t).unwrap()).unwrap();
        // One king each: nobody can force a win.
        assert_eq!(v("B:WK20:BK13"), Exact::Draw);
        // Two kings against one win, whoever moves.
        assert!(matches!(v("B:WK20:BK1,K2"), Exact::Win(_)));
        assert!(matches!(v("W:WK20:BK1,K2"), Exact::Loss(_)));
        // A side with no move has lost.
        assert_eq!(v("B:W32:B28"), Exact::Loss(0));
        // A capture that ends the game: win in one.
        assert_eq!(v("B:W18:B14,K1"), Exact::Win(1));
    }

    #[test]
    fn every_value_up_to_three_pieces_agrees_with_its_moves() {
        for captures in Captures::ALL {
            let db = Endgame::build(3, Setup::with_captures(captures));
            let checked = db.verify().unwrap_or_else(|e| panic!("{captures}: {e}"));
            assert!(checked > 100_000, "{checked}");
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_noticed() {
        let db = Endgame::build(2, Setup::STANDARD);
        let bytes = db.to_bytes();
        assert_eq!(Endgame::from_bytes(&bytes).as_ref(), Ok(&db));
        let mut bad = bytes.clone();
        let n = bad.len() / 2;
        bad[n] ^= 1;
        assert!(Endgame::from_bytes(&bad).is_err());
        assert!(Endgame::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        assert!(Endgame::from_bytes(b"junk").is_err());
    }
}
