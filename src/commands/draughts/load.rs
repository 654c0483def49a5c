//! `--load` for `tallyho draughts` (a game read from a PDN file, checked),
//! a logged game replayed or written as PDN.

use std::io::{self, Read, Write};
use std::path::Path;

use super::{MAX_PDN_BYTES, ascii_here};
use crate::cli::draughts::DraughtsArgs;
use crate::commands::AppError;
use tallyho::engines::draughts::session::{LOADED_TAGS, Session};
use tallyho::faces::draughts::DraughtsFace;
use tallyho::games::draughts::{
    Captures, GameResult, PdnError, PdnGame, Position, Setup, Side, Start, ballot, how, pdn,
};
use tallyho::games::{GameKind, Outcome, Rules};
use tallyho::shell::console::Console;
use tallyho::shell::log::{self, Log, Record};
use tallyho::shell::log::{OpenError, open_regular};
use tallyho::shell::replay::{self, ReplayError};
use tallyho::shell::safe;

/// The rules and start the options ask for, checked, and the game
/// `--load` read, whose moves every game goes on from.
pub fn setup(args: &DraughtsArgs, seed: u64) -> Result<(Setup, Option<PdnGame>), AppError> {
    let mut rules = Setup::with_captures(args.captures.unwrap_or_default());
    if let Some(text) = &args.opening {
        let start = if text.trim().eq_ignore_ascii_case("random") {
            Start::Random(seed)
        } else {
            let opening = ballot::choose(text, seed).map_err(|e| {
                AppError::bad_value("--opening <N|random>", text, safe::text(&e.to_string()))
            })?;
            Start::Opening(opening)
        };
        rules = rules.starting(start);
    }
    let Some(path) = &args.load else {
        return Ok((rules, None));
    };
    let number = args.game.unwrap_or(1);
    let game = load(path, number, args.captures)?;
    let start = if game.start == Position::START {
        Start::Standard
    } else {
        Start::Position(game.start)
    };
    rules = Setup::with_captures(game.rules.captures).starting(start);
    // The whole game is the history: a repetition or the forty-move count
    // may have ended it before its last position.
    let positions = game.positions();
    if let Some((plies, outcome)) = ended(&rules, &positions) {
        let result = GameResult::from_outcome(Some(outcome)).token();
        let how = over(outcome, positions[plies].to_move());
        let why = if plies == game.moves.len() {
            format!("game {number} is over: {how} ({result})")
        } else {
            // Moves after the end would make the game as long as the file.
            let (n, side) = move_number(&positions, plies - 1);
            format!(
                "game {number} was over after move {n} ({}): {how} ({result}); \
                 its moves go on past its end",
                side.title()
            )
        };
        return Err(AppError::Usage(format!(
            "--load {}: {why}",
            shown_path(path)
        )));
    }
    // Over by its result alone: a resignation, an agreed draw, a loss on time.
    if game.result != GameResult::Unfinished {
        let how = match game.result.winner() {
            Some(side) => format!("{} won", side.title()),
            None => "a draw".to_string(),
        };
        let why = match game.tag("Termination").map(str::trim) {
            Some(t) if !t.is_empty() => format!(" ({})", safe::text(&safe::cut(t, 40))),
            _ => String::new(),
        };
        return Err(AppError::Usage(format!(
            "--load {}: game {number} is over: {}, {how}{why}",
            shown_path(path),
            game.result.token()
        )));
    }
    Ok((rules, Some(game)))
}

/// The first position at which the rules end the game: the plies played by
/// then, and how it ended.
fn ended(rules: &Setup, positions: &[Position]) -> Option<(usize, Outcome<Side>)> {
    (1..=positions.len()).find_map(|n| rules.outcome(&positions[..n]).map(|o| (n - 1, o)))
}

/// The move number and side of ply `ply` (from 0) of a game's positions.
fn move_number(positions: &[Position], ply: usize) -> (usize, Side) {
    let first_white = positions[0].to_move() == Side::White;
    (
        (ply + usize::from(first_white)) / 2 + 1,
        positions[ply].to_move(),
    )
}

