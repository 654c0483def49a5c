//! English draughts' face, after the C project's flow: a welcome box, the
//! Play/History/Exit menu, the pieces each side holds above a line-drawn
//! board, and moves typed as PDN numbers or coordinates, whole or square by
//! square, with the C project's M or C in front if the player likes. The
//! commands are in `commands::draughts`.
//!
//! Black is the seed's O and moves first from squares 1-12 at the bottom of
//! the board; White is X. Kings are drawn in brackets: (O), (X).

use crate::games::draughts::notation;
use crate::games::draughts::refusal;
use crate::games::draughts::{Move, PdnSquare, PdnSquareError, Position, Side};
use crate::games::{Outcome, Square, Verdict};
use crate::shell::face::{Canvas, Face, GAME_OVER, Help, MenuChoice, MovePrompt, Squares, View};
use crate::shell::safe;

pub mod board;
pub mod text;

use crate::engines::draughts::Session;
use board::Drawing;

/// The draughts face. `ascii` draws lines and the welcome box in ASCII.
#[derive(Clone, Copy, Debug, Default)]
pub struct DraughtsFace {
    /// ASCII instead of box drawing.
    pub ascii: bool,
    /// Always from White's side (`--flip`).
    pub flip: bool,
}

/// Whether to draw in ASCII: asked for with `--ascii`, or a terminal that
/// cannot show box drawing: `TERM=dumb`, or a locale whose character set is
/// not UTF-8 (the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set; none
/// set is the C locale, ASCII). Output that is not a terminal (a pipe, a
/// file) gets UTF-8 unless `--ascii` is given.
pub fn wants_ascii(
    asked: bool,
    terminal: bool,
    term: Option<&str>,
    locale: [Option<&str>; 3],
) -> bool {
    if asked {
        return true;
    }
    if !terminal {
        return false;
    }
    if term == Some("dumb") {
        return true;
    }
    let charset = locale.into_iter().flatten().find(|v| !v.is_empty());
    !charset.is_some_and(|l| {
        let l = l.to_ascii_lowercase();
        l.contains("utf-8") || l.contains("utf8")
    })
}

/// The playing square at a grid square (the shell's squares always are).
fn pdn(sq: Square) -> Option<PdnSquare> {
    PdnSquare::from_grid(sq).ok()
}

/// PDN numbers of grid squares.
fn numbers(squares: &[Square]) -> Vec<u8> {
    squares
        .iter()
        .filter_map(|&s| pdn(s))
        .map(PdnSquare::number)
        .collect()
}

/// Whether two grid squares are a jump apart.
fn is_jump(a: Square, b: Square) -> bool {
    a.row().abs_diff(b.row()) == 2
}

