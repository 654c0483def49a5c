//! What the line editor is told: Tab completion of the question's answers,
//! how a line is shown while typed (controls escaped), and Ctrl-L.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Cmd, ConditionalEventHandler, Context, Event, EventContext, Helper, RepeatCount};

/// Tab completion from the current question's answers. A multi-word answer
/// (a whole move, `D1 C2`) completes word by word: after `D1 `, Tab offers
/// the squares that follow D1.
#[derive(Default)]
pub(super) struct Answers {
    pub(super) candidates: Vec<String>,
}

impl Completer for Answers {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
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
        Ok((start, found))
    }
}

impl Hinter for Answers {
    type Hint = String;
}

impl Highlighter for Answers {
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
    pub(super) typed: Arc<Mutex<Option<String>>>,
}

impl ConditionalEventHandler for Redraw {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        *self.typed.lock().unwrap_or_else(|e| e.into_inner()) = Some(ctx.line().to_string());
        Some(Cmd::Interrupt)
    }
}
