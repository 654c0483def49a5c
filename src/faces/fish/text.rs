//! Every sentence of the penguin game: the points, turns, questions, help
//! and hints, in the assignment's words where it has them.

use crate::games::fish::{Deal, Move, Named, Setup, Side};
use crate::games::{Square, Verdict};
use crate::shell::face::Player;

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

/// The line of a drawn game.
pub fn draw(points: u32) -> String {
    format!("A draw: {points} points each!")
}

/// The rules and the commands.
pub fn help(rules: &Setup) -> String {
    let b = rules.board();
    format!(
        "How to play ({b} board, {penguins} penguin{s} each)
  Tiles are worth 1 to 3 points: {deal}.
  A taken tile shows as a dot.
  P (the first player) and A each start a penguin on a free 1-point tile,
  P first. Then a penguin moves any distance in a straight line, along a
  row, a column or a diagonal; every square it passes over and the one it
  stops on must hold a tile with no penguin on it. The tile it leaves is
  taken, and its points are the mover's; the tile a penguin ends on stays.
  A player who cannot move is skipped; when neither can, the most points win.
Typing a square: row, then column, counted from 1 at the top left: 2 4,
  2,4 or (2,4). A move names the penguin's square and where it goes
  (1,2 2,3); with one penguin, where it goes is enough.
Commands at a move prompt
  moves    list the legal moves
  hint     the computer's best move, and the points it expects you to win by
  undo     take back your last move (and the computer's reply)
  board    show the board again
  help     show this
  quit     leave (the score is printed)",
        penguins = rules.penguins(),
        s = if rules.penguins() == 1 { "" } else { "s" },
        deal = match rules.deal() {
            Deal::Rings => "1 on the rim, 2 on the next ring, 3 inside",
            Deal::Random { .. } => "dealt at random",
        },
    )
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
    format!("Hint: {move_name} ({judged})")
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
    format!("\"{typed}\": {what} {n} is off the board: {what}s go from 1 to {max}")
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
