//! A match of any game: the menu, the players, and games played one after
//! another with the score kept and the sides swapped every game. The game's
//! rules and face say everything about the game itself.

use std::io;
use std::time::Duration;

use crate::games::{Computers, Game, GameKind, Outcome};
use crate::shell::face::{Face, Player, View};

mod menu;
mod play;

pub(crate) use play::{advice_text, say_advice};
mod seats;

use super::ask::{LastPage, ask_yes_no_over, say_paged};
use super::console::Console;
use super::log::{self, Keeper, Seat as LoggedSeat};
use super::text;

/// Said on leaving before any game was played.
pub const GOODBYE: &str = "Goodbye.";

/// The reminder printed above every board.
pub const REMINDER: &str = "Type help for the rules and commands, or quit to leave.";

/// The reminder above the board while the computer plays itself.
pub const WATCHING: &str = "Press Ctrl-C to stop watching.";

/// Said when there is nothing to undo.
pub const NOTHING_TO_UNDO: &str = "There is no move of yours to take back.";

/// What the command line settled before the match starts.
pub struct Options<R: Computers> {
    /// The game and its setup.
    pub rules: R,
    /// Which game and flow, as the log names it.
    pub kind: GameKind,
    /// How many human players; `None` asks on the menu.
    pub players: Option<u8>,
    /// Names given on the command line, Player 1 first.
    pub names: Vec<String>,
    /// Stop after this many games instead of asking to play again.
    pub games: Option<u32>,
    /// The seed of every computer player's randomness.
    pub seed: u64,
    /// The computer's level; `None` asks.
    pub level: Option<R::Level>,
    /// When the computer plays itself: the first game's levels, in the order of the sides.
    pub side_levels: [Option<R::Level>; 2],
    /// Against the computer: the person's side in the first game.
    pub side: Option<R::Side>,
    /// Pause before each computer move, in milliseconds.
    pub delay_ms: u64,
    /// How long a computer that searches may think, in milliseconds.
    pub think_ms: u64,
    /// Where finished games are kept.
    pub log: Keeper,
}

/// A seat at the table: Player 1 is seat 0.
struct Seat<R: Computers> {
    name: String,
    computer: Option<(R::Level, R::Player)>,
    wins: u32,
}

/// The match in progress.
struct Match<R: Computers> {
    seats: [Seat<R>; 2],
    /// Which seat plays the first of the sides this game.
    first: usize,
    draws: u32,
    /// Games counted in the score that the log could not keep.
    unlogged: u32,
    /// Games finished so far: each game's computer moves are seeded apart.
    finished: u64,
    /// The strongest computer, made on the first hint.
    adviser: Option<R::Player>,
}

impl<R: Computers> Match<R> {
    fn seat(&self, rules: &R, side: R::Side) -> usize {
        if side == rules.sides()[0] {
            self.first
        } else {
            1 - self.first
        }
    }

    fn name(&self, rules: &R, side: R::Side) -> &str {
        &self.seats[self.seat(rules, side)].name
    }

    fn is_computer(&self, rules: &R, side: R::Side) -> bool {
        self.seats[self.seat(rules, side)].computer.is_some()
    }

    /// `a:0 - b:0`: the score in seat order, Player 1 first, as every
    /// score line of every game says it.
    fn score_line(&self) -> String {
        let [a, b] = &self.seats;
        let mut line = format!("{}:{} - {}:{}", a.name, a.wins, b.name, b.wins);
        if self.draws > 0 {
            line.push_str(&format!(" ({} drawn)", self.draws));
        }
        if self.unlogged > 0 {
            line.push_str(&text::not_logged(self.unlogged));
        }
        line
    }

    /// `Final score: a:0 - b:0`, Player 1 first.
    fn final_line(&self) -> String {
        format!("Final score: {}", self.score_line())
    }
}

/// How long a search may run for a move of `think_ms`: 2% less, so that the
/// move with its bookkeeping stays within the time the player allowed.
pub fn thinking_time(think_ms: u64) -> Duration {
    Duration::from_millis(think_ms - think_ms / 50)
}

