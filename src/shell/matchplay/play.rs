//! One game: turns of the computer and of people, and the commands at a
//! move prompt that change the game (undo, draw, resign, hint).

use std::io;

use super::seats::choose_start;
use super::{Match, NOTHING_TO_UNDO, Options, REMINDER, WATCHING, move_seed, thinking_time};
use crate::games::{Advice, Computer, Computers, Game, Outcome, Rules, Square};
use crate::shell::ask::ask_yes_no_over;
use crate::shell::clock::Until;
use crate::shell::console::Console;
use crate::shell::face::{Canvas, Face, View};
use crate::shell::text;
use crate::shell::turn::{self, Command, Turn};

/// Plays one game. `None` when the player leaves before it ends.
pub(super) fn play_game<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game_match: &mut Match<R>,
) -> io::Result<Option<Game<R>>> {
    let rules = &options.rules;
    let commands = commands::<R>();
    'start: loop {
        let Some(start) = choose_start(console, face, options, game_match)? else {
            return Ok(None);
        };
        let mut game = begin(rules, start, game_match.finished);
        loop {
            if game.outcome(rules).is_some() {
                console.clear()?;
                console.say("")?;
                let last = game.moves().last();
                let canvas = canvas(console, rules, game_match);
                console.write(&face.board(&View::new(rules, game.positions()), last, &canvas))?;
                return Ok(Some(game));
            }
            show_turn(console, face, options, &game, game_match)?;
            let side = rules.to_move(game.position());
            let seat = game_match.seat(rules, side);
            let step = if game_match.seats[seat].computer.is_some() {
                computer_turn(console, face, options, &mut game, game_match, seat)?
            } else {
                person_turn(console, face, options, &mut game, game_match, &commands)?
            };
            match step {
                Step::Moved => {}
                Step::Left => return Ok(None),
                Step::ChooseStart => continue 'start,
            }
        }
    }
}

/// A game from `start`, or from the setup's prelude for game `number`
/// (a loaded game's past: its moves are played already).
fn begin<R: Computers>(rules: &R, start: R::Position, number: u64) -> Game<R> {
    let Some((start, moves)) = rules.prelude(number) else {
        return Game::new(start);
    };
    let mut game = Game::new(start);
    for mv in moves {
        // The prelude was checked when it was made; a move that is not
        // legal after all ends it there rather than ending the match.
        if game.play(rules, mv).is_err() {
            break;
        }
    }
    game
}

/// The side to move when play begins in game `number`, after its prelude.
pub(super) fn first_to_move<R: Computers>(rules: &R, number: u64) -> R::Side {
    rules.to_move(begin(rules, rules.start(), number).position())
}

/// How many of a game's moves are its prelude, never taken back.
fn prelude_len<R: Computers>(rules: &R, number: u64) -> usize {
    rules.prelude(number).map_or(0, |(_, moves)| moves.len())
}

/// Where boards are drawn this game: the console's colour and width, from
/// the side of the one person playing, if only one plays.
pub(super) fn canvas<R: Computers>(
    console: &Console,
    rules: &R,
    game_match: &Match<R>,
) -> Canvas<R::Side> {
    let people: Vec<R::Side> = rules
        .sides()
        .into_iter()
        .filter(|&side| !game_match.is_computer(rules, side))
        .collect();
    Canvas {
        colour: console.colour(),
        width: console.width(),
        viewer: match people[..] {
            [side] => Some(side),
            _ => None,
        },
    }
}

/// What a turn came to.
enum Step {
    /// The game went on.
    Moved,
    /// The player left.
    Left,
    /// `undo` before any move, by the player who chose the start: choose again.
    ChooseStart,
}

