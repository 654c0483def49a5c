//! Every sentence of the penguin game: the points, turns, questions, help
//! and hints, in the assignment's words where it has them.

use crate::games::fish::{Deal, Move, Named, Refusal, Setup, Side};
use crate::games::{Square, Verdict};
use crate::shell::face::{Help, Player};

/// The computer's name, as the assignment calls it, and its partner's.
pub const COMPUTER_NAMES: [&str; 2] = ["AI", "ROBOT"];

/// The most choices a question lists; beyond, it says how to type one.
const MAX_LISTED: usize = 8;

/// The title.
pub const TITLE: &str = "HEY, THAT'S MY FISH!";

/// The points collected so far, above the board.
pub fn points_so_far(p: u32, a: u32) -> String {
    format!("Points so far: P {p}, A {a}.")
}

/// A computer's move, said before the board that shows it: `AI placed a
/// penguin on (1,1).`, `AI moves (1,1) to (2,2).`
pub fn computer_moves(name: &str, move_name: &str) -> String {
    match move_name.strip_prefix(PLACED) {
        Some(_) => format!("{name} placed {move_name}."),
        None => format!("{name} moves {move_name}."),
    }
}

/// A person's move, said after it.
pub fn player_moved(name: &str, move_name: &str) -> String {
    match move_name.strip_prefix(PLACED) {
        Some(_) => format!("{name} placed {move_name}."),
        None => format!("{name} moved {move_name}."),
    }
}

/// Said when `undo` takes a move back: `Took back the penguin placed on (1,4).`
pub fn took_back(move_name: &str) -> String {
    match move_name.strip_prefix(PLACED) {
        Some(on) => format!("Took back the penguin placed on {on}."),
        None => format!("Took back {move_name}."),
    }
}

/// The answer to `moves`: while placing, the free 1-point tiles once.
pub fn legal_moves_line(moves: &[Move]) -> String {
    let places: Vec<String> = moves
        .iter()
        .filter_map(|m| match *m {
            Move::Place(to) => Some(Named(to).to_string()),
            Move::Slide { .. } => None,
        })
        .collect();
    if !places.is_empty() && places.len() == moves.len() {
        return format!(
            "Legal moves: a penguin on any free 1-point tile: {}.",
            places.join(", ")
        );
    }
    let names: Vec<String> = moves.iter().map(move_words).collect();
    format!("Legal moves: {}.", names.join(", "))
}

/// How a placement's name begins.
const PLACED: &str = "a penguin on ";

/// A turn skipped: the side has no move left.
pub fn skipped(side: Side) -> String {
    format!("{side} has no move left, so {side}'s turn is skipped.")
}

