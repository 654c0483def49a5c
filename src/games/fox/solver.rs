//! The solved game: exact values, every best move and exact game counts,
//! by exhaustive search of the positions a position can lead to.
//!
//! Hounds only move forward, so the game graph is acyclic and a search from
//! the ends back is exact. Positions are kept in a dense table instead of a
//! hash map: the hounds' set of dark squares is numbered (by the sum of the
//! hounds' rows, then with the combinatorial number system) and multiplied by
//! the fox's dark square. The side to move is not part of the index: every ply
//! changes the sum of all pieces' rows by one, so within one search the
//! placement alone fixes whose turn it is.
//!
//! A full analysis marks every reachable position going forward, then solves
//! them backward one row sum of the hounds at a time: a hound move adds one to
//! it, so a set's children are whole rows of the level above, read in order.
//! The [`Solver`] of single values fills its table by memoised depth-first search.
//!
//! That dense table needs a fixed number of hounds and rows of equal length:
//! it serves even widths without captures, the three rule sets of the
//! coursework and the published analyses. Odd widths and the capture rules,
//! where the fox eats hounds, go to the general solver (`general.rs`), which
//! numbers positions per hound count; [`analyse`] and [`Solver`] choose.
//!
//! ```
//! use tallyho::games::fox::solver::{analyse, Value};
//! use tallyho::games::fox::{Board, Position, Rules, Side};
//!
//! let board = Board::new(4, 4).unwrap();
//! let start = Position::start(board, board.default_fox_start(), Side::Fox).unwrap();
//! let analysis = analyse(&start, Rules::Standard);
//! assert_eq!(analysis.value, Value { winner: Side::Hounds, plies: 8 });
//! assert_eq!(analysis.reachable, 110);
//!
//! // The Python project's game: 7 wide, A1 dark, captures.
//! let board = Board::new(7, 8).unwrap();
//! let start = Position::parse_under("D8/A1,C1,E1,G1/fox", board, Rules::Capture).unwrap();
//! let analysis = analyse(&start, Rules::Capture);
//! assert_eq!(analysis.value, Value { winner: Side::Hounds, plies: 14 });
//! ```

use std::cmp::Ordering;
use std::fmt;

use super::board::{Board, MAX_SIDE, Square};
use super::general;
use super::position::{FOX_STEPS, HOUND_STEPS, Move, Position, Rules, Side};

/// What a position is worth with best play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Value {
    /// The side that wins.
    pub winner: Side,
    /// Plies to the end: the winner hurries, the loser holds out. 0 for an ended position.
    pub plies: u32,
}

/// Everything a fresh exhaustive search says about one position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// The value with best play.
    pub value: Value,
    /// Every legal move that keeps the value, in generation order; empty once the game is over.
    pub best: Vec<Move>,
    /// Distinct positions (placement and side to move) reachable by legal play,
    /// this one included; positions after an ended game are not reached.
    pub reachable: u64,
    /// Distinct move sequences from here to an ending (1 for an ended position).
    pub possible_games: GameCount,
}

/// An exact count of games: an unsigned 192-bit integer.
///
/// It cannot overflow. A game on a board up to 8x8 lasts at most 57 plies: the
/// at most 4 hounds advance at most 7 rows each (28 hound moves) and the fox
/// moves at most once more than the hounds. With at most 8 legal moves a ply,
/// there are fewer than `8^58 = 2^174` move sequences of up to 57 plies.
/// A `u128` is not provably enough for every position, though it holds every
/// count from a start position (at most 111 bits; see `examples/solve_all.rs`),
/// so the search counts below 2^120 and repeats in 192 bits only if a count reaches that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GameCount([u64; 3]);

impl GameCount {
    /// No games.
    pub const ZERO: GameCount = GameCount([0; 3]);
    /// One game: the count of an ended position.
    pub const ONE: GameCount = GameCount([1, 0, 0]);

    /// The sum, or `None` if it does not fit in 192 bits.
    pub fn checked_add(self, other: GameCount) -> Option<GameCount> {
        let (sum, carry) = self.carrying_add(other);
        (!carry).then_some(sum)
    }

    /// The sum modulo 2^192, and whether it overflowed.
    fn carrying_add(self, other: GameCount) -> (GameCount, bool) {
        let mut out = [0; 3];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        (GameCount(out), carry)
    }

    /// The count as a `u128`, if it fits.
    pub fn to_u128(self) -> Option<u128> {
        (self.0[2] == 0).then(|| u128::from(self.0[1]) << 64 | u128::from(self.0[0]))
    }

    /// How many bits the count needs: 0 for zero.
    pub fn bits(self) -> u32 {
        match self.0.iter().rposition(|&limb| limb != 0) {
            Some(i) => 64 * i as u32 + 64 - self.0[i].leading_zeros(),
            None => 0,
        }
    }

    /// Divides by a small divisor, returning the remainder.
    fn div_rem(&mut self, divisor: u64) -> u64 {
        let mut rem = 0u128;
        for limb in self.0.iter_mut().rev() {
            let cur = rem << 64 | u128::from(*limb);
            *limb = (cur / u128::from(divisor)) as u64;
            rem = cur % u128::from(divisor);
        }
        rem as u64
    }
}

impl From<u64> for GameCount {
    fn from(n: u64) -> GameCount {
        GameCount([n, 0, 0])
    }
}

