//! What each command does: one module a game, one for the game log. This
//! is the only layer that knows every game; it reaches them through
//! [`GameKind`](tallyho::games::GameKind) and each game's own command module.

use std::io::{self, Write};

use crate::cli::{Cli, Command, PlayArgs};
use tallyho::engines::draughts::StoreError;
use tallyho::games::{Computers, GameKind};
use tallyho::shell::ask::{parse_name, same_name};
use tallyho::shell::console::Console;
use tallyho::shell::face::Face;
use tallyho::shell::lines::AnyNewline;
use tallyho::shell::log::{Keeper, LogError, TableError};
use tallyho::shell::matchplay::{self, Options};
use tallyho::shell::safe;
use tallyho::shell::signals;

pub mod draughts;
pub mod fish;
pub mod fox;
pub mod join;
pub mod log;
pub mod serve;

/// Why tallyho stopped early.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The command line or its input was wrong (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// A file or the terminal failed (exit status 1).
    #[error("{}", safe::text(&.0.to_string()))]
    Io(#[from] io::Error),
    /// Something tallyho was asked to read is not usable (exit status 1).
    #[error("{0}")]
    Failed(String),
    /// The game log could not be read or written (exit status 1).
    #[error("{0}")]
    Log(#[from] LogError),
    /// An endgame database could not be read, written or built (exit
    /// status 1).
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl AppError {
    /// An option's value that the command cannot use, worded as clap words
    /// its own refusals, so every bad value reads alike.
    pub fn bad_value(option: &str, value: &str, why: impl std::fmt::Display) -> AppError {
        AppError::Usage(format!(
            "invalid value '{}' for '{option}': {why}",
            safe::text(&safe::cut(value, 40))
        ))
    }

    /// The exit status.
    pub fn status(&self) -> u8 {
        match self {
            AppError::Usage(_) => 2,
            AppError::Io(_) | AppError::Failed(_) | AppError::Log(_) | AppError::Store(_) => 1,
        }
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

/// The names from `--names`: one (against the computer) or two, checked.
fn names(text: Option<&str>) -> Result<Vec<String>, AppError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let usage = |e: String| AppError::bad_value("--names <A,B>", text, e);
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
pub fn play_match<R: Computers, F: Face<R>>(
    rules: R,
    kind: GameKind,
    face: &F,
    cli: &crate::cli::Options,
    side_levels: [Option<R::Level>; 2],
    watch_levels: Option<&str>,
) -> Result<Ending, AppError> {
    let play = &cli.play;
    let (side_levels, watch_levels) = match play.levels.as_deref() {
        Some(_) if watch_levels.is_some() => {
            return Err(AppError::Usage(format!(
                "--levels says the same as {}: give one or the other",
                watch_levels.unwrap_or_default()
            )));
        }
        Some(text) => (levels::<R::Level>(text)?, Some("--levels")),
        None => (side_levels, watch_levels),
    };
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
        .map_err(|e| {
            AppError::bad_value("--level <LEVEL>", play.level.as_deref().unwrap_or(""), e)
        })?;
    let side = play
        .side
        .as_deref()
        .map(str::parse::<R::Side>)
        .transpose()
        .map_err(|e| AppError::bad_value("--side <SIDE>", play.side.as_deref().unwrap_or(""), e))?;
    if face.person_plays_first() && side.is_some_and(|side| side != rules.sides()[0]) {
        return Err(AppError::bad_value(
            "--side <SIDE>",
            play.side.as_deref().unwrap_or(""),
            format!(
                "against the computer you always play {} and move first",
                rules.sides()[0]
            ),
        ));
    }
    let mut console = Console::stdio(cli.look.look());
    let options = Options {
        rules,
        kind,
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
        think_ms: play.think,
        log: Keeper::open(log::log(&cli.log))?.holding(signals::HOLD),
    };
    let finished = cut_short(matchplay::run(&mut console, face, &options), &options.log)?;
    Ok(script_status(&console, &options.log, play.games, finished))
}

/// The two levels of `--levels A,B`, the first side's first.
fn levels<L: tallyho::games::Level>(text: &str) -> Result<[Option<L>; 2], AppError> {
    let parts: Vec<&str> = text.split(',').collect();
    let [a, b] = parts[..] else {
        return Err(AppError::bad_value(
            "--levels <A,B>",
            text,
            "give two levels separated by a comma, the first side's first",
        ));
    };
    let level = |name: &str| {
        name.parse::<L>()
            .map(Some)
            .map_err(|e| AppError::bad_value("--levels <A,B>", text, e))
    };
    Ok([level(a)?, level(b)?])
}

/// How a played session ended, for a script: 0 when every line was taken,
/// every game asked for was finished and every finished game was kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// A finished game could not be written to the game log (exit status
    /// 1, before the others: a script learns first that a result is lost).
    Lost,
    /// `join`: the connection ended before the player asked to leave (the
    /// server went away, or ssh could not reach it): exit status 1.
    Dropped,
    /// Every line taken, every game asked for finished and kept.
    Clean,
    /// Some line was refused (exit status 3).
    Refused,
    /// Fewer games were finished than `--games` asked for (exit status 4).
    Unfinished,
    /// Both (exit status 5).
    RefusedAndUnfinished,
    /// `join` from a script stopped waiting for the other player's move
    /// (`--wait`): exit status 6.
    GaveUp,
    /// `join` from a script was asked for a handle, which its lines cannot
    /// answer: exit status 1, as the ssh door gives a script it turns away.
    NoHandle,
}

impl Ending {
    /// The exit status.
    pub fn status(self) -> u8 {
        match self {
            Ending::Clean => 0,
            Ending::Lost | Ending::Dropped | Ending::NoHandle => 1,
            Ending::Refused => 3,
            Ending::Unfinished => 4,
            Ending::RefusedAndUnfinished => 5,
            Ending::GaveUp => 6,
        }
    }
}

/// The games a played session finished: when its output closed (`| head`),
/// those the keeper was given, so that the exit status still says whether
/// every game asked for was finished.
fn cut_short(played: io::Result<u32>, log: &Keeper) -> Result<u32, AppError> {
    match played {
        Ok(finished) => Ok(finished),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(log.finished()),
        Err(e) => Err(e.into()),
    }
}

/// The ending of a played session.
fn script_status(console: &Console, log: &Keeper, games: Option<u32>, finished: u32) -> Ending {
    if log.lost() > 0 {
        return Ending::Lost;
    }
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
    let options = &cli.options;
    match &cli.command {
        None => fox::run(None, options),
        Some(Command::Draughts { tool }) => draughts::run(tool.as_ref(), options),
        Some(Command::Fish { tool }) => fish::run(tool.as_ref(), options),
        Some(Command::History { number }) => log::history(options, *number),
        Some(Command::Replay { number }) => log::replay(options, *number),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Join { target, wait }) => join::run(
            target,
            options.look.look(),
            wait.map_or(join::WAIT, std::time::Duration::from_secs),
        ),
        Some(command @ (Command::Fox { .. } | Command::FoxForm(_))) => {
            fox::run(command.fox().flatten(), options)
        }
    }
}

/// The longest line `analyse -` reads.
const MAX_LINE: usize = 1024;

/// `analyse -` for any game: a JSON object for each line of standard input,
/// `answer`'s, or an `error` object for a line that is no position. Blank
/// lines are skipped; a line ends at LF, CRLF or a lone CR (answered at
/// once), and a byte order mark may open any line. A bad line makes the
/// exit status 2 once every line is answered.
pub fn analyse_each_line(
    mut answer: impl FnMut(&str) -> Result<String, String>,
) -> Result<(), AppError> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = tallyho::shell::console::stdout();
    let mut failed = 0;
    let mut lines = AnyNewline::default();
    while let Some(line) = lines.read(&mut input, MAX_LINE)? {
        let too_long = line.length > MAX_LINE;
        let text = String::from_utf8_lossy(&line.kept);
        // A byte order mark opening a line (files joined end to end) is
        // no part of it.
        let text = text.trim();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text).trim();
        if text.is_empty() && !too_long {
            continue;
        }
        let answer = if too_long {
            Err(format!("the line is longer than {MAX_LINE} bytes"))
        } else if std::str::from_utf8(&line.kept).is_err() {
            Err("the line is not valid UTF-8 text".to_string())
        } else {
            answer(text)
        };
        let object = answer.unwrap_or_else(|why| {
            failed += 1;
            let shown: String = text.chars().take(80).collect();
            serde_json::json!({ "input": shown, "error": why }).to_string()
        });
        // Whatever was read is written back escaped.
        writeln!(out, "{}", safe::json(&object))?;
        out.flush()?;
    }
    if failed > 0 {
        return Err(AppError::Usage(format!(
            "{failed} line{} of standard input {} no position to analyse",
            if failed == 1 { "" } else { "s" },
            if failed == 1 { "was" } else { "were" }
        )));
    }
    Ok(())
}
