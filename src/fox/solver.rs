//! The solved game: exact values, every best move and exact game counts,
//! by exhaustive search of the positions a position can lead to.
//!
//! Hounds only move forward, so the game graph is acyclic and a memoised
//! depth-first search is exact. Positions are kept in a dense table instead of
//! a hash map: the hounds' set of dark squares is ranked with the combinatorial
//! number system and multiplied by the fox's dark square. The side to move is
//! not part of the index: every ply changes the sum of all pieces' rows by one,
//! so within one search the placement alone fixes whose turn it is.
//!
//! ```
//! use tallyho::fox::solver::{analyse, Value};
//! use tallyho::fox::{Board, Position, Rules, Side};
//!
//! let board = Board::new(4, 4).unwrap();
//! let start = Position::start(board, board.default_fox_start(), Side::Fox).unwrap();
//! let analysis = analyse(&start, Rules::Standard);
//! assert_eq!(analysis.value, Value { winner: Side::Hounds, plies: 8 });
//! assert_eq!(analysis.reachable, 110);
//! ```

use std::cmp::Ordering;
use std::fmt;

use super::board::{Board, MAX_SIDE};
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
/// so the search adds in `u128` and repeats in 192 bits only if that overflows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GameCount([u64; 3]);

impl GameCount {
    /// No games.
    pub const ZERO: GameCount = GameCount([0; 3]);
    /// One game: the count of an ended position.
    pub const ONE: GameCount = GameCount([1, 0, 0]);

