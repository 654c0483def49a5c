//! From a parsed command line to a running flow: checks what clap could not,
//! builds the console, runs the command, and says which errors are the user's.

use std::fmt;
use std::io::{self, Write};
use std::time::Instant;

use crate::cli::{Cli, Command, GameArgs, LogArgs};
use crate::console::{Console, Reply};
use crate::games::fox::solver;
use crate::games::fox::{Board, Game, Position, Rules, Setup, Side};
use crate::history::{self, Log, Record};
use crate::input;
use crate::render;
use crate::session::{self, Options};
use crate::text;

/// Why tallyho stopped early.
#[derive(Debug)]
pub enum AppError {
    /// The command line or its input was wrong (exit status 2).
    Usage(String),
    /// Anything else (exit status 1).
    Io(io::Error),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Usage(why) => f.write_str(why),
            AppError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for AppError {
    fn from(e: io::Error) -> AppError {
        AppError::Io(e)
    }
}

/// The setup the command line asks for, with the flow's own defaults.
pub fn setup(args: &GameArgs, rules: Rules, first: Side) -> Result<Setup, AppError> {
    let mut setup = Setup {
        board: args.board,
        rules: args.rules.unwrap_or(rules),
        fox_start: Some(args.board.default_fox_start()),
        first: args.first.unwrap_or(first),
    };
    match args.fox_start.as_deref().map(str::trim) {
        None => {}
        Some(choose) if choose.eq_ignore_ascii_case("choose") => setup.fox_start = None,
        Some(text) => {
            let usage = |e: String| AppError::Usage(format!("--fox-start: {e}"));
            let sq = args
                .board
                .parse_square(text)
                .map_err(|e| usage(e.to_string()))?;
            setup.fox_start = Some(setup.check_fox_start(sq).map_err(usage)?);
        }
    }
    Ok(setup)
}

/// The game log the command line and environment name, if any.
pub fn log(args: &LogArgs) -> Option<Log> {
    if args.no_history {
        return None;
    }
    let path = args
        .history
        .clone()
        .or_else(|| {
            std::env::var_os("TALLYHO_HISTORY")
                .filter(|v| !v.is_empty())
                .map(Into::into)
        })
        .or_else(Log::default_path)?;
    Some(Log::new(path))
}

/// The names from `--names`: one (against the computer) or two, checked.
fn names(text: Option<&str>) -> Result<Vec<String>, AppError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let usage = |e: String| AppError::Usage(format!("--names: {e}"));
    let names = text
        .split(',')
        .map(|n| input::parse_name(n).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    match names.as_slice() {
        [_] => Ok(names),
        [a, b] if a != b => Ok(names),
        [_, _] => Err(usage("the two players need different names".into())),
        _ => Err(usage(
            "give one or two names separated by a comma, like Ann,Bob".into(),
        )),
    }
}

/// Refuses `--names` and computer options that the chosen players would ignore.
fn check_players(play: &crate::cli::PlayArgs, names: &[String]) -> Result<(), AppError> {
    let usage = |why: &str| Err(AppError::Usage(why.to_string()));
    let computer_options = play.level.is_some()
        || play.fox_level.is_some()
        || play.hounds_level.is_some()
        || play.side.is_some();
    match play.players {
        Some(2) if names.len() == 1 => usage("--names: two players need two names, like Ann,Bob"),
        Some(2) if computer_options => usage(
            "--level, --fox-level, --hounds-level and --side need a computer player: use --players 0 or 1",
        ),
        Some(1) if names.len() == 2 => usage("--names: against the computer, give your name alone"),
        Some(1) if names.first().is_some_and(|n| n == text::COMPUTER_NAMES[0]) => {
            usage("--names: SWTP is the computer's name; choose another")
        }
        Some(1) if play.fox_level.is_some() || play.hounds_level.is_some() => {
            usage("--fox-level and --hounds-level are for watching (--players 0); use --level")
        }
        Some(0) if !names.is_empty() => usage("--names: the computer names its own players"),
        Some(0) if play.side.is_some() => {
            usage("--side is for playing against the computer (--players 1)")
        }
        _ => Ok(()),
    }
}

/// Runs what the command line asks for.
pub fn run(cli: Cli) -> Result<(), AppError> {
    let colour = cli.look.color.decide();
    owo_colors::set_override(colour);
    match &cli.command {
        None => {
            let play = &cli.play;
            let names = names(play.names.as_deref())?;
            check_players(play, &names)?;
            let mut console = Console::stdio(colour, cli.look.no_clear);
            let options = Options {
                setup: setup(&cli.game, Rules::Coursework, Side::Fox)?,
                players: play.players,
                names,
                games: play.games,
                seed: play.seed.unwrap_or_else(rand::random),
                level: play.level,
                fox_level: play.fox_level,
                hounds_level: play.hounds_level,
                side: play.side,
                delay_ms: play
                    .delay
                    .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
                history: log(&cli.log),
                warned: Default::default(),
            };
            session::play::run(&mut console, &options)?;
        }
        Some(Command::Classic { game, play }) => {
            let console = &mut Console::stdio(colour, cli.look.no_clear);
            let options = Options {
                setup: setup(game, Rules::Standard, Side::Hounds)?,
                games: play.games,
                seed: play.seed.unwrap_or_else(rand::random),
                level: play.level,
                history: log(&cli.log),
                ..Options::default()
            };
            session::classic::run(console, &options)?;
        }
        Some(Command::Analyse {
            game,
            position,
            json,
        }) => {
            analyse(game, position.as_deref(), *json, colour)?;
        }
        Some(Command::History { json }) => show_history(&cli.log, *json)?,
        Some(Command::Replay { number, step }) => {
            replay(&cli.log, *number, *step, colour, cli.look.no_clear)?;
        }
    }
    Ok(())
}

/// `tallyho analyse`: solve a position and report it.
fn analyse(
    args: &GameArgs,
    position: Option<&str>,
    json: bool,
    colour: bool,
) -> Result<(), AppError> {
    let setup = setup(args, Rules::Coursework, Side::Fox)?;
    if setup.fox_start.is_none() {
        return Err(AppError::Usage(
            "--fox-start: analyse needs a square, not choose".into(),
        ));
    }
    let pos = match position {
        None => setup.default_start(),
        Some(text) => {
            Position::parse(text, setup.board).map_err(|e| AppError::Usage(e.to_string()))?
        }
    };
    if let Some(ending) = pos.ending(setup.rules) {
        return Err(AppError::Usage(format!(
            "{pos} is already over under {} rules: {}",
            setup.rules,
            text::why(ending).to_lowercase()
        )));
    }
    let started = Instant::now();
    let analysis = solver::analyse(&pos, setup.rules);
    let elapsed = started.elapsed();
    let best: Vec<String> = analysis.best.iter().map(ToString::to_string).collect();
    let winner = analysis.value.winner;
    let mut out = io::stdout().lock();
    if json {
        let object = serde_json::json!({
            "winner": winner.name(),
            "plies": analysis.value.plies,
            "best": best,
            "reachable": analysis.reachable,
            "possible_games": analysis.possible_games.to_string(),
            "board": setup.board.to_string(),
            "rules": setup.rules.name(),
            "position": pos.notation(),
        });
        writeln!(out, "{object}")?;
    } else {
        write!(out, "{}", render::board(&pos, colour))?;
        writeln!(
            out,
            "Position:    {pos} ({} board, {} rules)",
            setup.board, setup.rules
        )?;
        writeln!(
            out,
            "Verdict:     {} ({})",
            text::verdict(winner, analysis.value.plies),
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
    }
    Ok(())
}

/// Reads the log, warning once about damaged lines.
fn read_log(args: &LogArgs) -> Result<(Log, Vec<Record>), AppError> {
    let log = log(args).ok_or_else(|| {
        AppError::Usage(
            "there is no game log: --no-history is set or no home directory is known".into(),
        )
    })?;
    let reading = log.read().map_err(|e| {
        AppError::Io(io::Error::new(
            e.kind(),
            format!("cannot read the game log {}: {e}", log.path().display()),
        ))
    })?;
    if reading.skipped > 0 {
        let _ = writeln!(
            io::stderr(),
            "tallyho: warning: {}",
            text::skipped_lines(reading.skipped, log.path())
        );
    }
    Ok((log, reading.records))
}

/// `tallyho history`.
fn show_history(args: &LogArgs, json: bool) -> Result<(), AppError> {
    let (_, records) = read_log(args)?;
    let mut out = io::stdout().lock();
    if json {
        let text = serde_json::to_string_pretty(&records).map_err(io::Error::other)?;
        writeln!(out, "{text}")?;
    } else {
        writeln!(out, "{}", history::table(&records))?;
    }
    Ok(())
}

/// `tallyho replay N`.
fn replay(
    args: &LogArgs,
    number: u64,
    step: bool,
    colour: bool,
    no_clear: bool,
) -> Result<(), AppError> {
    let (log, records) = read_log(args)?;
    let record = records.iter().find(|r| r.number == number).ok_or_else(|| {
        let known = if records.is_empty() {
            "it has no games yet"
        } else {
            "tallyho history lists its games"
        };
        AppError::Usage(format!(
            "there is no game {number} in {}: {known}",
            log.path().display()
        ))
    })?;
    let damaged = |why: String| AppError::Usage(format!("game {number} cannot be replayed: {why}"));
    let board: Board = record
        .board
        .parse()
        .map_err(|e: crate::games::fox::BoardError| damaged(e.to_string()))?;
    let rules: Rules = record.rules.parse().map_err(damaged)?;
    let start = Position::parse(&record.start, board).map_err(|e| damaged(e.to_string()))?;
    let mut game = Game::new(start, rules);
    let mut console = Console::stdio(colour, no_clear);
    let step = step || console.is_interactive();
    console.say(&format!(
        "Game {number}, {}: {} (fox) against {} (hounds), {} board, {} rules",
        record.date,
        record.fox.display(),
        record.hounds.display(),
        record.board,
        record.rules
    ))?;
    console.write(&render::board(game.position(), colour))?;
    for (i, text) in record.moves.iter().enumerate() {
        if step {
            match console.ask("Press Enter for the next move, or q to stop. ", &[])? {
                Reply::End => return Ok(()),
                Reply::Line(line)
                    if matches!(line.trim().to_ascii_lowercase().as_str(), "q" | "quit") =>
                {
                    return Ok(());
                }
                _ => {}
            }
        }
        let mv = text
            .split_once('-')
            .and_then(|(a, b)| Some((board.parse_square(a).ok()?, board.parse_square(b).ok()?)))
            .and_then(|(a, b)| game.position().find_move(a, b))
            .ok_or_else(|| damaged(format!("move {} ({text}) is not legal", i + 1)))?;
        game.play(mv);
        console.clear()?;
        console.say("")?;
        let mover = game.position().to_move().other();
        console.say(&format!("Move {}: {} {mv}", i + 1, text::side_title(mover)))?;
        console.write(&render::board(game.position(), colour))?;
    }
    if let Some(ending) = game.ending() {
        let winner = match ending.winner() {
            Side::Fox => &record.fox,
            Side::Hounds => &record.hounds,
        };
        console.say(&text::won(ending, &winner.display()))?;
    }
    Ok(())
}
