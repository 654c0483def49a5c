//! Every sentence a player reads in the default flow, in one place, so the
//! flows stay consistent and transcripts stay stable.

use crate::games::fox::{Board, Ending, PickError, Refusal, Rules, Side, Square};
use crate::shell::face::Help;

/// The program's title.
pub const TITLE: &str = "FOX AND HOUNDS";

pub use crate::shell::text::{list, list_or};

/// The side's name as the coursework prints it before a player's name.
pub const fn side_title(side: Side) -> &'static str {
    match side {
        Side::Fox => "Fox",
        Side::Hounds => "Hound",
    }
}

/// `Hound, b won!`, with the reason.
pub fn won(ending: Ending, name: &str) -> String {
    format!(
        "{}, {name} won! {}",
        side_title(ending.winner()),
        why(ending)
    )
}

/// Why a game ended, in a sentence.
pub const fn why(ending: Ending) -> &'static str {
    match ending {
        Ending::FoxHome => "The fox reached row 1.",
        Ending::FoxEscaped => "The fox got past the hounds, out of their reach.",
        Ending::FoxTrapped => "The fox is trapped.",
        Ending::HoundsStuck => "The hounds cannot move.",
        Ending::FoxCaptured => "A hound caught the fox.",
        Ending::FoxBoxedIn => "The fox is boxed in: a hound stands on every square next to it.",
    }
}

/// A finished position's result, as `analyse` reports it:
/// `the hounds have won: the fox is trapped`.
pub fn result_of(ending: Ending) -> String {
    let who = match ending.winner() {
        Side::Fox => "the fox has won",
        Side::Hounds => "the hounds have won",
    };
    let why = why(ending).trim_end_matches('.');
    let mut chars = why.chars();
    let why: String = chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{who}: {why}")
}

/// A line that reads as another game's position, for `analyse`: where to
/// take it.
pub fn other_game(text: &str) -> Option<&'static str> {
    let t = text.trim();
    let fish = t.contains("next:") || t.contains("place:") || t.contains(" P:");
    let draughts = t.starts_with("W:") || t.starts_with("B:") || t.starts_with("[FEN");
    if fish {
        Some("it looks like a fish position: try tallyho fish analyse")
    } else if draughts {
        Some("it looks like a draughts position (FEN): try tallyho draughts analyse")
    } else {
        None
    }
}

/// The question for the piece to move: `Move (B1, D1, F1, H1)? `.
pub fn pick_question(pieces: &[Square]) -> String {
    format!("Move ({})? ", list(pieces))
}

/// The question for a destination: `Move fox to (B7)? ` or `Move D1 to (C2, E2)? `.
pub fn destination_question(side: Side, from: Square, to: &[Square]) -> String {
    match side {
        Side::Fox => format!("Move fox to ({})? ", list(to)),
        Side::Hounds => format!("Move {from} to ({})? ", list(to)),
    }
}

/// The capture flow's question for a hound's column; `alone` when no other
/// hound can move, so the hound question was skipped.
pub fn capture_column_question(hound: usize, columns: &[u8], alone: bool) -> String {
    let question = format!("Hound {hound} to which column ({})? ", list(columns));
    if alone {
        format!("Only hound {hound} can move. {question}")
    } else {
        question
    }
}

/// Said when the chosen piece has one move only.
pub fn only_move(side: Side, from: Square, to: Square) -> String {
    match side {
        Side::Fox => format!("The fox can only move to {to}: press Enter to make that move."),
        Side::Hounds => format!("{from} can only move to {to}: press Enter to make that move."),
    }
}

/// Why typed squares make no move, as a sentence.
pub fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::NeedSquare => NEED_SQUARE.to_string(),
        Refusal::Pick(e) => pick_error(e),
        Refusal::NameThePiece { side, to, froms } => name_the_piece(*side, *to, froms),
        Refusal::NotADestination {
            side,
            from,
            to,
            targets,
        } => not_a_destination(*side, *from, *to, targets),
    }
}

