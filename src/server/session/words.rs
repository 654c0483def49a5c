//! The lobby's words: its help, its sentences, and reading its commands.

use super::super::hub::Doing;
use crate::shell::safe;

/// The lobby's commands.
pub const LOBBY_HELP: &str = "\
Commands in the lobby:
  who                         the players online
  seek GAME [options]         offer a game: fox, draughts or fish, with that game's options (--board, --rules, --captures, --opening, --tiles, --penguins) and --side SIDE, --rated or --unrated
  seeks                       the open seeks, numbered
  accept N                    take seek N
  unseek                      take back your seeks
  challenge NAME GAME [opts]  offer a game to one player
  play GAME LEVEL [options]   play the server's computer at a level
  games                       the games being played, numbered
  watch N                     watch game N
  resume [N]                  go back to a game you left or that was adjourned
  ratings [GAME]              the leaderboard
  history                     your finished games
  tell NAME TEXT              say something to one player
  name NAME                   a guest's new handle
  proto json                  the machine dialect: one JSON event a line
  quit                        leave
In a game: the game's own commands (help lists them), and say TEXT to the players and watchers, tell NAME TEXT, and claim or adjourn when your opponent has been away too long. While watching: board, moves, say, and unwatch.";

/// A watcher's commands.
pub const WATCH_HELP: &str = "\
While watching: board, moves, say TEXT, tell NAME TEXT, and unwatch to go back to the lobby.";

/// The server's words at a move prompt: its own in a game (`say`, `tell`,
/// `claim`, `adjourn`, and `yes` and `no` with no offer to answer), then
/// the lobby's, which it answers there by saying where they work.
pub const TURN_WORDS: &[&str] = &[
    "say",
    "tell",
    "claim",
    "adjourn",
    "yes",
    "no",
    "who",
    "name",
    "seek",
    "challenge",
    "unseek",
    "seeks",
    "accept",
    "play",
    "games",
    "resume",
    "ratings",
    "history",
    "watch",
    "proto",
];

/// Every other word the server answers as a command, beside the game's own
/// ([`crate::shell::turn::Command`]) and [`TURN_WORDS`]: none is a handle,
/// or a line meant as a command could be taken for a name.
const SERVER_WORDS: &[&str] = &[
    "help", "quit", "exit", "bye", "leave", "unwatch", "yes", "no", "y", "n", "json",
];

/// The lobby's commands that mean nothing in a game: typed there, the
/// player is told where they work.
pub const LOBBY_WORDS: &[&str] = TURN_WORDS.split_at(6).1;

/// Said to a player who left game `number`, to the lobby or (`going`)
/// off the server: it waits, for a guest only while the guest is here.
pub fn left(number: u64, guest: bool, going: bool) -> String {
    match (guest, going) {
        (false, false) => {
            format!("You left game {number}. It waits for you: type resume to go back.")
        }
        (false, true) => format!(
            "You left game {number}. It waits for you: log in again with the same key to go back to it (or, if it is adjourned meanwhile, type resume)."
        ),
        (true, false) => format!(
            "You left game {number}. It waits while you are here: type resume to go back. A guest who leaves the server cannot come back to it."
        ),
        (true, true) => {
            // Against the computer it ends; a person may claim the win.
            format!("You left game {number}, and as a guest cannot come back to it.")
        }
    }
}

/// What a player leaving the server from the lobby is told of the games
/// they had left unfinished (`parked`), if any: an account's wait for its
/// key, a guest's are lost to them.
pub fn parting(parked: &[u64], guest: bool) -> Option<String> {
    let games = match parked {
        [] => return None,
        [n] => format!("game {n}"),
        many => format!("games {}", crate::games::and_list(many)),
    };
    let one = parked.len() == 1;
    let them = if one { "it" } else { "them" };
    Some(if guest {
        format!("As a guest you cannot come back to {games}: you leave {them} now.")
    } else {
        let wait = if one { "waits" } else { "wait" };
        let mut games = games;
        games[..1].make_ascii_uppercase();
        format!("{games} {wait} for you: log in again with the same key to go back to {them}.")
    })
}

