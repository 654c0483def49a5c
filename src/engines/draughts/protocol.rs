//! The draughts engine mode: a line protocol in the spirit of UCI, spoken
//! over any reader and writer, so match tools, GUIs and scripts can use the
//! engine with its game history. The shell owns the clock here: `go movetime`
//! becomes a [`Deadline`] built from `Instant`, which a `stop` read on the
//! input's own thread also passes.
//!
//! ```text
//! position startpos|fen FEN [moves M1 M2 …]   set the game (its whole past)
//! go movetime MS | go depth N                 answered `bestmove M`, after `info depth D nodes N
//!                                             score cp V pv M…` (or `score win N` / `score loss N`,
//!                                             in plies) when it searched; when the rules have
//!                                             ended the game, `info string game over: …` then `bestmove none`
//! perft N                                     answered `perft N COUNT`, or `perft N stopped`
//! newgame                                     forget what the last game taught the table
//! isready                                     answered `readyok` once the database is in
//! stop                                        end the search under way: its `bestmove` at once
//! quit
//! ```
//!
//! During a search, `stop` ends it with the best move so far (the lines
//! after it are answered after that), `quit` ends it the same way and then
//! the program, `isready` is answered at once,
//! and any other line waits its turn, answered after the search's
//! `bestmove`; behind a line waiting, `quit` and `isready` wait too (a
//! script's `quit` comes after its last search). A `stop` is the last
//! `go` or `perft`'s that has none: one waiting ends as it starts, so a
//! script's lines keep their order; where none waits, the search under way
//! ends, however many lines wait behind it. Every `go` gets one `bestmove`. A
//! `perft` count is heard out the same way: `stop` or `quit` ends it, and
//! it is answered `perft N stopped`.
//!
//! A bad line is answered `error …` and changes nothing; nothing panics, and
//! a line longer than [`MAX_LINE`] bytes is refused without being kept.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use crate::engines::draughts::store::EndgameStore;
use crate::games::draughts::endgame::{Endgame, MAX_PIECES};
use crate::games::draughts::search::{Report, Score};
use crate::games::draughts::{
    Level, Move, Perft, Player, Position, Setup, Side, fen, how, notation,
};
use crate::games::{Deadline, Outcome, Rules};
use crate::shell::lines::AnyNewline;
use crate::shell::safe;

/// The longest line read, in bytes: room for a game of several hundred moves.
pub const MAX_LINE: usize = 16 * 1024;
/// The longest `go movetime`, in milliseconds (a day).
pub const MAX_MOVETIME: u64 = 24 * 60 * 60 * 1000;
/// The deepest `go depth`.
pub const MAX_DEPTH: u32 = 64;
/// The deepest `perft`: minutes at most (a board of kings; seconds from
/// the start). `stop` ends a count, but a `quit` behind a line waiting its
/// turn waits for the count, so the count must end by itself; `tallyho
/// draughts perft` counts deeper.
pub const MAX_PERFT: u32 = 14;
/// The most moves after `position`: far past any game the rules let go on.
pub const MAX_MOVES: usize = 2000;

/// What the engine plays with.
pub struct Config {
    /// The rules (compulsory or optional captures).
    pub rules: Setup,
    /// Search threads.
    pub threads: usize,
    /// The seed of its random choices (among moves of equal exact value).
    pub seed: u64,
    /// Whether it plays from the opening book.
    pub book: bool,
    /// The endgame database: ready, or arriving later (`isready` waits for it).
    pub endgame: Option<EndgameSource>,
    /// Whether nobody can read the answers any more (the program that
    /// started the engine has gone): asked once the input has ended, so
    /// that a search no one will hear ends instead of running its course.
    pub unread: Option<fn() -> bool>,
}

/// Where the engine's endgame database comes from.
pub enum EndgameSource {
    /// Already in memory.
    Ready(Arc<Endgame>),
    /// Being built or loaded elsewhere: asked between commands for a newer
    /// one (`true`: wait for one), and waited for by `isready` until the
    /// first arrives.
    Later(Box<dyn FnMut(bool) -> Option<Arc<Endgame>> + Send>),
}

impl EndgameSource {
    /// A database of `pieces` pieces built now on a thread of its own.
    pub fn build_in_background(rules: Setup, pieces: u32) -> EndgameSource {
        EndgameSource::from_thread(move |give| {
            give(Arc::new(Endgame::build(pieces, rules)));
        })
    }

    /// The largest database kept in `store` with a number of pieces in
    /// `pieces` (`5..=6`: six pieces when one was built by hand), read on a
    /// thread of its own; when there is none, the 4-piece one is read or
    /// built first (seconds, and kept), then the smallest of `pieces` built
    /// and saved (minutes): [`EndgameStore::supply`].
    pub fn from_store(
        rules: Setup,
        store: EndgameStore,
        pieces: RangeInclusive<u32>,
    ) -> EndgameSource {
        EndgameSource::from_thread(move |give| {
            store.supply(rules, MAX_PIECES, pieces, &mut |db| give(Arc::new(db)));
        })
    }

    /// Databases that `make` hands over, one or more, larger each time, on
    /// a thread of its own (built, or read from disk); handing one over
    /// answers `false` once the engine has gone, so `make` can stop.
    pub fn from_thread(
        make: impl FnOnce(&mut dyn FnMut(Arc<Endgame>) -> bool) + Send + 'static,
    ) -> EndgameSource {
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("endgame".into())
            .spawn(move || make(&mut |db| tx.send(db).is_ok()));
        if spawned.is_err() {
            return EndgameSource::Later(Box::new(|_| None));
        }
        EndgameSource::Later(Box::new(move |wait| {
            let mut newest = if wait { rx.recv().ok() } else { None };
            while let Ok(db) = rx.try_recv() {
                newest = Some(db);
            }
            newest
        }))
    }
}

/// A deadline at a moment of the wall clock.
pub struct Until(pub Instant);

impl Deadline for Until {
    fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// A search's deadline here: its clock, or a `stop` or `quit` read meanwhile.
struct Stoppable<'a> {
    until: Until,
    stop: &'a AtomicBool,
}

impl Deadline for Stoppable<'_> {
    fn passed(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.until.passed()
    }
}

struct State {
    config: Config,
    player: Player,
    history: Vec<Position>,
    /// The last `position` line was refused: the game it meant is not
    /// known, so `go` and `perft` answer no other game's position.
    unset: bool,
    /// The largest database received so far.
    endgame: Option<Arc<Endgame>>,
}

impl State {
    fn new(config: Config) -> State {
        let player = new_player(&config);
        let start = config.rules.start.position();
        let mut s = State {
            config,
            player,
            history: vec![start],
            unset: false,
            endgame: None,
        };
        s.catch_up(false);
        s
    }

    /// Takes a newer, larger database if there is one; `wait` blocks until
    /// the first has come.
    fn catch_up(&mut self, wait: bool) {
        let has = self.endgame.as_ref().map_or(0, |d| d.max_pieces());
        let db = match &mut self.config.endgame {
            None => return,
            Some(EndgameSource::Ready(db)) => Some(Arc::clone(db)),
            Some(EndgameSource::Later(get)) => get(wait && has == 0),
        };
        if let Some(db) = db
            && (self.endgame.is_none() || db.max_pieces() > has)
        {
            self.player.attach_endgame(Arc::clone(&db));
            self.endgame = Some(db);
        }
    }

