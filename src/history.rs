//! The game log on disk: one JSON record per finished game, appended to a
//! JSON-lines file that tallyho never rewrites.
//!
//! Several tallyho processes may share one log. Each append takes an
//! exclusive lock on the file, numbers its record from what is already there
//! and writes the whole line at once, so records never interleave and numbers
//! never repeat. Nothing here prints: errors go back to the caller, which
//! warns once and lets play go on.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::games::fox::Game;

/// One side's player: a name, and for a computer player its level.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The name shown at the table.
    pub name: String,
    /// `Some(level name)` for a computer player, `None` for a person.
    pub computer: Option<String>,
}

impl Player {
    /// A person at the terminal.
    pub fn human(name: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            computer: None,
        }
    }

    /// A computer player at `level`.
    pub fn computer(name: impl Into<String>, level: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            computer: Some(level.into()),
        }
    }

    /// The name as the table shows it: a computer player gets its level,
    /// `Computer (cunning)` when it has no name of its own.
    pub fn display(&self) -> String {
        match (&self.computer, self.name.is_empty()) {
            (None, _) => self.name.clone(),
            (Some(level), true) => format!("Computer ({level})"),
            (Some(level), false) => format!("{} ({level})", self.name),
        }
    }
}

/// One finished game, as one line of the log.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's number in the log, from 1; 0 until appended.
    pub number: u64,
    /// When the game ended, UTC, ISO 8601: `2026-11-23T02:11:11Z`.
    pub date: String,
    /// The flow it was played in: `default` or `classic`.
    pub flow: String,
    /// The board size, like `8x8`.
    pub board: String,
    /// The rule set, like `coursework`.
    pub rules: String,
    /// Who played the fox.
    pub fox: Player,
    /// Who played the hounds.
    pub hounds: Player,
    /// The winning side: `fox` or `hounds`.
    pub winner: String,
    /// How the game ended, like `fox-trapped` (see [`crate::games::fox::Ending::name`]).
    pub ending: String,
    /// How many moves (plies) were played.
    pub plies: u32,
    /// The start position in notation, like `A8/B1,D1,F1,H1/fox`.
    pub start: String,
    /// Every move, like `A8-B7`.
    pub moves: Vec<String>,
    /// The computer players' seed, if one was given.
    pub seed: Option<u64>,
}

impl Record {
    /// The record of a finished game; `None` if the game has not ended.
    /// Its number is 0 until [`Log::append`] assigns one.
    pub fn from_game(
        flow: &str,
        game: &Game,
        fox: Player,
        hounds: Player,
        seed: Option<u64>,
        date: String,
    ) -> Option<Record> {
        let ending = game.ending()?;
        let start = game.start();
        Some(Record {
            number: 0,
            date,
            flow: flow.to_string(),
            board: start.board().to_string(),
            rules: game.rules().name().to_string(),
            fox,
            hounds,
            winner: ending.winner().name().to_string(),
            ending: ending.name().to_string(),
            plies: u32::try_from(game.moves().len()).unwrap_or(u32::MAX),
            start: start.notation(),
            moves: game.moves().iter().map(|m| m.to_string()).collect(),
            seed,
        })
    }

    /// The winning side's player, if `winner` names a side.
    pub fn winning_player(&self) -> Option<&Player> {
        match self.winner.as_str() {
            "fox" => Some(&self.fox),
            "hounds" => Some(&self.hounds),
            _ => None,
        }
    }
}

/// Now, UTC, ISO 8601 to the second: `2026-11-23T02:11:11Z`.
pub fn utc_now() -> String {
    let seconds = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        // A clock set before 1970: still a valid, if odd, date.
        Err(before) => -i64::try_from(before.duration().as_secs()).unwrap_or(i64::MAX),
    };
    format_utc(seconds)
}

/// Seconds since 1970-01-01T00:00:00Z as ISO 8601 UTC: `1970-01-01T00:00:00Z`.
pub fn format_utc(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    let second_of_day = unix_seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01, after Howard
/// Hinnant's `civil_from_days` (<https://howardhinnant.github.io/date_algorithms.html>).
/// Years run March to February inside the algorithm so the leap day comes last.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of the 400-year era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of the March year, [0, 365]
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// What reading the log found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The records, in the order they were appended (newest last).
    pub records: Vec<Record>,
    /// Lines that were not a record: corrupt, or cut off mid-write.
    pub skipped: usize,
}

/// The game log: a JSON-lines file, one record per finished game.
#[derive(Clone, Debug)]
pub struct Log {
    path: PathBuf,
}

impl Log {
    /// The log at `path`; nothing is touched until it is read or appended to.
    pub fn new(path: PathBuf) -> Log {
        Log { path }
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

    /// Appends `record` under the next number, which it returns; the
    /// record's own `number` is ignored. Creates the file and its folders.
    pub fn append(&self, record: &Record) -> io::Result<u64> {
        if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&self.path)?;
        // Held until `file` drops: other appenders wait, so each numbers its
        // record from a log that already holds every earlier one.
        file.lock()?;
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut bytes)?;

