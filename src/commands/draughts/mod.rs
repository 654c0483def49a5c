//! `tallyho draughts` on the command line: playing (from the usual start, a
//! ballot opening or a PDN file's position), `perft`, `analyse`, replaying a
//! logged game, and the log's games written as PDN.

use std::io::{self, IsTerminal, Write};

use super::{AppError, Ending};
use crate::cli::Options;
use crate::cli::draughts::DraughtsTool;
use tallyho::engines::draughts::protocol::{self, Config as EngineConfig, EndgameSource};
use tallyho::engines::draughts::session::Session;
use tallyho::engines::draughts::store::EndgameStore;
use tallyho::faces::draughts::{DraughtsFace, wants_ascii};
use tallyho::games::GameKind;
use tallyho::games::draughts::endgame::{LARGEST_PIECES, MAX_PIECES, STORED_PIECES};
use tallyho::games::draughts::{Captures, Setup};
use tallyho::shell::safe;

mod load;
mod tools;
use tools::{analyse, perft};

pub use load::{replay, setup, write_pdn};

/// The longest PDN file `--load` reads.
pub const MAX_PDN_BYTES: u64 = 1 << 20;

/// Runs `tallyho draughts`: a match, or a tool.
pub fn run(tool: Option<&DraughtsTool>, options: &Options) -> Result<Ending, AppError> {
    let args = &options.draughts;
    let captures = args.captures.unwrap_or_default();
    match tool {
        Some(DraughtsTool::Perft { depth, fen }) => {
            perft(*depth, fen.as_deref(), captures)?;
            Ok(Ending::Clean)
        }
        Some(DraughtsTool::Analyse { fen }) => {
            let rules = Setup::with_captures(captures);
            let think = options.play.think;
            analyse(
                &rules,
                fen,
                think,
                options.look.json,
                ascii_here(args.ascii),
            )?;
            Ok(Ending::Clean)
        }
        Some(DraughtsTool::Engine) => {
            engine(options, captures, args.no_book)?;
            Ok(Ending::Clean)
        }
        Some(DraughtsTool::BuildDb) => {
            build_db(Setup::with_captures(captures), args.pieces.unwrap_or(5))?;
            Ok(Ending::Clean)
        }
        None => play(options),
    }
}

/// The computer's search threads: asked for, or every core; never more
/// than the cores, where threads would only take turns, and a search
/// starting and stopping hundreds of them would overrun its time.
fn threads(options: &Options) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    options
        .draughts
        .threads
        .map_or(cores, |asked| usize::from(asked).min(cores))
}

/// Where endgame databases are kept: the user's data directory.
pub(super) fn store() -> Option<EndgameStore> {
    directories::ProjectDirs::from("", "", "tallyho").map(|d| EndgameStore::new(d.data_dir()))
}

/// `tallyho draughts engine`: the line protocol on standard input and output.
fn engine(options: &Options, captures: Captures, no_book: bool) -> Result<(), AppError> {
    let rules = Setup::with_captures(captures);
    let endgame = Some(match store() {
        Some(store) => EndgameSource::from_store(rules, store, STORED_PIECES..=LARGEST_PIECES),
        None => EndgameSource::build_in_background(rules, MAX_PIECES),
    });
    let config = EngineConfig {
        rules,
        threads: threads(options),
        seed: options.play.seed.unwrap_or(0),
        book: !no_book,
        endgame,
        unread: Some(tallyho::shell::console::output_unread),
    };
    protocol::run(
        io::BufReader::new(io::stdin()),
        tallyho::shell::console::stdout(),
        config,
    )?;
    Ok(())
}

