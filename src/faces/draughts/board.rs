//! The draughts board drawn into a string: the seed's line-drawing frame (or
//! plain ASCII), coordinates on all four edges, O for Black and X for White,
//! kings in brackets, and a key of the PDN square numbers beside it, row for
//! row. Nothing here prints.
//!
//! The board is drawn from Black's side, row 8 at the top: Black's men start
//! on rows 1-3 and move up, so A1 is at Black's near left. As in the seed, a
//! light square shows a dot and an empty dark square is blank.

use owo_colors::{OwoColorize, Style};

use crate::games::Square;
use crate::games::draughts::{Move, PdnSquare, Piece, Position, Side};

/// How a board is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Drawing {
    /// Plain ASCII lines (`+`, `-`, `|`) instead of box drawing.
    pub ascii: bool,
    /// Colour: the pieces in their colours, the last move marked, the key dimmed.
    pub colour: bool,
    /// The columns there are, 0 for no limit: below [`FULL_WIDTH`] the key of
    /// square numbers goes, below [`FRAMED_WIDTH`] the frame too.
    pub width: usize,
    /// From White's side: row 1 at the top, H on the left. The square
    /// numbers stay the squares' own.
    pub flip: bool,
}

/// The columns the framed board takes with the key of square numbers beside it.
pub const FULL_WIDTH: usize = 62;

/// The columns the framed board takes alone.
pub const FRAMED_WIDTH: usize = 37;

/// The characters of a frame, after the seed's line-drawing codes.
pub struct Lines {
    /// Horizontal line.
    pub h: char,
    /// Vertical line.
    pub v: char,
    /// Upper corners, left and right.
    pub upper: [char; 2],
    /// Lower corners, left and right.
    pub lower: [char; 2],
    /// The tee on the top edge, and the one on the bottom edge.
    pub tees: [char; 2],
}

/// Box drawing.
pub const BOX: Lines = Lines {
    h: '─',
    v: '│',
    upper: ['┌', '┐'],
    lower: ['└', '┘'],
    tees: ['┬', '┴'],
};

/// The ASCII fallback.
pub const ASCII: Lines = Lines {
    h: '-',
    v: '|',
    upper: ['+', '+'],
    lower: ['+', '+'],
    tees: ['+', '+'],
};

impl Drawing {
    /// The frame characters.
    pub fn lines(self) -> &'static Lines {
        if self.ascii { &ASCII } else { &BOX }
    }
}

/// The seed's letter for a side's pieces: O for Black (the seed's player 1,
/// who moves first), X for White.
pub const fn letter(side: Side) -> char {
    match side {
        Side::Black => 'O',
        Side::White => 'X',
    }
}

/// A piece as a cell three columns wide: ` O ` for a man, `(O)` for a king.
pub fn piece_cell(piece: Piece) -> String {
    match piece {
        Piece::Man(side) => format!(" {} ", letter(side)),
        Piece::King(side) => format!("({})", letter(side)),
    }
}

/// The width of a row of the board with its labels, where the key begins.
const KEY_COLUMN: usize = 38;

/// Pads `line` (plain text, `shown` columns wide) with spaces to the key's column.
fn to_key(line: &mut String, shown: usize) {
    line.push_str(&" ".repeat(KEY_COLUMN.saturating_sub(shown)));
}

/// The rows from the top of the screen, and the columns from the left.
fn order(flip: bool) -> (Vec<u8>, Vec<u8>) {
    if flip {
        ((0..8).collect(), (0..8).rev().collect())
    } else {
        ((0..8).rev().collect(), (0..8).collect())
    }
}

/// The squares a move left and the square it landed on, to mark.
fn marks(last: Option<&Move>) -> (Vec<PdnSquare>, Option<PdnSquare>) {
    match last {
        Some(m) => {
            let squares = m.squares();
            let mut left: Vec<PdnSquare> = squares[..squares.len() - 1].to_vec();
            left.retain(|&s| s != m.to());
            (left, Some(m.to()))
        }
        None => (Vec::new(), None),
    }
}

