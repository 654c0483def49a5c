//! The capture game's face, after the Python project: a board of 7 columns
//! by 8 rows numbered from 0 with row 0 at the top, hounds numbered 1-4 in
//! their own colours, the fox in orange. The fox's player gives a row, then
//! a column; the hounds' player picks a hound by its number, then the column
//! it moves to.

use super::{render, text};
use crate::games::fox::{Board, Ending, Move, Position, Setup, Side, Square};
use crate::games::{Outcome, Verdict};
use crate::shell::face::{Canvas, Face, GAME_OVER, Help, MovePrompt, Squares, StartChoice, View};

/// The capture flow's face.
pub struct CaptureFace;

/// Where each hound stands, by its number (hound `i + 1` at `[i]`), or
/// `None` once eaten. Hounds are numbered left to right at the start and
/// keep their numbers as they move.
pub fn numbered_hounds(history: &[Position]) -> Vec<Option<Square>> {
    let Some(start) = history.first() else {
        return Vec::new();
    };
    let mut hounds: Vec<Square> = start.hounds().collect();
    hounds.sort_by_key(|sq| (sq.col(), sq.row()));
    let mut numbered: Vec<Option<Square>> = hounds.into_iter().map(Some).collect();
    for pair in history.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let gone: Vec<Square> = before
            .hounds()
            .filter(|&h| after.piece_at(h) != Some(Side::Hounds))
            .collect();
        let came: Vec<Square> = after
            .hounds()
            .filter(|&h| before.piece_at(h) != Some(Side::Hounds))
            .collect();
        for place in numbered.iter_mut() {
            if place.is_some_and(|sq| gone.contains(&sq)) {
                // A hound that left its square moved to the one square a hound
                // came to; with no such square, the fox ate it.
                *place = came.first().copied();
            }
        }
    }
    numbered
}

/// A square as the project named it: row from the top, then column, from 0.
pub fn square_name(board: Board, sq: Square) -> String {
    format!("({},{})", board.height() - 1 - sq.row(), sq.col())
}

/// The square at a row (from the top) and a column, both from 0.
fn square_at(board: Board, row: u32, col: u32) -> Result<Square, String> {
    let (h, w) = (u32::from(board.height()), u32::from(board.width()));
    if row >= h || col >= w {
        return Err(format!(
            "row {row}, column {col} is off the board: rows 0-{}, columns 0-{}",
            h - 1,
            w - 1
        ));
    }
    board
        .square(col as u8, (h - 1 - row) as u8)
        .ok_or_else(|| "that square is off the board".to_string())
}

/// The numbers in a line: `2 3`, `2,3`, `(2, 3)`.
fn numbers(line: &str) -> Result<Vec<u32>, String> {
    let parts: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')'))
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err("type numbers, like 2 3, or help".to_string());
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<u32>().map_err(|_| {
                format!(
                    "\"{}\" is not a number: type numbers, like 2 3, or help",
                    crate::shell::safe::cut(p, 20)
                )
            })
        })
        .collect()
}

/// The hound numbered `n`, where it stands.
fn hound(history: &[Position], n: u32) -> Result<Square, String> {
    let hounds = numbered_hounds(history);
    match n.checked_sub(1).and_then(|i| hounds.get(i as usize)) {
        Some(Some(sq)) => Ok(*sq),
        Some(None) => Err(format!("hound {n} was eaten by the fox")),
        None => Err(format!(
            "there is no hound {n}: the hounds are 1-{}",
            hounds.len()
        )),
    }
}

/// The hound on `sq`, by number.
fn number_of(history: &[Position], sq: Square) -> Option<usize> {
    numbered_hounds(history)
        .iter()
        .position(|&h| h == Some(sq))
        .map(|i| i + 1)
}

/// Where the hound on `from` lands in column `col`: one row further on.
fn hound_step(board: Board, from: Square, col: u32) -> Result<Square, String> {
    if col >= u32::from(board.width()) {
        return Err(format!(
            "column {col} is off the board: columns 0-{}",
            board.width() - 1
        ));
    }
    board
        .square(col as u8, from.row() + 1)
        .ok_or_else(|| "that hound is on the last row and cannot move".to_string())
}

