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
//! assert_eq!(analysis.value, Value { winner: Side::Hounds, plies: 6 });
//! assert!(analysis.reachable > 1);
//! ```

use std::cmp::Ordering;
use std::fmt;

use super::board::{Board, MAX_SIDE};
use super::position::{Move, Position, Rules, Side, FOX_STEPS, HOUND_STEPS};

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
/// count from a start position (see `examples/solve_all.rs`).
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

    /// The sum of two counts in the search; the bound above rules out overflow.
    fn add(self, other: GameCount) -> GameCount {
        self.checked_add(other)
            .expect("fewer than 2^174 games fit in 192 bits")
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
    let winner = if value.winner == Side::Hounds { HOUNDS_WIN } else { 0 };
    winner | value.plies as u8
}

fn decode(code: u8) -> Value {
    Value {
        winner: if code & HOUNDS_WIN != 0 { Side::Hounds } else { Side::Fox },
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
        encode(Value { winner: side, plies: u32::from(255 - best) + 1 })
    } else {
        encode(Value { winner: side.other(), plies: u32::from(best) + 1 })
    }
}

/// A placement in compact form: the fox's dark-square number and the hounds'
/// dark squares as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Placement {
    fox: u8,
    hounds: u32,
}

/// At most eight children of a position.
struct Children {
    list: [Placement; 8],
    len: usize,
}

/// A board's dark squares numbered 0.. in square order, with each square's
/// steps and the hounds' reach precomputed, under one set of rules.
#[derive(Clone, Debug)]
struct Geometry {
    board: Board,
    row_one_wins: bool,
    early_win: bool,
    dark: usize,
    /// Dark-square number of each square index, or `OFF`.
    number: [u8; 64],
    row: Vec<u8>,
    fox_steps: Vec<[u8; 4]>,
    hound_steps: Vec<[u8; 2]>,
    /// Every dark square a hound on this one could still reach.
    cone: Vec<u32>,
    /// `binom[n][r]` for the combinatorial number system.
    binom: [[u32; 5]; 33],
    /// Entries in a dense table: hound sets times fox squares.
    size: usize,
}

impl Geometry {
    fn new(board: Board, rules: Rules) -> Geometry {
        let squares: Vec<_> = (0..board.height())
            .flat_map(|row| board.dark_squares_of_row(row))
            .collect();
        let mut number = [OFF; 64];
        for (i, sq) in squares.iter().enumerate() {
            number[sq.index() as usize] = i as u8;
        }
        let step = |sq, (dc, dr)| board.offset(sq, dc, dr).map_or(OFF, |to| number[to.index() as usize]);
        let fox_steps = squares.iter().map(|&sq| FOX_STEPS.map(|s| step(sq, s))).collect();
        let hound_steps = squares.iter().map(|&sq| HOUND_STEPS.map(|s| step(sq, s))).collect();
        let cone = squares
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
                binom[n][r] = if n == 0 { 0 } else { binom[n - 1][r - 1] + binom[n - 1][r] };
            }
        }
        let dark = squares.len();
        debug_assert!(dark <= 32 && board.hound_count() <= 4 && MAX_SIDE == 8);
        Geometry {
            board,
            row_one_wins: rules != Rules::Escape,
            early_win: rules != Rules::Standard,
            dark,
            number,
            row: squares.iter().map(|sq| sq.row()).collect(),
            fox_steps,
            hound_steps,
            cone,
            binom,
            size: binom[dark][board.hound_count()] as usize * dark,
        }
    }

    fn placement(&self, pos: &Position) -> Placement {
        assert_eq!(pos.board(), self.board, "a solver works on one board size");
        let number = |sq: super::board::Square| self.number[sq.index() as usize];
        Placement {
            fox: number(pos.fox()),
            hounds: pos.hounds().fold(0, |mask, h| mask | 1 << number(h)),
        }
    }

    /// The dense table index: the hound set's rank, then the fox's square.
    fn index(&self, p: Placement) -> usize {
        let mut rank = 0;
        let mut rest = p.hounds;
        let mut i = 1;
        while rest != 0 {
            rank += self.binom[rest.trailing_zeros() as usize][i];
            rest &= rest - 1;
            i += 1;
        }
        rank as usize * self.dark + p.fox as usize
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
            let mut reach = 0;
            let mut rest = p.hounds;
            while rest != 0 {
                reach |= self.cone[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            return reach & 1 << p.fox == 0
                && self.fox_steps[p.fox as usize]
                    .iter()
                    .any(|&to| to != OFF && reach & 1 << to == 0);
        }
        false
    }

    fn children(&self, p: Placement, side: Side) -> Children {
        let mut out = Children {
            list: [p; 8],
            len: 0,
        };
        let occupied = p.hounds | 1 << p.fox;
        let mut push = |child| {
            out.list[out.len] = child;
            out.len += 1;
        };
        match side {
            Side::Fox => {
                for &to in &self.fox_steps[p.fox as usize] {
                    if to != OFF && occupied & 1 << to == 0 {
                        push(Placement { fox: to, ..p });
                    }
                }
            }
            Side::Hounds => {
                let mut rest = p.hounds;
                while rest != 0 {
                    let from = rest.trailing_zeros();
                    rest &= rest - 1;
                    for &to in &self.hound_steps[from as usize] {
                        if to != OFF && occupied & 1 << to == 0 {
                            push(Placement {
                                hounds: p.hounds & !(1 << from) | 1 << to,
                                ..p
                            });
                        }
                    }
                }
            }
        }
        out
    }
}

