//! The search: negamax with alpha-beta on the point difference still to
//! come, iterative deepening, a transposition table and history move
//! ordering; territory estimates at the horizon, exact region solving as
//! soon as the sides are separated, and exactness tracked throughout so an
//! answer says whether it is proven.

use std::ops::ControlFlow;

use super::board::Board;
use super::node::{MAX_MOVES, Node, Step};
use super::position::{Move, Position, Side};
use super::regions::RegionSolver;
use super::table::{Bound, PROVEN, Table};
use super::territory::Territory;
use crate::games::Deadline;
use crate::games::grid::squares;

/// Limits beyond the deadline, for tests and tools that must repeat exactly.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Stop after about this many nodes (search and region solving together).
    pub nodes: Option<u64>,
    /// Deepen no further than this many plies.
    pub depth: Option<u32>,
}

impl Limits {
    /// No limit but the deadline.
    pub const NONE: Limits = Limits {
        nodes: None,
        depth: None,
    };

    /// At most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            depth: None,
        }
    }

    /// At most `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            nodes: None,
            depth: Some(depth),
        }
    }
}

/// What the search found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// A best move; `None` when the game is over.
    pub best: Option<Move>,
    /// The final point difference, `P`'s points minus `A`'s, points already
    /// collected included, with best play from here (or the estimate of it).
    pub value: i32,
    /// Whether `value` is proven: the game was searched to its end (or to
    /// separated regions, solved exactly) on every line that mattered.
    pub exact: bool,
    /// The deepest iteration completed, in plies.
    pub depth: u32,
    /// Nodes visited, search and region solving together.
    pub nodes: u64,
}

impl Analysis {
    /// The value from `side`'s view: its final points minus the other's.
    pub fn value_for(&self, side: Side) -> i32 {
        match side {
            Side::P => self.value,
            Side::A => -self.value,
        }
    }
}

/// One move and its value, from [`Search::analyse_all`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The final point difference after it, `P`'s points minus `A`'s, with
    /// best play from then on (or the estimate of it).
    pub value: i32,
    /// Whether `value` is proven.
    pub exact: bool,
}

impl MoveValue {
    /// The value from `side`'s view: its final points minus the other's.
    pub fn value_for(&self, side: Side) -> i32 {
        match side {
            Side::P => self.value,
            Side::A => -self.value,
        }
    }
}

/// Budget of region-solving nodes for one separated position met in search;
/// the memo keeps what a call found, so a later call goes further.
const REGION_BUDGET: u64 = 200_000;
/// The deepest iteration before the search goes straight to the end of the
/// game. Measured on 6x6 positions of strong play at 28-30 tiles and the
/// 4x4 starts: deepening one ply at a time to the end took 1.3 to 2 times
/// the nodes of jumping after 10 to 14 plies (`examples/fish_memory.rs`).
const JUMP_AFTER: u32 = 12;
/// How often the deadline is asked, in nodes.
const CHECK_EVERY: u64 = 1024;
const INFINITY: i32 = 10_000;

/// A search with its memory: the table, the region memo and the move
/// history survive from one call to the next, as they do between the moves
/// of a game.
pub struct Search {
    table: Table,
    regions: RegionSolver,
    /// History scores by from-square (64 for a placement) and to-square.
    history: Vec<[u32; 64]>,
    nodes: u64,
    node_limit: u64,
    stopped: bool,
    /// Set when a value below the current node rests on an estimate.
    estimated: bool,
    /// Shuffles the root moves before the first iteration, if set.
    shuffle: Option<u64>,
}

impl Default for Search {
    fn default() -> Search {
        Search::new()
    }
}

/// The memory a search may take by default, table and region memo together:
/// 64 MB, so that a game's player and its hints fit in well under 250 MB.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// Nodes a millisecond the search visits at most on this kind of machine
/// (about 3,000 on 6x6): a table for a think of `t` ms needs no more slots
/// than `t` times this.
const NODES_PER_MS: usize = 4_000;

