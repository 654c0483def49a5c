//! The computer levels, from Rubbish to Overpowered, as `Computer` players
//! seeded for reproducible play: the same seed and the same game give the
//! same moves (the overpowered level's depth also follows the deadline).

use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;

use super::book;
use super::endgame::{Endgame, Exact};
use super::eval;
use super::movegen;
use super::moves::Move;
use super::position::{Position, Side};
use super::rules::{self, Setup};
use super::search::{Engine, Limits, Report, Score};
use crate::games::{self, Advice, Deadline, Verdict};

levels! {
    /// How strong a computer player is.
    pub enum Level {
        /// A random legal move.
        Rubbish = "rubbish": "moves at random",
        /// The C project's player: takes when it can, otherwise moves at random.
        Greedy = "greedy":
            "takes all it can, otherwise moves at random, though not straight into a capture",
        /// A shallow search.
        Cunning = "cunning": "looks four moves ahead; beatable with care",
        /// The full engine with the endgame database.
        Overpowered = "overpowered":
            "searches deep within its time, and plays endings of five pieces perfectly (four until that database is built)",
    }
}

/// Cunning's depth in plies (captures are always played out beyond it).
pub const CUNNING_DEPTH: u32 = 4;
/// The time a move of Overpowered is sized for when nobody says (the
/// game's `--think` by default).
const USUAL_THINK_MS: u64 = 1000;

/// Overpowered's table for moves of about `think_ms` milliseconds: `2^bits`
/// entries of 16 bytes. A small table that stays in the processor's cache
/// searches more nodes a second than a large one that the search reaches
/// into memory for, and a short search fills few entries: 2^16 (1 MB, one
/// core's second-level cache here) up to 300 ms, 2^18 (4 MB) longer, where
/// 2^20 was the only size before (the README's "Where the gap is" has the
/// measures).
pub fn table_bits(think_ms: u64) -> u32 {
    if think_ms <= 300 { 16 } else { 18 }
}
/// Overpowered builds its database once this few pieces remain (the search
/// reaches four-piece positions from about here).
const BUILD_ENDGAME_AT: u32 = 10;

/// A computer player of one level, with its own random numbers.
pub struct Player {
    level: Level,
    rng: ChaCha8Rng,
    engine: Option<Engine>,
    /// Whether Overpowered may build its own database on first use.
    build_endgame: bool,
    /// Overpowered's search threads.
    threads: usize,
    /// Whether Overpowered plays from the opening book.
    use_book: bool,
    /// What the last search of [`Player::best_move`] found, if it searched.
    last: Option<Report>,
}

impl Player {
    /// A player of `level` for `rules`, seeded.
    pub fn new(level: Level, rules: Setup, seed: u64) -> Player {
        let engine = match level {
            Level::Rubbish | Level::Greedy => None,
            Level::Cunning => Some(Engine::new(rules, 16).with_noise(seed)),
            Level::Overpowered => Some(Engine::new(rules, table_bits(USUAL_THINK_MS))),
        };
        Player {
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            engine,
            build_endgame: level == Level::Overpowered,
            threads: 1,
            use_book: true,
            last: None,
        }
    }

    /// The same player without the opening book (to compare, or to make
    /// the book itself).
    pub fn without_book(mut self) -> Player {
        self.use_book = false;
        self
    }

    /// The same player searching on `threads` threads (Overpowered only;
    /// at least one). The other levels stay on one, as their play is fixed
    /// by their seed.
    pub fn with_threads(mut self, threads: usize) -> Player {
        self.threads = threads.max(1);
        if self.level == Level::Overpowered {
            self.engine = self.engine.map(|e| e.with_threads(self.threads));
        }
        self
    }

    /// The same player sized for moves of about `think_ms` milliseconds
    /// (see [`Player::fit_to`]).
    pub fn with_think(mut self, think_ms: u64) -> Player {
        self.fit_to(think_ms);
        self
    }

