//! Asking until an answer is valid, and the answers every question shares:
//! the words that leave, yes and no, menu choices and names. Each has one
//! parser here, so every flow reads them alike.

use std::io;

use unicode_width::UnicodeWidthChar;

use super::console::{BadLine, Console, Reply};
use super::text;

/// The words that leave from any question or move prompt.
pub const QUIT_WORDS: [&str; 6] = ["quit", "q", "exit", "bye", "stop", "end"];

/// Whether a line asks to leave.
pub fn is_quit(line: &str) -> bool {
    let word = line.trim();
    QUIT_WORDS.iter().any(|q| q.eq_ignore_ascii_case(word))
}

/// Whether a line is `q` alone: a quit word at most questions, but a slip
/// of one letter at a move prompt (told to type `quit` in full) and, as in
/// a pager, a skip between pages.
pub fn is_q(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("q")
}

/// Whether a line asks for help.
pub fn is_help(line: &str) -> bool {
    let word = line.trim();
    word.eq_ignore_ascii_case("help") || word == "?"
}

/// Asks until `parse` accepts the answer. `None` when the player has gone
/// (end of input, Ctrl-C, or a word that leaves). `help` is said when the
/// player asks for it, and the question asked again: every question
/// answers `help` and `quit`.
pub fn ask_until<T>(
    console: &mut Console,
    question: &str,
    answers: &[String],
    help: &str,
    parse: impl FnMut(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    let mut words = |console: &mut Console, line: &str| -> io::Result<bool> {
        if is_help(line) {
            console.say(help)?;
            return Ok(true);
        }
        Ok(false)
    };
    ask_with(console, question, answers, &mut words, parse)
}

/// What ends the last page of [`say_paged`].
#[derive(Clone, Copy)]
pub enum LastPage<'a> {
    /// Nothing: what follows comes straight after.
    Open,
    /// A question (with its help) ends the last page where the text came
    /// in pages, so what follows does not push that page out of sight.
    AskedIfPaged(&'a str, &'a str),
    /// A question (with its help) ends the last page always.
    Asked(&'a str, &'a str),
}

/// The words of [`say_paged_in`]: the question between pages, and its help.
#[derive(Clone, Copy)]
pub struct Pager<'a> {
    /// Asked between pages.
    pub more: &'a str,
    /// Said for `help` there.
    pub help: &'a str,
    /// Whether the pager's own refusals are said in capitals, as the
    /// 1978 program says everything.
    pub capitals: bool,
}

impl Pager<'_> {
    /// Why a line was refused, in the pager's voice.
    fn refusal(&self, why: BadLine) -> String {
        let why = why.to_string();
        if self.capitals {
            why.to_uppercase()
        } else {
            why
        }
    }
}

/// The pager's words in every flow but the 1978 program's.
pub const PAGER: Pager<'static> = Pager {
    more: "Press Enter for more. ",
    help: text::MORE_HELP,
    capitals: false,
};

/// Says `text` a page at a time where the screen is too short to hold it,
/// so none of it scrolls out of sight before it is read: "Press Enter for
/// more." between pages, each page cut for the screen as it is then (the
/// rows already on it counted for the first), and `last` after the last.
/// `false` when the player left at one of the questions (end of input,
/// `quit`).
pub fn say_paged(console: &mut Console, text: &str, last: LastPage<'_>) -> io::Result<bool> {
    say_paged_in(console, text, last, PAGER)
}

