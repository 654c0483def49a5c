//! The engine: iterative deepening over a negamax alpha-beta search with
//! principal-variation windows, a transposition table, killer and history
//! move ordering, late-move reductions that grow with depth and move number,
//! reverse futility and ProbCut, a quiescence search that plays out captures,
//! repetition and forty-move awareness, and exact values from the endgame
//! database. Time comes only from the `Deadline` the caller passes.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use super::endgame::{Endgame, Exact};
use super::eval::{self, MAN};
use super::moves::Move;
use super::net::{self, Hidden, Net};
use super::position::{Position, Side};
use super::rules::{self, QUIET_PLIES_FOR_DRAW, Setup};
use super::tt::{Bound, Entry, NO_MOVE, Table};
use super::{movegen, zobrist};
use crate::games::Deadline;

/// The score of a win now; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// The deepest a search line may go, captures included.
pub const MAX_PLY: usize = 120;
/// Scores beyond this are wins or losses, not evaluations: room for a
/// database win of up to 255 plies found at the deepest ply.
const DECISIVE: i32 = WIN - MAX_PLY as i32 - 256;
/// What a draw by repetition or the forty-move rule is worth to the side
/// the search is for: a little less than nothing, so a side that is better
/// looks for progress instead of going round.
const CONTEMPT: i32 = 20;
/// How many nodes between looks at the deadline.
const CHECK_EVERY: u64 = 2048;
/// Reverse futility: at most this many plies from the horizon, a node
/// whose evaluation clears beta by [`FUTILITY_MARGIN`] a ply is cut.
const FUTILITY_DEPTH: i32 = 3;
/// Six tenths of a man a ply of depth left.
const FUTILITY_MARGIN: i32 = MAN * 3 / 5;
/// ProbCut: a node at least this deep whose search [`PROBCUT_REDUCTION`]
/// plies shallower clears beta by [`PROBCUT_MARGIN`] (six tenths of a man)
/// is taken to clear it.
const PROBCUT_DEPTH: i32 = 5;
/// Six tenths of a man above beta.
const PROBCUT_MARGIN: i32 = MAN * 3 / 5;
/// How much shallower ProbCut's search is.
const PROBCUT_REDUCTION: i32 = 4;
/// Neither cut is tried where beta is twenty men or more from level: near
/// the scores of won and lost endings.
const PRUNE_WITHIN: i32 = 20 * MAN;
/// Nor with this many pieces or fewer: the five-piece database's endings,
/// where, searched without it, the evaluation cannot tell a won king ending
/// that makes progress from one that does not, and a cut would hide the win.
const PRUNE_PIECES: u32 = 5;

/// Late-move reductions, in plies, by remaining depth and move number:
/// `ln(depth) * ln(n + 1) / 1.3`, at least one. Where it is used it is
/// also held to `depth - 2`, so the reduced move keeps a ply of search.
fn reduction(depth: i32, n: usize) -> i32 {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate() {
                let plies = (d as f64).ln() * ((n + 1) as f64).ln() / 1.3;
                *r = plies.clamp(1.0, 63.0) as u8;
            }
        }
        t
    });
    let d = depth.clamp(1, 63) as usize;
    i32::from(table[d][n.min(63)])
}

/// The positions of the search's line from the root, and the net's hidden
/// sums for each from each side's view, worked out when a leaf first needs
/// them: mended move by move down from the nearest position above that has
/// them, or from the root's, summed anew. Every position on the way keeps
/// its sums, so the leaf's siblings and cousins need a move's mending each.
struct Line {
    positions: Vec<Position>,
    hidden: Vec<[Hidden; 2]>,
    known: Vec<[bool; 2]>,
}

impl Line {
    fn new() -> Line {
        Line {
            positions: vec![Position::START; MAX_PLY + 2],
            hidden: vec![[[0; net::HIDDEN]; 2]; MAX_PLY + 2],
            known: vec![[false; 2]; MAX_PLY + 2],
        }
    }

    /// The search reached `pos` at `ply`: what was known there is stale.
    #[inline]
    fn enter(&mut self, ply: usize, pos: &Position) {
        self.positions[ply] = *pos;
        self.known[ply] = [false; 2];
    }

