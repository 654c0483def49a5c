//! `tallyho draughts` on the command line: playing (from the usual start, a
//! ballot opening or a PDN file's position), `perft`, `analyse`, replaying a
//! logged game, and the log's games written as PDN.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::{AppError, Ending};
use crate::cli::Options;
use crate::cli::draughts::{DraughtsArgs, DraughtsTool};
use tallyho::engines::draughts::protocol::{self, Config as EngineConfig, EndgameSource};
use tallyho::engines::draughts::session::{Session, SharedEndgame};
use tallyho::engines::draughts::store::EndgameStore;
use tallyho::faces::draughts::{DraughtsFace, board, wants_ascii};
use tallyho::games::draughts::endgame::{self, Endgame, Exact};
use tallyho::games::draughts::endgame::{LARGEST_PIECES, MAX_PIECES};
use tallyho::games::draughts::{
    Captures, GameResult, PdnError, PdnGame, Position, Score, Setup, Side, Start, ballot, pdn,
    perft_each,
};
use tallyho::games::{GameKind, Rules};
use tallyho::shell::clock::Until;
use tallyho::shell::console::Console;
use tallyho::shell::log::{self, Log, Record};
use tallyho::shell::log::{OpenError, open_regular};
use tallyho::shell::replay::{self, ReplayError};
use tallyho::shell::safe;
use tallyho::shell::text::plies;

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
        Some(DraughtsTool::Engine { no_book }) => {
            engine(options, captures, *no_book)?;
            Ok(Ending::Clean)
        }
        Some(DraughtsTool::BuildDb { pieces }) => {
            build_db(Setup::with_captures(captures), *pieces)?;
            Ok(Ending::Clean)
        }
        None => play(options),
    }
}

