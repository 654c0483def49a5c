//! The general solver: every board, odd widths too, under every rule set,
//! the capture rules included, where the number of hounds falls as the fox
//! eats them and a hound may take the fox.
//!
//! The dense solver of `solver.rs` is the fast one, but it leans on a fixed
//! number of hounds and on rows of equal length; this one serves the rest.
//! Positions are numbered densely here too, in an order every move climbs:
//! by the number of hounds, most first; then by the hounds' set, in order of
//! the sum of their rows; then by the side to move, the fox first; then by the
//! fox's dark square, with one more slot for a fox a hound has taken. A fox
//! move changes the side to move from the fox to the hounds (and a capture
//! leaves one hound fewer); a hound move adds one to the row sum. So one pass
//! up the numbers marks everything reachable, and one pass down solves it.

use super::board::{Board, Square};
use super::position::{FOX_STEPS, HOUND_STEPS, Position, Rules, Side};
use super::solver::{
    Analysis, GameCount, UNKNOWN, Value, best_of, binomials, bits, cones, dark_squares, decode,
    encode, from_score, numbering, score, step_masks, subsets,
};

/// The most hounds a board has: ceil(8 / 2).
const MOST_HOUNDS: usize = 4;
/// The most dark squares a board has: half of 8x8.
const MOST_DARK: usize = 32;

/// One position in compact form: the hounds as a set of dark-square numbers,
/// the fox's dark-square number (or the graph's `taken` slot) and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Node {
    hounds: u32,
    fox: u8,
    side: Side,
}

/// The positions of one board under one set of rules and one way of moving
/// (with or without captures), numbered, with their endings and moves.
pub(super) struct Graph {
    board: Board,
    rules: Rules,
    captures: bool,
    /// Dark squares, numbered 0.. in square order.
    dark: usize,
    /// Dark-square number of each square index, or `OFF`.
    number: [u8; 64],
    /// The dark squares diagonally next to each dark square.
    fox_steps: Vec<u32>,
    /// The dark squares a hound on each dark square steps forward to.
    hound_steps: Vec<u32>,
    /// Each dark square's forward cone: every square a hound there could reach.
    cone: Vec<u32>,
    /// The dark squares of row 1.
    row_one: u32,
    /// `binom[n][r]`, for ranking hound sets by the combinatorial number system.
    binom: [[u32; MOST_HOUNDS + 1]; MOST_DARK + 1],
    /// The hound sets of each hound count, in order of row sum.
    sets: Vec<Vec<u32>>,
    /// A set's place in `sets`, by its colex rank, for each hound count.
    by_rank: Vec<Vec<u32>>,
    /// The first number of each hound count's positions.
    base: Vec<usize>,
    /// The fewest hounds a position can have: none with captures, else all.
    fewest: usize,
    /// Positions in all.
    size: usize,
}

impl Graph {
    /// The positions of `board` under `rules`, moving with or without captures.
    pub(super) fn new(board: Board, rules: Rules, captures: bool) -> Graph {
        let squares = dark_squares(board);
        let dark = squares.len();
        let most = board.hound_count();
        debug_assert!(dark <= MOST_DARK && most <= MOST_HOUNDS);
        let number = numbering(&squares);
        let fox_steps = step_masks(board, &squares, &number, &FOX_STEPS);
        let hound_steps = step_masks(board, &squares, &number, &HOUND_STEPS);
        let cone = cones(&squares);
        let row_one = squares
            .iter()
            .enumerate()
            .filter(|(_, sq)| sq.row() == 0)
            .fold(0, |mask, (i, _)| mask | 1 << i);
        let binom = binomials();
        let row_sum = |mask: u32| -> u32 {
            bits(mask)
                .map(|i| u32::from(squares[i as usize].row()))
                .sum()
        };
        let fewest = if captures { 0 } else { most };
        let mut sets = vec![Vec::new(); most + 1];
        let mut by_rank = vec![Vec::new(); most + 1];
        for k in fewest..=most {
            let colex = subsets(dark, k);
            let mut order: Vec<u32> = (0..colex.len() as u32).collect();
            // Stable, so sets of one row sum stay in colex order.
            order.sort_by_key(|&rank| row_sum(colex[rank as usize]));
            by_rank[k] = vec![0; colex.len()];
            for (place, &rank) in order.iter().enumerate() {
                by_rank[k][rank as usize] = place as u32;
            }
            sets[k] = order.iter().map(|&rank| colex[rank as usize]).collect();
        }
        let slots = dark + 1;
        let mut base = vec![0; most + 1];
        let mut size = 0;
        for k in (fewest..=most).rev() {
            base[k] = size;
            size += sets[k].len() * 2 * slots;
        }
        Graph {
            board,
            rules,
            captures,
            dark,
            number,
            fox_steps,
            hound_steps,
            cone,
            row_one,
            binom,
            sets,
            by_rank,
            base,
            fewest,
            size,
        }
    }

