//! Boards drawn into strings, in letters or in colour. Nothing here prints.

use owo_colors::{OwoColorize, Style, XtermColors};

use crate::games::fox::{Board, Move, Position, Side, Square};

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
}

/// What a drawing shows besides the pieces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    /// The move just made: a dot where the piece left, its piece underlined.
    pub last: Option<Move>,
    /// Draw no fox: its start is still to be chosen.
    pub hide_fox: bool,
    /// Numbered hounds (the capture flow): hound `i + 1` stands on `hounds[i]`,
    /// or nowhere once eaten. Each has its own colour, or its digit without colour.
    pub hounds: Option<&'a [Option<Square>]>,
    /// Rows and columns numbered from 0, row 0 at the top, as the Python
    /// project's board showed them.
    pub zero_based: bool,
}

/// The colours of numbered hounds: yellow, green, blue, purple, then again.
const HOUND_COLOURS: [u8; 4] = [11, 10, 12, 13];

/// Orange, the capture flow's fox.
const ORANGE: u8 = 208;

/// One square three columns wide: the piece's letter centred on its colour.
/// Light squares are the coursework's red; playable ones a grey that shows
/// on dark and light terminals alike.
fn coloured(cell: Cell, label: char, tint: Option<u8>, moved: bool, left: bool) -> String {
    let text = match cell {
        Cell::Light => "   ".to_string(),
        Cell::Empty if left => " \u{b7} ".to_string(),
        Cell::Empty => "   ".to_string(),
        Cell::Fox | Cell::Hound => format!(" {label} "),
    };
    let style = match (cell, tint) {
        (Cell::Light, _) => Style::new().on_red(),
        (Cell::Empty, _) => Style::new().white().bold().on_bright_black(),
        (_, Some(colour)) => Style::new()
            .black()
            .bold()
            .on_color(XtermColors::from(colour)),
        (Cell::Fox, None) => Style::new().black().bold().on_yellow(),
        (Cell::Hound, None) => Style::new().black().bold().on_green(),
    };
    let style = if moved { style.underline() } else { style };
    text.style(style).to_string()
}

/// The board as the coursework drew it: files above, rank 8 at the top, rank
/// numbers at the left. With `colour`, squares are coloured cells three
/// columns wide; without, they are the 1978 letters.
pub fn board(pos: &Position, colour: bool) -> String {
    board_marked(pos, colour, Marks::default())
}

/// Whether a screen `width` columns wide has room for the colour board of
/// `board`: three columns a square and the row numbers. Narrower screens get
/// the letter board, two columns a square.
pub fn colour_fits(board: Board, width: usize) -> bool {
    width >= 2 + 3 * usize::from(board.width())
}

/// [`board`], with the last move, a hidden fox or numbered hounds marked.
pub fn board_marked(pos: &Position, colour: bool, marks: Marks<'_>) -> String {
    let board = pos.board();
    let numbered = |sq: Square| {
        marks
            .hounds
            .and_then(|hounds| hounds.iter().position(|&h| h == Some(sq)))
    };
    let file = |col: u8| {
        if marks.zero_based {
            char::from(b'0' + col)
        } else {
            char::from(b'A' + col)
        }
    };
    let mut out = String::new();
    if colour {
        out.push_str("  ");
        for col in 0..board.width() {
            out.push_str(&format!(" {} ", file(col)));
        }
        out.truncate(out.trim_end().len());
    } else {
        out.push(' ');
        for col in 0..board.width() {
            out.push(' ');
            out.push(file(col));
        }
    }
    out.push('\n');
    for row in (0..board.height()).rev() {
        let rank = if marks.zero_based {
            board.height() - 1 - row
        } else {
            row + 1
        };
        out.push_str(&format!("{rank} "));
        let mut letters = Vec::new();
        for col in 0..board.width() {
            let sq = Square::new(col, row);
            let mut cell = Cell::of(pos, sq);
            if marks.hide_fox && cell == Cell::Fox {
                cell = Cell::Empty;
            }
            let number = numbered(sq).filter(|_| cell == Cell::Hound);
            let captures = marks.hounds.is_some();
            let label = match (cell, number) {
                (Cell::Hound, Some(i)) => char::from_digit(i as u32 + 1, 10).unwrap_or('H'),
                _ => cell.letter(),
            };
            if colour {
                let tint = match (cell, number) {
                    (Cell::Hound, Some(i)) => Some(HOUND_COLOURS[i % HOUND_COLOURS.len()]),
                    (Cell::Fox, _) if captures => Some(ORANGE),
                    _ => None,
                };
                let moved = marks.last.is_some_and(|m| m.to() == sq);
                let left = marks.last.is_some_and(|m| m.from() == sq);
                out.push_str(&coloured(cell, label, tint, moved, left));
            } else {
                letters.push(label.to_string());
            }
        }
        out.push_str(&letters.join(" "));
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
        assert!(text.starts_with("   A  B  C  D  E  F  G  H\n8 "));
        assert!(text.contains('\u{1b}'));
        assert_eq!(text.lines().count(), 9);
    }
}
