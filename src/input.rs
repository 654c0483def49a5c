//! What a player typed: commands, squares and moves, with precise errors.
//! Pure: it reads strings, never a terminal.

use std::fmt;

use crate::games::fox::{Board, Square, SquareError};

/// A command that works at every move prompt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Command {
    /// Show the rules and the commands.
    Help,
    /// List the legal moves.
    Moves,
    /// Take back the last move.
    Undo,
    /// Print the board again.
    Board,
    /// Name a best move and the verdict.
    Hint,
    /// Leave the game.
    Quit,
}

impl Command {
    /// Every command, in the order help lists them.
    pub const ALL: [Command; 6] = [
        Command::Help,
        Command::Moves,
        Command::Undo,
        Command::Board,
        Command::Hint,
        Command::Quit,
    ];

    /// The word that calls it.
    pub const fn word(self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Moves => "moves",
            Command::Undo => "undo",
            Command::Board => "board",
            Command::Hint => "hint",
            Command::Quit => "quit",
        }
    }

    /// The command a word names, with a few common aliases.
    pub fn from_word(word: &str) -> Option<Command> {
        let word = word.trim().to_ascii_lowercase();
        let alias = match word.as_str() {
            "?" | "h" => Some(Command::Help),
            "q" | "exit" | "bye" => Some(Command::Quit),
            _ => None,
        };
        alias.or_else(|| Command::ALL.into_iter().find(|c| c.word() == word))
    }
}

/// One line typed at a move prompt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    /// Nothing but spaces.
    Empty,
    /// A command word.
    Command(Command),
    /// One square: a piece to move, or where to move it.
    Square(Square),
    /// Two squares: a whole move, like `B1 C2` or `b1-c2`.
    Move(Square, Square),
}

/// Why a line is not an entry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EntryError {
    /// A word that is neither a command nor a square.
    Unknown(String),
    /// A square that did not read.
    Square(SquareError),
    /// More than two squares.
    TooMany(String),
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::Unknown(word) => write!(
                f,
                "\"{word}\" is neither a square nor a command: type a square like B1, or help"
            ),
            EntryError::Square(e) => write!(f, "{e}"),
            EntryError::TooMany(text) => write!(
                f,
                "\"{text}\" has too many parts: type one square, or a move like B1-C2"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

/// Reads a line typed at a move prompt.
pub fn parse_entry(line: &str, board: Board) -> Result<Entry, EntryError> {
    let text = line.trim();
    if text.is_empty() {
        return Ok(Entry::Empty);
    }
    if let Some(command) = Command::from_word(text) {
        return Ok(Entry::Command(command));
    }
    let parts: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '-' || c == ',')
        .filter(|p| !p.is_empty())
        .collect();
    let square = |part: &str| board.parse_square(part).map_err(EntryError::Square);
    match parts[..] {
        [one] => match board.parse_square(one) {
            Ok(sq) => Ok(Entry::Square(sq)),
            Err(SquareError::Syntax { .. })
                if one.len() > 2 && one.chars().all(|c| c.is_ascii_alphabetic()) =>
            {
                Err(EntryError::Unknown(one.to_string()))
            }
            Err(e) => Err(EntryError::Square(e)),
        },
        [from, to] => Ok(Entry::Move(square(from)?, square(to)?)),
        [] => Err(EntryError::Unknown(text.to_string())),
        _ => Err(EntryError::TooMany(text.to_string())),
    }
}

/// Reads a yes-or-no answer: `y`, `yes`, `n`, `no`, in any case.
pub fn parse_yes_no(line: &str) -> Result<bool, String> {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(true),
        "n" | "no" => Ok(false),
        _ => Err(format!(
            "\"{}\" is not an answer: type yes or no",
            line.trim()
        )),
    }
}

