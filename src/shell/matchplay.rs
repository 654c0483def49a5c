//! A match of any game: the menu, the players, and games played one after
//! another with the score kept and the sides swapped every game. The game's
//! rules and face say everything about the game itself.

use std::io;
use std::time::Duration;

use crate::games::{Computer, Computers, Game, GameKind, Level, Outcome, Rules, Square};
use crate::shell::face::{FULL_MENU, Face, MenuChoice};

use super::ask::{ask_until, ask_yes_no, capitalise, parse_choice, parse_name, same_name};
use super::clock::Until;
use super::console::{Console, Reply};
use super::history::{self, Keeper, Seat as LoggedSeat};
use super::signals;
use super::text;
use super::turn::{self, Command, Turn};

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

/// What the menu offers.
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

/// The seed of a computer's move: the match's seed, the seat and the ply,
/// mixed (SplitMix64's finaliser) so that nearby plies are unrelated.
fn move_seed(seed: u64, seat: usize, ply: usize) -> u64 {
    let mut z = seed
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
    signals::set_farewell(Some(GOODBYE.to_string()));
    console.say(face.title())?;
    console.say("")?;
    if let (None, Some(intro)) = (options.players, face.intro(&options.rules)) {
        console.say(&intro)?;
        if console.ask("Press Enter to continue. ", &[])? == Reply::End {
            console.after_interrupt()?;
            console.say(GOODBYE)?;
            return Ok(0);
        }
        console.say("")?;
    }
    let players = match options.players {
        Some(n) => Some(n),
        None => menu(console, face, options)?,
    };
    let seats = match players {
        Some(n) => seats(console, face, options, n)?,
        None => None,
    };
    let Some(seats) = seats else {
        console.after_interrupt()?;
        console.say(GOODBYE)?;
        return Ok(0);
    };
    let rules = &options.rules;
    let mut game_match = Match {
        seats,
        first: 0,
        draws: 0,
        adviser: None,
    };
    let mut played = 0;
    signals::set_farewell(Some(game_match.final_line()));
    while let Some(game) = play_game(console, face, options, &mut game_match)? {
        let outcome = game.outcome(rules).expect("a finished game has an outcome");
        let winner = outcome.winner().map(|side| game_match.seat(rules, side));
        match winner {
            Some(seat) => game_match.seats[seat].wins += 1,
            None => game_match.draws += 1,
        }
        played += 1;
        signals::set_farewell(Some(game_match.final_line()));
        record(options, &game_match, &game, outcome);
        let [first, second] = rules.sides();
        let names = [
            game_match.name(rules, first),
            game_match.name(rules, second),
        ];
        for line in face.final_words(rules, game.positions(), names) {
            console.say(&line)?;
        }
        let winner_name = winner.map(|seat| game_match.seats[seat].name.as_str());
        let result = face.result(&outcome, winner_name);
        if !result.is_empty() {
            console.say(&result)?;
        }
        console.say(&game_match.score_line())?;
        let again = match options.games {
            Some(n) => played < n,
            None => ask_yes_no(console, face.again_question(), text::AGAIN_HELP)? == Some(true),
        };
        if !again {
            break;
        }
        game_match.first = 1 - game_match.first;
        let [first, second] = rules.sides();
        console.note(&face.swap_notice([
            game_match.name(rules, first),
            game_match.name(rules, second),
        ]))?;
    }
    signals::set_farewell(None);
    console.after_interrupt()?;
    console.say(&game_match.final_line())?;
    Ok(played)
}

/// Keeps a finished game in the log, if there is one.
fn record<R: Computers>(
    options: &Options<R>,
    game_match: &Match<R>,
    game: &Game<R>,
    outcome: Outcome<R::Side>,
) {
    let rules = &options.rules;
    let seats = game_match.seats.iter().enumerate().map(|(i, seat)| {
        let side = rules.sides()[if i == game_match.first { 0 } else { 1 }];
        LoggedSeat {
            name: seat.name.clone(),
            side: side.to_string(),
            level: seat.computer.as_ref().map(|(level, _)| level.to_string()),
        }
    });
    let record = history::Record::of_game(
        rules,
        options.kind.flow(),
        seats.collect(),
        game,
        outcome,
        Some(options.seed),
    );
    options.log.keep(&record);
}