/// [`say_paged`], asking between pages in `pager`'s words.
pub fn say_paged_in(
    console: &mut Console,
    text: &str,
    last: LastPage<'_>,
    pager: Pager<'_>,
) -> io::Result<bool> {
    let mut rest = Some(text.to_string());
    let mut used = console.rows_used();
    let mut paged = false;
    while let Some(text) = rest.take() {
        let width = console.width();
        let asking = match last {
            LastPage::Open => pager.more,
            LastPage::AskedIfPaged(question, _) | LastPage::Asked(question, _) => question,
        };
        let (page, more) = match console.height() {
            Some(rows) => {
                // The question's own rows, where the screen is narrower.
                let asking = crate::shell::safe::width(asking).div_ceil(width.max(1));
                // Below what is on the screen where that leaves half of it
                // or more; else a whole screen, what was there scrolling
                // away, rather than a page of a line or two.
                let below = rows.saturating_sub(used + asking);
                let room = if below >= rows / 2 {
                    below
                } else {
                    rows.saturating_sub(asking)
                };
                crate::shell::safe::first_page(&text, width, room)
            }
            None => (text, None),
        };
        used = 0;
        console.say(&page)?;
        if more.is_some() {
            paged = true;
            match ask_more(console, pager)? {
                More::Left => return Ok(false),
                More::On => rest = more,
                More::Skip => {}
            }
            if rest.is_some() {
                continue;
            }
        }
        // Any line goes on, as a key would; quit leaves and help says so.
        let (question, help) = match last {
            LastPage::Asked(question, help) => (question, help),
            LastPage::AskedIfPaged(question, help) if paged => (question, help),
            _ => return Ok(true),
        };
        if !ask_on(console, question, help, pager)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The answer at "Press Enter for more.".
enum More {
    /// The next page.
    On,
    /// `q`, as in a pager: the rest of the text passed over.
    Skip,
    /// The player left: end of input, Ctrl-C, or a word that leaves.
    Left,
}

/// Asks `pager`'s question between pages: any line goes on, as a key
/// would; `q` passes over the rest, as it does in a pager, and does not
/// leave a game on one letter; the other words that leave do; help says so.
fn ask_more(console: &mut Console, pager: Pager<'_>) -> io::Result<More> {
    loop {
        match console.ask(pager.more, &[])? {
            Reply::End => return Ok(More::Left),
            Reply::Bad(why) => console.say(&pager.refusal(why))?,
            Reply::Line(line) if is_q(&line) => return Ok(More::Skip),
            Reply::Line(line) if is_quit(&line) => return Ok(More::Left),
            Reply::Line(line) if is_help(&line) => console.say(pager.help)?,
            Reply::Line(_) => return Ok(More::On),
        }
    }
}

/// Asks `question`, which ends the last page, until a line goes on: any
/// line does, as a key would, `q` too (it passes over the rest of the text
/// between pages, so pressed once more it must not leave); a word that
/// leaves leaves (`false`), and help says `help`. Lines that cannot be
/// read are refused in `pager`'s voice.
fn ask_on(console: &mut Console, question: &str, help: &str, pager: Pager<'_>) -> io::Result<bool> {
    loop {
        match console.ask(question, &[])? {
            Reply::End => return Ok(false),
            Reply::Bad(why) => console.say(&pager.refusal(why))?,
            Reply::Line(line) if is_quit(&line) && !is_q(&line) => return Ok(false),
            Reply::Line(line) if is_help(&line) => console.say(help)?,
            Reply::Line(_) => return Ok(true),
        }
    }
}

/// As [`ask_until`], with `words` answering the lines that are commands at
/// this question (`help`, `hint`): `true` when it answered one, and the
/// question is asked again.
pub fn ask_with<T>(
    console: &mut Console,
    question: &str,
    answers: &[String],
    words: &mut dyn FnMut(&mut Console, &str) -> io::Result<bool>,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    loop {
        match console.ask(question, answers)? {
            Reply::End => return Ok(None),
            Reply::Bad(why) => console.say(&why.to_string())?,
            Reply::Line(line) if is_quit(&line) => return Ok(None),
            Reply::Line(line) if words(console, &line)? => {}
            Reply::Line(line) if text::plain_answer_if_full_width(&line).is_some() => {
                let plain = text::plain_answer_if_full_width(&line).unwrap_or_default();
                let why = text::full_width_refusal(&line, &plain, &mut parse);
                console.refuse(&capitalise(&why))?;
            }
            Reply::Line(line) => match parse(&line) {
                Ok(value) => return Ok(Some(value)),
                // A bare Enter is reminded what to type, not refused: the
                // exit status does not count it.
                Err(why) if line.trim().is_empty() => console.say(&capitalise(&why))?,
                Err(why) => console.refuse(&capitalise(&why))?,
            },
        }
    }
}

/// Asks a yes-or-no question until it is answered; `None` when the player
/// leaves. `help` says what each answer does, and the line `board` shows
/// `board` (the position the question is about) before asking again.
pub fn ask_yes_no_over(
    console: &mut Console,
    question: &str,
    help: &str,
    board: &str,
) -> io::Result<Option<bool>> {
    let answers = ["yes".to_string(), "no".to_string()];
    let mut words = |console: &mut Console, line: &str| -> io::Result<bool> {
        if is_help(line) {
            console.say(help)?;
            return Ok(true);
        }
        if line.trim().eq_ignore_ascii_case("board") {
            console.write(board)?;
            return Ok(true);
        }
        Ok(false)
    };
    ask_with(console, question, &answers, &mut words, parse_yes_no)
}

/// An error message as a sentence: capital first letter, closing full stop.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Reads a yes-or-no answer: `y`, `yes`, `n`, `no`, in any case.
pub fn parse_yes_no(line: &str) -> Result<bool, String> {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(true),
        "n" | "no" => Ok(false),
        "" => Err("type yes or no".to_string()),
        // `ｙｅｓ`: named, as a full-width move is.
        _ => match text::plain_answer_if_full_width(line) {
            Some(plain) if parse_yes_no(&plain).is_ok() => Err(text::full_width(line, &plain)),
            _ => Err(format!(
                "\"{}\" is not an answer: type yes or no",
                line.trim()
            )),
        },
    }
}

/// Reads a menu choice by its number or by a word of its label.
pub fn parse_choice(line: &str, labels: &[&str]) -> Result<usize, String> {
    let text = line.trim().to_ascii_lowercase();
    let numbers = format!("1-{}", labels.len());
    if text.is_empty() {
        return Err(format!("type a number {numbers}"));
    }
    if let Ok(n) = text.parse::<usize>() {
        return if (1..=labels.len()).contains(&n) {
            Ok(n - 1)
        } else {
            Err(format!("{n} is not on the menu: type a number {numbers}"))
        };
    }
    // An entry's first word chooses it ("play", though "Watch the computer
    // play itself" has it too); so does a word of exactly one entry's
    // label: "rules", "history".
    let first: Vec<usize> = (0..labels.len())
        .filter(|&i| {
            labels[i]
                .split_whitespace()
                .next()
                .is_some_and(|word| word.eq_ignore_ascii_case(&text))
        })
        .collect();
    let matching: Vec<usize> = (0..labels.len())
        .filter(|&i| {
            labels[i]
                .split_whitespace()
                .any(|word| word.eq_ignore_ascii_case(&text))
        })
        .collect();
    match (&first[..], &matching[..]) {
        ([only], _) | ([], [only]) => Ok(*only),
        _ => Err(format!(
            "\"{}\" is not on the menu: type a number {numbers}",
            line.trim()
        )),
    }
}

/// The longest name a player may have, in characters.
pub const MAX_NAME: usize = 20;

/// Checks a player's name: a visible character, not too long, nothing
/// invisible that could pass for something else, not a word that leaves.
pub fn parse_name(line: &str) -> Result<String, String> {
    let name = line.trim();
    if name.is_empty() {
        return Err("a name cannot be blank".to_string());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("a name can be at most {MAX_NAME} characters long"));
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("a name cannot hold control characters".to_string());
    }
    if let Some(c) = name.chars().find(|&c| is_format(c)) {
        return Err(format!(
            "a name cannot hold invisible characters such as U+{:04X}",
            c as u32
        ));
    }
    if !name
        .chars()
        .any(|c| !c.is_whitespace() && !is_blank(c) && c.width().unwrap_or(0) > 0)
    {
        return Err("a name needs a visible character".to_string());
    }
    if name.contains(',') {
        return Err("a name cannot hold a comma".to_string());
    }
    if let Some(c) = name.chars().next().filter(|c| c.width() == Some(0)) {
        return Err(format!(
            "a name cannot start with U+{:04X}, a mark drawn onto the letter before it",
            c as u32
        ));
    }
    if let Some(plain) = text::plain_if_full_width(name) {
        return Err(text::full_width(name, &plain));
    }
    if is_quit(name) || super::turn::Command::from_word(name).is_some() {
        return Err(format!("\"{name}\" is a command: choose another name"));
    }
    Ok(name.to_string())
}