/// The commands at a move prompt: agreeing a draw and resigning only in a
/// game that has them.
fn commands<R: Computers>() -> Vec<Command> {
    let mut commands = vec![
        Command::Help,
        Command::Moves,
        Command::Undo,
        Command::Board,
        Command::Hint,
    ];
    if R::BY_AGREEMENT {
        commands.extend([Command::Draw, Command::Resign]);
    }
    commands.push(Command::Quit);
    commands
}

/// The screen before a move: the score, whose turn, the game's status lines,
/// the reminder and the board.
fn show_turn<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game: &Game<R>,
    game_match: &Match<R>,
) -> io::Result<()> {
    let rules = &options.rules;
    let side = rules.to_move(game.position());
    let watching = game_match.seats.iter().all(|seat| seat.computer.is_some());
    console.clear()?;
    console.say("")?;
    console.say(&game_match.score_line())?;
    console.say(&format!(
        "{} ({}) next",
        face.side_title(side),
        game_match.name(rules, side)
    ))?;
    let canvas = canvas(console, rules, game_match);
    for line in face.status(&View::new(rules, game.positions()), &canvas) {
        console.say(&line)?;
    }
    console.say(if watching { WATCHING } else { REMINDER })?;
    let last = game.moves().last();
    console.write(&face.board(&View::new(rules, game.positions()), last, &canvas))
}

/// The computer in `seat` moves. It is said after the pause, so that a
/// Ctrl-C during the pause never leaves a move said but not played.
fn computer_turn<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game: &mut Game<R>,
    game_match: &mut Match<R>,
    seat: usize,
) -> io::Result<Step> {
    let rules = &options.rules;
    let Some((_, computer)) = game_match.seats[seat].computer.as_mut() else {
        return Ok(Step::Left);
    };
    // Seeded by the position's ply: after `undo` the same reply.
    computer.reseed(move_seed(
        options.seed,
        game_match.finished,
        seat,
        game.positions().len(),
    ));
    let stop = || console.interrupted();
    let deadline = Until::after(thinking_time(options.think_ms)).or_when(&stop);
    let Some(mv) = computer.choose(rules, game.positions(), &deadline) else {
        // A computer with no move to make has lost by the rules already.
        return Ok(Step::Left);
    };
    if console.interrupted() || !console.pause(options.delay_ms) || console.interrupted() {
        return Ok(Step::Left);
    }
    let said = face.computer_moves(
        &game_match.seats[seat].name,
        &face.move_name(&View::new(rules, game.positions()), &mv),
    );
    console.note(&format!("{}. {said}", game.moves().len() + 1))?;
    game.play(rules, mv).map_err(io::Error::other)?;
    for line in face.after_move(&View::new(rules, game.positions())) {
        console.note(&line)?;
    }
    Ok(Step::Moved)
}

/// A person moves, or uses a command that changes the game; asked again,
/// without the board again, while a command changes nothing.
fn person_turn<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game: &mut Game<R>,
    game_match: &mut Match<R>,
    commands: &[Command],
) -> io::Result<Step> {
    let rules = &options.rules;
    let side = rules.to_move(game.position());
    let last = game.moves().last().cloned();
    let mut progress = turn::Progress::default();
    loop {
        let canvas = canvas(console, rules, game_match);
        let adviser = &mut game_match.adviser;
        let mut on_hint = |console: &mut Console, picked: &[Square]| {
            hint(console, face, options, game.positions(), adviser, picked)
        };
        let asking = turn::TurnOf {
            rules,
            face,
            history: game.positions(),
            last: last.as_ref(),
            commands,
            canvas,
            others: &[],
            help: None,
        };
        let changed = match turn::ask_move(console, &asking, &mut on_hint, &mut progress)? {
            Turn::Play(mv) => {
                let said = face.player_moved(
                    game_match.name(rules, side),
                    &face.move_name(&View::new(rules, game.positions()), &mv),
                );
                game.play(rules, mv).map_err(io::Error::other)?;
                console.note(&format!("{}. {said}", game.moves().len()))?;
                for line in face.after_move(&View::new(rules, game.positions())) {
                    console.note(&line)?;
                }
                true
            }
            Turn::Leave | Turn::Other(_) => return Ok(Step::Left),
            Turn::Command(Command::Undo)
                if game.moves().is_empty() && chose_start(options, side) =>
            {
                return Ok(Step::ChooseStart);
            }
            Turn::Command(Command::Undo) => {
                let floor = prelude_len(rules, game_match.finished);
                undo(console, face, rules, game, floor)?
            }
            Turn::Command(Command::Resign) => {
                let winner = other_side(rules, side);
                game.settle(
                    rules,
                    Outcome::Win {
                        winner,
                        how: "resigned",
                    },
                );
                true
            }
            Turn::Command(Command::Draw) => {
                match offer_draw(console, face, options, game, game_match)? {
                    Some(accepted) => accepted,
                    // The one asked left instead of answering.
                    None => return Ok(Step::Left),
                }
            }
            Turn::Redraw => {
                show_turn(console, face, options, game, game_match)?;
                false
            }
            Turn::Command(_) => false,
        };
        if changed {
            return Ok(Step::Moved);
        }
    }
}

