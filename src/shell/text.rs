//! The shell's own wording helpers, shared by every game's face.

/// A list, as prompts show choices: `9, 10, 11`.
pub fn list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A list of choices ending in "or": `6, 8 or 13`.
pub fn list_or<T: ToString>(items: &[T]) -> String {
    crate::games::or_list(items.iter().map(ToString::to_string))
}

/// Help at a menu.
pub const MENU_HELP: &str =
    "Type the number of a choice from the list above (or its first word), or quit to leave.";

/// Help at the question for a level; `default` is what Enter takes.
pub fn level_help(default: &str) -> String {
    format!(
        "Type the number or the name of a level from the list above; Enter takes {default}. \
         Or quit to leave."
    )
}

/// Help at the question for a side.
pub fn side_help(sides: &[String]) -> String {
    format!(
        "Type {}: the side you play in the first game. The sides swap after every game. \
         Or quit to leave.",
        list_or(sides)
    )
}

/// Help at a question for a name.
pub const NAME_HELP: &str = "Type the name to call this player in the score and the game log: \
     up to 20 characters, with no comma. Or quit to leave.";

/// Help at "Play again?".
pub const AGAIN_HELP: &str = "Type yes to play another game, the players swapping sides, or no to stop; board shows the last \
     position. quit leaves too.";

/// Help at "Play again?" where the sides stay as they are.
pub const AGAIN_SAME_SIDES_HELP: &str = "Type yes to play another game, or no to stop; board shows the last \
     position. quit leaves too.";

/// Help at a draw offer.
pub const DRAW_HELP: &str = "Type yes to accept the draw, which ends the game, or no to play on; board shows the position. \
     quit leaves the game.";

/// Help at a question whose answers are offered: `answers`.
pub fn choose_help(answers: &[String]) -> String {
    format!(
        "Type one of {}; hint names the start the strongest computer would pick, and board \
         shows the board again. Or quit to leave.",
        list_or(answers)
    )
}

/// Said when a command's word comes with more after it at a move prompt.
pub fn command_alone(word: &str) -> String {
    format!("{word} takes nothing after it: type {word} alone.")
}

/// Said when a player names again the square already chosen at a move prompt.
pub fn already_chosen(square: &str) -> String {
    format!("{square} is already chosen: now name where it goes.")
}

/// Said when a player names the square of the only piece that can move,
/// which the move prompt had filled in for them.
pub fn only_piece(square: &str) -> String {
    format!("{square} is the only piece that can move: now name where it goes.")
}

/// Said when a player names again squares already chosen at a move prompt,
/// which end before the last one chosen (`1` or `1x10` once 1x10 is).
pub fn chosen_before(typed: &str, last: &str) -> String {
    format!("{typed} is already chosen: now name where it goes from {last}.")
}

/// Said when a player goes back to a square chosen earlier in the move, by
/// typing it again: `square`, or `named` and on from it, as the game fills
/// in, to `square`.
pub fn back_to(named: Option<&str>, square: &str) -> String {
    match named {
        Some(named) => format!("Back to {named}, and on to {square}: now name where it goes."),
        None => format!("Back to {square}: now name where it goes."),
    }
}

/// The answer to `moves`.
pub fn legal_moves(names: &[String]) -> String {
    format!("Legal moves: {}.", names.join(", "))
}

/// The line of a game that ended with no winner otherwise than by its
/// rules: `A draw (agreed).`, or a server's game cut off (`abandoned`),
/// which nobody drew.
pub fn no_winner(how: &str) -> String {
    match how {
        "abandoned" => "The game was cut off, and ends without a winner (abandoned).".to_string(),
        other => format!("A draw ({other})."),
    }
}

/// Said to a watcher of a server's game with a guest that a shutdown
/// ended, as a guest cannot come back for it.
pub fn cut_off_by_shutdown(game: &str) -> String {
    format!("Game {game} ends here without a winner: a guest's game cannot be resumed.")
}

/// A hint at the question for a start.
pub fn start_hint(start: &str) -> String {
    format!("Hint: start on {start}.")
}

/// A count of plies, in words: `1 ply`, `12 plies`.
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// The plain form of a line typed in full-width characters (`１１-１５`,
/// `Ｂ１`), if it has any: every full-width ASCII character made plain.
/// Spaces around the line, the full-width one among them (an input method
/// may put it first), are padding, as they are on a line of spaces alone.
pub fn plain_if_full_width(line: &str) -> Option<String> {
    crate::games::grid::plain_ascii(line.trim())
}

/// The plain form of an answer typed in full-width characters, where it is
/// all plain ASCII: every answer a game takes is, so a line that is not
/// (`😀x１１`) is refused for what else it holds, not told to type
/// `😀x11`.
pub fn plain_answer_if_full_width(line: &str) -> Option<String> {
    plain_if_full_width(line).filter(|plain| plain.is_ascii())
}

/// Said of a line typed in full-width characters.
pub fn full_width(line: &str, plain: &str) -> String {
    format!(
        "\"{}\" uses full-width characters: type plain {}",
        line.trim(),
        plain.trim()
    )
}

/// Said of a line typed in full-width characters, whose plain form
/// `plain` the question reads with `parse`: told to type the plain form
/// where that would be taken, else what is wrong with it too, so that no
/// line is suggested only to be refused.
pub fn full_width_refusal<T, E: std::fmt::Display>(
    line: &str,
    plain: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> String {
    match parse(plain) {
        Ok(_) => full_width(line, plain),
        Err(why) => full_width_and(line, &why.to_string()),
    }
}

/// Said of a line typed in full-width characters whose plain form would be
/// refused too, for `why`: `"Ｈ５" uses full-width characters, and the fox
/// cannot move to H5: choose B7`.
pub fn full_width_and(line: &str, why: &str) -> String {
    // A sentence's first word goes on in lower case; a square's name
    // (`D1 is a hound`) or a quotation stays as it is.
    let mut chars = why.chars();
    let why = match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => {
            first.to_lowercase().chain(why.chars().skip(1)).collect()
        }
        _ => why.to_string(),
    };
    format!(
        "\"{}\" uses full-width characters, and {}",
        line.trim(),
        why.trim_end_matches('.')
    )
}

/// Said after a score that counts games the log could not keep.
pub fn not_logged(games: u32) -> String {
    match games {
        1 => " (1 game not in the log)".to_string(),
        n => format!(" ({n} games not in the log)"),
    }
}

/// Said for `q` alone at a move prompt, which does not end a game.
pub const QUIT_IN_FULL: &str = "To leave the game, type quit in full.";

/// Help at "Press Enter for more", between pages.
pub const MORE_HELP: &str =
    "Press Enter to read on, q to pass over the rest, or type quit to leave.";

/// Help at the question after the last page of rules read from the menu.
pub const BACK_TO_MENU_HELP: &str = "Press Enter to go back to the menu, or type quit to leave.";

/// Help at "Press Enter to continue".
pub const CONTINUE_HELP: &str = "Press Enter to go on to the menu, or type quit to leave.";