    /// The sum, or `None` if it does not fit in 192 bits.
    pub fn checked_add(self, other: GameCount) -> Option<GameCount> {
        let mut out = [0; 3];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        (!carry).then_some(GameCount(out))
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
const UNKNOWN: u8 = u8::MAX;
/// The winner bit of a value code; the low seven bits are the plies.
const HOUNDS_WIN: u8 = 0x80;
/// A step that leaves the board.
const OFF: u8 = u8::MAX;

/// A value as one byte: winner bit and plies (at most 57).
fn encode(value: Value) -> u8 {
    let winner = if value.winner == Side::Hounds {
        HOUNDS_WIN
    } else {
        0
    };
    winner | value.plies as u8
}

fn decode(code: u8) -> Value {
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
fn score(code: u8, side: Side) -> u8 {
    let value = decode(code);
    if value.winner == side {
        255 - value.plies as u8
    } else {
        value.plies as u8
    }
}

/// The value of a position whose best child scores `best` for `side`, the side to move.
fn from_score(best: u8, side: Side) -> u8 {
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

/// A placement in compact form: the rank of the hounds' set of dark squares
/// and the fox's dark-square number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Placement {
    rank: u32,
    fox: u8,
}

/// A legal-unless-the-fox-is-there hound move of one hound set: the square
/// it goes to and the rank of the set it makes.
#[derive(Clone, Copy, Debug)]
struct HoundMove {
    to: u8,
    rank: u32,
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
    row: Vec<u8>,
    /// The dark squares next to each dark square.
    fox_steps: Vec<u32>,
    /// `binom[n][r]` for the combinatorial number system.
    binom: [[u32; 5]; 33],
    /// Every hound set, by rank: in colex order, which is increasing mask order.
    sets: Vec<u32>,
    /// Every square the hounds of each set could still reach.
    reach: Vec<u32>,
    /// The moves of each set, `moves[starts[rank]..starts[rank + 1]]`.
    starts: Vec<u32>,
    moves: Vec<HoundMove>,
}

impl Geometry {
    fn new(board: Board, rules: Rules) -> Geometry {
        let squares: Vec<_> = (0..board.height())
            .flat_map(|row| board.dark_squares_of_row(row))
            .collect();
        let dark = squares.len();
        let k = board.hound_count();
        debug_assert!(dark <= 32 && k <= 4 && MAX_SIDE == 8);
        let mut number = [OFF; 64];
        for (i, sq) in squares.iter().enumerate() {
            number[sq.index() as usize] = i as u8;
        }
        let steps = |sq, list: &[(i8, i8)]| {
            list.iter()
                .filter_map(|&(dc, dr)| board.offset(sq, dc, dr))
                .fold(0u32, |mask, to| mask | 1 << number[to.index() as usize])
        };
        let fox_steps = squares.iter().map(|&sq| steps(sq, &FOX_STEPS)).collect();
        let hound_steps: Vec<u32> = squares.iter().map(|&sq| steps(sq, &HOUND_STEPS)).collect();
        let cone: Vec<u32> = squares
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
            .collect();
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
        let mut geo = Geometry {
            board,
            row_one_wins: rules != Rules::Escape,
            early_win: rules != Rules::Standard,
            dark,
            number,
            row: squares.iter().map(|sq| sq.row()).collect(),
            fox_steps,
            binom,
            sets: Vec::with_capacity(binom[dark][k] as usize),
            reach: Vec::with_capacity(binom[dark][k] as usize),
            starts: Vec::with_capacity(binom[dark][k] as usize + 1),
            moves: Vec::new(),
        };
        // Gosper's hack walks the k-sets in increasing mask order.
        let mut set = (1u64 << k) - 1;
        while set < 1 << dark {
            let mask = set as u32;
            geo.sets.push(mask);
            geo.reach
                .push(bits(mask).fold(0, |reach, h| reach | cone[h as usize]));
            geo.starts.push(geo.moves.len() as u32);
            for from in bits(mask) {
                for to in bits(hound_steps[from as usize] & !mask) {
                    let rank = geo.rank(mask & !(1 << from) | 1 << to);
                    geo.moves.push(HoundMove { to, rank });
                }
            }
            let low = set & set.wrapping_neg();
            let next = set + low;
            set = (((next ^ set) >> 2) / low) | next;
        }
        geo.starts.push(geo.moves.len() as u32);
        debug_assert_eq!(geo.sets.len(), binom[dark][k] as usize);
        geo
    }

    /// Entries in a dense table: hound sets times fox squares.
    fn size(&self) -> usize {
        self.sets.len() * self.dark
    }

    /// A hound set's colex rank: the sum of `C(square, i)` over its i-th square from 1.
    fn rank(&self, mask: u32) -> u32 {
        bits(mask)
            .zip(1..)
            .map(|(sq, i)| self.binom[sq as usize][i])
            .sum()
    }

    fn placement(&self, pos: &Position) -> Placement {
        assert_eq!(pos.board(), self.board, "a solver works on one board size");
        let number = |sq: super::board::Square| self.number[sq.index() as usize];
        Placement {
            rank: self.rank(pos.hounds().fold(0, |mask, h| mask | 1 << number(h))),
            fox: number(pos.fox()),
        }
    }

    /// The dense table index: the hound set's rank, then the fox's square,
    /// so that a fox move stays within a few cache lines (measured faster
    /// than the other way round).
    fn index(&self, p: Placement) -> usize {
        p.rank as usize * self.dark + p.fox as usize
    }

    /// Which of the two tables of positions this position belongs to: the
    /// parity of its row sum plus the side to move, which no move changes.
    fn class(&self, pos: &Position) -> usize {
        let rows: u32 = pos.hounds().map(|h| u32::from(h.row())).sum();
        let side = u32::from(pos.to_move() == Side::Hounds);
        ((rows + u32::from(pos.fox().row()) + side) % 2) as usize
    }

    /// Whether the fox has won by reaching row 1 or by escaping (as the rules allow).
    fn fox_won(&self, p: Placement) -> bool {
        if self.row_one_wins && self.row[p.fox as usize] == 0 {
            return true;
        }
        if self.early_win {
            let reach = self.reach[p.rank as usize];
            return reach & 1 << p.fox == 0 && self.fox_steps[p.fox as usize] & !reach != 0;
        }
        false
    }

    /// Calls `visit` on every position one move from `p`, `side` to move.
    #[inline(always)]
    fn for_each_child(&self, p: Placement, side: Side, mut visit: impl FnMut(Placement)) {
        match side {
            Side::Fox => {
                for fox in bits(self.fox_steps[p.fox as usize] & !self.sets[p.rank as usize]) {
                    visit(Placement { fox, ..p });
                }
            }
            Side::Hounds => {
                let range = self.starts[p.rank as usize] as usize
                    ..self.starts[p.rank as usize + 1] as usize;
                for mv in &self.moves[range] {
                    if mv.to != p.fox {
                        visit(Placement { rank: mv.rank, ..p });
                    }
                }
            }
        }
    }
}

/// The bits of a mask, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = u8> {
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
        encode(Value {
            winner: Side::Fox,
            plies: 0,
        })
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
            None => encode(Value {
                winner: side.other(),
                plies: 0,
            }),
        }
    };
    table[geo.index(p)] = code;
    code
}

