//! The conversations. Each flow talks only to the [`Console`] and the core.

use std::io;

use crate::console::{Console, Reply};
use crate::fox::Setup;

pub mod play;

/// What the command line settled before the conversation starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Board, rules, fox start and first mover.
    pub setup: Setup,
    /// How many human players; `None` asks on the menu.
    pub players: Option<u8>,
    /// Player 1 (starting as fox) and Player 2; `None` asks.
    pub names: Option<(String, String)>,
    /// Stop after this many games instead of asking to play again.
    pub games: Option<u32>,
    /// The seed for the computer players' randomness.
    pub seed: Option<u64>,
}

/// Asks until `parse` accepts the answer. `None` when the player has gone.
pub fn ask_until<T>(
    console: &mut Console,
    question: &str,
    answers: &[String],
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    loop {
        match console.ask(question, answers)? {
            Reply::End => return Ok(None),
            Reply::Bad(why) => console.say(&why.to_string())?,
            Reply::Line(line) => match parse(&line) {
                Ok(value) => return Ok(Some(value)),
                Err(why) => console.say(&capitalise(&why))?,
            },
        }
    }
}

/// An error message as a sentence: capital first letter, closing full stop.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}
