//! Fox and Hounds' face: the coursework's boards and sentences for the
//! default flow, and the 1978 conversation in [`classic`].

use crate::games::fox::{Board, Ending, Move, Position, Setup, Side, Square, SquareError};
use crate::games::{Outcome, Verdict};
use crate::shell::face::{Canvas, Face, Help, MovePrompt, Squares, StartChoice, View};

pub mod capture;
pub mod classic;
pub mod render;
pub mod text;

/// The default flow's face, after the C coursework.
pub struct FoxFace;

/// Reads a line of squares typed at a move prompt: one square, or two for
/// a whole move (`B1 C2`, `b1-c2`).
pub fn parse_squares(board: Board, line: &str) -> Squares {
    let text = line.trim();
    let parts: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '-' || c == ',')
        .filter(|p| !p.is_empty())
        .collect();
    let unknown =
        || format!("\"{text}\" is neither a square nor a command: type a square like B1, or help");
    let square = |part: &str| board.parse_square(part).map_err(|e| e.to_string());
    match parts[..] {
        // `B1C2`: a whole move written without a space.
        [one] if glued_move(one) => {
            let (from, to) = one.split_at(2);
            Ok(vec![square(from)?, square(to)?])
        }
        [one] => match board.parse_square(one) {
            Ok(sq) => Ok(vec![sq]),
            Err(SquareError::Syntax { .. })
                if one.len() > 2 && one.chars().all(|c| c.is_ascii_alphabetic()) =>
            {
                Err(unknown())
            }
            Err(e) => Err(e.to_string()),
        },
        [from, to] => Ok(vec![square(from)?, square(to)?]),
        [] => Err(unknown()),
        _ => Err(format!(
            "\"{text}\" has too many parts: type one square, or a move like B1-C2"
        )),
    }
}

/// Whether `text` is two squares written together, like `B1C2` or `b7c6`.
fn glued_move(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
}

/// The ending a log name stands for.
pub fn ending_named(how: &str) -> Option<Ending> {
    [
        Ending::FoxHome,
        Ending::FoxEscaped,
        Ending::FoxTrapped,
        Ending::HoundsStuck,
        Ending::FoxCaptured,
        Ending::FoxBoxedIn,
    ]
    .into_iter()
    .find(|e| e.name() == how)
}

/// The square of the hound the last move ate, if it ate one.
pub fn eaten(history: &[Position]) -> Option<Square> {
    let [.., before, after] = history else {
        return None;
    };
    (after.hound_count() < before.hound_count())
        .then(|| after.fox())
        .flatten()
}

/// Why the squares typed make no move, in the coursework's sentences: the
/// core gives the reason, `text` words it.
pub fn refusal(pos: &Position, typed: &[Square], tried: &[Square]) -> String {
    text::refusal(&pos.refusal(typed, tried))
}

impl Face<Setup> for FoxFace {
    fn title(&self) -> &str {
        text::TITLE
    }

    fn computer_names(&self) -> [&'static str; 2] {
        text::COMPUTER_NAMES
    }

    fn side_title(&self, side: Side) -> &'static str {
        text::side_title(side)
    }

    fn side_noun(&self, side: Side) -> &'static str {
        match side {
            Side::Fox => "fox",
            Side::Hounds => "hounds",
        }
    }

    fn board(&self, view: &View<'_, Setup>, last: Option<&Move>, canvas: &Canvas<Side>) -> String {
        let history = view.history;
        let colour = canvas.colour
            && history
                .last()
                .is_some_and(|pos| render::colour_fits(pos.board(), canvas.width));
        let marks = render::Marks {
            last: last.copied(),
            ..render::Marks::default()
        };
        history
            .last()
            .map_or_else(String::new, |pos| render::board_marked(pos, colour, marks))
    }

    fn move_name(&self, _view: &View<'_, Setup>, mv: &Move) -> String {
        mv.to_string()
    }

    fn computer_moves(&self, name: &str, move_name: &str) -> String {
        format!("{name} moves {move_name}.")
    }

    fn after_move(&self, view: &View<'_, Setup>) -> Vec<String> {
        let history = view.history;
        eaten(history)
            .map(|sq| format!("The fox ate the hound on {sq}."))
            .into_iter()
            .collect()
    }

    fn result(&self, outcome: &Outcome<Side>, winner: Option<&str>) -> String {
        match (outcome, ending_named(outcome.how())) {
            (Outcome::Win { winner: side, .. }, Some(ending)) => {
                text::won(ending, winner.unwrap_or(text::side_title(*side)))
            }
            (Outcome::Win { winner: side, how }, None) => format!(
                "{}, {} won! ({how})",
                text::side_title(*side),
                winner.unwrap_or("?")
            ),
            (Outcome::Draw { how }, _) => crate::shell::text::no_winner(how),
        }
    }

    fn help(&self, rules: &Setup, _width: usize) -> Help {
        text::help(rules.board, rules.rules)
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
        let verdict = match *verdict {
            Verdict::Win {
                winner,
                plies: Some(plies),
            } => text::verdict_explained(winner, plies, to_move),
            Verdict::Win {
                winner,
                plies: None,
            } => format!("{winner} win"),
            Verdict::Draw => "a draw".to_string(),
            Verdict::Score { value, .. } => format!("{value:+} for the {to_move}"),
        };
        format!("Hint: {move_name} ({verdict}).")
    }

    fn swap_notice(&self, names: [&str; 2], _first: Side, _width: usize) -> String {
        format!(
            "Sides swap: {} is the fox, {} the hounds.",
            names[0], names[1]
        )
    }

    fn start_choice(&self) -> Option<&dyn StartChoice<Setup>> {
        Some(self)
    }
}

