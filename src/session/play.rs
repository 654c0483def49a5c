//! The default flow, after the C coursework: a menu, the players, and a match
//! of games with the score kept and the sides swapped every game.

use std::io;

use crate::console::{Console, Reply};
use crate::games::fox::players::{Computer, Level};
use crate::games::fox::solver::Solver;
use crate::games::fox::{Game, Move, Position, Side, Square};
use crate::history::{self, Player};
use crate::input::{self, Command, Entry};
use crate::render;
use crate::session::{Options, ask_until, capitalise, record_game};
use crate::text;

/// What the menu offers; only what works is shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Choice {
    TwoPlayers,
    OnePlayer,
    Watch,
    History,
    Rules,
    Quit,
}

const MENU: [(Choice, &str); 6] = [
    (Choice::TwoPlayers, "Two players at this terminal"),
    (Choice::OnePlayer, "Play against the computer"),
    (Choice::Watch, "Watch the computer play itself"),
    (Choice::History, "Game history"),
    (Choice::Rules, "Rules"),
    (Choice::Quit, "Quit"),
];

/// A player's seat: Player 1 is seat 0 and starts as the fox.
struct Seat {
    name: String,
    computer: Option<Computer>,
    wins: u32,
}

impl Seat {
    fn record(&self) -> Player {
        match &self.computer {
            Some(c) => Player::computer(self.name.clone(), c.level().name()),
            None => Player::human(self.name.clone()),
        }
    }
}

/// The match in progress: both seats, who is the fox, and the shared solver for hints.
struct Match {
    seats: [Seat; 2],
    fox: usize,
    solver: Option<Solver>,
}

impl Match {
    fn seat(&self, side: Side) -> usize {
        match side {
            Side::Fox => self.fox,
            Side::Hounds => 1 - self.fox,
        }
    }

    fn name(&self, side: Side) -> &str {
        &self.seats[self.seat(side)].name
    }

    fn is_computer(&self, side: Side) -> bool {
        self.seats[self.seat(side)].computer.is_some()
    }

    fn score_line(&self) -> String {
        let (h, f) = (&self.seats[self.seat(Side::Hounds)], &self.seats[self.fox]);
        text::score_line((&h.name, h.wins), (&f.name, f.wins))
    }

    fn final_line(&self) -> String {
        let [a, b] = &self.seats;
        format!("Final score: {}:{} - {}:{}", a.name, a.wins, b.name, b.wins)
    }
}

/// Runs the default flow to its end.
pub fn run(console: &mut Console, options: &Options) -> io::Result<()> {
    console.say(text::TITLE)?;
    console.say("")?;
    let players = match options.players {
        Some(n) => Some(n),
        None => menu(console, options)?,
    };
    let seats = match players {
        Some(n) => seats(console, options, n)?,
        None => None,
    };
    let Some(seats) = seats else {
        return console.say(text::GOODBYE);
    };
    let mut game_match = Match {
        seats,
        fox: 0,
        solver: None,
    };
    let mut played = 0;
    while let Some(game) = play_game(console, options, &mut game_match)? {
        let ending = game.ending().expect("a finished game has an ending");
        let winner = game_match.seat(ending.winner());
        game_match.seats[winner].wins += 1;
        played += 1;
        let (fox, hounds) = (
            game_match.seats[game_match.fox].record(),
            game_match.seats[1 - game_match.fox].record(),
        );
        record_game(options, "default", &game, fox, hounds)?;
        console.say(&text::won(ending, &game_match.seats[winner].name))?;
        console.say(&game_match.score_line())?;
        let again = match options.games {
            Some(n) => played < n,
            None => {
                ask_until(
                    console,
                    "Play again (yes/no)? ",
                    &yes_no(),
                    input::parse_yes_no,
                )? == Some(true)
            }
        };
        if !again {
            break;
        }
        game_match.fox = 1 - game_match.fox;
        console.note(&format!(
            "Sides swap: {} is the fox, {} the hounds.",
            game_match.name(Side::Fox),
            game_match.name(Side::Hounds)
        ))?;
    }
    console.say(&game_match.final_line())
}

fn yes_no() -> Vec<String> {
    vec!["yes".to_string(), "no".to_string()]
}

/// The main menu: how many human players, or `None` to quit.
fn menu(console: &mut Console, options: &Options) -> io::Result<Option<u8>> {
    let labels: Vec<&str> = MENU.iter().map(|(_, label)| *label).collect();
    loop {
        for (i, label) in labels.iter().enumerate() {
            console.say(&format!("{}. {label}", i + 1))?;
        }
        let numbers: Vec<String> = (1..=MENU.len()).map(|n| n.to_string()).collect();
        let question = format!("Choose ({})? ", numbers.join(", "));
        let choice = ask_until(console, &question, &numbers, |line| {
            input::parse_choice(line, &labels)
        })?;
        match choice.map(|i| MENU[i].0) {
            Some(Choice::TwoPlayers) => return Ok(Some(2)),
            Some(Choice::OnePlayer) => return Ok(Some(1)),
            Some(Choice::Watch) => return Ok(Some(0)),
            Some(Choice::History) => show_history(console, options)?,
            Some(Choice::Rules) => {
                console.say(&text::help(options.setup.board, options.setup.rules))?
            }
            Some(Choice::Quit) | None => return Ok(None),
        }
        console.say("")?;
    }
}

