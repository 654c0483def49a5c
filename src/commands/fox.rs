//! Fox and Hounds' commands: its three flows, the setup its options make,
//! and `analyse`, which prints what the solver says.

use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use super::{AppError, Ending};
use crate::cli::Options;
use crate::cli::fox::{FoxArgs, FoxCommand};
use tallyho::faces::fox::capture::CaptureFace;
use tallyho::faces::fox::{FoxFace, render, text};
use tallyho::flows::classic;
use tallyho::games::fox::solver;
use tallyho::games::fox::{Board, Position, Rules, Setup, Side};
use tallyho::games::{FoxFlow, GameKind};
use tallyho::shell::console::{Console, Look};
use tallyho::shell::log::Keeper;
use tallyho::shell::signals;

/// Runs a fox command: `flow` is `None` for the coursework's flow.
pub fn run(flow: Option<&FoxCommand>, options: &Options) -> Result<Ending, AppError> {
    let fox = &options.fox;
    let board = options.board.board.as_deref();
    match flow {
        None => {
            let rules = setup(fox, board, Defaults::DEFAULT)?;
            let kind = GameKind::Fox(FoxFlow::Default);
            super::play_match(
                rules,
                kind,
                &FoxFace,
                options,
                fox.watch_levels(),
                fox.watch(),
            )
        }
        Some(FoxCommand::Capture) => {
            let rules = setup(fox, board, Defaults::capture())?;
            let kind = GameKind::Fox(FoxFlow::Capture);
            super::play_match(
                rules,
                kind,
                &CaptureFace,
                options,
                fox.watch_levels(),
                fox.watch(),
            )
        }
        Some(FoxCommand::Classic) => play_classic(options),
        Some(FoxCommand::Analyse { position }) => {
            analyse(
                fox,
                board,
                position.as_deref(),
                options.look.json,
                options.look.look().colour,
            )?;
            Ok(Ending::Clean)
        }
    }
}

/// `tallyho classic`: the 1978 conversation, on a teletype's paper unless
/// the output is a terminal.
fn play_classic(options: &Options) -> Result<Ending, AppError> {
    let play = &options.play;
    let level = play
        .level
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| {
            AppError::bad_value("--level <LEVEL>", play.level.as_deref().unwrap_or(""), e)
        })?;
    let look = Look {
        teletype: options.fox.teletype || !io::stdout().is_terminal(),
        baud: options.fox.baud.as_deref().and_then(|b| b.parse().ok()),
        ..options.look.look()
    };
    let console = &mut Console::stdio(look);
    let classic = classic::Options {
        setup: setup(
            &options.fox,
            options.board.board.as_deref(),
            Defaults::CLASSIC,
        )?,
        games: play.games,
        seed: play.seed.unwrap_or_else(rand::random),
        level,
        delay_ms: play
            .delay
            .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
        log: Keeper::open(super::log::log(&options.log))?.holding(signals::HOLD),
    };
    let finished = super::cut_short(classic::run(console, &classic), &classic.log)?;
    Ok(super::script_status(
        console,
        &classic.log,
        play.games,
        finished,
    ))
}

/// A flow's own defaults for the setup options.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    /// The board.
    pub board: Board,
    /// The rules.
    pub rules: Rules,
    /// Who moves first.
    pub first: Side,
}

impl Defaults {
    /// The coursework's default flow and `analyse`: 8x8, coursework, fox first.
    pub const DEFAULT: Defaults = Defaults {
        board: Board::STANDARD,
        rules: Rules::Coursework,
        first: Side::Fox,
    };

    /// The 1978 program: 8x8, standard rules, the hounds first.
    pub const CLASSIC: Defaults = Defaults {
        board: Board::STANDARD,
        rules: Rules::Standard,
        first: Side::Hounds,
    };

    /// The Python project: 7x8, captures, the fox first.
    pub fn capture() -> Defaults {
        Defaults {
            board: Board::new(7, 8).unwrap_or(Board::STANDARD),
            rules: Rules::Capture,
            first: Side::Fox,
        }
    }
}

/// The setup the options ask for, with the flow's own defaults. The error
/// names the option.
pub fn setup(args: &FoxArgs, board: Option<&str>, defaults: Defaults) -> Result<Setup, AppError> {
    let board = match board {
        Some(text) => text
            .parse::<Board>()
            .map_err(|e| AppError::bad_value("--board <WxH>", text, e))?,
        None => defaults.board,
    };
    let mut setup = Setup {
        board,
        rules: args.rules.unwrap_or(defaults.rules),
        fox_start: Some(board.default_fox_start()),
        first: args.first.unwrap_or(defaults.first),
    };
    match args.fox_start.as_deref().map(str::trim) {
        None => {}
        Some(choose) if choose.eq_ignore_ascii_case("choose") => setup.fox_start = None,
        Some(text) => {
            let usage = |e: String| AppError::bad_value("--fox-start <SQUARE|choose>", text, e);
            let sq = board.parse_square(text).map_err(|e| usage(e.to_string()))?;
            setup.fox_start = Some(
                setup
                    .check_fox_start(sq)
                    .map_err(|e| usage(e.to_string()))?,
            );
        }
    }
    Ok(setup)
}