    /// A fresh player, with the database already received.
    fn new_game(&mut self) {
        self.player = new_player(&self.config);
        if let Some(db) = &self.endgame {
            self.player.attach_endgame(Arc::clone(db));
        }
        self.catch_up(false);
    }
}

fn new_player(config: &Config) -> Player {
    let player = Player::new(Level::Overpowered, config.rules, config.seed)
        .without_endgame()
        .with_threads(config.threads);
    if config.book {
        player
    } else {
        player.without_book()
    }
}

/// What one line asks for.
enum Reply {
    Lines(Vec<String>),
    /// A search, run while the input is read on (see [`search`]).
    Search(Go),
    /// A perft count to this depth, run while the input is read on.
    Perft(u32),
    Quit,
}

/// A search `go` asks for: until a moment, or to a depth.
struct Go {
    until: Instant,
    depth: u32,
    /// The time given (`go movetime`), which sizes the search's table.
    movetime: Option<u64>,
}

/// What the reader's thread sends: a line (or why it cannot be used), or
/// the end of the input (or the error that ended it).
enum Event {
    Line(Result<String, Unread>),
    End(io::Result<()>),
}

/// The lines on their way from the reader's thread: past them it waits.
const IN_FLIGHT: usize = 64;

/// The most the lines waiting behind a search may hold, in bytes, each
/// line counted with [`LINE_COST`] more for its keeping: past it the input
/// waits in the pipe, not in memory (and a `stop` behind it is not heard
/// until the search ends).
const READ_AHEAD: usize = 1 << 20;
/// What keeping a waiting line costs besides its text.
const LINE_COST: usize = 64;

/// How often a search's listener looks whether the search has ended, when
/// no line comes.
const LISTEN_EVERY: Duration = Duration::from_millis(5);

/// How often a search past the end of the input asks whether anyone can
/// still read its answer.
const UNREAD_EVERY: Duration = Duration::from_millis(100);

/// The lines from the reader's thread, with those read during a search
/// waiting their turn.
struct Inbox {
    events: Receiver<Event>,
    /// Lines read during a search and answered after it, at most
    /// [`READ_AHEAD`] bytes of them.
    waiting: VecDeque<Waiting>,
    /// What the lines waiting take, as [`READ_AHEAD`] counts it.
    waiting_bytes: usize,
    /// How the input ended, kept until the lines waiting are answered.
    ended: Option<io::Result<()>>,
    /// Whether the line last taken was stopped while it waited: the work
    /// it starts ends as it starts.
    taken_stopped: bool,
}

/// A line that could not be read as text: too long, or not UTF-8.
struct Unread {
    /// Why, as the error says it.
    why: String,
    /// It opened with `position`: the game it meant is not known, so none
    /// is set (see [`State::unset`]).
    position: bool,
    /// It opened with `go`: answered `bestmove none` after the error, as
    /// every `go` is answered with a `bestmove`.
    go: bool,
}

/// Whether a line's bytes open with `word` (`position`, `go`), after
/// blanks and a byte order mark, and end it there: blanks are any a line's
/// words are split at, non-ASCII ones too (`go\u{a0}depth 1` is a `go`).
fn opens_with(bytes: &[u8], word: &str) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let rest = text.trim_start();
    let rest = rest.strip_prefix('\u{feff}').unwrap_or(rest).trim_start();
    rest.strip_prefix(word)
        .is_some_and(|after| after.chars().next().is_none_or(char::is_whitespace))
}

/// A line read during a search, waiting its turn.
struct Waiting {
    line: Result<String, Unread>,
    /// A `stop` read after this line, which starts work, is this work's.
    stopped: bool,
}

impl Inbox {
    fn new(events: Receiver<Event>) -> Inbox {
        Inbox {
            events,
            waiting: VecDeque::new(),
            waiting_bytes: 0,
            ended: None,
            taken_stopped: false,
        }
    }

    /// The next line to answer, or how the input ended.
    fn next(&mut self) -> Result<Result<String, Unread>, io::Result<()>> {
        self.taken_stopped = false;
        if let Some(Waiting { line, stopped }) = self.waiting.pop_front() {
            self.waiting_bytes -= cost(&line);
            self.taken_stopped = stopped;
            return Ok(line);
        }
        if let Some(end) = self.ended.take() {
            return Err(end);
        }
        match self.events.recv() {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::End(end)) => Err(end),
            Err(_) => Err(Ok(())),
        }
    }

    /// Keeps a line read during a search for after it.
    fn wait(&mut self, line: Result<String, Unread>) {
        self.waiting_bytes += cost(&line);
        self.waiting.push_back(Waiting {
            line,
            stopped: false,
        });
    }

    /// Gives a `stop` to the last work waiting (a `go` or `perft`) that
    /// has none yet, as a script that sent them in order meant; `false`
    /// where there is none, so the `stop` is the work's under way.
    fn stop_waiting_work(&mut self) -> bool {
        let starts_work = |w: &Waiting| {
            w.line
                .as_deref()
                .is_ok_and(|l| matches!(l.split_whitespace().next(), Some("go" | "perft")))
        };
        match self.waiting.iter_mut().rev().find(|w| starts_work(w)) {
            Some(work) if !work.stopped => {
                work.stopped = true;
                true
            }
            _ => false,
        }
    }

    /// Whether the lines waiting may take another.
    fn has_room(&self) -> bool {
        self.waiting_bytes < READ_AHEAD
    }
}

/// What a waiting line counts for against [`READ_AHEAD`].
fn cost(line: &Result<String, Unread>) -> usize {
    LINE_COST + line.as_ref().map_or_else(|e| e.why.len(), String::len)
}

/// Runs the protocol until `quit` or the end of the input. The input is
/// read on a thread of its own, so that `stop`, `quit` and `isready` are
/// heard while a search runs.
pub fn run(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    config: Config,
) -> io::Result<()> {
    let (sender, events) = mpsc::sync_channel(IN_FLIGHT);
    read_on_a_thread(input, sender)?;
    let mut inbox = Inbox::new(events);
    let mut state = State::new(config);
    loop {
        let line = match inbox.next() {
            Err(end) => return end,
            Ok(Ok(line)) => line,
            Ok(Err(e)) => {
                // A position line refused leaves no game set, whatever
                // the reason.
                state.unset |= e.position;
                writeln!(output, "error {}", e.why)?;
                if e.go {
                    writeln!(output, "bestmove none")?;
                }
                output.flush()?;
                continue;
            }
        };
        let (lines, quit) = match answer(&mut state, &line) {
            Reply::Quit => return Ok(()),
            Reply::Lines(lines) => (lines, false),
            Reply::Search(go) => search(&mut state, go, &mut inbox, &mut output)?,
            Reply::Perft(depth) => perft(&state, depth, &mut inbox, &mut output)?,
        };
        for l in lines {
            writeln!(output, "{l}")?;
        }
        output.flush()?;
        if quit {
            return Ok(());
        }
    }
}

/// Reads `input` on a thread of its own into `events`: each line, then how
/// the input ended. It stops after `quit`, and once nobody listens.
fn read_on_a_thread(
    mut input: impl BufRead + Send + 'static,
    events: SyncSender<Event>,
) -> io::Result<()> {
    std::thread::Builder::new()
        .name("engine input".into())
        .spawn(move || {
            let mut lines = AnyNewline::default();
            loop {
                let line = match read_line(&mut input, &mut lines) {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        let _ = events.send(Event::End(Ok(())));
                        return;
                    }
                    Err(e) => {
                        let _ = events.send(Event::End(Err(e)));
                        return;
                    }
                };
                let quit = matches!(&line, Ok(l) if alone(l) == Some("quit"));
                if events.send(Event::Line(line)).is_err() || quit {
                    return;
                }
            }
        })?;
    Ok(())
}