/// The game log's table, for the menu.
fn show_history(console: &mut Console, options: &Options) -> io::Result<()> {
    let Some(log) = &options.history else {
        return console.say("The game history is off (--no-history).");
    };
    match log.read() {
        Ok(reading) => {
            if reading.skipped > 0 {
                console.say(&format!(
                    "Warning: {}",
                    text::skipped_lines(reading.skipped, log.path())
                ))?;
            }
            console.say(&history::table(&reading.records))
        }
        Err(e) => console.say(&format!(
            "The game history in {} cannot be read: {e}.",
            log.path().display()
        )),
    }
}

/// Asks for a level unless the options give it.
fn ask_level(
    console: &mut Console,
    given: Option<Level>,
    whose: &str,
) -> io::Result<Option<Level>> {
    if let Some(level) = given {
        return Ok(Some(level));
    }
    for (i, level) in Level::ALL.iter().enumerate() {
        console.say(&format!(
            "{}. {} - {}",
            i + 1,
            capitalise(level.name()).trim_end_matches('.'),
            level.description()
        ))?;
    }
    let labels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    let numbers: Vec<String> = (1..=labels.len()).map(|n| n.to_string()).collect();
    let question = format!("Which level {whose} ({})? ", numbers.join(", "));
    Ok(ask_until(console, &question, &numbers, |line| {
        input::parse_choice(line, &labels)
    })?
    .map(|i| Level::ALL[i]))
}

/// The two seats for a match with `players` humans. `None` when the player leaves.
fn seats(console: &mut Console, options: &Options, players: u8) -> io::Result<Option<[Seat; 2]>> {
    let rules = options.setup.rules;
    let computer = |level: Level, seat: u64| {
        Some(Computer::new(level, rules, options.seed.wrapping_add(seat)))
    };
    let seat = |name: &str, computer: Option<Computer>| Seat {
        name: name.to_string(),
        computer,
        wins: 0,
    };
    match players {
        0 => {
            let Some(fox) = ask_level(console, options.fox_level.or(options.level), "for the fox")?
            else {
                return Ok(None);
            };
            let Some(hounds) = ask_level(
                console,
                options.hounds_level.or(options.level),
                "for the hounds",
            )?
            else {
                return Ok(None);
            };
            Ok(Some([
                seat(text::COMPUTER_NAMES[0], computer(fox, 0)),
                seat(text::COMPUTER_NAMES[1], computer(hounds, 1)),
            ]))
        }
        1 => {
            let Some(level) = ask_level(console, options.level, "for the computer")? else {
                return Ok(None);
            };
            let side = match options.side {
                Some(side) => Some(side),
                None => ask_until(
                    console,
                    "Which side will you play first (fox/hounds)? ",
                    &["fox".into(), "hounds".into()],
                    |line| line.parse::<Side>(),
                )?,
            };
            let Some(side) = side else { return Ok(None) };
            let name = match options.names.first() {
                Some(name) => Some(name.clone()),
                None => ask_until(console, "What should you be called? ", &[], |line| {
                    let name = input::parse_name(line)?;
                    if name == text::COMPUTER_NAMES[0] {
                        Err("that is the computer's name: choose another".to_string())
                    } else {
                        Ok(name)
                    }
                })?,
            };
            let Some(name) = name else { return Ok(None) };
            let human = seat(&name, None);
            let machine = seat(text::COMPUTER_NAMES[0], computer(level, 0));
            Ok(Some(match side {
                Side::Fox => [human, machine],
                Side::Hounds => [machine, human],
            }))
        }
        _ => Ok(names(console, options)?.map(|[a, b]| [seat(&a, None), seat(&b, None)])),
    }
}

