//! Any logged game, move by move. Each move is found by its notation among
//! the legal moves of the position before it, so no game needs replay code
//! of its own, and a damaged record is caught at the first move that fails.
//! Every field of the log a message or the screen shows is escaped and cut
//! to [`FIELD_WIDTH`] columns: a hand-made log may hold anything.

use std::io;

use crate::games::{Game, Outcome, Rules};
use crate::shell::face::{Canvas, Face, Player, View};

use super::ask::is_quit;
use super::console::{Console, Reply};
use super::log::{Record, Seat};
use super::safe;

/// The widest a field read from the log is shown, in columns, as the
/// history table does: a hand-made log's 65,536-character name must not
/// fill the screen, nor a 300 KB field standard error.
pub const FIELD_WIDTH: usize = 40;

/// The widest a sentence from a game's parser about a log field is shown:
/// the guard for a parser that quotes the field in a form not found in it.
const SENTENCE_WIDTH: usize = 240;

/// The widest a logged move is quoted.
const MOVE_WIDTH: usize = 20;

/// A field from the log, safe for a terminal and cut to [`FIELD_WIDTH`].
pub fn shown(field: &str) -> String {
    safe::text_cut(field, FIELD_WIDTH)
}

/// A parser's sentence about `fields` of the log, with each field too long
/// to show cut where it is quoted, and the whole safe and bounded.
fn quoting(sentence: &str, fields: &[&str]) -> String {
    let mut sentence = sentence.to_string();
    for field in fields {
        if safe::width(field) > FIELD_WIDTH || field.chars().any(char::is_control) {
            sentence = sentence.replace(field, &shown(field));
        }
    }
    safe::cut(&safe::text(&sentence), SENTENCE_WIDTH)
}

/// A log's game or flow that no game of the cabinet has, said with each
/// name cut where it is quoted, as every field of the log is.
pub fn unknown_game(e: &crate::games::UnknownGame) -> String {
    quoting(&e.to_string(), &[&e.game, &e.flow])
}

/// How a logged game ended, as a sentence says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The winning side, already cut, or `None` for a draw.
    winner: Option<String>,
    /// How, already cut.
    how: String,
}

impl Said {
    fn new(winner: Option<&str>, how: &str) -> Said {
        Said {
            winner: winner.map(shown),
            how: shown(how),
        }
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.winner {
            Some(side) => write!(f, "{} {side} win ({})", article(side), self.how),
            None => write!(f, "a draw ({})", self.how),
        }
    }
}

/// The article before a word as it is said aloud: `an A win`, `an owl`,
/// `a P win`, `a fox`.
fn article(word: &str) -> &'static str {
    let mut letters = word.chars();
    let first = letters.next().map(|c| c.to_ascii_lowercase());
    let spoken_vowel = match (first, letters.next()) {
        // A letter alone is said by its name: "an F", "a U".
        (Some(c), None) => "aefhilmnorsx".contains(c),
        (Some(c), Some(_)) => "aeiou".contains(c),
        (None, _) => false,
    };
    if spoken_vowel { "an" } else { "a" }
}

/// Why a record does not make a legal game. Every quoted field is cut.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebuildError {
    /// The setup does not read: the game's own sentence.
    #[error("{0}")]
    Setup(String),
    /// The start position does not read: the game's own sentence.
    #[error("its start position does not read: {0}")]
    Start(String),
    /// Moves are logged after the game was over.
    #[error(
        "the game was over after move {at}, yet {more} more {} logged",
        if *more == 1 { "move is" } else { "moves are" }
    )]
    Overrun {
        /// The move that ended it.
        at: usize,
        /// How many follow.
        more: usize,
    },
    /// A move is not among the legal moves of its position.
    #[error("move {number} ({text}) is not legal there")]
    Illegal {
        /// Its number, from 1.
        number: usize,
        /// The move as logged, cut.
        text: String,
    },
    /// The rules refused a legal move: the game's own sentence.
    #[error("{0}")]
    Play(String),
    /// The game's last move leaves it unfinished, and the record names no
    /// ending the rules cannot see.
    #[error("the game is not over after its last move")]
    NotOver,
    /// The players are not one for each of the game's sides.
    #[error("its players are not one for each side")]
    Seats,
    /// The logged winner is not one of the game's sides.
    #[error("its winner is not a side of the game")]
    NoSuchWinner,
    /// The moves end otherwise than the record says.
    #[error("its moves end in {played}, but it says {logged}")]
    Ending {
        /// How the moves end.
        played: Said,
        /// How the record says they end.
        logged: Said,
    },
    /// The points logged are not those the moves end with.
    #[error("its moves end with {played} points, but it says {logged}")]
    Score {
        /// The points the moves end with.
        played: String,
        /// The points logged, cut.
        logged: String,
    },
    /// The move count disagrees with the moves.
    #[error("it says {said} plies but holds {held} moves")]
    Plies {
        /// The count logged.
        said: u32,
        /// The moves logged.
        held: usize,
    },
}