/// Said to a player who talks faster than [`crate::server::limits::Talk`]
/// lets through: the line was not sent, and when the next one may be.
pub fn too_fast(wait: std::time::Duration) -> String {
    use crate::server::limits::Talk;
    let seconds = wait.as_millis().div_ceil(1000).max(1);
    let unit = if seconds == 1 { "second" } else { "seconds" };
    format!(
        "not sent: you are talking too fast (say and tell take {} lines at once, then one a second); wait {seconds} {unit}",
        Talk::BURST
    )
}

/// Said to a script (`ssh -T`, no terminal) whose ssh user name cannot be
/// its new key's handle, for `why`: a script is never asked for one.
pub fn script_without_handle(why: &str) -> String {
    // The reason alone: a script is not asked to choose another.
    let why = why
        .trim_end_matches('.')
        .trim_end_matches("; choose another")
        .trim_end_matches(": choose another name");
    format!(
        "Your user name cannot be your handle: {}. A script is not asked for another: log in with a free user name as the handle (ssh NAME@HOST), or once from a terminal to choose one. This session ends.",
        safe::text(why)
    )
}

/// The first words a player reads.
pub fn welcome(handle: &str, rated: bool) -> String {
    let kind = if rated {
        "Your games are rated."
    } else {
        "You are a guest: your games are unrated."
    };
    format!("Welcome to tallyho, {handle}. {kind} Type help for the commands.")
}

/// Said at a login that closed the account's other sessions.
pub fn taken_over(closed: usize) -> String {
    let sessions = if closed == 1 {
        "Your other session with this key was".to_string()
    } else {
        format!("Your {closed} other sessions with this key were")
    };
    format!("{sessions} closed: a key plays in one place at a time.")
}

/// The first word of a line, lowercased, and the rest.
pub fn split(line: &str) -> (String, &str) {
    let line = line.trim_start();
    match line.find(char::is_whitespace) {
        Some(i) => (line[..i].to_lowercase(), line[i..].trim_start()),
        None => (line.to_lowercase(), ""),
    }
}

/// A reason as a sentence: a capital first, a full stop last.
pub fn sentence(why: &str) -> String {
    let mut text = crate::shell::ask::capitalise(why.trim());
    if !text.ends_with(['.', '?', '!']) {
        text.push('.');
    }
    text
}

/// The longest handle, in characters.
pub const MAX_HANDLE: usize = 16;

/// Checks a handle: one word of letters, digits, `-` and `_`.
pub fn check_handle(handle: &str) -> Result<(), String> {
    if handle.is_empty() {
        return Err("which handle? Type name NAME, with the handle you want".into());
    }
    if handle.chars().count() > MAX_HANDLE {
        return Err(format!(
            "a handle can be at most {MAX_HANDLE} characters long"
        ));
    }
    // ASCII only: no letter from another script can pass for one of these.
    if let Some(c) = handle
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        return Err(format!(
            "a handle is one word of the letters A-Z, digits, - and _; \"{}\" is not allowed",
            // A mark that draws on the character before it (a combining
            // accent) is named by its number: alone it shows as nothing.
            if safe::width(&c.to_string()) == 0 {
                c.escape_unicode().to_string()
            } else {
                safe::text(&c.to_string())
            }
        ));
    }
    if !handle
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
    {
        return Err("a handle starts with a letter or a digit".into());
    }
    let lower = handle.to_lowercase();
    if lower.starts_with("guest")
        || crate::games::GameKind::ALL
            .iter()
            .any(|k| k.game() == lower)
        || crate::cabinet::level_names().contains(&lower)
    {
        return Err(format!(
            "\"{handle}\" is kept for the server; choose another"
        ));
    }
    if TURN_WORDS.contains(&lower.as_str()) || SERVER_WORDS.contains(&lower.as_str()) {
        // As the shell refuses its own commands as names.
        return Err(format!("\"{handle}\" is a command: choose another name"));
    }
    crate::shell::ask::parse_name(handle).map(|_| ())
}

/// What a player is doing, as `who` says it.
pub fn doing(doing: Doing) -> String {
    match doing {
        Doing::Idle => "in the lobby".into(),
        Doing::Playing(n) => format!("playing game {n}"),
        Doing::Watching(n) => format!("watching game {n}"),
    }
}

