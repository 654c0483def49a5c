//! `tallyho fish` on the command line: playing the assignment's game (or a
//! larger one), `analyse`, and replaying a logged game.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::{FishFace, board};
use crate::app::{AppError, Ending};
use crate::cli::{LogArgs, LookArgs, PlayArgs};
use crate::games::fish::{Board, Deal, Limits, Position, Setup, Side, analyse};
use crate::games::{Deadline, Rules};
use crate::shell::console::Console;
use crate::shell::history::Record;
use crate::shell::replay::{self, ReplayError};
use crate::shell::safe;

/// The longest thinking time, in milliseconds: ten minutes.
const MAX_THINK: u64 = 600_000;

/// `tallyho fish`: play, or analyse a position.
#[derive(Args, Debug)]
#[command(after_help = "\
Levels (--level): rubbish (random moves), greedy (the assignment's five-year-old:
the reachable tile with the most points), cunning (a shallow search),
overpowered (a deep search that solves the game exactly once the penguins are
cut off from each other or few tiles are left).

Examples:
  tallyho fish                                   the menu
  tallyho fish --players 1 --names Ann --level overpowered
  tallyho fish --board 8x8 --tiles random --penguins 2 --seed 7
  tallyho fish analyse '.1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P'")]
pub struct FishCommand {
    /// A tool instead of a game.
    #[command(subcommand)]
    pub tool: Option<FishTool>,

    /// The board, the tiles, the penguins, the computer's time.
    #[command(flatten)]
    pub game: FishArgs,

    /// Who plays.
    #[command(flatten)]
    pub play: PlayArgs,

    /// How the conversation looks.
    #[command(flatten)]
    pub look: LookArgs,

    /// Where finished games are kept.
    #[command(flatten)]
    pub log: LogArgs,
}

/// The options of a game of fish.
#[derive(Args, Debug, Clone)]
pub struct FishArgs {
    /// Board size WIDTHxHEIGHT, 4x4 to 8x8.
    #[arg(long, value_name = "WxH", default_value = "6x6")]
    pub board: Board,

    /// The tiles' points: rings (1 on the rim, 2 on the next ring, 3 inside,
    /// the assignment's board) or random (dealt from --seed, as the board game
    /// deals them).
    #[arg(long, value_name = "TILES", default_value = "rings", value_parser = ["rings", "random"])]
    pub tiles: String,

    /// Penguins each, 1 to 4; they are placed in turn before the first move.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=4))]
    pub penguins: u32,

    /// How long the computer may think about a move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_THINK))]
    pub think: u64,
}

/// The fish tools.
#[derive(Subcommand, Debug)]
pub enum FishTool {
    /// The best move from a position and its value: the final difference of
    /// points with best play (P's minus A's), exact or an estimate.
    Analyse {
        /// The position, in the fish notation:
        /// 111111/122221/123321/123321/122221/111111 place:1/1 next:P
        position: String,

        /// How long to think, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = 1000,
              value_parser = clap::value_parser!(u64).range(1..=MAX_THINK))]
        think: u64,

        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// A deadline on the wall clock.
struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// Runs `tallyho fish`.
pub fn run(command: FishCommand) -> Result<Ending, AppError> {
    match command.tool {
        Some(FishTool::Analyse {
            position,
            think,
            json,
        }) => {
            analyse_position(&position, think, json, command.look.look().colour)?;
            Ok(Ending::Clean)
        }
        None => {
            let deal = match command.game.tiles.as_str() {
                "random" => Deal::Random {
                    seed: command.play.seed.unwrap_or_else(rand::random),
                },
                _ => Deal::Rings,
            };
            let rules = Setup::new(command.game.board, deal, command.game.penguins)
                .map_err(|e| AppError::Usage(format!("--penguins: {e}")))?;
            crate::app::play_match(
                rules,
                "default",
                &FishFace,
                &command.play,
                [None, None],
                None,
                command.game.think,
                command.look.look(),
                &command.log,
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
    let deadline = Until(started + Duration::from_millis(think));
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
    let pairs: Vec<(&str, &str)> = record
        .setup
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let rules = Setup::from_setup(&pairs).map_err(ReplayError::Damaged)?;
    replay::replay(console, &rules, &FishFace, record, step)
}