/// Kept until the games' setups have typed errors: their callers still
/// speak in sentences.
impl From<RebuildError> for String {
    fn from(e: RebuildError) -> String {
        e.to_string()
    }
}

/// Why a record cannot be replayed.
#[derive(Debug)]
pub enum ReplayError {
    /// The record does not make a legal game; the reason says where.
    Damaged(RebuildError),
    /// The terminal or pipe failed.
    Io(io::Error),
}

impl From<io::Error> for ReplayError {
    fn from(e: io::Error) -> ReplayError {
        ReplayError::Io(e)
    }
}

impl From<RebuildError> for ReplayError {
    fn from(e: RebuildError) -> ReplayError {
        ReplayError::Damaged(e)
    }
}

/// The rules a record was played under, read from its setup. A refusal
/// quotes the setup's fields cut to [`FIELD_WIDTH`].
pub fn rules_of<R: Rules>(record: &Record) -> Result<R, RebuildError> {
    R::from_setup(&record.setup_pairs()).map_err(|why| {
        let fields: Vec<&str> = record.setup.values().map(String::as_str).collect();
        RebuildError::Setup(quoting(&why.to_string(), &fields))
    })
}

/// The game a record holds, checked move by move, with its outcome.
pub fn rebuild<R: Rules>(
    rules: &R,
    record: &Record,
) -> Result<(Game<R>, Outcome<R::Side>), RebuildError> {
    let start = rules
        .parse_position(&record.start)
        .map_err(|e| RebuildError::Start(quoting(&e.to_string(), &[&record.start])))?;
    let mut game: Game<R> = Game::new(start);
    for (i, text) in record.moves.iter().enumerate() {
        if game.outcome(rules).is_some() {
            let more = record.moves.len() - i;
            return Err(RebuildError::Overrun { at: i, more });
        }
        let legal = rules.legal_moves(game.position());
        let mv = legal
            .into_iter()
            .find(|m| m.to_string() == *text)
            .ok_or_else(|| RebuildError::Illegal {
                number: i + 1,
                text: safe::cut(&safe::text(text), MOVE_WIDTH),
            })?;
        game.play(rules, mv)
            .map_err(|e| RebuildError::Play(quoting(&e.to_string(), &[text])))?;
    }
    let outcome = match game.outcome(rules) {
        Some(outcome) => outcome,
        None => logged_ending(rules, record)?,
    };
    check_ending(rules.sides(), &outcome, record)?;
    // Points logged (a game of points) are the moves' to say; a record
    // without them is read as it was written.
    if let Some(logged) = &record.outcome.score {
        let played = rules.score(game.position());
        if played.as_ref() != Some(logged) {
            return Err(RebuildError::Score {
                played: played.unwrap_or_else(|| "no".to_string()),
                logged: format!("\"{}\"", safe::cut(&safe::text(logged), MOVE_WIDTH)),
            });
        }
    }
    Ok((game, outcome))
}

/// Refuses a record whose players, ending or move count contradict its
/// game.
fn check_ending<S: Copy + ToString>(
    sides: [S; 2],
    outcome: &Outcome<S>,
    record: &Record,
) -> Result<(), RebuildError> {
    let seated = |side: &S| {
        let side = side.to_string();
        record.seats.iter().filter(|seat| seat.side == side).count() == 1
    };
    if record.seats.len() != 2 || !sides.iter().all(seated) {
        return Err(RebuildError::Seats);
    }
    // A winner that is no side of the game (`draw`, `Black`) is said so,
    // not quoted as if it were one.
    if let Some(name) = &record.outcome.winner
        && !sides.iter().any(|side| side.to_string() == *name)
    {
        return Err(RebuildError::NoSuchWinner);
    }
    let winner = outcome.winner().map(|side| side.to_string());
    if winner != record.outcome.winner || outcome.how() != record.outcome.how {
        return Err(RebuildError::Ending {
            played: Said::new(winner.as_deref(), outcome.how()),
            logged: Said::new(record.outcome.winner.as_deref(), &record.outcome.how),
        });
    }
    if record.plies as usize != record.moves.len() {
        return Err(RebuildError::Plies {
            said: record.plies,
            held: record.moves.len(),
        });
    }
    Ok(())
}

