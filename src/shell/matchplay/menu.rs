//! The menu, and the levels asked for: how many people play, and how well the computer does.

use std::io;

use super::Options;
use crate::games::{Computers, Level};
use crate::shell::ask::{LastPage, ask_until, capitalise, parse_choice, same_name, say_paged};
use crate::shell::console::Console;
use crate::shell::face::{FULL_MENU, Face, MenuChoice};
use crate::shell::log;
use crate::shell::text;

/// The main menu: how many human players, or `None` to quit.
pub(super) fn menu<R: Computers, F: Face<R>>(
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
        if let Some(why) = players.and_then(|n| unfit(options, n, face.computer_names()[0])) {
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
                    unfit(options, n, face.computer_names()[0]).map_or(Ok(n), Err)
                })?;
                return Ok(picked);
            }
            Some(MenuChoice::TwoPlayers) => return Ok(Some(2)),
            Some(MenuChoice::OnePlayer) => return Ok(Some(1)),
            Some(MenuChoice::Watch) => return Ok(Some(0)),
            Some(MenuChoice::History) => log::show_in_menu(console, &options.log)?,
            Some(MenuChoice::Rules) => {
                let back =
                    LastPage::AskedIfPaged("Press Enter for the menu. ", text::BACK_TO_MENU_HELP);
                let rules = face.help(&options.rules, console.width()).to_string();
                if !say_paged(console, &rules, back)? {
                    return Ok(None);
                }
            }
            Some(MenuChoice::Quit) | None => return Ok(None),
        }
        console.say("")?;
    }
}

/// Why the command line's options do not fit a match of `players` people,
/// if they do not: they would be ignored, or give the person the name of
/// the computer (`computer`) they would play.
fn unfit<R: Computers>(options: &Options<R>, players: u8, computer: &str) -> Option<String> {
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
        1 if options.names.first().is_some_and(|n| same_name(n, computer)) => Some(format!(
            "--names gave the computer's name, {computer}: choose two players, or leave and change it"
        )),
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
pub(super) fn ask_level<L: Level>(
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