/// Text dimmed where the drawing has colour.
fn dim(drawing: Drawing, text: &str) -> String {
    if drawing.colour {
        text.dimmed().to_string()
    } else {
        text.to_string()
    }
}

/// Whether the board is drawn compact, one character a square: on a
/// screen narrower than the framed board.
fn is_compact(drawing: Drawing) -> bool {
    compact_at(drawing.width)
}

/// Whether a screen `width` columns wide (0: not known) gets the compact
/// board.
pub fn compact_at(width: usize) -> bool {
    width != 0 && width < FRAMED_WIDTH
}

/// The letter a side's men are drawn with: `O` and `X`, lower case on the
/// compact board, where the capitals are kings.
pub fn man_letter(side: Side, drawing: Drawing) -> char {
    if is_compact(drawing) {
        letter(side).to_ascii_lowercase()
    } else {
        letter(side)
    }
}

/// The board of a position, with the move that led to it marked in colour:
/// framed with the key beside it where the width allows, framed alone, or
/// compact on a narrow screen.
pub fn board(pos: &Position, last: Option<&Move>, drawing: Drawing) -> String {
    if is_compact(drawing) {
        return compact(pos, drawing);
    }
    let keyed = drawing.width == 0 || drawing.width >= FULL_WIDTH;
    let lines = drawing.lines();
    let (rows, cols) = order(drawing.flip);
    let marks = marks(last);
    let mut out = String::new();
    let letters: String = cols
        .iter()
        .map(|&col| format!("   {}", char::from(b'A' + col)))
        .collect();
    let letters = format!(" {letters}");
    let mut top = letters.clone();
    if keyed {
        to_key(&mut top, letters.chars().count());
        top.push_str(&dim(drawing, " PDN squares"));
    }
    out.push_str(top.trim_end());
    out.push('\n');
    out.push_str(&edge(lines, lines.upper, lines.tees[0]));
    out.push('\n');
    for &row in &rows {
        out.push_str(&rank(pos, row, &cols, drawing, &marks, keyed));
        out.push('\n');
    }
    out.push_str(&foot(drawing, &letters, keyed));
    out
}

/// A frame's top or bottom edge: its two corners and the tee between cells.
fn edge(lines: &Lines, ends: [char; 2], tee: char) -> String {
    let mut s = format!("  {}", ends[0]);
    for col in 0..8 {
        s.extend(std::iter::repeat_n(lines.h, 3));
        s.push(if col == 7 { ends[1] } else { tee });
    }
    s
}

/// One row of the framed board, numbered both ends, with its row of the key
/// of square numbers beside it when `keyed`.
fn rank(
    pos: &Position,
    row: u8,
    cols: &[u8],
    drawing: Drawing,
    (vacated, landed): &(Vec<PdnSquare>, Option<PdnSquare>),
    keyed: bool,
) -> String {
    let lines = drawing.lines();
    let label = row + 1;
    let mut line = format!("{label} {}", lines.v);
    let mut key = String::new();
    for &col in cols {
        let cell = match PdnSquare::from_grid(Square::new(col, row)) {
            Err(_) => {
                key.push_str("   ");
                dim(drawing, " . ")
            }
            Ok(sq) => {
                key.push_str(&format!("{:>3}", sq.number()));
                cell(pos, sq, drawing, vacated.contains(&sq), *landed == Some(sq))
            }
        };
        line.push_str(&cell);
        line.push(lines.v);
    }
    line.push_str(&format!(" {label}"));
    if keyed {
        to_key(&mut line, 37);
        line.push_str(&dim(drawing, key.trim_end()));
    }
    line
}

