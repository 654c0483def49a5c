//! What the line editor is told: Tab completion of the question's answers,
//! how a line is shown while typed (controls escaped), and Ctrl-L.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{
    Cmd, ConditionalEventHandler, Context, Event, EventContext, Helper, KeyCode, KeyEvent,
    Modifiers, RepeatCount,
};

use crate::shell::ask::is_format;
use crate::shell::safe;

/// Whether a line holds a character a terminal would obey rather than show.
pub fn unsafe_line(line: &str) -> bool {
    line.chars().any(|c| c.is_control() || is_format(c))
}

/// A line as a line editor shows it while it is typed: with pasted
/// controls, bidirectional overrides, zero-width characters and BEL
/// escaped, never sent to the terminal.
pub fn shown_typed(line: &str) -> Cow<'_, str> {
    if unsafe_line(line) {
        Cow::Owned(safe::text(line))
    } else {
        Cow::Borrowed(line)
    }
}

/// Tab completion from the current question's answers. A multi-word answer
/// (a whole move, `D1 C2`) completes word by word: after `D1 `, Tab offers
/// the squares that follow D1. The answers' other spellings (`C3 D4` for
/// `11 15`) are offered only once something is typed, so that Tab on an
/// empty line lists each answer once, and after `C3 ` offers coordinates.
#[derive(Default)]
pub(super) struct Answers {
    pub(super) candidates: Vec<String>,
    pub(super) spellings: Vec<String>,
    /// Candidates and spellings not offered after a capture mark.
    pub(super) unmarked: Vec<String>,
}

/// `line` with each capture mark between squares (`2x11x`, `E1x`: an `x`
/// after a digit) read as a space, so that Tab goes on after it as after
/// `2 11 `. The length stays the same, so places in it are places in `line`.
fn marks_as_spaces(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut after_digit = false;
    for c in line.chars() {
        if after_digit && (c == 'x' || c == 'X') {
            out.push(' ');
        } else {
            out.push(c);
        }
        after_digit = c.is_ascii_digit();
    }
    out
}

impl Completer for Answers {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = marks_as_spaces(&line[..pos]);
        let before = before.as_str();
        let start = before.rfind([' ', '-']).map_or(0, |i| i + 1);
        let done: Vec<String> = before[..start]
            .split([' ', '-'])
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let word = before[start..].to_ascii_lowercase();
        // A dash before any square is a minus sign, not a joint (`-11`):
        // no answer goes on from it.
        if done.is_empty() && before[..start].contains('-') {
            return Ok((start, Vec::new()));
        }
        // A capture mark among the words done (`11x`) rules out the
        // answers that are no capture.
        let marked = line.as_bytes()[..start] != before.as_bytes()[..start];
        let mut found: Vec<Pair> = Vec::new();
        let spellings = if done.is_empty() && word.is_empty() {
            &[][..]
        } else {
            &self.spellings[..]
        };
        for candidate in self.candidates.iter().chain(spellings) {
            if marked && self.unmarked.contains(candidate) {
                continue;
            }
            let words: Vec<&str> = candidate.split(' ').collect();
            let Some(next) = words.get(done.len()) else {
                continue;
            };
            let agrees = words
                .iter()
                .zip(&done)
                .all(|(w, d)| w.eq_ignore_ascii_case(d));
            if agrees
                && next.to_ascii_lowercase().starts_with(&word)
                && !found.iter().any(|p| p.replacement == *next)
            {
                found.push(Pair {
                    display: next.to_string(),
                    replacement: next.to_string(),
                });
            }
        }
        // Offered in reading order: numbers by value, words as a dictionary
        // would list them (`B4 D4`, `9 13`).
        found.sort_by_cached_key(|p| {
            let n = p.replacement.parse::<u64>().ok();
            (n.is_none(), n, p.replacement.to_ascii_lowercase())
        });
        Ok((start, found))
    }
}

impl Hinter for Answers {
    type Hint = String;
}

impl Highlighter for Answers {
    /// The line as typed, with pasted controls, bidirectional overrides and
    /// BEL shown escaped, never sent to the terminal. While such a line is
    /// on show the cursor may sit short of its end, and a line long enough
    /// to wrap may be drawn again on rows below (rustyline lays the line
    /// out counting a control as no column, where its escape takes several);
    /// Enter refuses the line anyway.
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        shown_typed(line)
    }

    fn highlight_char(&self, line: &str, _pos: usize, _kind: CmdKind) -> bool {
        unsafe_line(line)
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for Answers {}

impl Helper for Answers {}

/// Ctrl-L: ends the line being read (keeping what was typed) so the console
/// can clear the screen and draw it again, board and all.
pub(super) struct Redraw {
    pub(super) typed: Arc<Mutex<Option<super::Typed>>>,
}

impl ConditionalEventHandler for Redraw {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        *self.typed.lock().unwrap_or_else(|e| e.into_inner()) = Some(super::Typed {
            line: ctx.line().to_string(),
            cursor: ctx.pos(),
        });
        Some(Cmd::Interrupt)
    }
}

/// Keys typed past the longest line the editor holds: counted, not kept.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Overflow {
    /// The bytes of the keys dropped.
    pub(super) dropped: usize,
    /// The line's length when they were dropped: a line shorter than that
    /// has been edited since, and they are no longer part of it.
    pub(super) at: usize,
}

impl Overflow {
    /// The whole length of `line` as typed: with the keys dropped, unless
    /// the line was edited shorter since.
    pub(super) fn length_of(&self, line: &str) -> usize {
        if line.len() >= self.at {
            line.len() + self.dropped
        } else {
            line.len()
        }
    }
}

