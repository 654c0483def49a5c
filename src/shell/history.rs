//! The game log on disk: one JSON record per finished game of any game,
//! appended to a JSON-lines file that tallyho never rewrites.
//!
//! Several tallyho processes may share one log. An append takes an
//! exclusive lock, numbers its record after the last one in the file (read
//! from the file's tail, never the whole log) and writes the line at once;
//! if the write fails part-way, the file is cut back to where it was. Reading
//! streams line by line, so a log of any size reads in little memory. Only a
//! regular file is a log: a FIFO or a device would hang or never end.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::games::{Game, Outcome, Rules};

use super::console::Console;
use super::date::utc_now;
use super::safe;
use super::signals;

/// The record format this release writes.
pub const VERSION: u32 = 2;

/// The longest line read as a record; longer lines are damage.
const MAX_RECORD: usize = 1 << 20;

/// One seat at a finished game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player's name.
    pub name: String,
    /// The side played, as the game names it: `fox`, `black`.
    pub side: String,
    /// The computer's level, for a computer player.
    pub level: Option<String>,
}

impl Seat {
    /// The seat as a table shows it: `Ann (fox)`, `SWTP (hounds, cunning)`.
    pub fn display(&self) -> String {
        let name = if self.name.is_empty() {
            "Computer"
        } else {
            &self.name
        };
        match &self.level {
            None => format!("{name} ({})", self.side),
            Some(level) => format!("{name} ({}, {level})", self.side),
        }
    }
}

/// How a logged game ended.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winning side, or `None` for a draw.
    pub winner: Option<String>,
    /// How, as the game names it: `fox-trapped`, `repetition`, `resigned`.
    pub how: String,
}

/// One finished game, as one line of the log.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record format: 2.
    pub version: u32,
    /// The game's number in the log, from 1; 0 until appended.
    pub number: u64,
    /// When the game ended, UTC, ISO 8601: `2026-11-23T02:11:11Z`.
    pub date: String,
    /// Which game: `fox`, `draughts`, `fish`.
    pub game: String,
    /// The flow it was played in: `default`, `classic`, `capture`.
    pub flow: String,
    /// The setup, as the game names it: `board`, `rules`…
    pub setup: BTreeMap<String, String>,
    /// Who sat where: Player 1 first.
    pub seats: Vec<Seat>,
    /// The winner or a draw, and how.
    pub outcome: Ending,
    /// How many moves (plies) were played.
    pub plies: u32,
    /// The start position in the game's notation.
    pub start: String,
    /// Every move in the game's notation.
    pub moves: Vec<String>,
    /// The computer players' seed.
    pub seed: Option<u64>,
}

impl Record {
    /// The record of a finished game, dated now. Its number is 0 until
    /// [`Log::append`] gives it one.
    pub fn of_game<R: Rules>(
        rules: &R,
        flow: &str,
        seats: Vec<Seat>,
        game: &Game<R>,
        outcome: Outcome<R::Side>,
        seed: Option<u64>,
    ) -> Record {
        Record {
            version: VERSION,
            number: 0,
            date: utc_now(),
            game: R::GAME.to_string(),
            flow: flow.to_string(),
            setup: rules
                .setup()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            seats,
            outcome: Ending {
                winner: outcome.winner().map(|side| side.to_string()),
                how: outcome.how().to_string(),
            },
            plies: u32::try_from(game.moves().len()).unwrap_or(u32::MAX),
            start: rules.notation(game.start()),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            seed,
        }
    }

    /// The seat that won, if one did.
    pub fn winning_seat(&self) -> Option<&Seat> {
        let winner = self.outcome.winner.as_deref()?;
        self.seats.iter().find(|seat| seat.side == winner)
    }
}