impl From<u128> for GameCount {
    fn from(n: u128) -> GameCount {
        GameCount([n as u64, (n >> 64) as u64, 0])
    }
}

impl Ord for GameCount {
    fn cmp(&self, other: &GameCount) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for GameCount {
    fn partial_cmp(&self, other: &GameCount) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for GameCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Peel off 19 decimal digits at a time, the most a u64 chunk holds.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut rest = *self;
        let mut chunks = Vec::new();
        loop {
            chunks.push(rest.div_rem(CHUNK));
            if rest == GameCount::ZERO {
                break;
            }
        }
        let mut text = String::new();
        for (i, chunk) in chunks.iter().rev().enumerate() {
            if i == 0 {
                text.push_str(&chunk.to_string());
            } else {
                text.push_str(&format!("{chunk:019}"));
            }
        }
        f.pad_integral(true, "", &text)
    }
}

/// A table entry not yet solved.
pub(super) const UNKNOWN: u8 = u8::MAX;
/// The winner bit of a value code; the low seven bits are the plies.
const HOUNDS_WIN: u8 = 0x80;
/// A step that leaves the board.
const OFF: u8 = u8::MAX;

/// A value as one byte: winner bit and plies (at most 57).
pub(super) fn encode(value: Value) -> u8 {
    let winner = if value.winner == Side::Hounds {
        HOUNDS_WIN
    } else {
        0
    };
    winner | value.plies as u8
}

pub(super) fn decode(code: u8) -> Value {
    Value {
        winner: if code & HOUNDS_WIN != 0 {
            Side::Hounds
        } else {
            Side::Fox
        },
        plies: u32::from(code & !HOUNDS_WIN),
    }
}

/// How good a child's value is for `side`, the side choosing it: any win
/// beats any loss, a quicker win beats a slower one, a slower loss a quicker one.
pub(super) fn score(code: u8, side: Side) -> u8 {
    let value = decode(code);
    if value.winner == side {
        255 - value.plies as u8
    } else {
        value.plies as u8
    }
}

/// The value of a position whose best child scores `best` for `side`, the side to move.
pub(super) fn from_score(best: u8, side: Side) -> u8 {
    if best >= 128 {
        encode(Value {
            winner: side,
            plies: u32::from(255 - best) + 1,
        })
    } else {
        encode(Value {
            winner: side.other(),
            plies: u32::from(best) + 1,
        })
    }
}

/// A placement in compact form: the number of the hounds' set of dark
/// squares (see `Geometry::sets`) and the fox's dark-square number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Placement {
    set: u32,
    fox: u8,
}

/// A legal-unless-the-fox-is-there hound move of one hound set: the square
/// it goes to and the number of the set it makes.
#[derive(Clone, Copy, Debug)]
struct HoundMove {
    to: u8,
    set: u32,
}

/// A board's dark squares numbered 0.. in square order, with every hound set
/// and its moves precomputed, under one set of rules.
#[derive(Clone, Debug)]
struct Geometry {
    board: Board,
    row_one_wins: bool,
    early_win: bool,
    dark: usize,
    /// Dark-square number of each square index, or `OFF`.
    number: [u8; 64],
    /// The dark squares next to each dark square.
    fox_steps: Vec<u32>,
    /// The dark squares on even rows (counting from 0).
    even_rows: u32,
    /// Each dark square's lane: its number among the squares of its rows' parity.
    lane: [u8; 32],
    /// The lanes of the dark squares next to each dark square.
    lane_steps: Vec<u32>,
    /// Dark squares in a row.
    per_row: u32,
    /// `binom[n][r]` for the combinatorial number system.
    binom: [[u32; 5]; 33],
    /// Every hound set, numbered by the sum of the hounds' rows (every hound
    /// move adds one), then in colex order.
    sets: Vec<u32>,
    /// The number of each set by its colex rank.
    by_rank: Vec<u32>,
    /// The first set number of each row sum, then the number of sets:
    /// the sets of row sum `s` are `levels[s]..levels[s + 1]`.
    levels: Vec<u32>,
    /// The fox squares on which the fox has won, by set: row 1 or escaped, as the rules say.
    won: Vec<u32>,
    /// The moves of each set, `moves[starts[set]..starts[set + 1]]`.
    starts: Vec<u32>,
    moves: Vec<HoundMove>,
}

