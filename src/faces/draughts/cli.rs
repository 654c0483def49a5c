//! `tallyho draughts` on the command line: playing (from the usual start, a
//! ballot opening or a PDN file's position), `perft`, `analyse`, replaying a
//! logged game, and the log's games written as PDN.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::session::Session;
use super::{DraughtsFace, ascii_here, board};
use crate::app::{AppError, Ending};
use crate::cli::{LogArgs, LookArgs, PlayArgs};
use crate::games::draughts::endgame::{self, Endgame, Exact};
use crate::games::draughts::search::plies;
use crate::games::draughts::{
    Captures, Draughts, GameResult, PdnError, PdnGame, Position, Score, Side, Start, ballot, pdn,
    perft_each,
};
use crate::games::{Deadline, Rules};
use crate::shell::console::Console;
use crate::shell::history::{self, Log, Record};
use crate::shell::replay::{self, ReplayError};
use crate::shell::safe;

/// The longest PDN file `--load` reads.
pub const MAX_PDN_BYTES: u64 = 1 << 20;

/// The longest thinking time, in milliseconds: ten minutes.
const MAX_THINK: u64 = 600_000;

/// `tallyho draughts`: play, or one of the tools.
#[derive(Args, Debug)]
#[command(after_help = "\
Levels (--level): rubbish (random moves), greedy (the seed's: takes when it can),
cunning (a shallow search), overpowered (the full engine, within --think, and
perfect play with four pieces or fewer).

Examples:
  tallyho draughts                          the welcome, the menu, the names
  tallyho draughts --players 1 --names Ann --level cunning --side white
  tallyho draughts --opening random --players 0 --level overpowered
  tallyho draughts --load game.pdn --game 2 --players 2 --names Ann,Bob
  tallyho draughts perft 8
  tallyho draughts analyse W:W18,24,K10:B12,16,K22 --think 2000")]
pub struct DraughtsCommand {
    /// A tool instead of a game.
    #[command(subcommand)]
    pub tool: Option<DraughtsTool>,

    /// The game's rules and start, the computer's time, the board's look.
    #[command(flatten)]
    pub game: DraughtsArgs,

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

/// The options of a game of draughts.
#[derive(Args, Debug, Clone)]
pub struct DraughtsArgs {
    /// Whether a side that can capture must: compulsory (the laws, the
    /// default) or optional (console checkers' house rule).
    #[arg(long, value_name = "RULE")]
    pub captures: Option<Captures>,

    /// Start every game from a three-move ballot opening: its number in the
    /// deck, 1-156, or random (drawn with --seed).
    #[arg(long, value_name = "N|random", conflicts_with = "load")]
    pub opening: Option<String>,

    /// Start every game from a PDN file's game: its FEN tag (or the usual
    /// start), then its moves.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,

    /// With --load: which game of the file, from 1 (default 1).
    #[arg(long, value_name = "K", requires = "load",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,

    /// How long the computer may think about a move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_THINK))]
    pub think: u64,

    /// Draw the board and the welcome box in plain ASCII. Without it, box
    /// drawing is used, except at a terminal with TERM=dumb or a locale
    /// that is not UTF-8.
    #[arg(long)]
    pub ascii: bool,
}

/// The draughts tools.
#[derive(Subcommand, Debug)]
pub enum DraughtsTool {
    /// Count the move sequences to each depth: one line per depth,
    /// perft(D) = N.
    Perft {
        /// The deepest depth (1-40).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,

        /// The position, in FEN (B:W21-32:B1-12). Default: the start.
        fen: Option<String>,

        /// Whether a side that can capture must: compulsory or optional.
        #[arg(long, value_name = "RULE")]
        captures: Option<Captures>,
    },
    /// The engine's view of a position: the best move, the score, the
    /// expected line, and the exact result where the endgame database
    /// (four pieces or fewer) covers it.
    #[command(alias = "analyze")]
    Analyse {
        /// The position, in FEN: W:W18,24,K10:B12,16,K22.
        fen: String,

        /// How long to think, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = 1000,
              value_parser = clap::value_parser!(u64).range(1..=MAX_THINK))]
        think: u64,

        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,

        /// Whether a side that can capture must: compulsory or optional.
        #[arg(long, value_name = "RULE")]
        captures: Option<Captures>,

        /// Draw the board in plain ASCII.
        #[arg(long)]
        ascii: bool,
    },
}

/// Runs `tallyho draughts`.
pub fn run(command: DraughtsCommand) -> Result<Ending, AppError> {
    match command.tool {
        Some(DraughtsTool::Perft {
            depth,
            fen,
            captures,
        }) => {
            perft(depth, fen.as_deref(), captures.unwrap_or_default())?;
            Ok(Ending::Clean)
        }
        Some(DraughtsTool::Analyse {
            fen,
            think,
            json,
            captures,
            ascii,
        }) => {
            let rules = Draughts::with_captures(captures.unwrap_or_default());
            analyse(&rules, &fen, think, json, ascii_here(ascii))?;
            Ok(Ending::Clean)
        }
        None => play(command),
    }
}

/// Plays a match with the command's options.
fn play(command: DraughtsCommand) -> Result<Ending, AppError> {
    let DraughtsCommand {
        game,
        mut play,
        look,
        log,
        ..
    } = command;
    let seed = *play.seed.get_or_insert_with(rand::random);
    let rules = setup(&game, seed)?;
    let face = DraughtsFace {
        ascii: ascii_here(game.ascii),
    };
    crate::app::play_match(
        Session::new(rules),
        "default",
        &face,
        &play,
        [None, None],
        None,
        game.think,
        look.look(),
        &log,
    )
}