impl MovePrompt<Setup> for FoxFace {
    fn square(&self, _rules: &Setup, sq: Square) -> String {
        sq.to_string()
    }

    fn parse_squares(&self, view: &View<'_, Setup>, _typed: &[Square], line: &str) -> Squares {
        let rules = view.rules;
        parse_squares(rules.board, line)
    }

    fn move_question(&self, view: &View<'_, Setup>, typed: &[Square], next: &[Square]) -> String {
        let Some(pos) = view.pos() else {
            return String::new();
        };
        match typed {
            [from, ..] => text::destination_question(pos.to_move(), *from, next),
            [] => text::pick_question(next),
        }
    }

    fn only_move(&self, view: &View<'_, Setup>, _typed: &[Square], mv: &Move) -> String {
        let history = view.history;
        let side = history.last().map_or(Side::Fox, Position::to_move);
        text::only_move(side, mv.from(), mv.to())
    }

    fn refusal(&self, view: &View<'_, Setup>, typed: &[Square], tried: &[Square]) -> String {
        let history = view.history;
        history
            .last()
            .map_or_else(String::new, |pos| refusal(pos, typed, tried))
    }
}

impl StartChoice<Setup> for FoxFace {
    fn start_board(&self, _rules: &Setup, starts: &[Position], colour: bool) -> String {
        let marks = render::Marks {
            hide_fox: true,
            ..render::Marks::default()
        };
        starts
            .first()
            .map_or_else(String::new, |pos| render::board_marked(pos, colour, marks))
    }

    fn start_question(
        &self,
        rules: &Setup,
        name: &str,
        starts: &[Position],
    ) -> (String, Vec<String>) {
        let squares: Vec<Square> = starts.iter().filter_map(Position::fox).collect();
        let _ = rules;
        (
            format!(
                "{name}, where should the fox start ({})? ",
                text::list(&squares)
            ),
            squares.iter().map(ToString::to_string).collect(),
        )
    }

    fn parse_start(&self, rules: &Setup, line: &str, starts: &[Position]) -> Result<usize, String> {
        let squares: Vec<Square> = starts.iter().filter_map(Position::fox).collect();
        let sq = rules.board.parse_square(line).map_err(|e| match e {
            SquareError::Syntax { .. } => text::not_a_start(line.trim(), &squares),
            e => e.to_string(),
        })?;
        let sq = rules.check_fox_start(sq).map_err(|e| e.to_string())?;
        starts
            .iter()
            .position(|p| p.fox() == Some(sq))
            .ok_or_else(|| format!("the fox cannot start on {sq}"))
    }
}

#[cfg(test)]
mod narrow_tests {
    use super::*;

    #[test]
    fn a_narrow_screen_gets_the_letter_board_even_in_colour() {
        let setup = Setup::default();
        let history = [setup.default_start()];
        let view = View::new(&setup, &history);
        let canvas = |width| Canvas {
            colour: true,
            width,
            viewer: None,
        };
        let wide = FoxFace.board(&view, None, &canvas(80));
        assert!(wide.contains('\u{1b}'), "{wide}");
        let narrow = FoxFace.board(&view, None, &canvas(25));
        assert!(!narrow.contains('\u{1b}'), "{narrow}");
        assert!(narrow.lines().all(|l| l.chars().count() <= 17), "{narrow}");
    }
}