impl Geometry {
    fn new(board: Board, rules: Rules) -> Geometry {
        let squares = dark_squares(board);
        let dark = squares.len();
        let k = board.hound_count();
        debug_assert!(dark <= 32 && k <= 4 && MAX_SIDE == 8);
        let number = numbering(&squares);
        let fox_steps = step_masks(board, &squares, &number, &FOX_STEPS);
        let hound_steps = step_masks(board, &squares, &number, &HOUND_STEPS);
        let row: Vec<u8> = squares.iter().map(|sq| sq.row()).collect();
        let all = mask_where(dark, |_| true);
        let even_rows = mask_where(dark, |i| row[i].is_multiple_of(2));
        let row_one = mask_where(dark, |i| row[i] == 0);
        let mut lane = [0; 32];
        for (i, sq) in squares.iter().enumerate() {
            lane[i] = (sq.row() / 2) * (board.width() / 2) + sq.col() / 2;
        }
        let binom = binomials();
        let count = binom[dark][k] as usize;
        let colex = subsets(dark, k);
        debug_assert_eq!(colex.len(), count);
        let top = k * (usize::from(board.height()) - 1);
        let (levels, sets, by_rank) = by_row_sum(&colex, top, |mask| {
            bits(mask)
                .map(|h| usize::from(row[h as usize]))
                .sum::<usize>()
        });
        let mut geo = Geometry {
            board,
            row_one_wins: rules.row_one_wins(),
            early_win: rules.early_win(),
            dark,
            number,
            fox_steps,
            even_rows,
            lane,
            lane_steps: Vec::new(),
            per_row: u32::from(board.width() / 2),
            binom,
            sets,
            by_rank,
            levels,
            won: Vec::with_capacity(count),
            starts: Vec::with_capacity(count + 1),
            moves: Vec::with_capacity(count * 2 * k),
        };
        geo.lane_steps = (0..dark)
            .map(|i| geo.lanes(geo.fox_steps[i], row[i] % 2 == 1))
            .collect();
        let row_one = if geo.row_one_wins { row_one } else { 0 };
        geo.add_moves(&hound_steps, &cones(&squares), row_one, all);
        geo
    }

    /// Fills in, set by set, the fox squares on which the fox has won
    /// (`row_one`, then any open square next to another when the fox wins
    /// early) and the hound moves, each with the number of the set it makes.
    fn add_moves(&mut self, hound_steps: &[u32], cone: &[u32], row_one: u32, all: u32) {
        let shifts = self.neighbour_shifts();
        debug_assert!((0..self.dark).all(|i| next_to(&shifts, 1 << i) == self.fox_steps[i]));
        for i in 0..self.sets.len() {
            let mask = self.sets[i];
            let mut won = row_one;
            if self.early_win {
                let open = all & !bits(mask).fold(0, |reach, h| reach | cone[h as usize]);
                won |= open & next_to(&shifts, open);
            }
            self.won.push(won);
            self.starts.push(self.moves.len() as u32);
            for from in bits(mask) {
                for to in bits(hound_steps[from as usize] & !mask) {
                    let set = self.set_number(mask & !(1 << from) | 1 << to);
                    debug_assert_eq!(self.level(set), self.level(i as u32) + 1);
                    self.moves.push(HoundMove { to, set });
                }
            }
        }
        self.starts.push(self.moves.len() as u32);
    }

    /// The squares next to any of a set are a shift of the square numbers
    /// per direction: each distance, with the squares that have a neighbour
    /// that far on (see [`next_to`]).
    fn neighbour_shifts(&self) -> Vec<(usize, u32)> {
        let per_row = self.per_row as usize;
        (per_row - 1..=per_row + 1)
            .map(|gap| {
                let from = mask_where(self.dark, |i| {
                    i + gap < self.dark && self.fox_steps[i] >> (i + gap) & 1 != 0
                });
                (gap, from)
            })
            .collect()
    }

    /// The lanes of the squares of `mask` on even rows, or on odd ones.
    #[inline(always)]
    fn lanes(&self, mask: u32, even: bool) -> u32 {
        let width = self.per_row;
        let row = (1 << width) - 1;
        let mut out = 0;
        let mut rest = mask >> if even { 0 } else { width };
        let mut shift = 0;
        while rest != 0 {
            out |= (rest & row) << shift;
            rest >>= 2 * width;
            shift += width;
        }
        out
    }

    /// Entries in a dense table: hound sets times fox squares.
    fn size(&self) -> usize {
        self.sets.len() * self.dark
    }

    /// A hound set's number: from its colex rank, the sum of `C(square, i)`
    /// over its i-th square from 1.
    fn set_number(&self, mask: u32) -> u32 {
        let (mut rest, mut rank) = (mask, 0);
        for i in 1..5 {
            if rest == 0 {
                break;
            }
            rank += self.binom[rest.trailing_zeros() as usize][i];
            rest &= rest - 1;
        }
        self.by_rank[rank as usize]
    }

    /// The row sum of a set, from its number.
    fn level(&self, set: u32) -> usize {
        self.levels.partition_point(|&start| start <= set) - 1
    }

    fn placement(&self, pos: &Position) -> Placement {
        assert_eq!(pos.board(), self.board, "a solver works on one board size");
        let number = |sq: super::board::Square| self.number[sq.index() as usize];
        Placement {
            set: self.set_number(pos.hounds().fold(0, |mask, h| mask | 1 << number(h))),
            fox: number(dense_fox(pos)),
        }
    }

    /// The dense table index: the hound set's number, then the fox's square,
    /// so that a fox move stays within a few cache lines (measured faster
    /// than the other way round).
    fn index(&self, p: Placement) -> usize {
        p.set as usize * self.dark + p.fox as usize
    }

    /// Which of the two tables of positions this position belongs to: the
    /// parity of its row sum plus the side to move, which no move changes.
    fn class(&self, pos: &Position) -> usize {
        let rows: u32 = pos.hounds().map(|h| u32::from(h.row())).sum();
        let side = u32::from(pos.to_move() == Side::Hounds);
        ((rows + u32::from(dense_fox(pos).row()) + side) % 2) as usize
    }

    /// Whether the fox has won by reaching row 1 or by escaping (as the rules allow).
    fn fox_won(&self, p: Placement) -> bool {
        self.won[p.set as usize] & 1 << p.fox != 0
    }