/// A record of the first release, which knew only Fox and Hounds.
#[derive(Deserialize)]
struct RecordV1 {
    number: u64,
    date: String,
    flow: String,
    board: String,
    rules: String,
    fox: PlayerV1,
    hounds: PlayerV1,
    winner: String,
    ending: String,
    plies: u32,
    start: String,
    moves: Vec<String>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
struct PlayerV1 {
    name: String,
    computer: Option<String>,
}

impl From<RecordV1> for Record {
    fn from(old: RecordV1) -> Record {
        let seat = |p: PlayerV1, side: &str| Seat {
            name: p.name,
            side: side.to_string(),
            level: p.computer,
        };
        // The first release kept the fox's player first.
        let seats = vec![seat(old.fox, "fox"), seat(old.hounds, "hounds")];
        Record {
            version: 1,
            number: old.number,
            date: old.date,
            game: "fox".to_string(),
            flow: old.flow,
            setup: BTreeMap::from([
                ("board".to_string(), old.board),
                ("rules".to_string(), old.rules),
            ]),
            seats,
            outcome: Ending {
                winner: Some(old.winner),
                how: old.ending,
            },
            plies: old.plies,
            start: old.start,
            moves: old.moves,
            seed: old.seed,
        }
    }
}

/// Reads one line of a log: a record of this release or the first.
pub fn parse_record(line: &[u8]) -> Option<Record> {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if let Ok(record) = serde_json::from_slice::<Record>(line) {
        return Some(record);
    }
    serde_json::from_slice::<RecordV1>(line)
        .ok()
        .map(Record::from)
}

/// Why the log could not be used.
#[derive(Debug)]
pub enum LogError {
    /// The path is a FIFO, a device, a folder: not a file tallyho may use.
    NotAFile(PathBuf),
    /// Another program held the lock for too long.
    Locked(PathBuf, Duration),
    /// The numbers are used up: the last record, with the damaged lines
    /// after it, reaches the largest number there is.
    Full(PathBuf),
    /// The file could not be read or written.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = |p: &Path| safe::text(&p.display().to_string());
        match self {
            LogError::NotAFile(p) => write!(
                f,
                "{} is not a regular file, so it cannot be the game log",
                path(p)
            ),
            LogError::Locked(p, waited) => write!(
                f,
                "another program has held the lock on {} for {} seconds",
                path(p),
                waited.as_secs()
            ),
            LogError::Full(p) => write!(
                f,
                "the game numbers in {} are used up (its last game, with any damaged lines after it, reaches the largest number there is), so no game can follow",
                path(p)
            ),
            LogError::Io(p, e) => write!(f, "{}: {}", path(p), safe::text(&e.to_string())),
        }
    }
}

impl std::error::Error for LogError {}

/// The game log: a JSON-lines file, one record per finished game.
#[derive(Clone, Debug)]
pub struct Log {
    path: PathBuf,
    /// How long to wait for another program's lock before giving up.
    patience: Duration,
}

impl Log {
    /// The log at `path`; nothing is touched until it is read or appended to.
    pub fn new(path: PathBuf) -> Log {
        Log {
            path,
            patience: Duration::from_secs(10),
        }
    }

    /// The same log, giving up on a held lock after `patience`.
    pub fn with_patience(self, patience: Duration) -> Log {
        Log { patience, ..self }
    }