    /// The slot of a fox a hound has taken.
    fn taken(&self) -> u8 {
        self.dark as u8
    }

    /// A position as a node. Panics if it is on another board, or moves
    /// otherwise than this graph's positions.
    fn node(&self, pos: &Position) -> Node {
        assert_eq!(pos.board(), self.board, "a solver works on one board size");
        assert_eq!(pos.captures(), self.captures, "a graph moves one way");
        let number = |sq: Square| self.number[sq.index() as usize];
        Node {
            hounds: pos.hounds().fold(0, |mask, h| mask | 1 << number(h)),
            fox: pos.fox().map_or(self.taken(), number),
            side: pos.to_move(),
        }
    }

    /// A node's number: see the module's notes for the order.
    fn index(&self, node: Node) -> usize {
        let k = node.hounds.count_ones() as usize;
        let mut rank = 0;
        for (i, square) in bits(node.hounds).enumerate() {
            rank += self.binom[square as usize][i + 1];
        }
        let set = self.by_rank[k][rank as usize] as usize;
        let side = usize::from(node.side == Side::Hounds);
        self.base[k] + (set * 2 + side) * (self.dark + 1) + usize::from(node.fox)
    }

    /// The node with a number.
    fn at(&self, index: usize) -> Node {
        // Hound counts go down as the numbers go up.
        let k = (self.fewest..self.sets.len())
            .find(|&k| self.base[k] <= index)
            .unwrap_or(self.fewest);
        let slots = self.dark + 1;
        let offset = index - self.base[k];
        let (set, fox) = (offset / slots / 2, offset % slots);
        Node {
            hounds: self.sets[k][set],
            fox: fox as u8,
            side: if (offset / slots).is_multiple_of(2) {
                Side::Fox
            } else {
                Side::Hounds
            },
        }
    }

    /// The squares a piece may not step onto: its own side's, and the other
    /// side's unless pieces capture.
    fn blocked(&self, own: u32, other: u32) -> u32 {
        if self.captures { own } else { own | other }
    }

    /// The fox's bit, or nothing once it is taken.
    fn fox_bit(&self, node: Node) -> u32 {
        if node.fox == self.taken() {
            0
        } else {
            1 << node.fox
        }
    }

    /// The winner if the game is over at `node`, checked in the order
    /// `Position::ending` uses.
    fn winner(&self, node: Node) -> Option<Side> {
        if node.fox == self.taken() {
            return Some(Side::Hounds);
        }
        let fox = usize::from(node.fox);
        if self.rules.row_one_wins() && self.row_one >> fox & 1 != 0 {
            return Some(Side::Fox);
        }
        if self.rules.early_win() {
            let reach = bits(node.hounds).fold(0, |reach, h| reach | self.cone[h as usize]);
            if reach >> fox & 1 == 0 && self.fox_steps[fox] & !reach != 0 {
                return Some(Side::Fox);
            }
        }
        if self.rules.boxed_in_loses() && self.fox_steps[fox] & !node.hounds == 0 {
            return Some(Side::Hounds);
        }
        let can_move = match node.side {
            Side::Fox => self.fox_steps[fox] & !self.blocked(0, node.hounds) != 0,
            Side::Hounds => {
                let ahead =
                    bits(node.hounds).fold(0, |ahead, h| ahead | self.hound_steps[h as usize]);
                ahead & !self.blocked(node.hounds, 1 << fox) != 0
            }
        };
        (!can_move).then(|| node.side.other())
    }

