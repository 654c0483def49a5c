//! "Hey, That's My Fish!"'s face: the assignment's board and sentences, and
//! its command line. The board is printed exactly as the assignment's
//! examples print it; squares are named `(row,column)` from 1, row 1 at the top.

use owo_colors::OwoColorize;

use crate::games::fish::{
    Board, Move, Named, Position, Setup, Side, SquareError, parse_path, skipped,
};
use crate::games::{Outcome, Square, Verdict};
use crate::shell::face::{Canvas, Face, Help, MovePrompt, Player, Squares, View};

pub mod text;

pub use text::COMPUTER_NAMES;
use text::{labels, move_words};

/// The penguin game's face.
pub struct FishFace;

/// Reads the forms of a move the help and the README show: `2 4`, `2,4`,
/// `(2,4)`, and two of those for a whole move (`1,2 2,3`, `1 2 2 3`,
/// `(1,2) to (2,3)`). `None` when the line is in none of these forms: the
/// core's reader then says exactly what is wrong.
fn squares_as_written(board: Board, line: &str) -> Option<Result<Vec<Square>, String>> {
    // Parentheses pair up, one square in each, or the line is left to the
    // core's reader to refuse: `(1,1` is a typo, not a square.
    let mut open = false;
    for c in line.chars() {
        match (c, open) {
            ('(', false) => open = true,
            (')', true) => open = false,
            ('(' | ')', _) => return None,
            _ => {}
        }
    }
    if open {
        return None;
    }
    let spaced = line.replace(',', " ");
    let mut numbers = Vec::new();
    for (i, word) in spaced.split_whitespace().enumerate() {
        if word.eq_ignore_ascii_case("to") && i > 0 {
            continue;
        }
        let word = word.strip_prefix('(').unwrap_or(word);
        let word = word.strip_suffix(')').unwrap_or(word);
        numbers.push(word.parse::<i64>().ok()?);
    }
    if numbers.len() != 2 && numbers.len() != 4 {
        return None;
    }
    let typed = line.trim();
    Some(
        numbers
            .chunks(2)
            .map(|pair| {
                let (row, col) = (pair[0], pair[1]);
                let fits = |n: i64, max: u8| (1..=i64::from(max)).contains(&n);
                if !fits(row, board.height()) {
                    return Err(text::off_board(typed, "row", row, board.height()));
                }
                if !fits(col, board.width()) {
                    return Err(text::off_board(typed, "column", col, board.width()));
                }
                // Both fit the board, so both fit a u8.
                let (row, col) = (row as u8 - 1, col as u8 - 1);
                Ok(Square::new(col, row))
            })
            .collect(),
    )
}