/// The bottom edge, the column letters and the legend of pieces: beside the
/// board's last two lines when `keyed`, else under it.
fn foot(drawing: Drawing, letters: &str, keyed: bool) -> String {
    let lines = drawing.lines();
    let legend = |side: Side, text: &str| {
        let style = if drawing.colour {
            piece_style(side)
        } else {
            Style::new()
        };
        text.style(style).to_string()
    };
    let men = format!(
        " {} Black  {} White",
        legend(Side::Black, "O"),
        legend(Side::White, "X")
    );
    let kings = format!(
        "{} {} kings",
        legend(Side::Black, &piece_cell(Piece::King(Side::Black))),
        legend(Side::White, &piece_cell(Piece::King(Side::White)))
    );
    let mut bottom = edge(lines, lines.lower, lines.tees[1]);
    let mut under = letters.to_string();
    if keyed {
        to_key(&mut bottom, 35);
        bottom.push_str(&men);
        to_key(&mut under, letters.chars().count());
        under.push_str(&kings);
        format!("{bottom}\n{under}\n")
    } else {
        format!("{bottom}\n{under}\n {} {kings}\n", men.trim_start())
    }
}

/// The board one character a square, for a narrow screen: `o` and `x` for
/// men, `O` and `X` for kings, `.` for an empty dark square.
fn compact(pos: &Position, drawing: Drawing) -> String {
    let (rows, cols) = order(drawing.flip);
    let letters: String = cols
        .iter()
        .map(|&col| format!(" {}", char::from(b'A' + col)))
        .collect();
    let mut out = format!(" {letters}\n");
    for &row in &rows {
        let mut line = format!("{}", row + 1);
        for &col in &cols {
            let mark = match PdnSquare::from_grid(Square::new(col, row)) {
                Err(_) => " ".to_string(),
                Ok(sq) => match pos.piece(sq) {
                    None => ".".to_string(),
                    Some(piece) => {
                        let c = match piece {
                            Piece::Man(side) => man_letter(side, drawing),
                            Piece::King(side) => letter(side),
                        };
                        if drawing.colour {
                            c.to_string().style(piece_style(piece.side())).to_string()
                        } else {
                            c.to_string()
                        }
                    }
                },
            };
            line.push(' ');
            line.push_str(&mark);
        }
        out.push_str(&format!("{line} {}\n", row + 1));
    }
    out.push_str(&format!(" {letters}\n"));
    let legend = "o Black, x White; O X kings";
    if legend.len() <= drawing.width {
        out.push_str(legend);
    } else {
        // Narrower than the legend: its two halves on lines of their own.
        out.push_str("o Black, x White\nO X kings");
    }
    out.push('\n');
    out
}

/// A side's colour: Black's pieces red, as on American boards, White's
/// blue, both bold so that they show on dark and light terminals.
fn piece_style(side: Side) -> Style {
    match side {
        Side::Black => Style::new().bright_red().bold(),
        Side::White => Style::new().bright_blue().bold(),
    }
}

/// One playing square as a cell three columns wide.
fn cell(pos: &Position, sq: PdnSquare, drawing: Drawing, vacated: bool, landed: bool) -> String {
    let Some(piece) = pos.piece(sq) else {
        return if drawing.colour && vacated {
            " \u{b7} ".dimmed().to_string()
        } else {
            "   ".to_string()
        };
    };
    let text = piece_cell(piece);
    if !drawing.colour {
        return text;
    }
    let style = piece_style(piece.side());
    let style = if landed { style.reversed() } else { style };
    text.style(style).to_string()
}

