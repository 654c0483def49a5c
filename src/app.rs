//! From a parsed command line to a running flow: checks what clap could not,
//! picks the game and its face, runs the command, and says which errors are
//! the user's.

use std::fmt;
use std::io::{self, IsTerminal, Write};

use crate::cli::{Cli, Command, LogArgs, PlayArgs};
use crate::faces::Face;
use crate::faces::draughts::cli as draughts_cli;
use crate::faces::fish::cli as fish_cli;
use crate::faces::fox::FoxFace;
use crate::faces::fox::capture::CaptureFace;
use crate::faces::fox::classic::{self, ClassicFace};
use crate::faces::fox::cli as fox_cli;
use crate::games::fox::Setup;
use crate::games::{Computers, Rules as _};
use crate::shell::ask::{parse_name, same_name};
use crate::shell::console::{Console, Look};
use crate::shell::history::{self, Keeper, Log, LogError, Record, TableError};
use crate::shell::matchplay::{self, Options};
use crate::shell::replay::{self, ReplayError};
use crate::shell::safe;

/// Why tallyho stopped early.
#[derive(Debug)]
pub enum AppError {
    /// The command line or its input was wrong (exit status 2).
    Usage(String),
    /// A file or the terminal failed, or a logged game is damaged (exit status 1).
    Io(io::Error),
    /// Something tallyho was asked to read is not usable (exit status 1).
    Failed(String),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Usage(why) | AppError::Failed(why) => f.write_str(why),
            AppError::Io(e) => write!(f, "{}", safe::text(&e.to_string())),
        }
    }
}

impl From<io::Error> for AppError {
    fn from(e: io::Error) -> AppError {
        AppError::Io(e)
    }
}

impl From<LogError> for AppError {
    fn from(e: LogError) -> AppError {
        AppError::Failed(e.to_string())
    }
}

impl From<TableError> for AppError {
    fn from(e: TableError) -> AppError {
        match e {
            TableError::Log(e) => e.into(),
            TableError::Out(e) => AppError::Io(e),
        }
    }
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
        .map(|n| parse_name(n).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    match names.as_slice() {
        [_] => Ok(names),
        [a, b] if !same_name(a, b) => Ok(names),
        [_, _] => Err(usage("the two players need different names".into())),
        _ => Err(usage(
            "give one or two names separated by a comma, like Ann,Bob".into(),
        )),
    }
}

/// Refuses `--names` and computer options that the chosen players would
/// ignore. `watch_levels` names the game's options for the levels of a
/// computer playing itself, if any were given.
fn check_players(
    play: &PlayArgs,
    names: &[String],
    computer: &str,
    watch_levels: Option<&str>,
) -> Result<(), AppError> {
    let usage = |why: String| Err(AppError::Usage(why));
    let computer_options = play.level.is_some() || watch_levels.is_some() || play.side.is_some();
    match play.players {
        Some(2) if names.len() == 1 => {
            usage("--names: two players need two names, like Ann,Bob".into())
        }
        Some(2) if computer_options => usage(
            "--level, --side and the levels for watching need a computer player: use --players 0 or 1".into(),
        ),
        Some(1) if names.len() == 2 => {
            usage("--names: against the computer, give your name alone".into())
        }
        Some(1) if names.first().is_some_and(|n| same_name(n, computer)) => usage(format!(
            "--names: {computer} is the computer's name; choose another"
        )),
        Some(1) if watch_levels.is_some() => usage(format!(
            "{} are for watching (--players 0); use --level",
            watch_levels.unwrap_or_default()
        )),
        Some(0) if !names.is_empty() => usage("--names: the computer names its own players".into()),
        Some(0) if play.side.is_some() => {
            usage("--side is for playing against the computer (--players 1)".into())
        }
        Some(2) if play.delay.is_some() => {
            usage("--delay paces a computer player: use --players 0 or 1".into())
        }
        _ => Ok(()),
    }
}

/// Plays a match of any game with the shared options. `side_levels` are the
/// levels of a computer playing itself, in the order of the sides, and
/// `watch_levels` the names of the options that gave them.
#[allow(clippy::too_many_arguments)]
pub fn play_match<R: Computers, F: Face<R>>(
    rules: R,
    flow: &'static str,
    face: &F,
    play: &PlayArgs,
    side_levels: [Option<R::Level>; 2],
    watch_levels: Option<&str>,
    think_ms: u64,
    look: Look,
    log_args: &LogArgs,
) -> Result<Ending, AppError> {
    let names = names(play.names.as_deref())?;
    check_players(play, &names, face.computer_names()[0], watch_levels)?;
    if play.level.is_some() && side_levels.iter().all(Option::is_some) {
        return Err(AppError::Usage(format!(
            "--level would not be used: {} give both levels",
            watch_levels.unwrap_or("the levels for watching")
        )));
    }
    let level = play
        .level
        .as_deref()
        .map(str::parse::<R::Level>)
        .transpose()
        .map_err(|e| AppError::Usage(format!("--level: {e}")))?;
    let side = play
        .side
        .as_deref()
        .map(str::parse::<R::Side>)
        .transpose()
        .map_err(|e| AppError::Usage(format!("--side: {e}")))?;
    let mut console = Console::stdio(look);
    let options = Options {
        rules,
        flow,
        players: play.players,
        names,
        games: play.games,
        seed: play.seed.unwrap_or_else(rand::random),
        level,
        side_levels,
        side,
        delay_ms: play
            .delay
            .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
        think_ms,
        log: Keeper::new(log(log_args)),
    };
    let finished = matchplay::run(&mut console, face, &options)?;
    Ok(script_status(&console, play.games, finished))
}

/// How a played session ended, for a script: 0 when every line was taken
/// and every game asked for was finished.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// Every line taken, every game asked for finished.
    Clean,
    /// Some line was refused (exit status 3).
    Refused,
    /// Fewer games were finished than `--games` asked for (exit status 4).
    Unfinished,
    /// Both (exit status 5).
    RefusedAndUnfinished,
}