    /// Calls `visit` on the node after each legal move from `node`.
    fn for_each_child(&self, node: Node, mut visit: impl FnMut(Node)) {
        match node.side {
            Side::Fox => {
                if node.fox == self.taken() {
                    return;
                }
                let targets = self.fox_steps[node.fox as usize] & !self.blocked(0, node.hounds);
                for to in bits(targets) {
                    visit(Node {
                        hounds: node.hounds & !(1 << to),
                        fox: to,
                        side: Side::Hounds,
                    });
                }
            }
            Side::Hounds => {
                let fox = self.fox_bit(node);
                for from in bits(node.hounds) {
                    let targets = self.hound_steps[from as usize] & !self.blocked(node.hounds, fox);
                    for to in bits(targets) {
                        visit(Node {
                            hounds: node.hounds & !(1 << from) | 1 << to,
                            fox: if to == node.fox {
                                self.taken()
                            } else {
                                node.fox
                            },
                            side: Side::Fox,
                        });
                    }
                }
            }
        }
    }
}

/// A game count: a `u128`, which holds every count met in practice, or a
/// [`GameCount`] if that ever overflows.
trait Count: Copy {
    const ZERO: Self;
    const ONE: Self;
    fn checked_add(self, other: Self) -> Option<Self>;
    fn wide(self) -> GameCount;
}

impl Count for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    fn checked_add(self, other: u128) -> Option<u128> {
        u128::checked_add(self, other)
    }
    fn wide(self) -> GameCount {
        GameCount::from(self)
    }
}

impl Count for GameCount {
    const ZERO: GameCount = GameCount::ZERO;
    const ONE: GameCount = GameCount::ONE;
    fn checked_add(self, other: GameCount) -> Option<GameCount> {
        GameCount::checked_add(self, other)
    }
    fn wide(self) -> GameCount {
        self
    }
}

/// Everything reachable from one position, solved: a bit per position
/// number marks the reachable ones, and values and counts are kept only for
/// them, in number order.
struct Sweep<'g, C> {
    graph: &'g Graph,
    reached: Vec<u64>,
    /// Reachable positions in the words before each word of `reached`.
    before: Vec<u32>,
    codes: Vec<u8>,
    counts: Vec<C>,
}