    /// `history.jsonl` in tallyho's data directory (on Linux
    /// `~/.local/share/tallyho/`); `None` when there is no home directory.
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "tallyho")
            .map(|dirs| dirs.data_dir().join("history.jsonl"))
    }

    /// Where the log lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, e: io::Error) -> LogError {
        LogError::Io(self.path.clone(), e)
    }

    /// Refuses anything but a regular file (or nothing yet).
    fn check_regular(&self) -> Result<bool, LogError> {
        match fs::metadata(&self.path) {
            Ok(meta) if meta.is_file() => Ok(true),
            Ok(_) => Err(LogError::NotAFile(self.path.clone())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(self.io(e)),
        }
    }

    /// Takes the exclusive lock, calling `waiting` once if that takes over a second.
    fn lock(&self, file: &File, waiting: &mut dyn FnMut()) -> Result<(), LogError> {
        let started = Instant::now();
        let mut told = false;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(()),
                Err(fs::TryLockError::Error(e)) => return Err(self.io(e)),
                Err(fs::TryLockError::WouldBlock) => {}
            }
            let waited = started.elapsed();
            if waited >= self.patience {
                return Err(LogError::Locked(self.path.clone(), waited));
            }
            if !told && waited >= Duration::from_secs(1) {
                told = true;
                waiting();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Appends `record` under the next number, which it returns; the
    /// record's own `number` is ignored. Creates the file and its folders.
    pub fn append(&self, record: &Record, waiting: &mut dyn FnMut()) -> Result<u64, LogError> {
        self.check_regular()?;
        if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(|e| self.io(e))?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&self.path)
            .map_err(|e| self.io(e))?;
        self.lock(&file, waiting)?;
        let length = file.metadata().map_err(|e| self.io(e))?.len();
        let (last, ends_in_newline) = tail(&mut file, length).map_err(|e| self.io(e))?;
        let number = match last {
            Some(u64::MAX) => return Err(LogError::Full(self.path.clone())),
            Some(n) => n + 1,
            None => 1,
        };
        let mut line = Vec::new();
        if !ends_in_newline {
            // An earlier writer was cut off mid-line: leave its fragment on a
            // line of its own, where reading skips it.
            line.push(b'\n');
        }
        let numbered = Record {
            number,
            ..record.clone()
        };
        serde_json::to_writer(&mut line, &numbered).map_err(|e| self.io(io::Error::other(e)))?;
        line.push(b'\n');
        let written = file.write_all(&line).and_then(|()| file.sync_data());
        if let Err(e) = written {
            // A full disk must not leave half a record: cut back to where we began.
            let _ = file.set_len(length);
            return Err(self.io(e));
        }
        Ok(number)
    }

    /// Reads the log a record at a time, in the order appended. Damaged
    /// lines are counted, not returned. A missing file reads as empty.
    pub fn stream(&self) -> Result<Records, LogError> {
        if !self.check_regular()? {
            return Ok(Records {
                lines: None,
                damaged: 0,
                path: self.path.clone(),
            });
        }
        // No lock: a reader held up by a slow pipe (a pager) must never keep
        // a finished game out. An appender writes whole lines, and a last
        // line without its newline that is no record yet is skipped.
        let file = File::open(&self.path).map_err(|e| self.io(e))?;
        Ok(Records {
            lines: Some(BufReader::new(file)),
            damaged: 0,
            path: self.path.clone(),
        })
    }
}

