//! A game at a table, for any game: one object-safe [`Table`] over a game's
//! rules and face, as the server holds its games in progress. Whoever holds
//! a table sees moves and positions as the game's own notation and never a
//! rule; the face draws and words everything, as in local play.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use crate::games::{Computer, Computers, Deadline, Game, GameKind, Level, Outcome, Square};
use crate::shell::clock::Until;
use crate::shell::console::Console;
use crate::shell::face::{Canvas, Face, View};
use crate::shell::log::{Record, Seat};
use crate::shell::turn::{self, Command, Turn};

/// Why a table refused a move given by its name.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over")]
    Over,
    /// No legal move has that name (the name as given).
    #[error("{} is not a legal move here", crate::shell::safe::cut(.0, 40))]
    NotLegal(String),
}

/// How a game ended: the winning side's index in [`Table::sides`], or none
/// for a draw, and how, as the log names it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ending {
    /// The winning side, `0` or `1`; `None` for a draw.
    pub winner: Option<usize>,
    /// How, as the log names it: `fox-trapped`, `resigned`, `agreed`.
    pub how: String,
}

/// What a person's turn came to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Asked {
    /// This legal move, in the game's notation.
    Play(String),
    /// A command the table does not carry out itself.
    Command(Command),
    /// No move: the player left, or the session was woken.
    Leave,
    /// A line of the server's own words (`say`, `claim`).
    Other(String),
}

