//! `tallyho classic`: the 1978 BASIC program's conversation. The human plays
//! the hounds and moves first; the computer is the fox.

use std::io;

use crate::console::{Console, Reply};
use crate::games::fox::players::{Computer, Level};
use crate::games::fox::{Board, Ending, Game, Move, Position, Side, Square};
use crate::history::Player;
use crate::input;
use crate::render;
use crate::session::{Options, record_game};
use crate::text::classic as text;

/// Runs the 1978 flow to its end.
pub fn run(console: &mut Console, options: &Options) -> io::Result<()> {
    let setup = options.setup;
    let level = options.level.unwrap_or(Level::Classic);
    console.say(text::BANNER)?;
    console.say("")?;
    let answers = vec!["YES".to_string(), "NO".to_string()];
    match console.ask(text::WANT_INSTRUCTIONS, &answers)? {
        Reply::End => {
            console.say(&text::tally(0, 0))?;
            return console.say(text::BYE);
        }
        Reply::Line(line)
            if line.trim().eq_ignore_ascii_case("yes") || line.trim().eq_ignore_ascii_case("y") =>
        {
            let instructions = text::instructions(setup.board, setup.first);
            for line in instructions.lines() {
                // Kept for after the screen is cleared before the first board.
                console.note(line)?;
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
    while let Some(game) = play_game(console, options, &mut fox)? {
        let ending = game.ending().expect("a finished game has an ending");
        match ending.winner() {
            Side::Hounds => you += 1,
            Side::Fox => me += 1,
        }
        let human = Player::human("YOU");
        let computer = Player::computer("", level.name());
        record_game(options, "classic", &game, computer, human)?;
        console.say(&text::tally(you, me))?;
        played += 1;
        let again = match options.games {
            Some(n) => played < n,
            None => matches!(
                console.ask(text::AGAIN, &answers)?,
                Reply::Line(line) if input::parse_yes_no(&line) == Ok(true)
            ),
        };
        if !again {
            left_mid_game = false;
            break;
        }
    }
    if left_mid_game {
        console.say(&text::tally(you, me))?;
    }
    console.say(text::BYE)
}

/// One game; `None` when the player leaves first.
fn play_game(
    console: &mut Console,
    options: &Options,
    fox: &mut Computer,
) -> io::Result<Option<Game>> {
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
    let mut game = Game::new(start, setup.rules);
    let mut said: Option<String> = None;
    loop {
        let pos = *game.position();
        if pos.to_move() == Side::Fox && game.ending().is_none() {
            let mv = fox.choose(&pos).expect("a fox that can move has a move");
            game.play(mv);
            said = Some(format!(
                "I MOVED FROM {} TO {}",
                render::line_column(mv.from()),
                render::line_column(mv.to())
            ));
            continue;
        }
        console.clear()?;
        console.say("")?;
        if game.ending() == Some(Ending::FoxTrapped) {
            said = Some(text::CANT_MOVE.to_string());
        }
        if let Some(line) = said.take() {
            console.say(&line)?;
        }
        console.write(&render::classic_board(game.position()))?;
        if let Some(ending) = game.ending() {
            console.say(text::result(ending))?;
            return Ok(Some(game));
        }
        console.say(text::YOUR_MOVE)?;
        let Some(mv) = ask_move(console, &pos)? else {
            return Ok(None);
        };
        game.play(mv);
    }
}

/// Asks FROM and TO until they make a legal hound move. `None` when the player leaves.
fn ask_move(console: &mut Console, pos: &Position) -> io::Result<Option<Move>> {
    let board = pos.board();
    let mut from: Option<Square> = None;
    loop {
        let question = if from.is_some() { text::TO } else { text::FROM };
        let line = match console.ask(question, &[])? {
            Reply::End => return Ok(None),
            Reply::Bad(why) => {
                console.say(&why.to_string().to_uppercase())?;
                continue;
            }
            Reply::Line(line) => line,
        };
        if matches!(
            line.trim().to_ascii_lowercase().as_str(),
            "quit" | "end" | "stop"
        ) {
            return Ok(None);
        }
        let numbers = match input::parse_numbers(&line) {
            Ok(numbers) => numbers,
            Err(why) => {
                console.say(&why)?;
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
            (Some(f), [line, col]) => square(board, *line, *col)
                .and_then(|t| destination(pos, f, t))
                .map(Some),
            _ => Err("TYPE TWO NUMBERS: LINE, THEN COLUMN, LIKE 1,2".to_string()),
        };
        match result {
            Ok(Some(mv)) => return Ok(Some(mv)),
            Ok(None) => {}
            Err(why) => console.say(&why)?,
        }
    }
}

/// The square at a 1978 line and column.
fn square(board: Board, line: u8, col: u8) -> Result<Square, String> {
    match (line.checked_sub(1), col.checked_sub(1)) {
        (Some(row), Some(c)) if board.square(c, row).is_some() => {
            Ok(board.square(c, row).expect("checked"))
        }
        _ => Err(format!(
            "{line},{col} IS OFF THE BOARD. LINES GO FROM 1 TO {}, COLUMNS FROM 1 TO {}.",
            board.height(),
            board.width()
        )),
    }
}

/// Checks that a square holds a hound that can move.
fn pick(pos: &Position, sq: Square) -> Result<Square, String> {
    let at = render::line_column(sq);
    match pos.piece_at(sq) {
        Some(Side::Hounds) if pos.pick(sq).is_ok() => Ok(sq),
        Some(Side::Hounds) => Err(format!("THE HOUND AT {at} CAN'T MOVE.")),
        Some(Side::Fox) => Err(format!("{at} IS MY FOX, NOT A HOUND.")),
        None if !pos.board().is_dark(sq) => {
            Err(format!("{at} IS AN X SQUARE. NO PIECE CAN BE THERE."))
        }
        None => Err(format!("THERE IS NO HOUND AT {at}.")),
    }
}

/// The hound move from `from` to `to`, or why it is not one.
fn destination(pos: &Position, from: Square, to: Square) -> Result<Move, String> {
    if let Some(mv) = pos.find_move(from, to) {
        return Ok(mv);
    }
    let at = render::line_column(to);
    let step = to.row() == from.row() + 1 && to.col().abs_diff(from.col()) == 1;
    Err(if !step {
        format!(
            "A HOUND MOVES ONE LINE FORWARD AND ONE COLUMN LEFT OR RIGHT. {at} IS NOT ONE STEP FROM {}.",
            render::line_column(from)
        )
    } else {
        format!("{at} IS NOT EMPTY.")
    })
}