/// The board as the assignment prints it: column numbers above, each row
/// numbered, a tile's points, `.` for a taken tile, `P` and `A` for the
/// penguins. With colour, the penguins stand out and the last move's
/// penguin is underlined.
pub fn board(pos: &Position, last: Option<&Move>, colour: bool) -> String {
    let b = pos.board();
    let mut out = String::from(" ");
    for col in 1..=b.width() {
        out.push_str(&format!(" {col}"));
    }
    out.push('\n');
    let tiles = pos.tiles();
    for row in 0..b.height() {
        out.push_str(&format!("{} ", row + 1));
        for col in 0..b.width() {
            let sq = Square::new(col, row);
            let cell = match pos.penguin_on(sq) {
                Some(side) => side.letter().to_string(),
                None if tiles.points(sq) == 0 => ".".to_string(),
                None => tiles.points(sq).to_string(),
            };
            let cell = match (colour, pos.penguin_on(sq)) {
                (true, Some(side)) => {
                    let moved = last.is_some_and(|m| m.to() == sq);
                    let style = match side {
                        Side::P => owo_colors::Style::new().bold().cyan(),
                        Side::A => owo_colors::Style::new().bold().magenta(),
                    };
                    let style = if moved { style.underline() } else { style };
                    cell.style(style).to_string()
                }
                _ => cell,
            };
            out.push(' ');
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}

impl Face<Setup> for FishFace {
    fn title(&self) -> &str {
        text::TITLE
    }

    fn computer_names(&self) -> [&'static str; 2] {
        COMPUTER_NAMES
    }

    fn side_title(&self, side: Side) -> &'static str {
        match side {
            Side::P => "P",
            Side::A => "A",
        }
    }

    fn person_plays_first(&self) -> bool {
        true
    }

    fn side_noun(&self, side: Side) -> &'static str {
        self.side_title(side)
    }

    fn status(&self, view: &View<'_, Setup>, _canvas: &Canvas<Side>) -> Vec<String> {
        let Some(pos) = view.pos() else {
            return Vec::new();
        };
        vec![text::points_so_far(pos.score(Side::P), pos.score(Side::A))]
    }

    fn board(&self, view: &View<'_, Setup>, last: Option<&Move>, canvas: &Canvas<Side>) -> String {
        let colour = canvas.colour;
        let history = view.history;
        history
            .last()
            .map_or_else(String::new, |pos| board(pos, last, colour))
    }

    fn move_name(&self, _view: &View<'_, Setup>, mv: &Move) -> String {
        move_words(mv)
    }

    fn computer_moves(&self, name: &str, move_name: &str) -> String {
        text::computer_moves(name, move_name)
    }

    fn player_moved(&self, name: &str, move_name: &str) -> String {
        text::player_moved(name, move_name)
    }

    fn took_back(&self, move_name: &str) -> String {
        text::took_back(move_name)
    }

    fn legal_moves_line(&self, _view: &View<'_, Setup>, moves: &[Move]) -> String {
        text::legal_moves_line(moves)
    }

    fn after_move(&self, view: &View<'_, Setup>) -> Vec<String> {
        let history = view.history;
        match history {
            [.., before, after] => skipped(before, after)
                .map(text::skipped)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn final_words(&self, view: &View<'_, Setup>, players: [Player<'_>; 2]) -> Vec<String> {
        let Some(pos) = view.pos() else {
            return Vec::new();
        };
        // Player 1's points first (the person's, against the computer, as
        // the assignment lists them).
        let order = if players[Side::A.index()].first {
            [Side::A, Side::P]
        } else {
            Side::BOTH
        };
        let labels = labels(players);
        // The sums stand in one column, as in the assignment's example.
        let width = labels
            .iter()
            .map(|(label, _)| unicode_width::UnicodeWidthStr::width(label.as_str()))
            .max()
            .unwrap_or(0);
        let mut lines: Vec<String> = order
            .iter()
            .map(|&side| {
                let haul = pos.haul(side);
                let sum = if haul.is_empty() {
                    "0".to_string()
                } else {
                    haul.sum_line()
                };
                text::points_line(&labels[side.index()].0, &sum, width)
            })
            .collect();
        // A game the rules ended: who won by the points. One the players
        // ended (a server's game resigned or abandoned) says so in
        // `result`: its points decide nothing.
        match pos.outcome() {
            Some(Outcome::Win { winner, .. }) => lines.push(text::wins(&labels[winner.index()].1)),
            Some(Outcome::Draw { .. }) => lines.push(text::draw(pos.score(Side::P))),
            None => {}
        }
        lines
    }

    fn result(&self, outcome: &Outcome<Side>, winner: Option<&str>) -> String {
        /// The endings the rules decide, by the points.
        const RULE_ENDINGS: [&str; 2] = ["most-points", "equal-points"];
        // The points lines and the winner by points come from
        // `final_words`; an ending the players made is said here.
        match (outcome, winner) {
            (Outcome::Win { winner: side, how }, Some(name)) if !RULE_ENDINGS.contains(how) => {
                text::won_otherwise(self.side_title(*side), name, how)
            }
            (Outcome::Draw { how }, _) if !RULE_ENDINGS.contains(how) => text::drawn_otherwise(how),
            _ => String::new(),
        }
    }

    fn help(&self, rules: &Setup, _width: usize) -> Help {
        text::help(rules)
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
        text::hint(move_name, verdict, to_move)
    }

    fn swap_notice(&self, names: [&str; 2], _first: Side, _width: usize) -> String {
        text::swap_notice(names)
    }
}

impl MovePrompt<Setup> for FishFace {
    fn square(&self, _rules: &Setup, sq: Square) -> String {
        Named(sq).to_string()
    }

    /// Tab offers a square without its parentheses: `2,4`, quicker to
    /// type on and as good.
    fn answer(&self, _view: &View<'_, Setup>, _typed: &[Square], sq: Square) -> String {
        format!("{:#}", Named(sq))
    }

    /// A square typed in brackets, `(2,4)`, or as two numbers, `2 4`.
    fn spellings(&self, _rules: &Setup, sq: Square) -> Vec<String> {
        vec![
            Named(sq).to_string(),
            format!("{} {}", sq.row() + 1, sq.col() + 1),
        ]
    }

    fn parse_squares(&self, view: &View<'_, Setup>, _typed: &[Square], line: &str) -> Squares {
        let rules = view.rules;
        match squares_as_written(rules.board(), line) {
            Some(read) => read,
            // What is no square is quoted whole, as typed (`((3,3))`).
            None => parse_path(rules.board(), line).map_err(|e| match e {
                SquareError::Syntax { board, .. } => SquareError::Syntax {
                    text: line.trim().to_string(),
                    board,
                }
                .to_string(),
                e => e.to_string(),
            }),
        }
    }

    fn move_question(&self, view: &View<'_, Setup>, typed: &[Square], next: &[Square]) -> String {
        let Some(pos) = view.pos() else {
            return String::new();
        };
        text::move_question(pos.to_move(), pos.placing(), typed.first().copied(), next)
    }

    fn only_move(&self, _view: &View<'_, Setup>, _typed: &[Square], mv: &Move) -> String {
        text::only_move(mv)
    }

    fn refusal(&self, view: &View<'_, Setup>, typed: &[Square], tried: &[Square]) -> String {
        let Some(pos) = view.pos() else {
            return String::new();
        };
        let attempt: Vec<Square> = typed.iter().chain(tried).copied().collect();
        let why = if tried.is_empty() {
            pos.refusal(&[])
        } else {
            // A whole move typed at the destination question is read alone.
            pos.refusal(&attempt)
                .filter(|_| tried.len() < 2)
                .or_else(|| pos.refusal(tried))
        };
        match why {
            Some(why) => crate::shell::ask::capitalise(&text::refusal(&why)),
            None => text::TYPE_A_SQUARE.to_string(),
        }
    }
}