/// A game at the server, any game: its setup, its moves, and its face.
pub trait Table: Send {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// A copy to ask a move on, while the table itself stays with the room.
    fn fork(&self) -> Box<dyn Table>;
    /// The setup as the log's pairs.
    fn setup(&self) -> Vec<(String, String)>;
    /// The two sides as the log names them, the first to move first.
    fn sides(&self) -> [String; 2];
    /// The sides as the turn line names them: `Fox`, `Hounds`.
    fn side_titles(&self) -> [String; 2];
    /// The sides as sentences name them: `fox`, `hounds`; `Black`, `White`.
    fn side_nouns(&self) -> [String; 2];
    /// The start position in the game's notation.
    fn start(&self) -> String;
    /// The position now, in the game's notation.
    fn position(&self) -> String;
    /// Every move so far, in the game's notation.
    fn moves(&self) -> Vec<String>;
    /// The side to move: an index into [`Table::sides`].
    fn to_move(&self) -> usize;
    /// The side that played the move at `ply`.
    fn mover(&self, ply: usize) -> usize;
    /// How the game ended, if it has.
    fn ending(&self) -> Option<Ending>;
    /// Every legal move, in the notation a player may type whole.
    fn legal(&self) -> Vec<String>;
    /// Plays a move given in the game's notation, if it is legal.
    fn play(&mut self, mv: &str) -> Result<(), PlayError>;
    /// Takes back the last `plies` moves.
    fn take_back(&mut self, plies: usize);
    /// Ends the game by agreement or resignation (or a player gone).
    fn settle(&mut self, winner: Option<usize>, how: &'static str);
    /// The record of the game, once it has ended.
    fn record(&self, seats: Vec<Seat>) -> Option<Record>;

    /// The board and the lines above it, as `viewer` (a side's index) sees it.
    fn screen(&self, colour: bool, width: usize, viewer: Option<usize>) -> String;
    /// The sentence for the move at `ply`, played by `name`.
    fn said_move(&self, ply: usize, name: &str) -> String;
    /// Lines said after the move at `ply` (a hound eaten, a man crowned,
    /// a turn skipped).
    fn after_move(&self, ply: usize) -> Vec<String>;
    /// The result, with the players' names in the order of the sides.
    fn result(&self, names: [&str; 2]) -> String;
    /// The rules and commands.
    fn help(&self) -> String;
    /// The legal moves, as `moves` says them.
    fn moves_line(&self) -> String;
    /// Asks the player at `console` for a move, with the game's own prompt
    /// and refusals. `hints` offers the strongest computer's hint; a line
    /// whose first word is among `others` (the server's own words) is
    /// handed back as [`Asked::Other`].
    fn ask_move(
        &self,
        console: &mut Console,
        commands: &[Command],
        viewer: usize,
        hints: bool,
        others: &[&str],
    ) -> io::Result<Asked>;
    /// A hint's sentence for the side to move, or that hints are off.
    fn hint_text(&self, hints: bool) -> String;
    /// Reads a whole move typed on one line: the move, or why not.
    fn parse_move(&self, line: &str) -> Result<String, String>;

    /// The computer's levels, weakest first.
    fn levels(&self) -> Vec<String>;
    /// The computer's move at `level`, seeded.
    fn computer_move(&self, level: &str, seed: u64, deadline: &dyn Deadline) -> Option<String>;
}

/// What the server's words at a move prompt do, after the game's help.
const SERVER_HELP: &str = "On the server
  undo            ask the other player to take back your last move (against the computer: your move and its reply go back)
  draw            offer a draw; the other player answers
  resign          give the game up
  quit            leave for the lobby: the game waits (type resume)
  say TEXT        say TEXT to the other player and the watchers
  tell NAME TEXT  say TEXT to NAME alone
  claim           the win, once the other player is gone past the grace time
  adjourn         put the game away, once the other player is gone that long
In a rated game hint is off, and undo is refused against the computer.";

/// The commands [`SERVER_HELP`] says anew, whose meaning in a game's own
/// help is play at one terminal.
const SERVER_WORDS: [&str; 4] = ["undo", "draw", "resign", "quit"];

/// How long a hint may think.
const HINT_TIME: Duration = Duration::from_millis(1000);

/// A table of one game: its rules, its face and the game so far.
pub struct Seated<R: Computers, F> {
    rules: R,
    face: Arc<F>,
    kind: GameKind,
    game: Game<R>,
}

impl<R, F> Seated<R, F>
where
    R: Computers + Clone + Send + 'static,
    R::Position: Send,
    R::Move: Send,
    R::Side: Send,
    F: Face<R> + Send + Sync + 'static,
{
    /// A new game under `rules`, said and drawn by `face`.
    pub fn boxed(kind: GameKind, rules: R, face: F) -> Box<dyn Table> {
        let start = match rules.start_choices() {
            Some((_, starts)) if !starts.is_empty() => starts[0].clone(),
            _ => rules.start(),
        };
        Box::new(Seated {
            game: Game::new(start),
            rules,
            face: Arc::new(face),
            kind,
        })
    }

    fn side_index(&self, side: R::Side) -> usize {
        usize::from(self.rules.sides()[1] == side)
    }

    fn find(&self, mv: &str) -> Option<R::Move> {
        let mv = mv.trim();
        self.rules
            .legal_moves(self.game.position())
            .into_iter()
            .find(|m| m.to_string().eq_ignore_ascii_case(mv))
    }
}

impl<R, F> Table for Seated<R, F>
where
    R: Computers + Clone + Send + 'static,
    R::Position: Send,
    R::Move: Send,
    R::Side: Send,
    F: Face<R> + Send + Sync + 'static,
{
    fn kind(&self) -> GameKind {
        self.kind
    }

    fn fork(&self) -> Box<dyn Table> {
        Box::new(Seated {
            rules: self.rules.clone(),
            face: Arc::clone(&self.face),
            kind: self.kind,
            game: self.game.clone(),
        })
    }

    fn setup(&self) -> Vec<(String, String)> {
        self.rules
            .setup()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    fn sides(&self) -> [String; 2] {
        self.rules.sides().map(|s| s.to_string())
    }

    fn side_titles(&self) -> [String; 2] {
        self.rules
            .sides()
            .map(|s| self.face.side_title(s).to_string())
    }

    fn side_nouns(&self) -> [String; 2] {
        self.rules
            .sides()
            .map(|s| self.face.side_noun(s).to_string())
    }

    fn start(&self) -> String {
        self.rules.notation(self.game.start())
    }

    fn position(&self) -> String {
        self.rules.notation(self.game.position())
    }

    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(ToString::to_string).collect()
    }

    fn to_move(&self) -> usize {
        self.side_index(self.rules.to_move(self.game.position()))
    }

    fn mover(&self, ply: usize) -> usize {
        let positions = self.game.positions();
        let pos = &positions[ply.min(positions.len() - 1)];
        self.side_index(self.rules.to_move(pos))
    }

    fn ending(&self) -> Option<Ending> {
        self.game.outcome(&self.rules).map(|o| Ending {
            winner: o.winner().map(|s| self.side_index(s)),
            how: o.how().to_string(),
        })
    }

    fn legal(&self) -> Vec<String> {
        if self.ending().is_some() {
            return Vec::new();
        }
        self.rules
            .legal_moves(self.game.position())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn play(&mut self, mv: &str) -> Result<(), PlayError> {
        if self.ending().is_some() {
            return Err(PlayError::Over);
        }
        let found = self
            .find(mv)
            .ok_or_else(|| PlayError::NotLegal(mv.to_string()))?;
        self.game
            .play(&self.rules, found)
            .map_err(|_| PlayError::NotLegal(mv.to_string()))
    }

    fn take_back(&mut self, plies: usize) {
        for _ in 0..plies {
            self.game.undo();
        }
    }

    fn settle(&mut self, winner: Option<usize>, how: &'static str) {
        let outcome = match winner {
            Some(i) => Outcome::Win {
                winner: self.rules.sides()[i.min(1)],
                how,
            },
            None => Outcome::Draw { how },
        };
        self.game.settle(&self.rules, outcome);
    }

    fn record(&self, seats: Vec<Seat>) -> Option<Record> {
        let outcome = self.game.outcome(&self.rules)?;
        Some(Record::of_game(
            &self.rules,
            self.kind.flow(),
            seats,
            &self.game,
            outcome,
            None,
        ))
    }

    fn screen(&self, colour: bool, width: usize, viewer: Option<usize>) -> String {
        let view = View::new(&self.rules, self.game.positions());
        let mut text = String::new();
        let canvas = Canvas {
            colour,
            width,
            viewer: viewer.map(|i| self.rules.sides()[i.min(1)]),
        };
        // The status is sentences: wrapped to the width, as a console says
        // them; the board below is drawn for it.
        for line in self.face.status(&view, &canvas) {
            text.push_str(&crate::shell::safe::wrap(&line, width.max(20)));
            text.push('\n');
        }
        text.push_str(&self.face.board(&view, self.game.moves().last(), &canvas));
        text
    }

    fn said_move(&self, ply: usize, name: &str) -> String {
        let (Some(before), Some(mv)) = (
            self.game.positions().get(..=ply),
            self.game.moves().get(ply),
        ) else {
            return String::new();
        };
        let named = self.face.move_name(&View::new(&self.rules, before), mv);
        format!("{}. {}", ply + 1, self.face.player_moved(name, &named))
    }

    fn after_move(&self, ply: usize) -> Vec<String> {
        match self.game.positions().get(..ply + 2) {
            Some(upto) if ply < self.game.moves().len() => {
                self.face.after_move(&View::new(&self.rules, upto))
            }
            _ => Vec::new(),
        }
    }

    fn result(&self, names: [&str; 2]) -> String {
        let Some(outcome) = self.game.outcome(&self.rules) else {
            return String::new();
        };
        let mut lines = self.face.final_words(
            &View::new(&self.rules, self.game.positions()),
            [0, 1].map(|i| crate::shell::face::Player {
                name: names[i],
                computer: false,
                first: i == 0,
            }),
        );
        let winner = outcome.winner().map(|s| names[self.side_index(s)]);
        lines.push(self.face.result(&outcome, winner));
        lines.join("\n")
    }

    fn help(&self) -> String {
        // The game's own commands, but for those the server gives another
        // meaning in its own section.
        let help = self.face.help(&self.rules, 0);
        let commands = help.commands_except(&SERVER_WORDS);
        if commands.is_empty() {
            format!("{}\n{SERVER_HELP}", help.text)
        } else {
            format!("{}\n{commands}\n{SERVER_HELP}", help.text)
        }
    }

    fn moves_line(&self) -> String {
        let legal = self.rules.legal_moves(self.game.position());
        self.face
            .legal_moves_line(&View::new(&self.rules, self.game.positions()), &legal)
    }

    fn ask_move(
        &self,
        console: &mut Console,
        commands: &[Command],
        viewer: usize,
        hints: bool,
        others: &[&str],
    ) -> io::Result<Asked> {
        let rules = &self.rules;
        let face = self.face.as_ref();
        let history = self.game.positions();
        let canvas = Canvas {
            colour: console.colour(),
            width: console.width(),
            viewer: Some(rules.sides()[viewer.min(1)]),
        };
        let mut on_hint = |console: &mut Console, picked: &[Square]| {
            if !hints {
                return console.say(HINTS_OFF);
            }
            hint(console, rules, face, history, picked)
        };
        let help = self.help();
        let asking = turn::TurnOf {
            rules,
            face,
            history,
            last: self.game.moves().last(),
            commands,
            canvas,
            others,
            help: Some(&help),
        };
        let mut progress = turn::Progress::default();
        Ok(
            match turn::ask_move(console, &asking, &mut on_hint, &mut progress)? {
                Turn::Play(mv) => Asked::Play(mv.to_string()),
                Turn::Command(c) => Asked::Command(c),
                // A server's console reads no keys itself; were it asked,
                // the board drawn again is the redraw.
                Turn::Redraw => Asked::Command(Command::Board),
                Turn::Leave => Asked::Leave,
                Turn::Other(line) => Asked::Other(line),
            },
        )
    }

    fn hint_text(&self, hints: bool) -> String {
        if !hints {
            return HINTS_OFF.to_string();
        }
        let history = self.game.positions();
        let mut adviser = self.rules.computer(R::best_level(), history.len() as u64);
        let advice = adviser.advise(&self.rules, history, &Until::after(HINT_TIME));
        crate::shell::matchplay::advice_text(&self.rules, self.face.as_ref(), history, advice, &[])
            .unwrap_or_default()
    }

    fn parse_move(&self, line: &str) -> Result<String, String> {
        if let Some(mv) = self.find(line) {
            return Ok(mv.to_string());
        }
        let view = View::new(&self.rules, self.game.positions());
        let path = self.face.parse_squares(&view, &[], line)?;
        let legal = self.rules.legal_moves(self.game.position());
        let starting = |path: &[Square]| -> Vec<&R::Move> {
            legal
                .iter()
                .filter(|m| self.rules.path(m).starts_with(path))
                .collect()
        };
        let mut matching = starting(&path);
        // Where only one piece can move (the fox), its square is filled in,
        // as at a move prompt: its destination alone is a whole move.
        let firsts: Vec<Square> = legal
            .iter()
            .filter_map(|m| self.rules.path(m).first().copied())
            .collect();
        if matching.is_empty()
            && let Some(&only) = firsts.first()
            && firsts.iter().all(|&f| f == only)
        {
            let filled: Vec<Square> = std::iter::once(only).chain(path.iter().copied()).collect();
            matching = starting(&filled);
        }
        match matching[..] {
            [mv] => Ok(mv.to_string()),
            [] => Err(self.face.refusal(&view, &[], &path)),
            _ => Err(format!(
                "{} could be {} moves; type the whole move",
                crate::shell::safe::cut(line.trim(), 40),
                matching.len()
            )),
        }
    }

    fn levels(&self) -> Vec<String> {
        R::Level::ALL.iter().map(ToString::to_string).collect()
    }

    fn computer_move(&self, level: &str, seed: u64, deadline: &dyn Deadline) -> Option<String> {
        let level = level.parse::<R::Level>().ok()?;
        let mut player = self.rules.computer(level, seed);
        player
            .choose(&self.rules, self.game.positions(), deadline)
            .map(|mv| mv.to_string())
    }
}

/// Said for `hint` in a rated game.
pub const HINTS_OFF: &str = "Hints are off in rated games.";

fn hint<R: Computers, F: Face<R>>(
    console: &mut Console,
    rules: &R,
    face: &F,
    history: &[R::Position],
    picked: &[Square],
) -> io::Result<()> {
    let mut adviser = rules.computer(R::best_level(), history.len() as u64);
    let advice = adviser.advise(rules, history, &Until::after(HINT_TIME));
    crate::shell::matchplay::say_advice(console, rules, face, history, advice, picked)
}
