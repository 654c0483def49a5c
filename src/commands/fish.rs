//! `tallyho fish` on the command line: playing the assignment's game (or a
//! larger one), `analyse`, and replaying a logged game.

use std::io::Write;
use std::time::Instant;

use super::{AppError, Ending};
use crate::cli::Options;
use crate::cli::fish::{FishTool, Tiles};
use tallyho::faces::fish::{FishFace, board};
use tallyho::games::GameKind;
use tallyho::games::fish::{
    Analysis, Board, DEFAULT_MEMORY, Deal, Limits, Position, Search, Setup, Side, analyse,
};
use tallyho::shell::clock::Until;
use tallyho::shell::console::Console;
use tallyho::shell::log::Record;
use tallyho::shell::replay::{self, ReplayError};
use tallyho::shell::safe;
use tallyho::shell::text::plies;

/// Runs `tallyho fish`: a match, or a tool.
pub fn run(tool: Option<&FishTool>, options: &Options) -> Result<Ending, AppError> {
    let think = options.play.think;
    match tool {
        Some(FishTool::Analyse {
            position,
            all: true,
        }) => {
            analyse_all(position, think, options.look.json)?;
            Ok(Ending::Clean)
        }
        Some(FishTool::Analyse {
            position,
            all: false,
        }) => {
            analyse_position(
                position,
                think,
                options.look.json,
                options.look.look().colour,
            )?;
            Ok(Ending::Clean)
        }
        None => {
            // One seed for the deal and the computer players, so that the
            // seed the log keeps gives the same session again.
            let mut options = options.clone();
            let seed = *options.play.seed.get_or_insert_with(rand::random);
            let options = &options;
            let deal = match options.fish.tiles.unwrap_or_default() {
                Tiles::Random => Deal::Random { seed },
                Tiles::Rings => Deal::Rings,
            };
            let board = match options.board.board.as_deref() {
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

/// `tallyho fish analyse --all`: every legal move with its value, best first.
fn analyse_all(text: &str, think: u64, json: bool) -> Result<(), AppError> {
    let pos = position(text).map_err(AppError::Usage)?;
    let board = pos.board();
    let mut search = Search::sized(board, Some(think), DEFAULT_MEMORY);
    let values = search.analyse_all(&pos, Limits::NONE, &Until::after_millis(think));
    let mut out = tallyho::shell::console::stdout();
    let side = pos.to_move();
    if json {
        let moves: Vec<serde_json::Value> = values
            .iter()
            .map(|v| serde_json::json!({"move": v.mv.to_string(), "value": v.value, "exact": v.exact}))
            .collect();
        let object = serde_json::json!({"position": pos.notation(), "to_move": side.to_string(), "moves": moves, "over": pos.is_over()});
        writeln!(out, "{object}")?;
        return Ok(());
    }
    writeln!(out, "Position:  {}", pos.notation())?;
    writeln!(
        out,
        "To move:   {side}; values are P's points minus A's at the end"
    )?;
    if pos.is_over() {
        writeln!(out, "  none: neither player can move, the game is over")?;
    }
    for v in &values {
        let judged = if v.exact { "exact" } else { "an estimate" };
        let name = tallyho::faces::fish::text::move_words(&v.mv);
        writeln!(out, "  {name:<24} {:+} ({judged})", v.value)?;
    }
    Ok(())
}

/// A position to analyse. One where neither player can move is answered
/// too, with its final score, as the fox's and draughts' finished positions
/// are.
fn position(text: &str) -> Result<Position, String> {
    Position::parse(text).map_err(|e| format!("\"{}\" is not a position: {e}", safe::cut(text, 60)))
}

/// What the search says of a position, as one JSON object.
fn analysis_json(pos: &Position, analysis: &Analysis) -> serde_json::Value {
    serde_json::json!({
        "position": pos.notation(),
        "best": analysis.best.map(|m| m.to_string()),
        "value": analysis.value,
        "exact": analysis.exact,
        "to_move": pos.to_move().to_string(),
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "over": pos.is_over(),
    })
}

/// `tallyho fish analyse`.
fn analyse_position(text: &str, think: u64, json: bool, colour: bool) -> Result<(), AppError> {
    if text == "-" {
        // One JSON object a line, as the fox's `analyse -`.
        return super::analyse_each_line(|line| {
            let pos = position(line)?;
            Ok(analysis_json(
                &pos,
                &analyse(&pos, Limits::NONE, &Until::after_millis(think)),
            )
            .to_string())
        });
    }
    let pos = position(text).map_err(AppError::Usage)?;
    let started = Instant::now();
    let deadline = Until::after_millis(think);
    let analysis = analyse(&pos, Limits::NONE, &deadline);
    let elapsed = started.elapsed();
    let mut out = tallyho::shell::console::stdout();
    if json {
        writeln!(out, "{}", analysis_json(&pos, &analysis))?;
        return Ok(());
    }
    write!(out, "{}", board(&pos, None, colour))?;
    writeln!(out, "Position:  {}", pos.notation())?;
    writeln!(out, "To move:   {}", pos.to_move())?;
    match analysis.best {
        Some(mv) => writeln!(out, "Best move: {mv}")?,
        None if pos.is_over() => {
            writeln!(
                out,
                "Best move: none: neither player can move, the game is over"
            )?;
        }
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
        "Searched:  {} deep, {} nodes, {:.0} ms",
        plies(analysis.depth),
        analysis.nodes,
        elapsed.as_secs_f64() * 1000.0
    )?;
    Ok(())
}

/// Replays a logged fish game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let rules: Setup = replay::rules_of(record)?;
    replay::replay(console, &rules, &FishFace, record, step)
}