    /// Sizes Overpowered's table for moves of about `think_ms` milliseconds
    /// ([`table_bits`]); a table of another size is made afresh, so what the
    /// old one held is forgotten.
    pub fn fit_to(&mut self, think_ms: u64) {
        if self.level == Level::Overpowered
            && let Some(engine) = self.engine.as_mut()
        {
            engine.resize_table(table_bits(think_ms));
        }
    }

    /// The size of Overpowered's table, `2^bits` entries (`None` for a level
    /// that does not search).
    pub fn table_bits(&self) -> Option<u32> {
        self.engine.as_ref().map(Engine::table_bits)
    }

    /// Overpowered's search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The same player using a database built elsewhere (shared, or read
    /// from disk by the shell), instead of building its own.
    pub fn with_endgame(mut self, db: Arc<Endgame>) -> Player {
        if self.level == Level::Overpowered {
            self.engine = self.engine.map(|e| e.with_endgame(db));
            self.build_endgame = false;
        }
        self
    }

    /// The same player that never builds a database (for quick tests, or
    /// when the shell hands one over later with [`Player::attach_endgame`]).
    pub fn without_endgame(mut self) -> Player {
        self.build_endgame = false;
        self
    }

    /// Hands this player a database built elsewhere, between moves.
    pub fn attach_endgame(&mut self, db: Arc<Endgame>) {
        if self.level == Level::Overpowered {
            self.engine = self.engine.take().map(|e| e.with_endgame(db));
            self.build_endgame = false;
        }
    }

