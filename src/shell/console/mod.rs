//! The line reader and writer: rustyline when both stdin and stdout are
//! terminals, plain lines otherwise. It knows nothing of any game.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use owo_colors::OwoColorize;
use rustyline::error::ReadlineError;
use rustyline::history::MemHistory;
use rustyline::{ColorMode, CompletionType, Config, Editor, EventHandler, KeyEvent};

use super::safe;
use super::signals::{self, Farewell};

mod colour;
mod completion;
mod read;
mod screen;

use crate::shell::lines::AnyNewline;
pub use colour::{ColorChoice, Terminal, dumb_terminal};
use completion::{Answers, Capped, Overflow, Redraw};
pub use completion::{Quit, shown_typed, unsafe_line};
use read::{WatchedStdin, check, read_capped};
pub use read::{error_columns, terminal_columns, terminal_rows};
use screen::Screen;

/// Writes a line to stderr, wrapped at word boundaries where stderr is a
/// terminal too narrow for it. Nothing is said if stderr has gone.
pub fn error_line(text: &str) {
    let text = match read::error_columns() {
        Some(columns) => safe::wrap(text, columns),
        None => text.to_string(),
    };
    let _ = writeln!(io::stderr(), "{text}");
}

/// Standard output, whose errors say whose they are: `cannot write to
/// standard output: No space left on device`, not the system's bare words
/// (`>/dev/full`). Their kind is kept, so a reader gone is still told apart.
pub fn stdout() -> NamedOut<io::Stdout> {
    NamedOut(io::stdout())
}

/// A writer whose errors name standard output: see [`stdout`].
pub struct NamedOut<W>(W);

impl<W: Write> NamedOut<W> {
    fn named(e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
    }
}

impl<W: Write> Write for NamedOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(Self::named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(Self::named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(Self::named)
    }
}

/// Whether standard output leads nowhere any more: a pipe whose reader
/// has gone, or a terminal hung up. Asked without writing or waiting.
pub fn output_unread() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let out = rustix::stdio::stdout();
    let mut fds = [PollFd::new(&out, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&now)).is_ok()
        && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}

/// The longest line read, in bytes; the rest of a longer line is skipped.
pub const MAX_LINE: usize = 100;

/// The most columns of what was typed a refusal quotes (between double
/// quotes): the rest is cut, with `…`.
const QUOTED: usize = 40;

/// The longest line the line editor holds, in bytes: a paste longer than
/// that (a megabyte sent as keys, with no bracketed-paste marks) is counted
/// past it, not kept, so each key costs the same and Ctrl-C is read at
/// once. Enter refuses it anyway, saying its whole length.
const EDITED_LINE: usize = 1024;

/// What came back from a question.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Reply {
    /// A line of text, without its line ending.
    Line(String),
    /// A line that cannot be taken as text.
    Bad(BadLine),
    /// End of input, Ctrl-C or Ctrl-D: the player has gone.
    End,
}

/// Why a line was refused before any game saw it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BadLine {
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// Longer than the console takes: the length, and the most it takes.
    TooLong(usize, usize),
    /// Control characters, such as escape codes.
    Control,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadLine::NotUtf8 => write!(f, "That line is not valid UTF-8 text; type plain text."),
            BadLine::TooLong(n, cap) => write!(
                f,
                "That line is {n} bytes long; a line here can be at most {cap}."
            ),
            BadLine::Control => {
                write!(f, "That line holds control characters; type plain text.")
            }
        }
    }
}

/// A line being typed and the cursor's place in it, in bytes.
#[derive(Clone, Debug, Default)]
pub(super) struct Typed {
    pub(super) line: String,
    pub(super) cursor: usize,
}

impl Typed {
    /// The line before the cursor and after it, as the editor takes them.
    fn split(&self) -> (&str, &str) {
        let at = self.cursor.min(self.line.len());
        match (self.line.get(..at), self.line.get(at..)) {
            (Some(left), Some(right)) => (left, right),
            _ => (&self.line, ""),
        }
    }
}

