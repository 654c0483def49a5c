//! What the shell needs from a game's face: boards, sentences, help, and how
//! a player names squares. A face returns strings; the shell prints them.
//!
//! The shell runs every game through the [`Face`] of that game, so it never
//! needs to know a rule to say something about it. The trait lives here, on
//! the shell's side, because the shell decides what it asks for.

use crate::games::{Outcome, Rules, Square, Verdict};

/// What a face is shown of a game: its rules, and every position so far,
/// the one in question last (never empty). A face may follow pieces through
/// the game: the capture flow numbers its hounds.
pub struct View<'a, R: Rules> {
    /// The game's rules and setup.
    pub rules: &'a R,
    /// Every position since the start, the one in question last.
    pub history: &'a [R::Position],
}

impl<'a, R: Rules> View<'a, R> {
    /// A view of `history` under `rules`; `history` must not be empty.
    pub fn new(rules: &'a R, history: &'a [R::Position]) -> View<'a, R> {
        debug_assert!(!history.is_empty(), "a view shows at least one position");
        View { rules, history }
    }

    /// The position in question: the last of the history.
    pub fn pos(&self) -> Option<&'a R::Position> {
        self.history.last()
    }
}

impl<R: Rules> Clone for View<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Rules> Copy for View<'_, R> {}

/// Squares read from a line, or why not, as a sentence.
pub type Squares = Result<Vec<Square>, String>;

/// Said when a move is typed in a game that is over.
pub const GAME_OVER: &str = "the game is over";

/// Where a board is drawn: in colour or not, how many columns there are,
/// and from whose side (the one person at the terminal, if one plays).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Canvas<S> {
    /// Colour and bold.
    pub colour: bool,
    /// The columns the screen has.
    pub width: usize,
    /// The side of the person looking, when only one person plays.
    pub viewer: Option<S>,
}

/// A player as a face's closing words name them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Player<'a> {
    /// The player's name.
    pub name: &'a str,
    /// Whether the computer plays this side.
    pub computer: bool,
    /// Whether this is Player 1, whose words come first.
    pub first: bool,
}

/// What a menu line does. The face lists its menu's lines and labels; the
/// shell does what each line says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MenuChoice {
    /// Play: then who plays (two people, against the computer, watching).
    Play,
    /// Two people at this terminal.
    TwoPlayers,
    /// A person against the computer.
    OnePlayer,
    /// The computer against itself.
    Watch,
    /// The game log.
    History,
    /// The rules and commands.
    Rules,
    /// Leave.
    Quit,
}

/// The menu most games open with: the coursework's.
pub const FULL_MENU: [(MenuChoice, &str); 6] = [
    (MenuChoice::TwoPlayers, "Two players at this terminal"),
    (MenuChoice::OnePlayer, "Play against the computer"),
    (MenuChoice::Watch, "Watch the computer play itself"),
    (MenuChoice::History, "Game history"),
    (MenuChoice::Rules, "Rules"),
    (MenuChoice::Quit, "Quit"),
];

/// How the shell talks about one game: its board and sentences. How a
/// player names a move is its [`MovePrompt`]; a game whose setup may leave
/// the start open also has a [`StartChoice`]. Where a method is given `history`,
/// it is every position so far, the one in question last: a face may
/// follow pieces through the game (the capture flow numbers its hounds).
pub trait Face<R: Rules>: MovePrompt<R> {
    /// The title said first: `FOX AND HOUNDS`.
    fn title(&self) -> &str;

    /// A welcome shown once, before the menu, with a key to continue,
    /// fitted to a screen `width` columns wide.
    fn intro(&self, rules: &R, width: usize) -> Option<String> {
        let _ = (rules, width);
        None
    }

