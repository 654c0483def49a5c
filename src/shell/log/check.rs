//! What reading a log notices in records that do read: a game number an
//! earlier line already used, a date no calendar has. Each is said on a
//! line of its own, the first few only, so a log of any size gives a few
//! lines at most; reading goes on past them.

use std::collections::BTreeMap;

use crate::shell::safe;

/// The most problems said one by one; the rest are counted.
pub const MAX_SAID: usize = 10;

/// The most runs of consecutive numbers kept to find a repeated one: a log
/// appended by tallyho is one run, with a gap wherever damaged lines took
/// numbers. Past this many (under 1 MB), repeats are no longer looked for.
const MAX_RUNS: usize = 16_384;

/// The widest a date is quoted, in columns.
const DATE_WIDTH: usize = 40;

/// A problem with a record that reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// The record on `line` has the number of an earlier line's.
    Repeated {
        /// The number.
        number: u64,
        /// Its line in the log, from 1.
        line: usize,
    },
    /// The record on `line` has a date that cannot be.
    Date {
        /// The record's number.
        number: u64,
        /// Its line in the log, from 1.
        line: usize,
        /// The date, safe for a terminal and cut.
        date: String,
        /// What is wrong with it.
        why: String,
    },
}

impl Doubt {
    /// The problem in a sentence naming the log, `path` as shown.
    pub fn say(&self, path: &str) -> String {
        match self {
            Doubt::Repeated { number, line } => format!(
                "line {line} of {path} is numbered {number}, as an earlier game is: \
                 replay {number} shows the first"
            ),
            Doubt::Date {
                number,
                line,
                date,
                why,
            } => format!("game {number} (line {line} of {path}) is dated \"{date}\": {why}"),
        }
    }
}

/// The problems a reading met: the first [`MAX_SAID`], and how many more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doubts {
    said: Vec<Doubt>,
    more: usize,
    /// The line after which repeats were no longer looked for, if any.
    unchecked_after: Option<usize>,
}