impl<'g, C: Count> Sweep<'g, C> {
    /// Marks and solves everything reachable from `root`; `None` if a count overflows `C`.
    fn run(graph: &'g Graph, root: Node) -> Option<Sweep<'g, C>> {
        let words = graph.size.div_ceil(64);
        let mut reached = vec![0u64; words];
        let first = graph.index(root);
        reached[first / 64] |= 1 << (first % 64);
        // Children have higher numbers, so one pass up finds them all; a child
        // in the word being read is picked up when the word is read again.
        for word in first / 64..words {
            let mut done = 0u64;
            loop {
                let todo = reached[word] & !done;
                if todo == 0 {
                    break;
                }
                let bit = todo.trailing_zeros();
                done |= 1 << bit;
                let node = graph.at(word * 64 + bit as usize);
                if graph.winner(node).is_none() {
                    graph.for_each_child(node, |child| {
                        let i = graph.index(child);
                        reached[i / 64] |= 1 << (i % 64);
                    });
                }
            }
        }
        let mut before = Vec::with_capacity(words);
        let mut total = 0u32;
        for &word in &reached {
            before.push(total);
            total += word.count_ones();
        }
        let mut sweep = Sweep {
            graph,
            reached,
            before,
            codes: vec![UNKNOWN; total as usize],
            counts: vec![C::ZERO; total as usize],
        };
        for word in (0..words).rev() {
            let mut todo = sweep.reached[word];
            while todo != 0 {
                let bit = 63 - todo.leading_zeros() as usize;
                todo &= !(1 << bit);
                let index = word * 64 + bit;
                let node = graph.at(index);
                let (code, count) = match graph.winner(node) {
                    Some(winner) => (encode(Value { winner, plies: 0 }), C::ONE),
                    None => {
                        let mut best = 0;
                        let mut sum = C::ZERO;
                        let mut overflow = false;
                        graph.for_each_child(node, |child| {
                            let r = sweep.rank(graph.index(child));
                            best = best.max(score(sweep.codes[r], node.side));
                            match sum.checked_add(sweep.counts[r]) {
                                Some(s) => sum = s,
                                None => overflow = true,
                            }
                        });
                        if overflow {
                            return None;
                        }
                        (from_score(best, node.side), sum)
                    }
                };
                let r = sweep.rank(index);
                sweep.codes[r] = code;
                sweep.counts[r] = count;
            }
        }
        Some(sweep)
    }

    /// Where a reachable position's value and count are kept.
    fn rank(&self, index: usize) -> usize {
        let below = self.reached[index / 64] & ((1u64 << (index % 64)) - 1);
        self.before[index / 64] as usize + below.count_ones() as usize
    }

    fn value(&self, pos: &Position) -> Value {
        decode(self.codes[self.rank(self.graph.index(self.graph.node(pos)))])
    }

    fn analysis(&self, pos: &Position) -> Analysis {
        let root = self.rank(self.graph.index(self.graph.node(pos)));
        let value = decode(self.codes[root]);
        Analysis {
            value,
            best: best_of(pos, value, |child| self.value(child)),
            reachable: self.codes.len() as u64,
            possible_games: self.counts[root].wide(),
        }
    }
}

/// A fresh full solve from `pos` under `rules`, moving as `pos` does.
pub(super) fn analyse(pos: &Position, rules: Rules) -> Analysis {
    let graph = Graph::new(pos.board(), rules, pos.captures());
    let root = graph.node(pos);
    match Sweep::<u128>::run(&graph, root) {
        Some(sweep) => sweep.analysis(pos),
        None => Sweep::<GameCount>::run(&graph, root)
            .expect("fewer than 2^174 games always fit in 192 bits")
            .analysis(pos),
    }
}

/// A table of values for one board, one rule set and one way of moving,
/// filled as positions are asked about.
pub(super) struct Lazy {
    graph: Graph,
    table: Vec<u8>,
}

impl Lazy {
    pub(super) fn new(board: Board, rules: Rules, captures: bool) -> Lazy {
        Lazy {
            graph: Graph::new(board, rules, captures),
            table: Vec::new(),
        }
    }

    /// The value of `pos`. Panics if it is on another board or moves otherwise.
    pub(super) fn value(&mut self, pos: &Position) -> Value {
        let node = self.graph.node(pos);
        if self.table.is_empty() {
            self.table = vec![UNKNOWN; self.graph.size];
        }
        decode(solve(&self.graph, &mut self.table, node))
    }
}

/// Solves `node` and everything it leads to into `table`, depth first.
fn solve(graph: &Graph, table: &mut [u8], node: Node) -> u8 {
    let index = graph.index(node);
    if table[index] != UNKNOWN {
        return table[index];
    }
    let code = match graph.winner(node) {
        Some(winner) => encode(Value { winner, plies: 0 }),
        None => {
            let mut best = 0;
            graph.for_each_child(node, |child| {
                best = best.max(score(solve(graph, table, child), node.side));
            });
            from_score(best, node.side)
        }
    };
    table[index] = code;
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_go_round_and_every_move_climbs() {
        for (board, captures) in [("5x5", true), ("7x4", true), ("5x4", false), ("4x4", true)] {
            let board: Board = board.parse().unwrap();
            let graph = Graph::new(board, Rules::Capture, captures);
            let mut nodes = 0;
            for index in 0..graph.size {
                let node = graph.at(index);
                // Slots past a hound's square or on one are not positions.
                if node.fox != graph.taken() && node.hounds >> node.fox & 1 != 0 {
                    continue;
                }
                assert_eq!(graph.index(node), index, "{board}");
                nodes += 1;
                graph.for_each_child(node, |child| assert!(graph.index(child) > index));
            }
            assert!(nodes > 100, "{board}");
        }
    }
}