impl Ending {
    /// The exit status.
    pub fn status(self) -> u8 {
        match self {
            Ending::Clean => 0,
            Ending::Refused => 3,
            Ending::Unfinished => 4,
            Ending::RefusedAndUnfinished => 5,
        }
    }
}

/// The ending of a played session.
fn script_status(console: &Console, games: Option<u32>, finished: u32) -> Ending {
    let refused = console.refused() > 0;
    let unfinished = games.is_some_and(|n| finished < n);
    match (refused, unfinished) {
        (false, false) => Ending::Clean,
        (true, false) => Ending::Refused,
        (false, true) => Ending::Unfinished,
        (true, true) => Ending::RefusedAndUnfinished,
    }
}

/// Runs what the command line asks for.
pub fn run(cli: Cli) -> Result<Ending, AppError> {
    match cli.command {
        None => {
            let rules =
                fox_cli::setup(&cli.game, fox_cli::Defaults::DEFAULT).map_err(AppError::Usage)?;
            let levels = &cli.levels;
            let watch = levels.watch();
            play_match(
                rules,
                "default",
                &FoxFace,
                &cli.play,
                [levels.fox_level, levels.hounds_level],
                watch,
                1000,
                cli.look.look(),
                &cli.log,
            )
        }
        Some(Command::Classic {
            game,
            play,
            look,
            log: log_args,
        }) => {
            let teletype = play.teletype || !io::stdout().is_terminal();
            let look = Look {
                teletype,
                baud: play.baud.as_deref().and_then(|b| b.parse().ok()),
                ..look.look()
            };
            let console = &mut Console::stdio(look);
            let options = classic::Options {
                setup: fox_cli::setup(&game, fox_cli::Defaults::CLASSIC)
                    .map_err(AppError::Usage)?,
                games: play.games,
                seed: play.seed.unwrap_or_else(rand::random),
                level: play.level,
                delay_ms: play
                    .delay
                    .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
                log: Keeper::new(log(&log_args)),
            };
            let finished = classic::run(console, &options)?;
            Ok(script_status(console, play.games, finished))
        }
        Some(Command::Capture {
            game,
            play,
            levels,
            look,
            log,
        }) => {
            let rules =
                fox_cli::setup(&game, fox_cli::Defaults::capture()).map_err(AppError::Usage)?;
            play_match(
                rules,
                "capture",
                &CaptureFace,
                &play,
                [levels.fox_level, levels.hounds_level],
                levels.watch(),
                1000,
                look.look(),
                &log,
            )
        }
        Some(Command::Analyse { game, args, look }) => {
            fox_cli::analyse(&game, &args, look.color.decide()).map_err(|e| match e {
                fox_cli::AnalyseError::Usage(why) => AppError::Usage(why),
                fox_cli::AnalyseError::Io(e) => AppError::Io(e),
            })?;
            Ok(Ending::Clean)
        }
        Some(Command::Draughts(command)) => draughts_cli::run(command),
        Some(Command::Fish(command)) => fish_cli::run(command),
        Some(Command::History {
            json,
            pdn: Some(number),
            log,
        }) => {
            let _ = json;
            let log = needed_log(&log.log())?;
            let mut out = io::BufWriter::new(io::stdout().lock());
            draughts_cli::write_pdn(&log, number, &mut out)?;
            out.flush()?;
            Ok(Ending::Clean)
        }
        Some(Command::History { json, log, .. }) => {
            show_history(&log.log(), json)?;
            Ok(Ending::Clean)
        }
        Some(Command::Replay {
            number,
            step,
            look,
            log,
        }) => {
            replay(&log.log(), number, step, look.look())?;
            Ok(Ending::Clean)
        }
    }
}

