//! Every sentence a draughts player reads, in one place, so the flow stays
//! consistent and the transcripts stable.

use crate::games::draughts::{Captures, Move, Refusal, Setup, Side, Start, how};
use crate::games::{Outcome, Verdict};
use crate::shell::ask::capitalise;
use crate::shell::face::Help;
use crate::shell::safe;

use super::board::{self, Drawing};

/// The title said first.
pub const TITLE: &str = "ENGLISH DRAUGHTS";

/// The computer's name against a person, and its partner's when it plays
/// itself: the machines Arthur Samuel's checkers player learnt on.
pub const COMPUTER_NAMES: [&str; 2] = ["IBM 704", "IBM 701"];

/// `Black` or `White`, as the turn line names a side.
pub const fn side_title(side: Side) -> &'static str {
    side.title()
}

use crate::shell::face::MenuChoice;
pub use crate::shell::text::{list, list_or};

/// The C project's menu: play (then who plays), the history, exit.
pub const MENU: [(MenuChoice, &str); 3] = [
    (MenuChoice::Play, "Play"),
    (MenuChoice::History, "History"),
    (MenuChoice::Quit, "Exit"),
];

/// `12 men`, `1 king`.
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a side holds, with the letter its men are drawn with:
/// `Black (O): 12 men, 0 kings.`
pub fn holding(side: Side, letter: char, men: u32, kings: u32) -> String {
    format!(
        "{} ({letter}): {}, {}.",
        side_title(side),
        count(men, "man", "men"),
        count(kings, "king", "kings")
    )
}

/// Said on the first two turns of a game from a ballot opening, so that
/// each side is told, and a person is told even when the computer moves
/// first; on the first, `White to move.` too.
pub fn opening_line(start: Start, first_turn: bool) -> Option<String> {
    match start {
        Start::Opening(o) => Some(format!(
            "Ballot opening {}: {}, three moves played.{}",
            o.number(),
            o.notation(),
            if first_turn { " White to move." } else { "" }
        )),
        _ => None,
    }
}

/// Said on the first two turns of a game loaded from a file where captures
/// are optional: by its Captures tag (`tagged`), or by `--captures` for a
/// game with no such tag.
pub fn loaded_rule_line(captures: Captures, tagged: bool) -> Option<&'static str> {
    match (captures, tagged) {
        (Captures::Compulsory, _) => None,
        (Captures::Optional, true) => Some(
            "Captures are optional in this game, as its Captures tag says: a capture need not be taken, but a jump once begun must be finished.",
        ),
        (Captures::Optional, false) => Some(
            "Captures are optional from here on, as --captures asks: a capture need not be taken, but a jump once begun must be finished.",
        ),
    }
}

/// The capture rule in a sentence.
fn capture_rule(captures: Captures) -> &'static str {
    match captures {
        Captures::Compulsory => "Captures are compulsory.",
        Captures::Optional => "Captures are optional here, but a jump once begun must be finished.",
    }
}

/// The rules, shared by the welcome and `help`, with the letters of the
/// board they are read beside: the framed board's men `O` and `X` and
/// kings `(O)` and `(X)`, or the `compact` board's `o`, `x`, `O` and `X`.
fn rules_text(rules: &Setup, compact: bool) -> String {
    let (men, kings) = if compact {
        (["o", "x"], ["O", "X"])
    } else {
        (["O", "X"], ["(O)", "(X)"])
    };
    format!(
        "  Black ({}) starts on squares 1-12 and moves first; White ({}) on 21-32.
  A man steps one square diagonally forward; a king, {} or {}, either way.
  A capture jumps an enemy piece next to yours, to the empty square beyond, and goes on while the same piece can jump again. {}
  A man reaching the far row is crowned a king, and its move ends there.
  A player who cannot move loses. The third time a position comes round, or forty moves each with no capture and no man moved, the game is drawn.",
        men[0],
        men[1],
        kings[0],
        kings[1],
        capture_rule(rules.captures)
    )
}

/// The welcome box, then the rules and the controls, as the seed showed them.
pub fn intro(rules: &Setup, drawing: Drawing) -> String {
    intro_for(rules, drawing, false)
}