/// An ending the rules cannot see (a resignation, an agreed draw, a
/// server's game claimed or ended when its players had gone), as logged.
fn logged_ending<R: Rules>(rules: &R, record: &Record) -> Result<Outcome<R::Side>, RebuildError> {
    let how = match record.outcome.how.as_str() {
        "resigned" => "resigned",
        "agreed" => "agreed",
        "abandoned" => "abandoned",
        _ => return Err(RebuildError::NotOver),
    };
    match &record.outcome.winner {
        None => Ok(Outcome::Draw { how }),
        Some(name) => rules
            .sides()
            .into_iter()
            .find(|side| side.to_string() == *name)
            .map(|winner| Outcome::Win { winner, how })
            .ok_or(RebuildError::NoSuchWinner),
    }
}

/// A checked record being shown: the game, its face and its seats.
struct Playback<'a, R: Rules, F: Face<R>> {
    rules: &'a R,
    face: &'a F,
    record: &'a Record,
    game: Game<R>,
    outcome: Outcome<R::Side>,
}

impl<R: Rules, F: Face<R>> Playback<'_, R, F> {
    /// The name of the seat that played `side`, as the log has it, cut;
    /// `None` for a person with no name (a record written by hand), who is
    /// called by the side.
    fn seat_name(&self, side: R::Side) -> Option<String> {
        let side = side.to_string();
        self.record
            .seats
            .iter()
            .find(|s| s.side == side)
            .filter(|s| s.level.is_some() || !s.name.trim().is_empty())
            .map(|s| shown(s.shown_name()))
    }

    /// The line that says which game this is, who played and how it was set up.
    fn introduce(&self, console: &mut Console) -> io::Result<()> {
        let record = self.record;
        // Each field cut on its own, so a long name keeps its side and level.
        let seats: Vec<String> = record
            .seats
            .iter()
            .map(|s| {
                Seat {
                    name: shown(&s.name),
                    side: shown(&s.side),
                    level: s.level.as_deref().map(shown),
                }
                .display()
            })
            .collect();
        // A field of many lines (a loaded game's PDN tags, kept for its
        // export) describes no rule: the line leaves it out.
        let setup: Vec<String> = record
            .setup
            .iter()
            .filter(|(_, v)| !v.contains('\n'))
            .map(|(k, v)| shown(&format!("{k} {v}")))
            .collect();
        console.say(&format!(
            "Game {}, {}: {}; {}",
            record.number,
            shown(&record.date),
            seats.join(" against "),
            setup.join(", ")
        ))
    }

    /// The position after move `at` (0: the start), with that move said.
    fn show(&self, console: &mut Console, at: usize) -> io::Result<()> {
        let (rules, face, game) = (self.rules, self.face, &self.game);
        let positions = &game.positions()[..=at];
        if at > 0 {
            let mv = &game.moves()[at - 1];
            let mover = rules.to_move(&positions[at - 1]);
            let name = self
                .seat_name(mover)
                .unwrap_or_else(|| face.side_title(mover).to_string());
            console.say("")?;
            let said = face.player_moved(
                &name,
                &face.move_name(&View::new(rules, &positions[..at]), mv),
            );
            console.say(&format!("{at}. {said}"))?;
            // What was said after the move in play: a skipped turn.
            for line in face.after_move(&View::new(rules, positions)) {
                console.say(&line)?;
            }
        }
        let last = at.checked_sub(1).map(|i| &game.moves()[i]);
        let canvas = Canvas {
            colour: console.colour(),
            width: console.width(),
            viewer: None,
        };
        console.write(&face.board(&View::new(rules, positions), last, &canvas))
    }

    /// The end as it was said: the game's final words, then the result.
    fn ending(&self, console: &mut Console) -> io::Result<()> {
        let (rules, face) = (self.rules, self.face);
        let names = rules
            .sides()
            .map(|side| self.seat_name(side).unwrap_or_default());
        let computers = rules.sides().map(|side| {
            let side = side.to_string();
            self.record
                .seats
                .iter()
                .any(|s| s.side == side && s.level.is_some())
        });
        let firsts = rules.sides().map(|side| {
            let side = side.to_string();
            self.record.seats.first().is_some_and(|s| s.side == side)
        });
        let players = [0, 1].map(|i| Player {
            name: &names[i],
            computer: computers[i],
            first: firsts[i],
        });
        let view = View::new(rules, self.game.positions());
        for line in face.final_words(&view, players) {
            console.say(&line)?;
        }
        let winner = self.outcome.winner().and_then(|side| self.seat_name(side));
        let result = face.result(&self.outcome, winner.as_deref());
        if result.is_empty() {
            Ok(())
        } else {
            console.say(&result)
        }
    }

    /// Waits between moves for Enter, `n`, `b`, a number or `q`.
    fn step(&self, console: &mut Console) -> io::Result<()> {
        let total = self.game.moves().len();
        let mut at = 0;
        loop {
            if at == total {
                self.ending(console)?;
            }
            let question = format!(
                "Move {at} of {total}. Enter or n: next, b: back, a number: go there, q: quit? "
            );
            let line = match console.ask(&question, &[])? {
                Reply::End => return Ok(()),
                Reply::Bad(why) => {
                    console.say(&why.to_string())?;
                    continue;
                }
                Reply::Line(line) => line,
            };
            at = match step_to(&line, at, total) {
                Step::To(next) => next,
                Step::Leave => return Ok(()),
                Step::Refused => {
                    console.refuse(&format!(
                        "Type Enter or n for the next move, b to go back, a move number 0-{total}, or q."
                    ))?;
                    continue;
                }
            };
            console.clear()?;
            self.show(console, at)?;
        }
    }
}