/// The log `history` and `replay` read: there must be one.
fn needed_log(args: &LogArgs) -> Result<Log, AppError> {
    log(args).ok_or_else(|| {
        AppError::Usage(
            "there is no game log: --no-history is set or no home directory is known".into(),
        )
    })
}

/// `tallyho history`: the table, or every record as one JSON array, streamed.
fn show_history(args: &LogArgs, json: bool) -> Result<(), AppError> {
    let log = needed_log(args)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let damaged = if json {
        let mut records = log.stream()?;
        write!(out, "[")?;
        let mut first = true;
        while let Some(record) = records.next_record()? {
            if !first {
                write!(out, ",")?;
            }
            first = false;
            write!(out, "\n  ")?;
            let text = serde_json::to_string(&record).map_err(io::Error::other)?;
            out.write_all(safe::json(&text).as_bytes())?;
        }
        writeln!(out, "{}]", if first { "" } else { "\n" })?;
        records.damaged()
    } else {
        let columns = io::stdout()
            .is_terminal()
            .then(crate::shell::console::terminal_columns)
            .flatten();
        history::write_table(&log, &mut out, columns)?
    };
    out.flush()?;
    if damaged > 0 {
        history::warn(&history::damaged_lines(damaged, log.path()));
    }
    Ok(())
}

/// Finds game `number` in the log, reading no further than it.
fn find_record(log: &Log, number: u64) -> Result<Record, AppError> {
    let mut records = log.stream()?;
    let mut any = false;
    while let Some(record) = records.next_record()? {
        if record.number == number {
            return Ok(record);
        }
        any = true;
    }
    let known = match (any, records.damaged()) {
        (_, 0) if any => "tallyho history lists its games".to_string(),
        (_, 0) => "it has no games yet".to_string(),
        (_, 1) => "1 damaged line was skipped".to_string(),
        (_, n) => format!("{n} damaged lines were skipped"),
    };
    Err(AppError::Usage(format!(
        "there is no game {number} in {}: {known}",
        safe::text(&log.path().display().to_string())
    )))
}

/// `tallyho replay N`.
fn replay(args: &LogArgs, number: u64, step: bool, look: Look) -> Result<(), AppError> {
    let log = needed_log(args)?;
    let record = find_record(&log, number)?;
    let damaged = |why: String| {
        AppError::Failed(format!(
            "game {number} cannot be replayed: {}",
            safe::text(&why)
        ))
    };
    let pairs: Vec<(&str, &str)> = record
        .setup
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let mut console = Console::stdio(look);
    let step = step || console.is_interactive();
    let result = match record.game.as_str() {
        "fox" => {
            let rules = Setup::from_setup(&pairs).map_err(damaged)?;
            match record.flow.as_str() {
                "capture" => replay::replay(&mut console, &rules, &CaptureFace, &record, step),
                "classic" => replay::replay(&mut console, &rules, &ClassicFace, &record, step),
                _ => replay::replay(&mut console, &rules, &FoxFace, &record, step),
            }
        }
        "draughts" => draughts_cli::replay(&mut console, &record, step),
        "fish" => fish_cli::replay(&mut console, &record, step),
        other => {
            return Err(damaged(format!(
                "tallyho does not know the game \"{other}\""
            )));
        }
    };
    match result {
        Ok(()) => Ok(()),
        Err(ReplayError::Damaged(why)) => Err(damaged(why)),
        Err(ReplayError::Io(e)) => Err(AppError::Io(e)),
    }
}