/// `tallyho draughts build-db`: the databases up to `pieces`, with progress.
fn build_db(rules: Setup, pieces: u32) -> Result<(), AppError> {
    let store = store().ok_or_else(|| {
        AppError::Failed("no home directory is known to keep the database in".into())
    })?;
    let mut err = io::stderr();
    // One already kept, whose checksum agrees, is not built again.
    if let Ok(Some(db)) = store.load(pieces, rules) {
        let path = store.path(db.max_pieces(), rules);
        tallyho::shell::console::error_line(&format!(
            "The {pieces}-piece database is already built, and its checksum agrees."
        ));
        // The path is what the command gives: a write that fails is an error.
        writeln!(
            tallyho::shell::console::stdout(),
            "{}",
            safe::text(&path.display().to_string())
        )?;
        return Ok(());
    }
    // One of more pieces holds every smaller ending: a smaller one beside
    // it would never be read. (Six is not looked for: reading it takes
    // longer than building any smaller one.)
    if let Some(db) = (pieces + 1..=STORED_PIECES)
        .rev()
        .find_map(|more| store.load(more, rules).ok().flatten())
    {
        let (more, path) = (db.max_pieces(), store.path(db.max_pieces(), rules));
        tallyho::shell::console::error_line(&format!(
            "The {more}-piece database is already built, and its checksum agrees: \
             it holds every position of {pieces} pieces or fewer."
        ));
        writeln!(
            tallyho::shell::console::stdout(),
            "{}",
            safe::text(&path.display().to_string())
        )?;
        return Ok(());
    }
    // At a terminal a bar redrawn in place; elsewhere (a log file) a line
    // every tenth of the way.
    let bar = err.is_terminal();
    // The bar where the line has room for it, on a narrow screen the
    // figure alone: a line that wrapped could not be redrawn in place.
    let drawn = tallyho::shell::console::error_columns().is_none_or(|c| c > 44);
    let mut last = usize::MAX;
    let mut progress = |done: usize, total: usize| {
        let percent = done * 100 / total.max(1);
        if bar && percent != last {
            last = percent;
            let filled = percent / 4;
            let shown = if drawn {
                format!("[{}{}] ", "#".repeat(filled), " ".repeat(25 - filled))
            } else {
                String::new()
            };
            let _ = write!(err, "\r{shown}{percent:>3}% of {pieces} pieces");
            let _ = err.flush();
        } else if !bar && percent / 10 != last {
            last = percent / 10;
            let _ = writeln!(err, "{percent:>3}% of {pieces} pieces");
        }
        true
    };
    let built = store.build(pieces, rules, &mut progress);
    // The bar's line is closed whether the build ended, failed or was stopped.
    if bar && last != usize::MAX {
        let _ = writeln!(io::stderr());
    }
    let db = built?;
    let path = store.path(db.max_pieces(), rules);
    writeln!(
        tallyho::shell::console::stdout(),
        "{}",
        safe::text(&path.display().to_string())
    )?;
    Ok(())
}

/// Plays a match with the command's options.
fn play(options: &Options) -> Result<Ending, AppError> {
    let mut options = options.clone();
    let seed = *options.play.seed.get_or_insert_with(rand::random);
    let (rules, loaded) = setup(&options.draughts, seed)?;
    let face = DraughtsFace {
        ascii: ascii_here(options.draughts.ascii),
        flip: options.draughts.flip,
    };
    let mut session = Session::new(rules)
        .with_threads(threads(&options))
        .with_think(options.play.think);
    if let Some(game) = loaded {
        session = session.with_loaded(game);
    }
    if let Some(store) = store() {
        session = session.with_store(store, STORED_PIECES);
    }
    super::play_match(
        session,
        GameKind::Draughts,
        &face,
        &options,
        [None, None],
        None,
    )
}

/// [`wants_ascii`] decided once, here, for this process's standard output and environment.
pub(super) fn ascii_here(asked: bool) -> bool {
    use std::io::IsTerminal;
    let var = |name: &str| std::env::var(name).ok();
    let (all, ctype, lang) = (var("LC_ALL"), var("LC_CTYPE"), var("LANG"));
    let term = var("TERM");
    wants_ascii(
        asked,
        std::io::stdout().is_terminal(),
        term.as_deref(),
        [all.as_deref(), ctype.as_deref(), lang.as_deref()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_has_every_core_and_no_more_threads_than_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut options = Options::default();
        assert_eq!(threads(&options), cores);
        options.draughts.threads = Some(256);
        assert_eq!(threads(&options), cores.min(256));
        options.draughts.threads = Some(1);
        assert_eq!(threads(&options), 1);
    }
}