/// Whether two names are the same name, as players would see them: a
/// no-break or ideographic space looks like a space.
pub fn same_name(a: &str, b: &str) -> bool {
    let seen = |name: &str| {
        name.split(char::is_whitespace)
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    seen(a) == seen(b)
}

/// Letters that take room yet show nothing: the Hangul fillers and the
/// blank Braille pattern. A name of only these would be invisible.
fn is_blank(c: char) -> bool {
    matches!(c as u32, 0x115F | 0x1160 | 0x3164 | 0xFFA0 | 0x2800)
}

/// Unicode's format characters (category Cf), the line and paragraph
/// separators, and the other code points Unicode says to draw as nothing
/// (Default_Ignorable_Code_Point: fillers, variation selectors): invisible,
/// yet they change how text around them shows, like zero-width spaces and
/// direction overrides, or break the line, or pass for a blank name.
pub fn is_format(c: char) -> bool {
    matches!(c as u32,
        0x2028 | 0x2029 |
        0x00AD | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2
        | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        // The default-ignorable code points that are not Cf.
        | 0x034F | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180D | 0x180F
        | 0x2065 | 0x3164 | 0xFE00..=0xFE0F | 0xFFA0 | 0xFFF0..=0xFFF8
        | 0xE0000..=0xE0FFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_names() {
        assert_eq!(parse_yes_no(" YES "), Ok(true));
        assert_eq!(parse_yes_no("n"), Ok(false));
        assert!(parse_yes_no("maybe").is_err());
        assert_eq!(
            parse_yes_no("ｙｅｓ"),
            Err("\"ｙｅｓ\" uses full-width characters: type plain yes".to_string())
        );
        assert_eq!(parse_yes_no("  "), Err("type yes or no".to_string()));
        assert_eq!(
            parse_choice(" ", &["Play", "Quit"]),
            Err("type a number 1-2".to_string())
        );
        let menu = ["Two players", "Rules", "Quit"];
        assert_eq!(parse_choice("2", &menu), Ok(1));
        assert_eq!(parse_choice("quit", &menu), Ok(2));
        assert!(parse_choice("9", &menu).is_err());
        assert!(parse_choice("", &menu).is_err());
        assert_eq!(parse_choice("PLAYERS", &menu), Ok(0));
        let menu = [
            "Play against the computer",
            "Watch the computer play itself",
        ];
        assert!(parse_choice("computer", &menu).is_err(), "ambiguous");
        // The help's promise: an entry's first word chooses it, though
        // another entry has the word further on.
        assert_eq!(parse_choice("Play", &menu), Ok(0));
        assert_eq!(parse_choice("play", &menu), Ok(0));
        assert_eq!(parse_choice("against", &menu), Ok(0));
        assert_eq!(parse_choice("watch", &menu), Ok(1));
        assert_eq!(parse_name(" Ann "), Ok("Ann".to_string()));
        assert_eq!(parse_name("狐狸先生"), Ok("狐狸先生".to_string()));
        assert!(parse_name("").is_err());
        assert!(parse_name(&"x".repeat(21)).is_err());
    }

    #[test]
    fn names_refuse_the_invisible() {
        let why = |n: &str| parse_name(n).unwrap_err();
        assert_eq!(
            why("\u{200B}"),
            "a name cannot hold invisible characters such as U+200B"
        );
        assert_eq!(
            why("Ann\u{202E}"),
            "a name cannot hold invisible characters such as U+202E"
        );
        assert_eq!(why("\u{0301}"), "a name needs a visible character");
        assert_eq!(why("\u{3000}"), "a name cannot be blank");
        assert_eq!(
            why("A\u{2028}B"),
            "a name cannot hold invisible characters such as U+2028"
        );
        assert_eq!(why("\u{2800}"), "a name needs a visible character");
        // Hangul fillers draw as nothing: refused as the invisible are.
        for (filler, code) in [("\u{115F}", "115F"), ("\u{3164}\u{115F}", "3164")] {
            assert_eq!(
                why(filler),
                format!("a name cannot hold invisible characters such as U+{code}"),
                "{filler:?}"
            );
        }
        assert_eq!(why("exit"), "\"exit\" is a command: choose another name");
        assert!(same_name("swtp", "SWTP"));
        // As the name prompt refuses them, so does --names.
        assert!(
            why("\u{ff21}nn").contains("full-width"),
            "{}",
            why("\u{ff21}nn")
        );
        assert!(
            why("\u{301}abc").contains("U+0301"),
            "{}",
            why("\u{301}abc")
        );
        // Spaces that look alike make names that look alike.
        assert!(same_name("Bo b", "Bo\u{a0}b"));
        assert!(same_name("Bo b", "Bo\u{3000} b"));
        assert!(!same_name("Bob", "Bo b"));
    }
}
