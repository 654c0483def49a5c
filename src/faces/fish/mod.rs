//! "Hey, That's My Fish!"'s face: the assignment's board and sentences, and
//! its command line. The board is printed exactly as the assignment's
//! examples print it; squares are named `(row,column)` from 1, row 1 at the top.

use owo_colors::OwoColorize;

use crate::games::fish::{Move, Named, Position, Setup, Side, parse_path, skipped};
use crate::games::{Outcome, Square, Verdict};
use crate::shell::face::{Face, MovePrompt};

/// The computer's name, as the assignment calls it, and its partner's.
pub const COMPUTER_NAMES: [&str; 2] = ["AI", "ROBOT"];

/// The most choices a question lists; beyond, it says how to type one.
const MAX_LISTED: usize = 8;

/// The penguin game's face.
pub struct FishFace;

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

/// The names the points lines and the winner's line use: the assignment's
/// `Players` and `AIs` (and `Player`, `AI`) when a person plays the
/// computer, the players' own names otherwise.
fn labels(names: [&str; 2]) -> [(String, String); 2] {
    let computer = names.map(|n| n == COMPUTER_NAMES[0]);
    let machines = names.iter().filter(|n| COMPUTER_NAMES.contains(n)).count();
    if computer[0] != computer[1] && machines == 1 {
        return computer.map(|ai| {
            if ai {
                ("AIs".to_string(), "AI".to_string())
            } else {
                ("Players".to_string(), "Player".to_string())
            }
        });
    }
    names.map(|n| (format!("{n}'s"), n.to_string()))
}

/// The squares in a question: listed when few, else how to type one.
fn choices(next: &[Square]) -> String {
    if next.len() <= MAX_LISTED {
        let names: Vec<String> = next.iter().map(|&s| Named(s).to_string()).collect();
        format!(": {}", names.join(", "))
    } else {
        format!(" (any of {}: row column)", next.len())
    }
}

impl Face<Setup> for FishFace {
    fn title(&self) -> &str {
        "HEY, THAT'S MY FISH!"
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

    fn side_noun(&self, side: Side) -> &'static str {
        self.side_title(side)
    }

    fn status(&self, _rules: &Setup, history: &[Position]) -> Vec<String> {
        let Some(pos) = history.last() else {
            return Vec::new();
        };
        vec![format!(
            "Points so far: P {}, A {}.",
            pos.score(Side::P),
            pos.score(Side::A)
        )]
    }

    fn board(
        &self,
        _rules: &Setup,
        history: &[Position],
        last: Option<&Move>,
        colour: bool,
    ) -> String {
        history
            .last()
            .map_or_else(String::new, |pos| board(pos, last, colour))
    }

    fn move_name(&self, _rules: &Setup, _history: &[Position], mv: &Move) -> String {
        move_words(mv)
    }

    fn computer_moves(&self, name: &str, move_name: &str) -> String {
        format!("{name} moves {move_name}.")
    }

    fn after_move(&self, _rules: &Setup, history: &[Position]) -> Vec<String> {
        match history {
            [.., before, after] => skipped(before, after)
                .map(|side| format!("{side} has no move left, so {side}'s turn is skipped."))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn final_words(&self, _rules: &Setup, history: &[Position], names: [&str; 2]) -> Vec<String> {
        let Some(pos) = history.last() else {
            return Vec::new();
        };
        let labels = labels(names);
        // The assignment lists the person's points first.
        let order = if labels[1].0 == "Players" {
            [Side::A, Side::P]
        } else {
            Side::BOTH
        };
        let mut lines: Vec<String> = order
            .iter()
            .map(|&side| {
                let haul = pos.haul(side);
                let sum = if haul.is_empty() {
                    "0".to_string()
                } else {
                    haul.sum_line()
                };
                format!("{} points: {sum}", labels[side.index()].0)
            })
            .collect();
        lines.push(match pos.outcome() {
            Some(Outcome::Win { winner, .. }) => format!("{} wins!", labels[winner.index()].1),
            _ => format!("A draw: {} points each!", pos.score(Side::P)),
        });
        lines
    }

    fn result(&self, _outcome: &Outcome<Side>, _winner: Option<&str>) -> String {
        // The points lines and the winner come from `final_words`.
        String::new()
    }

    fn help(&self, rules: &Setup) -> String {
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
                crate::games::fish::Deal::Rings => "1 on the rim, 2 on the next ring, 3 inside",
                crate::games::fish::Deal::Random { .. } => "dealt at random",
            },
        )
    }

    fn hint(&self, move_name: &str, verdict: &Verdict<Side>, to_move: Side) -> String {
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

    fn swap_notice(&self, names: [&str; 2]) -> String {
        format!(
            "Sides swap: {} is P and starts, {} is A.",
            names[0], names[1]
        )
    }
}

impl MovePrompt<Setup> for FishFace {
    fn square(&self, _rules: &Setup, sq: Square) -> String {
        format!("{:#}", Named(sq))
    }

    fn parse_squares(
        &self,
        rules: &Setup,
        _history: &[Position],
        _typed: &[Square],
        line: &str,
    ) -> Result<Vec<Square>, String> {
        parse_path(rules.board(), line).map_err(|e| e.to_string())
    }

    fn move_question(
        &self,
        _rules: &Setup,
        history: &[Position],
        typed: &[Square],
        next: &[Square],
    ) -> String {
        let Some(pos) = history.last() else {
            return String::new();
        };
        let side = pos.to_move();
        match typed {
            _ if pos.placing() => format!(
                "{side}, start a penguin on which 1-point tile{}? ",
                choices(next)
            ),
            [] => format!("{side}, which penguin moves{}? ", choices(next)),
            [from, ..] => format!(
                "{side}, move from {} to which square{}? ",
                Named(*from),
                choices(next)
            ),
        }
    }

    fn only_move(
        &self,
        _rules: &Setup,
        _history: &[Position],
        _typed: &[Square],
        mv: &Move,
    ) -> String {
        format!(
            "Only one move is left: {}. Press Enter to make it.",
            move_words(mv)
        )
    }

    fn refusal(
        &self,
        _rules: &Setup,
        history: &[Position],
        typed: &[Square],
        tried: &[Square],
    ) -> String {
        let Some(pos) = history.last() else {
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
            Some(why) => crate::shell::ask::capitalise(&why.to_string()),
            None => "Type one of the squares in brackets, or help.".to_string(),
        }
    }
}

/// A move in words: `a penguin to (2,1)`, `(1,2) to (2,3)`.
fn move_words(mv: &Move) -> String {
    match *mv {
        Move::Place(to) => format!("a penguin to {}", Named(to)),
        Move::Slide { from, to } => format!("{} to {}", Named(from), Named(to)),
    }
}