enum Reader {
    /// rustyline, at a terminal; `typed` holds the line and the cursor's
    /// place in it when Ctrl-L asks for a redraw.
    Editor {
        editor: Box<Editor<Answers, MemHistory>>,
        typed: Arc<Mutex<Option<Typed>>>,
        /// What was typed when Ctrl-L handed the redraw to the caller: the
        /// next question starts with it.
        retyped: Typed,
        /// Keys typed past [`EDITED_LINE`] and dropped (see [`Capped`]).
        overflow: Arc<Mutex<Overflow>>,
    },
    /// Plain lines. `echo` repeats each line after its prompt, for scripts;
    /// a dumb terminal echoes what is typed itself.
    Plain {
        input: Box<dyn BufRead + Send>,
        echo: bool,
        newlines: AnyNewline,
    },
    /// Lines that come whole from elsewhere (a network connection).
    Source {
        source: Box<dyn LineSource>,
        echo: bool,
    },
}

/// Lines that arrive whole, already cut to length: a network connection's.
pub trait LineSource: Send {
    /// The next line without its ending, at most `cap` bytes of it kept (and
    /// one more, to tell it was longer), with its whole length; `None` at the
    /// end of input, or when the session is woken to look at its game again.
    fn next_line(&mut self, cap: usize) -> io::Result<Option<(Vec<u8>, usize)>>;

    /// Whether the far end's cursor is at the start of a line after a read
    /// that gave no line (its terminal showed `^C` and a new line itself).
    fn at_line_start(&self) -> bool {
        false
    }
}

/// How a console over a network connection looks and reads.
#[derive(Clone)]
pub struct Remote {
    /// Colour and bold.
    pub colour: bool,
    /// Lines are echoed after their prompts (a script); a terminal's far end
    /// echoes as it is typed.
    pub echo: bool,
    /// A person at a terminal: the screen is cleared before boards.
    pub clears: bool,
    /// The screen's width, when known.
    pub columns: Option<Columns>,
    /// The longest line taken, in bytes.
    pub max_line: usize,
    /// Questions are printed (else a machine reads: nothing but what the
    /// session writes itself).
    pub prompts: bool,
}

/// How the conversation looks: settled once from the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    /// Colour and bold.
    pub colour: bool,
    /// Never clear the screen.
    pub no_clear: bool,
    /// A teletype: paper scrolls (no clearing), no colour or bold, lines of at
    /// most 72 columns.
    pub teletype: bool,
    /// Pace the output at this many baud (characters a second are a tenth).
    pub baud: Option<u32>,
}

/// The width a script's lines are wrapped at.
pub const SCRIPT_WIDTH: usize = 80;

/// The width of a teletype's paper.
pub const TELETYPE_WIDTH: usize = 72;

/// The fewest rows a screen is paged at: on fewer, a page would hold too
/// little to read, and the player scrolls back instead.
pub const MIN_PAGE: usize = 6;

/// Where a console's width comes from: a terminal's size as it is now, or
/// nothing (a script's paper). Handed in, never looked up by the console.
pub type Columns = Arc<dyn Fn() -> Option<usize> + Send + Sync>;

/// The conversation's two ends. A console owns everything a session reads
/// and writes: its input and output, its look, its width's source, the flag
/// that says stop (Ctrl-C), and what to say if a signal ends it. It reaches
/// for nothing of the process, so many run at once (see `tests/sessions.rs`).
pub struct Console {
    reader: Reader,
    out: Box<dyn Write + Send>,
    look: Look,
    /// A person at a terminal (else a script: prompts printed, lines echoed).
    interactive: bool,
    /// The screen's width, when known.
    columns: Option<Columns>,
    /// The screen's height, when known (a terminal of this process's own).
    rows: Option<Columns>,
    /// Set when the session must stop (Ctrl-C between prompts).
    stop: Arc<AtomicBool>,
    /// What a signal that ends the session says last.
    farewell: Farewell,
    /// The last line read, kept in the editor's history unless refused.
    unrefused: Option<String>,
    clears: bool,
    /// Notes said since a person last answered, said again after a clear.
    carried: Vec<String>,
    /// Everything written since the screen was last cleared, for Ctrl-L.
    screen: Screen,
    /// Whether the line after a Ctrl-C has been started.
    broke_line: bool,
    /// Lines refused since the start: a script's exit status tells.
    refused: usize,
    /// The longest line taken, in bytes.
    max_line: usize,
    /// Questions are printed.
    prompts: bool,
}