    /// The moves of a hound set, the fox aside.
    fn moves_of(&self, set: u32) -> &[HoundMove] {
        &self.moves[self.starts[set as usize] as usize..self.starts[set as usize + 1] as usize]
    }

    /// Calls `visit` on every position one move from `p`, `side` to move.
    #[inline(always)]
    fn for_each_child(&self, p: Placement, side: Side, mut visit: impl FnMut(Placement)) {
        match side {
            Side::Fox => {
                for fox in bits(self.fox_steps[p.fox as usize] & !self.sets[p.set as usize]) {
                    visit(Placement { fox, ..p });
                }
            }
            Side::Hounds => {
                for mv in self.moves_of(p.set) {
                    if mv.to != p.fox {
                        visit(Placement { set: mv.set, ..p });
                    }
                }
            }
        }
    }
}

/// The fox of a position the dense solver takes: one without captures, so
/// the fox is always on the board (see [`covers`]).
fn dense_fox(pos: &Position) -> super::board::Square {
    match pos.fox() {
        Some(fox) => fox,
        None => unreachable!("a position without captures keeps its fox"),
    }
}

/// The dark squares of `board`, numbered 0.. in square order.
pub(super) fn dark_squares(board: Board) -> Vec<Square> {
    (0..board.height())
        .flat_map(|row| board.dark_squares_of_row(row))
        .collect()
}

/// The dark-square number of each square index, or `OFF` for a light square.
pub(super) fn numbering(squares: &[Square]) -> [u8; 64] {
    let mut number = [OFF; 64];
    for (i, sq) in squares.iter().enumerate() {
        number[sq.index() as usize] = i as u8;
    }
    number
}

/// For each dark square, the dark squares one of the `list` steps takes it to.
pub(super) fn step_masks(
    board: Board,
    squares: &[Square],
    number: &[u8; 64],
    list: &[(i8, i8)],
) -> Vec<u32> {
    squares
        .iter()
        .map(|&sq| {
            list.iter()
                .filter_map(|&(dc, dr)| board.offset(sq, dc, dr))
                .fold(0u32, |mask, to| mask | 1 << number[to.index() as usize])
        })
        .collect()
}

/// Each dark square's forward cone: every dark square a hound there could reach.
pub(super) fn cones(squares: &[Square]) -> Vec<u32> {
    squares
        .iter()
        .map(|h| {
            squares
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.row() >= h.row() && s.col().abs_diff(h.col()) <= s.row() - h.row()
                })
                .fold(0, |mask, (i, _)| mask | 1 << i)
        })
        .collect()
}

/// The dark squares `0..dark` that `keep` keeps, as a mask.
fn mask_where(dark: usize, keep: impl Fn(usize) -> bool) -> u32 {
    (0..dark)
        .filter(|&i| keep(i))
        .fold(0u32, |mask, i| mask | 1 << i)
}

/// `binom[n][r]` for `n` up to 32 and `r` up to 4: the combinatorial number
/// system that ranks hound sets.
pub(super) fn binomials() -> [[u32; 5]; 33] {
    let mut binom = [[0u32; 5]; 33];
    for n in 0..33 {
        binom[n][0] = 1;
        for r in 1..5 {
            binom[n][r] = if n == 0 {
                0
            } else {
                binom[n - 1][r - 1] + binom[n - 1][r]
            };
        }
    }
    binom
}

/// The sets of `k` numbers below `n` as bit masks, in colex order.
pub(super) fn subsets(n: usize, k: usize) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    // Gosper's hack walks the k-sets in increasing mask order, which is colex order.
    let mut out = Vec::new();
    let mut set = (1u64 << k) - 1;
    while set < 1 << n {
        out.push(set as u32);
        let low = set & set.wrapping_neg();
        let next = set + low;
        set = (((next ^ set) >> 2) / low) | next;
    }
    out
}

/// The hound sets of `colex` sorted, stably, by `row_sum` (at most `top`):
/// the first index of each row sum and then their number, the sets in that
/// order, and each colex rank's place in it.
fn by_row_sum(
    colex: &[u32],
    top: usize,
    row_sum: impl Fn(u32) -> usize,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    // A counting sort.
    let mut levels = vec![0u32; top + 2];
    for &mask in colex {
        levels[row_sum(mask) + 1] += 1;
    }
    for s in 1..levels.len() {
        levels[s] += levels[s - 1];
    }
    let mut next = levels.clone();
    let mut sets = vec![0; colex.len()];
    let by_rank = colex
        .iter()
        .map(|&mask| {
            let slot = &mut next[row_sum(mask)];
            sets[*slot as usize] = mask;
            *slot += 1;
            *slot - 1
        })
        .collect();
    (levels, sets, by_rank)
}

/// The squares next to any square of `set`, by the shifts of
/// [`Geometry::neighbour_shifts`].
fn next_to(shifts: &[(usize, u32)], set: u32) -> u32 {
    shifts.iter().fold(0, |out, &(gap, from)| {
        out | (set & from) << gap | (set >> gap & from)
    })
}

/// Whether the dense solver handles positions of `board` under `rules` that
/// move as `captures` says: even widths, a fixed hound count, no captures.
/// Everything else goes to the general solver.
fn covers(board: Board, rules: Rules, captures: bool) -> bool {
    board.width().is_multiple_of(2) && !captures && !rules.captures()
}

/// The bits of a mask, lowest first.
pub(super) fn bits(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            bit
        })
    })
}

