//! A person's turn: a move typed as a path of squares, narrowed square by
//! square against the legal moves, and the commands of every move prompt.
//!
//! The squares typed so far pick out the legal moves whose path starts with
//! them. Where every such move goes on to the same square, that square is
//! filled in (the fox's own square). When one move is left, Enter plays it.
//! When none is, the game's face says why.

use std::io;

use crate::games::{Rules, Square};
use crate::shell::face::{Canvas, Face, View};

use super::ask::{LastPage, capitalise, is_q, is_quit};
use super::console::{Console, Offer, Reply};
use super::safe;
use super::text;

/// A command that works at every move prompt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Command {
    /// Show the rules and the commands.
    Help,
    /// List the legal moves.
    Moves,
    /// Take back the last move, or the square just chosen.
    Undo,
    /// Print the board again.
    Board,
    /// Name a best move and the verdict.
    Hint,
    /// Offer a draw (games that have draws by agreement).
    Draw,
    /// Give the game up (games that allow it).
    Resign,
    /// Leave the game.
    Quit,
}

impl Command {
    /// Every command, in the order help lists them.
    pub const ALL: [Command; 8] = [
        Command::Help,
        Command::Moves,
        Command::Undo,
        Command::Board,
        Command::Hint,
        Command::Draw,
        Command::Resign,
        Command::Quit,
    ];

    /// The word that calls it.
    pub const fn word(self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Moves => "moves",
            Command::Undo => "undo",
            Command::Board => "board",
            Command::Hint => "hint",
            Command::Draw => "draw",
            Command::Resign => "resign",
            Command::Quit => "quit",
        }
    }

    /// The command a word names, with a few common aliases.
    pub fn from_word(word: &str) -> Option<Command> {
        let word = word.trim().to_ascii_lowercase();
        // Not `q` alone: in a game a slip of one letter must not end it.
        if is_quit(&word) && !is_q(&word) {
            return Some(Command::Quit);
        }
        if matches!(word.as_str(), "?" | "h") {
            return Some(Command::Help);
        }
        Command::ALL.into_iter().find(|c| c.word() == word)
    }
}

/// What a person's turn came to.
#[derive(Clone, PartialEq, Debug)]
pub enum Turn<M> {
    /// Play this legal move.
    Play(M),
    /// A line whose first word is one of the turn's `others`, for the
    /// caller to carry out (a server's `say`).
    Other(String),
    /// A command the match carries out: undo, hint, draw, resign.
    Command(Command),
    /// The player has gone.
    Leave,
    /// Ctrl-L: the caller draws the turn's screen again, for the window as
    /// it is now, and asks again (what was typed and chosen is kept).
    Redraw,
}

/// A square on the path being typed, and whether the player typed it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Step {
    square: Square,
    typed: bool,
}

/// What the askings of one turn keep between them, while nothing changes
/// the game (a draw offered and declined, say): the only move already
/// announced, and the squares chosen so far.
#[derive(Default)]
pub struct Progress {
    told_only: Option<usize>,
    path: Vec<Step>,
}

/// Whose turn it is to ask: the game, what has happened, and the commands offered.
pub struct TurnOf<'a, R: Rules, F> {
    /// The rules.
    pub rules: &'a R,
    /// The game's face.
    pub face: &'a F,
    /// Every position so far, the current one last.
    pub history: &'a [R::Position],
    /// The move that led here.
    pub last: Option<&'a R::Move>,
    /// The commands this game offers.
    pub commands: &'a [Command],
    /// Where the board is drawn.
    pub canvas: Canvas<R::Side>,
    /// Words, besides the commands, that end the asking with the line
    /// ([`Turn::Other`]).
    pub others: &'a [&'a str],
    /// The help `help` gives, where the host has words of its own (a
    /// server's); else the face's.
    pub help: Option<&'a str>,
}

