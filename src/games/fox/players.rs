//! The computer players, from Rubbish to Overpowered. Pure and seeded: the
//! same seed and the same positions give the same moves.

use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use super::board::{Board, Square};
use super::position::{Move, Position, Rules, Side};
use super::solver::Solver;

levels! {
    /// How strong a computer player is.
    pub enum Level {
        /// A uniformly random legal move: the coursework's "Rubbish".
        Rubbish = "rubbish": "moves at random, as the coursework's Rubbish would have",
        /// The 1978 program's fox, and a hound rule in the same spirit.
        Classic = "classic":
            "plays like the 1978 BASIC program: simple and a little predictable",
        /// A short look-ahead with a sense of the fox's way home.
        Cunning = "cunning": "looks a few moves ahead and knows the way home; beatable with care",
        /// Perfect play from the solved game: the coursework's "Overpowered".
        Overpowered = "overpowered": "has solved the game: perfect play, never gives a win away",
    }
}

/// A computer player: a level, its own random numbers and, when perfect, the solver.
pub struct Computer {
    level: Level,
    rules: Rules,
    rng: ChaCha8Rng,
    solver: Option<Solver>,
}

impl Computer {
    /// A computer player for games under `rules`, seeded for reproducible play.
    pub fn new(level: Level, rules: Rules, seed: u64) -> Computer {
        Computer {
            level,
            rules,
            rng: ChaCha8Rng::seed_from_u64(seed),
            solver: None,
        }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Starts its random numbers again from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Its solver, made on first use: the judge of hints.
    pub fn solver(&mut self, board: Board, rules: Rules) -> &mut Solver {
        self.solver.get_or_insert_with(|| Solver::new(board, rules))
    }

    /// Which of several start positions it picks as the fox: the best for the
    /// fox when it plays perfectly, otherwise one at random.
    pub fn choose_start(&mut self, starts: &[Position]) -> usize {
        let all: Vec<usize> = (0..starts.len()).collect();
        let picks = match (self.level, starts.first()) {
            (Level::Overpowered, Some(first)) => {
                let rules = self.rules;
                let solver = self
                    .solver
                    .get_or_insert_with(|| Solver::new(first.board(), rules));
                // Fox wins sooner first, then hounds' wins later.
                let score = |p: &Position, solver: &mut Solver| {
                    let v = solver.value(p);
                    match v.winner {
                        Side::Fox => -(v.plies as i64),
                        Side::Hounds => -1000 + v.plies as i64,
                    }
                };
                let scores: Vec<i64> = starts.iter().map(|p| score(p, solver)).collect();
                let best = scores.iter().copied().max().unwrap_or(0);
                all.into_iter().filter(|&i| scores[i] == best).collect()
            }
            _ => all,
        };
        picks.choose(&mut self.rng).copied().unwrap_or(0)
    }

    /// The move it plays, or `None` if the side to move has none.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(match self.level {
            Level::Rubbish => *moves.choose(&mut self.rng)?,
            Level::Classic => match pos.to_move() {
                Side::Fox => classic_fox(pos, self.rng.random_bool(0.5))?,
                Side::Hounds => *classic_hounds(pos).choose(&mut self.rng)?,
            },
            Level::Cunning => *cunning(pos, self.rules).choose(&mut self.rng)?,
            Level::Overpowered => {
                let rules = self.rules;
                let solver = self
                    .solver
                    .get_or_insert_with(|| Solver::new(pos.board(), rules));
                *solver.best_moves(pos).choose(&mut self.rng)?
            }
        })
    }
}