/// Solves `p` and every position it leads to into `table` (value codes only).
/// Children already solved are read in place rather than through a call:
/// most children are, and the calls dominated the time.
fn solve_value(geo: &Geometry, table: &mut [u8], p: Placement, side: Side) -> u8 {
    let code = if geo.fox_won(p) {
        FOX_NOW
    } else {
        let mut best = None;
        geo.for_each_child(p, side, |child| {
            let mut code = table[geo.index(child)];
            if code == UNKNOWN {
                code = solve_value(geo, table, child, side.other());
            }
            best = best.max(Some(score(code, side)));
        });
        match best {
            Some(best) => from_score(best, side),
            None => now(side.other()),
        }
    };
    table[geo.index(p)] = code;
    code
}

/// The value code of an ended position won by `winner`.
const fn now(winner: Side) -> u8 {
    match winner {
        Side::Fox => 0,
        Side::Hounds => HOUNDS_WIN,
    }
}

/// The value code of a position the fox has won.
const FOX_NOW: u8 = now(Side::Fox);

/// A game count in one of two widths: [`Narrow`], which holds every count
/// met in practice, and [`GameCount`], used only if that overflows.
///
/// Counts are added lane by lane over whole rows, unused lanes too, so
/// addition wraps silently; each position's count is then checked against a
/// limit (2^120 and 2^184), and a position has at most eight children, so
/// the counts that matter cannot wrap.
trait Tally: Copy {
    const ZERO: Self;
    const ONE: Self;
    /// The sum, wrapping; `normalise` it before use.
    fn add(self, other: Self) -> Self;
    /// The same count in its usual form, after adding.
    fn normalise(self) -> Self;
    /// Nonzero if the (normalised) count is at or above the limit.
    fn excess(self) -> u64;
    fn wide(self) -> GameCount;
}

/// A count below 2^120 in two 60-bit halves, low first, each in a `u64`:
/// adding up to eight of them half by half cannot carry out of a `u64`, so
/// two plain additions (one vector instruction) do, and the carry waits
/// for `normalise`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Narrow([u64; 2]);

const HALF_BITS: u32 = 60;
const HALF_MASK: u64 = (1 << HALF_BITS) - 1;

impl Tally for Narrow {
    const ZERO: Narrow = Narrow([0; 2]);
    const ONE: Narrow = Narrow([1, 0]);
    #[inline(always)]
    fn add(self, other: Narrow) -> Narrow {
        Narrow([
            self.0[0].wrapping_add(other.0[0]),
            self.0[1].wrapping_add(other.0[1]),
        ])
    }
    #[inline(always)]
    fn normalise(self) -> Narrow {
        let [low, high] = self.0;
        Narrow([low & HALF_MASK, high.wrapping_add(low >> HALF_BITS)])
    }
    #[inline(always)]
    fn excess(self) -> u64 {
        self.0[1] >> HALF_BITS
    }
    fn wide(self) -> GameCount {
        GameCount::from(u128::from(self.0[1]) << HALF_BITS | u128::from(self.0[0]))
    }
}

impl Tally for GameCount {
    const ZERO: GameCount = GameCount::ZERO;
    const ONE: GameCount = GameCount::ONE;
    fn add(self, other: GameCount) -> GameCount {
        self.carrying_add(other).0
    }
    fn normalise(self) -> GameCount {
        self
    }
    fn excess(self) -> u64 {
        self.0[2] >> 56
    }
    fn wide(self) -> GameCount {
        self
    }
}

/// Every position reachable from a root, as one mask of fox squares per
/// hound set; with whose turn it is at each.
struct Reach {
    /// The reached fox squares of each hound set.
    seen: Vec<u32>,
    /// The root's row sum: no set below it is reached.
    first: usize,
    /// 0 if the fox moves where the row sum plus the fox's row is even, else 1.
    parity: usize,
}

impl Reach {
    /// Marks everything reachable from `root`, `side` to move, level by level:
    /// fox moves stay in a set's row of the table, hound moves go up a level.
    fn from(geo: &Geometry, root: Placement, side: Side) -> Reach {
        let first = geo.level(root.set);
        let fox_row = geo.even_rows >> root.fox & 1 == 0;
        let mut reach = Reach {
            seen: vec![0; geo.sets.len()],
            first,
            parity: (first + usize::from(fox_row) + usize::from(side == Side::Hounds)) % 2,
        };
        reach.seen[root.set as usize] = 1 << root.fox;
        for level in first..geo.levels.len() - 1 {
            let fox_turn = reach.fox_turn(geo, level);
            for set in geo.levels[level]..geo.levels[level + 1] {
                let seen = reach.seen[set as usize];
                if seen == 0 {
                    continue;
                }
                let live = seen & !geo.won[set as usize];
                let steps =
                    bits(live & fox_turn).fold(0, |steps, fox| steps | geo.fox_steps[fox as usize]);
                let seen = seen | steps & !geo.sets[set as usize];
                reach.seen[set as usize] = seen;
                let hounds_turn = seen & !fox_turn & !geo.won[set as usize];
                if hounds_turn != 0 {
                    for mv in geo.moves_of(set) {
                        reach.seen[mv.set as usize] |= hounds_turn & !(1 << mv.to);
                    }
                }
            }
        }
        reach
    }