/// The largest number the end of the log has used, and whether the file
/// ends in a newline. It reads back from the end only as far as the last
/// good record, and at least the last 64 KiB, in blocks: a damaged end of
/// any size costs time but no memory. Damaged lines after the last good
/// record count as numbers used, since one may have held a number; the
/// largest number in the last 64 KiB counts too, for a log edited by hand.
fn tail(file: &mut File, length: u64) -> io::Result<(Option<u64>, bool)> {
    if length == 0 {
        return Ok((None, true));
    }
    file.seek(SeekFrom::Start(length - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    let ends_in_newline = last[0] == b'\n';
    let mut lines = Backwards::new(file, length);
    let mut damaged: u64 = 0;
    let mut found: Option<u64> = None;
    let mut largest: Option<u64> = None;
    while let Some(line) = lines.next_line()? {
        let number = match &line {
            Some(line) if is_blank(line) => continue,
            Some(line) => number_of(line),
            None => None,
        };
        match (number, found) {
            (Some(n), None) => {
                found = Some(n.saturating_add(damaged));
                largest = Some(n);
            }
            (Some(n), Some(_)) => largest = largest.max(Some(n)),
            (None, None) => damaged += 1,
            (None, Some(_)) => {}
        }
        if found.is_some() && length - lines.position() >= TAIL_WINDOW {
            break;
        }
    }
    let used = match (found, largest) {
        (Some(n), largest) => Some(n.max(largest.unwrap_or(0))),
        (None, _) => (damaged > 0).then_some(damaged),
    };
    Ok((used, ends_in_newline))
}

/// How much of the log's end an append reads at least.
const TAIL_WINDOW: u64 = 64 * 1024;

/// Whether a line holds nothing but a byte order mark and white space.
fn is_blank(line: &[u8]) -> bool {
    line.strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(line)
        .trim_ascii()
        .is_empty()
}

/// The lines of a file from the last to the first, read in blocks. A line
/// longer than [`MAX_RECORD`] comes out as `None`, without being kept.
struct Backwards<'a> {
    file: &'a mut File,
    /// Where the bytes not yet read end.
    unread: u64,
    /// The end of a line whose start is not read yet.
    carry: Vec<u8>,
    /// The line being read is longer than a record may be.
    long: bool,
    done: bool,
}

impl<'a> Backwards<'a> {
    fn new(file: &'a mut File, length: u64) -> Backwards<'a> {
        Backwards {
            file,
            unread: length,
            carry: Vec::new(),
            long: false,
            done: false,
        }
    }

    /// How far from the start of the file reading has come.
    fn position(&self) -> u64 {
        self.unread
    }

    fn next_line(&mut self) -> io::Result<Option<Option<Vec<u8>>>> {
        const BLOCK: u64 = 64 * 1024;
        loop {
            if let Some(i) = self.carry.iter().rposition(|&b| b == b'\n') {
                let line = self.carry.split_off(i + 1);
                self.carry.truncate(i);
                return Ok(Some((!std::mem::take(&mut self.long)).then_some(line)));
            }
            if self.unread == 0 {
                if self.done {
                    return Ok(None);
                }
                self.done = true;
                let line = std::mem::take(&mut self.carry);
                return Ok(Some((!std::mem::take(&mut self.long)).then_some(line)));
            }
            let size = self.unread.min(BLOCK);
            self.unread -= size;
            self.file.seek(SeekFrom::Start(self.unread))?;
            let mut block = vec![0; size as usize];
            self.file.read_exact(&mut block)?;
            block.extend_from_slice(&self.carry);
            self.carry = block;
            if self.carry.len() > MAX_RECORD && !self.carry.contains(&b'\n') {
                // All of it belongs to one line too long to be a record.
                self.long = true;
                self.carry.clear();
            }
        }
    }
}

/// Just a line's number: it still reads the lines other versions wrote.
fn number_of(line: &[u8]) -> Option<u64> {
    #[derive(Deserialize)]
    struct Numbered {
        number: u64,
    }
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    serde_json::from_slice::<Numbered>(line)
        .ok()
        .map(|n| n.number)
}

/// The records of a log, read as they are needed.
pub struct Records {
    lines: Option<BufReader<File>>,
    damaged: usize,
    path: PathBuf,
}

impl Records {
    /// How many lines so far were not a record.
    pub fn damaged(&self) -> usize {
        self.damaged
    }

    /// The next record, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<Record>, LogError> {
        let Some(lines) = self.lines.as_mut() else {
            return Ok(None);
        };
        loop {
            let line =
                read_line(lines, MAX_RECORD).map_err(|e| LogError::Io(self.path.clone(), e))?;
            let Some((line, ended)) = line else {
                return Ok(None);
            };
            let Some(line) = line else {
                self.damaged += 1;
                continue;
            };
            if is_blank(&line) {
                continue;
            }
            match parse_record(&line) {
                Some(record) => return Ok(Some(record)),
                // Being written right now, or cut off: its newline will tell.
                None if !ended => return Ok(None),
                None => self.damaged += 1,
            }
        }
    }
}

/// One line without its newline, and whether it had one: `None` at the end
/// of the file; the line is `None` when longer than `cap`, and then skipped
/// without being kept.
type Line = Option<(Option<Vec<u8>>, bool)>;

fn read_line(input: &mut impl BufRead, cap: usize) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut too_long = false;
    let mut started = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(started.then(|| ((!too_long).then_some(kept), false)));
        }
        started = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let piece = &buf[..newline.unwrap_or(buf.len())];
        if !too_long {
            if kept.len() + piece.len() > cap {
                too_long = true;
                kept = Vec::new();
            } else {
                kept.extend_from_slice(piece);
            }
        }
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(((!too_long).then_some(kept), true)));
        }
    }
}