/// The main menu: how many human players, or `None` to quit.
fn menu<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
) -> io::Result<Option<u8>> {
    let menu = face.menu();
    let labels: Vec<&str> = menu.iter().map(|(_, label)| *label).collect();
    loop {
        for (i, label) in labels.iter().enumerate() {
            console.say(&format!("{}. {label}", i + 1))?;
        }
        let numbers: Vec<String> = (1..=menu.len()).map(|n| n.to_string()).collect();
        let question = format!("Choose ({})? ", numbers.join(", "));
        let choice = ask_until(console, &question, &numbers, text::MENU_HELP, |line| {
            parse_choice(line, &labels)
        })?;
        let players = match choice.map(|i| menu[i].0) {
            Some(MenuChoice::TwoPlayers) => Some(2),
            Some(MenuChoice::OnePlayer) => Some(1),
            Some(MenuChoice::Watch) => Some(0),
            _ => None,
        };
        if let Some(why) = players.and_then(|n| unfit(options, n)) {
            console.refuse(&capitalise(&why))?;
            console.say("")?;
            continue;
        }
        match choice.map(|i| menu[i].0) {
            Some(MenuChoice::Play) => {
                let who = &FULL_MENU[..3];
                let labels: Vec<&str> = who.iter().map(|(_, label)| *label).collect();
                for (i, label) in labels.iter().enumerate() {
                    console.say(&format!("{}. {label}", i + 1))?;
                }
                let numbers: Vec<String> = (1..=who.len()).map(|n| n.to_string()).collect();
                let question = format!("Who plays ({})? ", numbers.join(", "));
                let picked = ask_until(console, &question, &numbers, text::MENU_HELP, |line| {
                    let n = [2, 1, 0][parse_choice(line, &labels)?];
                    unfit(options, n).map_or(Ok(n), Err)
                })?;
                return Ok(picked);
            }
            Some(MenuChoice::TwoPlayers) => return Ok(Some(2)),
            Some(MenuChoice::OnePlayer) => return Ok(Some(1)),
            Some(MenuChoice::Watch) => return Ok(Some(0)),
            Some(MenuChoice::History) => history::show_in_menu(console, &options.log)?,
            Some(MenuChoice::Rules) => console.say(&face.help(&options.rules))?,
            Some(MenuChoice::Quit) | None => return Ok(None),
        }
        console.say("")?;
    }
}

/// Why the command line's options do not fit a match of `players` people,
/// if they do not: they would be ignored.
fn unfit<R: Computers>(options: &Options<R>, players: u8) -> Option<String> {
    let names = options.names.len();
    let levels = options.level.is_some() || options.side.is_some();
    let watch_levels = options.side_levels.iter().any(Option::is_some);
    match players {
        2 if levels || watch_levels => Some(
            "the computer's options (--level, --side, the levels for watching) need a computer player: choose another game, or leave and drop them".to_string(),
        ),
        1 if names == 2 => Some(
            "--names gave two players: against the computer, give your name alone. Choose two players, or leave and change it".to_string(),
        ),
        1 if watch_levels => Some(
            "the levels for watching are for the computer playing itself: choose watching, or leave and use --level".to_string(),
        ),
        0 if names > 0 => Some(
            "--names gave players' names, but the computer names its own: choose a game with players".to_string(),
        ),
        0 if options.side.is_some() => Some(
            "--side is for playing against the computer: choose that, or leave and drop it".to_string(),
        ),
        _ => None,
    }
}

/// Asks for a level unless the options give it.
fn ask_level<L: Level>(
    console: &mut Console,
    given: Option<L>,
    whose: &str,
) -> io::Result<Option<L>> {
    if let Some(level) = given {
        return Ok(Some(level));
    }
    for (i, level) in L::ALL.iter().enumerate() {
        console.say(&format!(
            "{}. {} - {}",
            i + 1,
            capitalise(&level.to_string()).trim_end_matches('.'),
            level.description()
        ))?;
    }
    let labels: Vec<String> = L::ALL.iter().map(ToString::to_string).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let numbers: Vec<String> = (1..=labels.len()).map(|n| n.to_string()).collect();
    // Enter takes a level in the middle: a fair game for a newcomer.
    let default = L::ALL.len() / 2;
    let question = format!(
        "Which level {whose} ({}; Enter for {})? ",
        numbers.join(", "),
        default + 1
    );
    let help = text::level_help(labels[default]);
    Ok(ask_until(console, &question, &numbers, &help, |line| {
        if line.trim().is_empty() {
            Ok(default)
        } else {
            parse_choice(line, &labels)
        }
    })?
    .map(|i| L::ALL[i]))
}

