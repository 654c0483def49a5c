//! `tallyho draughts analyse`: the engine's best move, score, principal
//! variation and depth for a position, with the exact result wherever the
//! endgame database covers it, as values and as JSON.

use std::sync::Arc;

use serde::Serialize;

use super::endgame::{Endgame, Exact};
use super::fen;
use super::moves::Move;
use super::position::{Position, Side};
use super::rules::Setup;
use super::search::{Engine, Limits, Score};
use crate::games::Deadline;

/// What the engine thinks of a position.
#[derive(Clone, PartialEq, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// The move it would play (`None`: the side to move has no move).
    pub best: Option<Move>,
    /// The score for the side to move.
    pub score: Score,
    /// The expected line from the position.
    pub pv: Vec<Move>,
    /// The deepest iteration completed (0 when the database answered).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The exact value, when the database covers the position.
    pub exact: Option<Exact>,
}

/// The JSON shape of an analysis (`--json`).
#[derive(Serialize)]
struct Json<'a> {
    fen: String,
    to_move: &'a str,
    best: Option<String>,
    /// `points` (in men), `win` or `loss`.
    score_kind: &'a str,
    /// Men for `points`; plies to the end for `win` and `loss`.
    score: f64,
    score_text: String,
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
    /// `win`, `loss` or `draw` for the side to move, from the database.
    exact: Option<&'a str>,
    exact_plies: Option<u32>,
    /// Why `exact` is null, where the caller knows.
    not_exact: Option<&'a str>,
}

impl Analysis {
    /// The analysis as one line of JSON.
    pub fn to_json(&self) -> String {
        self.to_json_saying(None)
    }

    /// The same, with `not_exact` saying why there is no exact result
    /// (null where there is one).
    pub fn to_json_saying(&self, not_exact: Option<&str>) -> String {
        let (score_kind, score) = match self.score {
            Score::Points(p) => ("points", p as f64 / 100.0),
            Score::Win(n) => ("win", n as f64),
            Score::Loss(n) => ("loss", n as f64),
        };
        let (exact, exact_plies) = match self.exact {
            Some(Exact::Win(n)) => (Some("win"), Some(n)),
            Some(Exact::Loss(n)) => (Some("loss"), Some(n)),
            Some(Exact::Draw) => (Some("draw"), None),
            None => (None, None),
        };
        let json = Json {
            fen: fen::write(&self.position),
            to_move: self.position.to_move().name(),
            best: self.best.map(|m| m.to_string()),
            score_kind,
            score,
            score_text: self.score.to_string(),
            pv: self.pv.iter().map(|m| m.to_string()).collect(),
            depth: self.depth,
            nodes: self.nodes,
            exact,
            exact_plies,
            not_exact: not_exact.filter(|_| exact.is_none()),
        };
        serde_json::to_string(&json).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The principal variation in numbered PDN, like `12. 11-15 23-19 13. 8-11`,
    /// numbering from `move_number` with the side to move. A line that
    /// stops short of the end its score foretells (the table's entries cut
    /// it, not the game) ends `…`.
    pub fn pv_text(&self, move_number: usize) -> String {
        let mut words = Vec::new();
        let mut side = self.position.to_move();
        let mut n = move_number;
        for (i, m) in self.pv.iter().enumerate() {
            match side {
                Side::Black => words.push(format!("{n}.")),
                Side::White if i == 0 => words.push(format!("{n}...")),
                Side::White => {}
            }
            words.push(m.to_string());
            if side == Side::White {
                n += 1;
            }
            side = side.other();
        }
        let foretold = match self.score {
            Score::Win(n) | Score::Loss(n) => Some(n as usize),
            Score::Points(_) => None,
        };
        if foretold.is_some_and(|n| self.pv.len() < n) {
            words.push("…".to_string());
        }
        words.join(" ")
    }
}

/// Analyses the last position of `history` until `deadline` (or depth 64),
/// with the database if one is given. A draw by repetition or the
/// forty-move rule is worth nothing to either side here.
pub fn analyse(
    rules: &Setup,
    history: &[Position],
    deadline: &dyn Deadline,
    endgame: Option<Arc<Endgame>>,
) -> Analysis {
    let mut engine = Engine::new(*rules, 20).without_contempt();
    if let Some(db) = endgame {
        engine = engine.with_endgame(db);
    }
    let position = history.last().copied().unwrap_or(Position::START);
    let history = if history.is_empty() {
        vec![position]
    } else {
        history.to_vec()
    };
    let r = engine.search(&history, Limits::default(), deadline);
    Analysis {
        position,
        best: r.best,
        score: r.score,
        pv: r.pv,
        depth: r.depth,
        nodes: r.nodes,
        exact: r.exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Never;
    use crate::games::draughts::notation::parse_move;

    #[test]
    fn the_database_answers_small_endings_exactly() {
        let rules = Setup::STANDARD;
        let db = Arc::new(Endgame::build(3, rules));
        let pos = fen::parse("B:WK20:BK1,K2").unwrap();
        let a = analyse(&rules, &[pos], &Never, Some(db));
        assert!(matches!(a.exact, Some(Exact::Win(_))));
        assert!(matches!(a.score, Score::Win(_)));
        let json = a.to_json();
        assert!(
            json.starts_with("{\"fen\":\"B:WK20:BK1,K2\",\"to_move\":\"black\",\"best\":"),
            "{json}"
        );
        assert!(json.contains("\"exact\":\"win\""));
    }

    #[test]
    fn a_draw_the_search_finds_is_worth_nothing_to_either_side() {
        // King against king: the forty-move rule draws it, and an analysis
        // says 0.00 where a player's search would shade it by contempt.
        let rules = Setup::STANDARD;
        let pos = fen::parse("B:WK5:BK1").unwrap();
        let a = analyse(&rules, &[pos], &Never, None);
        assert_eq!(a.exact, None);
        assert_eq!(a.score, Score::Points(0));
    }

    #[test]
    fn a_finished_position_has_no_best_move() {
        let rules = Setup::STANDARD;
        let pos = fen::parse("W:W32:B28").unwrap().with_side(Side::Black);
        let a = analyse(&rules, &[pos], &Never, None);
        assert_eq!(a.best, None);
        assert_eq!(a.score, Score::Loss(0));
        assert!(a.to_json().contains("\"best\":null"));
    }

    #[test]
    fn the_line_is_numbered() {
        let rules = Setup::STANDARD;
        let mut pv = Vec::new();
        let mut p = Position::START;
        for t in ["11-15", "23-19", "8-11"] {
            let m = parse_move(&rules, &p, t).unwrap();
            p = p.play(&m);
            pv.push(m);
        }
        let mut a = Analysis {
            position: Position::START,
            best: pv.first().copied(),
            score: Score::Points(0),
            pv,
            depth: 3,
            nodes: 0,
            exact: None,
        };
        assert_eq!(a.pv_text(1), "1. 11-15 23-19 2. 8-11");
        a.position = a.position.with_side(Side::White);
        assert_eq!(a.pv_text(4), "4... 11-15 5. 23-19 8-11");
        // A line shorter than the win it scores says it goes on.
        a.score = Score::Win(5);
        assert_eq!(a.pv_text(4), "4... 11-15 5. 23-19 8-11 …");
        a.score = Score::Loss(3);
        assert_eq!(a.pv_text(4), "4... 11-15 5. 23-19 8-11");
    }
}