/// Why a square cannot be the piece to move.
pub fn pick_error(error: &PickError) -> String {
    match error {
        PickError::Light(sq) => {
            format!("{sq} is a light square: pieces stand only on dark squares.")
        }
        PickError::Empty(sq) => format!("There is no piece on {sq}."),
        PickError::Fox(sq) => format!("{sq} is the fox: it is the hounds' turn."),
        PickError::Hound(sq) => format!("{sq} is a hound: it is the fox's turn."),
        PickError::Stuck(sq) => format!("The hound on {sq} cannot move."),
    }
}

/// A destination typed alone: the pieces that could go there.
pub fn name_the_piece(side: Side, to: Square, froms: &[Square]) -> String {
    let moves: Vec<String> = froms.iter().map(|f| format!("{f} {to}")).collect();
    match side {
        Side::Fox => format!("Name the fox first: type {}.", list_or(&moves)),
        Side::Hounds if froms.len() == 1 => format!(
            "There is no hound on {to}, but the hound on {} can go there: type {}.",
            froms[0], moves[0]
        ),
        Side::Hounds => format!(
            "There is no hound on {to}, but the hounds on {} can go there: type {}.",
            list_or(froms),
            list_or(&moves)
        ),
    }
}

/// Why a destination was refused.
pub fn not_a_destination(side: Side, from: Square, to: Square, choices: &[Square]) -> String {
    let piece = match side {
        Side::Fox => "The fox".to_string(),
        Side::Hounds => format!("The hound on {from}"),
    };
    format!("{piece} cannot move to {to}: choose {}.", list_or(choices))
}

/// Said when Enter is pressed at a question that needs an answer.
pub const NEED_SQUARE: &str = "Type one of the squares listed, or help.";

/// A real move for the help's examples: the first hound and its first
/// step.
fn example_step(board: Board) -> (Square, Square) {
    let hound = board
        .dark_squares_of_row(0)
        .next()
        .unwrap_or(Square::new(1, 0));
    let step = board
        .offset(hound, 1, 1)
        .or_else(|| board.offset(hound, -1, 1))
        .unwrap_or(hound);
    (hound, step)
}

/// The rules and the commands, for `help` and the menu's rules entry.
pub fn help(board: Board, rules: Rules) -> Help {
    let example = example_step(board);
    let home = "The fox wins by reaching row 1";
    let ending = match rules {
        Rules::Standard => format!("{home}."),
        Rules::Coursework => format!(
            "{home}, or as soon as it has got past the hounds: when its square and one square next to it are out of every hound's reach."
        ),
        Rules::Escape => "The fox wins as soon as it has got past the hounds: when its square and one square next to it are out of every hound's reach. Row 1 alone is not enough.".to_string(),
        Rules::Capture => format!(
            "{home}.\n  The fox eats a hound by stepping onto it; a hound catches the fox so too.\n  The fox also loses when boxed in: a hound on every square next to it."
        ),
    };
    let (h, t) = example;
    Help::new(format!(
        "How to play ({board} board, {rules} rules)
  One fox (F) and {hounds} hounds (H) stand on the dark squares.
  Every move is one square diagonally; {jumps}.
  The hounds move forward only (up the board), one hound a turn.
  The fox moves forward or back.
  {ending}
  The hounds win by trapping the fox so that it cannot move.
  If the hounds cannot move, the fox wins.",
        hounds = board.hound_count(),
        jumps = if rules.captures() {
            "nobody jumps"
        } else {
            "nobody jumps or captures"
        },
    ))
    .command(
        h.to_string(),
        format!("pick the piece on {h}, or move to {h}"),
    )
    .command(
        format!("{h} {t}"),
        format!("move from {h} to {t} in one go ({h}-{t} works too)"),
    )
    .command("moves", "list the legal moves")
    .command("hint", "name a best move and who wins with best play")
    .command("undo", "take back the last move")
    .command("board", "show the board again")
    .command("help", "show this")
    .command("quit", "leave (the score is printed)")
}