/// The seed of a computer's move: the match's seed, the game, the seat and
/// the ply, mixed (SplitMix64's finaliser) so that nearby plies are unrelated.
fn move_seed(seed: u64, game: u64, seat: usize, ply: usize) -> u64 {
    let mut z = seed
        .wrapping_add(game.wrapping_mul(0xD6E8_FEB8_6659_FD93))
        .wrapping_add((seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((ply as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Runs a match to its end; returns how many games were finished.
pub fn run<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
) -> io::Result<u32> {
    console.farewell(Some(GOODBYE.to_string()));
    console.say(face.title())?;
    console.say("")?;
    let seats = if welcome(console, face, options)? {
        let players = match options.players {
            Some(n) => Some(n),
            None => menu::menu(console, face, options)?,
        };
        match players {
            Some(n) => seats::seats(console, face, options, n)?,
            None => None,
        }
    } else {
        None
    };
    let Some(seats) = seats else {
        console.after_interrupt()?;
        console.say(GOODBYE)?;
        return Ok(0);
    };
    let mut game_match = Match {
        seats,
        first: 0,
        draws: 0,
        unlogged: 0,
        finished: 0,
        adviser: None,
    };
    let mut played = 0;
    console.farewell(Some(game_match.final_line()));
    while let Some(game) = play::play_game(console, face, options, &mut game_match)? {
        finish_game(console, face, options, &mut game_match, &game)?;
        played += 1;
        let again = match options.games {
            Some(n) => played < n,
            None => {
                let board = face.board(
                    &View::new(&options.rules, game.positions()),
                    game.moves().last(),
                    &play::canvas(console, &options.rules, &game_match),
                );
                let question = face.again_question();
                let help = if swaps(face, &game_match) {
                    text::AGAIN_HELP
                } else {
                    text::AGAIN_SAME_SIDES_HELP
                };
                ask_yes_no_over(console, question, help, &board)? == Some(true)
            }
        };
        if !again {
            break;
        }
        swap_sides(console, face, options, &mut game_match)?;
    }
    console.farewell(None);
    console.after_interrupt()?;
    console.say(&game_match.final_line())?;
    Ok(played)
}

/// The game's welcome, where it has one, before the menu; `false` if the
/// player left there.
fn welcome<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
) -> io::Result<bool> {
    let (None, Some(intro)) = (options.players, face.intro(&options.rules, console.width())) else {
        return Ok(true);
    };
    // On a screen too short to hold it, the welcome comes a page at a time.
    let last = LastPage::Asked("Press Enter to continue. ", text::CONTINUE_HELP);
    if !say_paged(console, &intro, last)? {
        return Ok(false);
    }
    console.say("")?;
    Ok(true)
}

/// A game has ended: it goes to the log, then into the score, and its end
/// is said, then whether the log could not take it.
fn finish_game<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game_match: &mut Match<R>,
    game: &Game<R>,
) -> io::Result<()> {
    let rules = &options.rules;
    let outcome = game.outcome(rules).expect("a finished game has an outcome");
    let winner = outcome.winner().map(|side| game_match.seat(rules, side));
    let record = record(options, game_match, game, outcome);
    // The score takes the game once the log has it (or says it has not),
    // while a terminating signal still waits: what it says matches the log.
    let kept = options.log.keep_then(&record, |kept| {
        match winner {
            Some(seat) => game_match.seats[seat].wins += 1,
            None => game_match.draws += 1,
        }
        if !kept.counts() {
            game_match.unlogged += 1;
        }
        console.farewell(Some(game_match.final_line()));
    });
    game_match.finished += 1;
    let players = rules.sides().map(|side| Player {
        name: game_match.name(rules, side),
        computer: game_match.is_computer(rules, side),
        first: game_match.seat(rules, side) == 0,
    });
    for line in face.final_words(&View::new(rules, game.positions()), players) {
        console.say(&line)?;
    }
    let winner_name = winner.map(|seat| game_match.seats[seat].name.as_str());
    let result = face.result(&outcome, winner_name);
    if !result.is_empty() {
        console.say(&result)?;
    }
    kept.warn();
    console.say(&game_match.score_line())
}

/// The players swap sides for the next game, unless a person against the
/// computer keeps the first side in this game.
fn swap_sides<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game_match: &mut Match<R>,
) -> io::Result<()> {
    let rules = &options.rules;
    if !swaps(face, game_match) {
        return Ok(());
    }
    game_match.first = 1 - game_match.first;
    let [first, second] = rules.sides();
    console.note(&face.swap_notice(
        [
            game_match.name(rules, first),
            game_match.name(rules, second),
        ],
        play::first_to_move(rules, game_match.finished),
        console.width(),
    ))
}

/// Whether the players swap sides between games: not where a person
/// against the computer always plays first.
fn swaps<R: Computers, F: Face<R>>(face: &F, game_match: &Match<R>) -> bool {
    let computers = game_match
        .seats
        .iter()
        .filter(|s| s.computer.is_some())
        .count();
    !(face.person_plays_first() && computers == 1)
}

/// A finished game as the log keeps it.
fn record<R: Computers>(
    options: &Options<R>,
    game_match: &Match<R>,
    game: &Game<R>,
    outcome: Outcome<R::Side>,
) -> log::Record {
    let rules = &options.rules;
    let seats = game_match.seats.iter().enumerate().map(|(i, seat)| {
        let side = rules.sides()[if i == game_match.first { 0 } else { 1 }];
        LoggedSeat {
            name: seat.name.clone(),
            side: side.to_string(),
            level: seat.computer.as_ref().map(|(level, _)| level.to_string()),
        }
    });
    log::Record::of_game(
        rules,
        options.kind.flow(),
        seats.collect(),
        game,
        outcome,
        Some(options.seed),
    )
}