/// The options of `seek`, `challenge` and `play`.
#[derive(Default, Debug, PartialEq)]
pub struct SeekOptions {
    /// The game's setup options, by name without the dashes.
    pub setup: Vec<(String, String)>,
    /// The side asked for.
    pub side: Option<String>,
    /// Rated or not, when said.
    pub rated: Option<bool>,
}

/// The longest value a seek's option takes: longer is refused before the
/// game reads it, so no refusal quotes a screenful.
const LONGEST_VALUE: usize = 40;

/// The options every seek takes beside its game's: read by [`options`].
pub const SEEK_OPTIONS: &[&str] = &["side", "rated", "unrated"];

/// Reads `--name value` options, with `--name=value`, `--rated` and
/// `--unrated`, their names in any case. `known` checks a setup option's
/// name, as given, before its value is looked for, so an option the game
/// does not take is named as such.
pub fn options(
    text: &str,
    known: impl Fn(&str) -> Result<(), String>,
) -> Result<SeekOptions, String> {
    let mut options = SeekOptions::default();
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        let Some(name) = word.strip_prefix("--") else {
            return Err(format!(
                "\"{}\" is not an option: options are written --name value",
                safe::cut(word, 20)
            ));
        };
        let (name, inline) = match name.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (name, None),
        };
        let given = name;
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "rated" | "unrated" => {
                let rated = name == "rated";
                if options.rated.is_some_and(|r| r != rated) {
                    return Err("--rated and --unrated cannot both be given".into());
                }
                options.rated = Some(rated);
            }
            _ => {
                if name != "side" {
                    known(given)?;
                }
                let value = match inline {
                    Some(v) => v,
                    None => words
                        .next()
                        .ok_or_else(|| format!("--{} needs a value", safe::cut(&name, 20)))?
                        .to_string(),
                };
                let long = value.chars().count();
                if long > LONGEST_VALUE {
                    return Err(format!(
                        "the value of --{} is {long} characters long; none is longer than {LONGEST_VALUE}",
                        safe::cut(&name, 20)
                    ));
                }
                if name == "side" {
                    if options.side.is_some() {
                        return Err("--side is given twice".into());
                    }
                    options.side = Some(value);
                } else if options.setup.iter().any(|(k, _)| *k == name) {
                    return Err(format!("--{name} is given twice"));
                } else {
                    options.setup.push((name, value));
                }
            }
        }
        if options.setup.len() > 8 {
            return Err("too many options".into());
        }
    }
    Ok(options)
}

/// A side by name: its index among `sides`.
pub fn side(sides: &[String; 2], wanted: &str) -> Result<usize, String> {
    sides
        .iter()
        .position(|s| s.eq_ignore_ascii_case(wanted.trim()))
        .ok_or_else(|| {
            format!(
                "\"{}\" is not a side here: the sides are {} and {}",
                safe::cut(wanted, 20),
                sides[0],
                sides[1]
            )
        })
}

/// Setup options as a JSON object.
pub fn setup_object(pairs: &[(String, String)]) -> serde_json::Map<String, serde_json::Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect()
}

/// A table's game with what sets its setup apart: see
/// [`crate::cabinet::game_with_setup`].
pub fn game_with_setup(table: &dyn crate::shell::table::Table) -> String {
    crate::cabinet::game_with_setup(table.kind(), &table.setup())
}