/// What Tab offers at a question.
#[derive(Clone, Copy, Default)]
pub struct Offer<'a> {
    /// The answers, words split by spaces (a move's squares, `11 15`).
    pub answers: &'a [String],
    /// Other spellings of the answers (a move's squares by their
    /// coordinates, `C3 D4`), offered once something is typed.
    pub spellings: &'a [String],
    /// Answers of several words that are no capture: after a capture mark
    /// (`11x`) they are not offered.
    pub unmarked: &'a [String],
}

/// A line as a script's echo shows it, in at most `room` columns: controls,
/// the characters that draw as nothing and spaces other than the plain one
/// escaped, so a refused line shows what was in it; quotes and backslashes
/// as typed. A line too long is cut between characters (an escape is one),
/// and ends `...`.
fn echoed(line: &str, room: usize) -> String {
    let pieces: Vec<String> = line
        .chars()
        .map(|c| {
            if c.is_whitespace() && c != ' ' {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                safe::text(c.encode_utf8(&mut [0; 4]))
            }
        })
        .collect();
    safe::cut_pieces(&pieces, room, "...")
}

/// A question for the line editor, laid out for a width: the lines before
/// its last, written first, and its last line, the editor's prompt (plain
/// and styled). The editor redraws its prompt after listing Tab's choices:
/// a prompt of one line never writes over them.
struct Asking {
    /// The question as asked.
    asked: String,
    head: String,
    last: String,
    styled: String,
}

/// The columns an answer is given after its question, to be typed in a
/// terminal or echoed in a script: a question that would leave fewer is
/// wrapped earlier, at a word, so that its last line leaves these.
const ANSWER_ROOM: usize = 8;

/// `asked` wrapped at words to `width` columns, its last line broken
/// earlier where it would leave fewer than `room` columns after it.
fn leaving_room(asked: &str, width: usize, room: usize) -> String {
    if safe::width(asked) + room <= width {
        return asked.to_string();
    }
    let wrapped = safe::wrap(asked.trim_end(), width);
    let (head, last) = match wrapped.rfind('\n') {
        Some(end) => wrapped.split_at(end + 1),
        None => ("", wrapped.as_str()),
    };
    // The question's own space after its last line counts as typed on.
    if safe::width(last) + 1 + room <= width {
        return format!("{wrapped} ");
    }
    // Its last word on a line of its own, where that leaves the room.
    match last.rsplit_once(' ') {
        Some((before, word)) if safe::width(word) + 1 + room <= width => {
            format!("{head}{before}\n{word} ")
        }
        _ => format!("{wrapped} "),
    }
}

impl Asking {
    /// The question laid out for `width` columns, its last line leaving
    /// `room` for the answer.
    fn laid_out(asked: &str, width: usize, colour: bool, room: usize) -> Asking {
        let wrapped = leaving_room(asked, width, room);
        let (head, last) = match wrapped.rfind('\n') {
            Some(end) => wrapped.split_at(end + 1),
            None => ("", wrapped.as_str()),
        };
        let bold = |text: &str| {
            if colour && !text.is_empty() {
                text.bold().to_string()
            } else {
                text.to_string()
            }
        };
        Asking {
            asked: asked.to_string(),
            head: bold(head),
            last: last.to_string(),
            styled: bold(last),
        }
    }
}

/// The columns a console writes to: the paper's, or the screen's as it is
/// now (never under 20), and a teletype's paper on a wider screen.
fn width_of(look: &Look, columns: Option<&Columns>) -> usize {
    let paper = if look.teletype {
        TELETYPE_WIDTH
    } else {
        SCRIPT_WIDTH
    };
    if let Some(columns) = columns {
        let screen = columns().unwrap_or(SCRIPT_WIDTH).max(20);
        return if look.teletype {
            paper.min(screen)
        } else {
            screen
        };
    }
    paper
}

impl Console {
    /// The process's own stdin and stdout, as they are now: see [`Console::terminal`].
    pub fn stdio(look: Look) -> Console {
        Console::terminal(Terminal::detect(), look)
    }