    /// Builds Overpowered's own database once the game nears its end.
    fn build_endgame_if_near(&mut self, rules: &Setup, pos: &Position) {
        if self.build_endgame && pos.piece_count() <= BUILD_ENDGAME_AT {
            let db = Arc::new(Endgame::build(4, *rules));
            self.engine = self.engine.take().map(|e| e.with_endgame(db));
            self.build_endgame = false;
        }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The database it uses, once built or given.
    pub fn endgame(&self) -> Option<Arc<Endgame>> {
        self.engine.as_ref().and_then(|e| e.endgame().cloned())
    }

    /// The move to play after `history` (the game so far, start first).
    pub fn choose_move(
        &mut self,
        rules: &Setup,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Move> {
        let pos = history.last()?;
        let moves = rules.moves(pos);
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        match self.level {
            Level::Rubbish => moves.choose(&mut self.rng).copied(),
            Level::Greedy => greedy(pos, &moves).choose(&mut self.rng).copied(),
            Level::Cunning => {
                let engine = self.engine.as_mut()?;
                // Each move from a fresh table, so that the reply depends on
                // the game alone and not on searches before an undo.
                engine.clear();
                let limits = Limits {
                    max_depth: CUNNING_DEPTH,
                    use_endgame: false,
                };
                engine.search(history, limits, deadline).best
            }
            Level::Overpowered => {
                self.best_move(rules, history, deadline, Limits::default().max_depth)
            }
        }
    }

    /// Overpowered's move after `history`, searching at most `max_depth`
    /// plies within the deadline (the engine mode's `go depth`); other
    /// levels play as [`Player::choose_move`].
    pub fn best_move(
        &mut self,
        rules: &Setup,
        history: &[Position],
        deadline: &dyn Deadline,
        max_depth: u32,
    ) -> Option<Move> {
        self.last = None;
        let pos = history.last()?;
        let moves = rules.moves(pos);
        if moves.len() <= 1 || self.level != Level::Overpowered {
            return self.choose_move(rules, history, deadline);
        }
        if self.use_book
            && let Some(m) = book::lookup(rules, pos)
        {
            return Some(m);
        }
        self.build_endgame_if_near(rules, pos);
        let engine = self.engine.as_mut()?;
        let limits = Limits {
            max_depth,
            use_endgame: true,
        };
        let mut report = engine.search(history, limits, deadline);
        // Where the database knows the value, any move that keeps it will do;
        // the line reported is then the database's from the move chosen.
        if report.exact.is_some_and(|e| e != Exact::Draw)
            && let Some(&chosen) = report.exact_moves.choose(&mut self.rng)
            && report.pv.first() != Some(&chosen)
        {
            report.pv = engine.exact_line(*pos, chosen);
            report.best = Some(chosen);
        }
        let chosen = report.best;
        self.last = Some(report);
        chosen
    }

    /// What the last [`Player::best_move`] searched: its depth, nodes,
    /// score and line. `None` when it took a book move, had one move or
    /// none, or plays at a level below Overpowered.
    pub fn last_search(&self) -> Option<&Report> {
        self.last.as_ref()
    }

    /// The best moves and the verdict on them, for a hint or a draw offer:
    /// exact where its database covers the position and the forty-move
    /// count leaves its value standing; else the search's
    /// (Cunning to its depth, Overpowered within the deadline); Rubbish and
    /// Greedy judge by the evaluation alone and offer Greedy's choices.
    pub fn advise(
        &mut self,
        rules: &Setup,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Advice<Move, Side>> {
        let pos = history.last()?;
        let moves = rules.moves(pos);
        if moves.is_empty() {
            return None;
        }
        let to_move = pos.to_move();
        if self.level == Level::Overpowered {
            self.build_endgame_if_near(rules, pos);
        }
        if let Some(db) = self.endgame()
            && let Some(exact) = db.probe(pos)
            && exact.stands_after(rules::quiet_plies(history))
            && let Some(best) = db.best_moves(rules, pos)
            && !best.is_empty()
        {
            return Some(Advice {
                best,
                verdict: verdict_of(exact, to_move),
            });
        }
        let limits = match self.level {
            Level::Rubbish | Level::Greedy => {
                return Some(Advice {
                    best: greedy(pos, &moves),
                    verdict: Verdict::Score {
                        value: eval::evaluate(pos),
                        exact: false,
                    },
                });
            }
            Level::Cunning => Limits {
                max_depth: CUNNING_DEPTH,
                use_endgame: false,
            },
            Level::Overpowered => Limits::default(),
        };
        let report = self.engine.as_mut()?.search(history, limits, deadline);
        let verdict = match (report.exact, report.score) {
            (Some(exact), _) => verdict_of(exact, to_move),
            (None, Score::Win(plies)) => Verdict::Win {
                winner: to_move,
                plies: Some(plies),
            },
            (None, Score::Loss(plies)) => Verdict::Win {
                winner: to_move.other(),
                plies: Some(plies),
            },
            (None, Score::Points(value)) => Verdict::Score {
                value,
                exact: false,
            },
        };
        let best = report.best.map_or(moves, |m| vec![m]);
        Some(Advice { best, verdict })
    }
}

/// Greedy's choices: the captures taking the most; else crowning moves; else
/// moves after which the other side has no capture; else any move.
pub fn greedy(pos: &Position, moves: &[Move]) -> Vec<Move> {
    let most = moves.iter().map(|m| m.capture_count()).max().unwrap_or(0);
    if most > 0 {
        return moves
            .iter()
            .filter(|m| m.capture_count() == most)
            .copied()
            .collect();
    }
    let crown = pos.to_move().crown_row();
    let crowning: Vec<Move> = moves
        .iter()
        .filter(|m| {
            pos.all_kings() & (1 << m.from_index()) == 0 && crown & (1 << m.to_index()) != 0
        })
        .copied()
        .collect();
    if !crowning.is_empty() {
        return crowning;
    }
    let safe: Vec<Move> = moves
        .iter()
        .filter(|m| !movegen::has_capture(&pos.play(m)))
        .copied()
        .collect();
    if safe.is_empty() {
        moves.to_vec()
    } else {
        safe
    }
}

/// A database value for the side to move as the shell's verdict.
pub fn verdict_of(exact: Exact, to_move: Side) -> Verdict<Side> {
    match exact {
        Exact::Win(plies) => Verdict::Win {
            winner: to_move,
            plies: Some(plies),
        },
        Exact::Loss(plies) => Verdict::Win {
            winner: to_move.other(),
            plies: Some(plies),
        },
        Exact::Draw => Verdict::Draw,
    }
}

impl games::Computers for Setup {
    type Level = Level;
    type Player = Player;

    /// A player that builds its own database when it needs one (a pause of
    /// a few seconds); the shell's players share one built in the background.
    fn computer(&self, level: Level, seed: u64) -> Player {
        Player::new(level, *self, seed)
    }
}

impl games::Computer<Setup> for Player {
    fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Draughts' own judgement: an estimate is trusted when the offerer
    /// stands at least half a man better (50 hundredths), so the computer
    /// does not take a draw at the start; an exact verdict as every game's.
    fn accepts_draw(
        &mut self,
        rules: &Setup,
        history: &[Position],
        offerer: Side,
        deadline: &dyn Deadline,
    ) -> bool {
        let to_move = history.last().map(Position::to_move);
        match self.advise(rules, history, deadline).map(|a| a.verdict) {
            Some(Verdict::Draw) => true,
            Some(Verdict::Win { winner, .. }) => winner == offerer,
            Some(Verdict::Score { value, exact }) => {
                let offerers = if to_move == Some(offerer) {
                    value
                } else {
                    -value
                };
                offerers >= if exact { 0 } else { 50 }
            }
            None => false,
        }
    }

    fn choose(
        &mut self,
        rules: &Setup,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Move> {
        self.choose_move(rules, history, deadline)
    }

    fn advise(
        &mut self,
        rules: &Setup,
        history: &[Position],
        deadline: &dyn Deadline,
    ) -> Option<Advice<Move, Side>> {
        Player::advise(self, rules, history, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Never;
    use crate::games::draughts::fen;

    #[test]
    fn overpowered_tables_fit_the_time_a_move_is_given() {
        assert_eq!(table_bits(100), 16);
        assert_eq!(table_bits(300), 16);
        assert_eq!(table_bits(301), 18);
        let p = Player::new(Level::Overpowered, Setup::STANDARD, 1);
        assert_eq!(p.table_bits(), Some(18));
        let mut p = p.with_think(100);
        assert_eq!(p.table_bits(), Some(16));
        p.fit_to(1000);
        assert_eq!(p.table_bits(), Some(18));
        let p = Player::new(Level::Rubbish, Setup::STANDARD, 1).with_think(100);
        assert_eq!(p.table_bits(), None);
    }

    #[test]
    fn levels_parse_and_describe() {
        assert_eq!("Greedy".parse::<Level>(), Ok(Level::Greedy));
        assert_eq!(
            "classic".parse::<Level>().map_err(|e| e.to_string()),
            Err(
                "\"classic\" is not a level: write rubbish, greedy, cunning or overpowered"
                    .to_string()
            )
        );
        assert_eq!(Level::ALL.len(), 4);
        assert!(!Level::Cunning.description().is_empty());
    }

    #[test]
    fn the_same_seed_gives_the_same_moves() {
        let rules = Setup::STANDARD;
        for level in [Level::Rubbish, Level::Greedy] {
            let a = Player::new(level, rules, 7).choose_move(&rules, &[Position::START], &Never);
            let b = Player::new(level, rules, 7).choose_move(&rules, &[Position::START], &Never);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn cunning_plays_other_games_for_other_seeds() {
        let rules = Setup::STANDARD;
        let game = |seed: u64| {
            let mut black = Player::new(Level::Cunning, rules, seed);
            let mut white = Player::new(Level::Cunning, rules, seed + 100);
            let mut history = vec![Position::START];
            let mut moves = Vec::new();
            for ply in 0..16 {
                let player = if ply % 2 == 0 { &mut black } else { &mut white };
                let Some(m) = player.choose_move(&rules, &history, &Never) else {
                    break;
                };
                moves.push(m.to_string());
                history.push(history[history.len() - 1].play(&m));
            }
            moves.join(" ")
        };
        assert_eq!(game(3), game(3));
        let games: std::collections::HashSet<String> = (0..6).map(game).collect();
        assert!(games.len() >= 4, "{games:?}");
    }

    #[test]
    fn greedy_takes_the_most_and_avoids_giving_a_man_away() {
        let rules = Setup::STANDARD;
        let pos = fen::parse("B:W14,22,15:B10,1").unwrap();
        let picks = greedy(&pos, &rules.moves(&pos));
        assert!(picks.iter().all(|m| m.capture_count() == 2), "{picks:?}");
        // 9-14 would walk into 18x9; 9-13 is safe.
        let pos = fen::parse("B:W18:B9").unwrap();
        let picks: Vec<String> = greedy(&pos, &rules.moves(&pos))
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(picks, ["9-13"]);
    }

    #[test]
    fn advice_is_exact_from_the_database_and_a_score_elsewhere() {
        let rules = Setup::STANDARD;
        let db = Arc::new(Endgame::build(3, rules));
        let mut p = Player::new(Level::Overpowered, rules, 1).without_endgame();
        p.attach_endgame(db);
        let pos = fen::parse("B:WK20:BK1,K2").unwrap();
        let advice = p.advise(&rules, &[pos], &Never).unwrap();
        assert!(matches!(
            advice.verdict,
            Verdict::Win {
                winner: Side::Black,
                plies: Some(_)
            }
        ));
        assert!(!advice.best.is_empty());
        // Greedy judges by the evaluation: level material is about even.
        let mut g = Player::new(Level::Greedy, rules, 1);
        let advice = g.advise(&rules, &[Position::START], &Never).unwrap();
        assert!(matches!(
            advice.verdict,
            Verdict::Score { exact: false, .. }
        ));
        let mut c = Player::new(Level::Cunning, rules, 1);
        let advice = c.advise(&rules, &[Position::START], &Never).unwrap();
        assert_eq!(advice.best.len(), 1);
    }

    #[test]
    fn in_database_positions_the_line_reported_starts_with_the_move_played() {
        let rules = Setup::STANDARD;
        let db = Arc::new(Endgame::build(3, rules));
        for seed in 0..8 {
            let mut p = Player::new(Level::Overpowered, rules, seed).with_endgame(db.clone());
            for text in ["W:WK32:BK1,K2", "B:WK32:BK1,K2", "B:WK20:BK1,K2"] {
                let history = [fen::parse(text).unwrap()];
                let played = p.best_move(&rules, &history, &Never, 10);
                let report = p.last_search().unwrap();
                assert_eq!(report.pv.first().copied(), played, "{text}, seed {seed}");
                assert_eq!(report.best, played, "{text}, seed {seed}");
                // The line goes on from the move played, each move legal.
                let mut here = history[0];
                for m in &report.pv {
                    assert!(rules.moves(&here).contains(m), "{text}: {m} in {here}");
                    here = here.play(m);
                }
            }
        }
    }

    #[test]
    fn overpowered_plays_endings_from_its_database() {
        let rules = Setup::STANDARD;
        let db = Arc::new(Endgame::build(3, rules));
        let mut p = Player::new(Level::Overpowered, rules, 1).with_endgame(db.clone());
        // Two kings against one: the player wins, every move keeping the win.
        let mut history = vec![fen::parse("B:WK20:BK1,K2").unwrap()];
        for _ in 0..60 {
            let here = *history.last().unwrap();
            let Some(m) = p.choose_move(&rules, &history, &Never) else {
                break;
            };
            history.push(here.play(&m));
        }
        let end = history.last().unwrap();
        assert_eq!(end.pieces(crate::games::draughts::Side::White), 0, "{end}");
    }
}