/// The line's one word, where it is one word: `stop`, `quit` and
/// `isready` are heard during a search only so (`stop now` is an error,
/// answered in its turn).
fn alone(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    words.next().is_none().then_some(first)
}

/// Runs `work` on a thread of its own, with a deadline at `until`, while
/// this one reads on: `stop` makes the deadline pass (and the lines after
/// it are read once the work is answered), `quit` too and then ends the
/// program (`true`), `isready` is answered at once, and other
/// lines wait their turn until the work is answered, as do `quit` and
/// `isready` behind one waiting. At the end of the input the work runs its
/// course.
fn while_listening<T: Send>(
    inbox: &mut Inbox,
    output: &mut impl Write,
    (until, unread): (Instant, Option<fn() -> bool>),
    work: impl FnOnce(&dyn Deadline) -> T + Send,
) -> io::Result<(T, bool)> {
    // A `stop` read while this work waited ends it as it starts.
    let stop = AtomicBool::new(std::mem::take(&mut inbox.taken_stopped));
    let mut quit = false;
    let done = std::thread::scope(|scope| {
        let deadline = Stoppable {
            until: Until(until),
            stop: &stop,
        };
        let working = scope.spawn(move || work(&deadline));
        let heard = listen(inbox, &|| working.is_finished(), &stop, &mut quit, output);
        // Unless the answer cannot be written, the work runs its course
        // (or until `stop` or `quit` ended it); past the end of the input,
        // only while someone can still read its answer.
        if heard.is_err() {
            stop.store(true, Ordering::Relaxed);
        } else if let (Some(_), Some(unread)) = (&inbox.ended, unread) {
            while !working.is_finished() && !stop.load(Ordering::Relaxed) {
                if unread() {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(UNREAD_EVERY);
            }
        }
        let done = working
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        heard.map(|()| done)
    })?;
    Ok((done, quit))
}

/// Runs the search `go` asks for while the input is read on
/// ([`while_listening`]): `stop` ends it at once with the best move so far.
fn search(
    state: &mut State,
    go: Go,
    inbox: &mut Inbox,
    output: &mut impl Write,
) -> io::Result<(Vec<String>, bool)> {
    state.catch_up(false);
    // A table sized for the time given: made afresh only when that size
    // changes, so a match at one `movetime` keeps it from move to move.
    if let Some(ms) = go.movetime {
        state.player.fit_to(ms);
    }
    let rules = state.config.rules;
    let (player, history) = (&mut state.player, &state.history);
    let unread = state.config.unread;
    let (best, quit) = while_listening(inbox, output, (go.until, unread), move |deadline| {
        player.best_move(&rules, history, deadline, go.depth)
    })?;
    let mut lines: Vec<String> = state.player.last_search().map(info).into_iter().collect();
    lines.push(match best {
        Some(m) => format!("bestmove {m}"),
        None => "bestmove none".into(),
    });
    Ok((lines, quit))
}

/// Counts perft to `depth` from the game's position while the input is
/// read on ([`while_listening`]): `stop` ends the count, answered
/// `perft N stopped`.
fn perft(
    state: &State,
    depth: u32,
    inbox: &mut Inbox,
    output: &mut impl Write,
) -> io::Result<(Vec<String>, bool)> {
    let pos = state.history[state.history.len() - 1];
    let rules = state.config.rules;
    // No clock: only `stop` or `quit` ends a count early.
    let never = Instant::now() + Duration::from_secs(1 << 32);
    let unread = state.config.unread;
    let (count, quit) = while_listening(inbox, output, (never, unread), move |stop| {
        // Shallow counts need no table (a large one is slow to make).
        let bits = if depth < 6 { 10 } else { 20 };
        Perft::with_table(rules, bits).count_stoppable(&pos, depth, stop)
    })?;
    let line = match count.map(|c| c.get()) {
        Some(Some(n)) => format!("perft {depth} {n}"),
        Some(None) => format!("error perft {depth} overflows 128 bits"),
        None => format!("perft {depth} stopped"),
    };
    Ok((vec![line], quit))
}

/// The lines read while a search or a count runs, until it has ended
/// (`done`), a `stop` or `quit` ends it, or [`READ_AHEAD`] bytes of lines
/// wait for it: behind a line waiting every line but `stop` waits too, so a script's
/// lines are answered in order, its `quit` after its last search, and the
/// rest are left unread until then.
fn listen(
    inbox: &mut Inbox,
    done: &dyn Fn() -> bool,
    stop: &AtomicBool,
    quit: &mut bool,
    output: &mut impl Write,
) -> io::Result<()> {
    while inbox.has_room() && inbox.ended.is_none() && !done() {
        let line = match inbox.events.recv_timeout(LISTEN_EVERY) {
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
            Ok(Event::End(end)) => {
                inbox.ended = Some(end);
                continue;
            }
            Ok(Event::Line(line)) => line,
        };
        // After `stop` or `quit` the work ends at once: the lines behind
        // them are read after its answer, so they are answered after it.
        // `stop` is the last work's that has none: a `go` or `perft`
        // waiting, which it ends as it starts, or else the work under way,
        // even behind lines waiting (a `go depth 40` would otherwise hold
        // them for hours). Behind lines waiting, `quit` and `isready` wait
        // their turn, so a script is answered whole.
        let waiting = !inbox.waiting.is_empty();
        match line.as_deref().map(alone) {
            Ok(Some("stop")) if inbox.stop_waiting_work() => {}
            Ok(Some("stop")) => {
                stop.store(true, Ordering::Relaxed);
                return Ok(());
            }
            Ok(Some("quit")) if !waiting => {
                *quit = true;
                stop.store(true, Ordering::Relaxed);
                return Ok(());
            }
            Ok(Some("quit")) => {
                inbox.wait(line);
                return Ok(());
            }
            // Work already stopped ends at once: `isready` then waits for
            // its answer, as the lines behind a `stop` do.
            Ok(Some("isready")) if !waiting && !stop.load(Ordering::Relaxed) => {
                writeln!(output, "readyok")?;
                output.flush()?;
            }
            Ok(None) if line.as_deref().is_ok_and(|l| l.trim().is_empty()) => {}
            _ => inbox.wait(line),
        }
    }
    Ok(())
}

/// One line, without its end (LF, CRLF or a lone CR, a CR-ended line
/// answered at once; a byte order mark opening the input is dropped);
/// `None` at the end of the input; an error for a line too long or not
/// UTF-8 (the line is read to its end and dropped).
fn read_line(
    input: &mut impl BufRead,
    lines: &mut AnyNewline,
) -> io::Result<Option<Result<String, Unread>>> {
    let Some(line) = lines.read(input, MAX_LINE)? else {
        return Ok(None);
    };
    let position = opens_with(&line.head, "position");
    let go = opens_with(&line.head, "go");
    let Some(bytes) = line.whole(MAX_LINE) else {
        return Ok(Some(Err(Unread {
            why: format!("line longer than {MAX_LINE} bytes"),
            position,
            go,
        })));
    };
    let text = String::from_utf8(bytes).map_err(|_| Unread {
        why: "line is not UTF-8".to_string(),
        position,
        go,
    });
    // A byte order mark opening a line (files joined one after another,
    // each saved with one) is no part of the command.
    Ok(Some(text.map(
        |t| match t.trim_start().strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => t,
        },
    )))
}