/// The two seats for a match with `players` people. `None` when the player leaves.
fn seats<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    players: u8,
) -> io::Result<Option<[Seat<R>; 2]>> {
    let rules = &options.rules;
    let sides = rules.sides();
    let computer_names = face.computer_names();
    let seat = |name: &str, computer: Option<R::Level>, seed: u64| Seat {
        name: name.to_string(),
        computer: computer.map(|level| {
            (
                level,
                rules.computer(level, options.seed.wrapping_add(seed)),
            )
        }),
        wins: 0,
    };
    match players {
        0 => {
            let mut levels = [None, None];
            for (i, side) in sides.into_iter().enumerate() {
                let given = options.side_levels[i].or(options.level);
                let Some(level) = ask_level(console, given, &format!("for the {side}"))? else {
                    return Ok(None);
                };
                levels[i] = Some(level);
            }
            Ok(Some([
                seat(computer_names[0], levels[0], 0),
                seat(computer_names[1], levels[1], 1),
            ]))
        }
        1 => {
            let Some(level) = ask_level(console, options.level, "for the computer")? else {
                return Ok(None);
            };
            let side = match options.side {
                Some(side) => Some(side),
                None => {
                    let listed: Vec<String> = sides.iter().map(ToString::to_string).collect();
                    ask_until(
                        console,
                        &format!("Which side will you play first ({})? ", listed.join("/")),
                        &listed,
                        &text::side_help(&listed),
                        |line| line.parse::<R::Side>(),
                    )?
                }
            };
            let Some(side) = side else { return Ok(None) };
            let name = match options.names.first() {
                Some(name) => Some(name.clone()),
                None => ask_until(
                    console,
                    "What should you be called? ",
                    &[],
                    text::NAME_HELP,
                    |line| {
                        let name = parse_name(line)?;
                        if same_name(&name, computer_names[0]) {
                            Err("that is the computer's name: choose another".to_string())
                        } else {
                            Ok(name)
                        }
                    },
                )?,
            };
            let Some(name) = name else { return Ok(None) };
            let human = seat(&name, None, 0);
            let machine = seat(computer_names[0], Some(level), 0);
            Ok(Some(if side == sides[0] {
                [human, machine]
            } else {
                [machine, human]
            }))
        }
        _ => {
            Ok(names(console, face, options)?.map(|[a, b]| [seat(&a, None, 0), seat(&b, None, 1)]))
        }
    }
}

/// The two names, from the options or asked.
fn names<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
) -> io::Result<Option<[String; 2]>> {
    if let [a, b] = options.names.as_slice() {
        return Ok(Some([a.clone(), b.clone()]));
    }
    let [first, second] = options.rules.sides();
    let given = options.names.first().cloned();
    let one = match given {
        Some(one) => Some(one),
        None => ask_until(
            console,
            &format!(
                "What should Player 1 be called (starts as {})? ",
                face.side_noun(first)
            ),
            &[],
            text::NAME_HELP,
            parse_name,
        )?,
    };
    let Some(one) = one else {
        return Ok(None);
    };
    let two = ask_until(
        console,
        &format!(
            "What should Player 2 be called (starts as {})? ",
            face.side_noun(second)
        ),
        &[],
        text::NAME_HELP,
        |line| {
            let name = parse_name(line)?;
            if same_name(&name, &one) {
                Err("that is Player 1's name: choose another".to_string())
            } else {
                Ok(name)
            }
        },
    )?;
    Ok(two.map(|two| [one, two]))
}

/// The start position: the setup's, or one the player to pick chooses.
/// `None` when the player leaves.
fn choose_start<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    rules: &R,
    game_match: &mut Match<R>,
) -> io::Result<Option<R::Position>> {
    let Some((side, starts)) = rules.start_choices().filter(|(_, s)| !s.is_empty()) else {
        return Ok(Some(rules.start()));
    };
    let Some(choice) = face.start_choice() else {
        return Ok(Some(starts[0].clone()));
    };
    let seat = game_match.seat(rules, side);
    let seat = &mut game_match.seats[seat];
    if let Some((_, computer)) = seat.computer.as_mut() {
        let i = computer.choose_start(rules, &starts).min(starts.len() - 1);
        return Ok(Some(starts[i].clone()));
    }
    console.write(&choice.start_board(rules, &starts, console.colour()))?;
    let (question, answers) = choice.start_question(rules, &seat.name, &starts);
    let help = text::choose_help(&answers);
    let picked = ask_until(console, &question, &answers, &help, |line| {
        choice.parse_start(rules, line, &starts)
    })?;
    Ok(picked.and_then(|i| starts.get(i).cloned()))
}

