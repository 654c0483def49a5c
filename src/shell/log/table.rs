//! The history table: one row a game, columns sized to the log and cut to
//! the terminal, every cell safe for a terminal.

use std::io::{self, Write};

use super::record::{Record, Seat};
use super::store::{Keeper, Log, LogError, Skipped};
use crate::shell::console::Console;
use crate::shell::safe;

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
        // A server's game cut off: nobody drew it.
        (None, _) if record.outcome.how == "abandoned" => "nobody".to_string(),
        (None, _) => "draw".to_string(),
        (Some(_), Some(seat)) => seat.shown_name().to_string(),
        (Some(side), _) => side.clone(),
    };
    // A game of points says how many, the winner's first: `Ann 24-22`.
    let winner = match &record.outcome.score {
        Some(score) if record.outcome.winner.is_some() => {
            format!("{winner} {}", winner_first(score))
        }
        Some(score) => format!("{winner} {score}"),
        None => winner,
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

/// A finished game's result in words: `bob won (fox-trapped)`, `bob won
/// 24-19 (most-points)`, `a draw (agreed)`.
pub fn result_words(record: &Record) -> String {
    let score = record
        .outcome
        .score
        .as_deref()
        .map_or_else(String::new, |score| format!(" {}", winner_first(score)));
    match record.winning_seat() {
        Some(seat) => format!("{} won{score} ({})", seat.shown_name(), record.outcome.how),
        None if record.outcome.how == "abandoned" => format!("no winner{score} (abandoned)"),
        None => format!("a draw{score} ({})", record.outcome.how),
    }
}

/// A finished game on one line, as a server's `history` lists it: `2026-12-07
/// fox: ann (fox) against bob (hounds); bob won (fox-trapped), 24 plies`.
pub fn game_line(record: &Record) -> String {
    format!(
        "{} {}: {}; {}, {}",
        record.date.get(..10).unwrap_or(&record.date),
        record.game,
        seats_words(record),
        result_words(record),
        crate::shell::text::plies(record.plies)
    )
}

/// A finished game's players: `ann (fox) against bob (hounds)`.
pub fn seats_words(record: &Record) -> String {
    let seats: Vec<String> = record.seats.iter().map(Seat::display).collect();
    seats.join(" against ")
}

/// A score `a-b` with the larger number first, as a winner's is said;
/// anything else as it is.
fn winner_first(score: &str) -> String {
    let points = score
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)));
    match points {
        Some((a, b)) => format!("{}-{}", a.max(b), a.min(b)),
        None => score.to_string(),
    }
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

    /// The columns a row takes.
    fn total(&self) -> usize {
        self.0.iter().sum::<usize>() + 2 * (self.0.len() - 1)
    }

    /// Narrows the name columns, widest first, until a row fits `columns`
    /// (or they are all down to 8).
    pub fn fit_within(&mut self, columns: usize) {
        const NAMES: [usize; 4] = [2, 3, 4, 5];
        while self.total() > columns {
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

/// A record as a few short lines, for a screen too narrow for the table:
/// its number, date and game, then each player, then the winner and the
/// plies, every line cut to `columns`.
fn stacked(record: &Record, columns: usize) -> String {
    let [number, date, game, first, second, winner, plies] = row(record);
    // The points and the plies are kept whole: a long winner's name gives
    // way to them.
    let plies = format!(", {plies} {}", if plies == "1" { "ply" } else { "plies" });
    let (name, points) = match winner.rsplit_once(' ') {
        Some((name, points)) if record.outcome.score.is_some() => {
            (name.to_string(), format!(" {points}"))
        }
        _ => (winner, String::new()),
    };
    let label = "     Winner: ";
    let kept = safe::width(label) + safe::width(&points) + safe::width(&plies);
    let room = columns.saturating_sub(kept);
    let winner = if room >= 8 {
        format!("{}{points}", safe::cut(&name, room))
    } else {
        format!("{name}{points}")
    };
    [
        format!("{number:>3}  {date}  {game}"),
        format!("     First:  {first}"),
        format!("     Second: {second}"),
        format!("{label}{winner}{plies}"),
    ]
    .iter()
    .map(|line| safe::cut(line, columns))
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

/// Writes the history table of a log: two passes, one to size the columns
/// and one to write the rows, so no record is held in memory. Returns the
/// what the reading skipped or read with a caution. With `columns`, the
/// name columns are cut so a row fits a terminal that wide.
pub fn write_table(
    log: &Log,
    out: &mut dyn Write,
    columns: Option<usize>,
) -> Result<Skipped, TableError> {
    let mut widths = Widths::default();
    let mut records = log.stream()?;
    let mut any = false;
    while let Some(record) = records.next_record()? {
        widths.fit(&record);
        any = true;
    }
    // Too narrow for the table even with the names cut: a few lines a game.
    let narrow = columns.filter(|&c| {
        widths.fit_within(c);
        widths.total() > c
    });
    if !any {
        writeln!(out, "No games yet.")?;
        return Ok(records.skipped());
    }
    if narrow.is_none() {
        writeln!(out, "{}", widths.header())?;
    }
    let mut records = log.stream()?;
    while let Some(record) = records.next_record()? {
        match narrow {
            Some(columns) => writeln!(out, "{}", stacked(&record, columns))?,
            None => writeln!(out, "{}", widths.row(&record))?,
        }
    }
    Ok(records.skipped())
}

/// Why a table or listing stopped.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The log could not be read.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The output went away.
    #[error(transparent)]
    Out(#[from] io::Error),
}

/// The history table for the menu, with any trouble said in a sentence.
pub fn show_in_menu(console: &mut Console, keeper: &Keeper) -> io::Result<()> {
    let Some(log) = keeper.log() else {
        return console.say("The game history is off (--no-history).");
    };
    let mut table = Vec::new();
    match write_table(log, &mut table, Some(console.width())) {
        Ok(skipped) => {
            for warning in skipped.warnings(log.path()) {
                console.say(&format!("Warning: {warning}."))?;
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

    fn fish_game(winner: Option<&str>, score: Option<&str>) -> Record {
        let seat = |name: &str, side: &str| Seat {
            name: name.to_string(),
            side: side.to_string(),
            level: None,
        };
        Record {
            version: 2,
            number: 3,
            date: "2026-12-07T11:30:00Z".to_string(),
            game: "fish".to_string(),
            flow: "default".to_string(),
            setup: Default::default(),
            seats: vec![seat("ann", "A"), seat("bob", "B")],
            outcome: crate::shell::log::Ending {
                winner: winner.map(str::to_string),
                how: "most-points".to_string(),
                score: score.map(str::to_string),
            },
            plies: 28,
            start: String::new(),
            moves: Vec::new(),
            seed: None,
        }
    }

    #[test]
    fn a_game_on_one_line_says_its_score_winner_first() {
        assert_eq!(
            game_line(&fish_game(Some("B"), Some("19-24"))),
            "2026-12-07 fish: ann (A) against bob (B); bob won 24-19 (most-points), 28 plies"
        );
        assert_eq!(
            result_words(&fish_game(None, Some("20-20"))),
            "a draw 20-20 (most-points)"
        );
        assert_eq!(
            result_words(&fish_game(Some("A"), None)),
            "ann won (most-points)"
        );
    }
}