/// Solves `p` and every position it leads to into `table` (value codes only).
fn solve_value(geo: &Geometry, table: &mut [u8], p: Placement, side: Side) -> u8 {
    let index = geo.index(p);
    if table[index] != UNKNOWN {
        return table[index];
    }
    let code = if geo.fox_won(p) {
        encode(Value { winner: Side::Fox, plies: 0 })
    } else {
        let children = geo.children(p, side);
        let mut best = None;
        for &child in &children.list[..children.len] {
            let s = score(solve_value(geo, table, child, side.other()), side);
            best = best.max(Some(s));
        }
        match best {
            Some(best) => from_score(best, side),
            None => encode(Value { winner: side.other(), plies: 0 }),
        }
    };
    table[index] = code;
    code
}

/// One fresh search that also counts positions and games.
struct Search<'g> {
    geo: &'g Geometry,
    /// Entry number of each solved table index, or `u32::MAX`.
    entry: Vec<u32>,
    codes: Vec<u8>,
    games: Vec<GameCount>,
}

impl Search<'_> {
    fn visit(&mut self, p: Placement, side: Side) -> usize {
        let index = self.geo.index(p);
        if self.entry[index] != u32::MAX {
            return self.entry[index] as usize;
        }
        let (code, games) = if self.geo.fox_won(p) {
            (encode(Value { winner: Side::Fox, plies: 0 }), GameCount::ONE)
        } else {
            let children = self.geo.children(p, side);
            let mut best = None;
            let mut games = GameCount::ZERO;
            for &child in &children.list[..children.len] {
                let e = self.visit(child, side.other());
                best = best.max(Some(score(self.codes[e], side)));
                games = games.add(self.games[e]);
            }
            match best {
                Some(best) => (from_score(best, side), games),
                None => (encode(Value { winner: side.other(), plies: 0 }), GameCount::ONE),
            }
        };
        let e = self.codes.len();
        self.codes.push(code);
        self.games.push(games);
        self.entry[index] = e as u32;
        e
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
            child_value(&pos.play(mv)) == Value { winner: value.winner, plies: value.plies - 1 }
        })
        .collect()
}

/// A fresh full solve from `pos`: its value, every best move, how many
/// positions it can reach and how many complete games start from it.
pub fn analyse(pos: &Position, rules: Rules) -> Analysis {
    let geo = Geometry::new(pos.board(), rules);
    let mut search = Search {
        geo: &geo,
        entry: vec![u32::MAX; geo.size],
        codes: Vec::new(),
        games: Vec::new(),
    };
    let root = search.visit(geo.placement(pos), pos.to_move());
    let value = decode(search.codes[root]);
    let best = best_of(pos, value, |child| {
        decode(search.codes[search.entry[geo.index(geo.placement(child))] as usize])
    });
    Analysis {
        value,
        best,
        reachable: search.codes.len() as u64,
        possible_games: search.games[root],
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
            *table = vec![UNKNOWN; self.geo.size];
        }
        decode(solve_value(&self.geo, table, p, pos.to_move()))
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
        let bigger = big.add(GameCount::ONE);
        assert_eq!(bigger.to_u128(), None);
        assert_eq!(bigger.bits(), 129);
        assert_eq!(bigger.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(big.to_string(), u128::MAX.to_string());
        assert!(big < bigger && GameCount::ZERO < GameCount::ONE);
        assert_eq!(GameCount::ZERO.to_string(), "0");
        assert_eq!(format!("{:>5}", GameCount::from(42u64)), "   42");
        assert_eq!(GameCount::from(10_000_000_000_000_000_000u128).to_string(), "10000000000000000000");
        let max = GameCount([u64::MAX; 3]);
        assert_eq!(max.checked_add(GameCount::ONE), None);
        assert_eq!(max.bits(), 192);
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
        let fox = |plies| encode(Value { winner: Side::Fox, plies });
        assert!(score(fox(3), Side::Fox) > score(fox(5), Side::Fox));
        assert!(score(fox(3), Side::Hounds) < score(fox(5), Side::Hounds));
        assert!(score(fox(60), Side::Fox) > score(fox(0), Side::Hounds));
        assert_eq!(decode(from_score(score(fox(3), Side::Fox), Side::Fox)), Value { winner: Side::Fox, plies: 4 });
        assert_eq!(decode(from_score(score(fox(3), Side::Hounds), Side::Hounds)), Value { winner: Side::Fox, plies: 4 });
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
            let mut seen = vec![false; geo.size];
            for &hounds in &sets {
                for fox in 0..geo.dark as u8 {
                    let index = geo.index(Placement { fox, hounds });
                    assert!(!seen[index], "{board}");
                    seen[index] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "{board}");
        }
    }
}