/// [`intro`], its rules in the letters of the `compact` board or not.
fn intro_for(rules: &Setup, drawing: Drawing, compact: bool) -> String {
    let welcome = board::boxed(
        &[
            "W E L C O M E",
            "",
            "to English draughts, known as checkers in America,",
            "after a C project: pseudo-code by Kavin T, January 2022",
        ],
        drawing,
    );
    format!(
        "{welcome}
The rules
{}
The controls
  Type a move as square numbers, 11-15 or 22x15x6, or as coordinates, C3 D4 or E3xG5xE7; an M (move) or C (capture) in front, as the C project's players typed, is fine too.
  Or type one square at a time: the piece, then each square it lands on.
  At every move: help, moves, undo, board, hint, draw, resign or quit.",
        rules_text(rules, compact)
    )
}

/// The rules and the commands, for `help`.
pub fn help(rules: &Setup, compact: bool) -> Help {
    Help::new(format!(
        "How to play English draughts
{}
Typing a move
  11-15, 22x15x6    square numbers, as the key beside a wide board shows them
  C3 D4, E3xG5xE7   coordinates; M (move) or C (capture) may come first
  22                the piece on 22; then each square it lands on, one by one",
        rules_text(rules, compact)
    ))
    .command("moves", "list the legal moves")
    .command("hint", "name a good move and how the game stands")
    .command(
        "undo",
        "take back your last move (or the square just chosen)",
    )
    .command("board", "show the board again")
    .command("draw", "offer a draw; the other player answers")
    .command("resign", "give the game up")
    .command("help", "show this")
    .command("quit", "leave (the score is printed)")
}

/// The question for the piece to move.
pub fn pick_question(pieces: &[u8], capturing: bool) -> String {
    if capturing {
        format!("Capture with ({})? ", list(pieces))
    } else {
        format!("Move from ({})? ", list(pieces))
    }
}

/// The question for where the piece on `from` goes: its steps and its jumps.
pub fn destination_question(from: u8, steps: &[u8], jumps: &[u8]) -> String {
    match (steps, jumps) {
        (_, []) => format!("Move {from} to ({})? ", list(steps)),
        ([], _) => format!("Jump from {from} to ({})? ", list(jumps)),
        _ => format!(
            "Move {from} to ({}) or jump to ({})? ",
            list(steps),
            list(jumps)
        ),
    }
}

/// The question for the next landing of a jump under way (`22x15`).
pub fn landing_question(so_far: &str, next: &[u8]) -> String {
    format!("Jump {so_far} on to ({})? ", list(next))
}

/// A path of squares as numeric notation: `22x15`, `11-15`.
pub fn path_text(squares: &[u8]) -> String {
    let jump = squares.windows(2).any(|w| {
        let row = |n: u8| (n - 1) / 4;
        row(w[0]).abs_diff(row(w[1])) == 2
    });
    squares
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(if jump { "x" } else { "-" })
}

/// Said when one move is left for the squares chosen so far; `only` when
/// it is the only legal move of all.
pub fn only_move(typed: usize, only: bool, mv: &Move) -> String {
    match typed {
        _ if only => format!("Only one move is legal: {mv}. Press Enter to make it."),
        1 => format!(
            "The piece on {} has one move, {mv}: press Enter to make it.",
            mv.from()
        ),
        _ => format!("The jump must go on as {mv}: press Enter to make it."),
    }
}

/// Said when Enter is pressed with nothing chosen.
pub const NEED_SQUARE: &str =
    "Type a square from the list, a whole move like 11-15, or help for the commands.";

/// A line with no square in it.
pub fn not_a_square(text: &str) -> String {
    format!("\"{text}\" is neither a square nor a command: type a square like 11 or C3, or help")
}

/// A move letter with nothing after it.
pub fn letter_alone(letter: char) -> String {
    let example = if letter == 'M' { "M 11-15" } else { "C 22x15" };
    format!("type the squares after {letter}, like {example}")
}

/// A move letter that does not fit the move.
pub fn wrong_letter(letter: char, path: &str) -> String {
    match letter {
        'M' => format!("M is for a plain move, but {path} is a capture: type C, or no letter"),
        'x' => format!("an x is for a capture, but {path} is a plain move: type {path}"),
        _ => format!("C is for a capture, but {path} is a plain move: type M, or no letter"),
    }
}

/// Why the piece on a square cannot move.
pub fn cannot_move(square: u8, coordinate: &str, movable: &[u8]) -> String {
    format!(
        "The piece on {square} ({coordinate}) cannot move: move {}.",
        list_or(movable)
    )
}

/// A square that is not a landing of the jump under way.
pub fn not_a_landing(square: u8, so_far: &str, next: &[u8]) -> String {
    format!(
        "{square} is not a landing: the jump {so_far} must go on, to {}.",
        list_or(next)
    )
}