/// Where finished games go during a session, and the warnings when they cannot.
#[derive(Clone, Debug, Default)]
pub struct Keeper {
    log: Option<Log>,
}

impl Keeper {
    /// Keeps games in `log`, or nowhere.
    pub fn new(log: Option<Log>) -> Keeper {
        Keeper { log }
    }

    /// The log, if games are kept.
    pub fn log(&self) -> Option<&Log> {
        self.log.as_ref()
    }

    /// Keeps a finished game. A failure is a warning; play goes on, and the
    /// next game tries again.
    pub fn keep(&self, record: &Record) {
        let Some(log) = &self.log else { return };
        // A signal that ends the session waits for this game to be kept, or
        // said lost: the wait for another program's lock is bounded.
        let _writing = signals::writing();
        let mut waiting = || {
            warn(&format!(
                "waiting for another program to let go of {}",
                safe::text(&log.path().display().to_string())
            ))
        };
        if let Err(e) = log.append(record, &mut waiting) {
            warn(&format!("this game was not kept: {e}"));
        }
    }
}

/// A warning on standard error.
pub fn warn(text: &str) {
    let _ = writeln!(io::stderr(), "tallyho: warning: {text}");
}

/// The one warning about damaged lines in the game log.
pub fn damaged_lines(count: usize, path: &Path) -> String {
    let lines = if count == 1 { "line" } else { "lines" };
    format!(
        "skipped {count} damaged {lines} in {}",
        safe::text(&path.display().to_string())
    )
}

/// The columns of the history table.
const HEADER: [&str; 7] = ["No.", "Date", "Game", "First", "Second", "Winner", "Plies"];
/// The numbers are right-aligned, the words left-aligned.
const RIGHT: [bool; 7] = [true, false, false, false, false, false, true];
/// The widest a column grows, in terminal columns; longer cells are cut.
const MAX_WIDTH: [usize; 7] = [20, 16, 14, 34, 34, 22, 6];

/// One record as the cells of a table row, safe for a terminal.
fn row(record: &Record) -> [String; 7] {
    let seat = |i: usize| record.seats.get(i).map_or_else(String::new, Seat::display);
    let game = if record.flow == "default" {
        record.game.clone()
    } else {
        format!("{} {}", record.game, record.flow)
    };
    let winner = match (&record.outcome.winner, record.winning_seat()) {
        (None, _) => "draw".to_string(),
        (Some(_), Some(seat)) if !seat.name.is_empty() => seat.name.clone(),
        (Some(_), Some(_)) => "Computer".to_string(),
        (Some(side), _) => side.clone(),
    };
    [
        record.number.to_string(),
        short_date(&record.date),
        game,
        seat(0),
        seat(1),
        winner,
        record.plies.to_string(),
    ]
    .map(|cell| safe::text(&cell))
}

/// Column widths for the history table, grown by each row.
#[derive(Clone, Debug)]
pub struct Widths([usize; 7]);

impl Default for Widths {
    fn default() -> Widths {
        Widths(HEADER.map(safe::width))
    }
}

impl Widths {
    /// Makes room for a record's cells, up to each column's limit.
    pub fn fit(&mut self, record: &Record) {
        for (i, cell) in row(record).iter().enumerate() {
            self.0[i] = self.0[i].max(safe::width(cell).min(MAX_WIDTH[i]));
        }
    }