/// The computer's search threads: asked for, or every core.
fn threads(options: &Options) -> usize {
    options.draughts.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

/// Where endgame databases are kept: the user's data directory.
fn store() -> Option<EndgameStore> {
    directories::ProjectDirs::from("", "", "tallyho").map(|d| EndgameStore::new(d.data_dir()))
}

/// `tallyho draughts engine`: the line protocol on standard input and output.
fn engine(options: &Options, captures: Captures, no_book: bool) -> Result<(), AppError> {
    let rules = Setup::with_captures(captures);
    let endgame = Some(match store() {
        Some(store) => EndgameSource::from_store(rules, store, LARGEST_PIECES),
        None => EndgameSource::build_in_background(rules, MAX_PIECES),
    });
    let config = EngineConfig {
        rules,
        threads: threads(options),
        seed: options.play.seed.unwrap_or(0),
        book: !no_book,
        endgame,
    };
    protocol::run(io::BufReader::new(io::stdin()), io::stdout(), config)?;
    Ok(())
}

/// `tallyho draughts build-db`: the databases up to `pieces`, with progress.
fn build_db(rules: Setup, pieces: u32) -> Result<(), AppError> {
    let store = store().ok_or_else(|| {
        AppError::Failed("no home directory is known to keep the database in".into())
    })?;
    let mut err = io::stderr();
    let mut last = usize::MAX;
    let mut progress = |done: usize, total: usize| {
        let percent = done * 100 / total.max(1);
        if percent != last {
            last = percent;
            let filled = percent / 4;
            let _ = write!(
                err,
                "\r[{}{}] {percent:>3}% of {pieces} pieces",
                "#".repeat(filled),
                " ".repeat(25 - filled)
            );
            let _ = err.flush();
        }
        true
    };
    let db = store
        .build(pieces, rules, &mut progress)
        .map_err(AppError::Failed)?;
    let _ = writeln!(err);
    let path = store.path(db.max_pieces(), rules);
    println!("{}", safe::text(&path.display().to_string()));
    Ok(())
}

/// Plays a match with the command's options.
fn play(options: &Options) -> Result<Ending, AppError> {
    let mut options = options.clone();
    let seed = *options.play.seed.get_or_insert_with(rand::random);
    let rules = setup(&options.draughts, seed)?;
    let face = DraughtsFace {
        ascii: ascii_here(options.draughts.ascii),
        flip: options.draughts.flip,
    };
    let mut session = Session::new(rules).with_threads(threads(&options));
    if let Some(store) = store() {
        session = session.with_store(store, LARGEST_PIECES);
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

/// The rules and start the options ask for, checked.
pub fn setup(args: &DraughtsArgs, seed: u64) -> Result<Setup, AppError> {
    let mut rules = Setup::with_captures(args.captures.unwrap_or_default());
    if let Some(text) = &args.opening {
        let opening = ballot::choose(text, seed)
            .map_err(|e| AppError::bad_value("--opening <N|random>", text, safe::text(&e)))?;
        rules = rules.starting(Start::Opening(opening));
    }
    if let Some(path) = &args.load {
        let game = load(path, args.game.unwrap_or(1), args.captures)?;
        let end = game.end();
        let start = if end == Position::START {
            Start::Standard
        } else {
            Start::Position(end)
        };
        rules = Setup::with_captures(game.rules.captures).starting(start);
        if let Some(outcome) = rules.outcome(&[end]) {
            let side = end.to_move();
            let why = match outcome.winner() {
                Some(_) => format!("{side} to move has no move and has lost"),
                None => "it is drawn".to_string(),
            };
            return Err(AppError::Usage(format!(
                "--load {}: the game is over in its last position: {why}",
                shown_path(path)
            )));
        }
    }
    Ok(rules)
}

/// A path as error messages show it: escaped, and cut if long.
fn shown_path(path: &Path) -> String {
    safe::text(&safe::cut(&path.display().to_string(), 60))
}

/// A PDN reading error, every part from the file escaped and cut short.
fn pdn_error(e: &PdnError) -> String {
    let mut text = format!("game {}", e.game);
    if let Some((n, side)) = e.at {
        text.push_str(&format!(", move {n} ({side})"));
    }
    if let Some(token) = &e.token {
        text.push_str(&format!(", \"{}\"", safe::cut(token, 30)));
    }
    text.push_str(&format!(": {}", safe::cut(&e.why, 200)));
    safe::text(&text)
}

/// Reads game `number` (from 1) of a PDN file, checked. `captures` is the
/// capture rule the command line asked for, if any: the file's own
/// Captures tag must agree with it.
pub fn load(path: &Path, number: u64, captures: Option<Captures>) -> Result<PdnGame, AppError> {
    let shown = shown_path(path);
    let failed = |why: String| AppError::Failed(format!("--load {shown}: {why}"));
    // Opened once, then the opened file checked: a FIFO swapped in between
    // cannot make tallyho wait.
    let file = open_regular(path).map_err(|e| match e {
        OpenError::Folder(_) => failed("that is a directory, not a PDN file".into()),
        OpenError::NotAFile(_) => failed(
            "that is not a regular file (a FIFO, a device or a socket): give a PDN file".into(),
        ),
        OpenError::Io(_, e) => failed(io_reason(&e)),
    })?;
    let meta = file.metadata().map_err(|e| failed(io_reason(&e)))?;
    let too_big = || {
        failed(format!(
            "the file is larger than {} KB: a PDN file to load may be at most that",
            MAX_PDN_BYTES / 1024
        ))
    };
    if meta.len() > MAX_PDN_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(MAX_PDN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| failed(io_reason(&e)))?;
    if bytes.len() as u64 > MAX_PDN_BYTES {
        return Err(too_big());
    }
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rules = Setup::with_captures(captures.unwrap_or_default());
    // Each game stands alone: a damaged game elsewhere in the file is no
    // matter. What the file holds is bad input, exit status 2.
    let bad = |why: String| AppError::Usage(format!("--load {shown}: {why}"));
    let mut games = pdn::read_each(text, rules);
    let count = games.len() as u64;
    if count == 0 {
        return Err(bad("the file holds no game".into()));
    }
    if number > count {
        return Err(bad(format!(
            "the file holds {count} game{}; --game {number} is not one of them",
            if count == 1 { "" } else { "s" }
        )));
    }
    let game = games
        .swap_remove((number - 1) as usize)
        .map_err(|e| bad(pdn_error(&e)))?;
    if let Some(asked) = captures
        && asked != game.rules.captures
    {
        return Err(bad(format!(
            "game {number} was played with {} captures (its Captures tag), not {asked}",
            game.rules.captures
        )));
    }
    Ok(game)
}

/// Why a file could not be read, in a few words.
fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "there is no such file".to_string(),
        io::ErrorKind::PermissionDenied => "permission to read it is denied".to_string(),
        _ => safe::text(&e.to_string()),
    }
}

/// `tallyho draughts perft`: one line per depth, each printed when counted.
fn perft(depth: u32, fen: Option<&str>, captures: Captures) -> Result<(), AppError> {
    let rules = Setup::with_captures(captures);
    let pos = match fen {
        Some(text) => position(&rules, text)?,
        None => Position::START,
    };
    let mut out = io::stdout().lock();
    for (d, n) in perft_each(pos, depth, rules) {
        writeln!(out, "perft({d}) = {n}")?;
        out.flush()?;
    }
    Ok(())
}

/// A position typed on the command line, checked.
fn position(rules: &Setup, text: &str) -> Result<Position, AppError> {
    rules
        .parse_position(text)
        .map_err(|e| AppError::Usage(safe::text(&safe::cut(&e, 200))))
}

/// The database `analyse` uses: none for a position with many pieces,
/// where the search would not reach it; else read from the data directory,
/// or built on a thread, and waited for no longer than `wait`: `--think`
/// bounds the whole answer.
fn analysis_endgame(rules: &Setup, pos: &Position, wait: &Until) -> Option<Arc<Endgame>> {
    let pieces = pos.piece_count();
    if pieces > 10 {
        return None;
    }
    let shared = SharedEndgame::default();
    if let Some(store) = store() {
        shared.keep_in(store, LARGEST_PIECES);
    }
    shared.start_with(*rules, pieces.clamp(2, endgame::MAX_PIECES));
    shared.ready_within(wait)
}

/// A score in words for the side to move.
fn score_text(score: Score, side: Side) -> String {
    match score {
        Score::Points(p) => format!("{:+.2} men for {side}", f64::from(p) / 100.0),
        Score::Win(n) => format!("{side} wins in {}", plies(n)),
        Score::Loss(n) => format!("{side} loses in {}", plies(n)),
    }
}

/// `tallyho draughts analyse`.
fn analyse(rules: &Setup, fen: &str, think: u64, json: bool, ascii: bool) -> Result<(), AppError> {
    let pos = position(rules, fen)?;
    let started = Instant::now();
    let deadline = Until::after_millis(think);
    // Half the time at most for the database, the rest for the search.
    let db = analysis_endgame(rules, &pos, &Until::after_millis(think / 2));
    let analysis = tallyho::games::draughts::analyse(rules, &[pos], &deadline, db.clone());
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", analysis.to_json())?;
        return Ok(());
    }
    let side = pos.to_move();
    let drawing = board::Drawing {
        ascii,
        ..board::Drawing::default()
    };
    write!(out, "{}", board::board(&pos, None, drawing))?;
    writeln!(out, "Position:   {}, {side} to move", rules.notation(&pos))?;
    match analysis.best {
        Some(m) => writeln!(out, "Best move:  {m}")?,
        None => writeln!(out, "Best move:  none: {side} has no move, and has lost")?,
    }
    writeln!(out, "Score:      {}", score_text(analysis.score, side))?;
    if !analysis.pv.is_empty() {
        let line = analysis.pv_text(1);
        let wrapped = safe::wrap(&line, 80 - 12);
        let indented = wrapped.replace('\n', &format!("\n{}", " ".repeat(12)));
        writeln!(out, "Line:       {indented}")?;
    }
    writeln!(
        out,
        "Searched:   depth {}, {} nodes in {:.2} s",
        analysis.depth,
        analysis.nodes,
        elapsed.as_secs_f64()
    )?;
    let exact = match analysis.exact {
        Some(Exact::Win(n)) => format!("{side} wins in {} (endgame database)", plies(n)),
        Some(Exact::Loss(n)) => format!("{side} loses in {} (endgame database)", plies(n)),
        Some(Exact::Draw) => "a draw with best play (endgame database)".to_string(),
        // The true reason it is not exact.
        None => match &db {
            Some(db) if pos.piece_count() > db.max_pieces() => format!(
                "not known: {} pieces are on the board, and the endgame database holds at most {}",
                pos.piece_count(),
                db.max_pieces()
            ),
            Some(_) => "not known".to_string(),
            None if pos.piece_count() > 10 => {
                "not known: too many pieces for the endgame database to reach".to_string()
            }
            None => "not known: the endgame database was not ready within --think".to_string(),
        },
    };
    writeln!(out, "Exact:      {exact}")?;
    Ok(())
}

