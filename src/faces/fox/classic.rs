//! The 1978 BASIC program's face: its `LINE,COLUMN` squares, its upper-case
//! refusals and its board, for its conversation and for replays.

use super::text::classic as text;
use super::{FoxFace, render};
use crate::games::Outcome;
use crate::games::Verdict;
use crate::games::fox::{Board, Move, Position, Setup, Side, Square};
use crate::shell::face::{Canvas, Face, Help, MovePrompt, Squares, View};

/// The square at a 1978 line and column.
pub fn square(board: Board, line: u8, col: u8) -> Result<Square, String> {
    match (line.checked_sub(1), col.checked_sub(1)) {
        (Some(row), Some(c)) if board.square(c, row).is_some() => {
            Ok(board.square(c, row).expect("checked"))
        }
        _ => Err(format!(
            "{line},{col} IS OFF THE BOARD. LINES GO FROM 1 TO {}, COLUMNS FROM 1 TO {}.",
            board.height(),
            board.width()
        )),
    }
}

/// Checks that a square holds a hound that can move.
pub fn pick(pos: &Position, sq: Square) -> Result<Square, String> {
    let at = render::line_column(sq);
    match pos.piece_at(sq) {
        Some(Side::Hounds) if pos.pick(sq).is_ok() => Ok(sq),
        Some(Side::Hounds) => Err(format!("THE HOUND AT {at} CAN'T MOVE.")),
        Some(Side::Fox) => Err(format!("{at} IS MY FOX, NOT A HOUND.")),
        None if !pos.board().is_dark(sq) => {
            Err(format!("{at} IS AN X SQUARE. NO PIECE CAN BE THERE."))
        }
        None => Err(format!("THERE IS NO HOUND AT {at}.")),
    }
}

/// The hound move from `from` to `to`, or exactly why it is not one.
pub fn destination(pos: &Position, from: Square, to: Square) -> Result<Move, String> {
    if let Some(mv) = pos.find_move(from, to) {
        return Ok(mv);
    }
    let at = render::line_column(to);
    let here = render::line_column(from);
    let beside = to.col().abs_diff(from.col()) == 1;
    Err(if to == from {
        format!(
            "THE HOUND IS AT {at} ALREADY. GIVE WHERE IT GOES, OR PRESS RETURN TO PICK ANOTHER."
        )
    } else if !pos.board().is_dark(to) {
        format!("{at} IS AN X SQUARE. NO PIECE CAN BE THERE.")
    } else if beside && from.row() == to.row() + 1 {
        format!("{at} IS BEHIND {here}. A HOUND ONLY MOVES FORWARD, DOWN THE PAGE.")
    } else if !(beside && to.row() == from.row() + 1) {
        format!(
            "A HOUND MOVES ONE LINE FORWARD AND ONE COLUMN LEFT OR RIGHT. {at} IS NOT ONE STEP FROM {here}."
        )
    } else {
        match pos.piece_at(to) {
            Some(Side::Fox) => format!("{at} IS NOT EMPTY: MY FOX IS THERE."),
            _ => format!("{at} IS NOT EMPTY: A HOUND IS THERE."),
        }
    })
}

/// Reads numbers separated by commas or spaces, as the 1978 program's
/// `LINE,COLUMN` answers: `1,2`, `1 2`, or `1,2 2,3`. A whole number too
/// large or below zero is off `board`, said as [`square`] says it.
pub fn parse_numbers(line: &str, board: Board) -> Result<Vec<u8>, String> {
    let parts: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(super::text::classic::TYPE_LINE_COLUMN.to_string());
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<u8>().map_err(|_| {
                let digits = p.strip_prefix('-').unwrap_or(p);
                let shown = crate::shell::safe::cut(&p.to_uppercase(), 20);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    format!(
                        "{shown} IS OFF THE BOARD. LINES GO FROM 1 TO {}, COLUMNS FROM 1 TO {}.",
                        board.height(),
                        board.width()
                    )
                } else {
                    format!("\"{shown}\" IS NOT A NUMBER. TYPE LINE, THEN COLUMN, LIKE 1,2")
                }
            })
        })
        .collect()
}

/// The 1978 program's face, for replaying its games: its board, upper-case
/// words and `LINE,COLUMN` squares. Its conversation is [`run`]; the rest of
/// a face it borrows from the default flow's.
pub struct ClassicFace;

impl Face<Setup> for ClassicFace {
    fn title(&self) -> &str {
        "TALLY HO!"
    }

