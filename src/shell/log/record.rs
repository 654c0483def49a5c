//! The record format: one shape for every game, one JSON line per finished
//! game, and the reading of every version tallyho has written.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::games::{Game, Outcome, Rules};
use crate::shell::date::utc_now;

/// The record format this release writes.
pub const VERSION: u32 = 2;

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
    /// The player's name as every view of the log shows it: an empty one,
    /// or one of spaces (a record written by hand, or by another program),
    /// as `Computer`.
    pub fn shown_name(&self) -> &str {
        if self.name.trim().is_empty() {
            "Computer"
        } else {
            &self.name
        }
    }

    /// The seat as a table shows it: `Ann (fox)`, `SWTP (hounds, cunning)`.
    pub fn display(&self) -> String {
        let name = self.shown_name();
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
    /// The points each side ended with, for a game of points (`22-24`, the
    /// first side's first); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
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
    /// [`super::Log::append`] gives it one.
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
                score: rules.score(game.position()),
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

    /// The setup as the pairs [`Rules::from_setup`] reads.
    pub fn setup_pairs(&self) -> Vec<(&str, &str)> {
        self.setup
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
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
                score: None,
            },
            plies: old.plies,
            start: old.start,
            moves: old.moves,
            seed: old.seed,
        }
    }
}

/// A line without the byte order mark a text editor may have put first.
fn without_bom(line: &[u8]) -> &[u8] {
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

/// Reads one line of a log: a record of this release or the first. A line
/// that is neither gives the reason this release's reading stopped.
pub fn parse_record(line: &[u8]) -> Result<Record, String> {
    let line = without_bom(line);
    let why = match serde_json::from_slice::<Record>(line) {
        Ok(record) => return Ok(record),
        Err(e) => e.to_string(),
    };
    serde_json::from_slice::<RecordV1>(line)
        .map(Record::from)
        .map_err(|_| why)
}

/// Just a line's number: it still reads the lines other versions wrote.
pub(super) fn number_of(line: &[u8]) -> Option<u64> {
    #[derive(Deserialize)]
    struct Numbered {
        number: u64,
    }
    serde_json::from_slice::<Numbered>(without_bom(line))
        .ok()
        .map(|n| n.number)
}

/// The number a line claims, even when the line is no record (cut short,
/// a field of the wrong type): for saying what is wrong with game N.
pub(super) fn claimed_number(line: &[u8]) -> Option<u64> {
    number_of(line).or_else(|| {
        let text = String::from_utf8_lossy(without_bom(line));
        let at = text.find("\"number\":")? + "\"number\":".len();
        let digits: String = text[at..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    })
}

/// Whether a line holds nothing but a byte order mark and white space.
pub(super) fn is_blank(line: &[u8]) -> bool {
    without_bom(line).trim_ascii().is_empty()
}