/// Where the hound on `from` lands in column `col`, where no other hound
/// stands: a hound typed as a column is no choice of another hound.
fn hound_landing(
    history: &[Position],
    board: Board,
    from: Square,
    col: u32,
) -> Result<Square, String> {
    let to = hound_step(board, from, col)?;
    let Some(other) = number_of(history, to) else {
        return Ok(to);
    };
    let n = number_of(history, from).unwrap_or(0);
    let open: Vec<u8> = history
        .last()
        .map(|pos| {
            pos.legal_moves()
                .iter()
                .filter(|m| m.from() == from)
                .map(|m| m.to().col())
                .collect()
        })
        .unwrap_or_default();
    let at = square_name(board, to);
    Err(if open.is_empty() {
        format!(
            "hound {n} cannot go to column {col}: hound {other} is on {at}, and hound {n} cannot move"
        )
    } else {
        format!(
            "hound {n} cannot go to column {col}: hound {other} is on {at}. It can go to column {}",
            text::list_or(&open)
        )
    })
}

impl Face<Setup> for CaptureFace {
    fn title(&self) -> &str {
        "FOX AND HOUNDS: THE CAPTURE GAME"
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
            Side::Hounds => "hound",
        }
    }

    fn board(&self, view: &View<'_, Setup>, last: Option<&Move>, canvas: &Canvas<Side>) -> String {
        let history = view.history;
        let colour = canvas.colour
            && history
                .last()
                .is_some_and(|pos| render::colour_fits(pos.board(), canvas.width));
        let hounds = numbered_hounds(history);
        let marks = render::Marks {
            last: last.copied(),
            hounds: Some(&hounds),
            zero_based: true,
            ..render::Marks::default()
        };
        history
            .last()
            .map_or_else(String::new, |pos| render::board_marked(pos, colour, marks))
    }

    fn move_name(&self, view: &View<'_, Setup>, mv: &Move) -> String {
        let rules = view.rules;
        let history = view.history;
        let board = rules.board;
        let to = square_name(board, mv.to());
        let Some(pos) = history.last() else {
            return mv.to_string();
        };
        let from = square_name(board, mv.from());
        match pos.piece_at(mv.from()) {
            Some(Side::Fox) => match number_of(history, mv.to()) {
                Some(n) => format!("the fox from {from} to {to}, eating hound {n}"),
                None => format!("the fox from {from} to {to}"),
            },
            _ => {
                let n = number_of(history, mv.from()).unwrap_or(0);
                if pos.fox() == Some(mv.to()) {
                    format!("hound {n} to {to}, catching the fox")
                } else {
                    format!("hound {n} to {to}")
                }
            }
        }
    }

    fn computer_moves(&self, name: &str, move_name: &str) -> String {
        format!("{name} moves {move_name}.")
    }

    fn result(&self, outcome: &Outcome<Side>, winner: Option<&str>) -> String {
        let why = match super::ending_named(outcome.how()) {
            Some(Ending::FoxHome) => "The fox reached the hounds' side of the board.",
            Some(Ending::FoxCaptured) => "A hound caught the fox.",
            Some(Ending::FoxBoxedIn) => "The fox is boxed in.",
            Some(Ending::FoxTrapped) => "The fox cannot move.",
            Some(Ending::HoundsStuck) => "The hounds cannot move.",
            Some(Ending::FoxEscaped) => "The fox got past the hounds, out of their reach.",
            None => "",
        };
        let side = outcome.winner().unwrap_or(Side::Hounds);
        format!(
            "{}, {} won! {why}",
            text::side_title(side),
            winner.unwrap_or("?")
        )
        .trim_end()
        .to_string()
    }

    fn help(&self, rules: &Setup, _width: usize) -> Help {
        Help::new(format!(
            "How to play ({board} board, the capture game)
  The fox (F) starts at the top; the {hounds} hounds (numbered 1-{hounds}) start on the bottom row. The fox moves first.
  Every move is one square diagonally. Nobody jumps.
  The fox moves either way, onto an empty square or onto a hound, which it eats.
  A hound moves forward (up the board) onto an empty square, or onto the fox, which it catches.
  The fox wins by reaching the bottom row. The hounds win by catching the fox, or by boxing it in: every square next to it holds a hound. A side that cannot move loses.
Typing a move
  Fox:     its row, then its column, numbered as on the board: 2 3
  Hounds:  the hound's number, then the column it moves to: 2 then 3, or 2 3",
            board = rules.board,
            hounds = rules.board.hound_count(),
        ))
        .command("moves", "list the legal moves")
        .command("hint", "name a best move and who wins with best play")
        .command("undo", "take back the last move (or the hound chosen)")
        .command("board", "show the board again")
        .command("help", "show this")
        .command("quit", "leave (the score is printed)")
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
        super::FoxFace.hint(move_name, verdict, to_move)
    }

    fn again_question(&self) -> &str {
        "Reset the board (yes/no)? "
    }

    fn swap_notice(&self, names: [&str; 2], first: Side, width: usize) -> String {
        super::FoxFace.swap_notice(names, first, width)
    }

    fn start_choice(&self) -> Option<&dyn StartChoice<Setup>> {
        Some(self)
    }
}