/// How a loaded game ended, in words.
fn over(outcome: Outcome<Side>, to_move: Side) -> String {
    match outcome.how() {
        how::REPETITION => "the same position came round a third time, a draw".into(),
        how::FORTY_MOVES => {
            "forty moves each were played with no capture and no man moved, a draw".into()
        }
        _ => format!(
            "{} is to move and has no move, and has lost",
            to_move.title()
        ),
    }
}

/// A path as error messages show it: escaped, and cut if long.
fn shown_path(path: &Path) -> String {
    safe::text(&safe::cut(&path.display().to_string(), 60))
}

/// A PDN reading error, every part from the file escaped and cut short.
fn pdn_error(e: &PdnError) -> String {
    let mut text = format!("game {}", e.game);
    if let Some((n, side)) = e.at {
        text.push_str(&format!(", move {n} ({})", side.title()));
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
        OpenError::Denied(_) => failed("permission to read it is denied".into()),
        OpenError::Io(_, e) => failed(io_reason(&e)),
    })?;
    let meta = file.metadata().map_err(|e| failed(io_reason(&e)))?;
    let too_big = || {
        failed(format!(
            "the file is larger than 1 MiB ({MAX_PDN_BYTES} bytes): a PDN file to load may be at most that"
        ))
    };
    // What the file holds is bad input, exit status 2.
    let bad = |why: String| AppError::Usage(format!("--load {shown}: {why}"));
    // Read at most a byte past the limit, whatever the file says its size
    // is; a file in UTF-16 is named so even when too big, as that is why.
    let mut bytes = Vec::new();
    file.take(MAX_PDN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| failed(io_reason(&e)))?;
    if let Some(encoding) = pdn::wrong_encoding(&bytes) {
        return Err(bad(format!(
            "the file looks like {encoding}; save it as UTF-8"
        )));
    }
    if meta.len() > MAX_PDN_BYTES || bytes.len() as u64 > MAX_PDN_BYTES {
        return Err(too_big());
    }
    let (text, latin) = pdn::decode(&bytes);
    if let Some(line) = latin {
        tallyho::shell::log::warn(&format!(
            "--load {shown}: the file is not all UTF-8 (line {line} is the first that is not); \
             what is not is read as Windows-1252 (Latin-1)"
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rules = Setup::with_captures(captures.unwrap_or_default());
    // Each game stands alone: a damaged game elsewhere in the file is no
    // matter.
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
    // Its tags go into the log's record of every game played on from it.
    game.check_carried()
        .map_err(|e| bad(format!("game {number}: {}", safe::text(&e.to_string()))))?;
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
/// With it, whether the loaded game's tags kept in the log (if any) were
/// read whole: `false` where the field is damaged, and the game is written
/// with what could be read of it.
fn pdn_game(record: &Record) -> Result<(PdnGame, bool), String> {
    let rules: Setup = replay::rules_of(record)?;
    let (game, outcome) = replay::rebuild(&rules, record)?;
    let mut out = PdnGame::new(rules, *game.start());
    out.moves = game.moves().to_vec();
    // A loaded game's own tags first: where and when it began.
    let mut whole = true;
    if let Some(tags) = record.setup.get(LOADED_TAGS) {
        (out.tags, whole) = pdn::read_tags_whole(tags);
    }
    // A game of `--opening random` is logged from its own opening's
    // position, which names it. A loaded game keeps the start its file
    // gave, whatever position that is.
    let opening = match rules.start {
        Start::Opening(opening) => Some(opening),
        _ if record.setup.contains_key(LOADED_TAGS) => None,
        _ => ballot::find(game.start()),
    };
    if let Some(opening) = opening
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
    // Where and when a loaded game began stay its own; who played it on
    // and how it ended are this log's.
    if out.known_tag("Event").is_none() {
        out.set_tag("Event", &format!("tallyho game {}", record.number));
    }
    if out.known_tag("Date").is_none() {
        out.set_tag("Date", &pdn_date(&record.date));
    }
    // Names as logged: the whole document is escaped once on its way out
    // (`history --pdn` writes through `safe::Escaping`), so escaping them
    // here too would write `\u{1b}` as `\\u{1b}`, which reads back as text.
    for side in [Side::Black, Side::White] {
        let name = record
            .seats
            .iter()
            .find(|s| s.side == side.name())
            .map_or("?".to_string(), |s| s.name.clone());
        out.set_tag(tallyho::faces::draughts::text::side_title(side), &name);
    }
    out.set_tag("Termination", outcome.how());
    Ok((out, whole))
}

/// `2026-11-23T02:11:11Z` as PDN writes a date, `2026.11.23`; a date that
/// cannot be (`2026-13-01…`) as an unknown one, `????.??.??`.
fn pdn_date(date: &str) -> String {
    match (log::date_problem(date), date.get(..10)) {
        (None, Some(day)) => day.replace('-', "."),
        _ => "????.??.??".to_string(),
    }
}

/// `tallyho history --pdn [N]`: the log's draughts games (or game N) as PDN.
pub fn write_pdn(log: &Log, number: Option<u64>, out: &mut dyn Write) -> Result<(), AppError> {
    let path = safe::text(&log.path().display().to_string());
    if let Some(n) = number {
        // Found, or said why not, as `replay N` finds it.
        let record = crate::commands::log::find_record(log, n)?;
        match GameKind::from_log(&record.game, &record.flow) {
            Ok(GameKind::Draughts) => {}
            Ok(_) => {
                return Err(AppError::Usage(format!(
                    "game {n} is a {} game: only draughts games are written as PDN",
                    safe::text(&safe::cut(&record.game, 20))
                )));
            }
            Err(why) => {
                return Err(AppError::Failed(format!(
                    "game {n} cannot be written as PDN: {}",
                    replay::unknown_game(&why)
                )));
            }
        }
        let (game, whole) = pdn_game(&record).map_err(|why| {
            AppError::Failed(format!(
                "game {n} cannot be written as PDN: {}",
                safe::text(&why)
            ))
        })?;
        if !whole {
            log::warn(&format!(
                "game {n}'s PDN tags in {path} are damaged: it is written with those that could be read"
            ));
        }
        out.write_all(pdn::write(&game).as_bytes())?;
        return Ok(());
    }
    let mut records = log.stream()?;
    let mut written = 0;
    // Draughts games met, written or left out.
    let mut met = 0;
    while let Some(record) = records.next_record()? {
        match GameKind::from_log(&record.game, &record.flow) {
            Ok(GameKind::Draughts) => {}
            Ok(_) => continue,
            // A draughts game of a flow this release does not know.
            Err(why) if record.game == GameKind::Draughts.game() => {
                met += 1;
                log::warn(&format!(
                    "game {} is left out: {}",
                    record.number,
                    replay::unknown_game(&why)
                ));
                continue;
            }
            Err(_) => continue,
        }
        met += 1;
        match pdn_game(&record) {
            Ok((game, whole)) => {
                if !whole {
                    tallyho::shell::log::warn(&format!(
                        "game {}'s PDN tags in {path} are damaged: it is written with those that could be read",
                        record.number
                    ));
                }
                if written > 0 {
                    writeln!(out)?;
                }
                out.write_all(pdn::write(&game).as_bytes())?;
                written += 1;
            }
            Err(why) => log::warn(&format!(
                "game {} is left out: {}",
                record.number,
                safe::text(&why)
            )),
        }
    }
    for warning in records.skipped().warnings(log.path()) {
        log::warn(&warning);
    }
    if written == 0 {
        log::warn(&match met {
            0 => format!("{path} holds no draughts games"),
            1 => format!("the one draughts game in {path} could not be written as PDN"),
            n => format!("none of the {n} draughts games in {path} could be written as PDN"),
        });
    }
    Ok(())
}
