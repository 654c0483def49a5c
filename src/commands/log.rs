//! The game log's commands: `history` (a table, JSON or draughts' PDN) and
//! `replay`, dispatched on the logged game's [`GameKind`].

use std::io::{self, IsTerminal, Write};

use super::{AppError, Ending};
use crate::cli::{LogArgs, Options};
use tallyho::faces::fox::FoxFace;
use tallyho::faces::fox::capture::CaptureFace;
use tallyho::faces::fox::classic::ClassicFace;
use tallyho::games::fox::Setup;
use tallyho::games::{FoxFlow, GameKind};
use tallyho::shell::console::Console;
use tallyho::shell::log::{self, Log, Record};
use tallyho::shell::replay::{self, ReplayError};
use tallyho::shell::safe;

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

/// The log `history` and `replay` read: there must be one.
fn needed_log(args: &LogArgs) -> Result<Log, AppError> {
    log(args).ok_or_else(|| {
        AppError::Usage(
            "there is no game log: --no-history is set or no home directory is known".into(),
        )
    })
}

/// `tallyho history`: the table, every record as one JSON array, or the
/// draughts games as PDN.
pub fn history(options: &Options, number: Option<u64>) -> Result<Ending, AppError> {
    if number.is_some() && !options.look.pdn {
        return Err(AppError::Usage(
            "history N writes game N as PDN: add --pdn".into(),
        ));
    }
    let log = needed_log(&options.log)?;
    let mut out = io::BufWriter::new(tallyho::shell::console::stdout());
    let skipped = match options.look.pdn {
        true => {
            // Tags carried from a loaded file may hold anything: they come
            // out escaped, as everything else read from the log does.
            super::draughts::write_pdn(&log, number, &mut safe::Escaping(&mut out))?;
            log::Skipped::default()
        }
        false if options.look.json => write_json(&log, &mut out)?,
        false => {
            let columns = io::stdout()
                .is_terminal()
                .then(tallyho::shell::console::terminal_columns)
                .flatten();
            log::write_table(&log, &mut out, columns)?
        }
    };
    out.flush()?;
    for warning in skipped.warnings(log.path()) {
        log::warn(&warning);
    }
    Ok(Ending::Clean)
}

/// Every record as one JSON array, streamed; the damaged lines skipped.
fn write_json(log: &Log, out: &mut dyn Write) -> Result<log::Skipped, AppError> {
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
    Ok(records.skipped())
}

/// Finds game `number` in the log, reading no further than it.
pub(crate) fn find_record(log: &Log, number: u64) -> Result<Record, AppError> {
    let mut records = log.stream()?;
    records.watch(number);
    let mut any = false;
    let damaged = |why: &str| {
        AppError::Failed(format!(
            "game {number} in {} cannot be read: its line is damaged ({})",
            safe::text(&log.path().display().to_string()),
            safe::cut(why, 120)
        ))
    };
    loop {
        let next = records.next_record()?;
        // Game `number`'s own line, met damaged: said so at once.
        if let Some(why) = records.watched_damage() {
            return Err(damaged(why));
        }
        let Some(record) = next else {
            break;
        };
        if record.number == number {
            if record.version > log::VERSION {
                let newer = log::Skipped {
                    newer: 1,
                    newest: record.version,
                    ..log::Skipped::default()
                };
                newer.warnings(log.path()).iter().for_each(|w| log::warn(w));
            }
            // Its date, and a second game of its number further on.
            records
                .doubts_about(&record)?
                .iter()
                .for_each(|w| log::warn(w));
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

/// `tallyho replay N`: the logged game's kind picks its rules and face.
pub fn replay(options: &Options, number: u64) -> Result<Ending, AppError> {
    let log = needed_log(&options.log)?;
    let record = find_record(&log, number)?;
    let damaged = |why: String| {
        AppError::Failed(format!(
            "game {number} cannot be replayed: {}",
            safe::text(&why)
        ))
    };
    let kind = GameKind::from_log(&record.game, &record.flow)
        .map_err(|e| damaged(replay::unknown_game(&e)))?;
    let mut console = Console::stdio(options.look.look());
    let step = options.look.step || console.is_interactive();
    let console = &mut console;
    let result = match kind {
        GameKind::Fox(flow) => {
            let rules: Setup = replay::rules_of(&record).map_err(|e| damaged(e.to_string()))?;
            match flow {
                FoxFlow::Default => replay::replay(console, &rules, &FoxFace, &record, step),
                FoxFlow::Classic => replay::replay(console, &rules, &ClassicFace, &record, step),
                FoxFlow::Capture => replay::replay(console, &rules, &CaptureFace, &record, step),
            }
        }
        GameKind::Draughts => super::draughts::replay(console, &record, step),
        GameKind::Fish => super::fish::replay(console, &record, step),
    };
    match result {
        Ok(()) => Ok(Ending::Clean),
        Err(ReplayError::Damaged(why)) => Err(damaged(why.to_string())),
        Err(ReplayError::Io(e)) => Err(AppError::Io(e)),
    }
}