impl MovePrompt<Setup> for CaptureFace {
    fn square(&self, rules: &Setup, sq: Square) -> String {
        square_name(rules.board, sq)
    }

    fn answer(&self, view: &View<'_, Setup>, typed: &[Square], sq: Square) -> String {
        let rules = view.rules;
        let history = view.history;
        match (history.last().map(Position::to_move), typed) {
            (Some(Side::Hounds), []) => {
                number_of(history, sq).map_or_else(String::new, |n| n.to_string())
            }
            (Some(Side::Hounds), _) => sq.col().to_string(),
            // As the fox's player types it, `2 3`, so that `2 ` and Tab offer the columns.
            _ => {
                let row = rules.board.height() - 1 - sq.row();
                format!("{row} {}", sq.col())
            }
        }
    }

    fn parse_squares(&self, view: &View<'_, Setup>, typed: &[Square], line: &str) -> Squares {
        let (rules, pos) = (view.rules, view.pos().ok_or(GAME_OVER)?);
        let board = rules.board;
        let numbers = numbers(line)?;
        match (pos.to_move(), typed, numbers.as_slice()) {
            (Side::Fox, _, [row, col]) => Ok(vec![square_at(board, *row, *col)?]),
            (Side::Fox, _, _) => Err("give the fox's row, then its column, like 2 3".to_string()),
            (Side::Hounds, [], [n]) => Ok(vec![hound(view.history, *n)?]),
            (Side::Hounds, _, [n, col]) => {
                let from = hound(view.history, *n)?;
                Ok(vec![from, hound_landing(view.history, board, from, *col)?])
            }
            (Side::Hounds, [from, ..], [col]) => {
                Ok(vec![hound_landing(view.history, board, *from, *col)?])
            }
            (Side::Hounds, _, _) => {
                Err("give a hound's number, then the column it moves to, like 2 3".to_string())
            }
        }
    }

    fn move_question(&self, view: &View<'_, Setup>, typed: &[Square], next: &[Square]) -> String {
        let rules = view.rules;
        let history = view.history;
        let board = rules.board;
        match (history.last().map(Position::to_move), typed) {
            (Some(Side::Fox), _) => {
                let places: Vec<String> = next.iter().map(|&sq| square_name(board, sq)).collect();
                format!("Fox to which row and column: {}? ", text::list_or(&places))
            }
            (_, []) => {
                let mut numbers: Vec<usize> = next
                    .iter()
                    .filter_map(|&sq| number_of(history, sq))
                    .collect();
                numbers.sort_unstable();
                format!("Which hound ({})? ", text::list(&numbers))
            }
            (_, [from, ..]) => {
                let columns: Vec<u8> = next.iter().map(|sq| sq.col()).collect();
                let n = number_of(view.history, *from).unwrap_or(0);
                // The hound question skipped, as only one hound can move: say so.
                let alone = history
                    .last()
                    .is_some_and(|pos| pos.legal_moves().iter().all(|m| m.from() == *from));
                text::capture_column_question(n, &columns, alone)
            }
        }
    }

    fn only_move(&self, view: &View<'_, Setup>, _typed: &[Square], mv: &Move) -> String {
        let rules = view.rules;
        let history = view.history;
        format!(
            "Only one move: {}. Press Enter to make it.",
            self.move_name(&View::new(rules, history), mv)
        )
    }