/// The 1978 flow's words: upper case, as a teletype printed them.
pub mod classic {
    use crate::games::fox::{Board, Ending, Rules, Side};

    /// The banner.
    pub const BANNER: &str =
        "TALLY HO!\nFOX AND HOUNDS, AFTER JACK A. INMAN, MICROCOMPUTING, SEPTEMBER 1978";

    /// The first question.
    pub const WANT_INSTRUCTIONS: &str = "DO YOU WANT INSTRUCTIONS (TYPE YES OR NO)? ";

    /// The instructions.
    pub fn instructions(board: Board, rules: Rules, first: Side) -> String {
        let (hound, step) = super::example_step(board);
        let example = format!(
            "{},{} {},{}",
            hound.row() + 1,
            hound.col() + 1,
            step.row() + 1,
            step.col() + 1
        );
        let ending = if rules.captures() {
            "MY FOX EATS A HOUND BY STEPPING ON IT; A HOUND CATCHES MY FOX SO TOO.
I WIN IF MY FOX REACHES LINE 1. YOU WIN IF YOU CATCH IT, TRAP IT
OR BOX IT IN."
        } else {
            "I WIN IF MY FOX REACHES LINE 1. YOU WIN IF YOU TRAP IT."
        };
        format!(
            "FOX AND HOUNDS IS PLAYED ON THE DARK SQUARES OF A CHECKERBOARD.
I MOVE THE FOX (F). YOU MOVE THE {hounds} HOUNDS (H).
EVERY MOVE IS ONE SQUARE DIAGONALLY, AND NOBODY JUMPS.
YOUR HOUNDS MOVE FORWARD ONLY, TO THE NEXT LINE DOWN THE PAGE.
MY FOX MOVES FORWARD OR BACKWARD.
{ending}
X IS A SQUARE NO PIECE CAN USE. O IS AN EMPTY SQUARE.
GIVE EVERY SQUARE AS LINE, THEN COLUMN: 2,3 IS LINE 2, COLUMN 3.
FOR A MOVE, GIVE THE HOUND'S SQUARE, THEN WHERE IT GOES.
YOU MAY TYPE ALL FOUR NUMBERS AT ONCE: {example}
TYPE QUIT TO STOP. {first} GOOD LUCK TO THE HOUNDS!",
            hounds = number_word(board.hound_count()),
            first = match first {
                Side::Hounds => "YOU MOVE FIRST.",
                Side::Fox => "I MOVE FIRST.",
            },
        )
    }