    /// The process's own stdin and stdout, as `terminal` found them once. A
    /// person is at a terminal when both are terminals: then rustyline reads
    /// (plain lines on a dumb terminal), the screen is cleared unless told
    /// not to, and Ctrl-C between prompts is caught. Anything else is a script.
    pub fn terminal(terminal: Terminal, look: Look) -> Console {
        let interactive = terminal.interactive();
        signals::install(terminal);
        let look = Look {
            colour: look.colour && !look.teletype,
            ..look
        };
        let editor = (interactive && !terminal.dumb).then(|| {
            let config = Config::builder()
                // Forced even without colour: rustyline shows the line
                // through the highlighter, which escapes pasted controls,
                // only in a colour mode. The console styles the prompt.
                .color_mode(ColorMode::Forced)
                // Only lines the game took go into the history (see `ask`).
                .auto_add_history(false)
                .completion_type(CompletionType::List)
                // The answers at the first Tab, not after a second.
                .completion_show_all_if_ambiguous(true)
                .build();
            Editor::with_config(config).ok().map(|mut editor| {
                editor.set_helper(Some(Answers::default()));
                let typed = Arc::new(Mutex::new(None));
                editor.bind_sequence(
                    KeyEvent::ctrl('\\'),
                    EventHandler::Conditional(Box::new(Quit)),
                );
                editor.bind_sequence(
                    KeyEvent::ctrl('L'),
                    EventHandler::Conditional(Box::new(Redraw {
                        typed: Arc::clone(&typed),
                    })),
                );
                let overflow = Arc::new(Mutex::new(Overflow::default()));
                editor.bind_sequence(
                    rustyline::Event::Any,
                    EventHandler::Conditional(Box::new(Capped {
                        overflow: Arc::clone(&overflow),
                        most: EDITED_LINE,
                    })),
                );
                Reader::Editor {
                    editor: Box::new(editor),
                    typed,
                    retyped: Typed::default(),
                    overflow,
                }
            })
        });
        let stop = signals::interrupt_flag();
        let reader = match editor.flatten() {
            Some(reader) => {
                signals::editing();
                reader
            }
            // A person at a dumb terminal: Ctrl-C must end the read, which
            // the signal thread alone cannot do.
            None if interactive => Reader::Plain {
                input: Box::new(io::BufReader::new(WatchedStdin {
                    stop: Arc::clone(&stop),
                })),
                echo: false,
                newlines: AnyNewline::default(),
            },
            None => Reader::Plain {
                input: Box::new(io::BufReader::new(io::stdin())),
                echo: true,
                newlines: AnyNewline::default(),
            },
        };
        let clears = matches!(reader, Reader::Editor { .. }) && !look.no_clear && !look.teletype;
        let columns = interactive.then(|| Arc::new(terminal_columns) as Columns);
        // A signal's last words are laid out as this console's.
        let paper = columns.clone();
        signals::farewell_width(Arc::new(move || width_of(&look, paper.as_ref())));
        Console {
            reader,
            out: Box::new(stdout()),
            look,
            interactive,
            columns,
            rows: interactive.then(|| Arc::new(terminal_rows) as Columns),
            stop,
            farewell: signals::farewell(),
            unrefused: None,
            clears,
            carried: Vec::new(),
            screen: Screen::default(),
            broke_line: false,
            refused: 0,
            max_line: MAX_LINE,
            prompts: true,
        }
    }

    /// A scripted console over any reader and writer: prompts printed, lines
    /// echoed, lines wrapped at [`SCRIPT_WIDTH`], its own stop flag and farewell.
    pub fn scripted(
        input: Box<dyn BufRead + Send>,
        out: Box<dyn Write + Send>,
        colour: bool,
    ) -> Console {
        Console {
            reader: Reader::Plain {
                input,
                echo: true,
                newlines: AnyNewline::default(),
            },
            out,
            look: Look {
                colour,
                ..Look::default()
            },
            interactive: false,
            columns: None,
            rows: None,
            stop: Arc::default(),
            farewell: Farewell::default(),
            unrefused: None,
            clears: false,
            carried: Vec::new(),
            screen: Screen::default(),
            broke_line: false,
            refused: 0,
            max_line: MAX_LINE,
            prompts: true,
        }
    }

    /// A console over a network connection: lines from `source`, text to
    /// `out`, looking as `remote` says, with its own stop flag.
    pub fn remote(
        source: Box<dyn LineSource>,
        out: Box<dyn Write + Send>,
        remote: Remote,
    ) -> Console {
        Console {
            reader: Reader::Source {
                source,
                echo: remote.echo,
            },
            out,
            look: Look {
                colour: remote.colour,
                ..Look::default()
            },
            interactive: !remote.echo,
            columns: remote.columns,
            rows: None,
            stop: Arc::default(),
            farewell: Farewell::default(),
            unrefused: None,
            clears: remote.clears,
            carried: Vec::new(),
            screen: Screen::default(),
            broke_line: false,
            refused: 0,
            max_line: remote.max_line,
            prompts: remote.prompts,
        }
    }