/// A box around lines of text, each centred, in the frame's characters, as
/// the seed's welcome was boxed.
pub fn boxed(text: &[&str], drawing: Drawing) -> String {
    let lines = drawing.lines();
    let width = text
        .iter()
        .map(|t| crate::shell::safe::width(t))
        .max()
        .unwrap_or(0)
        + 4;
    let rule = |ends: [char; 2]| {
        let mut s = String::new();
        s.push(ends[0]);
        s.extend(std::iter::repeat_n(lines.h, width));
        s.push(ends[1]);
        s
    };
    let mut out = rule(lines.upper);
    out.push('\n');
    for t in text {
        let fill = width - crate::shell::safe::width(t);
        let (left, right) = (fill / 2, fill - fill / 2);
        out.push_str(&format!(
            "{}{}{t}{}{}\n",
            lines.v,
            " ".repeat(left),
            " ".repeat(right),
            lines.v
        ));
    }
    out.push_str(&rule(lines.lower));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    #[test]
    fn the_start_from_blacks_side_with_the_key() {
        let text = board(&Position::START, None, Drawing::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 12);
        assert_eq!(
            lines[0],
            "    A   B   C   D   E   F   G   H      PDN squares"
        );
        assert_eq!(lines[1], "  ┌───┬───┬───┬───┬───┬───┬───┬───┐");
        assert_eq!(
            lines[2],
            "8 │ . │ X │ . │ X │ . │ X │ . │ X │ 8     32    31    30    29"
        );
        assert_eq!(
            lines[9],
            "1 │ O │ . │ O │ . │ O │ . │ O │ . │ 1   4     3     2     1"
        );
        assert!(lines[10].ends_with("┘    O Black  X White"));
        assert!(lines[11].ends_with("H     (O) (X) kings"));
        assert!(text.lines().all(|l| l.chars().count() <= 80));
    }

    #[test]
    fn narrow_screens_drop_the_key_then_the_frame_and_white_sees_from_its_side() {
        let drawing = |width, flip| Drawing {
            width,
            flip,
            ..Drawing::default()
        };
        let full = board(&Position::START, None, drawing(80, false));
        assert!(full.contains("PDN squares"), "{full}");
        let framed = board(&Position::START, None, drawing(40, false));
        assert!(!framed.contains("PDN squares"), "{framed}");
        assert!(framed.lines().all(|l| l.chars().count() <= 40), "{framed}");
        let compact = board(&Position::START, None, drawing(30, false));
        assert!(
            compact.lines().all(|l| l.chars().count() <= 30),
            "{compact}"
        );
        assert!(compact.contains("1 o   o   o   o   1"), "{compact}");
        // Narrower than its legend, the legend breaks between its halves.
        let least = board(&Position::START, None, drawing(24, false));
        assert!(least.lines().all(|l| l.chars().count() <= 24), "{least}");
        assert!(least.ends_with("o Black, x White\nO X kings\n"), "{least}");
        // From White's side: row 1 at the top, H on the left.
        let turned = board(&Position::START, None, drawing(80, true));
        let first_row = turned.lines().nth(2).unwrap_or_default();
        assert!(first_row.starts_with("1 "), "{turned}");
        assert!(
            turned
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start()
                .starts_with('H')
        );
        // The key turns with the board: square 1 (G1) is now at the top left.
        assert!(first_row.contains("  1     2     3     4"), "{turned}");
    }

    #[test]
    fn kings_and_the_ascii_fallback() {
        let pos = fen::parse("W:WK4:BK29,1").unwrap();
        let text = board(
            &pos,
            None,
            Drawing {
                ascii: true,
                ..Drawing::default()
            },
        );
        assert!(text.is_ascii());
        assert!(text.contains("8 | . |   | . |   | . |   | . |(O)| 8"));
        assert!(text.contains("1 |(X)| . |   | . |   | . | O | . | 1"));
        assert!(text.contains("  +---+---+---+---+---+---+---+---+"));
    }

    #[test]
    fn colour_marks_the_last_move() {
        let rules = crate::games::draughts::Setup::STANDARD;
        let m = rules.find(&Position::START, "11-15").unwrap();
        let after = Position::START.play(&m);
        let drawing = Drawing {
            colour: true,
            ..Drawing::default()
        };
        let text = board(&after, Some(&m), drawing);
        // The man on 15 stands out; the square it left shows a dot.
        assert!(
            text.contains("\u{1b}[7m") || text.contains(";7m"),
            "{text:?}"
        );
        assert!(text.contains('\u{b7}'));
        let plain = board(&after, Some(&m), Drawing::default());
        assert!(!plain.contains('\u{1b}') && !plain.contains('\u{b7}'));
    }

    #[test]
    fn a_box_fits_its_text() {
        let b = boxed(&["Hi", "there"], Drawing::default());
        assert_eq!(b, "┌─────────┐\n│   Hi    │\n│  there  │\n└─────────┘");
    }
}