fn error(text: impl AsRef<str>) -> Reply {
    Reply::Lines(vec![error_line(text)])
}

fn error_line(text: impl AsRef<str>) -> String {
    format!("error {}", safe::text(text.as_ref()))
}

/// A `go` refused: the error, and the `bestmove` every `go` gets, so a
/// program waiting for it goes on.
fn refused(text: impl AsRef<str>) -> Reply {
    Reply::Lines(vec![error_line(text), "bestmove none".into()])
}

fn answer(state: &mut State, line: &str) -> Reply {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&command, args)) = words.split_first() else {
        return Reply::Lines(Vec::new());
    };
    if let ("quit" | "stop" | "isready" | "newgame", [extra, ..]) = (command, args) {
        return error(format!(
            "{command} takes nothing after it, not {}",
            safe::cut(extra, 40)
        ));
    }
    match command {
        "quit" => Reply::Quit,
        // Nothing to stop: a search heard it while it ran.
        "stop" => Reply::Lines(Vec::new()),
        "isready" => {
            state.catch_up(true);
            Reply::Lines(vec!["readyok".into()])
        }
        "newgame" => {
            state.new_game();
            Reply::Lines(Vec::new())
        }
        "position" => match position(state.config.rules, args) {
            Ok(history) => {
                state.history = history;
                state.unset = false;
                Reply::Lines(Vec::new())
            }
            Err(e) => {
                state.unset = true;
                error(e)
            }
        },
        "go" => go(state, args),
        "perft" if state.unset => error(UNSET),
        "perft" => match args {
            [n] => match whole(n, 1..=MAX_PERFT.into()) {
                Ok(d) => Reply::Perft(d as u32),
                Err(Bad::NotANumber) => error(format!(
                    "perft wants a depth, a whole number from 1 to {MAX_PERFT}: {}",
                    safe::cut(n, 40)
                )),
                Err(Bad::OutOfRange) => error(format!(
                    "perft wants a depth from 1 to {MAX_PERFT}: {}",
                    safe::cut(n, 40)
                )),
            },
            _ => error("perft wants one depth: perft N"),
        },
        other => error(format!(
            "unknown command {}: position, go, stop, perft, newgame, isready, quit",
            safe::cut(other, 40)
        )),
    }
}

/// Said by `go` and `perft` after a refused `position` line, until another
/// is taken.
const UNSET: &str = "no position: the last position line was refused";

/// The game a `position` line describes, its start first.
fn position(rules: Setup, args: &[&str]) -> Result<Vec<Position>, String> {
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (rules.start.position(), rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("position fen wants a FEN, such as B:W21-32:B1-12".into());
            }
            let text = rest[..end].join(" ");
            if text.len() > MAX_FEN_TEXT {
                return Err(format!("{} is too long to be a FEN", safe::cut(&text, 40)));
            }
            let pos = match fen::parse(&text) {
                Ok(pos) => pos,
                // `position fen FEN 11-15`: the word `moves` left out.
                Err(_) if end > 1 && fen::parse(rest[0]).is_ok() => {
                    return Err(format!("expected moves, not {}", safe::cut(rest[1], 40)));
                }
                Err(e) => return Err(safe::cut(&e.to_string(), 160)),
            };
            (pos, &rest[end..])
        }
        _ => return Err("position wants startpos or fen FEN, then moves M1 M2 …".into()),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", moves)) => moves,
        Some((other, _)) => return Err(format!("expected moves, not {}", safe::cut(other, 40))),
    };
    if moves.len() > MAX_MOVES {
        return Err(format!("more than {MAX_MOVES} moves"));
    }
    let mut history = vec![start];
    for (i, text) in moves.iter().enumerate() {
        // A move after the rules have ended the game is refused, as
        // `--load` refuses one.
        if let Some(outcome) = rules.outcome(&history) {
            let when = match i {
                0 => "in the position given".to_string(),
                _ => format!("after move {i}"),
            };
            return Err(format!(
                "move {} ({}): the game was over {when}: {}",
                i + 1,
                safe::cut(text, 40),
                game_over(&outcome)
            ));
        }
        let pos = history[history.len() - 1];
        let m = read_move(&rules, &pos, text).map_err(|e| {
            format!(
                "move {} ({}): {}",
                i + 1,
                safe::cut(text, 40),
                safe::cut(&e, 160)
            )
        })?;
        history.push(pos.play(&m));
    }
    Ok(history)
}

/// The legal move `text` names in `pos`, or why it is none. An `x` is held
/// to what it says, as the game holds it: `11x15` is refused where 11-15
/// is a plain move, and a jump that is none of the piece's captures
/// (`23x16x12`) says what it can take rather than that a capture is
/// compulsory. Old books' captures with a dash (`10-26`) are still read.
fn read_move(rules: &Setup, pos: &Position, text: &str) -> Result<Move, String> {
    let typed = text.trim();
    if typed.len() > MAX_MOVE_TEXT {
        return Err(format!("{} is too long to be a move", safe::cut(typed, 40)));
    }
    let read = read_pdn_move(rules, pos, typed).map_err(|e| {
        // A word that is no move at all (`extra`, no digit, or letters run
        // together as no square is written), rather than its pieces split
        // at the `x` read as squares.
        let letters_run = typed
            .as_bytes()
            .windows(2)
            .any(|w| w.iter().all(u8::is_ascii_alphabetic));
        if letters_run || !typed.bytes().any(|b| b.is_ascii_digit()) {
            format!(
                "{} is not a move: write one like 11-15, or 22x15 for a capture",
                safe::cut(typed, 40)
            )
        } else {
            e
        }
    });
    // The C project's players wrote M or C before a move; PDN does not. (A
    // coordinate such as C3 is read first, as a square.)
    if read.is_err()
        && notation::without_letter(rules, pos, typed).is_some()
        && let Some(rest) = notation::after_letter(typed)
    {
        return Err(match read_pdn_move(rules, pos, rest) {
            Ok(m) => format!("{typed}: moves are written without a letter in front: {m}"),
            // `M11x15`: the letter, and then the mark, are both wrong.
            Err(e) => format!("{typed}: moves are written without a letter in front, and {e}"),
        });
    }
    read
}

/// The longest text a FEN may be: 24 pieces, each a king written out, and
/// room to spare.
const MAX_FEN_TEXT: usize = 120;

/// The longest text a move may be: the longest capture, every landing
/// square written out, is shorter.
const MAX_MOVE_TEXT: usize = 40;

/// [`read_move`] for a move in PDN's notation.
fn read_pdn_move(rules: &Setup, pos: &Position, typed: &str) -> Result<Move, String> {
    let marked = typed.contains(['x', 'X']);
    match notation::parse_move(rules, pos, typed) {
        Ok(m) if marked && !m.is_capture() => {
            Err(format!("{typed} is a plain move, not a capture: write {m}"))
        }
        Ok(m) => Ok(m),
        Err(e) => Err(notation::why_not(rules, pos, typed, e)),
    }
}