/// The move letter the seed's players typed first, if the line starts with
/// one, and the rest. `C3` and `C9` are coordinates, not the letter; `C22`,
/// `C 11` and `M11-15` are the letter (no row has two digits).
fn move_letter(line: &str) -> (Option<char>, &str) {
    let text = line.trim();
    let mut chars = text.chars();
    let Some(first) = chars.next().map(|c| c.to_ascii_uppercase()) else {
        return (None, text);
    };
    if first != 'M' && first != 'C' {
        return (None, text);
    }
    let rest = &text[1..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let letter = rest.is_empty()
        || rest.starts_with(|c: char| c.is_whitespace() || matches!(c, ':' | '.' | ','))
        || first == 'M'
        || digits.len() >= 2;
    if letter {
        (Some(first), rest.trim_start_matches([':', '.', ',']).trim())
    } else {
        (None, text)
    }
}

impl DraughtsFace {
    /// The drawing for a plain screen (the welcome box).
    fn drawing(&self, colour: bool) -> Drawing {
        Drawing {
            ascii: self.ascii,
            colour,
            ..Drawing::default()
        }
    }

    /// The drawing on a canvas: turned to White's side when asked to, or
    /// when the one person playing plays White.
    fn drawing_on(&self, canvas: &Canvas<Side>) -> Drawing {
        Drawing {
            ascii: self.ascii,
            colour: canvas.colour,
            width: canvas.width,
            flip: self.flip || canvas.viewer == Some(Side::White),
        }
    }
}

/// Reads the squares of a line; a whole legal move (a capture written short,
/// `10x26`, too) comes back as its full path.
fn read_squares(rules: &Session, pos: &Position, typed: &[Square], line: &str) -> Squares {
    let (letter, body) = move_letter(line);
    if let (Some(letter), "") = (letter, body) {
        return Err(text::letter_alone(letter));
    }
    let parts = notation::square_texts(body);
    // A dash joins squares; before the first it is a minus sign (`-1`).
    if parts.is_empty() || body.trim_start().starts_with(notation::is_dash) {
        return Err(text::not_a_square(&safe::cut(body, 20)));
    }
    let mut squares = Vec::new();
    for part in &parts {
        match PdnSquare::parse(part) {
            Ok(sq) => squares.push(sq),
            // One word that is no square: quoted whole, as typed (`xyz`,
            // not the `yz` left once an x is read as a capture's mark).
            Err(PdnSquareError::Syntax(_)) if squares.is_empty() && parts.len() == 1 => {
                return Err(text::not_a_square(&safe::cut(body, 20)));
            }
            Err(e) => return Err(safe::text(&safe::cut(&e.to_string(), 120))),
        }
    }
    // A whole move, as the core reads it (short captures included).
    let whole = (squares.len() >= 2)
        .then(|| notation::resolve(&rules.rules, pos, &squares).ok())
        .flatten();
    let grid: Vec<Square> = match whole {
        Some(m) => m.grid_path(),
        None => squares.iter().map(|s| s.grid()).collect(),
    };
    // An x between squares says capture, as the letter C does.
    let crossed = body.contains(['x', 'X']) && squares.len() >= 2;
    let letter = letter.or(crossed.then_some('x'));
    if let Some(letter) = letter {
        let mine = |sq: Square| {
            pdn(sq)
                .and_then(|s| pos.piece(s))
                .is_some_and(|p| p.side() == pos.to_move())
        };
        // The squares go on from those chosen, unless they start at a piece.
        let path: Vec<Square> = match (typed.last(), grid.first()) {
            (Some(_), Some(&first)) if whole.is_none() && !mine(first) => {
                typed.iter().chain(&grid).copied().collect()
            }
            _ => grid.clone(),
        };
        let capture = path.windows(2).any(|w| is_jump(w[0], w[1]));
        let step = path.windows(2).any(|w| !is_jump(w[0], w[1]));
        // The letter is blamed only where the move is legal without it;
        // otherwise the move's own refusal says more (the piece on 11 is
        // the other side's, say).
        let legal = || {
            path.iter()
                .map(|&s| pdn(s))
                .collect::<Option<Vec<_>>>()
                .is_some_and(|p| notation::resolve(&rules.rules, pos, &p).is_ok())
        };
        // Quoted the way it was typed: by numbers, or by coordinates.
        let by_coordinates = parts
            .iter()
            .any(|p| p.starts_with(|c: char| c.is_ascii_alphabetic()));
        let shown = if by_coordinates {
            let joined: Vec<String> = path.iter().map(|s| s.to_string()).collect();
            joined.join(if capture { "x" } else { "-" })
        } else {
            text::path_text(&numbers(&path))
        };
        if letter == 'M' && capture && legal() {
            return Err(text::wrong_letter('M', &shown));
        }
        // An x is blamed whatever letter stands in front (`M11x15`).
        if (crossed || letter != 'M') && step && !capture && legal() {
            return Err(text::wrong_letter(
                if crossed { 'x' } else { letter },
                &shown,
            ));
        }
    }
    Ok(grid)
}

/// Why the squares tried make no move, after the squares typed, as a
/// sentence: the core gives the reason, `text` words it.
fn refusal(rules: &Session, pos: &Position, typed: &[Square], tried: &[Square]) -> String {
    let first = tried.first().and_then(|&s| pdn(s));
    let typed: Option<Vec<PdnSquare>> = typed.iter().map(|&s| pdn(s)).collect();
    let (Some(_), Some(typed)) = (first, typed) else {
        return text::NEED_SQUARE.to_string();
    };
    let tried: Vec<PdnSquare> = tried.iter().filter_map(|&s| pdn(s)).collect();
    text::refusal(&refusal::refusal(&rules.rules, pos, &typed, &tried))
}

impl Face<Session> for DraughtsFace {
    fn title(&self) -> &str {
        text::TITLE
    }

    fn intro(&self, rules: &Session, width: usize) -> Option<String> {
        Some(text::intro_within(&rules.rules, self.drawing(false), width))
    }

    fn menu(&self) -> &'static [(MenuChoice, &'static str)] {
        &text::MENU
    }

    fn after_move(&self, view: &View<'_, Session>) -> Vec<String> {
        let history = view.history;
        let [.., before, after] = history else {
            return Vec::new();
        };
        let side = before.to_move();
        let crowned = after.kings(side) & !before.kings(side);
        if after.kings(side).count_ones() <= before.kings(side).count_ones() {
            return Vec::new();
        }
        let Some(sq) = PdnSquare::from_index(crowned.trailing_zeros() as u8) else {
            return Vec::new();
        };
        let by_capture = after.pieces(side.other()) != before.pieces(side.other());
        vec![text::crowned(
            side,
            sq.number(),
            &sq.grid().to_string(),
            by_capture,
        )]
    }

    fn computer_names(&self) -> [&'static str; 2] {
        text::COMPUTER_NAMES
    }

    fn side_title(&self, side: Side) -> &'static str {
        text::side_title(side)
    }

    fn side_noun(&self, side: Side) -> &'static str {
        // Capitals in sentences, as the draughts literature writes them.
        text::side_title(side)
    }

    fn status(&self, view: &View<'_, Session>, canvas: &Canvas<Side>) -> Vec<String> {
        let rules = view.rules;
        let Some(pos) = view.pos() else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        // Said on the first two turns, so that a person hears it even when
        // the computer moves first (its turn's board is soon cleared).
        let turn = view.history.len();
        if turn <= 2
            && let Some(line) =
                text::opening_line_of_game(rules.rules.start, &view.history[0], turn == 1)
        {
            lines.push(line);
        }
        // A loaded file's Captures tag (or `--captures`, for a game with
        // no such tag) may have changed the rule: said on the two turns the
        // game goes on from.
        if let Some(game) = rules.loaded()
            && turn
                .checked_sub(game.moves.len())
                .is_some_and(|t| (1..=2).contains(&t))
            && let Some(line) =
                text::loaded_rule_line(game.rules.captures, game.tag("Captures").is_some())
        {
            lines.push(line.to_string());
        }
        let held: Vec<String> = Side::ALL
            .into_iter()
            .map(|s| {
                text::holding(
                    s,
                    board::man_letter(s, self.drawing_on(canvas)),
                    pos.men(s).count_ones(),
                    pos.kings(s).count_ones(),
                )
            })
            .collect();
        // One line where both fit, else a line each: a side's name is never
        // parted from its letter.
        let both = held.join("  ");
        if canvas.width == 0 || both.chars().count() <= canvas.width {
            lines.push(both);
        } else {
            lines.extend(held);
        }
        lines
    }

    fn board(
        &self,
        view: &View<'_, Session>,
        last: Option<&Move>,
        canvas: &Canvas<Side>,
    ) -> String {
        let history = view.history;
        history.last().map_or_else(String::new, |pos| {
            board::board(pos, last, self.drawing_on(canvas))
        })
    }

    fn move_name(&self, _view: &View<'_, Session>, mv: &Move) -> String {
        mv.to_string()
    }

    fn computer_moves(&self, name: &str, move_name: &str) -> String {
        format!("{name} moves {move_name}.")
    }

    fn result(&self, outcome: &Outcome<Side>, winner: Option<&str>) -> String {
        text::result(outcome, winner)
    }

    fn help(&self, rules: &Session, width: usize) -> Help {
        text::help(&rules.rules, board::compact_at(width))
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
        text::hint(move_name, verdict, to_move)
    }

    fn swap_notice(&self, names: [&str; 2], first: Side, width: usize) -> String {
        text::swap_notice(names, first, board::compact_at(width))
    }
}

