//! Any logged game, move by move. Each move is found by its notation among
//! the legal moves of the position before it, so no game needs replay code
//! of its own, and a damaged record is caught at the first move that fails.

use std::io;

use crate::games::{Game, Outcome, Rules};
use crate::shell::face::{Canvas, Face, View};

use super::ask::is_quit;
use super::console::{Console, Reply};
use super::history::Record;
use super::safe;

/// Why a record cannot be replayed.
#[derive(Debug)]
pub enum ReplayError {
    /// The record does not make a legal game; the sentence says where.
    Damaged(String),
    /// The terminal or pipe failed.
    Io(io::Error),
}

impl From<io::Error> for ReplayError {
    fn from(e: io::Error) -> ReplayError {
        ReplayError::Io(e)
    }
}

/// The game a record holds, checked move by move, with its outcome.
pub fn rebuild<R: Rules>(
    rules: &R,
    record: &Record,
) -> Result<(Game<R>, Outcome<R::Side>), String> {
    let start = rules
        .parse_position(&record.start)
        .map_err(|e| format!("its start position does not read: {e}"))?;
    let mut game: Game<R> = Game::new(start);
    for (i, text) in record.moves.iter().enumerate() {
        if game.outcome(rules).is_some() {
            let more = record.moves.len() - i;
            return Err(format!(
                "the game was over after move {i}, yet {more} more {} logged",
                if more == 1 { "move is" } else { "moves are" }
            ));
        }
        let legal = rules.legal_moves(game.position());
        let mv = legal
            .into_iter()
            .find(|m| m.to_string() == *text)
            .ok_or_else(|| {
                format!(
                    "move {} ({}) is not legal there",
                    i + 1,
                    safe::cut(text, 20)
                )
            })?;
        game.play(rules, mv).map_err(|e| e.to_string())?;
    }
    let outcome = match game.outcome(rules) {
        Some(outcome) => outcome,
        None => logged_ending(rules, &game, record)?,
    };
    let winner = outcome.winner().map(|side| side.to_string());
    if winner != record.outcome.winner || outcome.how() != record.outcome.how {
        let said = |w: &Option<String>, how: &str| match w {
            Some(side) => format!("the {side} won ({how})"),
            None => format!("a draw ({how})"),
        };
        return Err(format!(
            "its moves end in {}, but it says {}",
            said(&winner, outcome.how()),
            said(&record.outcome.winner, &record.outcome.how)
        ));
    }
    if record.plies as usize != record.moves.len() {
        return Err(format!(
            "it says {} plies but holds {} moves",
            record.plies,
            record.moves.len()
        ));
    }
    Ok((game, outcome))
}

/// An ending the rules cannot see (a resignation, an agreed draw), as logged.
/// The widest a field read from the log is shown, in columns: a hand-made
/// log's 65,536-character name must not fill the screen.
const FIELD_WIDTH: usize = 40;

/// A field from the log, safe for a terminal and cut to [`FIELD_WIDTH`].
fn shown(field: &str) -> String {
    safe::cut(&safe::text(field), FIELD_WIDTH)
}

fn logged_ending<R: Rules>(
    rules: &R,
    game: &Game<R>,
    record: &Record,
) -> Result<Outcome<R::Side>, String> {
    let how = match record.outcome.how.as_str() {
        "resigned" => "resigned",
        "agreed" => "agreed",
        _ => return Err("the game is not over after its last move".to_string()),
    };
    let _ = game;
    match &record.outcome.winner {
        None => Ok(Outcome::Draw { how }),
        Some(name) => rules
            .sides()
            .into_iter()
            .find(|side| side.to_string() == *name)
            .map(|winner| Outcome::Win { winner, how })
            .ok_or_else(|| "its winner is not a side of the game".to_string()),
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
    let (game, outcome) = rebuild(rules, record).map_err(ReplayError::Damaged)?;
    let seats: Vec<String> = record.seats.iter().map(|s| shown(&s.display())).collect();
    let setup: Vec<String> = record
        .setup
        .iter()
        .map(|(k, v)| shown(&format!("{k} {v}")))
        .collect();
    // The name of the seat that played `side`, as the log has it.
    let seat_name = |side: R::Side| {
        record
            .seats
            .iter()
            .find(|s| s.side == side.to_string())
            .map(|s| shown(&s.name))
    };
    console.say(&format!(
        "Game {}, {}: {}; {}",
        record.number,
        shown(&record.date),
        seats.join(" against "),
        setup.join(", ")
    ))?;
    let total = game.moves().len();
    let show = |console: &mut Console, at: usize| -> io::Result<()> {
        let positions = &game.positions()[..=at];
        if at > 0 {
            let mv = &game.moves()[at - 1];
            let before = &positions[at - 1];
            let mover = rules.to_move(before);
            let name = seat_name(mover).unwrap_or_else(|| face.side_title(mover).to_string());
            console.say("")?;
            let said = face.player_moved(
                &name,
                &face.move_name(&View::new(rules, &positions[..at]), mv),
            );
            console.say(&format!("{at}. {said}"))?;
        }
        console.write(&face.board(
            &View::new(rules, positions),
            at.checked_sub(1).map(|i| &game.moves()[i]),
            &Canvas {
                colour: console.colour(),
                width: console.width(),
                viewer: None,
            },
        ))
    };
    let winner_name = |outcome: &Outcome<R::Side>| outcome.winner().and_then(seat_name);
    // The end as it was said: the game's final words, then the result.
    let names: Vec<String> = rules
        .sides()
        .iter()
        .map(|&side| seat_name(side).unwrap_or_default())
        .collect();
    let ending = |console: &mut Console| -> io::Result<()> {
        for line in face.final_words(&View::new(rules, game.positions()), [&names[0], &names[1]]) {
            console.say(&line)?;
        }
        let result = face.result(&outcome, winner_name(&outcome).as_deref());
        if result.is_empty() {
            Ok(())
        } else {
            console.say(&result)
        }
    };
    show(console, 0)?;
    if !step {
        for at in 1..=total {
            show(console, at)?;
        }
        ending(console)?;
        return Ok(());
    }
    let mut at = 0;
    loop {
        if at == total {
            ending(console)?;
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
        let word = line.trim().to_ascii_lowercase();
        let next = match word.as_str() {
            "" | "n" | "next" if at < total => at + 1,
            "" | "n" | "next" => return Ok(()),
            "b" | "back" => at.saturating_sub(1),
            _ if is_quit(&word) => return Ok(()),
            _ => match word.parse::<usize>() {
                Ok(n) if n <= total => n,
                _ => {
                    console.refuse(&format!(
                        "Type Enter or n for the next move, b to go back, a move number 0-{total}, or q."
                    ))?;
                    continue;
                }
            },
        };
        at = next;
        console.clear()?;
        show(console, at)?;
    }
}