/// Whether `side`'s player chose this game's start.
fn chose_start<R: Computers>(options: &Options<R>, side: R::Side) -> bool {
    options
        .rules
        .start_choices()
        .is_some_and(|(chooser, starts)| chooser == side && starts.len() > 1)
}

/// The side that is not `side`.
fn other_side<R: Rules>(rules: &R, side: R::Side) -> R::Side {
    let [a, b] = rules.sides();
    if side == a { b } else { a }
}

/// A draw offered by the player to move: the other player answers, or the
/// computer accepts when its best line is no better for it than a draw.
/// Whether it was accepted; `None` when the player asked leaves instead.
fn offer_draw<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game: &mut Game<R>,
    game_match: &mut Match<R>,
) -> io::Result<Option<bool>> {
    let rules = &options.rules;
    let side = rules.to_move(game.position());
    let other = other_side(rules, side);
    let offerer = game_match.name(rules, side).to_string();
    let answerer = game_match.name(rules, other).to_string();
    let accepted = if game_match.is_computer(rules, other) {
        let seat = game_match.seat(rules, other);
        let Some((_, computer)) = game_match.seats[seat].computer.as_mut() else {
            return Ok(Some(false));
        };
        let stop = || console.interrupted();
        let deadline = Until::after(thinking_time(options.think_ms)).or_when(&stop);
        let accepts = computer.accepts_draw(rules, game.positions(), side, &deadline);
        let said = if accepts { "accepts" } else { "declines" };
        console.say(&format!("{answerer} {said} the draw."))?;
        accepts
    } else {
        let question = format!("{answerer}, {offerer} offers a draw. Do you accept (yes/no)? ");
        let board = face.board(
            &View::new(rules, game.positions()),
            game.moves().last(),
            &canvas(console, rules, game_match),
        );
        match ask_yes_no_over(console, &question, text::DRAW_HELP, &board)? {
            Some(answer) => answer,
            None => return Ok(None),
        }
    };
    if accepted {
        game.settle(rules, Outcome::Draw { how: "agreed" });
    } else if !game_match.is_computer(rules, other) {
        console.say("The game goes on.")?;
    }
    Ok(Some(accepted))
}

/// A hint from the strongest computer, preferring a move of the piece picked.
fn hint<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    history: &[R::Position],
    adviser: &mut Option<R::Player>,
    picked: &[Square],
) -> io::Result<()> {
    let rules = &options.rules;
    let adviser = adviser.get_or_insert_with(|| rules.computer(R::best_level(), options.seed));
    let stop = || console.interrupted();
    let deadline = Until::after(thinking_time(options.think_ms)).or_when(&stop);
    if history.is_empty() {
        return Ok(());
    }
    adviser.reseed(move_seed(options.seed, 0, 2, history.len()));
    let advice = adviser.advise(rules, history, &deadline);
    if console.interrupted() {
        // Ctrl-C cut the thinking short: the player is leaving, and a half
        // thought hint is no hint. The farewell comes on a line of its own.
        return Ok(());
    }
    say_advice(console, rules, face, history, advice, picked)
}