/// `tallyho analyse`: solve a position and report it, or each position of
/// standard input with `-`.
fn analyse(
    game: &FoxArgs,
    board: Option<&str>,
    position_text: Option<&str>,
    json_out: bool,
    colour: bool,
) -> Result<(), AppError> {
    let setup = setup(game, board, Defaults::DEFAULT)?;
    if setup.fox_start.is_none() {
        return Err(AppError::Usage(
            "--fox-start: analyse needs a square, not choose".into(),
        ));
    }
    if position_text == Some("-") {
        if game.first.is_some() || game.fox_start.is_some() {
            return Err(AppError::Usage(
                "--first and --fox-start set up a start position; the positions read give their own".into(),
            ));
        }
        return analyse_lines(&setup);
    }
    let pos = match position_text {
        None => setup.default_start(),
        Some(_) if game.first.is_some() || game.fox_start.is_some() => {
            return Err(AppError::Usage(
                "--first and --fox-start set up a start position; a POSITION gives its own".into(),
            ));
        }
        Some(text) => position(&setup, text).map_err(AppError::Usage)?,
    };
    let mut out = tallyho::shell::console::stdout();
    if json_out {
        writeln!(out, "{}", json(&setup, &pos))?;
        return Ok(());
    }
    write!(out, "{}", render::board(&pos, colour))?;
    writeln!(
        out,
        "Position:    {pos} ({} board, {} rules)",
        setup.board, setup.rules
    )?;
    if let Some(ending) = pos.ending(setup.rules) {
        writeln!(
            out,
            "Result:      the game is over: {}",
            text::result_of(ending)
        )?;
        return Ok(());
    }
    let started = Instant::now();
    let analysis = solver::analyse(&pos, setup.rules);
    let elapsed = started.elapsed();
    let best: Vec<String> = analysis.best.iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "Verdict:     {} ({}; a ply is one side's move)",
        text::verdict(analysis.value.winner, analysis.value.plies),
        text::plies_split(analysis.value.plies, pos.to_move())
    )?;
    writeln!(out, "Best moves:  {}", best.join(", "))?;
    writeln!(out, "Reachable:   {} positions", analysis.reachable)?;
    writeln!(
        out,
        "Games:       {} possible games",
        analysis.possible_games
    )?;
    writeln!(out, "Solved in:   {:.1} ms", elapsed.as_secs_f64() * 1000.0)?;
    Ok(())
}

/// A position to analyse, read under the setup. A line that looks like
/// another game's position is pointed to that game's `analyse`.
fn position(setup: &Setup, text: &str) -> Result<Position, String> {
    Position::parse_under(text, setup.board, setup.rules).map_err(|e| {
        match text::other_game(text) {
            Some(pointer) => format!("{e}; {pointer}"),
            None => e.to_string(),
        }
    })
}

/// What the solver says of a position, as one JSON object; for a finished
/// position, its result.
fn json(setup: &Setup, pos: &Position) -> serde_json::Value {
    if let Some(ending) = pos.ending(setup.rules) {
        return serde_json::json!({
            "over": true,
            "winner": ending.winner().name(),
            "how": ending.name(),
            "result": text::result_of(ending),
            "plies": 0,
            "best": [],
            "board": setup.board.to_string(),
            "rules": setup.rules.name(),
            "position": pos.notation(),
        });
    }
    let analysis = solver::analyse(pos, setup.rules);
    let best: Vec<String> = analysis.best.iter().map(ToString::to_string).collect();
    serde_json::json!({
        "winner": analysis.value.winner.name(),
        "plies": analysis.value.plies,
        "best": best,
        "reachable": analysis.reachable,
        "possible_games": analysis.possible_games.to_string(),
        "board": setup.board.to_string(),
        "rules": setup.rules.name(),
        "position": pos.notation(),
    })
}

/// `analyse -`: a JSON object for each position of standard input.
fn analyse_lines(setup: &Setup) -> Result<(), AppError> {
    super::analyse_each_line(|text| position(setup, text).map(|pos| json(setup, &pos).to_string()))
}