    /// The fox squares on which the fox is to move, in the sets of row sum `level`.
    fn fox_turn(&self, geo: &Geometry, level: usize) -> u32 {
        if (level + self.parity).is_multiple_of(2) {
            geo.even_rows
        } else {
            !geo.even_rows
        }
    }

    fn count(&self) -> u64 {
        self.seen
            .iter()
            .map(|seen| u64::from(seen.count_ones()))
            .sum()
    }
}

/// One fresh search that also counts positions and games. Every position
/// reachable from the root is marked first; then values and game counts are
/// worked out level by level, from the highest row sum down, so the children
/// of each hound set are read as whole rows of the level above.
///
/// Only the positions with the fox to move are kept, and for two levels: a
/// hound move's child is one of them a level up, and a fox move's child is a
/// position of the same row, worked out just before. Within a row, the fox
/// squares of one parity are numbered as lanes (see `Geometry::lane`); a
/// hound move leaves the fox where it is, so a row's hounds-to-move lanes
/// line up with its children's fox-to-move lanes and are added up lane by lane.
struct Search<'g, C> {
    geo: &'g Geometry,
    root: Placement,
    /// The root's value code and game count.
    code: u8,
    games: C,
    /// The hounds' scores (see `FOX_WON`) of the root's set's row with the hounds to move, by lane.
    root_row: [u8; LANES],
    /// The hounds' scores of the fox to move a level above the root, by `LANES` per set.
    above: Vec<u8>,
    reachable: u64,
    overflow: bool,
}

/// Lanes in a row of a level: fox squares of one parity.
const LANES: usize = 16;

/// A level's positions with the fox to move: hounds' scores and game counts,
/// `LANES` per hound set of the level.
struct Level<C> {
    codes: Vec<u8>,
    games: Vec<C>,
}

/// One hound set's positions with the hounds to move, by lane: the hounds'
/// scores and the game counts, and whether a count reached the tally's limit.
struct HoundsRow<C> {
    codes: [u8; LANES],
    games: [C; LANES],
    excess: u64,
}

impl<C: Tally> HoundsRow<C> {
    /// Solves hound set `set` on the lanes of `hounds_turn` (the fox on
    /// the rows of the parity `fox_even` gives) from the level `above`,
    /// whose first set is `high`. The other lanes hold a fox win.
    #[inline(always)]
    fn solve(
        geo: &Geometry,
        set: u32,
        high: u32,
        hounds_turn: u32,
        fox_even: bool,
        above: &Level<C>,
    ) -> HoundsRow<C> {
        let mut out = HoundsRow {
            codes: [FOX_WON; LANES],
            games: [C::ONE; LANES],
            excess: 0,
        };
        if hounds_turn == 0 {
            return out;
        }
        // One more lane than a row has, where a move's exclusion goes if
        // the hound lands on a square of the other parity.
        let mut best = [FOX_WON; LANES + 1];
        let mut sums = [C::ZERO; LANES + 1];
        let mut moved = 0;
        for mv in geo.moves_of(set) {
            // The fox cannot stand where the hound lands: that lane
            // keeps what it had, and every other lane adds the child.
            let to = if geo.even_rows >> mv.to & 1 != u32::from(fox_even) {
                geo.lane[mv.to as usize] as usize
            } else {
                LANES
            };
            moved |= hounds_turn & !(1 << to);
            let kept = (best[to], sums[to]);
            let child = (mv.set - high) as usize * LANES;
            let child_codes = &above.codes[child..][..LANES];
            let child_games = &above.games[child..][..LANES];
            for lane in 0..LANES {
                best[lane] = best[lane].max(child_codes[lane]);
                sums[lane] = sums[lane].add(child_games[lane]);
            }
            (best[to], sums[to]) = kept;
        }
        for lane in bits(moved) {
            let lane = lane as usize;
            out.codes[lane] = one_ply_more(best[lane]);
            out.games[lane] = sums[lane].normalise();
            out.excess |= out.games[lane].excess();
        }
        out
    }

    /// Solves hound set `set` with the fox to move on the squares of
    /// `foxes`, from these positions after its moves, into `here` at `row`.
    /// Returns nonzero if a count reached the tally's limit.
    #[inline(always)]
    fn solve_fox(
        &self,
        geo: &Geometry,
        set: u32,
        foxes: u32,
        fox_even: bool,
        here: &mut Level<C>,
        row: usize,
    ) -> u64 {
        let won = geo.won[set as usize];
        let hounds = geo.lanes(geo.sets[set as usize], !fox_even);
        let mut excess = 0;
        for fox in bits(foxes) {
            let lane = geo.lane[fox as usize] as usize;
            let steps = geo.lane_steps[fox as usize] & !hounds;
            let (code, count) = if won & 1 << fox != 0 {
                (FOX_WON, C::ONE)
            } else if steps == 0 {
                (HOUNDS_WON, C::ONE)
            } else {
                let mut best = HOUNDS_WON;
                let mut sum = C::ZERO;
                for to in bits(steps) {
                    let to = to as usize;
                    best = best.min(self.codes[to]);
                    sum = sum.add(self.games[to]);
                }
                let sum = sum.normalise();
                excess |= sum.excess();
                (one_ply_more(best), sum)
            };
            here.codes[row + lane] = code;
            here.games[row + lane] = count;
        }
        excess
    }
}

