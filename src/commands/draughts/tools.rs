//! `tallyho draughts perft` and `analyse`.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use super::store;
use crate::commands::AppError;
use tallyho::engines::draughts::session::SharedEndgame;
use tallyho::faces::draughts::board;
use tallyho::games::Rules;
use tallyho::games::draughts::endgame::LARGEST_PIECES;
use tallyho::games::draughts::endgame::{self, Endgame, Exact};
use tallyho::games::draughts::{Captures, Position, Score, Setup, Side, perft_each};
use tallyho::shell::clock::Until;
use tallyho::shell::safe;
use tallyho::shell::text::plies;

/// `tallyho draughts perft`: one line per depth, each printed when counted.
pub(super) fn perft(depth: u32, fen: Option<&str>, captures: Captures) -> Result<(), AppError> {
    let rules = Setup::with_captures(captures);
    let pos = match fen {
        Some(text) => position(&rules, text)?,
        None => Position::START,
    };
    let mut out = io::stdout().lock();
    for (d, n) in perft_each(pos, depth, rules) {
        writeln!(out, "perft({d}) = {n}")?;
        out.flush()?;
    }
    Ok(())
}

/// A position typed on the command line, checked.
fn position(rules: &Setup, text: &str) -> Result<Position, AppError> {
    rules
        .parse_position(text)
        .map_err(|e| AppError::Usage(safe::text(&safe::cut(&e.to_string(), 200))))
}

/// The database `analyse` uses: none for a position with many pieces,
/// where the search would not reach it; else read from the data directory,
/// or built on a thread, and waited for no longer than `wait`: `--think`
/// bounds the whole answer.
fn analysis_endgame(rules: &Setup, pos: &Position, wait: &Until) -> Option<Arc<Endgame>> {
    let pieces = pos.piece_count();
    if pieces > 10 {
        return None;
    }
    let shared = SharedEndgame::default();
    if let Some(store) = store() {
        shared.keep_in(store, LARGEST_PIECES);
    }
    shared.start_with(*rules, pieces.clamp(2, endgame::MAX_PIECES));
    shared.ready_within(wait)
}

/// A score in words for the side to move.
fn score_text(score: Score, side: Side) -> String {
    match score {
        Score::Points(p) => format!("{:+.2} men for {side}", f64::from(p) / 100.0),
        Score::Win(n) => format!("{side} wins in {}", plies(n)),
        Score::Loss(n) => format!("{side} loses in {}", plies(n)),
    }
}

/// `tallyho draughts analyse`.
pub(super) fn analyse(
    rules: &Setup,
    fen: &str,
    think: u64,
    json: bool,
    ascii: bool,
) -> Result<(), AppError> {
    let pos = position(rules, fen)?;
    let started = Instant::now();
    let deadline = Until::after_millis(think);
    // Half the time at most for the database, the rest for the search.
    let db = analysis_endgame(rules, &pos, &Until::after_millis(think / 2));
    let analysis = tallyho::games::draughts::analyse(rules, &[pos], &deadline, db.clone());
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", analysis.to_json())?;
        return Ok(());
    }
    let side = pos.to_move();
    let drawing = board::Drawing {
        ascii,
        ..board::Drawing::default()
    };
    write!(out, "{}", board::board(&pos, None, drawing))?;
    writeln!(out, "Position:   {}, {side} to move", rules.notation(&pos))?;
    match analysis.best {
        Some(m) => writeln!(out, "Best move:  {m}")?,
        None => writeln!(out, "Best move:  none: {side} has no move, and has lost")?,
    }
    writeln!(out, "Score:      {}", score_text(analysis.score, side))?;
    if !analysis.pv.is_empty() {
        let line = analysis.pv_text(1);
        let wrapped = safe::wrap(&line, 80 - 12);
        let indented = wrapped.replace('\n', &format!("\n{}", " ".repeat(12)));
        writeln!(out, "Line:       {indented}")?;
    }
    writeln!(
        out,
        "Searched:   depth {}, {} nodes in {:.2} s",
        analysis.depth,
        analysis.nodes,
        elapsed.as_secs_f64()
    )?;
    let exact = match analysis.exact {
        Some(Exact::Win(n)) => format!("{side} wins in {} (endgame database)", plies(n)),
        Some(Exact::Loss(n)) => format!("{side} loses in {} (endgame database)", plies(n)),
        Some(Exact::Draw) => "a draw with best play (endgame database)".to_string(),
        // The true reason it is not exact.
        None => match &db {
            Some(db) if pos.piece_count() > db.max_pieces() => format!(
                "not known: {} pieces are on the board, and the endgame database holds at most {}",
                pos.piece_count(),
                db.max_pieces()
            ),
            Some(_) => "not known".to_string(),
            None if pos.piece_count() > 10 => {
                "not known: too many pieces for the endgame database to reach".to_string()
            }
            None => "not known: the endgame database was not ready within --think".to_string(),
        },
    };
    writeln!(out, "Exact:      {exact}")?;
    Ok(())
}