/// The names the points lines and the winner's line use: the assignment's
/// `Players` and `AIs` (and `Player`, `AI`) when a person plays the
/// computer, whatever the person is called; the players' own names otherwise.
pub fn labels(players: [Player<'_>; 2]) -> [(String, String); 2] {
    if players[0].computer != players[1].computer {
        return players.map(|p| {
            if p.computer {
                ("AIs".to_string(), "AI".to_string())
            } else {
                ("Players".to_string(), "Player".to_string())
            }
        });
    }
    players.map(|p| (format!("{}'s", p.name), p.name.to_string()))
}

/// A side's points line, the sum in the column after the longest label
/// (`label_width` columns) and four spaces: `Players points:    1+3+1 = 5`,
/// `AIs points:        1+2 = 3`.
pub fn points_line(label: &str, sum: &str, label_width: usize) -> String {
    let pad = label_width.saturating_sub(unicode_width::UnicodeWidthStr::width(label)) + 4;
    format!("{label} points:{}{sum}", " ".repeat(pad))
}

/// The winner's line.
pub fn wins(label: &str) -> String {
    format!("{label} wins!")
}

/// The line of a game won otherwise than by the points (a server's game
/// resigned or abandoned): `P, ann won! (abandoned)`.
pub fn won_otherwise(side: &str, name: &str, how: &str) -> String {
    format!("{side}, {name} won! ({how})")
}

/// The line of a game drawn otherwise than by the points (agreed).
pub fn drawn_otherwise(how: &str) -> String {
    crate::shell::text::no_winner(how)
}

/// The line of a drawn game.
pub fn draw(points: u32) -> String {
    format!("A draw: {points} points each!")
}

/// The rules and the commands.
pub fn help(rules: &Setup) -> Help {
    let b = rules.board();
    // The rings of the assignment's deal: a 4-wide board has two.
    let rings = b.width().min(b.height()).div_ceil(2);
    Help::new(format!(
        "How to play ({b} board, {penguins} penguin{s} each)
  Tiles are worth 1 to {most} points: {deal}.
  A taken tile shows as a dot.
  {start} Then a penguin moves any distance in a straight line, along a row, a column or a diagonal; every square it passes over and the one it stops on must hold a tile with no penguin on it. The tile it leaves is taken, and its points are the mover's; the tile a penguin ends on stays.
  A player who cannot move is skipped; when neither can, the most points win.
Typing a square
  Row, then column, counted from 1 at the top left: 2 4, 2,4 or (2,4). A move names the penguin's square and where it goes (1,2 2,3); with one penguin, where it goes is enough.",
        penguins = rules.penguins(),
        s = if rules.penguins() == 1 { "" } else { "s" },
        most = match rules.deal() {
            Deal::Rings if rings < 3 => 2,
            _ => 3,
        },
        deal = match rules.deal() {
            Deal::Rings if rings < 3 => "1 on the rim, 2 inside",
            Deal::Rings => "1 on the rim, 2 on the next ring, 3 inside",
            Deal::Random { .. } => "dealt at random",
        },
        start = match rules.penguins() {
            1 => "P (the first player) and A each start a penguin on a free 1-point tile, P first."
                .to_string(),
            n => format!(
                "P (the first player) and A take turns to start their {n} penguins each, one at a time, on a free 1-point tile, P first."
            ),
        },
    ))
    .command("moves", "list the legal moves")
    .command(
        "hint",
        "the computer's best move, and the points it expects you to win by",
    )
    .command(
        "undo",
        "take back your last move (and the computer's reply)",
    )
    .command("board", "show the board again")
    .command("help", "show this")
    .command("quit", "leave (the score is printed)")
}

/// A hint: the move and what it is worth.
pub fn hint(move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
    let judged = match *verdict {
        Verdict::Score { value, exact } => {
            let how = if exact {
                "with best play"
            } else {
                "as the search sees it"
            };
            match value {
                0 => format!("a draw {how}"),
                v if v > 0 => format!("{to_move} finishes {v} ahead {how}"),
                v => format!("{to_move} finishes {} behind {how}", -v),
            }
        }
        Verdict::Win { winner, .. } => format!("{winner} wins with best play"),
        Verdict::Draw => "a draw with best play".to_string(),
    };
    format!("Hint: {move_name} ({judged}).")
}

/// Said when the players swap sides.
pub fn swap_notice(names: [&str; 2]) -> String {
    format!(
        "Sides swap: {} is P and starts, {} is A.",
        names[0], names[1]
    )
}

/// The squares in a question: listed when few, else how to type one.
pub fn choices(next: &[Square]) -> String {
    if next.len() <= MAX_LISTED {
        let names: Vec<String> = next.iter().map(|&s| Named(s).to_string()).collect();
        format!(": {}", names.join(", "))
    } else {
        format!(" (any of {}: row column)", next.len())
    }
}

/// The move question: placing, choosing a penguin, or its destination.
pub fn move_question(side: Side, placing: bool, from: Option<Square>, next: &[Square]) -> String {
    match (placing, from) {
        (true, _) => format!(
            "{side}, start a penguin on which 1-point tile{}? ",
            choices(next)
        ),
        (false, None) => format!("{side}, which penguin moves{}? ", choices(next)),
        (false, Some(from)) => format!(
            "{side}, move from {} to which square{}? ",
            Named(from),
            choices(next)
        ),
    }
}

/// Said when only one move is left.
pub fn only_move(mv: &Move) -> String {
    format!(
        "Only one move is left: {}. Press Enter to make it.",
        move_words(mv)
    )
}

/// A row or column typed off the board.
pub fn off_board(typed: &str, what: &str, n: i64, max: u8) -> String {
    format!("\"{typed}\": {what} {n} is off the board: {what}s 1-{max}")
}

/// Said when nothing more precise is known about a refused line.
pub const TYPE_A_SQUARE: &str = "Type one of the squares in brackets, or help.";

/// A move in words: `a penguin to (2,1)`, `(1,2) to (2,3)`.
pub fn move_words(mv: &Move) -> String {
    match *mv {
        Move::Place(to) => format!("{PLACED}{}", Named(to)),
        Move::Slide { from, to } => format!("{} to {}", Named(from), Named(to)),
    }
}

/// Squares as a list for a sentence: `(1,2)`, `(1,2) or (6,1)`, `(1,2), (3,3) or (6,1)`.
fn either(list: &[Square]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    crate::games::or_list(list.iter().map(|&s| Named(s)))
}

/// Why a typed path is no legal move, as a sentence (not yet capitalised):
/// `(2,2) is taken, so there is no path from (1,2) to (3,2)`.
pub fn refusal(why: &Refusal) -> String {
    match why {
        Refusal::GameOver => "the game is over: no one can move".to_string(),
        Refusal::Nothing => "name a square, like 2 4".to_string(),
        Refusal::OffBoard(sq) => format!("{} is off the board", Named(*sq)),
        Refusal::PlaceOneSquare => {
            "penguins are being placed: name the one square to put a penguin on".to_string()
        }
        Refusal::PlaceTaken(sq) => format!(
            "{} is taken: a penguin starts on a free 1-point tile",
            Named(*sq)
        ),
        Refusal::PlaceOccupied(sq) => format!(
            "{} has a penguin on it: a penguin starts on a free 1-point tile",
            Named(*sq)
        ),
        Refusal::PlaceWorth { at, points } => format!(
            "{} is worth {points} points: a penguin starts on a 1-point tile",
            Named(*at)
        ),
        Refusal::TooLong => "a move names two squares: the penguin, then where it goes".to_string(),
        Refusal::NoPenguin { at, mover, own } => format!(
            "{} has no penguin: {mover} moves its penguin on {}",
            Named(*at),
            either(own)
        ),
        Refusal::NotYours { at, owner, own } => format!(
            "{} is {owner}'s penguin: move your own, on {}",
            Named(*at),
            either(own)
        ),
        Refusal::Stuck(sq) => format!("the penguin on {} has no move", Named(*sq)),
        Refusal::Stay(sq) => format!(
            "the penguin already stands on {}: a move goes to another square",
            Named(*sq)
        ),
        Refusal::NotInLine { from, to } => format!(
            "{} is not in a straight line from {}",
            Named(*to),
            Named(*from)
        ),
        Refusal::DestinationTaken(sq) => format!("{} is taken", Named(*sq)),
        Refusal::DestinationOccupied(sq) => {
            format!("{} has a penguin on it", Named(*sq))
        }
        Refusal::Blocked {
            from,
            to,
            at,
            penguin,
        } => format!(
            "{} {}, so there is no path from {} to {}",
            Named(*at),
            if *penguin {
                "has a penguin on it"
            } else {
                "is taken"
            },
            Named(*from),
            Named(*to)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::Board;
    use crate::games::fish::Position;
    use crate::games::fish::at;

    #[test]
    fn the_help_is_whole_sentences() {
        crate::faces::assert_whole_sentences(&help(&Setup::default()).to_string());
    }

    #[test]
    fn the_help_tells_the_tiles_and_penguins_of_the_board_played() {
        let help_of = |board: &str, penguins: u32| {
            let board = board.parse::<Board>().unwrap();
            help(&Setup::new(board, Deal::Rings, penguins).unwrap()).text
        };
        // Two rings: no 3-point tile.
        for board in ["4x4", "8x4"] {
            let text = help_of(board, 1);
            assert!(
                text.contains("worth 1 to 2 points: 1 on the rim, 2 inside."),
                "{text}"
            );
        }
        let text = help_of("6x6", 1);
        assert!(text.contains("worth 1 to 3 points: 1 on the rim, 2 on the next ring, 3 inside."));
        assert!(text.contains("each start a penguin on a free 1-point tile"));
        let text = help_of("6x6", 3);
        assert!(
            text.contains("start their 3 penguins each, one at a time"),
            "{text}"
        );
    }

    fn sq(r: u8, c: u8) -> Square {
        at(Board::STANDARD, r, c).unwrap()
    }

    fn why(pos: &str, path: &[(u8, u8)]) -> String {
        let p = Position::parse(pos).unwrap();
        let path: Vec<Square> = path.iter().map(|&(r, c)| sq(r, c)).collect();
        p.refusal(&path).map(|r| refusal(&r)).unwrap_or_default()
    }

    #[test]
    fn each_reason_for_a_move() {
        // The assignment's example state: P on (1,2), A on (4,3).
        let ex = ".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P";
        assert_eq!(
            why(ex, &[(1, 2), (3, 2)]),
            "(2,2) is taken, so there is no path from (1,2) to (3,2)"
        );
        assert_eq!(why(ex, &[(1, 2), (2, 3)]), "");
        assert_eq!(why(ex, &[(1, 2)]), "");
        assert_eq!(
            why(ex, &[(1, 2), (3, 5)]),
            "(3,5) is not in a straight line from (1,2)"
        );
        assert_eq!(why(ex, &[(1, 2), (1, 1)]), "(1,1) is taken");
        assert_eq!(why(ex, &[(1, 2), (3, 4)]), "(3,4) is taken");
        assert_eq!(why(ex, &[(1, 2), (1, 6)]), "(1,6) is taken");
        assert_eq!(
            why(ex, &[(1, 2), (1, 2)]),
            "the penguin already stands on (1,2): a move goes to another square"
        );
        assert_eq!(
            why(ex, &[(4, 3)]),
            "(4,3) is A's penguin: move your own, on (1,2)"
        );
        assert_eq!(
            why(ex, &[(5, 5)]),
            "(5,5) has no penguin: P moves its penguin on (1,2)"
        );
        assert_eq!(
            why(ex, &[(1, 2), (2, 3), (3, 3)]),
            "a move names two squares: the penguin, then where it goes"
        );
        // A stands on a 3-point tile: it has moved, so a tile is taken.
        let near = "111111/122221/123321/123321/122221/.11111 P:1,1 A:3,3 next:P";
        assert_eq!(why(near, &[(1, 1), (3, 3)]), "(3,3) has a penguin on it");
        assert_eq!(
            why(near, &[(1, 1), (4, 4)]),
            "(3,3) has a penguin on it, so there is no path from (1,1) to (4,4)"
        );
        let two = "111111/122221/123321/123321/122221/.11111 P:1,1;6,6 A:3,3;1,6 next:P";
        assert_eq!(
            why(two, &[(2, 2)]),
            "(2,2) has no penguin: P moves its penguin on (1,1) or (6,6)"
        );
        let stuck = "1.1111/..2221/123321/123321/122221/111111 P:1,1;6,6 A:3,3;5,5 next:P";
        assert_eq!(why(stuck, &[(1, 1)]), "the penguin on (1,1) has no move");
        let over = "1.1111/..2221/123321/123321/1222../1111.1 P:1,1 A:6,6 next:A";
        assert_eq!(why(over, &[(1, 1)]), "the game is over: no one can move");
    }

    #[test]
    fn each_reason_for_a_placement() {
        let start = ".11111/122221/123321/123321/122221/111111 P:1,2 place:0/1 next:A";
        assert_eq!(
            why(start, &[(2, 2)]),
            "(2,2) is worth 2 points: a penguin starts on a 1-point tile"
        );
        assert_eq!(
            why(start, &[(3, 3)]),
            "(3,3) is worth 3 points: a penguin starts on a 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 1)]),
            "(1,1) is taken: a penguin starts on a free 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 2)]),
            "(1,2) has a penguin on it: a penguin starts on a free 1-point tile"
        );
        assert_eq!(
            why(start, &[(1, 3), (2, 3)]),
            "penguins are being placed: name the one square to put a penguin on"
        );
        assert_eq!(why(start, &[(1, 3)]), "");
        let p = Position::parse(start).unwrap();
        assert_eq!(
            p.refusal(&[Square::new(7, 7)])
                .map(|r| refusal(&r))
                .unwrap(),
            "(8,8) is off the board"
        );
        assert_eq!(
            p.refusal(&[]).map(|r| refusal(&r)).unwrap(),
            "name a square, like 2 4"
        );
    }
}