/// Says a hint: the best move found (one of the piece picked, if any) and
/// the verdict, or that none is known.
pub(crate) fn say_advice<R: Computers, F: Face<R>>(
    console: &mut Console,
    rules: &R,
    face: &F,
    history: &[R::Position],
    advice: Option<Advice<R::Move, R::Side>>,
    picked: &[Square],
) -> io::Result<()> {
    match advice_text(rules, face, history, advice, picked) {
        Some(text) => console.say(&text),
        None => Ok(()),
    }
}

/// A hint's sentence: the best move found (one of the piece picked, if
/// any) and the verdict, or that none is known.
pub(crate) fn advice_text<R: Computers, F: Face<R>>(
    rules: &R,
    face: &F,
    history: &[R::Position],
    advice: Option<Advice<R::Move, R::Side>>,
    picked: &[Square],
) -> Option<String> {
    let pos = history.last()?;
    let Some(advice) = advice else {
        return Some("No hint is known for this position.".to_string());
    };
    let goes_on = |m: &R::Move| rules.path(m).starts_with(picked);
    // One of the best moves from the squares picked; else another way from
    // them to the same position as the first (the same pieces taken, in
    // another order), which is as good.
    let same_end = || {
        let first = advice.best.first()?;
        let end = rules.play(pos, first);
        rules
            .legal_moves(pos)
            .into_iter()
            .find(|m| goes_on(m) && rules.play(pos, m) == end)
    };
    let from_picked = match advice.best.iter().find(|m| goes_on(m)) {
        Some(m) => Some(m.clone()),
        None if picked.is_empty() => None,
        None => same_end(),
    };
    let best = from_picked.as_ref().or(advice.best.first())?;
    let hint = face.hint(
        &face.move_name(&View::new(rules, history), best),
        &advice.verdict,
        rules.to_move(pos),
    );
    Some(if from_picked.is_none() && !picked.is_empty() {
        let stop = if hint.ends_with(['.', '!', '?']) {
            ""
        } else {
            "."
        };
        format!("{hint}{stop} {}", elsewhere(picked.len()))
    } else {
        hint
    })
}

/// Said after a hint whose move does not go on from the `chosen` squares.
fn elsewhere(chosen: usize) -> &'static str {
    if chosen == 1 {
        "It does not go on from the square chosen: undo takes that back."
    } else {
        "It does not go on from the squares chosen: undo takes them back one at a time."
    }
}

/// Takes back the last move made by a person, and the computer's replies
/// after it, so that it is that person's turn again. A computer's move alone
/// is never taken back: the player could otherwise re-roll it. `true` if
/// anything was taken back.
fn undo<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    rules: &R,
    game: &mut Game<R>,
    floor: usize,
) -> io::Result<bool> {
    // The player who typed `undo` is the one to move: take back their last
    // move, and whatever was played after it (the reply). The prelude's
    // moves, the first `floor`, were no player's here.
    let positions = game.positions();
    let typer = rules.to_move(&positions[positions.len() - 1]);
    let last_own = (floor..game.moves().len())
        .rev()
        .find(|&ply| rules.to_move(&positions[ply]) == typer);
    let Some(ply) = last_own else {
        console.say(NOTHING_TO_UNDO)?;
        return Ok(false);
    };
    while game.moves().len() > ply {
        let before = game.positions()[..game.moves().len()].to_vec();
        if let Some(mv) = game.undo() {
            console.note(&face.took_back(&face.move_name(&View::new(rules, &before), &mv)))?;
        }
    }
    Ok(true)
}
