//! Boards drawn into strings, in letters or in colour. Nothing here prints.

use owo_colors::OwoColorize;

use crate::games::fox::{Position, Side, Square};

/// What stands on a square, as the boards draw it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// A light square: no piece can use it.
    Light,
    /// An empty dark square.
    Empty,
    /// The fox.
    Fox,
    /// A hound.
    Hound,
}

impl Cell {
    /// The cell of a square in a position.
    pub fn of(pos: &Position, sq: Square) -> Cell {
        match pos.piece_at(sq) {
            Some(Side::Fox) => Cell::Fox,
            Some(Side::Hounds) => Cell::Hound,
            None if pos.board().is_dark(sq) => Cell::Empty,
            None => Cell::Light,
        }
    }

    /// The 1978 program's letter: `X`, `O`, `F` or `H`.
    pub const fn letter(self) -> char {
        match self {
            Cell::Light => 'X',
            Cell::Empty => 'O',
            Cell::Fox => 'F',
            Cell::Hound => 'H',
        }
    }

    /// The square two characters wide on a coloured background. Pieces keep
    /// their letter, so the board reads without telling colours apart.
    fn coloured(self) -> String {
        match self {
            Cell::Light => "  ".on_red().to_string(),
            Cell::Empty => "  ".on_black().to_string(),
            Cell::Fox => "F ".black().bold().on_yellow().to_string(),
            Cell::Hound => "H ".black().bold().on_green().to_string(),
        }
    }
}

/// The board as the coursework drew it: files above, rank 8 at the top, rank
/// numbers at the left, every square two characters wide. With `colour`, squares
/// are coloured blocks; without, they are the 1978 letters.
pub fn board(pos: &Position, colour: bool) -> String {
    let board = pos.board();
    let mut out = String::from(" ");
    for col in 0..board.width() {
        out.push(' ');
        out.push((b'A' + col) as char);
    }
    out.push('\n');
    for row in (0..board.height()).rev() {
        out.push_str(&format!("{} ", row + 1));
        let cells = (0..board.width()).map(|col| Cell::of(pos, Square::new(col, row)));
        if colour {
            for cell in cells {
                out.push_str(&cell.coloured());
            }
        } else {
            let letters: Vec<String> = cells.map(|c| c.letter().to_string()).collect();
            out.push_str(&letters.join(" "));
        }
        out.push('\n');
    }
    out
}

/// The 1978 program's board: line 1 (the hounds' home) printed first, each
/// line numbered at the left, each column numbered below, in X/H/F/O letters.
pub fn classic_board(pos: &Position) -> String {
    let board = pos.board();
    let mut out = String::new();
    for row in 0..board.height() {
        let letters: Vec<String> = (0..board.width())
            .map(|col| Cell::of(pos, Square::new(col, row)).letter().to_string())
            .collect();
        out.push_str(&format!("{:>2}  {}\n", row + 1, letters.join(" ")));
    }
    let numbers: Vec<String> = (1..=board.width()).map(|c| c.to_string()).collect();
    out.push_str(&format!("    {}\n", numbers.join(" ")));
    out
}

/// A square as the 1978 program named it: line, then column (`B1` is `1,2`).
pub fn line_column(sq: Square) -> String {
    format!("{},{}", sq.row() + 1, sq.col() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fox::Setup;

    #[test]
    fn letter_board_of_the_start() {
        let start = Setup::default().default_start();
        let expected = "  A B C D E F G H
8 F X O X O X O X
7 X O X O X O X O
6 O X O X O X O X
5 X O X O X O X O
4 O X O X O X O X
3 X O X O X O X O
2 O X O X O X O X
1 X H X H X H X H
";
        assert_eq!(board(&start, false), expected);
    }

    #[test]
    fn classic_board_numbers_lines_and_columns() {
        let start = Setup::default().default_start();
        let text = classic_board(&start);
        assert!(text.starts_with(" 1  X H X H X H X H\n 2  O X O X O X O X\n"));
        assert!(text.ends_with(" 8  F X O X O X O X\n    1 2 3 4 5 6 7 8\n"));
        assert_eq!(line_column(Square::new(1, 0)), "1,2");
    }

    #[test]
    fn colour_board_has_escape_codes_and_the_same_labels() {
        let start = Setup::default().default_start();
        let text = board(&start, true);
        assert!(text.starts_with("  A B C D E F G H\n8 "));
        assert!(text.contains('\u{1b}'));
        assert_eq!(text.lines().count(), 9);
    }
}