fn go(state: &mut State, args: &[&str]) -> Reply {
    let (until, depth, movetime) = match args {
        ["movetime", ms] => match whole(ms, 0..=MAX_MOVETIME) {
            Ok(ms) => (
                Instant::now() + Duration::from_millis(ms),
                MAX_DEPTH,
                Some(ms),
            ),
            Err(bad) => {
                let wants = match bad {
                    Bad::NotANumber => {
                        format!("a whole number of milliseconds, 0 to {MAX_MOVETIME}")
                    }
                    Bad::OutOfRange => format!("0 to {MAX_MOVETIME} ms"),
                };
                return refused(format!("go movetime wants {wants}: {}", safe::cut(ms, 40)));
            }
        },
        ["depth", n] => match whole(n, 1..=MAX_DEPTH.into()) {
            // A far deadline: the depth ends the search.
            Ok(d) => (
                Instant::now() + Duration::from_secs(1 << 32),
                d as u32,
                None,
            ),
            Err(bad) => {
                let wants = match bad {
                    Bad::NotANumber => "a whole number, ",
                    Bad::OutOfRange => "",
                };
                return refused(format!(
                    "go depth wants {wants}1 to {MAX_DEPTH}: {}",
                    safe::cut(n, 40)
                ));
            }
        },
        [kind @ ("movetime" | "depth")] => {
            return refused(format!(
                "go {kind} wants a number: go movetime MS or go depth N"
            ));
        }
        [kind @ ("movetime" | "depth"), n, extra, ..] => {
            return refused(format!(
                "go {kind} {} takes nothing after it, not {}",
                safe::cut(n, 40),
                safe::cut(extra, 40)
            ));
        }
        _ => return refused("go wants movetime MS or depth N"),
    };
    if state.unset {
        return Reply::Lines(vec![format!("info string {UNSET}"), "bestmove none".into()]);
    }
    let rules = state.config.rules;
    if let Some(outcome) = rules.outcome(&state.history) {
        return Reply::Lines(vec![
            format!("info string game over: {}", game_over(&outcome)),
            "bestmove none".into(),
        ]);
    }
    Reply::Search(Go {
        until,
        depth,
        movetime,
    })
}

/// Why a number was refused.
enum Bad {
    /// Not digits alone.
    NotANumber,
    /// Digits, however many, outside the range.
    OutOfRange,
}

/// `text` as a whole number in `range`: digits alone, a plus sign or
/// spaces, decimals or exponents are not numbers here.
fn whole(text: &str, range: RangeInclusive<u64>) -> Result<u64, Bad> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad::NotANumber);
    }
    text.parse::<u64>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or(Bad::OutOfRange)
}

/// How the rules ended the game, after `info string game over:`.
fn game_over(outcome: &Outcome<Side>) -> String {
    match *outcome {
        Outcome::Win { winner, how } if how == how::NO_MOVES => {
            format!("{winner} wins, {} has no move", winner.other())
        }
        Outcome::Win { winner, how } => format!("{winner} wins ({how})"),
        Outcome::Draw { how } if how == how::REPETITION => "draw by threefold repetition".into(),
        Outcome::Draw { how } if how == how::FORTY_MOVES => "draw by the forty-move rule".into(),
        Outcome::Draw { how } => format!("draw ({how})"),
    }
}