/// The 1978 fox: pick left or right at random (`right_first`), try the two
/// forward squares (toward row 1) in that order, then the two backward ones,
/// and take the first empty one. Under the capture rules a hound's square is
/// open too, and the fox first tries only the squares no hound can take it
/// on next move; without captures every square is such a square, so the
/// 1978 order is unchanged.
pub fn classic_fox(pos: &Position, right_first: bool) -> Option<Move> {
    let fox = pos.fox()?;
    let d = if right_first { 1 } else { -1 };
    let order = [(d, -1), (-d, -1), (d, 1), (-d, 1)];
    let moves: Vec<Move> = order
        .into_iter()
        .filter_map(|(dc, dr)| {
            let to = pos.board().offset(fox, dc, dr)?;
            pos.find_move(fox, to)
        })
        .collect();
    let safe = |m: &&Move| !pos.captures() || attackers(&pos.play(**m), m.to()) == 0;
    moves.iter().find(safe).or(moves.first()).copied()
}

/// The hounds that could step onto `sq` next move: those diagonally behind it
/// (one row nearer row 1).
fn attackers(pos: &Position, sq: Square) -> u64 {
    [(-1, -1), (1, -1)]
        .into_iter()
        .filter_map(|(dc, dr)| pos.board().offset(sq, dc, dr))
        .filter(|from| pos.hound_mask() & from.bit() != 0)
        .fold(0, |mask, from| mask | from.bit())
}

/// The classic hounds, a rule as simple as the 1978 fox: move a hound from the
/// rearmost row, so the line advances together and stays closed, stepping
/// toward the fox's column where it can. Returns the equally good moves.
///
/// Under the capture rules they take the fox whenever they can, and
/// otherwise leave out the moves that hand the fox a hound it can eat
/// without being taken back, while any other move is left.
pub fn classic_hounds(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves().to_vec();
    if pos.captures() {
        let takes: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        if !takes.is_empty() {
            return takes;
        }
        let safe: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| free_meals(&pos.play(m)) == 0)
            .collect();
        if !safe.is_empty() {
            moves = safe;
        }
    }
    let Some(rear) = moves.iter().map(|m| m.from().row()).min() else {
        return Vec::new();
    };
    let fox = pos.fox().map_or(0, |sq| i32::from(sq.col()));
    let toward = |m: &Move| (m.to().col() as i32 - fox).abs() - (m.from().col() as i32 - fox).abs();
    let rearmost: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from().row() == rear)
        .collect();
    let best = rearmost.iter().map(toward).min().unwrap_or(0);
    rearmost.into_iter().filter(|m| toward(m) == best).collect()
}

/// The hounds the fox (to move or not) could eat next without a hound able to
/// take it back on the square: a free meal. Always none without captures.
fn free_meals(pos: &Position) -> u64 {
    if !pos.captures() {
        return 0;
    }
    let mover = pos.with_side(Side::Fox);
    mover
        .legal_moves()
        .iter()
        .filter(|&&m| mover.is_capture(m) && attackers(&mover.play(m), m.to()) == 0)
        .fold(0, |mask, m| mask | m.to().bit())
}

/// How deep Cunning looks, in plies.
const CUNNING_DEPTH: u32 = 4;
const WIN: i32 = 100_000;

/// Cunning: a short negamax search scored by the fox's way home. Returns the
/// moves that score best for the side to move.
pub fn cunning(pos: &Position, rules: Rules) -> Vec<Move> {
    let moves = pos.legal_moves();
    let scored: Vec<(Move, i32)> = moves
        .iter()
        .map(|&m| (m, -negamax(&pos.play(m), rules, CUNNING_DEPTH - 1, 1)))
        .collect();
    let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
    scored
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect()
}

/// The score of a position for its side to move.
fn negamax(pos: &Position, rules: Rules, depth: u32, ply: i32) -> i32 {
    if let Some(ending) = pos.ending(rules) {
        // Quicker wins and slower losses score better.
        return if ending.winner() == pos.to_move() {
            WIN - ply
        } else {
            ply - WIN
        };
    }
    if depth == 0 {
        let fox_score = fox_prospects(pos);
        return if pos.to_move() == Side::Fox {
            fox_score
        } else {
            -fox_score
        };
    }
    pos.legal_moves()
        .iter()
        .map(|&m| -negamax(&pos.play(m), rules, depth - 1, ply + 1))
        .max()
        .unwrap_or(0)
}