impl<C: Tally> Search<'_, C> {
    fn run(geo: &Geometry, root: Placement, side: Side) -> Search<'_, C> {
        let reach = Reach::from(geo, root, side);
        let levels = &geo.levels;
        let widest = (reach.first..levels.len() - 1)
            .map(|level| (levels[level + 1] - levels[level]) as usize)
            .max()
            .unwrap_or(0);
        let level = || Level {
            codes: vec![0u8; widest * LANES],
            games: vec![C::ZERO; widest * LANES],
        };
        // The level being solved and the one above.
        let (mut here, mut above) = (level(), level());
        let mut excess = 0;
        let mut root_entry = (0, C::ZERO);
        let mut root_row = [0; LANES];
        for level in (reach.first..levels.len() - 1).rev() {
            std::mem::swap(&mut here, &mut above);
            let fox_turn = reach.fox_turn(geo, level);
            let fox_even = fox_turn == geo.even_rows;
            let (low, high) = (levels[level], levels[level + 1]);
            for set in low..high {
                let seen = reach.seen[set as usize];
                if seen == 0 {
                    continue;
                }
                let won = geo.won[set as usize];
                let hounds_turn = geo.lanes(seen & !fox_turn & !won, !fox_even);
                let hounds = HoundsRow::solve(geo, set, high, hounds_turn, fox_even, &above);
                excess |= hounds.excess;
                let row = (set - low) as usize * LANES;
                excess |= hounds.solve_fox(geo, set, seen & fox_turn, fox_even, &mut here, row);
                if set == root.set {
                    let lane = geo.lane[root.fox as usize] as usize;
                    root_entry = if fox_turn & 1 << root.fox != 0 {
                        (here.codes[row + lane], here.games[row + lane])
                    } else {
                        (hounds.codes[lane], hounds.games[lane])
                    };
                    root_row = hounds.codes;
                }
            }
        }
        Search {
            geo,
            root,
            code: code_of(root_entry.0),
            games: root_entry.1,
            root_row,
            above: above.codes,
            reachable: reach.count(),
            overflow: excess != 0,
        }
    }

    /// The value code of a child of the root.
    fn child_code(&self, child: Placement) -> u8 {
        let lane = self.geo.lane[child.fox as usize] as usize;
        if child.set == self.root.set {
            code_of(self.root_row[lane])
        } else {
            let low = self.geo.levels[self.geo.level(child.set)];
            code_of(self.above[(child.set - low) as usize * LANES + lane])
        }
    }
}

/// A position's value as the hounds' score (see `score`): the fox wins
/// in `s` plies below 128, the hounds in `255 - s` from 128 up. The best
/// move for the hounds has the greatest score, for the fox the least, and
/// either way one more ply takes a score one step nearer the middle.
const FOX_WON: u8 = 0;
const HOUNDS_WON: u8 = 255;

#[inline(always)]
fn one_ply_more(best: u8) -> u8 {
    if best >= 128 { best - 1 } else { best + 1 }
}

/// The value code of a hounds' score.
fn code_of(hounds_score: u8) -> u8 {
    if hounds_score >= 128 {
        HOUNDS_WIN | (255 - hounds_score)
    } else {
        hounds_score
    }
}

/// The legal moves of `pos` whose child has `value` one ply closer to the end.
pub(super) fn best_of(
    pos: &Position,
    value: Value,
    child_value: impl FnMut(&Position) -> Value,
) -> Vec<Move> {
    let mut child_value = child_value;
    if value.plies == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&mv| {
            child_value(&pos.play(mv))
                == Value {
                    winner: value.winner,
                    plies: value.plies - 1,
                }
        })
        .collect()
}

/// A fresh full solve from `pos`: its value, every best move, how many
/// positions it can reach and how many complete games start from it.
///
/// Positions move as their own rules say ([`Position::captures`]) and end as
/// `rules` say; normally both are the same rules.
pub fn analyse(pos: &Position, rules: Rules) -> Analysis {
    if !covers(pos.board(), rules, pos.captures()) {
        return general::analyse(pos, rules);
    }
    let geo = Geometry::new(pos.board(), rules);
    let root = geo.placement(pos);
    let narrow = Search::<Narrow>::run(&geo, root, pos.to_move());
    if narrow.overflow {
        drop(narrow);
        let wide = Search::<GameCount>::run(&geo, root, pos.to_move());
        assert!(
            !wide.overflow,
            "fewer than 2^174 games always fit in 184 bits"
        );
        finish(pos, &wide)
    } else {
        finish(pos, &narrow)
    }
}

fn finish<C: Tally>(pos: &Position, search: &Search<'_, C>) -> Analysis {
    let geo = search.geo;
    let value = decode(search.code);
    let best = best_of(pos, value, |child| {
        decode(search.child_code(geo.placement(child)))
    });
    Analysis {
        value,
        best,
        reachable: search.reachable,
        possible_games: search.games.wide(),
    }
}

/// A reusable table of values for one board and rule set, filled as positions
/// are asked about: the first question about a game pays for solving it,
/// later ones are table look-ups. Used for hints and the perfect computer player.
///
/// Like [`analyse`], it takes each position's moves from the position itself
/// and its endings from the solver's rules.
pub struct Solver {
    board: Board,
    rules: Rules,
    /// The dense tables, when the board and rules allow them (see `covers`).
    dense: Option<Dense>,
    /// The general solver's tables, for positions without and with captures,
    /// made when first needed.
    general: [Option<general::Lazy>; 2],
}