    /// The main menu's lines, in order: what each does and its label.
    fn menu(&self) -> &'static [(MenuChoice, &'static str)] {
        &FULL_MENU
    }

    /// Lines said after a move, above the next board: a skipped turn.
    /// `history` ends with the position after the move.
    fn after_move(&self, view: &View<'_, R>) -> Vec<String> {
        let rules = view.rules;
        let history = view.history;
        let _ = (rules, history);
        Vec::new()
    }

    /// Lines said at the end of a game, before the result: the points.
    /// `players` are the players of the sides, in the order of [`Rules::sides`].
    fn final_words(&self, view: &View<'_, R>, players: [Player<'_>; 2]) -> Vec<String> {
        let _ = (view, players);
        Vec::new()
    }

    /// The computer's name against a person, and its partner's when it plays itself.
    fn computer_names(&self) -> [&'static str; 2];

    /// A side as the turn line names it before a player's name: `Fox`, `Hound`.
    fn side_title(&self, side: R::Side) -> &'static str;

    /// A side as "starts as …" names it: `fox`, `hound`.
    fn side_noun(&self, side: R::Side) -> &'static str;

    /// Lines shown above the board on every turn, after whose turn it is
    /// (draughts: the pieces each side holds, in the letters the board on
    /// `canvas` draws them with).
    fn status(&self, view: &View<'_, R>, canvas: &Canvas<R::Side>) -> Vec<String> {
        let rules = view.rules;
        let history = view.history;
        let _ = (rules, history, canvas);
        Vec::new()
    }

    /// The board. `history` is every position so far, the current one last;
    /// `last` is the move that led to it.
    fn board(&self, view: &View<'_, R>, last: Option<&R::Move>, canvas: &Canvas<R::Side>)
    -> String;

    /// A move as players read it in sentences and lists: `A8-B7`.
    fn move_name(&self, view: &View<'_, R>, mv: &R::Move) -> String;

    /// A computer's move, said before it is played: `SWTP moves A8-B7.`
    fn computer_moves(&self, name: &str, move_name: &str) -> String;

    /// A person's move, said after it: `Ann moved B1-C2.`
    fn player_moved(&self, name: &str, move_name: &str) -> String {
        format!("{name} moved {move_name}.")
    }

    /// Said when `undo` takes a move back.
    fn took_back(&self, move_name: &str) -> String {
        format!("Took back {move_name}.")
    }

    /// The answer to `moves`: every legal move, by [`Face::move_name`].
    fn legal_moves_line(&self, view: &View<'_, R>, moves: &[R::Move]) -> String {
        let rules = view.rules;
        let history = view.history;
        let names: Vec<String> = moves
            .iter()
            .map(|m| self.move_name(&View::new(rules, history), m))
            .collect();
        crate::shell::text::legal_moves(&names)
    }

    /// The result: `Hound, b won! The fox is trapped.` `winner` names the
    /// winning player.
    fn result(&self, outcome: &Outcome<R::Side>, winner: Option<&str>) -> String;

    /// The rules, how to type a move, and the commands at a move prompt,
    /// for a screen `width` columns wide (0 where it is not known), whose
    /// board may be drawn in other letters.
    fn help(&self, rules: &R, width: usize) -> Help;

    /// A hint: the move and the verdict with best play.
    fn hint(&self, move_name: &str, verdict: &Verdict<R::Side>, to_move: R::Side) -> String;

    /// Whether a person against the computer always plays the first side,
    /// every game, instead of choosing a side and swapping after each game
    /// (the penguin game: the assignment's person is P and moves first).
    fn person_plays_first(&self) -> bool {
        false
    }

    /// The question after a game.
    fn again_question(&self) -> &str {
        "Play again (yes/no)? "
    }

    /// Said when the players swap sides after a game; `names` are in the
    /// order of [`Rules::sides`], `first` the side to move when the next
    /// game's play begins (after its prelude: a loaded game's moves), for a
    /// screen `width` columns wide (0 where the width is not known).
    fn swap_notice(&self, names: [&str; 2], first: R::Side, width: usize) -> String;

    /// The start choice, for a game whose setup may leave the start open.
    fn start_choice(&self) -> Option<&dyn StartChoice<R>> {
        None
    }
}

/// A game's help: how to play and how to type a move, in the game's words,
/// then the commands at a move prompt as data, so that the shell lays them
/// out and a server can say its own words in place of some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    /// How to play and how to type a move, as shown.
    pub text: String,
    /// Each command as typed, and what it does in this game.
    pub commands: Vec<(String, String)>,
}

/// The heading over a help's commands.
const COMMANDS_HEADING: &str = "Commands at a move prompt";

/// The column a command's meaning starts in, past the indent: wide enough
/// for `moves` and two spaces, or more for a longer command.
const COMMAND_COLUMN: usize = 9;

impl Help {
    /// A help of `text` alone, commands to be added.
    pub fn new(text: impl Into<String>) -> Help {
        Help {
            text: text.into(),
            commands: Vec::new(),
        }
    }

    /// The help with one more command: `word` as typed, and what it does.
    #[must_use]
    pub fn command(mut self, word: impl Into<String>, meaning: impl Into<String>) -> Help {
        self.commands.push((word.into(), meaning.into()));
        self
    }

    /// The commands whose words are not among `words`, laid out under
    /// their heading; empty when none is left.
    pub fn commands_except(&self, words: &[&str]) -> String {
        let kept: Vec<&(String, String)> = self
            .commands
            .iter()
            .filter(|(word, _)| !words.contains(&word.as_str()))
            .collect();
        if kept.is_empty() {
            return String::new();
        }
        let column = kept
            .iter()
            .map(|(word, _)| word.chars().count() + 2)
            .max()
            .unwrap_or(0)
            .max(COMMAND_COLUMN);
        let mut out = COMMANDS_HEADING.to_string();
        for (word, meaning) in kept {
            out.push_str(&format!("\n  {word:<column$}{meaning}"));
        }
        out
    }
}

impl std::fmt::Display for Help {
    /// The whole help, as a player at one terminal reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let commands = self.commands_except(&[]);
        if commands.is_empty() {
            f.write_str(&self.text)
        } else {
            write!(f, "{}\n{commands}", self.text)
        }
    }
}