impl MovePrompt<Session> for DraughtsFace {
    fn square(&self, _rules: &Session, sq: Square) -> String {
        pdn(sq).map_or_else(|| sq.to_string(), |s| s.number().to_string())
    }

    fn parse_squares(&self, view: &View<'_, Session>, typed: &[Square], line: &str) -> Squares {
        let (rules, pos) = (view.rules, view.pos().ok_or(GAME_OVER)?);
        read_squares(rules, pos, typed, line)
    }

    fn move_question(&self, view: &View<'_, Session>, typed: &[Square], next: &[Square]) -> String {
        let rules = view.rules;
        let history = view.history;
        let next_numbers = numbers(next);
        match typed {
            [] => {
                let capturing = history
                    .last()
                    .is_some_and(|pos| rules.rules.moves(pos).iter().all(Move::is_capture));
                text::pick_question(&next_numbers, capturing)
            }
            [from] => {
                let (jumps, steps): (Vec<Square>, Vec<Square>) =
                    next.iter().partition(|&&to| is_jump(*from, to));
                let from = numbers(&[*from]).first().copied().unwrap_or(0);
                text::destination_question(from, &numbers(&steps), &numbers(&jumps))
            }
            _ => text::landing_question(&text::path_text(&numbers(typed)), &next_numbers),
        }
    }

