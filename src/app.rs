//! From a parsed command line to a running flow: checks what clap could not,
//! picks the game and its face, runs the command, and says which errors are
//! the user's.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use crate::cli::{Cli, Command, FoxArgs, LogArgs, PlayArgs};
use crate::faces::fox::FoxFace;
use crate::faces::fox::classic;
use crate::faces::fox::render;
use crate::faces::fox::text;
use crate::games::Rules as _;
use crate::games::fox::solver;
use crate::games::fox::{Position, Rules, Setup, Side};
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

/// The Fox and Hounds setup the command line asks for, with the flow's own defaults.
pub fn setup(args: &FoxArgs, rules: Rules, first: Side) -> Result<Setup, AppError> {
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

/// Refuses `--names` and computer options that the chosen players would ignore.
fn check_players(play: &PlayArgs, names: &[String], computer: &str) -> Result<(), AppError> {
    let usage = |why: String| Err(AppError::Usage(why));
    let computer_options = play.level.is_some()
        || play.fox_level.is_some()
        || play.hounds_level.is_some()
        || play.side.is_some();
    match play.players {
        Some(2) if names.len() == 1 => {
            usage("--names: two players need two names, like Ann,Bob".into())
        }
        Some(2) if computer_options => usage(
            "--level, --fox-level, --hounds-level and --side need a computer player: use --players 0 or 1".into(),
        ),
        Some(1) if names.len() == 2 => {
            usage("--names: against the computer, give your name alone".into())
        }
        Some(1) if names.first().is_some_and(|n| same_name(n, computer)) => usage(format!(
            "--names: {computer} is the computer's name; choose another"
        )),
        Some(1) if play.fox_level.is_some() || play.hounds_level.is_some() => usage(
            "--fox-level and --hounds-level are for watching (--players 0); use --level".into(),
        ),
        Some(0) if !names.is_empty() => usage("--names: the computer names its own players".into()),
        Some(0) if play.side.is_some() => {
            usage("--side is for playing against the computer (--players 1)".into())
        }
        _ => Ok(()),
    }
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
            let play = &cli.play;
            let names = names(play.names.as_deref())?;
            check_players(play, &names, text::COMPUTER_NAMES[0])?;
            let mut console = Console::stdio(cli.look.look());
            let options = Options {
                rules: setup(&cli.game, Rules::Coursework, Side::Fox)?,
                flow: "default",
                players: play.players,
                names,
                games: play.games,
                seed: play.seed.unwrap_or_else(rand::random),
                level: play.level,
                side_levels: [play.fox_level, play.hounds_level],
                side: play.side,
                delay_ms: play
                    .delay
                    .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
                think_ms: 1000,
                log: Keeper::new(log(&cli.log)),
            };
            let finished = matchplay::run(&mut console, &FoxFace, &options)?;
            return Ok(script_status(&console, play.games, finished));
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
                setup: setup(&game, Rules::Standard, Side::Hounds)?,
                games: play.games,
                seed: play.seed.unwrap_or_else(rand::random),
                level: play.level,
                delay_ms: play
                    .delay
                    .unwrap_or(if console.is_interactive() { 700 } else { 0 }),
                log: Keeper::new(log(&log_args)),
            };
            let finished = classic::run(console, &options)?;
            return Ok(script_status(console, play.games, finished));
        }
        Some(Command::Analyse {
            game,
            position,
            json,
            look,
        }) => {
            analyse(&game, position.as_deref(), json, look.color.decide())?;
        }
        Some(Command::History { json, log }) => show_history(&log, json)?,
        Some(Command::Replay {
            number,
            step,
            look,
            log,
        }) => {
            replay(&log, number, step, look.look())?;
        }
    }
    Ok(Ending::Clean)
}

/// `tallyho analyse`: solve a position and report it.
fn analyse(
    args: &FoxArgs,
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
        Some(text) => Position::parse_under(text, setup.board, setup.rules)
            .map_err(|e| AppError::Usage(e.to_string()))?,
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

/// The log `history` and `replay` read: there must be one.
fn needed_log(args: &LogArgs) -> Result<Log, AppError> {
    log(args).ok_or_else(|| {
        AppError::Usage(
            "there is no game log: --no-history is set or no home directory is known".into(),
        )
    })
}

/// Says on standard error that another program holds the log's lock.
fn waiting_for(log: &Log) -> impl FnMut() + '_ {
    move || {
        history::warn(&format!(
            "waiting for another program to let go of {}",
            safe::text(&log.path().display().to_string())
        ))
    }
}

/// `tallyho history`: the table, or every record as one JSON array, streamed.
fn show_history(args: &LogArgs, json: bool) -> Result<(), AppError> {
    let log = needed_log(args)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let damaged = if json {
        let mut records = log.stream(&mut waiting_for(&log))?;
        write!(out, "[")?;
        let mut first = true;
        while let Some(record) = records.next_record()? {
            if !first {
                write!(out, ",")?;
            }
            first = false;
            write!(out, "\n  ")?;
            serde_json::to_writer(&mut out, &record).map_err(io::Error::other)?;
        }
        writeln!(out, "{}]", if first { "" } else { "\n" })?;
        records.damaged()
    } else {
        history::write_table(&log, &mut out, &mut waiting_for(&log))?
    };
    out.flush()?;
    if damaged > 0 {
        history::warn(&history::damaged_lines(damaged, log.path()));
    }
    Ok(())
}

/// Finds game `number` in the log, reading no further than it.
fn find_record(log: &Log, number: u64) -> Result<Record, AppError> {
    let mut records = log.stream(&mut waiting_for(log))?;
    let mut any = false;
    while let Some(record) = records.next_record()? {
        if record.number == number {
            return Ok(record);
        }
        any = true;
    }
    let known = if any {
        "tallyho history lists its games"
    } else {
        "it has no games yet"
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
            replay::replay(&mut console, &rules, &FoxFace, &record, step)
        }
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