/// The two names, from the options or asked.
fn names(console: &mut Console, options: &Options) -> io::Result<Option<[String; 2]>> {
    if let [a, b] = options.names.as_slice() {
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
    game_match: &mut Match,
) -> io::Result<Option<Game>> {
    let setup = options.setup;
    let fox_square = match setup.fox_start {
        Some(sq) => sq,
        None => {
            let choices = setup.fox_choices();
            let fox_seat = &mut game_match.seats[game_match.fox];
            if let Some(computer) = fox_seat.computer.as_mut() {
                let starts: Vec<Position> = choices
                    .iter()
                    .filter_map(|&sq| setup.start(sq).ok())
                    .collect();
                // A start position always has its fox.
                starts[computer.choose_start(&starts)]
                    .fox()
                    .unwrap_or_else(|| setup.board.default_fox_start())
            } else {
                let answers: Vec<String> = choices.iter().map(Square::to_string).collect();
                let question = format!(
                    "{}, where should the fox start ({})? ",
                    fox_seat.name,
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
        }
    };
    let start = setup
        .start(fox_square)
        .unwrap_or_else(|_| setup.default_start());
    let mut game = Game::new(start, setup.rules);
    loop {
        if game.ending().is_some() {
            console.clear()?;
            console.say("")?;
            console.write(&render::board(game.position(), console.colour()))?;
            return Ok(Some(game));
        }
        let side = game.position().to_move();
        console.clear()?;
        console.say("")?;
        console.say(&game_match.score_line())?;
        console.say(&text::next(side, game_match.name(side)))?;
        let watching = game_match.seats.iter().all(|seat| seat.computer.is_some());
        console.say(if watching {
            text::WATCHING
        } else {
            text::REMINDER
        })?;
        console.write(&render::board(game.position(), console.colour()))?;
        let seat = game_match.seat(side);
        if let Some(computer) = game_match.seats[seat].computer.as_mut() {
            let mv = computer
                .choose(game.position())
                .expect("a game that goes on has a move");
            console.note(&text::computer_moves(&game_match.seats[seat].name, mv))?;
            if !console.pause(options.delay_ms) || console.interrupted() {
                return Ok(None);
            }
            game.play(mv);
        } else if !human_turn(console, &mut game, game_match)? {
            return Ok(None);
        }
    }
}

/// One human turn: a move played or taken back (`true`), or the player gone (`false`).
fn human_turn(console: &mut Console, game: &mut Game, game_match: &mut Match) -> io::Result<bool> {
    let pos = *game.position();
    let side = pos.to_move();
    let board = pos.board();
    let movable = pos.movable_pieces();
    // The fox is the only piece of its side, so its turn starts at the destination.
    let mut picked = pos.fox().filter(|_| side == Side::Fox);
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
                Command::Hint => {
                    let solver = game_match
                        .solver
                        .get_or_insert_with(|| Solver::new(board, game.rules()));
                    let value = solver.value(&pos);
                    let best = solver.best_moves(&pos);
                    // Once a hound is picked, a best move of that hound comes first.
                    let from_picked = best.iter().find(|m| Some(m.from()) == picked);
                    if let Some(&best) = from_picked.or(best.first()) {
                        let verdict = text::verdict(value.winner, value.plies);
                        console.say(&text::hint(best, &verdict))?;
                    }
                }
                Command::Quit => return Ok(false),
                Command::Undo => {
                    if undo(console, game, game_match)? {
                        return Ok(true);
                    }
                }
            }
            continue;
        }
        // As in the coursework, any input makes a piece's only move, except
        // another legal move typed whole, or another hound picked instead.
        if let Some(mv) = only {
            return match entry {
                Ok(Entry::Move(from, to)) if pos.find_move(from, to).is_some() => {
                    Ok(game.play(pos.find_move(from, to).expect("found")))
                }
                Ok(Entry::Square(sq))
                    if side == Side::Hounds && sq != mv.from() && movable.contains(&sq) =>
                {
                    picked = Some(sq);
                    continue;
                }
                _ => Ok(game.play(mv)),
            };
        }
        let chosen: Result<Move, String> = match entry {
            Ok(Entry::Command(_)) => unreachable!("commands are handled above"),
            Ok(Entry::Empty) => Err(text::NEED_SQUARE.to_string()),
            Err(e) => Err(capitalise(&e.to_string())),
            Ok(Entry::Move(from, to)) => whole_move(&pos, from, to),
            Ok(Entry::Square(sq)) => match picked {
                Some(from) if targets.contains(&sq) => Ok(pos.find_move(from, sq).expect("listed")),
                Some(from) if side == Side::Fox || !movable.contains(&sq) => match pos.pick(sq) {
                    Err(e) if pos.piece_at(sq).is_some() || !board.is_dark(sq) => {
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

/// Takes back the last move made by a person, and the computer's replies
/// after it, so that it is that person's turn again. `true` if anything was
/// taken back. A computer's move alone is never taken back: the player could
/// otherwise re-roll it.
fn undo(console: &mut Console, game: &mut Game, game_match: &Match) -> io::Result<bool> {
    let positions = game.positions();
    let last_human = (0..game.moves().len())
        .rev()
        .find(|&ply| !game_match.is_computer(positions[ply].to_move()));
    let Some(ply) = last_human else {
        console.say(text::NOTHING_TO_UNDO)?;
        return Ok(false);
    };
    while game.moves().len() > ply {
        if let Some(mv) = game.undo() {
            console.note(&text::took_back(mv))?;
        }
    }
    Ok(true)
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