    /// The net's value of the position at `ply` for its side to move.
    #[inline]
    fn value(&mut self, ply: usize, net: &Net) -> i32 {
        let view = self.positions[ply].to_move();
        let v = usize::from(view == Side::White);
        let from = match (0..=ply).rev().find(|&j| self.known[j][v]) {
            Some(j) => j,
            None => {
                self.hidden[0][v] = net.hidden(&self.positions[0], view);
                self.known[0][v] = true;
                0
            }
        };
        for k in from + 1..=ply {
            let (above, here) = self.hidden.split_at_mut(k);
            net.mend(
                &above[k - 1][v],
                &mut here[0][v],
                view,
                &self.positions[k - 1],
                &self.positions[k],
            );
            self.known[k][v] = true;
        }
        net.output(&self.hidden[ply][v])
    }
}

/// A search's verdict, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Score {
    /// An evaluation in hundredths of a man.
    Points(i32),
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
}

impl Score {
    /// From the search's internal number.
    pub fn from_internal(s: i32) -> Score {
        if s > DECISIVE {
            Score::Win((WIN - s) as u32)
        } else if s < -DECISIVE {
            Score::Loss((WIN + s) as u32)
        } else {
            Score::Points(s)
        }
    }

    /// From an exact database value.
    pub fn from_exact(e: Exact) -> Score {
        match e {
            Exact::Win(d) => Score::Win(d),
            Exact::Loss(d) => Score::Loss(d),
            Exact::Draw => Score::Points(0),
        }
    }
}

impl fmt::Display for Score {
    /// `+1.25` (men), `win in 7 plies`, `loss in 4 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Points(p) => write!(f, "{:+.2}", *p as f64 / MAN as f64),
            Score::Win(n) => write!(f, "win in {}", plies(*n)),
            Score::Loss(n) => write!(f, "loss in {}", plies(*n)),
        }
    }
}

/// How far a search may go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub max_depth: u32,
    /// Whether to use the endgame database when one is attached.
    pub use_endgame: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 64,
            use_endgame: true,
        }
    }
}

/// What a search found.
#[derive(Clone, PartialEq, Debug)]
pub struct Report {
    /// The move to play, if there is a legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// The expected line, the best move first.
    pub pv: Vec<Move>,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The exact value from the endgame database, when it covers the position.
    pub exact: Option<Exact>,
    /// Every move that keeps the exact value (empty if not covered).
    pub exact_moves: Vec<Move>,
}

/// A search engine: its table and move-ordering memory last from move to
/// move. Attach a shared endgame database with [`Engine::with_endgame`].
pub struct Engine {
    rules: Setup,
    table: Arc<Table>,
    endgame: Option<Arc<Endgame>>,
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[i32; 32]; 32]>,
    lists: Vec<Vec<Move>>,
    /// Per ply: each move's ordering score and its place in `lists`.
    orders: Vec<Vec<(i32, u16)>>,
    pv: Vec<Vec<Move>>,
    /// Keys of the positions since the last capture or man's move, the
    /// game's and the search line's, to see repetitions.
    path: Vec<u64>,
    /// Where the search's root stands in `path`.
    root: usize,
    root_moves: Vec<Move>,
    nodes: u64,
    stopped: bool,
    use_endgame: bool,
    /// Search threads (Lazy SMP): this one and `threads - 1` helpers that
    /// search the same position at once, sharing the table.
    threads: usize,
    helpers: Vec<Engine>,
    /// Which helper this is (0 for the main engine): odd helpers search
    /// one ply deeper, so the threads spread over two depths.
    helper: usize,
    /// A seed for a little noise in the evaluation, so a weaker level's
    /// games differ from seed to seed (`None`: exact evaluations).
    noise: Option<u64>,
    /// What a draw by repetition or the forty-move rule costs the side the
    /// search is for: [`CONTEMPT`] in play, nothing in an analysis.
    contempt: i32,
    line: Line,
}

impl Engine {
    /// An engine for these rules with a table of `2^table_bits` entries
    /// (16 bytes each).
    pub fn new(rules: Setup, table_bits: u32) -> Engine {
        Engine {
            rules,
            table: Arc::new(Table::new(table_bits)),
            endgame: None,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: Box::new([[0; 32]; 32]),
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            orders: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            path: Vec::new(),
            root: 0,
            root_moves: Vec::new(),
            nodes: 0,
            stopped: false,
            use_endgame: true,
            threads: 1,
            helpers: Vec::new(),
            helper: 0,
            noise: None,
            contempt: CONTEMPT,
            line: Line::new(),
        }
    }

