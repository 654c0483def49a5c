//! The conversations. Each flow talks only to the [`Console`] and the core.

use std::cell::Cell;
use std::io::{self, Write};

use crate::console::{Console, Reply};
use crate::games::fox::players::Level;
use crate::games::fox::{Game, Setup, Side};
use crate::history::{self, Log, Player, Record};

pub mod classic;
pub mod play;

/// What the command line settled before the conversation starts.
#[derive(Debug, Default)]
pub struct Options {
    /// Board, rules, fox start and first mover.
    pub setup: Setup,
    /// How many human players; `None` asks on the menu.
    pub players: Option<u8>,
    /// Names given on the command line, Player 1 (starting as fox) first.
    pub names: Vec<String>,
    /// Stop after this many games instead of asking to play again.
    pub games: Option<u32>,
    /// The seed of every computer player's randomness.
    pub seed: u64,
    /// The computer's level; `None` asks (default flow) or plays classic (1978 flow).
    pub level: Option<Level>,
    /// Levels for the first game's fox and hounds when the computer plays itself.
    pub fox_level: Option<Level>,
    /// See `fox_level`.
    pub hounds_level: Option<Level>,
    /// The human's side in the first game against the computer.
    pub side: Option<Side>,
    /// Pause before each computer move, in milliseconds.
    pub delay_ms: u64,
    /// Where finished games are kept; `None` keeps nothing.
    pub history: Option<Log>,
    /// Whether the history warning has been given (it is given once).
    pub warned: Cell<bool>,
}

/// Keeps a finished game in the log. A failure is one warning; play goes on.
pub fn record_game(
    options: &Options,
    flow: &str,
    game: &Game,
    fox: Player,
    hounds: Player,
) -> io::Result<()> {
    let Some(log) = &options.history else {
        return Ok(());
    };
    let Some(record) = Record::from_game(
        flow,
        game,
        fox,
        hounds,
        Some(options.seed),
        history::utc_now(),
    ) else {
        return Ok(());
    };
    if let Err(e) = log.append(&record)
        && !options.warned.replace(true)
    {
        let _ = writeln!(
            io::stderr(),
            "tallyho: warning: could not keep the game in {}: {e}",
            log.path().display()
        );
    }
    Ok(())
}

/// Asks until `parse` accepts the answer. `None` when the player has gone
/// (end of input, Ctrl-C, or `quit`).
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
            // `quit` leaves from every question, as from every move prompt.
            Reply::Line(line) if line.trim().eq_ignore_ascii_case("quit") => return Ok(None),
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