/// Plays one game. `None` when the player leaves before it ends.
fn play_game<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game_match: &mut Match<R>,
) -> io::Result<Option<Game<R>>> {
    let rules = &options.rules;
    let Some(start) = choose_start(console, face, rules, game_match)? else {
        return Ok(None);
    };
    let mut game: Game<R> = Game::new(start);
    let watching = game_match.seats.iter().all(|seat| seat.computer.is_some());
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
    loop {
        let last = game.moves().last();
        if game.outcome(rules).is_some() {
            console.clear()?;
            console.say("")?;
            console.write(&face.board(rules, game.positions(), last, console.colour()))?;
            return Ok(Some(game));
        }
        let pos = game.position();
        let side = rules.to_move(pos);
        console.clear()?;
        console.say("")?;
        console.say(&game_match.score_line())?;
        console.say(&format!(
            "{} ({}) next",
            face.side_title(side),
            game_match.name(rules, side)
        ))?;
        for line in face.status(rules, game.positions()) {
            console.say(&line)?;
        }
        console.say(if watching { WATCHING } else { REMINDER })?;
        console.write(&face.board(rules, game.positions(), last, console.colour()))?;
        let seat = game_match.seat(rules, side);
        if let Some((_, computer)) = game_match.seats[seat].computer.as_mut() {
            // Seeded by the position's ply: after `undo` the same reply.
            computer.reseed(move_seed(options.seed, seat, game.positions().len()));
            let stop = || console.interrupted();
            let deadline = Until::after(thinking_time(options.think_ms)).or_when(&stop);
            let Some(mv) = computer.choose(rules, game.positions(), &deadline) else {
                // A computer with no move to make has lost by the rules already.
                return Ok(None);
            };
            if console.interrupted() {
                return Ok(None);
            }
            let said = face.computer_moves(
                &game_match.seats[seat].name,
                &face.move_name(rules, game.positions(), &mv),
            );
            console.note(&format!("{}. {said}", game.moves().len() + 1))?;
            if !console.pause(options.delay_ms) || console.interrupted() {
                return Ok(None);
            }
            game.play(rules, mv).map_err(io::Error::other)?;
            for line in face.after_move(rules, game.positions()) {
                console.note(&line)?;
            }
            continue;
        }
        let last = last.cloned();
        // Asked again, without the board again, while a command changes nothing.
        let mut told_only = None;
        loop {
            let adviser = &mut game_match.adviser;
            let mut on_hint = |console: &mut Console, picked: &[Square]| {
                hint(console, face, options, game.positions(), adviser, picked)
            };
            let asking = turn::TurnOf {
                rules,
                face,
                history: game.positions(),
                last: last.as_ref(),
                commands: &commands,
            };
            let turn = turn::ask_move(console, &asking, &mut on_hint, &mut told_only)?;
            let changed = match turn {
                Turn::Play(mv) => {
                    let said = face.player_moved(
                        game_match.name(rules, side),
                        &face.move_name(rules, game.positions(), &mv),
                    );
                    game.play(rules, mv).map_err(io::Error::other)?;
                    console.note(&format!("{}. {said}", game.moves().len()))?;
                    for line in face.after_move(rules, game.positions()) {
                        console.note(&line)?;
                    }
                    true
                }
                Turn::Leave => return Ok(None),
                Turn::Command(Command::Undo) => undo(console, face, rules, &mut game)?,
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
                    match offer_draw(console, options, &mut game, game_match)? {
                        Some(accepted) => accepted,
                        // The one asked left instead of answering.
                        None => return Ok(None),
                    }
                }
                Turn::Command(_) => false,
            };
            if changed {
                break;
            }
        }
    }
}

/// The side that is not `side`.
fn other_side<R: Rules>(rules: &R, side: R::Side) -> R::Side {
    let [a, b] = rules.sides();
    if side == a { b } else { a }
}

/// A draw offered by the player to move: the other player answers, or the
/// computer accepts when its best line is no better for it than a draw.
/// Whether it was accepted; `None` when the player asked leaves instead.
fn offer_draw<R: Computers>(
    console: &mut Console,
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
        match ask_yes_no(console, &question, text::DRAW_HELP)? {
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
    let Some(pos) = history.last() else {
        return Ok(());
    };
    adviser.reseed(move_seed(options.seed, 2, history.len()));
    let Some(advice) = adviser.advise(rules, history, &deadline) else {
        return console.say("No hint is known for this position.");
    };
    let from_picked = advice
        .best
        .iter()
        .find(|m| rules.path(m).starts_with(picked));
    let Some(best) = from_picked.or(advice.best.first()) else {
        return Ok(());
    };
    let text = face.hint(
        &face.move_name(rules, history, best),
        &advice.verdict,
        rules.to_move(pos),
    );
    console.say(&text)
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
) -> io::Result<bool> {
    // The player who typed `undo` is the one to move: take back their last
    // move, and whatever was played after it (the reply).
    let positions = game.positions();
    let typer = rules.to_move(&positions[positions.len() - 1]);
    let last_own = (0..game.moves().len())
        .rev()
        .find(|&ply| rules.to_move(&positions[ply]) == typer);
    let Some(ply) = last_own else {
        console.say(NOTHING_TO_UNDO)?;
        return Ok(false);
    };
    while game.moves().len() > ply {
        let before = game.positions()[..game.moves().len()].to_vec();
        if let Some(mv) = game.undo() {
            console.note(&format!(
                "Took back {}.",
                face.move_name(rules, &before, &mv)
            ))?;
        }
    }
    Ok(true)
}