/// What each hound the fox has eaten is worth to it under the capture rules:
/// more than a step nearer home, less than a way home.
const HOUND_EATEN: i32 = 120;

/// How well the fox stands: near home through open squares is good; walled in
/// is bad, and worse the smaller the pen. Under the capture rules each hound
/// eaten counts for the fox too; the search itself sees takes and boxes.
fn fox_prospects(pos: &Position) -> i32 {
    let board = pos.board();
    let Some(fox) = pos.fox() else {
        return -WIN;
    };
    let eaten = (board.hound_count() - pos.hound_count()) as i32;
    let mut seen = fox.bit();
    let mut frontier = vec![fox];
    let mut distance = 0;
    let mut home = None;
    while !frontier.is_empty() && home.is_none() {
        if frontier.iter().any(|sq| sq.row() == 0) {
            home = Some(distance);
            break;
        }
        let mut next: Vec<Square> = Vec::new();
        for sq in frontier {
            for (dc, dr) in super::position::FOX_STEPS {
                if let Some(to) = board.offset(sq, dc, dr)
                    && (seen | pos.hound_mask()) & to.bit() == 0
                {
                    seen |= to.bit();
                    next.push(to);
                }
            }
        }
        frontier = next;
        distance += 1;
    }
    let room = seen.count_ones() as i32;
    HOUND_EATEN * eaten
        + match home {
            Some(d) => 1000 - 50 * d + room,
            None => -1000 + 10 * room,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fox::Board;

    fn pos(text: &str) -> Position {
        Position::parse(text, Board::STANDARD).unwrap()
    }

    #[test]
    fn levels_are_read_in_any_case_and_others_refused_with_the_list() {
        assert_eq!(" Cunning ".parse::<Level>(), Ok(Level::Cunning));
        assert_eq!(
            "greedy".parse::<Level>().map_err(|e| e.to_string()),
            Err(
                "\"greedy\" is not a level: write rubbish, classic, cunning or overpowered"
                    .to_string()
            )
        );
    }

    #[test]
    fn the_classic_fox_prefers_forward_then_backward_in_its_random_order() {
        let open = pos("D5/B1,D1,F1,H1/fox");
        assert_eq!(classic_fox(&open, true).unwrap().to_string(), "D5-E4");
        assert_eq!(classic_fox(&open, false).unwrap().to_string(), "D5-C4");
        let right_blocked = pos("D5/E4,D1,F1,H1/fox");
        assert_eq!(
            classic_fox(&right_blocked, true).unwrap().to_string(),
            "D5-C4"
        );
        let forward_blocked = pos("D5/C4,E4,F1,H1/fox");
        assert_eq!(
            classic_fox(&forward_blocked, true).unwrap().to_string(),
            "D5-E6"
        );
        assert_eq!(
            classic_fox(&forward_blocked, false).unwrap().to_string(),
            "D5-C6"
        );
        let edge = pos("A6/B5,D1,F1,H1/fox");
        assert_eq!(classic_fox(&edge, false).unwrap().to_string(), "A6-B7");
        let trapped = pos("A8/B7,D1,F1,H1/fox");
        assert_eq!(classic_fox(&trapped, true), None);
    }

    #[test]
    fn the_classic_hounds_move_from_the_rear_toward_the_fox() {
        let p = pos("H7/C2,D1,F1,H1/hounds");
        let moves: Vec<String> = classic_hounds(&p).iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["D1-E2", "F1-G2"]);
    }

    #[test]
    fn every_level_plays_only_legal_moves_and_the_same_seed_repeats() {
        let start = crate::games::fox::Setup::default().default_start();
        for &level in Level::ALL {
            let mut a = Computer::new(level, Rules::Coursework, 7);
            let mut b = Computer::new(level, Rules::Coursework, 7);
            let mut p = start;
            for _ in 0..12 {
                let Some(m) = a.choose(&p) else { break };
                assert_eq!(Some(m), b.choose(&p));
                assert!(p.legal_moves().contains(&m));
                p = p.play(m);
            }
        }
    }
}