impl Search {
    /// A search for any board and thinking time, in [`DEFAULT_MEMORY`].
    pub fn new() -> Search {
        Search::within(DEFAULT_MEMORY)
    }

    /// A search taking at most about `bytes`: half for the transposition
    /// table, half for the region memo. Both are allocated fallibly and
    /// shrink to what the machine grants.
    pub fn within(bytes: usize) -> Search {
        Search::from_parts(Table::within(bytes / 2), RegionSolver::within(bytes / 2))
    }

    /// A search sized to its task: a board of `board` and about `think_ms`
    /// milliseconds a call (`None`: no time limit), within `bytes`. A short
    /// think cannot fill a large table, and a 4x4 board has few positions,
    /// so neither gets one: a table of at most one slot per node the time
    /// allows, and at most 16 MB on a board of 16 squares or fewer.
    pub fn sized(board: Board, think_ms: Option<u64>, bytes: usize) -> Search {
        let mut table = bytes / 2;
        if let Some(ms) = think_ms {
            let slots = usize::try_from(ms)
                .unwrap_or(usize::MAX)
                .saturating_mul(NODES_PER_MS);
            table = table.min(slots.saturating_mul(16));
        }
        if board.area() <= 16 {
            table = table.min(16 << 20);
        }
        Search::from_parts(Table::within(table), RegionSolver::within(bytes / 2))
    }

    /// A search with `2^bits` two-slot buckets (16 bytes a slot) and a
    /// region memo of the same size, or 8 MB if that is more.
    pub fn with_table_bits(bits: u32) -> Search {
        let memo = (32usize << bits.min(30)).max(8 << 20);
        Search::from_parts(Table::new(bits), RegionSolver::within(memo))
    }

    fn from_parts(table: Table, regions: RegionSolver) -> Search {
        Search {
            table,
            regions,
            history: vec![[0; 64]; 65],
            nodes: 0,
            node_limit: u64::MAX,
            stopped: false,
            estimated: false,
            shuffle: None,
        }
    }

    /// The size of its transposition table, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Shuffles the root moves of the next analysis with `seed`, so that
    /// among equally good moves a different one may be chosen: a player
    /// that varies its games. Without it the first in square order wins ties.
    pub fn shuffle_next(&mut self, seed: u64) {
        self.shuffle = Some(seed);
    }