/// A square the chosen piece cannot go to.
pub fn not_a_destination(from: u8, to: u8, moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    format!(
        "The piece on {from} cannot go to {to}: it can play {}.",
        list_or(&names)
    )
}

/// A path that is no move of the piece it starts from.
pub fn not_legal(path: &str, from: u8, moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    format!(
        "{path} is not a legal move: the piece on {from} can play {}.",
        list_or(&names)
    )
}

/// A jump typed on past the square where the man was crowned.
pub fn crowning_ends(path: &str, mv: &Move) -> String {
    format!("A man crowned ends its move: {path} stops at {mv}.")
}

/// Why typed squares make no move, as a sentence.
pub fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::NeedSquare => NEED_SQUARE.to_string(),
        Refusal::Move(e) => capitalise(&safe::text(&e.to_string())),
        Refusal::CannotMove { square, movable } => {
            cannot_move(square.number(), &square.grid().to_string(), movable)
        }
        Refusal::NotALanding {
            square,
            so_far,
            next,
        } => not_a_landing(square.number(), &path_text(so_far), next),
        Refusal::NotADestination { from, to, own } => {
            not_a_destination(from.number(), to.number(), own)
        }
        Refusal::CrowningEnds { path, crowning } => crowning_ends(&path_text(path), crowning),
        Refusal::NotLegal { path, start, own } => not_legal(&path_text(path), start.number(), own),
    }
}

/// Said after a move that crowned a man: `square` is its PDN number and
/// `coordinate` its grid name.
pub fn crowned(side: Side, square: u8, coordinate: &str, by_capture: bool) -> String {
    let king = board::piece_cell(crate::games::draughts::Piece::King(side));
    let king = king.trim();
    if by_capture {
        format!(
            "{}'s man is crowned on {square} ({coordinate}), now a king {king}: the jump ends there.",
            side_title(side)
        )
    } else {
        format!(
            "{}'s man is crowned on {square} ({coordinate}), now a king {king}.",
            side_title(side)
        )
    }
}

/// The result of a game.
pub fn result(outcome: &Outcome<Side>, winner: Option<&str>) -> String {
    match *outcome {
        Outcome::Win { winner: side, how } => {
            let loser = side_title(side.other());
            let why = match how {
                how::RESIGNED => format!("{loser} resigned."),
                how::NO_MOVES => format!("{loser} has no move left."),
                other => format!("({other})"),
            };
            format!("{}, {} won! {why}", side_title(side), winner.unwrap_or("?"))
        }
        Outcome::Draw { how } => match how {
            how::REPETITION => "A draw: the same position came round a third time.".to_string(),
            how::FORTY_MOVES => {
                "A draw: forty moves each with no capture and no man moved.".to_string()
            }
            how::AGREED => "A draw, agreed by the players.".to_string(),
            other => crate::shell::text::no_winner(other),
        },
    }
}

/// A verdict in words, for hints and `analyse`.
pub fn verdict(verdict: &Verdict<Side>, to_move: Side) -> String {
    match *verdict {
        Verdict::Win {
            winner,
            plies: Some(plies),
        } => format!(
            "{} wins in {} with best play",
            winner.title(),
            crate::shell::text::plies(plies)
        ),
        Verdict::Win {
            winner,
            plies: None,
        } => format!("{} wins with best play", winner.title()),
        Verdict::Draw => "a draw with best play".to_string(),
        Verdict::Score { value, .. } => format!(
            "{:+.2} men for {}, by the engine's reckoning",
            f64::from(value) / 100.0,
            to_move.title()
        ),
    }
}

/// A hint: `Hint: 11-15 (Black wins in 7 plies with best play).`
pub fn hint(move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
    format!("Hint: {move_name} ({}).", self::verdict(verdict, to_move))
}