/// Setup options as one line: `board 8x8, rules classic`.
pub fn setup_text(pairs: &[(String, String)]) -> String {
    crate::cabinet::setup_words(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parting_words_name_the_games_left_behind() {
        assert_eq!(parting(&[], false), None);
        assert_eq!(
            parting(&[3], false).as_deref(),
            Some("Game 3 waits for you: log in again with the same key to go back to it.")
        );
        assert_eq!(
            parting(&[3, 5], false).as_deref(),
            Some("Games 3 and 5 wait for you: log in again with the same key to go back to them.")
        );
        assert_eq!(
            parting(&[4], true).as_deref(),
            Some("As a guest you cannot come back to game 4: you leave it now.")
        );
    }

    /// A player who left the server is put back at the board by logging in
    /// again: nothing to type.
    #[test]
    fn leaving_the_server_says_a_login_goes_on_with_the_game() {
        assert_eq!(
            left(3, false, true),
            "You left game 3. It waits for you: log in again with the same key to go back to it (or, if it is adjourned meanwhile, type resume)."
        );
    }

    /// A script turned away is told the reason alone, never to choose
    /// another name, which it is not asked for.
    #[test]
    fn a_script_turned_away_is_not_told_to_choose() {
        for why in [
            "the handle ann is taken; choose another",
            "\"who\" is a command: choose another name",
        ] {
            let said = script_without_handle(why);
            assert!(!said.contains("choose another"), "{said}");
            assert!(
                said.starts_with("Your user name cannot be your handle: "),
                "{said}"
            );
        }
        assert!(
            script_without_handle("\"who\" is a command: choose another name").starts_with(
                "Your user name cannot be your handle: \"who\" is a command. A script"
            )
        );
    }

    /// Takes any option's name.
    fn any(_: &str) -> Result<(), String> {
        Ok(())
    }

    #[test]
    fn options_read_as_on_the_command_line() {
        let o = options("--board 6x6 --side=hounds --unrated", any).unwrap();
        assert_eq!(o.setup, vec![("board".to_string(), "6x6".to_string())]);
        assert_eq!(o.side.as_deref(), Some("hounds"));
        assert_eq!(o.rated, Some(false));
        assert_eq!(
            options("board", any).unwrap_err(),
            "\"board\" is not an option: options are written --name value"
        );
        assert_eq!(
            options("--board", any).unwrap_err(),
            "--board needs a value"
        );
        let fox = |name: &str| {
            crate::cabinet::check_option(crate::cabinet::kind("fox").unwrap(), name, &[])
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            options("--bogus", fox).unwrap_err(),
            "fox has no option --bogus; it takes --board and --rules"
        );
        // A value a screen long is refused by its length, not quoted.
        let long = "x".repeat(900);
        assert_eq!(
            options(&format!("--tiles {long}"), any).unwrap_err(),
            "the value of --tiles is 900 characters long; none is longer than 40"
        );
        assert_eq!(
            options(&format!("--side={}", "é".repeat(41)), any).unwrap_err(),
            "the value of --side is 41 characters long; none is longer than 40"
        );
        let longest = "x".repeat(40);
        assert_eq!(
            options(&format!("--board {longest}"), any).unwrap().setup,
            vec![("board".to_string(), longest)]
        );
    }

    #[test]
    fn handles_are_one_visible_word() {
        assert!(check_handle("ann_1").is_ok());
        assert!(check_handle("Zoe-2").is_ok());
        // Lookalikes of "alice" in other scripts, and full-width letters.
        assert!(check_handle("\u{430}lice").is_err());
        assert!(check_handle("\u{ff41}lice").is_err());
        // The computer's levels are its own names.
        assert!(check_handle("Rubbish").is_err());
        assert!(check_handle("overpowered").is_err());
        assert!(check_handle("a b").is_err());
        assert!(check_handle("a\u{202e}b").is_err());
        // The lobby's words are the turn's after the server's own six.
        assert_eq!(LOBBY_WORDS.first(), Some(&"who"));
        assert_eq!(TURN_WORDS.len(), LOBBY_WORDS.len() + 6);
        // A combining accent alone would show as nothing: named by number.
        assert!(
            check_handle("e\u{301}")
                .unwrap_err()
                .ends_with("\"\\u{301}\" is not allowed")
        );
        assert!(check_handle("guest7").is_err());
        assert!(check_handle("quit").is_err());
        // Every word the server answers is refused the same way.
        for word in TURN_WORDS
            .iter()
            .chain(SERVER_WORDS)
            .chain(&["draw", "Who"])
        {
            assert_eq!(
                check_handle(word),
                Err(format!("\"{word}\" is a command: choose another name")),
                "{word}"
            );
        }
        assert!(check_handle(&"x".repeat(17)).is_err());
    }
}