/// Where a typed line takes a stepped replay.
enum Step {
    To(usize),
    Leave,
    Refused,
}

/// Reads a line typed at move `at` of `total`.
fn step_to(line: &str, at: usize, total: usize) -> Step {
    let word = line.trim().to_ascii_lowercase();
    match word.as_str() {
        "" | "n" | "next" if at < total => Step::To(at + 1),
        "" | "n" | "next" => Step::Leave,
        "b" | "back" => Step::To(at.saturating_sub(1)),
        _ if is_quit(&word) => Step::Leave,
        _ => match word.parse::<usize>() {
            Ok(n) if n <= total => Step::To(n),
            _ => Step::Refused,
        },
    }
}

/// Plays a record back. With `step`, waits between moves: Enter or `n`
/// goes forward, `b` back, a number jumps to that move, `q` leaves.
pub fn replay<R: Rules, F: Face<R>>(
    console: &mut Console,
    rules: &R,
    face: &F,
    record: &Record,
    step: bool,
) -> Result<(), ReplayError> {
    let (game, outcome) = rebuild(rules, record)?;
    let playback = Playback {
        rules,
        face,
        record,
        game,
        outcome,
    };
    playback.introduce(console)?;
    playback.show(console, 0)?;
    if step {
        return Ok(playback.step(console)?);
    }
    for at in 1..=playback.game.moves().len() {
        playback.show(console, at)?;
    }
    Ok(playback.ending(console)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_takes_the_article_its_side_is_said_with() {
        let said = |side: &str| Said::new(Some(side), "resigned").to_string();
        assert_eq!(said("A"), "an A win (resigned)");
        assert_eq!(said("P"), "a P win (resigned)");
        assert_eq!(said("fox"), "a fox win (resigned)");
        assert_eq!(said("hounds"), "a hounds win (resigned)");
        assert_eq!(said("owl"), "an owl win (resigned)");
        assert_eq!(Said::new(None, "agreed").to_string(), "a draw (agreed)");
    }

    #[test]
    fn a_long_quoted_field_is_cut_where_it_is_quoted() {
        let field = "x".repeat(300_000);
        let sentence = format!("\"{field}\" is not a board: write 8x8");
        let cut = quoting(&sentence, &[&field]);
        assert_eq!(
            cut,
            format!("\"{}…\" is not a board: write 8x8", "x".repeat(39))
        );
    }

    #[test]
    fn an_unknown_game_or_flow_is_cut_where_it_is_quoted() {
        let long = "q".repeat(100);
        let said = |game: &str, flow: &str| {
            unknown_game(&crate::games::UnknownGame {
                game: game.to_string(),
                flow: flow.to_string(),
            })
        };
        let cut = format!("\"{}…\"", "q".repeat(39));
        assert_eq!(
            said(&long, "default"),
            format!("tallyho does not know the game {cut}")
        );
        assert_eq!(
            said("draughts", &long),
            format!("the game draughts has no flow {cut}")
        );
        assert_eq!(
            said("draughts", "x\u{1b}[2J"),
            "the game draughts has no flow \"x\\u{1b}[2J\""
        );
    }

    #[test]
    fn a_field_quoted_otherwise_still_leaves_a_short_safe_sentence() {
        let field = format!("  {}\u{1b}[2J  ", "y".repeat(300_000));
        let sentence = format!("\"{}\" is not a side", field.trim());
        let cut = quoting(&sentence, &[&field]);
        assert!(safe::width(&cut) <= SENTENCE_WIDTH, "{}", cut.len());
        assert!(!cut.contains('\u{1b}'));
    }

    #[test]
    fn steps() {
        assert!(matches!(step_to("", 0, 3), Step::To(1)));
        assert!(matches!(step_to(" N ", 2, 3), Step::To(3)));
        assert!(matches!(step_to("next", 3, 3), Step::Leave));
        assert!(matches!(step_to("b", 0, 3), Step::To(0)));
        assert!(matches!(step_to("2", 0, 3), Step::To(2)));
        assert!(matches!(step_to("4", 0, 3), Step::Refused));
        assert!(matches!(step_to("q", 1, 3), Step::Leave));
    }
}