/// How a player names a move: squares typed one at a time or as a whole
/// path, the question, and why a path is no legal move.
pub trait MovePrompt<R: Rules> {
    /// A square as a player types it: `B1`, `22`, `(2,4)`.
    fn square(&self, rules: &R, sq: Square) -> String;

    /// A square as a player types it after `typed`, for Tab completion: the
    /// square's name, unless the face reads it otherwise there (a hound's
    /// number, a column).
    fn answer(&self, view: &View<'_, R>, typed: &[Square], sq: Square) -> String {
        let rules = view.rules;
        let history = view.history;
        let _ = (history, typed);
        self.square(rules, sq)
    }

    /// Other ways a player may write a square, offered by Tab once they
    /// start a move so (`C3` where the face names it `11`, `1 1` for
    /// `1,1`). Each is kept only where the face reads it back.
    fn spellings(&self, rules: &R, sq: Square) -> Vec<String> {
        let _ = rules;
        vec![sq.to_string()]
    }

    /// Reads the squares of a line typed at a move prompt, after the squares
    /// `typed` so far: one square, or a whole path. The error says what was
    /// wrong, as a sentence.
    fn parse_squares(&self, view: &View<'_, R>, typed: &[Square], line: &str) -> Squares;

    /// The move question, given the squares chosen so far and the squares
    /// that may come next: `Move (B1, D1, F1, H1)? `, `Move D1 to (C2, E2)? `.
    fn move_question(&self, view: &View<'_, R>, typed: &[Square], next: &[Square]) -> String;

    /// Said once when only one move is left for the squares chosen.
    fn only_move(&self, view: &View<'_, R>, typed: &[Square], mv: &R::Move) -> String;

    /// Why `tried`, typed after `typed`, is no legal move, as a sentence.
    fn refusal(&self, view: &View<'_, R>, typed: &[Square], tried: &[Square]) -> String;
}

/// The start, where the setup leaves it to a player (see
/// [`Rules::start_choices`]).
pub trait StartChoice<R: Rules> {
    /// The board shown before the start question: where the start may be.
    fn start_board(&self, rules: &R, starts: &[R::Position], colour: bool) -> String;

    /// The question for a start square when the setup leaves it open, with
    /// the answers offered for completion.
    fn start_question(
        &self,
        rules: &R,
        name: &str,
        starts: &[R::Position],
    ) -> (String, Vec<String>);

    /// Reads the answer to the start question: an index into `starts`.
    fn parse_start(&self, rules: &R, line: &str, starts: &[R::Position]) -> Result<usize, String>;
}

#[cfg(test)]
mod tests {
    use super::Help;

    #[test]
    fn a_help_lays_its_commands_out_in_one_column() {
        let help = Help::new("How to play\n  Move.")
            .command("moves", "list the legal moves")
            .command("quit", "leave");
        assert_eq!(
            help.to_string(),
            "How to play\n  Move.\nCommands at a move prompt\n  moves    list the legal moves\n  quit     leave"
        );
        // A longer command widens the column, two spaces past it.
        let wide = help.clone().command("B10 C9 D8", "a move");
        assert!(
            wide.to_string().ends_with(
                "\n  moves      list the legal moves\n  quit       leave\n  B10 C9 D8  a move"
            ),
            "{wide}"
        );
    }

    #[test]
    fn a_server_can_leave_out_the_commands_it_says_itself() {
        let help = Help::new("Rules.")
            .command("undo", "take back")
            .command("board", "show the board");
        assert_eq!(
            help.commands_except(&["undo"]),
            "Commands at a move prompt\n  board    show the board"
        );
        assert_eq!(help.commands_except(&["undo", "board"]), "");
        assert_eq!(Help::new("Rules.").to_string(), "Rules.");
    }
}