    /// Narrows the name columns, widest first, until a row fits `columns`
    /// (or they are all down to 8).
    pub fn fit_within(&mut self, columns: usize) {
        const NAMES: [usize; 4] = [2, 3, 4, 5];
        let total = |w: &[usize; 7]| w.iter().sum::<usize>() + 2 * (w.len() - 1);
        while total(&self.0) > columns {
            let Some(&widest) = NAMES
                .iter()
                .filter(|&&i| self.0[i] > 8)
                .max_by_key(|&&i| self.0[i])
            else {
                return;
            };
            self.0[widest] -= 1;
        }
    }

    fn line(&self, cells: &[String; 7]) -> String {
        let cells: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, cell)| safe::pad(cell, self.0[i], RIGHT[i]))
            .collect();
        cells.join("  ").trim_end().to_string()
    }

    /// The header line.
    pub fn header(&self) -> String {
        self.line(&HEADER.map(String::from))
    }

    /// A record's line.
    pub fn row(&self, record: &Record) -> String {
        self.line(&row(record))
    }
}

/// `2026-11-23T02:11:11Z` as `2026-11-23 02:11`; anything else as it is.
fn short_date(date: &str) -> String {
    let b = date.as_bytes();
    if date.is_ascii() && b.len() >= 16 && b[10] == b'T' {
        format!("{} {}", &date[..10], &date[11..16])
    } else {
        date.to_string()
    }
}

/// Writes the history table of a log: two passes, one to size the columns
/// and one to write the rows, so no record is held in memory. Returns the
/// number of damaged lines. With `columns`, the name columns are cut so a
/// row fits a terminal that wide.
pub fn write_table(
    log: &Log,
    out: &mut dyn Write,
    columns: Option<usize>,
) -> Result<usize, TableError> {
    let mut widths = Widths::default();
    let mut records = log.stream()?;
    let mut any = false;
    while let Some(record) = records.next_record()? {
        widths.fit(&record);
        any = true;
    }
    if let Some(columns) = columns {
        widths.fit_within(columns);
    }
    if !any {
        writeln!(out, "No games yet.")?;
        return Ok(records.damaged());
    }
    writeln!(out, "{}", widths.header())?;
    let mut records = log.stream()?;
    while let Some(record) = records.next_record()? {
        writeln!(out, "{}", widths.row(&record))?;
    }
    Ok(records.damaged())
}

/// Why a table or listing stopped.
#[derive(Debug)]
pub enum TableError {
    /// The log could not be read.
    Log(LogError),
    /// The output went away.
    Out(io::Error),
}

impl From<LogError> for TableError {
    fn from(e: LogError) -> TableError {
        TableError::Log(e)
    }
}

impl From<io::Error> for TableError {
    fn from(e: io::Error) -> TableError {
        TableError::Out(e)
    }
}

/// The history table for the menu, with any trouble said in a sentence.
pub fn show_in_menu(console: &mut Console, keeper: &Keeper) -> io::Result<()> {
    let Some(log) = keeper.log() else {
        return console.say("The game history is off (--no-history).");
    };
    let mut table = Vec::new();
    match write_table(log, &mut table, Some(console.width())) {
        Ok(damaged) => {
            if damaged > 0 {
                console.say(&format!("Warning: {}.", damaged_lines(damaged, log.path())))?;
            }
            console.write(&String::from_utf8_lossy(&table))
        }
        Err(TableError::Log(e)) => console.say(&format!("The game history cannot be read: {e}.")),
        Err(TableError::Out(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_dates() {
        assert_eq!(short_date("2026-11-23T02:11:11Z"), "2026-11-23 02:11");
        assert_eq!(short_date("yesterday"), "yesterday");
        assert_eq!(short_date(""), "");
    }

    #[test]
    fn lines_longer_than_the_cap_are_skipped_whole() {
        let mut input = io::Cursor::new(b"abc\nxxxxxxxxxx\nde".to_vec());
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            Some((Some(b"abc".to_vec()), true))
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), Some((None, true)));
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            Some((Some(b"de".to_vec()), false))
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), None);
    }
}