impl Doubts {
    /// Keeps `doubt`, or counts it once [`MAX_SAID`] are kept.
    pub fn push(&mut self, doubt: Doubt) {
        if self.said.len() < MAX_SAID {
            self.said.push(doubt);
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    /// Whether nothing was met.
    pub fn is_empty(&self) -> bool {
        self.said.is_empty() && self.unchecked_after.is_none()
    }

    /// One line a problem, then one for the rest, naming the log.
    pub fn warnings(&self, path: &str) -> Vec<String> {
        let mut lines: Vec<String> = self.said.iter().map(|d| d.say(path)).collect();
        if self.more > 0 {
            let (more, are) = match self.more {
                1 => ("1 more problem".to_string(), "is"),
                n => (format!("{n} more problems"), "are"),
            };
            lines.push(format!(
                "{more} of these kinds (a number used before, a date that cannot be) in {path} {are} not listed"
            ));
        }
        if let Some(line) = self.unchecked_after {
            lines.push(format!(
                "the game numbers in {path} after line {line} were not checked for repeats: \
                 they leave too many gaps to keep track of"
            ));
        }
        lines
    }
}

/// The game numbers read so far, as runs of consecutive numbers, and the
/// problems met.
#[derive(Debug, Default)]
pub(super) struct Checker {
    /// Each run's first number and its last.
    runs: BTreeMap<u64, u64>,
    pub(super) doubts: Doubts,
}

impl Checker {
    /// Looks at the record numbered `number` dated `date` on `line`.
    pub(super) fn check(&mut self, number: u64, date: &str, line: usize) {
        if let Some(why) = date_problem(date) {
            let date = safe::text_cut(date, DATE_WIDTH);
            self.doubts.push(Doubt::Date {
                number,
                line,
                date,
                why,
            });
        }
        if self.doubts.unchecked_after.is_some() {
            return;
        }
        match self.insert(number) {
            Some(true) => {}
            Some(false) => self.doubts.push(Doubt::Repeated { number, line }),
            None => self.doubts.unchecked_after = Some(line.saturating_sub(1)),
        }
    }

    /// Adds `n`: whether it is new (`false`: met before), or `None` where
    /// it would take a run more than [`MAX_RUNS`].
    fn insert(&mut self, n: u64) -> Option<bool> {
        let before = self.runs.range(..=n).next_back().map(|(&s, &e)| (s, e));
        if let Some((_, end)) = before
            && n <= end
        {
            return Some(false);
        }
        // The run that starts just after `n` joins it.
        let after = n.checked_add(1).and_then(|m| self.runs.get(&m).copied());
        let joins_before = before.is_some_and(|(_, end)| end.checked_add(1) == Some(n));
        if !joins_before && after.is_none() && self.runs.len() >= MAX_RUNS {
            return None;
        }
        if after.is_some() {
            self.runs.remove(&(n + 1));
        }
        let end = after.unwrap_or(n);
        match before {
            Some((start, _)) if joins_before => self.runs.insert(start, end),
            _ => self.runs.insert(n, end),
        };
        Some(true)
    }
}

/// Why a log's date cannot be: `None` for a date as tallyho writes them
/// (`2026-11-23T02:11:11Z`) that a calendar has, and for nothing else.
pub fn date_problem(date: &str) -> Option<String> {
    let b = date.as_bytes();
    let shaped = b.len() == 20
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shaped {
        return Some("that is not a date as tallyho writes them, like 2026-11-23T02:11:11Z".into());
    }
    let part = |from: usize, to: usize| date[from..to].parse::<u32>().unwrap_or(0);
    let (year, month, day) = (part(0, 4), part(5, 7), part(8, 10));
    let (hour, minute, second) = (part(11, 13), part(14, 16), part(17, 19));
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    if !(1..=12).contains(&month) {
        return Some(format!("there is no month {month}: months are 01-12"));
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let name = MONTHS[month as usize - 1];
    if !(1..=days).contains(&day) {
        return Some(format!("{name} {year} has days 01-{days}, not {day:02}"));
    }
    if hour > 23 {
        return Some(format!("there is no hour {hour}: hours are 00-23"));
    }
    if minute > 59 {
        return Some(format!("there is no minute {minute}: minutes are 00-59"));
    }
    // 60: a leap second.
    if second > 60 {
        return Some(format!("there is no second {second}: seconds are 00-60"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_a_calendar_has_and_has_not() {
        for good in [
            "2026-11-23T02:11:11Z",
            "2024-02-29T00:00:00Z",
            "2000-02-29T23:59:60Z",
            "0000-01-01T00:00:00Z",
        ] {
            assert_eq!(date_problem(good), None, "{good}");
        }
        for (bad, why) in [
            (
                "2026-13-01T00:00:00Z",
                "there is no month 13: months are 01-12",
            ),
            (
                "2026-00-01T00:00:00Z",
                "there is no month 0: months are 01-12",
            ),
            (
                "2026-02-29T00:00:00Z",
                "February 2026 has days 01-28, not 29",
            ),
            (
                "1900-02-29T00:00:00Z",
                "February 1900 has days 01-28, not 29",
            ),
            ("2026-04-31T00:00:00Z", "April 2026 has days 01-30, not 31"),
            ("2026-04-00T00:00:00Z", "April 2026 has days 01-30, not 00"),
            (
                "2026-04-01T24:00:00Z",
                "there is no hour 24: hours are 00-23",
            ),
            (
                "2026-04-01T23:60:00Z",
                "there is no minute 60: minutes are 00-59",
            ),
            (
                "2026-04-01T23:59:61Z",
                "there is no second 61: seconds are 00-60",
            ),
            (
                "yesterday",
                "that is not a date as tallyho writes them, like 2026-11-23T02:11:11Z",
            ),
            (
                "2026-11-23T02:11:11",
                "that is not a date as tallyho writes them, like 2026-11-23T02:11:11Z",
            ),
            (
                "２026-11-23T02:11:11Z",
                "that is not a date as tallyho writes them, like 2026-11-23T02:11:11Z",
            ),
        ] {
            assert_eq!(date_problem(bad).as_deref(), Some(why), "{bad}");
        }
    }

    #[test]
    fn repeats_are_found_in_runs_of_any_order() {
        let mut seen = Checker::default();
        for n in [1, 2, 3, 5, 4, 10, 9, 11, u64::MAX, 0] {
            assert_eq!(seen.insert(n), Some(true), "{n}");
        }
        assert_eq!(
            seen.runs,
            BTreeMap::from([(0, 5), (9, 11), (u64::MAX, u64::MAX)])
        );
        for n in [0, 3, 5, 9, 11, u64::MAX] {
            assert_eq!(seen.insert(n), Some(false), "{n}");
        }
        assert_eq!(seen.insert(7), Some(true));
        assert_eq!(seen.insert(6), Some(true));
        assert_eq!(seen.insert(8), Some(true));
        assert_eq!(seen.runs, BTreeMap::from([(0, 11), (u64::MAX, u64::MAX)]));
    }

    #[test]
    fn too_many_gaps_stop_the_looking_for_repeats_not_the_reading() {
        let mut checker = Checker::default();
        for i in 0..MAX_RUNS as u64 + 5 {
            checker.check(2 * i + 1, "2026-11-23T02:11:11Z", i as usize + 1);
        }
        assert_eq!(checker.runs.len(), MAX_RUNS);
        assert_eq!(checker.doubts.unchecked_after, Some(MAX_RUNS));
        assert_eq!(
            checker.doubts.warnings("log").last().map(String::as_str),
            Some(
                "the game numbers in log after line 16384 were not checked for repeats: \
                 they leave too many gaps to keep track of"
            )
        );
    }

    #[test]
    fn a_million_problems_are_said_in_a_few_lines() {
        let mut checker = Checker::default();
        for line in 1..=1_000_000 {
            checker.check(1, "2026-13-01T00:00:00Z", line);
        }
        let said = checker.doubts.warnings("log");
        assert_eq!(said.len(), MAX_SAID + 1, "{said:#?}");
        assert_eq!(
            said[0],
            "game 1 (line 1 of log) is dated \"2026-13-01T00:00:00Z\": there is no month 13: months are 01-12"
        );
        assert_eq!(
            said[2],
            "line 2 of log is numbered 1, as an earlier game is: replay 1 shows the first"
        );
        assert_eq!(
            said[MAX_SAID],
            "1999989 more problems of these kinds (a number used before, a date that cannot be) in log are not listed"
        );
    }
}