/// The dense solver's geometry and its tables of values.
struct Dense {
    geo: Geometry,
    /// One table per class of positions (see `Geometry::class`), allocated when first needed.
    tables: [Vec<u8>; 2],
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("board", &self.board)
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// An empty solver for positions on `board` under `rules`.
    pub fn new(board: Board, rules: Rules) -> Solver {
        Solver {
            board,
            rules,
            dense: covers(board, rules, false).then(|| Dense {
                geo: Geometry::new(board, rules),
                tables: [Vec::new(), Vec::new()],
            }),
            general: [None, None],
        }
    }

    /// The board this solver works on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The rules this solver works under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The value of `pos` with best play. Panics if `pos` is on another board.
    pub fn value(&mut self, pos: &Position) -> Value {
        if let Some(dense) = self.dense.as_mut().filter(|_| !pos.captures()) {
            return dense.value(pos);
        }
        let (board, rules, captures) = (self.board, self.rules, pos.captures());
        self.general[usize::from(captures)]
            .get_or_insert_with(|| general::Lazy::new(board, rules, captures))
            .value(pos)
    }

    /// Every legal move of `pos` that keeps its value, in generation order;
    /// empty if the game is over. Panics if `pos` is on another board.
    pub fn best_moves(&mut self, pos: &Position) -> Vec<Move> {
        let value = self.value(pos);
        best_of(pos, value, |child| self.value(child))
    }
}

impl Dense {
    fn value(&mut self, pos: &Position) -> Value {
        let p = self.geo.placement(pos);
        let table = &mut self.tables[self.geo.class(pos)];
        if table.is_empty() {
            *table = vec![UNKNOWN; self.geo.size()];
        }
        match table[self.geo.index(p)] {
            UNKNOWN => decode(solve_value(&self.geo, table, p, pos.to_move())),
            code => decode(code),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_counts_add_compare_and_print_in_decimal() {
        let big = GameCount::from(u128::MAX);
        let bigger = big.checked_add(GameCount::ONE).unwrap();
        assert_eq!(bigger.to_u128(), None);
        assert_eq!(bigger.bits(), 129);
        assert_eq!(
            bigger.to_string(),
            "340282366920938463463374607431768211456"
        );
        assert_eq!(big.to_string(), u128::MAX.to_string());
        assert!(big < bigger && GameCount::ZERO < GameCount::ONE);
        assert_eq!(GameCount::ZERO.to_string(), "0");
        assert_eq!(format!("{:>5}", GameCount::from(42u64)), "   42");
        assert_eq!(
            GameCount::from(10_000_000_000_000_000_000u128).to_string(),
            "10000000000000000000"
        );
        let max = GameCount([u64::MAX; 3]);
        assert_eq!(max.checked_add(GameCount::ONE), None);
        assert_eq!(max.bits(), 192);
    }

    #[test]
    fn both_tallies_count_alike() {
        let board = Board::new(6, 6).unwrap();
        let start = Position::start(board, board.default_fox_start(), Side::Fox).unwrap();
        let geo = Geometry::new(board, Rules::Standard);
        let root = geo.placement(&start);
        let narrow = finish(&start, &Search::<Narrow>::run(&geo, root, Side::Fox));
        let wide = finish(&start, &Search::<GameCount>::run(&geo, root, Side::Fox));
        assert_eq!(narrow, wide);
        assert_eq!(wide.possible_games.to_string(), "56912315752306");
    }

    #[test]
    fn value_codes_round_trip_and_rank_wins_above_losses() {
        for winner in [Side::Fox, Side::Hounds] {
            for plies in 0..=60 {
                let value = Value { winner, plies };
                assert_eq!(decode(encode(value)), value);
                assert_ne!(encode(value), UNKNOWN);
            }
        }
        let fox = |plies| {
            encode(Value {
                winner: Side::Fox,
                plies,
            })
        };
        assert!(score(fox(3), Side::Fox) > score(fox(5), Side::Fox));
        assert!(score(fox(3), Side::Hounds) < score(fox(5), Side::Hounds));
        assert!(score(fox(60), Side::Fox) > score(fox(0), Side::Hounds));
        assert_eq!(
            decode(from_score(score(fox(3), Side::Fox), Side::Fox)),
            Value {
                winner: Side::Fox,
                plies: 4
            }
        );
        assert_eq!(
            decode(from_score(score(fox(3), Side::Hounds), Side::Hounds)),
            Value {
                winner: Side::Fox,
                plies: 4
            }
        );
    }

    /// Every set of `k` numbers below `n`, as bit sets.
    fn subsets(n: u32, k: u32, low: u32, set: u32, out: &mut Vec<u32>) {
        if k == 0 {
            out.push(set);
            return;
        }
        for i in low..n {
            subsets(n, k - 1, i + 1, set | 1 << i, out);
        }
    }

    #[test]
    fn the_index_is_dense_and_one_to_one() {
        for board in Board::all() {
            let geo = Geometry::new(board, Rules::Standard);
            let mut sets = Vec::new();
            subsets(geo.dark as u32, board.hound_count() as u32, 0, 0, &mut sets);
            assert_eq!(sets.len(), geo.sets.len(), "{board}");
            for &mask in &sets {
                assert_eq!(geo.sets[geo.set_number(mask) as usize], mask, "{board}");
            }
        }
    }
}