/// Said when the players swap sides; `names` are Black's then White's,
/// `first` the side to move when play begins (White, after a loaded game
/// or a ballot's three moves). The pieces are named as the board draws
/// them: `o` and `x` on the `compact` board, whose capitals are kings.
pub fn swap_notice(names: [&str; 2], first: Side, compact: bool) -> String {
    let [o, x] = if compact { ['o', 'x'] } else { ['O', 'X'] };
    let [black, white] = names;
    match first {
        Side::Black => {
            format!("Sides swap: {black} is Black ({o}) and moves first, {white} White ({x}).")
        }
        Side::White => {
            format!("Sides swap: {black} is Black ({o}), {white} White ({x}) and moves first.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_name_the_pieces_in_the_letters_of_the_board_beside_them() {
        let rules = Setup::STANDARD;
        let framed = help(&rules, false).to_string();
        assert!(framed.contains("Black (O) starts"), "{framed}");
        assert!(
            framed.contains("a king, (O) or (X), either way"),
            "{framed}"
        );
        // The compact board draws men o and x, kings O and X.
        let compact = help(&rules, true).to_string();
        assert!(compact.contains("Black (o) starts"), "{compact}");
        assert!(compact.contains("White (x) on 21-32"), "{compact}");
        assert!(compact.contains("a king, O or X, either way"), "{compact}");
        let narrow = intro_within(&rules, Drawing::default(), 30);
        assert!(narrow.contains("a king, O or X, either way"), "{narrow}");
        let wide = intro_within(&rules, Drawing::default(), 80);
        assert!(wide.contains("a king, (O) or (X), either way"), "{wide}");
    }

    #[test]
    fn the_rules_help_and_welcome_are_whole_sentences() {
        for captures in [Captures::Compulsory, Captures::Optional] {
            let rules = Setup {
                captures,
                ..Setup::STANDARD
            };
            crate::faces::assert_whole_sentences(&help(&rules, false).to_string());
            crate::faces::assert_whole_sentences(&intro(&rules, Drawing::default()));
        }
    }

    #[test]
    fn results_and_verdicts() {
        let won = Outcome::Win {
            winner: Side::White,
            how: how::RESIGNED,
        };
        assert_eq!(result(&won, Some("Bob")), "White, Bob won! Black resigned.");
        assert_eq!(
            result(
                &Outcome::Draw {
                    how: how::REPETITION
                },
                None
            ),
            "A draw: the same position came round a third time."
        );
        assert_eq!(
            hint(
                "11-15",
                &Verdict::Score {
                    value: 35,
                    exact: false
                },
                Side::Black
            ),
            "Hint: 11-15 (+0.35 men for Black, by the engine's reckoning)."
        );
        assert_eq!(
            hint(
                "1-5",
                &Verdict::Win {
                    winner: Side::White,
                    plies: Some(12)
                },
                Side::Black
            ),
            "Hint: 1-5 (White wins in 12 plies with best play)."
        );
        assert_eq!(path_text(&[22, 15, 6]), "22x15x6");
        assert_eq!(path_text(&[11, 15]), "11-15");
        assert_eq!(holding(Side::White, 'X', 1, 1), "White (X): 1 man, 1 king.");
    }
}

/// Said on the first turn of a game from a ballot opening, the opening
/// found from the game's first position: with `--opening random` each game
/// draws its own, which `start` alone does not name.
pub fn opening_line_of_game(
    start: Start,
    first: &crate::games::draughts::Position,
    first_turn: bool,
) -> Option<String> {
    match start {
        Start::Random(_) => crate::games::draughts::ballot::find(first)
            .and_then(|o| opening_line(Start::Opening(o), first_turn)),
        other => opening_line(other, first_turn),
    }
}

/// A span of seconds in words, to the unit that suits it: `40 seconds`,
/// `3 hours`, `2 years`.
pub fn rough_time(seconds: f64) -> String {
    const UNITS: [(f64, &str, &str); 6] = [
        (1.0, "second", "seconds"),
        (60.0, "minute", "minutes"),
        (3600.0, "hour", "hours"),
        (86_400.0, "day", "days"),
        (86_400.0 * 365.0, "year", "years"),
        (
            86_400.0 * 365.0 * 1000.0,
            "thousand years",
            "thousand years",
        ),
    ];
    let (size, one, many) = UNITS
        .iter()
        .rev()
        .find(|(size, ..)| seconds >= *size * 2.0)
        .copied()
        .unwrap_or(UNITS[0]);
    let n = (seconds / size).round().max(1.0);
    if n >= 1e6 {
        return "more than a billion years".to_string();
    }
    format!("{n} {}", if n == 1.0 { one } else { many })
}

/// Said by `perft` before depths that would run long: the depths left, how
/// long they would take at the rate so far, and how to stop.
pub fn perft_will_take(from: u32, to: u32, seconds: f64, growth: f64) -> String {
    let depths = if from == to {
        format!("depth {to}")
    } else {
        format!("depths {from}-{to}")
    };
    let time = rough_time(seconds);
    let time = if time.starts_with("more") {
        time
    } else {
        format!("about {time} more")
    };
    format!(
        "perft: {depths} would take {time} at this rate (each depth about {growth:.1} times \
         as long as the one before); Ctrl-C stops it."
    )
}

/// Said by `perft` when Ctrl-C stopped it.
pub fn perft_stopped(depth: u32) -> String {
    format!("perft: stopped by Ctrl-C while counting depth {depth}; the counts above are whole.")
}

/// `analyse`'s exact line when the side not to move has no pieces (the
/// side to move with none has no move, and is said to have lost): the
/// rules decide it, as the database holds positions with pieces of both
/// sides.
pub fn not_exact_without_pieces(none: Side) -> String {
    format!(
        "{} wins with any move, by the rules: {} has no pieces (the endgame database \
         holds positions with pieces of both sides)",
        none.other().title(),
        none.title()
    )
}

/// `analyse`'s exact line when the side to move has no move: lost by the
/// rules, whatever a database holds.
pub fn lost_without_a_move(side: Side) -> String {
    format!("{} has lost: it has no move (the rules)", side.title())
}

/// The welcome box's lines, as [`intro`] boxes them.
const WELCOME: [&str; 4] = [
    "W E L C O M E",
    "",
    "to English draughts, known as checkers in America,",
    "after a C project: pseudo-code by Kavin T, January 2022",
];

/// [`intro`] for a screen `width` columns wide. Where the welcome box is
/// wider, its lines are wrapped inside it so that the box stays whole; the
/// rest wraps as any text does.
pub fn intro_within(rules: &Setup, drawing: Drawing, width: usize) -> String {
    let full = intro_for(rules, drawing, board::compact_at(width));
    let (welcome, rest) = full.split_once("\nThe rules\n").unwrap_or((&full, ""));
    if welcome
        .lines()
        .all(|l| crate::shell::safe::width(l) <= width)
    {
        return full;
    }
    // A frame and a space each side: six columns more than the text.
    let inside = width.saturating_sub(6).max(12);
    let wrapped: Vec<String> = WELCOME
        .iter()
        .map(|line| crate::shell::safe::wrap(line, inside))
        .collect();
    let lines: Vec<&str> = wrapped.iter().flat_map(|w| w.split('\n')).collect();
    format!("{}\nThe rules\n{rest}", board::boxed(&lines, drawing))
}

#[cfg(test)]
mod welcome_tests {
    use super::*;

    #[test]
    fn perft_warns_in_a_whole_sentence_however_long_the_wait() {
        assert_eq!(
            perft_will_take(9, 12, 7_200.0, 4.5),
            "perft: depths 9-12 would take about 2 hours more at this rate (each depth about \
             4.5 times as long as the one before); Ctrl-C stops it."
        );
        assert_eq!(
            perft_will_take(9, 40, 1e30, 5.0),
            "perft: depths 9-40 would take more than a billion years at this rate (each depth \
             about 5.0 times as long as the one before); Ctrl-C stops it."
        );
    }

    #[test]
    fn the_welcome_box_stays_whole_on_a_narrow_screen() {
        let drawing = Drawing::default();
        let rules = Setup::STANDARD;
        assert_eq!(intro_within(&rules, drawing, 80), intro(&rules, drawing));
        let narrow = intro_within(&rules, drawing, 40);
        let welcome: Vec<&str> = narrow.lines().take_while(|l| *l != "The rules").collect();
        assert!(welcome.len() > 6, "{narrow}");
        for line in &welcome {
            assert_eq!(crate::shell::safe::width(line), welcome[0].chars().count());
            assert!(crate::shell::safe::width(line) <= 40, "{line}");
        }
        assert!(welcome[0].starts_with('┌') && welcome[welcome.len() - 1].starts_with('└'));
        assert!(welcome.iter().any(|l| l.contains("W E L C O M E")));
        let words: Vec<&str> = welcome
            .iter()
            .flat_map(|l| {
                l.trim_matches(['│', '┌', '┐', '└', '┘', '─', ' '])
                    .split(' ')
            })
            .filter(|w| !w.is_empty())
            .collect();
        assert_eq!(
            words.join(" "),
            WELCOME
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(
            narrow.ends_with(
                intro(&rules, drawing)
                    .split_once("\nThe rules\n")
                    .unwrap()
                    .1
            )
        );
    }
}