/// Asks for one move until it is legal or a command ends the asking.
/// `commands` are the commands this game offers; help, moves, board and
/// hint are answered here (`hint` gets the squares chosen so far, to prefer
/// a move of the piece already picked), the rest go back to the match.
/// `progress` keeps, across askings of one turn, which only move was
/// announced and the squares chosen.
pub fn ask_move<R: Rules, F: Face<R>>(
    console: &mut Console,
    turn: &TurnOf<'_, R, F>,
    hint: &mut dyn FnMut(&mut Console, &[Square]) -> io::Result<()>,
    progress: &mut Progress,
) -> io::Result<Turn<R::Move>> {
    let TurnOf {
        rules,
        face,
        history,
        commands,
        ..
    } = *turn;
    let Some(pos) = history.last() else {
        return Ok(Turn::Leave);
    };
    let legal = rules.legal_moves(pos);
    let paths: Vec<Vec<Square>> = legal.iter().map(|m| rules.path(m)).collect();
    let Progress { told_only, path } = progress;
    loop {
        fill_in(path, &paths);
        let typed: Vec<Square> = path.iter().map(|s| s.square).collect();
        let candidates: Vec<usize> = (0..legal.len())
            .filter(|&i| paths[i].starts_with(&typed))
            .collect();
        let only = match candidates[..] {
            [i] => Some(i),
            _ => None,
        };
        if let Some(i) = only
            && *told_only != Some(i)
        {
            console.say(&face.only_move(&View::new(rules, history), &typed, &legal[i]))?;
            *told_only = Some(i);
        }
        let next = next_squares(&typed, &candidates, &paths);
        let question = face.move_question(&View::new(rules, history), &typed, &next);
        let answers = offered(turn, &typed, &next, candidates.iter().map(|&i| &paths[i]));
        // Typed again from its start, a move may take another way on from
        // the first square (`10x19` at "Jump 10x17 on to"): whole paths
        // from that square are offered as well as the rests.
        let restarts = paths
            .iter()
            .filter(|p| !typed.is_empty() && p.first() == typed.first());
        let spellings = spellings(
            turn,
            &typed,
            candidates.iter().map(|&i| &paths[i]),
            restarts,
        );
        let unmarked = unmarked(turn, &typed, answers.iter().chain(&spellings));
        let offer = Offer {
            answers: &answers,
            spellings: &spellings,
            unmarked: &unmarked,
        };
        let Some(reply) = console.ask_redrawn_by_caller(&question, &offer)? else {
            // The redrawn turn says the only move again.
            *told_only = None;
            return Ok(Turn::Redraw);
        };
        let line = match reply {
            Reply::End => return Ok(Turn::Leave),
            Reply::Bad(why) => {
                console.say(&why.to_string())?;
                continue;
            }
            Reply::Line(line) => line,
        };
        let chosen_by_player = path.iter().any(|s| s.typed);
        if line.trim().is_empty() {
            if let Some(i) = only {
                return Ok(Turn::Play(legal[i].clone()));
            }
            if chosen_by_player {
                drop_last_choice(path);
            } else {
                // A reminder of what to type, not a refusal: a bare Enter
                // is no bad answer, and the exit status does not count it.
                let reminder = face.refusal(&View::new(rules, history), &typed, &[]);
                if !reminder.is_empty() {
                    console.say(&safe::text(&reminder))?;
                }
            }
            continue;
        }
        if is_q(&line) {
            // A reminder, not a refusal, and not the end of the game.
            console.say(text::QUIT_IN_FULL)?;
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if turn.others.iter().any(|w| w.eq_ignore_ascii_case(first)) {
            return Ok(Turn::Other(line));
        }
        if let Some(command) = Command::from_word(&line).filter(|c| commands.contains(c)) {
            let chosen = chosen_by_player.then_some(&mut *path);
            if let Some(turn) = command_at(console, turn, command, &legal, &typed, chosen, hint)? {
                return Ok(turn);
            }
            continue;
        }
        // `undo 2`, `board --key`: a command's word with more after it.
        if let Some(command) = Command::from_word(first).filter(|c| commands.contains(c)) {
            console.refuse(&text::command_alone(command.word()))?;
            continue;
        }
        if let Some(i) = squares_typed(console, turn, path, &typed, &line, &paths)? {
            return Ok(Turn::Play(legal[i].clone()));
        }
    }
}

/// Squares typed at a move prompt: the index of the legal move they make
/// whole, or `None` when the path grew (or was refused, with the reason
/// said) and the asking goes on.
fn squares_typed<R: Rules, F: Face<R>>(
    console: &mut Console,
    turn: &TurnOf<'_, R, F>,
    path: &mut Vec<Step>,
    typed: &[Square],
    line: &str,
    paths: &[Vec<Square>],
) -> io::Result<Option<usize>> {
    let (rules, face, history) = (turn.rules, turn.face, turn.history);
    // One word for full-width characters, whatever the game.
    if let Some(plain) = text::plain_answer_if_full_width(line) {
        // Told to type the plain line only where it would be taken: a
        // command, or squares that make a way on. Else what is wrong with
        // the plain line too.
        let command = Command::from_word(&plain).is_some()
            || turn
                .others
                .iter()
                .any(|w| w.eq_ignore_ascii_case(plain.split_whitespace().next().unwrap_or("")));
        let view = View::new(rules, history);
        let wrong = if command {
            None
        } else {
            match face.parse_squares(&view, typed, &plain) {
                Err(why) => Some(why),
                // Tried on a copy: nothing is chosen by a refused line.
                Ok(tried) => match extend(&mut path.clone(), typed, &tried, paths) {
                    Extended::Nothing => Some(face.refusal(&view, typed, &tried)),
                    Extended::Whole(_) | Extended::Part => None,
                },
            }
        };
        let why = match wrong {
            None => text::full_width(line, &plain),
            Some(why) => text::full_width_and(line, &why),
        };
        console.refuse(&capitalise(&why))?;
        return Ok(None);
    }
    let tried = match face.parse_squares(&View::new(rules, history), typed, line) {
        Ok(squares) => squares,
        Err(why) => {
            console.refuse(&capitalise(&why))?;
            return Ok(None);
        }
    };
    let before = path.clone();
    let found = match extend(path, typed, &tried, paths) {
        Extended::Whole(i) => return Ok(Some(i)),
        Extended::Part => true,
        Extended::Nothing => false,
    };
    if !found {
        console.refuse(&face.refusal(&View::new(rules, history), typed, &tried))?;
        return Ok(None);
    }
    let mut filled = path.clone();
    fill_in(&mut filled, paths);
    if filled.iter().map(|s| s.square).eq(typed.iter().copied())
        && let Some(&last) = typed.last()
    {
        // Nothing new was named (the squares chosen, or those the game
        // filled in as the only way on): say so, rather than ask again in
        // silence, and leave the choices as they were, so that `undo` still
        // means what it did.
        // The piece alone, filled in by the game, not chosen by the player.
        let filled_in = filled.len() == 1 && !before.iter().any(|s| s.typed);
        *path = before;
        let at = face.square(rules, last);
        if tried == [last] && filled_in {
            console.say(&text::only_piece(&at))?;
        } else if tried == [last] {
            console.say(&text::already_chosen(&at))?;
        } else {
            // The piece's first square, or the path so far: quoted as typed.
            let typed_text = safe::cut(&safe::text(line.trim()), 20);
            console.say(&text::chosen_before(&typed_text, &at))?;
        }
    } else if filled.len() < typed.len()
        && let Some(last) = filled.last()
    {
        // An earlier square typed again goes back to it: said, as the
        // question that follows looks like one asked before. Where the
        // game fills in the way on from it, that is said too.
        let to = face.square(rules, last.square);
        let named = tried
            .last()
            .filter(|&&sq| sq != last.square)
            .map(|&sq| face.square(rules, sq));
        console.say(&text::back_to(named.as_deref(), &to))?;
    }
    Ok(None)
}

/// Does a command typed at a move prompt; `Some` when it ends the prompt.
/// `chosen` is the path when the player chose part of it, for `undo`.
fn command_at<R: Rules, F: Face<R>>(
    console: &mut Console,
    turn: &TurnOf<'_, R, F>,
    command: Command,
    legal: &[R::Move],
    typed: &[Square],
    chosen: Option<&mut Vec<Step>>,
    hint: &mut dyn FnMut(&mut Console, &[Square]) -> io::Result<()>,
) -> io::Result<Option<Turn<R::Move>>> {
    let (rules, face, history) = (turn.rules, turn.face, turn.history);
    match (command, chosen) {
        (Command::Help, _) => {
            let help = turn.help.map_or_else(
                || face.help(rules, console.width()).to_string(),
                str::to_string,
            );
            if !super::ask::say_paged(console, &help, LastPage::Open)? {
                return Ok(Some(Turn::Leave));
            }
        }
        (Command::Moves, _) => {
            console.say(&face.legal_moves_line(&View::new(rules, history), legal))?
        }
        (Command::Board, _) => {
            // As wide as the screen is now: it may have been resized since
            // the turn began.
            let canvas = Canvas {
                width: console.width(),
                ..turn.canvas
            };
            console.write(&face.board(&View::new(rules, history), turn.last, &canvas))?
        }
        (Command::Hint, _) => hint(console, typed)?,
        (Command::Undo, Some(path)) => drop_last_choice(path),
        (Command::Quit, _) => return Ok(Some(Turn::Leave)),
        (other, _) => return Ok(Some(Turn::Command(other))),
    }
    Ok(None)
}

/// The answers Tab offers: the next squares, whole rests of paths (so Tab
/// after a first square offers the second), and the commands.
fn offered<'p, R: Rules, F: Face<R>>(
    turn: &TurnOf<'_, R, F>,
    typed: &[Square],
    next: &[Square],
    candidates: impl Iterator<Item = &'p Vec<Square>>,
) -> Vec<String> {
    let (rules, face, history) = (turn.rules, turn.face, turn.history);
    let mut answers: Vec<String> = next
        .iter()
        .map(|&sq| face.answer(&View::new(rules, history), typed, sq))
        .collect();
    for path in candidates {
        let rest: Vec<String> = (typed.len()..path.len())
            .map(|k| face.answer(&View::new(rules, history), &path[..k], path[k]))
            .collect();
        if rest.len() > 1 {
            answers.push(rest.join(" "));
        }
    }
    answers.extend(turn.commands.iter().map(|c| c.word().to_string()));
    answers
}