    /// From now on neither questions nor echoes are printed: a machine
    /// reads, and takes only what the session writes itself.
    pub fn quiet(&mut self) {
        self.prompts = false;
        if let Reader::Plain { echo, .. } | Reader::Source { echo, .. } = &mut self.reader {
            *echo = false;
        }
    }

    /// The flag that stops this session: set it and the session leaves as
    /// at Ctrl-C, at the next question or while the computer thinks.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Sets what a signal that ends the session says last, or nothing.
    pub fn farewell(&self, line: Option<String>) {
        *self.farewell.lock().unwrap_or_else(|e| e.into_inner()) = line;
    }

    /// The same console with another look: a teletype's paper and pace.
    pub fn with_look(self, look: Look) -> Console {
        Console { look, ..self }
    }

    /// Whether the player pressed Ctrl-C while no question was asked (or
    /// the session was told to stop).
    pub fn interrupted(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Starts a fresh line if Ctrl-C was pressed between prompts, where the
    /// terminal showed `^C` after whatever was there: what is said next
    /// starts on a line of its own.
    pub fn after_interrupt(&mut self) -> io::Result<()> {
        if self.interrupted() && !std::mem::replace(&mut self.broke_line, true) {
            self.say("")?;
        }
        Ok(())
    }

    /// Waits, so a person can follow the computer's moves. `false` if the
    /// player pressed Ctrl-C meanwhile.
    pub fn pause(&mut self, millis: u64) -> bool {
        let end = Instant::now() + Duration::from_millis(millis);
        while !self.interrupted() {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return true;
            }
            std::thread::sleep(left.min(Duration::from_millis(50)));
        }
        false
    }

    /// Whether a person is at a terminal.
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// Whether output is coloured.
    pub fn colour(&self) -> bool {
        self.look.colour
    }

    /// How many lines were refused since the start.
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// The width long sentences are wrapped at: the terminal's, a
    /// teletype's 72 columns, or 80 in a script.
    pub fn width(&self) -> usize {
        width_of(&self.look, self.columns.as_ref())
    }

    /// The screen's height in rows, where a person reads at a terminal of
    /// this process's own that holds at least [`MIN_PAGE`] rows: `None` on
    /// paper (a teletype's, or a script's), where nothing scrolls out of sight.
    pub fn height(&self) -> Option<usize> {
        if self.look.teletype {
            return None;
        }
        self.rows
            .as_ref()
            .and_then(|rows| rows())
            .filter(|&h| h >= MIN_PAGE)
    }

    /// How many lines are on the screen since it was last cleared, as far as
    /// this console knows (none where it never clears).
    pub fn rows_used(&self) -> usize {
        if self.clears {
            self.screen.shown(self.width()).matches('\n').count()
        } else {
            0
        }
    }