    /// The best move and value of `pos`, deepening until the value is proven,
    /// a limit is reached or `deadline` passes. Past 12 plies it deepens
    /// straight to the end of the game, the one depth that can prove.
    pub fn analyse(&mut self, pos: &Position, limits: Limits, deadline: &dyn Deadline) -> Analysis {
        let root = Node::of(pos);
        let view = |future: i32| match pos.to_move() {
            Side::P => pos.difference() + future,
            Side::A => pos.difference() - future,
        };
        self.nodes = 0;
        let region_start = self.regions.nodes();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.stopped = false;
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 4;
            }
        }
        let mut buf = [Step::default(); MAX_MOVES];
        let n = root.moves_with(&mut buf, true);
        if n == 0 {
            return Analysis {
                best: None,
                value: pos.difference(),
                exact: true,
                depth: 0,
                nodes: 0,
            };
        }
        let mut order: Vec<(Step, i32)> = buf[..n].iter().map(|&s| (s, 0)).collect();
        if let Some(mut seed) = self.shuffle.take() {
            // Fisher-Yates with a xorshift: only the order is at stake.
            for i in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
        }
        if let Some(e) = self.table.probe(&root)
            && let Some(best) = Step::unpacked(e.best)
            && let Some(i) = order.iter().position(|m| m.0 == best)
        {
            order[..=i].rotate_right(1);
        }
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(root.plies_left() + 1)
            .max(1);
        let mut result = Analysis {
            best: order[0].0.to_move(),
            value: view(0),
            exact: false,
            depth: 0,
            nodes: 0,
        };
        // Past JUMP_AFTER plies, straight to the end of the game: only an
        // iteration that reaches the end can prove the value, and the ones
        // between cost more than the ordering they buy.
        let depths = (1..=max_depth).filter(|&d| d <= JUMP_AFTER || d == max_depth);
        for depth in depths {
            self.estimated = false;
            let (best, value, complete) = self.root(&root, &mut order, depth as i32, deadline);
            if let Some((best, value)) = best.zip(value) {
                result.best = best.to_move();
                result.value = view(value);
            }
            if !complete {
                break;
            }
            result.depth = depth;
            if !self.estimated {
                result.exact = true;
                break;
            }
        }
        result.nodes = self.nodes + (self.regions.nodes() - region_start);
        result
    }

    /// Every legal move of `pos` with its value, best first for the side to
    /// move (ties in square order): each move searched with a full window,
    /// deepening until every value is proven, a limit is reached or
    /// `deadline` passes. A value comes from the deepest search of its move
    /// that finished, and says whether it is exact. Empty when the game is
    /// over.
    pub fn analyse_all(
        &mut self,
        pos: &Position,
        limits: Limits,
        deadline: &dyn Deadline,
    ) -> Vec<MoveValue> {
        let root = Node::of(pos);
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.stopped = false;
        let mut buf = [Step::default(); MAX_MOVES];
        let n = root.moves_with(&mut buf, false);
        // Each move's value for the side to move, and whether it is proven.
        let mut values: Vec<(Step, i32, bool)> = buf[..n].iter().map(|&s| (s, 0, false)).collect();
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(root.plies_left() + 1)
            .max(1);
        // Depth 0 is the estimate at once (with separated regions solved),
        // so every move has a value however soon the deadline comes.
        let depths = (0..=max_depth).filter(|&d| d <= JUMP_AFTER || d == max_depth);
        'deepen: for depth in depths {
            let mut all_exact = true;
            for entry in values.iter_mut().filter(|e| !e.2) {
                self.estimated = false;
                let v =
                    self.child_value(&root, entry.0, depth as i32, -INFINITY, INFINITY, deadline);
                if self.stopped {
                    if depth == 0 {
                        entry.1 = v;
                    }
                    break 'deepen;
                }
                *entry = (entry.0, v, !self.estimated);
                all_exact &= entry.2;
            }
            if all_exact {
                break;
            }
        }
        let mover = pos.to_move();
        let mut out: Vec<MoveValue> = values
            .into_iter()
            .filter_map(|(step, v, exact)| {
                Some(MoveValue {
                    mv: step.to_move()?,
                    value: match mover {
                        Side::P => pos.difference() + v,
                        Side::A => pos.difference() - v,
                    },
                    exact,
                })
            })
            .collect();
        out.sort_by_key(|m| -m.value_for(mover));
        out
    }

    /// One iteration at the root. Returns the best move and value found and
    /// whether the iteration finished; when it was cut short, the move is
    /// one that finished searching and beat every move before it.
    fn root(
        &mut self,
        root: &Node,
        order: &mut [(Step, i32)],
        depth: i32,
        deadline: &dyn Deadline,
    ) -> (Option<Step>, Option<i32>, bool) {
        let mut alpha = -INFINITY;
        let mut best = None;
        let mut estimated = false;
        for entry in order.iter_mut() {
            let step = entry.0;
            self.estimated = false;
            let v = self.child_value(root, step, depth, alpha, INFINITY, deadline);
            estimated |= self.estimated;
            if self.stopped {
                self.estimated = true;
                return (best.map(|b: (Step, i32)| b.0), best.map(|b| b.1), false);
            }
            entry.1 = v;
            if v > alpha {
                alpha = v;
                best = Some((step, v));
            }
        }
        // Best first next time, then the others by their (bounded) scores.
        order.sort_by_key(|m| -m.1);
        self.estimated = estimated;
        if let Some((step, v)) = best {
            let draft = if estimated { depth as u8 } else { PROVEN };
            self.table.store(root, v, draft, Bound::Exact, Some(step));
        }
        (best.map(|b| b.0), best.map(|b| b.1), true)
    }

    /// The value of a move for the side making it: what it collects plus the
    /// rest of the game, whichever side moves next.
    fn child_value(
        &mut self,
        node: &Node,
        step: Step,
        depth: i32,
        alpha: i32,
        beta: i32,
        deadline: &dyn Deadline,
    ) -> i32 {
        let (child, gained) = node.play(step);
        let gained = gained as i32;
        if child.side == node.side {
            gained + self.negamax(&child, depth - 1, alpha - gained, beta - gained, deadline)
        } else {
            gained - self.negamax(&child, depth - 1, gained - beta, gained - alpha, deadline)
        }
    }

    fn tick(&mut self, deadline: &dyn Deadline) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (self.nodes + self.regions.nodes() >= self.node_limit || deadline.passed())
        {
            self.stopped = true;
        }
    }

    /// The value of `node` for its side to move, in points still to come.
    fn negamax(
        &mut self,
        node: &Node,
        depth: i32,
        alpha: i32,
        beta: i32,
        deadline: &dyn Deadline,
    ) -> i32 {
        self.tick(deadline);
        if self.stopped {
            return 0;
        }
        let (trimmed, apart) = node.trimmed();
        let node = &trimmed;
        if node.is_over() {
            return 0;
        }
        let tt_best = match self.probe(node, depth, alpha, beta) {
            ControlFlow::Break(v) => return v,
            ControlFlow::Continue(tt_best) => tt_best,
        };
        if apart && let ControlFlow::Break(v) = self.separated(node, deadline) {
            return v;
        }
        if depth <= 0 {
            self.estimated = true;
            return evaluate(node);
        }
        let outer = self.estimated;
        self.estimated = false;
        let Some((best, best_step)) =
            self.search_moves(node, tt_best, depth, alpha, beta, deadline)
        else {
            return 0;
        };
        self.remember(node, depth, alpha, beta, best, best_step);
        self.estimated |= outer;
        best
    }

    /// The table's word on `node`: its value if that settles the search
    /// within `alpha..beta` at `depth`, else its best move, if any, to try
    /// first. At the horizon a probe (a likely cache miss) costs more than
    /// the estimate it would save, so there is none.
    #[inline]
    fn probe(
        &mut self,
        node: &Node,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, Option<Step>> {
        if depth <= 0 {
            return ControlFlow::Continue(None);
        }
        let Some(e) = self.table.probe(node) else {
            return ControlFlow::Continue(None);
        };
        if e.draft == PROVEN || i32::from(e.draft) >= depth {
            let v = i32::from(e.value);
            let cuts = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cuts {
                self.estimated |= e.draft != PROVEN;
                return ControlFlow::Break(v);
            }
        }
        ControlFlow::Continue(Step::unpacked(e.best))
    }

    /// A node whose sides stand on separate regions: its exact value, which
    /// the table keeps, or 0 if the time ran out; `Continue` if the region
    /// solver ran out of budget, to search on as usual.
    #[inline]
    fn separated(&mut self, node: &Node, deadline: &dyn Deadline) -> ControlFlow<i32> {
        if let Some(v) = self.solve_separated(node, deadline) {
            self.table.store(node, v, PROVEN, Bound::Exact, None);
            return ControlFlow::Break(v);
        }
        if deadline.passed() {
            self.stopped = true;
            return ControlFlow::Break(0);
        }
        ControlFlow::Continue(())
    }

    /// The best value of `node`'s moves within `alpha..beta` and the move
    /// that has it, or `None` if the search stopped. The table's move goes
    /// first, then the others by history; after the first, each move is
    /// proved no better with a null window and searched fully only if it is
    /// (principal variation search).
    #[inline]
    fn search_moves(
        &mut self,
        node: &Node,
        tt_best: Option<Step>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        deadline: &dyn Deadline,
    ) -> Option<(i32, Option<Step>)> {
        let mut buf = [Step::default(); MAX_MOVES];
        let n = node.moves_with(&mut buf, true);
        let moves = &mut buf[..n];
        let mut scores = self.move_scores(moves, tt_best);
        let mut best = -INFINITY;
        let mut best_step = None;
        for i in 0..n {
            // Selection sort: most nodes cut off after one or two moves.
            let j = (i..n).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let step = moves[i];
            let mut v = if i == 0 {
                self.child_value(node, step, depth, alpha, beta, deadline)
            } else {
                self.child_value(node, step, depth, alpha, alpha + 1, deadline)
            };
            if i > 0 && v > alpha && v < beta && !self.stopped {
                v = self.child_value(node, step, depth, alpha, beta, deadline);
            }
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                best_step = Some(step);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        let h =
                            &mut self.history[usize::from(step.from.min(64))][usize::from(step.to)];
                        *h = h.saturating_add((depth * depth) as u32);
                        break;
                    }
                }
            }
        }
        Some((best, best_step))
    }

    /// The order to try `moves` in, highest first: the table's move, then
    /// the others by their history of cutting off the search.
    #[inline]
    fn move_scores(&self, moves: &[Step], tt_best: Option<Step>) -> [u32; MAX_MOVES] {
        let mut scores = [0u32; MAX_MOVES];
        for (i, m) in moves.iter().enumerate() {
            scores[i] = if Some(*m) == tt_best {
                u32::MAX
            } else {
                self.history[usize::from(m.from.min(64))][usize::from(m.to)]
            };
        }
        scores
    }

    /// Stores `best`, the value found for `node` searched `depth` deep within
    /// `alpha..beta`, and its move: as a bound unless it fell inside the
    /// window, and proven only if no estimate went into it.
    #[inline]
    fn remember(
        &mut self,
        node: &Node,
        depth: i32,
        alpha: i32,
        beta: i32,
        best: i32,
        best_step: Option<Step>,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let draft = if self.estimated {
            depth.clamp(0, i32::from(PROVEN) - 1) as u8
        } else {
            PROVEN
        };
        self.table.store(node, best, draft, bound, best_step);
    }

    /// Each side alone on its own region: the exact difference, or `None`
    /// if the region solver ran out of budget or time.
    fn solve_separated(&mut self, node: &Node, deadline: &dyn Deadline) -> Option<i32> {
        let me = node.side;
        let mine = self.regions.best(
            node.tiles.without(node.pens[1 - me]),
            node.pens[me],
            REGION_BUDGET,
            deadline,
        )?;
        let theirs = self.regions.best(
            node.tiles.without(node.pens[me]),
            node.pens[1 - me],
            REGION_BUDGET,
            deadline,
        )?;
        Some(mine as i32 - theirs as i32)
    }
}

/// The estimate at the horizon, for the side to move: the points of the
/// tiles it reaches first less those the other reaches first, and the tile
/// under each penguin that can still leave it.
pub fn evaluate(node: &Node) -> i32 {
    let free = node.free();
    let territory = Territory::of(node.pens, free);
    let (points, _tied) = territory.points(node.tiles);
    let mut score = [0i32; 2];
    for s in 0..2 {
        score[s] = points[s] as i32;
        for p in squares(node.pens[s]) {
            if super::geometry::neighbours(p.bit()) & free != 0 {
                score[s] += node.tiles.sum(p.bit()) as i32;
            }
        }
    }
    score[node.side] - score[1 - node.side]
}

/// Analyses `pos` with a fresh search sized to its board, in
/// [`DEFAULT_MEMORY`]: for tools and tests.
pub fn analyse(pos: &Position, limits: Limits, deadline: &dyn Deadline) -> Analysis {
    Search::sized(pos.board(), None, DEFAULT_MEMORY).analyse(pos, limits, deadline)
}