    fn only_move(&self, view: &View<'_, Session>, typed: &[Square], mv: &Move) -> String {
        let rules = view.rules;
        let history = view.history;
        let only = history
            .last()
            .is_some_and(|pos| rules.rules.moves(pos).len() == 1);
        text::only_move(typed.len(), only, mv)
    }

    fn refusal(&self, view: &View<'_, Session>, typed: &[Square], tried: &[Square]) -> String {
        let rules = view.rules;
        let history = view.history;
        history
            .last()
            .map_or_else(String::new, |pos| refusal(rules, pos, typed, tried))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::{Setup, fen};

    fn session() -> Session {
        Session::new(Setup::STANDARD)
    }

    fn read(fen_text: &str, typed: &[u8], line: &str) -> Result<Vec<u8>, String> {
        let pos = fen::parse(fen_text).unwrap();
        let typed: Vec<Square> = typed
            .iter()
            .map(|&n| PdnSquare::new(n).unwrap().grid())
            .collect();
        read_squares(&session(), &pos, &typed, line).map(|s| numbers(&s))
    }

    const START: &str = "B:W21-32:B1-12";

    #[test]
    fn squares_as_numbers_coordinates_and_with_the_seeds_letters() {
        assert_eq!(read(START, &[], "11"), Ok(vec![11]));
        assert_eq!(read(START, &[], "C3 D4"), Ok(vec![11, 15]));
        assert_eq!(read(START, &[], "m 11-15"), Ok(vec![11, 15]));
        assert_eq!(read(START, &[], "M11-15"), Ok(vec![11, 15]));
        assert_eq!(read(START, &[], "C3"), Ok(vec![11]));
        assert_eq!(
            read(START, &[], "C9"),
            Err("\"C9\" is off the board: columns A-H, rows 1-8".into())
        );
        assert_eq!(read("B:W14,22:B10", &[], "C10x26"), Ok(vec![10, 17, 26]));
        assert_eq!(
            read("B:W14,22:B10", &[], "c E3xG5xE7"),
            Ok(vec![10, 17, 26])
        );
        assert_eq!(
            read("B:W14,22:B10", &[], "M 10x17x26"),
            Err("M is for a plain move, but 10x17x26 is a capture: type C, or no letter".into())
        );
        assert_eq!(
            read(START, &[], "C 11-15"),
            Err("C is for a capture, but 11-15 is a plain move: type M, or no letter".into())
        );
        // Where the move is not legal without the letter either, the
        // letter is not what is wrong: the move's own refusal follows.
        assert_eq!(read(START, &[], "C 22-18"), Ok(vec![22, 18]));
        assert_eq!(read(START, &[], "22x18"), Ok(vec![22, 18]));
        assert_eq!(read("B:W14,22:B10", &[], "M 10x19"), Ok(vec![10, 19]));
        assert_eq!(
            read(START, &[], "c"),
            Err("type the squares after C, like C 22x15".into())
        );
        assert_eq!(
            read(START, &[], "xyz"),
            Err(
                "\"xyz\" is neither a square nor a command: type a square like 11 or C3, or help"
                    .into()
            )
        );
        assert_eq!(
            read(START, &[], "hello"),
            Err(
                "\"hello\" is neither a square nor a command: type a square like 11 or C3, or help"
                    .into()
            )
        );
        assert_eq!(
            read(START, &[], "33"),
            Err("\"33\" is off the board: the squares are numbered 1-32".into())
        );
        assert!(read(START, &[], "B3").unwrap_err().contains("light square"));
        for minus in ["-1", " -11", "-11-15"] {
            assert_eq!(
                read(START, &[], minus),
                Err(format!(
                    "\"{}\" is neither a square nor a command: type a square like 11 or C3, or help",
                    minus.trim()
                ))
            );
        }
    }

    #[test]
    fn refusals_say_why() {
        let s = session();
        let why = |fen_text: &str, typed: &[u8], tried: &[u8]| {
            let pos = fen::parse(fen_text).unwrap();
            let grid = |v: &[u8]| -> Vec<Square> {
                v.iter()
                    .map(|&n| PdnSquare::new(n).unwrap().grid())
                    .collect()
            };
            refusal(&s, &pos, &grid(typed), &grid(tried))
        };
        assert_eq!(
            why("W:W22,24:B18,19", &[], &[22, 17]),
            "A capture is compulsory: 22x15 or 24x15."
        );
        assert_eq!(
            why("B:W15,22,30:B18,3", &[18], &[19, 23]),
            "There is no piece on 19 (C5)."
        );
        assert_eq!(
            why("W:W22,24,30:B18,19", &[], &[30]),
            "A capture is compulsory: 22x15 or 24x15."
        );
        assert_eq!(why(START, &[], &[13]), "There is no piece on 13 (H4).");
        assert_eq!(
            why(START, &[], &[22]),
            "The piece on 22 (F6) is White's: Black is to move."
        );
        assert_eq!(
            why(START, &[], &[1]),
            "The piece on 1 (G1) cannot move: move 9, 10, 11 or 12."
        );
        assert_eq!(
            why(START, &[11], &[20]),
            "The piece on 11 cannot go to 20: it can play 11-15 or 11-16."
        );
        assert_eq!(
            why("B:W21,26,27:B1,24", &[], &[24, 31, 22]),
            "A man crowned ends its move: 24x31x22 stops at 24x31."
        );
        assert_eq!(
            why("B:W14,15,22,23,30:B10,1", &[], &[10, 17, 25]),
            "10x17x25 is not a legal move: the piece on 10 can play 10x17x26 or 10x19x26."
        );
        assert_eq!(
            why("B:W14,15,22,23,30:B10,1", &[], &[10, 26]),
            "10x26 could be 10x17x26 or 10x19x26: name every landing."
        );
        assert_eq!(
            why("B:W6,7,14,15:BK11", &[11, 18], &[20]),
            "20 is not a landing: the jump 11x18 must go on, to 9."
        );
    }

    /// The status names each side's men in the letters its board draws
    /// them with: capitals on the framed board, lower case on the compact
    /// one, whose capitals are kings.
    #[test]
    fn the_status_letters_are_the_boards() {
        let rules = session();
        let history = [Position::START];
        let view = View::new(&rules, &history);
        let status = |width| {
            let canvas = Canvas {
                colour: false,
                width,
                viewer: None,
            };
            DraughtsFace::default().status(&view, &canvas).join("\n")
        };
        let held = |black, white, between| {
            format!("Black ({black}): 12 men, 0 kings.{between}White ({white}): 12 men, 0 kings.")
        };
        assert_eq!(status(80), held('O', 'X', "  "));
        assert_eq!(status(0), held('O', 'X', "  "));
        // Too narrow for both on one line.
        assert_eq!(status(30), held('o', 'x', "\n"));
        let compact = DraughtsFace::default().board(
            &view,
            None,
            &Canvas {
                colour: false,
                width: 30,
                viewer: None,
            },
        );
        assert!(compact.contains("3 o   o   o   o"), "{compact}");
    }

    #[test]
    fn ascii_when_asked_or_the_terminal_cannot() {
        let utf8 = [None, None, Some("en_GB.UTF-8")];
        assert!(!wants_ascii(false, true, Some("xterm"), utf8));
        assert!(wants_ascii(true, true, Some("xterm"), utf8));
        assert!(wants_ascii(false, true, Some("dumb"), utf8));
        assert!(wants_ascii(
            false,
            true,
            Some("xterm"),
            [None, None, Some("C")]
        ));
        assert!(wants_ascii(
            false,
            true,
            Some("xterm"),
            [Some("C"), None, utf8[2]]
        ));
        assert!(wants_ascii(false, true, Some("xterm"), [None, None, None]));
        assert!(!wants_ascii(false, false, Some("dumb"), [None, None, None]));
    }
}
