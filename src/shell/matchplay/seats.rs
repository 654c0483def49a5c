//! The seats: who plays which side, with their names, and where a game starts.

use std::io;

use super::menu::ask_level;
use super::{Match, Options, Seat};
use crate::games::{Computer, Computers};
use crate::shell::ask::{ask_until, ask_with, is_help, parse_name, same_name};
use crate::shell::console::Console;
use crate::shell::face::Face;
use crate::shell::text;

/// The two seats for a match with `players` people. `None` when the player leaves.
pub(super) fn seats<R: Computers, F: Face<R>>(
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
                let whose = format!(
                    "for {}, playing {}",
                    computer_names[i],
                    face.side_noun(side)
                );
                let Some(level) = ask_level(console, given, &whose)? else {
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
            let Some((side, name)) = person(console, face, options)? else {
                return Ok(None);
            };
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

/// Against the computer: the person's first side and name, from the
/// options or asked.
fn person<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
) -> io::Result<Option<(R::Side, String)>> {
    let sides = options.rules.sides();
    let computer_name = face.computer_names()[0];
    let side = match options.side {
        Some(side) => Some(side),
        None if face.person_plays_first() => Some(sides[0]),
        None => {
            let listed: Vec<String> = sides.iter().map(ToString::to_string).collect();
            ask_until(
                console,
                &format!("Which side will you play first ({})? ", listed.join("/")),
                &listed,
                &text::side_help(&listed),
                |line| line.parse::<R::Side>().map_err(|e| e.to_string()),
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
                if same_name(&name, computer_name) {
                    Err("that is the computer's name: choose another".to_string())
                } else {
                    Ok(name)
                }
            },
        )?,
    };
    Ok(name.map(|name| (side, name)))
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
pub(super) fn choose_start<R: Computers, F: Face<R>>(
    console: &mut Console,
    face: &F,
    options: &Options<R>,
    game_match: &mut Match<R>,
) -> io::Result<Option<R::Position>> {
    let rules = &options.rules;
    let Some((side, starts)) = rules.start_choices().filter(|(_, s)| !s.is_empty()) else {
        return Ok(Some(rules.start()));
    };
    let Some(choice) = face.start_choice() else {
        return Ok(Some(starts[0].clone()));
    };
    let seat = game_match.seat(rules, side);
    if let Some((_, computer)) = game_match.seats[seat].computer.as_mut() {
        let i = computer.choose_start(rules, &starts).min(starts.len() - 1);
        return Ok(Some(starts[i].clone()));
    }
    let board = choice.start_board(rules, &starts, console.colour());
    console.write(&board)?;
    let name = &game_match.seats[seat].name;
    let (question, mut answers) = choice.start_question(rules, name, &starts);
    let help = text::choose_help(&answers);
    let adviser = &mut game_match.adviser;
    let offered = answers.clone();
    // `hint` names the start the strongest computer would pick.
    let mut words = |console: &mut Console, line: &str| -> io::Result<bool> {
        if is_help(line) {
            console.say(&help)?;
        } else if line.trim().eq_ignore_ascii_case("hint") {
            let adviser =
                adviser.get_or_insert_with(|| rules.computer(R::best_level(), options.seed));
            let i = adviser.choose_start(rules, &starts).min(starts.len() - 1);
            console.say(&text::start_hint(&offered[i]))?;
        } else if line.trim().eq_ignore_ascii_case("board") {
            console.write(&board)?;
        } else {
            return Ok(false);
        }
        Ok(true)
    };
    answers.extend(["help".to_string(), "hint".to_string(), "board".to_string()]);
    let picked = ask_with(console, &question, &answers, &mut words, |line| {
        choice.parse_start(rules, line, &starts)
    })?;
    Ok(picked.and_then(|i| starts.get(i).cloned()))
}