    fn refusal(&self, view: &View<'_, Setup>, typed: &[Square], tried: &[Square]) -> String {
        let rules = view.rules;
        let Some(pos) = view.pos() else {
            return String::new();
        };
        let board = rules.board;
        let moves = pos.legal_moves();
        match (pos.to_move(), typed, tried) {
            (_, _, []) => "Type one of the choices in brackets, or help.".to_string(),
            (Side::Fox, _, [to, ..]) => {
                let places: Vec<String> =
                    moves.iter().map(|m| square_name(board, m.to())).collect();
                format!(
                    "The fox cannot go to {}: it steps one square diagonally, to {}.",
                    square_name(board, *to),
                    text::list_or(&places)
                )
            }
            (Side::Hounds, _, [from, to]) | (Side::Hounds, [from], [to]) => {
                let n = number_of(view.history, *from).unwrap_or(0);
                let columns: Vec<u8> = moves
                    .iter()
                    .filter(|m| m.from() == *from)
                    .map(|m| m.to().col())
                    .collect();
                if columns.is_empty() {
                    format!("Hound {n} cannot move.")
                } else {
                    format!(
                        "Hound {n} cannot go to column {}: it steps forward one square diagonally, to column {}.",
                        to.col(),
                        text::list_or(&columns)
                    )
                }
            }
            (Side::Hounds, _, [from, ..]) => {
                let n = number_of(view.history, *from).unwrap_or(0);
                format!("Hound {n} cannot move.")
            }
        }
    }
}

impl StartChoice<Setup> for CaptureFace {
    fn start_board(&self, rules: &Setup, starts: &[Position], colour: bool) -> String {
        let hounds = numbered_hounds(&starts[..starts.len().min(1)]);
        let marks = render::Marks {
            hide_fox: true,
            zero_based: true,
            hounds: Some(&hounds),
            ..render::Marks::default()
        };
        let _ = rules;
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
        let places: Vec<String> = starts
            .iter()
            .filter_map(Position::fox)
            .map(|sq| square_name(rules.board, sq))
            .collect();
        (
            format!(
                "{name}, where should the fox start ({})? ",
                places.join(", ")
            ),
            places,
        )
    }

    fn parse_start(&self, rules: &Setup, line: &str, starts: &[Position]) -> Result<usize, String> {
        let numbers = numbers(line)?;
        let [row, col] = numbers[..] else {
            return Err("give a row, then a column, like 0 3".to_string());
        };
        let sq = square_at(rules.board, row, col)?;
        starts
            .iter()
            .position(|p| p.fox() == Some(sq))
            .ok_or_else(|| format!("the fox cannot start on {}", square_name(rules.board, sq)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fox::{Board, Rules};

    #[test]
    fn the_helps_are_whole_sentences_and_name_no_colour() {
        let board = Board::new(8, 8).expect("8x8");
        let setup = Setup {
            board,
            rules: Rules::Capture,
            fox_start: Some(board.default_fox_start()),
            first: Side::Fox,
        };
        let help = CaptureFace.help(&setup, 0).to_string();
        crate::faces::assert_whole_sentences(&help);
        // The same words with colour or without it.
        assert!(
            !help.contains("orange") && !help.contains("colour"),
            "{help}"
        );
        assert!(help.contains("the 4 hounds (numbered 1-4)"), "{help}");
        for rules in [
            Rules::Standard,
            Rules::Coursework,
            Rules::Escape,
            Rules::Capture,
        ] {
            crate::faces::assert_whole_sentences(&text::help(board, rules).to_string());
        }
    }

    #[test]
    fn a_skipped_hound_question_is_explained() {
        let board = Board::new(7, 8).expect("7x8");
        let setup = Setup {
            board,
            rules: Rules::Capture,
            fox_start: Some(board.default_fox_start()),
            first: Side::Hounds,
        };
        // A1 is blocked by the hound on B2: only B2 can move.
        let pos =
            Position::parse_under("F8/A1,B2/hounds", board, Rules::Capture).expect("a position");
        let movable: Vec<Square> = pos.legal_moves().iter().map(|m| m.from()).collect();
        let history = [pos];
        let first = movable[0];
        let next: Vec<Square> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from() == first)
            .map(|m| m.to())
            .collect();
        let question = CaptureFace.move_question(&View::new(&setup, &history), &[first], &next);
        assert!(movable.iter().all(|&f| f == first), "{movable:?}");
        assert!(
            question.starts_with("Only hound 2 can move. Hound 2"),
            "{question}"
        );
        // With two hounds free, no such word.
        let pos =
            Position::parse_under("F8/A1,E1/hounds", board, Rules::Capture).expect("a position");
        let history = [pos];
        let question = CaptureFace.move_question(
            &View::new(&setup, &history),
            &[pos.legal_moves()[0].from()],
            &[],
        );
        assert!(question.starts_with("Hound "), "{question}");
    }
}