/// Replays a logged draughts game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let rules: Session = replay::rules_of(record)?;
    let face = DraughtsFace {
        ascii: ascii_here(false),
        flip: false,
    };
    replay::replay(console, &rules, &face, record, step)
}

/// A logged draughts game as PDN. A game from a ballot opening is written
/// from the usual start, the opening's three moves first.
pub fn pdn_game(record: &Record) -> Result<PdnGame, String> {
    let rules: Setup = replay::rules_of(record)?;
    let (game, outcome) = replay::rebuild(&rules, record)?;
    let mut out = PdnGame::new(rules, *game.start());
    out.moves = game.moves().to_vec();
    if let Start::Opening(opening) = rules.start
        && opening.position() == *game.start()
    {
        out.start = Position::START;
        out.moves = opening.moves().into_iter().chain(out.moves).collect();
        out.set_tag(
            "Opening",
            &format!("ballot {}: {}", opening.number(), opening.notation()),
        );
    }
    out.result = GameResult::from_outcome(Some(outcome));
    out.set_tag("Event", &format!("tallyho game {}", record.number));
    out.set_tag("Date", &pdn_date(&record.date));
    for side in [Side::Black, Side::White] {
        let name = record
            .seats
            .iter()
            .find(|s| s.side == side.name())
            .map_or("?".to_string(), |s| safe::text(&s.name));
        out.set_tag(tallyho::faces::draughts::text::side_title(side), &name);
    }
    out.set_tag("Termination", outcome.how());
    Ok(out)
}

