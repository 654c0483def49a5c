//! The computer players, from rubbish to overpowered, seeded so that the
//! same seed and the same positions give the same moves (given the same
//! search limits; a deadline makes the strongest level depend on the clock).

use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use super::geometry::queen_moves;
use super::position::{Move, Position, Side};
use super::rules::Setup;
use super::search::{Limits, Search};
use crate::games::{self, Advice, Deadline, Rules, Verdict};

levels! {
    /// How strong a computer player is.
    pub enum Level {
        /// A random legal move.
        Rubbish = "rubbish": "moves at random",
        /// The assignment's five-year-old: the reachable tile with the most points.
        Greedy = "greedy": "heads for the best tile it can reach, like a five-year-old",
        /// A short look-ahead weighing the territory each side reaches first.
        Cunning = "cunning": "looks a move ahead and counts the tiles each penguin reaches first",
        /// The deepest search it can make in the time, exact wherever it can be.
        Overpowered = "overpowered": "searches deep, and plays perfectly once the end is in sight",
    }
}

/// How deep Cunning looks, in plies: its own move and the reply.
const CUNNING_DEPTH: u32 = 2;

/// A computer player: a level, its own random numbers and, when it
/// searches, the search's memory kept from move to move.
pub struct Computer {
    level: Level,
    rng: ChaCha8Rng,
    search: Option<Search>,
    limits: Limits,
}

impl Computer {
    /// A player of `level`, seeded for reproducible play.
    pub fn new(level: Level, seed: u64) -> Computer {
        Computer {
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            search: None,
            limits: Limits::NONE,
        }
    }

    /// The same player with limits on its search besides the deadline (a
    /// node budget makes Overpowered repeat its moves exactly).
    pub fn with_limits(mut self, limits: Limits) -> Computer {
        self.limits = limits;
        self
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The move to play in `pos`, or `None` if there is none.
    pub fn choose_move(&mut self, pos: &Position, deadline: &dyn Deadline) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        match self.level {
            Level::Rubbish => moves.choose(&mut self.rng).copied(),
            Level::Greedy => greedy(pos).choose(&mut self.rng).copied(),
            Level::Cunning => {
                let limits = Limits {
                    depth: Some(CUNNING_DEPTH),
                    ..self.limits
                };
                // A small table: two plies need little memory.
                let search = self
                    .search
                    .get_or_insert_with(|| Search::with_table_bits(12));
                search.analyse(pos, limits, deadline).best
            }
            Level::Overpowered => {
                let search = self.search.get_or_insert_with(Search::new);
                search.shuffle_next(self.rng.next_u64());
                search.analyse(pos, self.limits, deadline).best
            }
        }
    }
}

impl games::Computer<Setup> for Computer {
    fn choose(
        &mut self,
        _rules: &Setup,
        history: &[<Setup as Rules>::Position],
        deadline: &dyn Deadline,
    ) -> Option<Move> {
        self.choose_move(history.last()?, deadline)
    }

    /// The search's best move and its value, from the side to move's view:
    /// its final points minus the other's, exact or estimated.
    fn advise(
        &mut self,
        _rules: &Setup,
        history: &[<Setup as Rules>::Position],
        deadline: &dyn Deadline,
    ) -> Option<Advice<Move, Side>> {
        let pos = history.last()?;
        let search = self.search.get_or_insert_with(Search::new);
        let analysis = search.analyse(pos, self.limits, deadline);
        let best = analysis.best?;
        Some(Advice {
            best: vec![best],
            verdict: Verdict::Score {
                value: analysis.value_for(pos.to_move()),
                exact: analysis.exact,
            },
        })
    }
}

impl games::Computers for Setup {
    type Level = Level;
    type Player = Computer;

    fn computer(&self, level: Level, seed: u64) -> Computer {
        Computer::new(level, seed)
    }
}

/// The five-year-old's moves: the slides onto the tile with the most points;
/// to place, the tiles from which the best tile in reach is worth most.
pub fn greedy(pos: &Position) -> Vec<Move> {
    let moves = pos.legal_moves();
    let tiles = pos.tiles();
    let free = pos.free();
    let worth = |mv: &Move| match *mv {
        Move::Slide { to, .. } => tiles.points(to),
        Move::Place(at) => {
            let reach = queen_moves(at, free & !at.bit());
            (1..=3)
                .rev()
                .find(|&p| tiles.worth(p) & reach != 0)
                .unwrap_or(0)
        }
    };
    let best = moves.iter().map(worth).max().unwrap_or(0);
    moves.into_iter().filter(|m| worth(m) == best).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Never;
    use crate::games::Rules;
    use crate::games::fish::board::Board;
    use crate::games::fish::square::at;

    #[test]
    fn greedy_heads_for_the_most_points() {
        let p = Position::parse(".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P")
            .unwrap();
        let b = Board::STANDARD;
        let picks: Vec<String> = greedy(&p).iter().map(|m| m.to_string()).collect();
        // From (1,2) the best tile in reach is a 2: (2,3), the only one.
        assert_eq!(picks, ["1,2-2,3"]);
        assert!(p.is_legal(Move::Slide {
            from: at(b, 1, 2).unwrap(),
            to: at(b, 2, 3).unwrap()
        }));
    }

    #[test]
    fn every_level_plays_legal_moves_and_repeats_with_its_seed() {
        let setup = Setup::default();
        for &level in <Level as games::Level>::ALL {
            let limits = Limits::nodes(20_000);
            let mut a = Computer::new(level, 3).with_limits(limits);
            let mut b = Computer::new(level, 3).with_limits(limits);
            let mut p = setup.start();
            while !p.is_over() {
                let m = a.choose_move(&p, &Never).unwrap();
                assert_eq!(Some(m), b.choose_move(&p, &Never));
                assert!(p.is_legal(m), "{level} {m} in {p}");
                p = p.play(m);
            }
        }
    }

    #[test]
    fn levels_parse_and_describe_themselves() {
        assert_eq!("Greedy".parse::<Level>(), Ok(Level::Greedy));
        assert_eq!(
            "clever".parse::<Level>().unwrap_err().to_string(),
            "\"clever\" is not a level: write rubbish, greedy, cunning or overpowered"
        );
        assert_eq!(<Level as games::Level>::ALL.len(), 4);
    }
}