    /// Writes text as it is, at the teletype's pace if one is set.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        if self.clears {
            self.screen.raw(text);
        }
        self.emit(text)
    }

    /// Puts text out, at the teletype's pace if one is set.
    fn emit(&mut self, text: &str) -> io::Result<()> {
        let stopped = self.interrupted();
        match self.look.baud {
            // Ctrl-C stops the paper at once: nothing more is printed until
            // the farewell (see `after_interrupt`), and that without pacing.
            Some(_) if stopped && !self.broke_line => Ok(()),
            Some(baud) if baud > 0 && !stopped => {
                let per_char = Duration::from_micros(10_000_000 / u64::from(baud));
                for c in text.chars() {
                    if self.interrupted() {
                        return Ok(());
                    }
                    let mut buf = [0; 4];
                    self.out.write_all(c.encode_utf8(&mut buf).as_bytes())?;
                    self.out.flush()?;
                    std::thread::sleep(per_char);
                }
                Ok(())
            }
            _ => {
                self.out.write_all(text.as_bytes())?;
                self.out.flush()
            }
        }
    }

    /// Writes a line, wrapped at word boundaries to the console's width, a
    /// number never parted from the word it counts (`0 kings`).
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        if self.clears {
            self.screen.said(text);
        }
        // One piece with its line end: a door that keeps a line being typed
        // in sight tells a question (no line end) from a sentence by it.
        let wrapped = safe::wrap_said(text, self.width());
        self.emit(&format!("{wrapped}\n"))
    }

    /// Says why a line was refused, before the question is asked again.
    /// The reason may quote what was typed, so it is made safe first.
    pub fn refuse(&mut self, why: &str) -> io::Result<()> {
        self.refused += 1;
        // A refused line stays out of the editor's history.
        let why = self.quoting_cut(why);
        self.unrefused = None;
        self.say(&safe::text(&why))
    }

    /// `why`, a refusal of the line just read, with what it quotes of that
    /// line in [`QUOTED`] columns at most: the line, or a word of it, where
    /// it stands whole, and else what each pair of double quotes holds.
    pub fn quoting_cut(&self, why: &str) -> String {
        let mut why = why.to_string();
        if let Some(line) = &self.unrefused {
            let line = line.trim();
            for typed in std::iter::once(line).chain(line.split_whitespace()) {
                if safe::width(&safe::text(typed)) > QUOTED {
                    why = why.replace(typed, &safe::cut(typed, QUOTED));
                }
            }
        }
        safe::quotes_cut(&why, QUOTED)
    }

    /// Says a line that should survive the next clear of the screen, such as
    /// a move: it is said now and, in a terminal, again after each clear
    /// until a person has answered a question.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        if self.clears {
            self.carried.push(text.to_string());
            // While nobody answers (the computer playing itself), the latest
            // few are enough.
            if self.carried.len() > 4 {
                self.carried.remove(0);
            }
        }
        self.say(text)
    }

    /// Clears the screen before a board, in a terminal, unless turned off,
    /// and says again the notes a person has not yet answered after.
    pub fn clear(&mut self) -> io::Result<()> {
        if self.clears {
            self.screen.clear();
            self.out.write_all(b"\x1b[H\x1b[2J")?;
            for note in self.carried.clone() {
                self.say(&note)?;
            }
        }
        Ok(())
    }

    /// Asks a question and reads one line. `answers` feeds Tab completion.
    pub fn ask(&mut self, question: &str, answers: &[String]) -> io::Result<Reply> {
        let offer = Offer {
            answers,
            ..Offer::default()
        };
        Ok(self
            .ask_offering_or_redraw(question, &offer, false)?
            .unwrap_or(Reply::End))
    }

    /// [`Console::ask`], with what Tab offers told in full ([`Offer`]),
    /// where the caller can draw its screen again for the window as it is
    /// now (a board, which the console keeps only as text drawn for the
    /// width of its time): `None` when Ctrl-L asks for that. The next
    /// question starts with what was typed.
    pub fn ask_redrawn_by_caller(
        &mut self,
        question: &str,
        offer: &Offer<'_>,
    ) -> io::Result<Option<Reply>> {
        self.ask_offering_or_redraw(question, offer, true)
    }

    fn ask_offering_or_redraw(
        &mut self,
        question: &str,
        offer: &Offer<'_>,
        caller_redraws: bool,
    ) -> io::Result<Option<Reply>> {
        if self.interrupted() {
            return Ok(Some(Reply::End));
        }
        let asked = question;
        // A question wider than the screen wraps at word boundaries too,
        // and one that would leave too little room to answer, earlier.
        let asking = Asking::laid_out(asked, self.width(), self.look.colour, ANSWER_ROOM);
        let reply = if matches!(self.reader, Reader::Editor { .. }) {
            match self.ask_editor(asking, offer, caller_redraws)? {
                Some(reply) => reply,
                None => return Ok(None),
            }
        } else {
            // Printed here, at the paper's pace if there is one.
            if self.prompts {
                self.write(&format!("{}{}", asking.head, asking.styled))?;
            }
            // The echo has the room the question's last line leaves.
            self.ask_plain(&asking.last)?
        };
        if self.clears {
            self.screen.said(&format!(
                "{asked}{}",
                match &reply {
                    Reply::Line(line) => line.as_str(),
                    _ => "",
                }
            ));
        }
        match &reply {
            Reply::Bad(_) => self.refused += 1,
            Reply::Line(line) => {
                // A person has now seen the notes carried over the clears.
                self.carried.clear();
                self.unrefused = Some(line.clone());
            }
            Reply::End => {}
        }
        Ok(Some(reply))
    }

    /// Reads a line with rustyline; Ctrl-L redraws the screen and asks
    /// again, or with `caller_redraws` gives `None` for the caller to.
    fn ask_editor(
        &mut self,
        mut asking: Asking,
        offer: &Offer<'_>,
        caller_redraws: bool,
    ) -> io::Result<Option<Reply>> {
        let (look, columns) = (self.look, self.columns.clone());
        if !asking.head.is_empty() {
            self.out.write_all(asking.head.as_bytes())?;
            self.out.flush()?;
        }
        let Reader::Editor {
            editor,
            typed,
            retyped,
            overflow,
        } = &mut self.reader
        else {
            return Ok(Some(Reply::End));
        };
        *overflow.lock().unwrap_or_else(|e| e.into_inner()) = Overflow::default();
        // The line before this question was taken: Up brings it back.
        if let Some(line) = self.unrefused.take() {
            let _ = editor.add_history_entry(line);
        }
        if let Some(helper) = editor.helper_mut() {
            helper.candidates = offer.answers.to_vec();
            helper.spellings = offer.spellings.to_vec();
            helper.unmarked = offer.unmarked.to_vec();
        }
        let mut initial = std::mem::take(retyped);
        // Ctrl-C from here on is a key the editor reads; one pressed before
        // raised a signal, seen here even if not yet noted.
        let _keys = signals::keys_not_signals();
        if self.stop.load(Ordering::SeqCst) || signals::ctrl_c_raised() {
            return Ok(Some(Reply::End));
        }
        loop {
            let read = editor.readline_with_initial(
                &(asking.last.as_str(), asking.styled.as_str()),
                initial.split(),
            );
            let redraw = typed.lock().unwrap_or_else(|e| e.into_inner()).take();
            match (read, redraw) {
                (Err(ReadlineError::Interrupted), Some(line)) if caller_redraws => {
                    *retyped = line;
                    return Ok(None);
                }
                (Err(ReadlineError::Interrupted), Some(line)) => {
                    // Ctrl-L: the screen again, then the question with what was typed.
                    // Laid out for the screen as it is now: it may have
                    // been resized.
                    initial = line;
                    let width = width_of(&look, columns.as_ref());
                    asking = Asking::laid_out(&asking.asked, width, look.colour, ANSWER_ROOM);
                    self.out.write_all(b"\x1b[H\x1b[2J")?;
                    self.out.write_all(self.screen.shown(width).as_bytes())?;
                    self.out.write_all(asking.head.as_bytes())?;
                    self.out.flush()?;
                }
                // The session was told to stop while the editor read (a
                // SIGINT sent by another program, say): it leaves as Ctrl-C
                // at a prompt does, instead of playing this line.
                (Ok(_), _) if self.stop.load(Ordering::SeqCst) => return Ok(Some(Reply::End)),
                (Ok(line), _) => {
                    let total =
                        std::mem::take(&mut *overflow.lock().unwrap_or_else(|e| e.into_inner()))
                            .length_of(&line);
                    if total > MAX_LINE {
                        return Ok(Some(Reply::Bad(BadLine::TooLong(total, MAX_LINE))));
                    }
                    return Ok(Some(check(line.into_bytes(), MAX_LINE)));
                }
                (Err(ReadlineError::Io(e)), _) if e.kind() == io::ErrorKind::InvalidData => {
                    return Ok(Some(Reply::Bad(BadLine::NotUtf8)));
                }
                (Err(ReadlineError::Io(e)), _) if e.kind() == io::ErrorKind::BrokenPipe => {
                    return Err(e);
                }
                (Err(_), _) => return Ok(Some(Reply::End)),
            }
        }
    }

    /// Reads a plain line; a script's is echoed after its question.
    fn ask_plain(&mut self, question: &str) -> io::Result<Reply> {
        let cap = self.max_line;
        let (read, echo, at_line_start) = match &mut self.reader {
            Reader::Plain {
                input,
                echo,
                newlines,
            } => (read_capped(input.as_mut(), newlines, cap)?, *echo, false),
            Reader::Source { source, echo } => {
                let read = source.next_line(cap)?;
                (read, *echo, source.at_line_start())
            }
            Reader::Editor { .. } => return Ok(Reply::End),
        };
        let reply = match &read {
            None => Reply::End,
            Some((_, total)) if *total > cap => Reply::Bad(BadLine::TooLong(*total, cap)),
            Some((bytes, _)) => check(bytes.clone(), cap),
        };
        if !echo {
            if reply == Reply::End && self.prompts && !at_line_start {
                // End of input leaves the cursor after the prompt.
                self.out.write_all(b"\n")?;
            }
            return Ok(reply);
        }
        let room = self
            .width()
            .saturating_sub(safe::width(question))
            .max(ANSWER_ROOM);
        let shown = match (&reply, read) {
            (Reply::Line(line), _) => line.clone(),
            // A refused line is echoed too, escaped (and a line too long
            // cut), so a transcript shows what was refused.
            (Reply::Bad(_), Some((bytes, _))) => {
                // A line cut short may end inside a character: cut there.
                let whole = match std::str::from_utf8(&bytes) {
                    Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
                    _ => &bytes[..],
                };
                String::from_utf8_lossy(whole).into_owned()
            }
            _ => String::new(),
        };
        self.echo(&shown, room)?;
        Ok(reply)
    }

    /// Echoes a line after its prompt, so a transcript reads like a
    /// conversation: escaped, and cut to fit the line.
    fn echo(&mut self, line: &str, room: usize) -> io::Result<()> {
        let shown = echoed(line, room.min(63));
        self.out.write_all(shown.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn console(input: &'static [u8]) -> Console {
        Console::scripted(Box::new(input), Box::new(io::sink()), false)
    }

    #[test]
    fn scripted_lines_are_read_and_refused_precisely() {
        let mut c = console(b"B1\r\nok\rC2\n\xff\xfe\n\x1b[31m\n");
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("B1".into()));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("ok".into()));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("C2".into()));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Bad(BadLine::NotUtf8));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Bad(BadLine::Control));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::End);
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::End);
    }

    #[test]
    fn a_teletype_paces_its_paper_and_keeps_to_72_columns() {
        let look = Look {
            teletype: true,
            baud: Some(110),
            ..Look::default()
        };
        let mut c = console(b"").with_look(look);
        assert_eq!(c.width(), TELETYPE_WIDTH);
        // 110 baud is 11 characters a second: three take over a quarter second.
        let started = Instant::now();
        c.write("ABC").unwrap();
        assert!(started.elapsed() >= Duration::from_millis(250));
    }

    #[test]
    fn an_echo_is_cut_between_characters_and_measured_in_columns() {
        assert_eq!(echoed("a\"b\\c", 20), "a\"b\\c");
        // An escape is never cut in two.
        assert_eq!(echoed("ab\u{200b}cdef", 12), "ab...");
        assert_eq!(echoed("ab\u{200b}cdef", 13), "ab\\u{200b}...");
        // Wide characters take two columns each.
        assert_eq!(echoed(&"狐".repeat(10), 11), "狐狐狐狐...");
    }

    #[test]
    fn a_question_leaves_room_to_answer_after_its_last_line() {
        let white = "Move from (21, 22, 23, 24)? ";
        assert_eq!(leaving_room(white, 80, 8), white);
        assert_eq!(leaving_room(white, 30, 8), "Move from (21, 22, 23,\n24)? ");
        // A last line that with its space leaves exactly 7 breaks too.
        let hounds = "Move (B1, D1, F1, H1)? ";
        assert_eq!(leaving_room(hounds, 31, 8), hounds);
        assert_eq!(leaving_room(hounds, 30, 8), "Move (B1, D1, F1,\nH1)? ");
        let black = "Move from (9, 10, 11, 12)? ";
        assert_eq!(leaving_room(black, 34, 8), "Move from (9, 10, 11,\n12)? ");
        // Wider than the screen: wrapped at its width, where the last
        // line leaves room enough.
        assert_eq!(leaving_room(black, 20, 8), "Move from (9, 10,\n11, 12)? ");
        let long = "Move from (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)? ";
        assert_eq!(
            leaving_room(long, 24, 8),
            "Move from (1, 2, 3, 4,\n5, 6, 7, 8, 9,\n10)? "
        );
    }

    #[test]
    fn a_megabyte_line_is_refused_and_the_next_line_read() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\nB1");
        let mut c = Console::scripted(
            Box::new(io::Cursor::new(input)),
            Box::new(io::sink()),
            false,
        );
        assert_eq!(
            c.ask("? ", &[]).unwrap(),
            Reply::Bad(BadLine::TooLong(1 << 20, MAX_LINE))
        );
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("B1".into()));
    }
}