    /// The same engine adding to each evaluation a number from -16 to 15
    /// drawn from the position and `seed`: the same seed gives the same
    /// games, another seed other games.
    pub fn with_noise(mut self, seed: u64) -> Engine {
        self.noise = Some(seed);
        self
    }

    /// The same engine scoring a draw by repetition or the forty-move rule
    /// as nothing to either side, as an analysis reports it: the small cost
    /// that keeps a player looking for progress is no fact of the position.
    pub fn without_contempt(mut self) -> Engine {
        self.contempt = 0;
        self
    }

    /// The evaluation of `pos`, the position at `ply` on the search's line.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let value = eval::evaluate_with(pos, || self.line.value(ply, net::learnt()));
        debug_assert_eq!(value, eval::evaluate(pos), "the net's sums went astray");
        match self.noise {
            None => value,
            Some(seed) => {
                let key = zobrist::key(pos) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let mixed = (key ^ (key >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                value + (mixed >> 59) as i32 - 16
            }
        }
    }

    /// A helper thread's engine: the same table and database, its own
    /// move-ordering memory.
    fn helper(&self, helper: usize) -> Engine {
        let mut e = Engine::new(self.rules, 4);
        e.table = Arc::clone(&self.table);
        e.endgame = self.endgame.clone();
        e.contempt = self.contempt;
        e.helper = helper;
        e
    }

    /// The same engine searching on `threads` threads (at least one).
    pub fn with_threads(mut self, threads: usize) -> Engine {
        self.threads = threads.max(1);
        self
    }

    /// The same engine with an endgame database (ignored unless built for
    /// the same capture rule).
    pub fn with_endgame(mut self, db: Arc<Endgame>) -> Engine {
        if db.captures() == self.rules.captures {
            self.endgame = Some(db);
        }
        self
    }

    /// The attached database, if any.
    pub fn endgame(&self) -> Option<&Arc<Endgame>> {
        self.endgame.as_ref()
    }

    /// The table's size: `2^bits` entries.
    pub fn table_bits(&self) -> u32 {
        self.table.bits()
    }

    /// A new, empty table of `2^bits` entries in place of the one it has,
    /// unless that one is of this size already.
    pub fn resize_table(&mut self, bits: u32) {
        if bits != self.table.bits() {
            self.table = Arc::new(Table::new(bits));
            // The helpers share the old table: they are made again.
            self.helpers.clear();
        }
    }

    /// Forgets what earlier searches learnt.
    pub fn clear(&mut self) {
        self.table.clear();
        self.helpers.clear();
        self.history.iter_mut().for_each(|r| r.fill(0));
        self.killers.fill([None; 2]);
    }

    fn probe_endgame(&self, pos: &Position) -> Option<Exact> {
        if !self.use_endgame {
            return None;
        }
        self.endgame.as_ref()?.probe(pos)
    }

    /// Searches the last position of `history` (the game so far, start
    /// first) until `limits` or `deadline` stop it, on every thread the
    /// engine was given; the report is the main thread's.
    pub fn search(
        &mut self,
        history: &[Position],
        limits: Limits,
        deadline: &dyn Deadline,
    ) -> Report {
        self.table.next_search();
        if self.threads <= 1 {
            return self.search_alone(history, limits, deadline);
        }
        while self.helpers.len() + 1 < self.threads {
            let h = self.helper(self.helpers.len() + 1);
            self.helpers.push(h);
        }
        self.helpers.truncate(self.threads - 1);
        for h in &mut self.helpers {
            h.endgame = self.endgame.clone();
        }
        let stop = AtomicBool::new(false);
        let flag = Stop(&stop);
        let mut helpers = std::mem::take(&mut self.helpers);
        let report = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    let flag = &flag;
                    scope.spawn(move || h.search_alone(history, limits, flag).nodes)
                })
                .collect();
            let mut report = self.search_alone(history, limits, deadline);
            stop.store(true, Ordering::Relaxed);
            for r in running {
                report.nodes += r.join().unwrap_or(0);
            }
            report
        });
        self.helpers = helpers;
        report
    }

    /// The search on this thread alone.
    fn search_alone(
        &mut self,
        history: &[Position],
        limits: Limits,
        deadline: &dyn Deadline,
    ) -> Report {
        let Some(&root) = history.last() else {
            return self.empty_report();
        };
        self.nodes = 0;
        self.stopped = false;
        self.use_endgame = limits.use_endgame;
        let legal = self.rules.moves(&root);
        if legal.is_empty() {
            return Report {
                score: Score::Loss(0),
                exact: Some(Exact::Loss(0)),
                ..self.empty_report()
            };
        }
        let quiet = rules::quiet_plies(history);
        self.path = history[history.len() - 1 - quiet..]
            .iter()
            .map(zobrist::key)
            .collect();
        self.root = self.path.len() - 1;
        // Where the database knows the answer, only moves that keep it count.
        let exact = self.probe_endgame(&root).filter(|e| e.stands_after(quiet));
        let exact_moves = match (&self.endgame, exact) {
            (Some(db), Some(_)) if self.use_endgame => {
                db.best_moves(&self.rules, &root).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        if let Some(e @ (Exact::Win(_) | Exact::Loss(_))) = exact
            && let Some(&first) = exact_moves.first()
        {
            let pv = self.exact_line(root, first);
            return Report {
                best: Some(first),
                score: Score::from_exact(e),
                pv,
                depth: 0,
                nodes: 1,
                exact,
                exact_moves,
            };
        }
        self.root_moves = if exact_moves.is_empty() {
            legal
        } else {
            exact_moves.clone()
        };
        let mut report = Report {
            best: self.root_moves.first().copied(),
            score: Score::Points(0),
            pv: self.root_moves.first().copied().into_iter().collect(),
            depth: 0,
            nodes: 0,
            exact,
            exact_moves,
        };
        self.deepen(&root, quiet as u32, limits, deadline, &mut report);
        report.nodes = self.nodes;
        // Only a win or a loss goes on with the database's moves: where the
        // forty-move count stops one standing, the score is not decisive.
        if matches!(report.score, Score::Win(_) | Score::Loss(_)) {
            self.finish_line(root, &mut report.pv);
        }
        report
    }

    /// Iterative deepening from the root until `limits` or `deadline` stop
    /// it or a win or loss is proven; `report` keeps the last whole depth.
    fn deepen(
        &mut self,
        root: &Position,
        quiet: u32,
        limits: Limits,
        deadline: &dyn Deadline,
        report: &mut Report,
    ) {
        let deepest = limits.max_depth.min(MAX_PLY as u32 - 8);
        for depth in 1..=deepest {
            let depth = if self.helper % 2 == 1 {
                (depth + 1).min(deepest)
            } else {
                depth
            };
            let score = self.negamax(root, depth as i32, -WIN - 1, WIN + 1, 0, quiet, deadline);
            if self.stopped {
                break;
            }
            report.depth = depth;
            report.score = Score::from_internal(score);
            report.pv = self.pv[0].clone();
            report.best = report.pv.first().copied().or(report.best);
            // Put the best move first for the next iteration.
            if let Some(b) = report.best
                && let Some(i) = self.root_moves.iter().position(|&m| m == b)
            {
                self.root_moves[..=i].rotate_right(1);
            }
            if matches!(report.score, Score::Win(n) | Score::Loss(n) if n <= depth) {
                break;
            }
        }
    }

    /// A line that runs into the database goes on with its moves.
    fn finish_line(&self, root: Position, pv: &mut Vec<Move>) {
        let Some(&last) = pv.last() else {
            return;
        };
        let end = pv[..pv.len() - 1].iter().fold(root, |p, m| p.play(m));
        if let Some(Exact::Win(_) | Exact::Loss(_)) = self.probe_endgame(&end.play(&last)) {
            let tail = self.exact_line(end, last);
            pv.extend_from_slice(&tail[1..]);
        }
    }

    fn empty_report(&self) -> Report {
        Report {
            best: None,
            score: Score::Points(0),
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            exact: None,
            exact_moves: Vec::new(),
        }
    }

    /// The database's line from a position: best moves until the end.
    pub(crate) fn exact_line(&self, mut pos: Position, first: Move) -> Vec<Move> {
        let mut line = vec![first];
        pos = pos.play(&first);
        let Some(db) = &self.endgame else {
            return line;
        };
        while line.len() < 60 {
            match db
                .best_moves(&self.rules, &pos)
                .and_then(|m| m.first().copied())
            {
                Some(m) => {
                    line.push(m);
                    pos = pos.play(&m);
                }
                None => break,
            }
        }
        line
    }

    /// Whether the position whose key was pushed last counts as a draw by
    /// repetition: it repeats one on the search's line (the side that
    /// went back to it could do so again), or it is the third occurrence
    /// of one met before the search's root, in the quiet stretch, with the
    /// same side to move. A single earlier occurrence in the game's past
    /// makes no draw: the rules need a third.
    fn repeats(&self, floor: usize) -> bool {
        let n = self.path.len();
        let Some(&key) = self.path.last() else {
            return false;
        };
        let mut i = n as isize - 3;
        let mut before_root = false;
        while i >= floor as isize {
            if self.path[i as usize] == key {
                if i as usize >= self.root || before_root {
                    return true;
                }
                before_root = true;
            }
            i -= 2;
        }
        false
    }

    /// The value of a node without searching it: a draw by repetition or the
    /// forty-move rule, or the endgame database's exact value where the
    /// forty-move count leaves it standing.
    #[inline]
    fn settled(&self, pos: &Position, ply: usize, quiet: u32) -> Option<i32> {
        let floor = self.path.len().saturating_sub(quiet as usize + 1);
        // As the rules have it, a side with no move has lost, whatever the
        // forty-move count says.
        if (self.repeats(floor) || quiet >= QUIET_PLIES_FOR_DRAW as u32) && movegen::has_move(pos) {
            // Even plies are the searching side's turns.
            return Some(if ply.is_multiple_of(2) {
                -self.contempt
            } else {
                self.contempt
            });
        }
        let exact = self.probe_endgame(pos)?;
        exact.stands_after(quiet as usize).then_some(match exact {
            Exact::Win(d) => WIN - ply as i32 - d as i32,
            Exact::Loss(d) => -(WIN - ply as i32 - d as i32),
            Exact::Draw => 0,
        })
    }

    /// The table's move for `key`, and its score where the stored bound
    /// settles the node at this depth. A node with an open window (on the
    /// line the search expects to play) is always searched: a stored score
    /// may come from another path, with another history of repetitions
    /// and another forty-move count, and a cut there would end the line
    /// the root plays by.
    #[inline]
    fn table_probe(
        &self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> (u8, Option<i32>) {
        let Some(e) = self.table.probe(key) else {
            return (NO_MOVE, None);
        };
        if ply > 0 && beta - alpha == 1 && e.depth as i32 >= depth {
            let s = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return (e.best, Some(s));
            }
        }
        (e.best, None)
    }

    /// The order to try `list` in: the table's move, captures by size,
    /// killers, then history; `(priority, index)`, best first.
    #[inline]
    fn order(&self, list: &[Move], ply: usize, tt_move: u8, order: &mut Vec<(i32, u16)>) {
        let killers = self.killers[ply];
        order.clear();
        order.extend(list.iter().enumerate().map(|(i, m)| {
            // At the root the list is already ordered, the best so far first.
            let first = if ply == 0 {
                i == 0
            } else {
                i == tt_move as usize && tt_move != NO_MOVE
            };
            let s = if first {
                1 << 30
            } else if m.is_capture() {
                (1 << 24) + m.capture_count() as i32
            } else if killers[0] == Some(*m) {
                1 << 22
            } else if killers[1] == Some(*m) {
                (1 << 22) - 1
            } else {
                self.history[m.from_index() as usize][m.to_index() as usize]
            };
            (s, i as u16)
        }));
        order.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    }

    /// A move that beat alpha: it heads the line; at a cut, a quiet move
    /// becomes a killer and gains history.
    #[inline]
    fn improved(&mut self, m: Move, ply: usize, depth: i32, cut: bool) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
        if cut && !m.is_capture() {
            let k = &mut self.killers[ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
            let h = &mut self.history[m.from_index() as usize][m.to_index() as usize];
            *h = (*h + depth * depth).min(1 << 20);
        }
    }

    /// Searches the `n`th move tried, `m`, with a null window and a late
    /// move reduction after the first, and again in full where it beats
    /// alpha.
    #[inline]
    fn child(
        &mut self,
        pos: &Position,
        m: Move,
        n: usize,
        node: Node,
        deadline: &dyn Deadline,
    ) -> i32 {
        let Node {
            depth,
            alpha,
            beta,
            ply,
            quiet,
        } = node;
        let child = pos.play(&m);
        let irreversible = m.is_capture() || pos.all_kings() & (1 << m.from_index()) == 0;
        let child_quiet = if irreversible { 0 } else { quiet + 1 };
        self.path.push(zobrist::key(&child));
        let extend = i32::from(self.lists[ply].len() == 1 && depth > 0);
        let d = depth - 1 + extend;
        let score = if n == 0 {
            -self.negamax(&child, d, -beta, -alpha, ply + 1, child_quiet, deadline)
        } else {
            let killers = self.killers[ply];
            let capturing = self.lists[ply].first().is_some_and(Move::is_capture);
            let quiet_move = !m.is_capture() && killers[0] != Some(m) && killers[1] != Some(m);
            let r = if depth >= 3 && n >= 3 && quiet_move && !capturing {
                reduction(depth, n).clamp(1, (depth - 2).max(1))
            } else {
                0
            };
            let mut s = -self.negamax(
                &child,
                d - r,
                -alpha - 1,
                -alpha,
                ply + 1,
                child_quiet,
                deadline,
            );
            if s > alpha && !self.stopped && (r > 0 || s < beta) {
                s = -self.negamax(&child, d, -beta, -alpha, ply + 1, child_quiet, deadline);
            }
            s
        };
        self.path.pop();
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
        deadline: &dyn Deadline,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && deadline.passed() {
            self.stopped = true;
        }
        self.pv[ply].clear();
        self.line.enter(ply, pos);
        if self.stopped {
            return 0;
        }
        if ply > 0
            && let Some(score) = self.settled(pos, ply, quiet)
        {
            return score;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        if ply == 0 {
            list.extend_from_slice(&self.root_moves);
        } else {
            movegen::generate(pos, self.rules.captures.forced(), &mut list);
        }
        let leaf = self.leaf(pos, &mut list, depth, &mut alpha, beta, ply);
        // The parent pushed this position's key (the game's history, at the root).
        let key = self
            .path
            .last()
            .copied()
            .unwrap_or_else(|| zobrist::key(pos));
        // Capture sequences past the horizon are short and many: a table
        // look-up (a likely cache miss) costs more there than it saves.
        let use_table = depth > 0;
        let (tt_move, cut) = match leaf {
            Some(_) => (NO_MOVE, leaf),
            None if use_table => self.table_probe(key, depth, ply, alpha, beta),
            None => (NO_MOVE, None),
        };
        let quiet_node = depth > 0 && list.first().is_some_and(|m| !m.is_capture());
        self.lists[ply] = list;
        if let Some(score) = cut {
            return score;
        }
        let node = Node {
            depth,
            alpha,
            beta,
            ply,
            quiet,
        };
        if quiet_node
            && ply > 0
            && beta - alpha == 1
            && let Some(score) = self.pruned(pos, node, deadline)
        {
            return score;
        }
        let mut order = std::mem::take(&mut self.orders[ply]);
        self.order(&self.lists[ply], ply, tt_move, &mut order);
        let mut best = -WIN - 1;
        let mut best_index = NO_MOVE;
        for (n, &(_, i)) in order.iter().enumerate() {
            let m = self.lists[ply][i as usize];
            let window = Node { alpha, ..node };
            let score = self.child(pos, m, n, window, deadline);
            if self.stopped {
                self.orders[ply] = order;
                return 0;
            }
            if score > best {
                best = score;
                best_index = u8::try_from(i).unwrap_or(NO_MOVE);
                if score > alpha {
                    alpha = score;
                    self.improved(m, ply, depth, alpha >= beta);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.orders[ply] = order;
        if ply > 0 && use_table {
            // Where no move reached alpha, none was shown best: the move the
            // table had (from a search that found one) stays for the next
            // visit to try first, rather than the one that failed least.
            let keep = if best <= node.alpha && tt_move != NO_MOVE {
                tt_move
            } else {
                best_index
            };
            self.remember(key, node, best, keep);
        }
        best
    }

    /// A quiet node off the principal line (a null window) that the table
    /// did not settle, cut without searching its moves in full:
    /// - near the horizon, where the evaluation clears beta by
    ///   [`FUTILITY_MARGIN`] a ply of depth left (reverse futility);
    /// - deeper, where a search [`PROBCUT_REDUCTION`] plies shallower
    ///   clears beta by [`PROBCUT_MARGIN`] (ProbCut).
    ///
    /// Neither is tried near the scores of won and lost endings, nor in the
    /// endings of the five-piece database.
    ///
    /// ProbCut's shallower search is of this same node, so it may be cut
    /// the same way in turn, against a bar [`PROBCUT_MARGIN`] higher at
    /// each step: a node of depth 9 is checked by a search of depth 1
    /// against beta plus 1.2 men (or by its evaluation alone, at beta plus
    /// 1.8), one of depth 8 by a search of depth 4. Keeping the check from
    /// cutting its own node, so that it always searches four plies less,
    /// cost about a ply at 100 ms and played no better against GuiNN
    /// (README, "Where the gap is"): the cheaper check stays.
    fn pruned(&mut self, pos: &Position, node: Node, deadline: &dyn Deadline) -> Option<i32> {
        let Node {
            depth,
            beta,
            ply,
            quiet,
            ..
        } = node;
        if beta.abs() >= PRUNE_WITHIN || pos.piece_count() <= PRUNE_PIECES {
            return None;
        }
        if depth <= FUTILITY_DEPTH {
            let value = self.evaluate(pos, ply);
            return (value - FUTILITY_MARGIN * depth >= beta).then_some(value);
        }
        if depth < PROBCUT_DEPTH {
            return None;
        }
        let bar = beta + PROBCUT_MARGIN;
        // The shallower search is of this same position at this same ply,
        // so it leaves `self.lists[ply]` holding the same moves in the same
        // order: the caller's table move still indexes them.
        let s = self.negamax(
            pos,
            depth - PROBCUT_REDUCTION,
            bar - 1,
            bar,
            ply,
            quiet,
            deadline,
        );
        if self.stopped {
            Some(0)
        } else {
            (s >= bar).then_some(beta)
        }
    }

    /// Stores a node's result in the table: `best` scored against the
    /// node's window as it was on entry.
    #[inline]
    fn remember(&self, key: u64, node: Node, best: i32, best_index: u8) {
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > node.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key,
            score: to_table(best, node.ply),
            depth: node.depth.clamp(-1, 100) as i8,
            bound,
            best: best_index,
        });
    }

    /// The value of a node whose moves are `list` without searching them:
    /// no move, or a quiet position at the horizon. At the horizon with
    /// captures optional, the side may stand pat: `alpha` rises to the
    /// evaluation and only captures are left to try.
    #[inline]
    fn leaf(
        &mut self,
        pos: &Position,
        list: &mut Vec<Move>,
        depth: i32,
        alpha: &mut i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if list.is_empty() {
            return Some(-(WIN - ply as i32));
        }
        if depth > 0 {
            return None;
        }
        // Quiescence: at the horizon, a quiet position is evaluated;
        // captures (compulsory, so no standing pat) are played out.
        if !list[0].is_capture() {
            return Some(self.evaluate(pos, ply));
        }
        if self.rules.captures.forced() {
            return None;
        }
        let stand = self.evaluate(pos, ply);
        *alpha = (*alpha).max(stand);
        list.retain(|m| m.is_capture());
        (stand >= beta).then_some(stand)
    }

    /// Positions visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The helpers' deadline: the main thread has finished.
struct Stop<'a>(&'a AtomicBool);

/// A node's window and place in the search, as a move's child search needs
/// them.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    quiet: u32,
}

impl Deadline for Stop<'_> {
    fn passed(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Win scores are stored as distances from the stored position.
fn to_table(score: i32, ply: usize) -> i16 {
    let s = if score > DECISIVE {
        score + ply as i32
    } else if score < -DECISIVE {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_table(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s > DECISIVE {
        s - ply as i32
    } else if s < -DECISIVE {
        s + ply as i32
    } else {
        s
    }
}

/// `1 ply`, `7 plies`.
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

#[cfg(test)]
mod tests {
    use super::plies;

    #[test]
    fn one_ply_is_singular() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(0), "0 plies");
        assert_eq!(plies(7), "7 plies");
    }

    use super::*;
    use crate::games::Never;
    use crate::games::draughts::fen;

    #[test]
    fn a_side_with_no_move_loses_on_the_eightieth_quiet_ply() {
        // Black's man on 28 is blocked by the men on 32 and the king on 23.
        let pos = fen::parse("B:W32,K23:B28").unwrap();
        assert!(!movegen::has_move(&pos));
        let mut e = Engine::new(Setup::STANDARD, 16);
        e.path = vec![0, zobrist::key(&pos)];
        for quiet in [79, 80, 90] {
            let s = e.negamax(&pos, 3, -WIN - 1, WIN + 1, 1, quiet, &Never);
            assert_eq!(s, -(WIN - 1), "with {quiet} quiet plies");
        }
        // With a move, the eightieth quiet ply is a draw.
        let free = fen::parse("B:W32,K23:B27").unwrap();
        e.path = vec![0, zobrist::key(&free)];
        let s = e.negamax(&free, 3, -WIN - 1, WIN + 1, 1, 80, &Never);
        assert_eq!(s, CONTEMPT);
    }

    #[test]
    fn a_position_met_once_before_the_root_is_no_draw_until_its_third_time() {
        let mut e = Engine::new(Setup::STANDARD, 4);
        // Keys a ply apart, the root (5) at index 4; the last is searched.
        e.root = 4;
        // Once before the root: twice in all, no draw.
        e.path = vec![1, 2, 3, 4, 5, 2];
        assert!(!e.repeats(0));
        // Twice before the root: the third time.
        e.path = vec![9, 2, 9, 2, 5, 2];
        assert!(e.repeats(0));
        // Once on the search's own line, the root included: a draw.
        e.path = vec![1, 2, 3, 4, 5, 6, 5];
        assert!(e.repeats(0));
        e.path = vec![1, 2, 3, 4, 5, 6, 7, 8, 7];
        assert!(e.repeats(0));
        // Only within the quiet stretch, and with the same side to move.
        e.path = vec![9, 2, 9, 2, 5, 2];
        assert!(!e.repeats(2));
        e.path = vec![1, 2, 3, 4, 5, 6, 5, 5];
        assert!(!e.repeats(0));
    }

    #[test]
    fn a_long_database_win_deep_in_the_search_is_still_a_win() {
        // The longest six-piece win is 167 plies; found at ply 100 of the
        // search it is still a win, and keeps its length through the table.
        let s = WIN - 100 - 167;
        assert_eq!(Score::from_internal(s), Score::Win(267));
        assert_eq!(from_table(to_table(s, 100), 10), WIN - 10 - 167);
        assert_eq!(from_table(to_table(-s, 100), 10), -(WIN - 10 - 167));
        // An evaluation is nowhere near.
        assert_eq!(Score::from_internal(5000), Score::Points(5000));
    }

    fn best(fen_text: &str, depth: u32) -> Report {
        let pos = fen::parse(fen_text).unwrap();
        let mut e = Engine::new(Setup::STANDARD, 16);
        e.search(
            &[pos],
            Limits {
                max_depth: depth,
                use_endgame: false,
            },
            &Never,
        )
    }

    #[test]
    fn takes_the_capture_that_keeps_the_man() {
        // White must take on 15 from 22 or from 24. From 22 it empties 18,
        // and 11 jumps back over 15 to 18; from 24 nothing can take back
        // (8 stops a second jump over 11).
        let r = best("W:W22,24,25:B18,19,11,8", 6);
        assert_eq!(r.best.map(|m| m.to_string()), Some("24x15".into()));
        // Three men each after it: level in material, so less than a man
        // either way.
        assert!(
            matches!(r.score, Score::Points(p) if p.abs() < 100),
            "{:?}",
            r.score
        );
    }

    #[test]
    fn sees_a_win_when_the_other_side_is_blocked() {
        // Black takes White's last piece.
        let r = best("B:W18:B14,K1", 4);
        assert_eq!(r.best.map(|m| m.to_string()), Some("14x23".into()));
        assert_eq!(r.score, Score::Win(1));
    }

    #[test]
    fn threads_share_the_search_and_agree_on_forced_lines() {
        let pos = fen::parse("B:W18:B14,K1").unwrap();
        let limits = Limits {
            max_depth: 8,
            use_endgame: false,
        };
        let mut two = Engine::new(Setup::STANDARD, 16).with_threads(2);
        let r = two.search(&[pos], limits, &Never);
        assert_eq!(r.best.map(|m| m.to_string()), Some("14x23".into()));
        assert_eq!(r.score, Score::Win(1));
        // From the start, every thread's work counts and a legal move comes back.
        let r = two.search(&[Position::START], limits, &Never);
        assert_eq!(r.depth, 8);
        assert!(
            Setup::STANDARD
                .moves(&Position::START)
                .contains(&r.best.unwrap())
        );
        let mut one = Engine::new(Setup::STANDARD, 16);
        let alone = one.search(&[Position::START], limits, &Never);
        assert!(r.nodes > alone.nodes / 2, "{} {}", r.nodes, alone.nodes);
    }

    #[test]
    fn a_deadline_that_has_passed_still_gives_a_move() {
        struct Passed;
        impl Deadline for Passed {
            fn passed(&self) -> bool {
                true
            }
        }
        let mut e = Engine::new(Setup::STANDARD, 10);
        let r = e.search(&[Position::START], Limits::default(), &Passed);
        assert!(r.best.is_some());
    }
}