/// A table entry of a counting search: a game count with the value code
/// packed into its top byte, plus one so that zero means "not solved yet"
/// (and a fresh table is zeroed memory the system hands out lazily). Value
/// and count share a cache line, and a child's look-up is one load.
///
/// Two widths: `u128` (counts below 2^120), which holds every count met in
/// practice, and [`GameCount`] (below 2^184), used only if `u128` overflows.
trait Tally: Copy + PartialEq {
    const ZERO: Self;
    const ONE: Self;
    fn checked_add(self, other: Self) -> Option<Self>;
    /// The entry for a solved position, or `None` if the count needs the top byte.
    fn pack(code: u8, games: Self) -> Option<Self>;
    /// The value code of an entry; meaningless for an unsolved one.
    fn code(self) -> u8;
    fn games(self) -> Self;
    fn wide(self) -> GameCount;
}

impl Tally for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    fn checked_add(self, other: u128) -> Option<u128> {
        u128::checked_add(self, other)
    }
    fn pack(code: u8, games: u128) -> Option<u128> {
        (games >> 120 == 0).then(|| (u128::from(code) + 1) << 120 | games)
    }
    fn code(self) -> u8 {
        ((self >> 120) as u8).wrapping_sub(1)
    }
    fn games(self) -> u128 {
        self & ((1 << 120) - 1)
    }
    fn wide(self) -> GameCount {
        GameCount::from(self)
    }
}

impl Tally for GameCount {
    const ZERO: GameCount = GameCount::ZERO;
    const ONE: GameCount = GameCount::ONE;
    fn checked_add(self, other: GameCount) -> Option<GameCount> {
        GameCount::checked_add(self, other)
    }
    fn pack(code: u8, games: GameCount) -> Option<GameCount> {
        let [lo, mid, hi] = games.0;
        (hi >> 56 == 0).then(|| GameCount([lo, mid, (u64::from(code) + 1) << 56 | hi]))
    }
    fn code(self) -> u8 {
        ((self.0[2] >> 56) as u8).wrapping_sub(1)
    }
    fn games(self) -> GameCount {
        GameCount([self.0[0], self.0[1], self.0[2] & ((1 << 56) - 1)])
    }
    fn wide(self) -> GameCount {
        self
    }
}

/// One fresh search that also counts positions and games, in a dense table.
struct Search<'g, C> {
    geo: &'g Geometry,
    table: Vec<C>,
    reachable: u64,
    overflow: bool,
}

