//! What the line editor does besides reading: Tab completion from the
//! question's answers, Ctrl-L, and showing the line being typed safely.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Cmd, ConditionalEventHandler, Context, Event, EventContext, Helper, RepeatCount};

use crate::shell::ask::is_format;
use crate::shell::safe;

/// Tab completion from the current question's answers. A multi-word answer
/// (a whole move, `D1 C2`) completes word by word: after `D1 `, Tab offers
/// the squares that follow D1.
#[derive(Default)]
pub(super) struct Answers {
    pub(super) candidates: Vec<String>,
}

impl Answers {
    /// The candidates' next words that agree with what was typed before `pos`,
    /// and where the word being completed starts.
    fn next_words(&self, line: &str, pos: usize) -> (usize, Vec<Pair>) {
        let before = &line[..pos];
        let start = before.rfind([' ', '-']).map_or(0, |i| i + 1);
        let done: Vec<String> = before[..start]
            .split([' ', '-'])
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let word = before[start..].to_ascii_lowercase();
        let mut found: Vec<Pair> = Vec::new();
        for candidate in &self.candidates {
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
        (start, found)
    }
}

impl Completer for Answers {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        Ok(self.next_words(line, pos))
    }
}

impl Hinter for Answers {
    type Hint = String;
}

/// Whether the line holds a character a terminal would obey rather than show.
fn unsafe_line(line: &str) -> bool {
    line.chars().any(|c| c.is_control() || is_format(c))
}

impl Highlighter for Answers {
    /// The line as typed, with pasted controls, bidirectional overrides and
    /// BEL shown escaped, never sent to the terminal. (The cursor may sit
    /// off by the escapes' width while such a line is on show; Enter refuses it.)
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if unsafe_line(line) {
            Cow::Owned(safe::text(line))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }

    fn highlight_char(&self, line: &str, _pos: usize, _kind: CmdKind) -> bool {
        unsafe_line(line)
    }
}

impl Validator for Answers {}

impl Helper for Answers {}

/// Ctrl-L: ends the line being read (keeping what was typed) so the console
/// can clear the screen and draw it again, board and all.
pub(super) struct Redraw {
    pub(super) typed: Arc<Mutex<Option<String>>>,
}

impl ConditionalEventHandler for Redraw {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        *self.typed.lock().unwrap_or_else(|e| e.into_inner()) = Some(ctx.line().to_string());
        Some(Cmd::Interrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_controls_are_shown_escaped() {
        let answers = Answers::default();
        let shown = answers.highlight("B7\u{9b}31m\u{202e}x\u{7}", 0);
        assert_eq!(shown, "B7\\u{9b}31m\\u{202e}x\\u{7}");
        assert!(!shown.chars().any(|c| c.is_control() || is_format(c)));
        assert_eq!(answers.highlight("D1 C2", 0), "D1 C2");
    }

    #[test]
    fn a_move_completes_word_by_word() {
        let answers = Answers {
            candidates: vec!["D1 C2".into(), "D1 E2".into(), "B1 A2".into()],
        };
        let words = |line: &str| -> Vec<String> {
            answers
                .next_words(line, line.len())
                .1
                .into_iter()
                .map(|p| p.replacement)
                .collect()
        };
        assert_eq!(words("d"), ["D1"]);
        assert_eq!(words("d1 "), ["C2", "E2"]);
        assert_eq!(words("b1-"), ["A2"]);
    }
}