/// The answers of several words, of those offered, that the face takes
/// only unmarked: written with a capture mark between their words (`11x15`
/// for `11 15`), it refuses them, so Tab does not offer them after a mark.
fn unmarked<'o, R: Rules, F: Face<R>>(
    turn: &TurnOf<'_, R, F>,
    typed: &[Square],
    offered: impl Iterator<Item = &'o String>,
) -> Vec<String> {
    let view = View::new(turn.rules, turn.history);
    let takes = |line: &str| {
        turn.face.parse_squares(&view, typed, line).is_ok()
            || turn.face.parse_squares(&view, &[], line).is_ok()
    };
    offered
        .filter(|words| words.contains(' ') && !takes(&words.replace(' ', "x")))
        .cloned()
        .collect()
}

/// The rests of the paths in the squares' other spellings (grid names,
/// `C3 D4`), where the face reads a path so: Tab offers them once a player
/// types a square that way. Where part of the path is chosen already, the
/// whole paths of `restarts` too: a player may type a move again from its
/// start (`10x` at "Jump from 10"), and take another way on from there.
fn spellings<'p, R: Rules, F: Face<R>>(
    turn: &TurnOf<'_, R, F>,
    typed: &[Square],
    candidates: impl Iterator<Item = &'p Vec<Square>>,
    restarts: impl Iterator<Item = &'p Vec<Square>>,
) -> Vec<String> {
    let view = View::new(turn.rules, turn.history);
    let mut out: Vec<String> = Vec::new();
    let keep = |out: &mut Vec<String>, words: String| {
        if !out.contains(&words) {
            out.push(words);
        }
    };
    // The path's squares in each of the face's spellings, the first
    // spelling of each square, then the second, and so on.
    let spelled = |squares: &[Square]| -> Vec<String> {
        let forms: Vec<Vec<String>> = squares
            .iter()
            .map(|&sq| turn.face.spellings(turn.rules, sq))
            .collect();
        let most = forms.iter().map(Vec::len).max().unwrap_or(0);
        (0..most)
            .filter_map(|i| {
                let words: Option<Vec<&str>> =
                    forms.iter().map(|f| f.get(i).map(String::as_str)).collect();
                words.map(|w| w.join(" "))
            })
            .collect()
    };
    for path in restarts {
        let own: Vec<String> = (0..path.len())
            .map(|k| turn.face.answer(&view, &path[..k], path[k]))
            .collect();
        keep(&mut out, own.join(" "));
        for names in spelled(path) {
            if turn.face.parse_squares(&view, &[], &names).as_deref() == Ok(path) {
                keep(&mut out, names);
            }
        }
    }
    for path in candidates {
        let rest = &path[typed.len().min(path.len())..];
        if rest.is_empty() {
            continue;
        }
        // Typed on from the square reached (`17x26` at "Jump 10x17 on
        // to"): the rest with that square in front.
        if typed.len() >= 2 {
            let here = &path[typed.len() - 1..];
            let words: Vec<String> = (typed.len() - 1..path.len())
                .map(|k| turn.face.answer(&view, &path[..k], path[k]))
                .collect();
            let words = words.join(" ");
            let read = turn.face.parse_squares(&view, typed, &words);
            if read.as_deref() == Ok(here) || read.as_deref() == Ok(rest) {
                keep(&mut out, words);
            }
        }
        let own: Vec<String> = (typed.len()..path.len())
            .map(|k| turn.face.answer(&view, &path[..k], path[k]))
            .collect();
        let own = own.join(" ");
        for words in spelled(rest) {
            if words != own
                && !out.contains(&words)
                && turn.face.parse_squares(&view, typed, &words).as_deref() == Ok(rest)
            {
                out.push(words);
            }
        }
    }
    out
}

