//! `tallyho classic`: the 1978 BASIC program's conversation. The human plays
//! the hounds and moves first; the computer is the fox. Its words are the
//! face's (`faces::fox::text::classic`); this is the conversation's order.

use std::io;

use crate::faces::fox::classic::{destination, parse_numbers, pick, square};
use crate::faces::fox::render;
use crate::faces::fox::text::classic as text;
use crate::games::fox::players::{Computer, Level};
use crate::games::fox::{Ending, Move, Position, Setup, Side, Square};
use crate::games::{Game, Outcome};
use crate::shell::ask::{LastPage, Pager, is_q, is_quit, parse_yes_no, say_paged_in};
use crate::shell::console::{Console, Reply};
use crate::shell::log::{Keeper, Record, Seat};
use crate::shell::safe;

/// What the command line settled for the 1978 flow.
pub struct Options {
    /// Board, rules, fox start and first mover.
    pub setup: Setup,
    /// Stop after this many games instead of asking to play again.
    pub games: Option<u32>,
    /// The seed of the computer fox's randomness.
    pub seed: u64,
    /// The computer fox's level (classic unless given).
    pub level: Option<Level>,
    /// Pause before the fox's answer, in milliseconds.
    pub delay_ms: u64,
    /// Where finished games are kept.
    pub log: Keeper,
}

/// The log's record of a finished game: the player's hounds against the
/// computer's fox.
fn record(options: &Options, level: Level, game: &Game<Setup>, ending: Ending) -> Record {
    let seats = vec![
        Seat {
            name: text::YOU.to_string(),
            side: Side::Hounds.to_string(),
            level: None,
        },
        Seat {
            name: text::ME.to_string(),
            side: Side::Fox.to_string(),
            level: Some(level.name().to_string()),
        },
    ];
    let outcome = Outcome::Win {
        winner: ending.winner(),
        how: ending.name(),
    };
    let kind = crate::games::GameKind::Fox(crate::games::FoxFlow::Classic);
    Record::of_game(
        &options.setup,
        kind.flow(),
        seats,
        game,
        outcome,
        Some(options.seed),
    )
}

/// Runs the 1978 flow to its end; returns how many games were finished.
pub fn run(console: &mut Console, options: &Options) -> io::Result<u32> {
    let setup = options.setup;
    let level = options.level.unwrap_or(Level::Classic);
    console.farewell(Some(text::BYE.to_string()));
    console.say(text::BANNER)?;
    console.say("")?;
    let answers = vec!["YES".to_string(), "NO".to_string()];
    match console.ask(text::WANT_INSTRUCTIONS, &answers)? {
        Reply::End => {
            // Nothing was played: no tally of nothing.
            console.after_interrupt()?;
            console.say(text::BYE)?;
            return Ok(0);
        }
        Reply::Line(line) if is_quit(&line) => {
            console.after_interrupt()?;
            console.say(text::BYE)?;
            return Ok(0);
        }
        Reply::Line(line) if parse_yes_no(&line) == Ok(true) || asks_for_help(&line) => {
            let instructions = text::instructions(setup.board, setup.rules, setup.first);
            if fit_above_board(console, &instructions, &setup) {
                // Kept, whole, for after the screen is cleared before the first board.
                console.note(&instructions)?;
            } else {
                // A page at a time, the last held until read: the board's
                // screen has no room for them.
                let last = LastPage::Asked(text::TO_PLAY, text::TO_PLAY_HELP);
                if !say_paged_in(console, &instructions, last, PAGER)? {
                    console.after_interrupt()?;
                    console.say(text::BYE)?;
                    return Ok(0);
                }
            }
        }
        // As in 1978: anything but yes skips the instructions.
        _ => {}
    }
    let mut fox = Computer::new(level, setup.rules, options.seed);
    let (mut you, mut me) = (0, 0);
    let mut played = 0;
    // Whether the player left during a game, whose tally is then still to say.
    let mut left_mid_game = true;
    while let Some((game, ending)) = play_game(console, options, &mut fox)? {
        let record = record(options, level, &game, ending);
        // The tally takes the game while a terminating signal still waits
        // for the log: what a signal says matches the log.
        options
            .log
            .keep_then(&record, |_| {
                match ending.winner() {
                    Side::Hounds => you += 1,
                    Side::Fox => me += 1,
                }
                console.farewell(Some(format!("{}\n{}", text::tally(you, me), text::BYE)));
            })
            .warn();
        console.say(&text::tally(you, me))?;
        played += 1;
        let again = match options.games {
            Some(n) => played < n,
            // As in 1978: anything but yes is no.
            None => loop {
                match console.ask(text::AGAIN, &answers)? {
                    Reply::Line(line) if asks_for_help(&line) => {
                        let instructions =
                            text::instructions(setup.board, setup.rules, setup.first);
                        if !say_paged_in(console, &instructions, LastPage::Open, PAGER)? {
                            break false;
                        }
                    }
                    Reply::Line(line) => break parse_yes_no(&line) == Ok(true),
                    _ => break false,
                }
            },
        };
        if !again {
            left_mid_game = false;
            break;
        }
    }
    console.farewell(None);
    console.after_interrupt()?;
    if left_mid_game && played > 0 {
        console.say(&text::tally(you, me))?;
    }
    console.say(text::BYE)?;
    Ok(played)
}

