//! The default flow, after the C coursework: menu, names, a match of games
//! with the score and the sides swapped every game.

use std::io;

use crate::console::{Console, Reply};
use crate::fox::{Ending, Game, Move, Position, Side, Square};
use crate::input::{self, Command, Entry};
use crate::render;
use crate::session::{Options, ask_until, capitalise};
use crate::text;

/// The menu's entries; only what works is shown.
const MENU: [&str; 3] = ["Two players at this terminal", "Rules", "Quit"];

/// Names and wins of the two players; Player 1 is index 0.
struct Score {
    names: [String; 2],
    wins: [u32; 2],
}

impl Score {
    fn line(&self, fox: usize) -> String {
        let hounds = 1 - fox;
        text::score_line(
            (&self.names[hounds], self.wins[hounds]),
            (&self.names[fox], self.wins[fox]),
        )
    }

    fn final_line(&self) -> String {
        format!(
            "Final score: {}:{} - {}:{}",
            self.names[0], self.wins[0], self.names[1], self.wins[1]
        )
    }
}

/// Runs the default flow to its end.
pub fn run(console: &mut Console, options: &Options) -> io::Result<()> {
    console.say(text::TITLE)?;
    console.say("")?;
    if options.players.is_none() && !menu(console, options)? {
        return Ok(());
    }
    let Some(names) = names(console, options)? else {
        return Ok(());
    };
    let mut score = Score {
        names,
        wins: [0, 0],
    };
    let mut fox = 0;
    let mut played = 0;
    while let Some(ending) = play_game(console, options, &score, fox)? {
        let winner = if ending.winner() == Side::Fox {
            fox
        } else {
            1 - fox
        };
        score.wins[winner] += 1;
        played += 1;
        console.say(&text::won(ending, &score.names[winner]))?;
        console.say(&score.line(fox))?;
        if options.games.is_some_and(|n| played >= n) {
            break;
        }
        let again = ask_until(
            console,
            "Play again (yes/no)? ",
            &yes_no(),
            input::parse_yes_no,
        )?;
        if again != Some(true) {
            break;
        }
        fox = 1 - fox;
        console.say(&format!(
            "Sides swap: {} is the fox, {} the hounds.",
            score.names[fox],
            score.names[1 - fox]
        ))?;
    }
    console.say(&score.final_line())
}

fn yes_no() -> Vec<String> {
    vec!["yes".to_string(), "no".to_string()]
}

/// The main menu. `false` when the player quits or leaves.
fn menu(console: &mut Console, options: &Options) -> io::Result<bool> {
    loop {
        for (i, label) in MENU.iter().enumerate() {
            console.say(&format!("{}. {label}", i + 1))?;
        }
        let numbers: Vec<String> = (1..=MENU.len()).map(|n| n.to_string()).collect();
        let question = format!("Choose ({})? ", numbers.join(", "));
        let choice = ask_until(console, &question, &numbers, |line| {
            input::parse_choice(line, &MENU)
        })?;
        match choice {
            Some(0) => return Ok(true),
            Some(1) => {
                console.say(&text::help(options.setup.board, options.setup.rules))?;
                console.say("")?;
            }
            _ => return Ok(false),
        }
    }
}

/// The two names, from the options or asked.
fn names(console: &mut Console, options: &Options) -> io::Result<Option<[String; 2]>> {
    if let Some((a, b)) = &options.names {
        return Ok(Some([a.clone(), b.clone()]));
    }
    let Some(first) = ask_until(
        console,
        "What should Player 1 be called (starts as fox)? ",
        &[],
        input::parse_name,
    )?
    else {
        return Ok(None);
    };
    let second = ask_until(
        console,
        "What should Player 2 be called (starts as hound)? ",
        &[],
        |line| {
            let name = input::parse_name(line)?;
            if name == first {
                Err("that is Player 1's name: choose another".to_string())
            } else {
                Ok(name)
            }
        },
    )?;
    Ok(second.map(|second| [first, second]))
}

/// Plays one game. `None` when the player leaves before it ends.
fn play_game(
    console: &mut Console,
    options: &Options,
    score: &Score,
    fox: usize,
) -> io::Result<Option<Ending>> {
    let setup = options.setup;
    let name_of = |side: Side| -> &str {
        match side {
            Side::Fox => &score.names[fox],
            Side::Hounds => &score.names[1 - fox],
        }
    };
    let fox_square = match setup.fox_start {
        Some(sq) => sq,
        None => {
            let choices = setup.fox_choices();
            let answers: Vec<String> = choices.iter().map(Square::to_string).collect();
            let question = format!(
                "{}, where should the fox start ({})? ",
                name_of(Side::Fox),
                text::list(&choices)
            );
            let picked = ask_until(console, &question, &answers, |line| {
                let sq = setup.board.parse_square(line).map_err(|e| e.to_string())?;
                setup.check_fox_start(sq)
            })?;
            match picked {
                Some(sq) => sq,
                None => return Ok(None),
            }
        }
    };
    let start = setup
        .start(fox_square)
        .unwrap_or_else(|_| setup.default_start());
    let mut game = Game::new(start, setup.rules);
    loop {
        if let Some(ending) = game.ending() {
            console.clear()?;
            console.say("")?;
            console.write(&render::board(game.position(), console.colour()))?;
            return Ok(Some(ending));
        }
        let side = game.position().to_move();
        console.clear()?;
        console.say("")?;
        console.say(&score.line(fox))?;
        console.say(&text::next(side, name_of(side)))?;
        console.say(text::REMINDER)?;
        console.write(&render::board(game.position(), console.colour()))?;
        if !human_turn(console, &mut game)? {
            return Ok(None);
        }
    }
}