/// What squares typed at a prompt did to the path.
enum Extended {
    /// They finish legal move `i`.
    Whole(usize),
    /// They go part of the way.
    Part,
    /// They fit no legal move.
    Nothing,
}

/// Adds `tried` to the squares chosen so far, or starts afresh with them:
/// another hound picked, or a whole move typed at the destination prompt.
/// Naming again what was filled in (the only piece that can move) confirms
/// it, as a player typing square by square would.
fn extend(
    path: &mut Vec<Step>,
    typed: &[Square],
    tried: &[Square],
    paths: &[Vec<Square>],
) -> Extended {
    // Squares that start again at a square chosen (`10x17` after `1x10`,
    // `10x17x26` after `1x10x17`) go on from it, not after it: the latest
    // such square first, as a king's capture may pass a square twice.
    let restarts = typed
        .iter()
        .enumerate()
        .rev()
        .filter(|&(_, square)| Some(square) == tried.first())
        .map(|(k, _)| &typed[..k]);
    let starts = std::iter::once(typed)
        .chain(restarts)
        .chain(std::iter::once(&[][..]));
    for start in starts {
        let attempt: Vec<Square> = start.iter().chain(tried).copied().collect();
        if let Some(i) = paths.iter().position(|p| *p == attempt) {
            return Extended::Whole(i);
        }
        if paths.iter().any(|p| p.starts_with(&attempt)) {
            path.truncate(start.len());
            path.extend(tried.iter().map(|&square| Step {
                square,
                typed: true,
            }));
            return Extended::Part;
        }
    }
    Extended::Nothing
}