/// The search's line before `bestmove`: the last depth it finished, the
/// positions it visited, its score for the side to move (`cp` hundredths
/// of a man, or `win`/`loss` in so many plies) and the line it expects.
fn info(report: &Report) -> String {
    let score = match report.score {
        Score::Points(v) => format!("cp {v}"),
        Score::Win(plies) => format!("win {plies}"),
        Score::Loss(plies) => format!("loss {plies}"),
    };
    let mut line = format!(
        "info depth {} nodes {} score {score}",
        report.depth, report.nodes
    );
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for m in &report.pv {
            line.push_str(&format!(" {m}"));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(script: &str) -> String {
        talk_with(1, None, script)
    }

    /// A position out of the book with a choice of moves: the engine searches.
    const SEARCHED: &str = "position fen W:W21,22,23,24,25:B5,9,10,11,12";

    /// The answers to `script`, or `None` when they take longer than ten
    /// seconds (a bound no sound run comes near, so never flaky).
    fn talk_within_ten_seconds(script: &str) -> Option<String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let script = script.to_string();
        std::thread::spawn(move || {
            let _ = tx.send(talk(&script));
        });
        rx.recv_timeout(Duration::from_secs(10)).ok()
    }

    /// One thread, seed 1, no book and no database: the engine alone.
    fn bare_engine() -> Config {
        Config {
            rules: Setup::STANDARD,
            threads: 1,
            seed: 1,
            book: false,
            endgame: None,
            unread: None,
        }
    }

    /// The engine's answers to `script`, seeded, with a database if given.
    fn talk_with(seed: u64, endgame: Option<Arc<Endgame>>, script: &str) -> String {
        let config = Config {
            rules: Setup::STANDARD,
            threads: 1,
            seed,
            book: true,
            endgame: endgame.map(EndgameSource::Ready),
            unread: None,
        };
        let mut out = Vec::new();
        run(
            io::Cursor::new(script.as_bytes().to_vec()),
            &mut out,
            config,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_each_command() {
        let out = talk(
            "isready\nposition startpos\nperft 2\nposition startpos moves 11-15 23-19\ngo depth 3\nquit\nisready\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "readyok");
        assert_eq!(lines[1], "perft 2 49");
        assert!(lines[2].starts_with("bestmove "), "{out}");
        assert_eq!(lines.len(), 3, "nothing after quit: {out}");
    }

    #[test]
    fn a_search_says_its_depth_nodes_score_and_line_before_its_move() {
        // Out of the book, with a choice of moves: the search's line first.
        let out = talk("position fen W:W21,22,23,24,25:B5,9,10,11,12\ngo depth 6\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        let words: Vec<&str> = lines[0].split(' ').collect();
        assert_eq!(words[..3], ["info", "depth", "6"], "{out}");
        assert_eq!(words[3], "nodes", "{out}");
        assert!(words[4].parse::<u64>().is_ok_and(|n| n > 100), "{out}");
        assert_eq!(words[5], "score", "{out}");
        assert!(["cp", "win", "loss"].contains(&words[6]), "{out}");
        assert!(words[7].parse::<i32>().is_ok(), "{out}");
        assert_eq!(words[8], "pv", "{out}");
        assert!(words.len() > 9, "{out}");
        // The move played is the line's first.
        assert_eq!(lines[1], format!("bestmove {}", words[9]), "{out}");
        // A book move or the only move is played without a search.
        let book = talk("position startpos\ngo movetime 10\n");
        assert!(
            book.starts_with("bestmove ") && book.lines().count() == 1,
            "{book}"
        );
    }

    #[test]
    fn captures_name_every_landing() {
        let out = talk("position fen B:W19,27:B15 \ngo depth 2\n");
        assert_eq!(out, "bestmove 15x24x31\n");
    }

    #[test]
    fn bad_lines_get_errors_and_change_nothing_but_a_refused_game() {
        let long = "x".repeat(MAX_LINE + 5);
        // The other bad lines change nothing; a refused position leaves no
        // game set until the next position line.
        let script = format!(
            "position fen W:W99:B1\nfrobnicate\ngo movetime -4\n{long}\nperft 0\nposition startpos moves 11-15 11-15\n\u{1b}[2J\nposition startpos\nperft 1\n"
        );
        let out = talk(&script);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 9, "{out}");
        // A refused go still gets its bestmove.
        assert_eq!(lines[3], "bestmove none", "{out}");
        let errors = [&lines[..3], &lines[4..8]].concat();
        assert!(errors.iter().all(|l| l.starts_with("error ")), "{out}");
        assert!(lines[6].contains("move 2 (11-15)"), "{out}");
        assert!(lines[4].contains("longer than"), "{out}");
        assert!(!out.contains('\u{1b}'), "{out}");
        assert_eq!(lines[8], "perft 1 7");
    }

    #[test]
    fn a_position_line_too_long_to_read_leaves_no_game_set_either() {
        let long = "11-15 ".repeat(MAX_LINE / 6 + 1);
        let out = talk(&format!(
            "position fen W:W18:B1\n  position startpos moves {long}\ngo depth 2\n\
             position fen W:W18:B1\nperft {long}\nperft 1\n"
        ));
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "error line longer than 16384 bytes",
                "info string no position: the last position line was refused",
                "bestmove none",
                // Another line too long changes nothing.
                "error line longer than 16384 bytes",
                "perft 1 2",
            ],
            "{out}"
        );
        // However many blanks open it, and after a byte order mark.
        let blanks = format!(
            "\u{feff}{}\u{a0}\u{b}\u{2003}\u{3000}\u{85}",
            " ".repeat(MAX_LINE + 1)
        );
        let out = talk(&format!(
            "position fen W:W18:B1\n{blanks}position startpos moves {long}\ngo depth 2\n\
             \u{feff}position fen W:W18:B1\ngo depth 2\n\
             position fen W:W18:B1\n\u{feff}position startpos moves {long}\ngo depth 2\n"
        ));
        assert_eq!(
            out.lines()
                .filter(|l| !l.starts_with("info depth"))
                .collect::<Vec<_>>(),
            [
                "error line longer than 16384 bytes",
                "info string no position: the last position line was refused",
                "bestmove none",
                "bestmove 18-14",
                "error line longer than 16384 bytes",
                "info string no position: the last position line was refused",
                "bestmove none",
            ],
            "{out}"
        );
        let opens_position = |bytes: &[u8]| opens_with(bytes, "position");
        assert!(opens_position(b"position \xff"));
        assert!(opens_position(b"\tposition"));
        assert!(opens_position(b" \xef\xbb\xbf position"));
        assert!(!opens_position(b"positions"));
        assert!(!opens_position(b"go position"));
    }

    #[test]
    fn a_go_line_too_long_or_not_utf8_still_gets_its_bestmove() {
        let blanks = " ".repeat(MAX_LINE + 1);
        let mut script =
            format!("position startpos\ngo depth 2{blanks}\ngone{blanks}\n").into_bytes();
        script.extend_from_slice(b" go movetime 10 \xff\nperft 1\n");
        // After a blank a line's words are split at, not only ASCII ones.
        script.extend_from_slice(format!("go\u{a0}{blanks}\n").as_bytes());
        script.extend_from_slice("\u{3000}go\u{2003}".as_bytes());
        script.extend_from_slice(b"\xff\n");
        script.extend_from_slice(b"go\xc2\xa0\xff\n");
        let mut out = Vec::new();
        run(io::Cursor::new(script), &mut out, bare_engine()).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "error line longer than 16384 bytes",
                "bestmove none",
                // Not this one: its first word is no `go`.
                "error line longer than 16384 bytes",
                "error line is not UTF-8",
                "bestmove none",
                "perft 1 7",
                "error line longer than 16384 bytes",
                "bestmove none",
                "error line is not UTF-8",
                "bestmove none",
                "error line is not UTF-8",
                "bestmove none",
            ],
            "{out}"
        );
    }

    #[test]
    fn a_number_that_is_not_one_is_told_apart_from_one_out_of_range() {
        let out = talk(
            "go movetime abc\ngo movetime 1e3\ngo movetime 86400001\ngo depth x\n\
             go depth 65\nperft +3\nperft 15\n",
        );
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "error go movetime wants a whole number of milliseconds, 0 to 86400000: abc",
                "bestmove none",
                "error go movetime wants a whole number of milliseconds, 0 to 86400000: 1e3",
                "bestmove none",
                "error go movetime wants 0 to 86400000 ms: 86400001",
                "bestmove none",
                "error go depth wants a whole number, 1 to 64: x",
                "bestmove none",
                "error go depth wants 1 to 64: 65",
                "bestmove none",
                "error perft wants a depth, a whole number from 1 to 14: +3",
                "error perft wants a depth from 1 to 14: 15",
            ],
            "{out}"
        );
    }

    #[test]
    fn a_lost_position_has_no_move() {
        let over = "info string game over: white wins, black has no move\nbestmove none\n";
        assert_eq!(talk("position fen B:W18:B\ngo depth 2\n"), over);
        assert_eq!(talk("position fen B:W5,6,9,10:B1\ngo movetime 10\n"), over);
    }

    #[test]
    fn in_database_positions_the_line_starts_with_the_move_played() {
        // The player picks at random among moves of equal exact value; the
        // line it reports must be the one from the move it plays.
        let db = Arc::new(Endgame::build(4, Setup::STANDARD));
        let positions = [
            "W:WK32:BK1,K2",
            "B:WK32:BK1,K2",
            "B:WK20:BK1,K2",
            "W:WK14:BK1,K30",
            "B:WK28:BK1,K2,K3",
            "W:WK28:BK1,K2,K3",
            "B:WK6,K30:BK1,K2",
        ];
        let script: String = positions
            .iter()
            .map(|p| format!("position fen {p}\ngo depth 10\ngo depth 10\n"))
            .collect();
        let mut lines_checked = 0;
        for seed in 1..=4 {
            let out = talk_with(seed, Some(Arc::clone(&db)), &script);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 4 * positions.len(), "{out}");
            for pair in lines.chunks(2) {
                let pv = pair[0].split(" pv ").nth(1).unwrap_or_default();
                let first = pv.split(' ').next().unwrap_or_default();
                assert!(!first.is_empty(), "{out}");
                assert_eq!(pair[1], format!("bestmove {first}"), "{out}");
                lines_checked += 1;
            }
        }
        assert_eq!(lines_checked, 8 * positions.len());
    }

    #[test]
    fn a_capture_mark_on_a_plain_move_is_refused() {
        let out = talk("position startpos moves 11x15\nposition startpos moves 11-15 24x20\n");
        assert_eq!(
            out,
            "error move 1 (11x15): 11x15 is a plain move, not a capture: write 11-15\n\
             error move 2 (24x20): 24x20 is a plain move, not a capture: write 24-20\n"
        );
        // A capture written with a dash, as old books do, is still read.
        assert_eq!(
            talk("position fen B:W14,22:B10 moves 10-26\nperft 1\n"),
            "perft 1 0\n"
        );
    }

    #[test]
    fn a_malformed_capture_gets_its_true_reason() {
        let out = talk(
            "position startpos moves 11-15 24-20 15-19 23x16x12\n\
             position fen B:W10:B6,7 moves 7x1\n\
             position fen B:W10:B1,6,7 moves 1x10\n\
             position fen B:W10:B6,7 moves 6-9\n\
             position fen B:W26,27:B22 moves 22x31x24\n\
             position startpos moves 11-15 24-20 15-19 23x16\nperft 1\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "error move 4 (23x16x12): 23x16x12 is no capture here: the piece on 23 can take 23x16",
                "error move 1 (7x1): 7x1 is no capture here: the piece on 7 can take 7x14",
                "error move 1 (1x10): 1x10 is no capture here: the capture is 6x15 or 7x14",
                "error move 1 (6-9): a capture is compulsory: 6x15 or 7x14",
                "error move 1 (22x31x24): a man crowned ends its move: 22x31x24 stops at 22x31",
                "perft 1 1",
            ],
            "{out}"
        );
    }

    #[test]
    fn a_finished_game_is_answered_game_over() {
        // White's king and Black's go back and forth: the start a third time.
        let out = talk(
            "position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32 1-5 32-27 5-1 27-32\ngo depth 5\n\
             position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32 1-5 32-27 5-1\ngo depth 5\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[..2],
            [
                "info string game over: draw by threefold repetition",
                "bestmove none"
            ],
            "{out}"
        );
        assert!(lines[3].starts_with("bestmove 27-"), "{out}");
        // Forty moves each with kings, no capture offered, each move to the
        // position seen least so far: none comes a third time.
        let rules = Setup::STANDARD;
        let start = fen::parse("B:WK29,K32:BK1,K4").unwrap();
        let mut history = vec![start];
        let mut moves = Vec::new();
        while moves.len() < 80 {
            let here = history[history.len() - 1];
            let seen = |p: Position| history.iter().filter(|&&h| h == p).count();
            let m = rules
                .moves(&here)
                .into_iter()
                .filter(|m| rules.moves(&here.play(m)).iter().all(|r| !r.is_capture()))
                .min_by_key(|m| seen(here.play(m)))
                .unwrap();
            assert!(seen(here.play(&m)) < 2, "{}", moves.join(" "));
            moves.push(m.to_string());
            history.push(here.play(&m));
        }
        let game = |plies: usize| {
            format!(
                "position fen B:WK29,K32:BK1,K4 moves {}\ngo depth 3\n",
                moves[..plies].join(" ")
            )
        };
        assert_eq!(
            talk(&game(80)),
            "info string game over: draw by the forty-move rule\nbestmove none\n"
        );
        let out = talk(&game(79));
        let last = out.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("bestmove ") && last != "bestmove none",
            "{out}"
        );
        assert!(!out.contains("game over"), "{out}");
    }

    #[test]
    fn moves_after_the_end_of_a_game_are_refused() {
        let out = talk(
            "position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32 1-5 32-27 5-1 27-32 1-5\n\
             position fen B:W28:B24,15 moves 15-19 28-24\n\
             position fen W:W:B1 moves 1-5\n\
             go movetime 50\n\
             perft 1\n\
             position startpos\n\
             perft 1\n",
        );
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "error move 9 (1-5): the game was over after move 8: draw by threefold repetition",
                "error move 2 (28-24): the game was over after move 1: black wins, white has no move",
                "error move 1 (1-5): the game was over in the position given: black wins, white has no move",
                // Nothing is searched or counted for a game not known.
                "info string no position: the last position line was refused",
                "bestmove none",
                "error no position: the last position line was refused",
                "perft 1 7",
            ],
            "{out}"
        );
    }

    #[test]
    fn stop_ends_a_search_at_once_with_its_best_move() {
        let go = format!("{SEARCHED}\ngo movetime 60000\n");
        let out = talk_within_ten_seconds(&format!("{go}stop\n")).expect("stopped at once");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(lines[0].starts_with("info depth "), "{out}");
        let first = lines[0]
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        assert_eq!(Some(&lines[1][9..]), first, "{out}");
        // After `stop`, `isready` is answered after the search's move.
        let out = talk_within_ten_seconds(&format!("{go}stop\nisready\n")).expect("stopped");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].starts_with("bestmove "), "{out}");
        assert_eq!(lines[2], "readyok", "{out}");
        // `isready` is answered at once; other lines wait their turn.
        let out = talk_within_ten_seconds(&format!("{go}isready\nstop\nperft 1\nperft 2\n"))
            .expect("stopped at once");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[0], "readyok", "{out}");
        assert!(lines[2].starts_with("bestmove "), "{out}");
        assert_eq!(lines[3..], ["perft 1 7", "perft 2 49"], "{out}");
        // `quit` ends the search, answered, and the program: nothing after.
        let out = talk_within_ten_seconds(&format!("{go}quit\nperft 1\n")).expect("quit at once");
        assert!(
            out.lines()
                .last()
                .is_some_and(|l| l.starts_with("bestmove ")),
            "{out}"
        );
        assert!(!out.contains("perft"), "{out}");
        // Behind a line waiting, `quit` waits too: a script is answered whole.
        let script = format!("{SEARCHED}\ngo depth 4\nperft 1\ngo depth 3\nquit\nperft 2\n");
        let out = talk_within_ten_seconds(&script).expect("answered");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 3, "{out}");
        assert!(answers[0].starts_with("bestmove "), "{out}");
        assert_eq!(answers[1], "perft 1 7", "{out}");
        assert!(answers[2].starts_with("bestmove "), "{out}");
        // Behind lines waiting, `stop` still ends the search under way,
        // however deep it was sent; the lines keep their order.
        let script =
            format!("{SEARCHED}\ngo depth 60\nposition startpos\nisready\nstop\nperft 2\n");
        let out = talk_within_ten_seconds(&script).expect("stopped at once");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 3, "{out}");
        assert!(answers[0].starts_with("bestmove "), "{out}");
        assert_eq!(answers[1..], ["readyok", "perft 2 49"], "{out}");
    }

    #[test]
    fn a_stop_behind_a_waiting_search_is_that_search_s() {
        // The first search runs its time; the `stop` sent after the second
        // `go` ends the second, which would otherwise search for hours.
        let script = format!("{SEARCHED}\ngo movetime 300\ngo depth 60\nstop\nperft 1\n");
        let started = std::time::Instant::now();
        let out = talk_within_ten_seconds(&script).expect("the second search stopped");
        assert!(started.elapsed() >= Duration::from_millis(300), "{out}");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 3, "{out}");
        assert!(
            answers[..2].iter().all(|a| a.starts_with("bestmove ")),
            "{out}"
        );
        assert_eq!(answers[2], "perft 1 7", "{out}");
        // Two `stop`s: the waiting search's, then the one under way's.
        let script =
            format!("{SEARCHED}\ngo depth 60\ngo depth 60\nstop\nstop\nisready\nperft 1\n");
        let out = talk_within_ten_seconds(&script).expect("both searches stopped");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 4, "{out}");
        assert!(
            answers[..2].iter().all(|a| a.starts_with("bestmove ")),
            "{out}"
        );
        assert_eq!(answers[2..], ["readyok", "perft 1 7"], "{out}");
        // A count waiting takes its `stop` the same way.
        let script = format!("{SEARCHED}\ngo movetime 100\nperft 14\nstop\nperft 1\n");
        let out = talk_within_ten_seconds(&script).expect("the count stopped");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 3, "{out}");
        assert_eq!(answers[1..], ["perft 14 stopped", "perft 1 7"], "{out}");
    }

    #[test]
    fn a_lone_cr_ends_a_line_and_a_byte_order_mark_is_no_part_of_one() {
        let out = talk("\u{feff}isready\rposition startpos moves 11-15\rgo depth 3\r\r\nquit\r");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 2, "{out}");
        assert_eq!(answers[0], "readyok", "{out}");
        assert!(answers[1].starts_with("bestmove "), "{out}");
    }

    #[test]
    fn a_line_ended_by_a_lone_cr_is_answered_before_the_next_byte() {
        struct Sent(mpsc::Sender<Vec<u8>>);
        impl Write for Sent {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                let _ = self.0.send(bytes.to_vec());
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (reader, mut writer) = io::pipe().unwrap();
        let (tx, rx) = mpsc::channel();
        let config = bare_engine();
        let engine = std::thread::spawn(move || run(io::BufReader::new(reader), Sent(tx), config));
        // A program that ends its lines with CR alone, and waits.
        writer.write_all(b"isready\r").unwrap();
        let mut said = Vec::new();
        while !said.ends_with(b"readyok\n") {
            let more = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("answered with no byte after the CR");
            said.extend(more);
        }
        assert_eq!(said, b"readyok\n");
        drop(writer);
        engine.join().unwrap().unwrap();
    }

    #[test]
    fn a_bare_command_with_words_after_it_is_an_error() {
        let out = talk("isready now\nstop it\nnewgame please\nquit later\nisready\n");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "error isready takes nothing after it, not now",
                "error stop takes nothing after it, not it",
                "error newgame takes nothing after it, not please",
                "error quit takes nothing after it, not later",
                "readyok",
            ],
            "{out}"
        );
        // During a search too: `stop it` waits its turn, `stop` stops.
        let script = format!("{SEARCHED}\ngo depth 60\nstop it\nstop\n");
        let out = talk_within_ten_seconds(&script).expect("stopped at once");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 2, "{out}");
        assert!(answers[0].starts_with("bestmove "), "{out}");
        assert_eq!(answers[1], "error stop takes nothing after it, not it");
    }

    #[test]
    fn stop_is_heard_behind_hundreds_of_lines_waiting() {
        // No work waits, so the `stop` is the search's under way.
        let waiting = "position startpos\nisready\n".repeat(250);
        let script = format!("{SEARCHED}\ngo depth 60\n{waiting}stop\nperft 1\n");
        let out = talk_within_ten_seconds(&script).expect("stopped at once");
        let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
        assert_eq!(answers.len(), 252, "{out}");
        assert!(answers[0].starts_with("bestmove "), "{out}");
        assert!(answers[1..251].iter().all(|&a| a == "readyok"), "{out}");
        assert_eq!(answers[251], "perft 1 7", "{out}");
    }

    #[test]
    fn what_a_refusal_quotes_is_cut_short() {
        let long = "x".repeat(10_000);
        let longish = "y".repeat(200);
        for script in [
            format!("{long}\n"),
            format!("go depth {long}\n"),
            format!("position startpos moves {long}\n"),
            format!("position startpos moves {longish}\n"),
            format!("position fen {longish}\n"),
            format!("position startpos {long}\n"),
            format!("isready {long}\n"),
        ] {
            let out = talk(&script);
            assert!(out.starts_with("error "), "{out}");
            // No more than 40 columns of what was sent, quoted at most twice.
            assert!(out.len() < 140, "{} bytes: {out}", out.len());
        }
    }

    #[test]
    fn a_move_letter_or_a_missing_moves_gets_its_own_reason() {
        assert_eq!(
            talk("position startpos moves M11-15\n"),
            "error move 1 (M11-15): M11-15: moves are written without a letter in front: 11-15\n"
        );
        // The letter is named where the move is no legal one either.
        assert_eq!(
            talk("position startpos moves M22-18\n"),
            "error move 1 (M22-18): M22-18: moves are written without a letter in front, and the piece on 22 (F6) is White's: Black is to move\n"
        );
        assert_eq!(
            talk("position fen B:W18:B14 14x23\n"),
            "error expected moves, not 14x23\n"
        );
        // A coordinate is a square, not a letter: C3-D2 is 11-7 here.
        assert_eq!(
            talk("position fen W:W11,K3:B20 moves C3-D2\nperft 1\n"),
            "perft 1 1\n"
        );
        assert_eq!(
            talk("position startpos moves M11x15\n"),
            "error move 1 (M11x15): M11x15: moves are written without a letter in front, and 11x15 is a plain move, not a capture: write 11-15\n"
        );
        // A FEN written with spaces still reads.
        assert_eq!(talk("position fen B:W18, 19:B14\nperft 1\n"), "perft 1 1\n");
        // Every spelling the game reads, the engine reads: coordinates run
        // together, a colon or a comma between squares.
        let plain = talk("position startpos moves 11-15 22-18 15x22 26x17\nperft 2\n");
        assert!(plain.starts_with("perft 2 "), "{plain}");
        for spelled in ["c3d4 22:18 15x22 26,17", "C3:D4 22-18 15:22 26:17"] {
            let script = format!("position startpos moves {spelled}\nperft 2\n");
            assert_eq!(talk(&script), plain, "{spelled}");
        }
        // A word that is none, and a square alone, each with its reason.
        assert_eq!(
            talk("position startpos moves 11-15 extra\n"),
            "error move 2 (extra): extra is not a move: write one like 11-15, or 22x15 for a capture\n"
        );
        let alone = talk("position startpos moves C3 D4\n");
        assert!(alone.starts_with("error move 1 (C3): "), "{alone}");
        assert!(alone.ends_with("or C3-D4\n"), "{alone}");
    }

    #[test]
    fn go_movetime_sizes_the_table_for_its_time_and_go_depth_keeps_it() {
        let config = bare_engine();
        let mut state = State::new(config);
        assert_eq!(state.player.table_bits(), Some(18));
        let (_sender, events) = mpsc::sync_channel(1);
        let mut inbox = Inbox::new(events);
        let mut out = Vec::new();
        let mut go = |state: &mut State, line: &str| {
            let Reply::Search(go) = answer(state, line) else {
                panic!("{line} is a search");
            };
            let (lines, quit) = search(state, go, &mut inbox, &mut out).unwrap();
            assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
            assert!(!quit);
        };
        go(&mut state, "go movetime 20");
        assert_eq!(state.player.table_bits(), Some(16));
        go(&mut state, "go depth 2");
        assert_eq!(state.player.table_bits(), Some(16));
        go(&mut state, "go movetime 500");
        assert_eq!(state.player.table_bits(), Some(18));
    }

    #[test]
    fn stop_and_quit_end_a_long_perft_count() {
        // Twelve kings fourteen plies deep: minutes of counting.
        let kings = "position fen W:WK1,K2,K3,K4,K5,K6:BK27,K28,K29,K30,K31,K32";
        let out = talk_within_ten_seconds(&format!("{kings}\nperft 14\nisready\nstop\nperft 3\n"))
            .expect("stopped at once");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            ["readyok", "perft 14 stopped", "perft 3 420"],
            "{out}"
        );
        // Lines after `stop` are answered after the count's answer.
        let out = talk_within_ten_seconds(&format!("{kings}\nperft 14\nstop\nisready\n"))
            .expect("stopped at once");
        assert_eq!(out, "perft 14 stopped\nreadyok\n");
        let out = talk_within_ten_seconds(&format!("{kings}\nperft 14\nquit\nperft 1\n"))
            .expect("quit at once");
        assert_eq!(out, "perft 14 stopped\n");
        assert_eq!(
            talk("perft 15\n"),
            "error perft wants a depth from 1 to 14: 15\n"
        );
    }
}