        let number = next_number(&bytes);
        let mut line = Vec::new();
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            // An earlier writer was cut off mid-line: leave its fragment on a
            // line of its own, where reading skips it.
            line.push(b'\n');
        }
        let numbered = Record {
            number,
            ..record.clone()
        };
        serde_json::to_writer(&mut line, &numbered).map_err(io::Error::other)?;
        line.push(b'\n');
        file.write_all(&line)?;
        file.flush()?;
        file.sync_data()?;
        Ok(number)
    }

    /// Every record in the log, skipping lines that are not one.
    /// A missing file reads as an empty log.
    pub fn read(&self) -> io::Result<Reading> {
        let mut file = match File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Reading::default()),
            Err(e) => return Err(e),
        };
        // Shared: readers never see an appender's line half written.
        file.lock_shared()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(parse(&bytes))
    }
}

/// The lines of a log that hold anything but whitespace.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|line| !line.trim_ascii().is_empty())
}

/// Reads every line that is a record; counts the rest.
fn parse(bytes: &[u8]) -> Reading {
    let mut reading = Reading::default();
    for line in lines(bytes) {
        match serde_json::from_slice::<Record>(line) {
            Ok(record) => reading.records.push(record),
            Err(_) => reading.skipped += 1,
        }
    }
    reading
}

/// Just a line's number: cheaper than a whole record, and it still reads
/// the numbers of lines some other version of tallyho wrote.
#[derive(Deserialize)]
struct Numbered {
    number: u64,
}

/// The number after every one the log has used: past the largest valid
/// number, and past the count of lines, in case a corrupt line held the largest.
fn next_number(bytes: &[u8]) -> u64 {
    let mut largest = 0;
    let mut count = 0;
    for line in lines(bytes) {
        count += 1;
        if let Ok(Numbered { number }) = serde_json::from_slice(line) {
            largest = largest.max(number);
        }
    }
    largest.max(count).saturating_add(1)
}

/// The records as an aligned table, in the order given (newest last), or
/// `No games yet.` for none. Lines are joined by `\n`, with none at the end.
pub fn table(records: &[Record]) -> String {
    if records.is_empty() {
        return "No games yet.".to_string();
    }
    const HEADER: [&str; 6] = ["No.", "Date", "Fox", "Hounds", "Winner", "Plies"];
    // The numbers are right-aligned, the words left-aligned.
    const RIGHT: [bool; 6] = [true, false, false, false, false, true];
    let rows: Vec<[String; 6]> = records
        .iter()
        .map(|r| {
            [
                r.number.to_string(),
                short_date(&r.date),
                r.fox.display(),
                r.hounds.display(),
                r.winning_player()
                    .map_or_else(|| r.winner.clone(), Player::display),
                r.plies.to_string(),
            ]
        })
        .collect();
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let header = HEADER.map(String::from);
    std::iter::once(&header)
        .chain(&rows)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .zip(RIGHT)
                .map(|((cell, width), right)| {
                    if right {
                        format!("{cell:>width$}")
                    } else {
                        format!("{cell:<width$}")
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_from_days_on_known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn civil_from_days_counts_every_day_in_order() {
        // Walking day by day from 1600 to the end of 2400 crosses every kind of leap year.
        let leap = |y: i64| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let month_len = |y: i64, m: u32| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut expected = (1600, 1, 1);
        for days in -135_140..=157_419 {
            assert_eq!(civil_from_days(days), expected, "day {days}");
            let (y, m, d) = expected;
            expected = if d < month_len(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn numbering_counts_corrupt_lines() {
        let good = |n| {
            let mut record = serde_json::to_string(&Record {
                number: n,
                date: String::new(),
                flow: String::new(),
                board: String::new(),
                rules: String::new(),
                fox: Player::human("a"),
                hounds: Player::human("b"),
                winner: String::new(),
                ending: String::new(),
                plies: 0,
                start: String::new(),
                moves: vec![],
                seed: None,
            })
            .unwrap();
            record.push('\n');
            record
        };
        assert_eq!(next_number(b""), 1);
        assert_eq!(next_number(good(1).as_bytes()), 2);
        // The corrupt last line may have been number 2.
        assert_eq!(next_number(format!("{}{{\"numb", good(1)).as_bytes()), 3);
        // A gap left by a corrupt line is never refilled.
        assert_eq!(
            next_number(format!("{}\n\n{}", good(1), good(7)).as_bytes()),
            8
        );
        assert_eq!(next_number(b"\xff\xfe\ngarbage\n"), 3);
    }

    #[test]
    fn short_dates() {
        assert_eq!(short_date("2026-11-23T02:11:11Z"), "2026-11-23 02:11");
        assert_eq!(short_date("yesterday"), "yesterday");
        assert_eq!(short_date(""), "");
    }
}