/// Fills in the squares every remaining move agrees on, short of the last
/// square of any of them: choosing the last square is always the player's.
fn fill_in(path: &mut Vec<Step>, paths: &[Vec<Square>]) {
    loop {
        let typed: Vec<Square> = path.iter().map(|s| s.square).collect();
        let mut going_on = paths.iter().filter(|p| p.starts_with(&typed));
        let Some(first) = going_on.next() else { return };
        let n = typed.len();
        let Some(&square) = first.get(n) else { return };
        let agree = first.len() > n + 1 && going_on.all(|p| p.len() > n + 1 && p[n] == square);
        if !agree {
            return;
        }
        path.push(Step {
            square,
            typed: false,
        });
    }
}

/// Drops the last square the player chose, and any filled in after it.
fn drop_last_choice(path: &mut Vec<Step>) {
    if let Some(i) = path.iter().rposition(|s| s.typed) {
        path.truncate(i);
    }
    // What was filled in before it is filled in again by the next round.
    while path.last().is_some_and(|s| !s.typed) {
        path.pop();
    }
}

/// The squares that may come next, in the order of the legal moves.
fn next_squares(typed: &[Square], candidates: &[usize], paths: &[Vec<Square>]) -> Vec<Square> {
    let mut next = Vec::new();
    for &i in candidates {
        if let Some(&sq) = paths[i].get(typed.len())
            && !next.contains(&sq)
        {
            next.push(sq);
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(col: u8, row: u8) -> Square {
        Square::new(col, row)
    }

    #[test]
    fn the_one_piece_is_filled_in_but_never_the_last_square() {
        let fox = sq(0, 7);
        let paths = vec![vec![fox, sq(1, 6)]];
        let mut path = Vec::new();
        fill_in(&mut path, &paths);
        assert_eq!(
            path,
            vec![Step {
                square: fox,
                typed: false
            }]
        );
        let hounds = vec![vec![sq(1, 0), sq(0, 1)], vec![sq(3, 0), sq(2, 1)]];
        let mut path = Vec::new();
        fill_in(&mut path, &hounds);
        assert!(path.is_empty());
    }

    #[test]
    fn undo_drops_the_chosen_square_and_what_followed() {
        let mut path = vec![
            Step {
                square: sq(1, 0),
                typed: true,
            },
            Step {
                square: sq(2, 1),
                typed: false,
            },
        ];
        drop_last_choice(&mut path);
        assert!(path.is_empty());
    }

    #[test]
    fn commands_have_aliases_and_the_leaving_words() {
        assert_eq!(Command::from_word(" HELP "), Some(Command::Help));
        assert_eq!(Command::from_word("?"), Some(Command::Help));
        assert_eq!(Command::from_word("exit"), Some(Command::Quit));
        assert_eq!(Command::from_word("resign"), Some(Command::Resign));
        assert_eq!(Command::from_word("B1"), None);
    }
}