impl<C: Tally> Search<'_, C> {
    fn run(geo: &Geometry, root: Placement, side: Side) -> Search<'_, C> {
        let mut search = Search {
            geo,
            table: vec![C::ZERO; geo.size()],
            reachable: 0,
            overflow: false,
        };
        search.visit(root, side);
        search
    }

    /// Solves and counts `p` and everything it leads to; returns its entry.
    fn visit(&mut self, p: Placement, side: Side) -> C {
        let geo = self.geo;
        let (code, games) = if geo.fox_won(p) {
            (
                encode(Value {
                    winner: Side::Fox,
                    plies: 0,
                }),
                C::ONE,
            )
        } else {
            let mut children = [(p, 0); 8];
            let mut len = 0;
            geo.for_each_child(p, side, |child| {
                children[len] = (child, geo.index(child));
                len += 1;
            });
            // Load every child's entry before using any: the loads miss the
            // cache independently, so they overlap.
            let mut entries = [C::ZERO; 8];
            for (entry, &(_, i)) in entries.iter_mut().zip(&children[..len]) {
                *entry = self.table[i];
            }
            let mut best = None;
            let mut games = C::ZERO;
            for (&(child, _), entry) in children[..len].iter().zip(&mut entries) {
                if *entry == C::ZERO {
                    *entry = self.visit(child, side.other());
                }
                best = best.max(Some(score(entry.code(), side)));
                match games.checked_add(entry.games()) {
                    Some(sum) => games = sum,
                    None => self.overflow = true,
                }
            }
            match best {
                Some(best) => (from_score(best, side), games),
                None => (
                    encode(Value {
                        winner: side.other(),
                        plies: 0,
                    }),
                    C::ONE,
                ),
            }
        };
        let entry = C::pack(code, games).unwrap_or_else(|| {
            self.overflow = true;
            C::pack(code, C::ZERO).expect("an empty count packs")
        });
        self.table[geo.index(p)] = entry;
        self.reachable += 1;
        entry
    }
}

/// The legal moves of `pos` whose child has `value` one ply closer to the end.
fn best_of(pos: &Position, value: Value, child_value: impl FnMut(&Position) -> Value) -> Vec<Move> {
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
pub fn analyse(pos: &Position, rules: Rules) -> Analysis {
    let geo = Geometry::new(pos.board(), rules);
    let root = geo.placement(pos);
    let narrow = Search::<u128>::run(&geo, root, pos.to_move());
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
    let root = geo.index(geo.placement(pos));
    let value = decode(search.table[root].code());
    let best = best_of(pos, value, |child| {
        decode(search.table[geo.index(geo.placement(child))].code())
    });
    Analysis {
        value,
        best,
        reachable: search.reachable,
        possible_games: search.table[root].games().wide(),
    }
}

/// A reusable table of values for one board and rule set, filled as positions
/// are asked about: the first question about a game pays for solving it,
/// later ones are table look-ups. Used for hints and the perfect computer player.
pub struct Solver {
    geo: Geometry,
    /// One table per class of positions (see `Geometry::class`), allocated when first needed.
    tables: [Vec<u8>; 2],
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("board", &self.geo.board)
            .field("rules", &self.rules())
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// An empty solver for positions on `board` under `rules`.
    pub fn new(board: Board, rules: Rules) -> Solver {
        Solver {
            geo: Geometry::new(board, rules),
            tables: [Vec::new(), Vec::new()],
        }
    }

    /// The board this solver works on.
    pub fn board(&self) -> Board {
        self.geo.board
    }

    /// The rules this solver works under.
    pub fn rules(&self) -> Rules {
        match (self.geo.row_one_wins, self.geo.early_win) {
            (true, false) => Rules::Standard,
            (true, true) => Rules::Coursework,
            _ => Rules::Escape,
        }
    }

    /// The value of `pos` with best play. Panics if `pos` is on another board.
    pub fn value(&mut self, pos: &Position) -> Value {
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

    /// Every legal move of `pos` that keeps its value, in generation order;
    /// empty if the game is over. Panics if `pos` is on another board.
    pub fn best_moves(&mut self, pos: &Position) -> Vec<Move> {
        let value = self.value(pos);
        best_of(pos, value, |child| self.value(child))
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
        let narrow = finish(&start, &Search::<u128>::run(&geo, root, Side::Fox));
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
                assert_eq!(geo.sets[geo.rank(mask) as usize], mask, "{board}");
            }
        }
    }
}