/// Reads a menu choice by its number or by the first word of its label.
pub fn parse_choice(line: &str, labels: &[&str]) -> Result<usize, String> {
    let text = line.trim().to_ascii_lowercase();
    let numbers = format!("1-{}", labels.len());
    if let Ok(n) = text.parse::<usize>() {
        return if (1..=labels.len()).contains(&n) {
            Ok(n - 1)
        } else {
            Err(format!("{n} is not on the menu: type a number {numbers}"))
        };
    }
    // A word of exactly one entry's label also chooses it: "rules", "history".
    let matching: Vec<usize> = (0..labels.len())
        .filter(|&i| {
            labels[i]
                .split_whitespace()
                .any(|word| !text.is_empty() && word.eq_ignore_ascii_case(&text))
        })
        .collect();
    match matching[..] {
        [only] => Ok(only),
        _ => Err(format!(
            "\"{}\" is not on the menu: type a number {numbers}",
            line.trim()
        )),
    }
}

/// The longest name a player may have, in characters.
pub const MAX_NAME: usize = 20;

/// Checks a player's name: not empty, not too long, printable.
pub fn parse_name(line: &str) -> Result<String, String> {
    let name = line.trim();
    if name.is_empty() {
        return Err("a name needs at least one character".to_string());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("a name can be at most {MAX_NAME} characters long"));
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("a name cannot hold control characters".to_string());
    }
    if name.contains(',') {
        return Err("a name cannot hold a comma".to_string());
    }
    if Command::from_word(name).is_some() {
        return Err(format!("\"{name}\" is a command: choose another name"));
    }
    Ok(name.to_string())
}

/// Reads numbers separated by commas or spaces, as the 1978 program's
/// `LINE,COLUMN` answers: `1,2`, `1 2`, or `1,2 2,3`.
pub fn parse_numbers(line: &str) -> Result<Vec<u8>, String> {
    let parts: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err("TYPE LINE, THEN COLUMN, LIKE 1,2".to_string());
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<u8>().map_err(|_| {
                format!(
                    "\"{}\" IS NOT A NUMBER. TYPE LINE, THEN COLUMN, LIKE 1,2",
                    p.to_uppercase()
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Result<Entry, String> {
        parse_entry(text, Board::STANDARD).map_err(|e| e.to_string())
    }

    #[test]
    fn entries_read_squares_moves_and_commands() {
        let b1 = Square::new(1, 0);
        let c2 = Square::new(2, 1);
        assert_eq!(entry("  b1 "), Ok(Entry::Square(b1)));
        assert_eq!(entry("B1 C2"), Ok(Entry::Move(b1, c2)));
        assert_eq!(entry("b1-c2"), Ok(Entry::Move(b1, c2)));
        assert_eq!(entry("HELP"), Ok(Entry::Command(Command::Help)));
        assert_eq!(entry(""), Ok(Entry::Empty));
        assert_eq!(
            entry("hello"),
            Err(
                "\"hello\" is neither a square nor a command: type a square like B1, or help"
                    .into()
            )
        );
        assert_eq!(
            entry("B1aa"),
            Err("\"B1aa\" has extra characters after B1".into())
        );
        assert!(entry("a1 b2 c3").unwrap_err().contains("too many parts"));
        assert!(entry("-").is_err());
    }

    #[test]
    fn answers_and_names() {
        assert_eq!(parse_yes_no(" YES "), Ok(true));
        assert_eq!(parse_yes_no("n"), Ok(false));
        assert!(parse_yes_no("maybe").is_err());
        assert_eq!(parse_choice("2", &["Two players", "Rules", "Quit"]), Ok(1));
        assert_eq!(
            parse_choice("quit", &["Two players", "Rules", "Quit"]),
            Ok(2)
        );
        assert!(parse_choice("9", &["Two players", "Rules", "Quit"]).is_err());
        assert!(parse_choice("", &["Two players", "Rules", "Quit"]).is_err());
        assert_eq!(
            parse_choice("PLAYERS", &["Two players", "Rules", "Quit"]),
            Ok(0)
        );
        let menu = [
            "Play against the computer",
            "Watch the computer play itself",
        ];
        assert!(parse_choice("computer", &menu).is_err(), "ambiguous");
        assert_eq!(parse_name(" Ann "), Ok("Ann".to_string()));
        assert!(parse_name("").is_err());
        assert!(parse_name(&"x".repeat(21)).is_err());
    }
}