    fn computer_names(&self) -> [&'static str; 2] {
        FoxFace.computer_names()
    }

    fn side_title(&self, side: Side) -> &'static str {
        match side {
            Side::Fox => "FOX",
            Side::Hounds => "HOUNDS",
        }
    }

    fn side_noun(&self, side: Side) -> &'static str {
        FoxFace.side_noun(side)
    }

    fn board(
        &self,
        view: &View<'_, Setup>,
        _last: Option<&Move>,
        _canvas: &Canvas<Side>,
    ) -> String {
        let history = view.history;
        history
            .last()
            .map_or_else(String::new, render::classic_board)
    }

    fn move_name(&self, _view: &View<'_, Setup>, mv: &Move) -> String {
        format!(
            "FROM {} TO {}",
            render::line_column(mv.from()),
            render::line_column(mv.to())
        )
    }

    fn computer_moves(&self, _name: &str, move_name: &str) -> String {
        format!("I MOVED {move_name}")
    }

    /// The 1978 fox, the computer, is "I"; the person is "YOU". A log
    /// names the computer by its level, with no name (shown as
    /// `Computer`): the program asks the person for none.
    fn player_moved(&self, name: &str, move_name: &str) -> String {
        if name.is_empty() || name == "Computer" || FoxFace.computer_names().contains(&name) {
            format!("I MOVED {move_name}")
        } else {
            // The name comes safe for the terminal: its escapes stay as shown.
            format!("{} MOVED {move_name}", crate::shell::safe::upper(name))
        }
    }

    fn result(&self, outcome: &Outcome<Side>, _winner: Option<&str>) -> String {
        match super::ending_named(outcome.how()) {
            Some(ending) => text::result_said(ending),
            None => outcome.how().to_uppercase(),
        }
    }

    fn help(&self, rules: &Setup, _width: usize) -> Help {
        // The 1978 program's instructions name its commands in their text.
        Help::new(text::instructions(rules.board, rules.rules, rules.first))
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
        FoxFace.hint(move_name, verdict, to_move).to_uppercase()
    }

    fn swap_notice(&self, names: [&str; 2], first: Side, width: usize) -> String {
        FoxFace.swap_notice(names, first, width)
    }
}

impl MovePrompt<Setup> for ClassicFace {
    fn square(&self, _rules: &Setup, sq: Square) -> String {
        render::line_column(sq)
    }

    fn parse_squares(&self, view: &View<'_, Setup>, _typed: &[Square], line: &str) -> Squares {
        let rules = view.rules;
        let numbers = parse_numbers(line, rules.board)?;
        numbers
            .chunks(2)
            .map(|pair| match pair {
                [line, col] => square(rules.board, *line, *col),
                _ => Err("TYPE TWO NUMBERS: LINE, THEN COLUMN, LIKE 1,2".to_string()),
            })
            .collect()
    }

    fn move_question(&self, _view: &View<'_, Setup>, typed: &[Square], _next: &[Square]) -> String {
        if typed.is_empty() {
            text::FROM
        } else {
            text::TO
        }
        .to_string()
    }

    fn only_move(&self, view: &View<'_, Setup>, typed: &[Square], mv: &Move) -> String {
        let rules = view.rules;
        let history = view.history;
        FoxFace.only_move(&View::new(rules, history), typed, mv)
    }

    fn refusal(&self, view: &View<'_, Setup>, typed: &[Square], tried: &[Square]) -> String {
        let rules = view.rules;
        let history = view.history;
        FoxFace
            .refusal(&View::new(rules, history), typed, tried)
            .to_uppercase()
    }
}

#[cfg(test)]
mod tests {
    use super::parse_numbers;

    #[test]
    fn numbers_too_large_are_off_the_board_and_words_are_no_numbers() {
        let board = crate::games::fox::Setup::default().board;
        assert_eq!(parse_numbers("1,2", board), Ok(vec![1, 2]));
        let off = "IS OFF THE BOARD. LINES GO FROM 1 TO 8, COLUMNS FROM 1 TO 8.";
        assert_eq!(
            parse_numbers("99999999999999999999,1", board),
            Err(format!("99999999999999999999 {off}"))
        );
        assert_eq!(parse_numbers("256,1", board), Err(format!("256 {off}")));
        assert_eq!(parse_numbers("1,-1", board), Err(format!("-1 {off}")));
        assert_eq!(
            parse_numbers("x,1", board),
            Err("\"X\" IS NOT A NUMBER. TYPE LINE, THEN COLUMN, LIKE 1,2".to_string())
        );
    }
}