/// The rules and start the options ask for, checked.
pub fn setup(args: &DraughtsArgs, seed: u64) -> Result<Draughts, AppError> {
    let mut rules = Draughts::with_captures(args.captures.unwrap_or_default());
    if let Some(text) = &args.opening {
        let opening = ballot::choose(text, seed)
            .map_err(|e| AppError::Usage(format!("--opening: {}", safe::text(&e))))?;
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
        rules = Draughts::with_captures(game.rules.captures).starting(start);
        if let Some(outcome) = rules.outcome(&[end]) {
            let side = end.to_move();
            let why = match outcome.winner() {
                Some(_) => format!("{side} to move has no move and has lost"),
                None => "it is drawn".to_string(),
            };
            return Err(AppError::Failed(format!(
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
    let meta = std::fs::metadata(path).map_err(|e| failed(io_reason(&e)))?;
    if meta.is_dir() {
        return Err(failed("that is a directory, not a PDN file".into()));
    }
    if !meta.is_file() {
        return Err(failed(
            "that is not a regular file (a FIFO, a device or a socket): give a PDN file".into(),
        ));
    }
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
    File::open(path)
        .and_then(|f| f.take(MAX_PDN_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| failed(io_reason(&e)))?;
    if bytes.len() as u64 > MAX_PDN_BYTES {
        return Err(too_big());
    }
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rules = Draughts::with_captures(captures.unwrap_or_default());
    let mut games = pdn::read(text, rules).map_err(|e| failed(pdn_error(&e)))?;
    let count = games.len() as u64;
    if count == 0 {
        return Err(failed("the file holds no game".into()));
    }
    if number > count {
        return Err(failed(format!(
            "the file holds {count} game{}; --game {number} is not one of them",
            if count == 1 { "" } else { "s" }
        )));
    }
    let game = games.swap_remove((number - 1) as usize);
    if let Some(asked) = captures
        && asked != game.rules.captures
    {
        return Err(failed(format!(
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
    let rules = Draughts::with_captures(captures);
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
fn position(rules: &Draughts, text: &str) -> Result<Position, AppError> {
    rules
        .parse_position(text)
        .map_err(|e| AppError::Usage(safe::text(&safe::cut(&e, 200))))
}

/// A deadline at a moment.
struct Until(Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// The database `analyse` uses: none for a position with many pieces,
/// where the search would not reach four; else built now (a few seconds
/// for four pieces, a fraction of one for three).
fn analysis_endgame(rules: &Draughts, pos: &Position) -> Option<Arc<Endgame>> {
    let pieces = pos.piece_count();
    (pieces <= 10).then(|| Arc::new(Endgame::build(pieces.clamp(2, endgame::MAX_PIECES), *rules)))
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
fn analyse(
    rules: &Draughts,
    fen: &str,
    think: u64,
    json: bool,
    ascii: bool,
) -> Result<(), AppError> {
    let pos = position(rules, fen)?;
    let db = analysis_endgame(rules, &pos);
    let started = Instant::now();
    let deadline = Until(started + Duration::from_millis(think));
    let analysis = crate::games::draughts::analyse(rules, &[pos], &deadline, db.clone());
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", analysis.to_json())?;
        return Ok(());
    }
    let side = pos.to_move();
    let drawing = board::Drawing {
        ascii,
        colour: false,
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
        Some(Exact::Win(n)) => format!("{side} wins in {n} plies (endgame database)"),
        Some(Exact::Loss(n)) => format!("{side} loses in {n} plies (endgame database)"),
        Some(Exact::Draw) => "a draw with best play (endgame database)".to_string(),
        None => format!(
            "not known: the endgame database holds positions of at most {} pieces",
            endgame::MAX_PIECES
        ),
    };
    writeln!(out, "Exact:      {exact}")?;
    Ok(())
}

/// Replays a logged draughts game.
pub fn replay(console: &mut Console, record: &Record, step: bool) -> Result<(), ReplayError> {
    let pairs: Vec<(&str, &str)> = record
        .setup
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let rules = <Session as Rules>::from_setup(&pairs).map_err(ReplayError::Damaged)?;
    let face = DraughtsFace {
        ascii: ascii_here(false),
    };
    replay::replay(console, &rules, &face, record, step)
}

/// A logged draughts game as PDN. A game from a ballot opening is written
/// from the usual start, the opening's three moves first.
pub fn pdn_game(record: &Record) -> Result<PdnGame, String> {
    let pairs: Vec<(&str, &str)> = record
        .setup
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let rules = Draughts::from_setup(&pairs)?;
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
        out.set_tag(super::text::side_title(side), &name);
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
                if record.game != "draughts" {
                    return Err(AppError::Usage(format!(
                        "game {n} is a game of {}: only draughts games are written as PDN",
                        safe::text(&safe::cut(&record.game, 20))
                    )));
                }
            }
            None if record.game != "draughts" => continue,
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
            Err(why) => history::warn(&format!(
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
        history::warn(&history::damaged_lines(records.damaged(), log.path()));
    }
    match number {
        Some(n) if !found => Err(AppError::Usage(format!(
            "there is no game {n} in {path}: tallyho history lists its games"
        ))),
        None if written == 0 => {
            history::warn(&format!("{path} holds no draughts games"));
            Ok(())
        }
        _ => Ok(()),
    }
}