/// The pager's words in the 1978 program's voice.
const PAGER: Pager<'static> = Pager {
    more: text::MORE,
    help: text::MORE_HELP,
    capitals: true,
};

/// Whether the instructions fit on the screen with the first board's
/// screen below them, where they are said again after it is cleared:
/// always on paper, which scrolls.
fn fit_above_board(console: &Console, instructions: &str, setup: &Setup) -> bool {
    let Some(rows) = console.height() else {
        return true;
    };
    // Counted as the console will say them.
    let lines = |text: &str| safe::wrap_said(text, console.width()).lines().count();
    let board = render::classic_board(&setup.default_start());
    // A blank line, the fox's move when it moves first, the board, the
    // reminder below it and the question.
    let fox_first = usize::from(setup.first == Side::Fox);
    let below = 1 + fox_first + board.lines().count() + lines(text::YOUR_MOVE) + 1;
    lines(instructions) + below <= rows
}

/// Whether a line asks for the instructions again: `HELP` or `INSTRUCTIONS`.
fn asks_for_help(line: &str) -> bool {
    let word = line.trim();
    ["help", "instructions", "?"]
        .iter()
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// One game and how it ended; `None` when the player leaves first.
fn play_game(
    console: &mut Console,
    options: &Options,
    fox: &mut Computer,
) -> io::Result<Option<(Game<Setup>, Ending)>> {
    let setup = options.setup;
    // With `--fox-start choose`, the computer's fox picks its own start.
    let start = match setup.fox_start {
        Some(_) => setup.default_start(),
        None => {
            let starts: Vec<Position> = setup
                .fox_choices()
                .into_iter()
                .filter_map(|sq| setup.start(sq).ok())
                .collect();
            starts[fox.choose_start(&starts)]
        }
    };
    let mut game: Game<Setup> = Game::new(start);
    // What the paper says above the next board: the person's move, the fox's.
    let mut said: Vec<String> = Vec::new();
    loop {
        let pos = *game.position();
        let ending = pos.ending(setup.rules);
        if pos.to_move() == Side::Fox && ending.is_none() {
            if !game.moves().is_empty()
                && (!console.pause(options.delay_ms) || console.interrupted())
            {
                return Ok(None);
            }
            let mv = fox.choose(&pos).expect("a fox that can move has a move");
            let eats = pos.is_capture(mv);
            game.play(&setup, mv).map_err(io::Error::other)?;
            said.push(format!(
                "I MOVED FROM {} TO {}{}",
                render::line_column(mv.from()),
                render::line_column(mv.to()),
                if eats { " AND ATE YOUR HOUND." } else { "" }
            ));
            continue;
        }
        console.clear()?;
        console.say("")?;
        if ending == Some(Ending::FoxTrapped) {
            said.push(text::CANT_MOVE.to_string());
        }
        for line in said.drain(..) {
            console.say(&line)?;
        }
        console.write(&render::classic_board(game.position()))?;
        if let Some(ending) = ending {
            console.say(text::result(ending))?;
            return Ok(Some((game, ending)));
        }
        console.say(text::YOUR_MOVE)?;
        let instructions = text::instructions(setup.board, setup.rules, setup.first);
        let Some(mv) = ask_move(console, &pos, &instructions)? else {
            return Ok(None);
        };
        game.play(&setup, mv).map_err(io::Error::other)?;
        said.push(text::you_moved(
            &render::line_column(mv.from()),
            &render::line_column(mv.to()),
        ));
    }
}

/// Asks FROM and TO until they make a legal hound move. `None` when the player leaves.
/// `HELP` at either question prints `instructions` again.
fn ask_move(console: &mut Console, pos: &Position, instructions: &str) -> io::Result<Option<Move>> {
    let board = pos.board();
    let mut from: Option<Square> = None;
    loop {
        let question = if from.is_some() { text::TO } else { text::FROM };
        // Tab offers the hounds that can move, then where the one picked may go.
        let moves = pos.legal_moves();
        let mut answers: Vec<String> = Vec::new();
        for mv in moves.as_slice() {
            let offered = match from {
                None => Some(mv.from()),
                Some(f) => (mv.from() == f).then_some(mv.to()),
            };
            if let Some(sq) = offered.map(render::line_column)
                && !answers.contains(&sq)
            {
                answers.push(sq);
            }
        }
        let line = match console.ask(question, &answers)? {
            Reply::End => return Ok(None),
            Reply::Bad(why) => {
                console.say(&why.to_string().to_uppercase())?;
                continue;
            }
            Reply::Line(line) => line,
        };
        if is_q(&line) {
            // A slip of one letter does not end the game.
            console.say(text::QUIT_IN_FULL)?;
            continue;
        }
        if is_quit(&line) {
            return Ok(None);
        }
        if asks_for_help(&line) {
            if !say_paged_in(console, instructions, LastPage::Open, PAGER)? {
                return Ok(None);
            }
            continue;
        }
        // At TO?, Return or UNDO goes back to choosing a hound.
        let back = line.trim().is_empty() || line.trim().eq_ignore_ascii_case("undo");
        if from.is_some() && back {
            from = None;
            console.say(text::PICK_AGAIN)?;
            continue;
        }
        if line.trim().is_empty() {
            // A reminder of what to type, not a refusal: the exit status
            // does not count a bare Enter.
            console.say(text::TYPE_LINE_COLUMN)?;
            continue;
        }
        if let Some(plain) = crate::shell::text::plain_answer_if_full_width(&line) {
            let why = crate::shell::text::full_width_refusal(&line, &plain, |plain| {
                parse_numbers(plain, board)
            })
            .to_uppercase();
            console.refuse(&why)?;
            continue;
        }
        let numbers = match parse_numbers(&line, board) {
            Ok(numbers) => numbers,
            Err(why) => {
                console.refuse(&why)?;
                continue;
            }
        };
        let result = match (from, numbers.as_slice()) {
            (None, [line, col]) => {
                square(board, *line, *col)
                    .and_then(|sq| pick(pos, sq))
                    .map(|sq| {
                        from = Some(sq);
                        None
                    })
            }
            (None, [l1, c1, l2, c2]) => square(board, *l1, *c1)
                .and_then(|f| pick(pos, f))
                .and_then(|f| Ok((f, square(board, *l2, *c2)?)))
                .and_then(|(f, t)| destination(pos, f, t))
                .map(Some),
            (Some(f), [line, col]) => match square(board, *line, *col) {
                // Another hound named instead: that one is picked.
                Ok(t)
                    if t != f && pos.piece_at(t) == Some(Side::Hounds) && pick(pos, t).is_ok() =>
                {
                    from = Some(t);
                    console.say(&text::picked(&render::line_column(t)))?;
                    Ok(None)
                }
                Ok(t) => destination(pos, f, t).map(Some),
                Err(why) => Err(why),
            },
            _ => Err("TYPE TWO NUMBERS: LINE, THEN COLUMN, LIKE 1,2".to_string()),
        };
        match result {
            Ok(Some(mv)) => return Ok(Some(mv)),
            Ok(None) => {}
            Err(why) => console.refuse(&why)?,
        }
    }
}