/// `2026-11-23T02:11:11Z` as PDN writes a date, `2026.11.23`.
fn pdn_date(date: &str) -> String {
    let day = date.get(..10).unwrap_or("");
    let ok = day.len() == 10
        && day.char_indices().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    if ok {
        day.replace('-', ".")
    } else {
        "????.??.??".to_string()
    }
}

/// `tallyho history --pdn [N]`: the log's draughts games (or game N) as PDN.
pub fn write_pdn(log: &Log, number: Option<u64>, out: &mut dyn Write) -> Result<(), AppError> {
    let path = safe::text(&log.path().display().to_string());
    let mut records = log.stream()?;
    let mut written = 0;
    let mut found = false;
    while let Some(record) = records.next_record()? {
        match number {
            Some(n) if record.number != n => continue,
            Some(n) => {
                found = true;
                if GameKind::from_log(&record.game, &record.flow) != Ok(GameKind::Draughts) {
                    return Err(AppError::Usage(format!(
                        "game {n} is a game of {}: only draughts games are written as PDN",
                        safe::text(&safe::cut(&record.game, 20))
                    )));
                }
            }
            None if GameKind::from_log(&record.game, &record.flow) != Ok(GameKind::Draughts) => {
                continue;
            }
            None => {}
        }
        match pdn_game(&record) {
            Ok(game) => {
                if written > 0 {
                    writeln!(out)?;
                }
                out.write_all(pdn::write(&game).as_bytes())?;
                written += 1;
            }
            Err(why) if number.is_some() => {
                return Err(AppError::Failed(format!(
                    "game {} cannot be written as PDN: {}",
                    record.number,
                    safe::text(&why)
                )));
            }
            Err(why) => log::warn(&format!(
                "game {} is left out: {}",
                record.number,
                safe::text(&why)
            )),
        }
        if found {
            break;
        }
    }
    if records.damaged() > 0 {
        log::warn(&log::damaged_lines(records.damaged(), log.path()));
    }
    match number {
        Some(n) if !found => Err(AppError::Usage(format!(
            "there is no game {n} in {path}: tallyho history lists its games"
        ))),
        None if written == 0 => {
            log::warn(&format!("{path} holds no draughts games"));
            Ok(())
        }
        _ => Ok(()),
    }
}

/// [`wants_ascii`] decided once, here, for this process's standard output and environment.
fn ascii_here(asked: bool) -> bool {
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