/// A key typed while the line holds `most` bytes is dropped and counted,
/// not put in the line: the editor draws a line anew for each key past a
/// row's end, so a long paste would take minutes, and the line is refused
/// at Enter anyway. Once one is dropped, every key typed after it is too,
/// until the line is edited shorter (Backspace, Ctrl-U): a narrower key
/// that would still fit must not be put in after a gap the screen does not
/// show.
pub(super) struct Capped {
    pub(super) overflow: Arc<Mutex<Overflow>>,
    pub(super) most: usize,
}

impl ConditionalEventHandler for Capped {
    fn handle(&self, event: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        let Some(KeyEvent(KeyCode::Char(c), Modifiers::NONE | Modifiers::SHIFT)) = event.get(0)
        else {
            return None;
        };
        let len = ctx.line().len();
        let mut overflow = self.overflow.lock().unwrap_or_else(|e| e.into_inner());
        if overflow.dropped > 0 && len < overflow.at {
            *overflow = Overflow::default();
        }
        if overflow.dropped == 0 && len + c.len_utf8() <= self.most {
            return None;
        }
        overflow.dropped += c.len_utf8();
        overflow.at = len;
        Some(Cmd::Noop)
    }
}

/// Ctrl-\\: the line editor holds the terminal raw, so the key reaches it
/// as a key and not as SIGQUIT. It raises SIGQUIT, so the session ends as
/// the signal ends it anywhere else (status 131), with a line editor or
/// without one.
pub struct Quit;

impl ConditionalEventHandler for Quit {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, _: &EventContext) -> Option<Cmd> {
        let _ = signal_hook::low_level::raise(signal_hook::consts::SIGQUIT);
        // The signal's thread ends the process: this one says nothing more
        // meanwhile (a farewell of its own would come twice). Should the
        // signal not be caught after all, the line is read on.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            std::thread::park_timeout(left);
        }
        Some(Cmd::Noop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Tab offers after `line`.
    fn offered(answers: &Answers, line: &str) -> Vec<String> {
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let (_, found) = answers.complete(line, line.len(), &ctx).unwrap();
        found.into_iter().map(|p| p.replacement).collect()
    }

    #[test]
    fn other_spellings_complete_once_something_is_typed() {
        let answers = Answers {
            candidates: ["12", "11", "9", "11 16", "11 15", "12 16", "help"]
                .map(String::from)
                .to_vec(),
            spellings: ["C3 D4", "C3 B4", "A3 B4"].map(String::from).to_vec(),
            unmarked: Vec::new(),
        };
        assert_eq!(offered(&answers, ""), ["9", "11", "12", "help"]);
        assert_eq!(offered(&answers, "C3 "), ["B4", "D4"]);
        assert_eq!(offered(&answers, "c3 "), ["B4", "D4"]);
        assert_eq!(offered(&answers, "C"), ["C3"]);
        assert_eq!(offered(&answers, "11 "), ["15", "16"]);
        assert_eq!(offered(&answers, "11-"), ["15", "16"]);
        assert_eq!(offered(&answers, "A3 B"), ["B4"]);
        assert_eq!(offered(&answers, "11x"), ["15", "16"]);
        assert_eq!(offered(&answers, "C3x"), ["B4", "D4"]);
        assert_eq!(offered(&answers, "h"), ["help"]);
    }

    #[test]
    fn a_dash_before_any_square_is_no_joint() {
        let answers = Answers {
            candidates: ["11", "12", "11 15", "11 16"].map(String::from).to_vec(),
            spellings: ["C3 D4", "C3 B4"].map(String::from).to_vec(),
            unmarked: Vec::new(),
        };
        assert_eq!(offered(&answers, "-"), Vec::<String>::new());
        assert_eq!(offered(&answers, "-1"), Vec::<String>::new());
        assert_eq!(offered(&answers, " - "), Vec::<String>::new());
        assert_eq!(offered(&answers, "-C"), Vec::<String>::new());
        assert_eq!(offered(&answers, "11--"), ["15", "16"]);
    }

    #[test]
    fn a_capture_mark_rules_out_the_answers_that_are_no_capture() {
        let answers = Answers {
            candidates: ["11", "10", "11 15", "11 16", "10 17 26"]
                .map(String::from)
                .to_vec(),
            spellings: ["C3 D4", "E3 G5 E7"].map(String::from).to_vec(),
            unmarked: ["11 15", "11 16", "C3 D4"].map(String::from).to_vec(),
        };
        assert_eq!(offered(&answers, "11x"), Vec::<String>::new());
        assert_eq!(offered(&answers, "11 "), ["15", "16"]);
        assert_eq!(offered(&answers, "11-"), ["15", "16"]);
        assert_eq!(offered(&answers, "10x"), ["17"]);
        assert_eq!(offered(&answers, "10x17x"), ["26"]);
        assert_eq!(offered(&answers, "C3x"), Vec::<String>::new());
        assert_eq!(offered(&answers, "E3x"), ["G5"]);
    }

    #[test]
    fn pasted_controls_are_shown_escaped() {
        let answers = Answers::default();
        let shown = answers.highlight("B7\u{9b}31m\u{202e}x\u{7}", 0);
        assert_eq!(shown, "B7\\u{9b}31m\\u{202e}x\\u{7}");
        assert!(!unsafe_line(&shown));
        assert_eq!(answers.highlight("D1 C2", 0), "D1 C2");
    }
}
