//! `tallyho fish` on the command line: playing the assignment's game (or a
//! larger one), `analyse`, and replaying a logged game.

use std::io::{self, Write};
use std::time::Instant;

use super::{AppError, Ending};
use crate::cli::Options;
use crate::cli::fish::{FishTool, Tiles};
use tallyho::faces::fish::{FishFace, board};
use tallyho::games::fish::{Board, Deal, Limits, Position, Setup, Side, analyse};
use tallyho::games::{GameKind, Rules};
use tallyho::shell::clock::Until;
use tallyho::shell::console::Console;
use tallyho::shell::history::Record;
use tallyho::shell::replay::{self, ReplayError};
use tallyho::shell::safe;

/// Runs `tallyho fish`: a match, or a tool.
pub fn run(tool: Option<&FishTool>, options: &Options) -> Result<Ending, AppError> {
    let think = options.play.think;
    match tool {
        Some(FishTool::Analyse { position }) => {
            analyse_position(
                position,
                think,
                options.look.json,
                options.look.look().colour,
            )?;
            Ok(Ending::Clean)
        }
        None => {
            let deal = match options.fish.tiles.unwrap_or_default() {
                Tiles::Random => Deal::Random {
                    seed: options.play.seed.unwrap_or_else(rand::random),
                },
                Tiles::Rings => Deal::Rings,
            };
            let board = match options.fox.board.as_deref() {
                Some(text) => text
                    .parse::<Board>()
                    .map_err(|e| AppError::bad_value("--board <WxH>", text, e))?,
                None => Board::default(),
            };
            let penguins = options.fish.penguins.unwrap_or(1);
            let rules = Setup::new(board, deal, penguins)
                .map_err(|e| AppError::bad_value("--penguins <N>", &penguins.to_string(), e))?;
            super::play_match(
                rules,
                GameKind::Fish,
                &FishFace,
                options,
                [None, None],
                None,
            )
        }
    }
}

/// `tallyho fish analyse`.
fn analyse_position(text: &str, think: u64, json: bool, colour: bool) -> Result<(), AppError> {
    let pos = Position::parse(text).map_err(|e| {
        AppError::Usage(format!(
            "\"{}\" is not a position: {e}",
            safe::cut(text, 60)
        ))
    })?;
    if pos.is_over() {
        return Err(AppError::Usage(
            "that position is over: neither player can move".into(),
        ));
    }
    let started = Instant::now();
    let deadline = Until::after_millis(think);
    let analysis = analyse(&pos, Limits::NONE, &deadline);
    let elapsed = started.elapsed();
    let best = analysis.best.map(|m| m.to_string());
    let mut out = io::stdout().lock();
    if json {
        let object = serde_json::json!({
            "position": pos.notation(),
            "best": best,
            "value": analysis.value,
            "exact": analysis.exact,
            "to_move": pos.to_move().to_string(),
            "depth": analysis.depth,
            "nodes": analysis.nodes,
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    write!(out, "{}", board(&pos, None, colour))?;
    writeln!(out, "Position:  {}", pos.notation())?;
    writeln!(out, "To move:   {}", pos.to_move())?;
    match analysis.best {
        Some(mv) => writeln!(out, "Best move: {mv}")?,
        None => writeln!(out, "Best move: none")?,
    }
    let (leader, lead) = match analysis.value {
        v if v >= 0 => (Side::P, v),
        v => (Side::A, -v),
    };
    let judged = if analysis.exact {
        "exact"
    } else {
        "an estimate"
    };
    if lead == 0 {
        writeln!(out, "Value:     0, a draw ({judged})")?;
    } else {
        writeln!(
            out,
            "Value:     {:+} (P's points minus A's): {leader} finishes {lead} ahead ({judged})",
            analysis.value
        )?;
    }
    writeln!(
        out,
        "Searched:  {} plies deep, {} nodes, {:.0} ms",
        analysis.depth,
        analysis.nodes,
        elapsed.as_secs_f64() * 1000.0
    )?;
    Ok(())
}

/// Replays a logged fish game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let rules =
        Setup::from_setup(&super::log::setup_pairs(record)).map_err(ReplayError::Damaged)?;
    replay::replay(console, &rules, &FishFace, record, step)
}