    fn number_word(n: usize) -> &'static str {
        match n {
            2 => "TWO",
            3 => "THREE",
            _ => "FOUR",
        }
    }

    /// Asked between the instructions' pages on a short screen.
    pub const MORE: &str = "PRESS ENTER FOR MORE. ";
    /// Said for `HELP` between the pages.
    pub const MORE_HELP: &str =
        "PRESS ENTER TO READ ON, Q TO PASS OVER THE REST, OR TYPE QUIT TO LEAVE.";
    /// Asked after the instructions' last page, so the board does not
    /// clear it away unread.
    pub const TO_PLAY: &str = "PRESS ENTER TO PLAY. ";
    /// Said for `HELP` there.
    pub const TO_PLAY_HELP: &str = "PRESS ENTER FOR THE BOARD, OR TYPE QUIT TO LEAVE.";

    /// The reminder printed below the board.
    pub const YOUR_MOVE: &str = "YOUR MOVE. TYPE LINE, THEN COLUMN.";
    /// Said for `Q` alone at a move question, which does not end the game.
    pub const QUIT_IN_FULL: &str = "TO LEAVE THE GAME, TYPE QUIT IN FULL.";
    /// What to type at a move question.
    pub const TYPE_LINE_COLUMN: &str = "TYPE LINE, THEN COLUMN, LIKE 1,2";
    /// Asks for the hound to move.
    pub const FROM: &str = "HOUND FROM? ";
    /// Asks where it goes.
    pub const TO: &str = "TO? ";
    /// When the fox has no move.
    pub const CANT_MOVE: &str = "I CAN'T MOVE.";

    /// The end of a game, from the computer's side.
    pub const fn result(ending: Ending) -> &'static str {
        match ending {
            Ending::FoxTrapped => "YOU WIN!",
            Ending::FoxHome => "I MADE IT TO LINE 1. I WIN!",
            Ending::FoxEscaped => "MY FOX IS PAST YOUR HOUNDS. I WIN!",
            Ending::HoundsStuck => "YOUR HOUNDS CAN'T MOVE. I WIN!",
            Ending::FoxCaptured => "YOU CAUGHT MY FOX. YOU WIN!",
            Ending::FoxBoxedIn => "MY FOX IS BOXED IN. YOU WIN!",
        }
    }

    /// The end of a game as the paper shows it: the fox says when it cannot
    /// move before the result.
    pub fn result_said(ending: Ending) -> String {
        match ending {
            Ending::FoxTrapped => format!("{CANT_MOVE}\n{}", result(ending)),
            _ => result(ending).to_string(),
        }
    }

    /// The person's move, confirmed on the paper.
    pub fn you_moved(from: &str, to: &str) -> String {
        format!("YOU MOVED FROM {from} TO {to}")
    }

    /// Said when the person goes back from `TO?` to choose another hound.
    pub const PICK_AGAIN: &str = "OK. WHICH HOUND, THEN?";

    /// Said when the person names another hound at `TO?`.
    pub fn picked(at: &str) -> String {
        format!("OK, THE HOUND AT {at}.")
    }

    /// The computer's name in the log.
    pub const ME: &str = "SWTP";

    /// The person's name in the log: the 1978 program never asks it.
    pub const YOU: &str = "YOU";

    /// The tally of games won.
    pub fn tally(you: u32, me: u32) -> String {
        let games = |n: u32| if n == 1 { "GAME" } else { "GAMES" };
        format!(
            "YOU HAVE WON {you} {}, I HAVE WON {me} {}.",
            games(you),
            games(me)
        )
    }

    /// Asked after every game.
    pub const AGAIN: &str = "WANT TO PLAY AGAIN (TYPE YES OR NO)? ";
    /// The last words.
    pub const BYE: &str = "THANKS FOR THE HUNT.";
}

/// A line that is no square, at the question for the fox's start.
pub fn not_a_start(typed: &str, starts: &[Square]) -> String {
    format!(
        "\"{typed}\" is not a square: the fox may start on {}",
        list_or(starts)
    )
}

/// The computer's name against a person, and its partner's when it plays itself.
pub const COMPUTER_NAMES: [&str; 2] = ["SWTP", "ALTAIR"];

/// The verdict of best play with the plies explained: `hounds win in 12
/// plies, 6 moves each`.
pub fn verdict_explained(winner: Side, plies: u32, to_move: Side) -> String {
    format!(
        "{}, {}",
        verdict(winner, plies),
        plies_split(plies, to_move)
    )
}

/// The verdict of best play: `hounds win in 44 plies`.
pub fn verdict(winner: Side, plies: u32) -> String {
    let who = match winner {
        Side::Fox => "fox wins",
        Side::Hounds => "hounds win",
    };
    format!("{who} in {}", crate::shell::text::plies(plies))
}

/// How the plies split between the sides: `22 moves each`, or
/// `22 by the hounds, 21 by the fox` when `to_move` makes one more.
pub fn plies_split(plies: u32, to_move: Side) -> String {
    if plies.is_multiple_of(2) {
        format!("{} moves each", plies / 2)
    } else {
        format!(
            "{} by the {}, {} by the {}",
            plies.div_ceil(2),
            to_move,
            plies / 2,
            to_move.other()
        )
    }
}