/// One human turn: a move played or taken back (`true`), or the player gone (`false`).
fn human_turn(console: &mut Console, game: &mut Game) -> io::Result<bool> {
    let pos = *game.position();
    let side = pos.to_move();
    let board = pos.board();
    let movable = pos.movable_pieces();
    // The fox is the only piece of its side, so its turn starts at the destination.
    let mut picked = (side == Side::Fox).then(|| pos.fox());
    let mut told_only = None;
    loop {
        let targets: Vec<Square> = picked.map_or_else(Vec::new, |from| {
            pos.legal_moves()
                .iter()
                .filter(|m| m.from() == from)
                .map(|m| m.to())
                .collect()
        });
        let (question, choices) = match picked {
            None => (text::pick_question(&movable), movable.clone()),
            Some(from) => (
                text::destination_question(side, from, &targets),
                targets.clone(),
            ),
        };
        let only = match (picked, targets.as_slice()) {
            (Some(from), [to]) => pos.find_move(from, *to),
            _ => None,
        };
        if let Some(mv) = only
            && told_only != Some(mv)
        {
            console.say(&text::only_move(side, mv.from(), mv.to()))?;
            told_only = Some(mv);
        }
        let mut answers: Vec<String> = choices.iter().map(Square::to_string).collect();
        answers.extend(Command::ALL.iter().map(|c| c.word().to_string()));
        let line = match console.ask(&question, &answers)? {
            Reply::End => return Ok(false),
            Reply::Bad(why) => {
                if let Some(mv) = only {
                    return Ok(game.play(mv));
                }
                console.say(&why.to_string())?;
                continue;
            }
            Reply::Line(line) => line,
        };
        let entry = input::parse_entry(&line, board);
        if let Ok(Entry::Command(command)) = entry {
            match command {
                Command::Help => console.say(&text::help(board, game.rules()))?,
                Command::Moves => console.say(&text::moves(&pos.legal_moves()))?,
                Command::Board => console.write(&render::board(&pos, console.colour()))?,
                Command::Hint => console.say("Hints are not available yet.")?,
                Command::Quit => return Ok(false),
                Command::Undo => match game.undo() {
                    Some(mv) => {
                        console.say(&text::took_back(mv))?;
                        return Ok(true);
                    }
                    None => console.say(text::NOTHING_TO_UNDO)?,
                },
            }
            continue;
        }
        // As in the coursework, any input makes a piece's only move.
        if let Some(mv) = only {
            return Ok(game.play(mv));
        }
        let chosen: Result<Move, String> = match entry {
            Ok(Entry::Command(_)) => unreachable!("commands are handled above"),
            Ok(Entry::Empty) => Err(text::NEED_SQUARE.to_string()),
            Err(e) => Err(capitalise(&e.to_string())),
            Ok(Entry::Move(from, to)) => whole_move(&pos, from, to),
            Ok(Entry::Square(sq)) => match picked {
                Some(from) if targets.contains(&sq) => Ok(pos.find_move(from, sq).expect("listed")),
                Some(from) if side == Side::Fox || !movable.contains(&sq) => match pos.pick(sq) {
                    Err(e) if pos.piece_at(sq).is_some() || !sq.is_dark() => {
                        Err(text::pick_error(&e))
                    }
                    _ => Err(text::not_a_destination(side, from, sq, &targets)),
                },
                _ => match pos.pick(sq) {
                    Ok(_) => {
                        picked = Some(sq);
                        continue;
                    }
                    Err(e) => Err(text::pick_error(&e)),
                },
            },
        };
        match chosen {
            Ok(mv) => return Ok(game.play(mv)),
            Err(why) => console.say(&why)?,
        }
    }
}

/// A whole move typed at once, or why it is not legal.
fn whole_move(pos: &Position, from: Square, to: Square) -> Result<Move, String> {
    if let Some(mv) = pos.find_move(from, to) {
        return Ok(mv);
    }
    let moves = pos.pick(from).map_err(|e| text::pick_error(&e))?;
    let targets: Vec<Square> = moves.iter().map(|m| m.to()).collect();
    Err(text::not_a_destination(pos.to_move(), from, to, &targets))
}
