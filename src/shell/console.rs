//! The line reader and writer: rustyline when both stdin and stdout are
//! terminals, plain lines otherwise. It knows nothing of any game.

use std::borrow::Cow;
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

use owo_colors::OwoColorize;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::MemHistory;
use rustyline::validate::Validator;
use rustyline::{ColorMode, CompletionType, Config, Context, Editor, Helper};

use super::signals;

/// The longest line read, in bytes; the rest of a longer line is skipped.
pub const MAX_LINE: usize = 100;

/// How a `--color` choice and the environment decide colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, honouring `NO_COLOR` and `CLICOLOR_FORCE`.
    #[default]
    Auto,
    /// Always colour, even into a pipe.
    Always,
    /// Never colour: the letter board.
    Never,
}

impl ColorChoice {
    /// The one colour decision: the flag, then `NO_COLOR` / `CLICOLOR_FORCE`,
    /// then `TERM=dumb`, then whether stdout is a terminal.
    pub fn decide(self) -> bool {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) => {
                false
            }
            ColorChoice::Auto if set("CLICOLOR_FORCE") => true,
            ColorChoice::Auto if dumb_terminal() => false,
            ColorChoice::Auto => io::stdout().is_terminal(),
        }
    }
}

/// Whether `TERM=dumb` asks for no colour, no screen control and no line editing.
pub fn dumb_terminal() -> bool {
    std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

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
    /// Longer than [`MAX_LINE`] bytes; holds the length.
    TooLong(usize),
    /// Control characters, such as escape codes.
    Control,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadLine::NotUtf8 => write!(f, "That line is not valid UTF-8 text; type plain text."),
            BadLine::TooLong(n) => write!(
                f,
                "That line is {n} bytes long; no answer is longer than {MAX_LINE}."
            ),
            BadLine::Control => {
                write!(f, "That line holds control characters; type plain text.")
            }
        }
    }
}

/// Tab completion from the current question's answers.
#[derive(Default)]
struct Answers {
    candidates: Vec<String>,
}

impl Completer for Answers {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let start = line[..pos].rfind(' ').map_or(0, |i| i + 1);
        let word = line[start..pos].to_ascii_lowercase();
        let found = self
            .candidates
            .iter()
            .filter(|c| c.to_ascii_lowercase().starts_with(&word))
            .map(|c| Pair {
                display: c.clone(),
                replacement: c.clone(),
            })
            .collect();
        Ok((start, found))
    }
}

impl Hinter for Answers {
    type Hint = String;
}

impl Highlighter for Answers {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for Answers {}

impl Helper for Answers {}

enum Reader {
    /// rustyline, at a terminal.
    Editor(Box<Editor<Answers, MemHistory>>),
    /// Plain lines. `echo` repeats each line after its prompt, for scripts;
    /// a dumb terminal echoes what is typed itself.
    Plain { input: Box<dyn BufRead>, echo: bool },
}

/// The conversation's two ends.
pub struct Console {
    reader: Reader,
    out: Box<dyn Write>,
    colour: bool,
    clears: bool,
    /// Notes said since the last clear, said again after it.
    carried: Vec<String>,
    /// Whether the line after a Ctrl-C has been started.
    broke_line: bool,
}

impl Console {
    /// The process's own stdin and stdout. A person is at a terminal when
    /// both are terminals: then rustyline reads (plain lines on a dumb
    /// terminal), the screen is cleared unless `no_clear`, and Ctrl-C between
    /// prompts is caught. Anything else is a script.
    pub fn stdio(colour: bool, no_clear: bool) -> Console {
        let interactive = io::stdin().is_terminal() && io::stdout().is_terminal();
        signals::install(interactive);
        if interactive && dumb_terminal() {
            return Console {
                reader: Reader::Plain {
                    input: Box::new(io::stdin().lock()),
                    echo: false,
                },
                out: Box::new(io::stdout()),
                colour,
                clears: false,
                carried: Vec::new(),
                broke_line: false,
            };
        }
        let editor = interactive.then(|| {
            let config = Config::builder()
                .color_mode(if colour {
                    ColorMode::Forced
                } else {
                    ColorMode::Disabled
                })
                .auto_add_history(true)
                .completion_type(CompletionType::List)
                .build();
            Editor::with_config(config).ok().map(|mut editor| {
                editor.set_helper(Some(Answers::default()));
                editor
            })
        });
        match editor.flatten() {
            Some(editor) => Console {
                reader: Reader::Editor(Box::new(editor)),
                out: Box::new(io::stdout()),
                colour,
                clears: !no_clear,
                carried: Vec::new(),
                broke_line: false,
            },
            None => Console::scripted(Box::new(io::stdin().lock()), Box::new(io::stdout()), colour),
        }
    }

    /// A scripted console over any reader and writer: prompts printed, lines echoed.
    pub fn scripted(input: Box<dyn BufRead>, out: Box<dyn Write>, colour: bool) -> Console {
        Console {
            reader: Reader::Plain { input, echo: true },
            out,
            colour,
            clears: false,
            carried: Vec::new(),
            broke_line: false,
        }
    }

    /// Whether the player pressed Ctrl-C while no question was asked.
    pub fn interrupted(&self) -> bool {
        self.is_interactive() && signals::interrupted()
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
        !matches!(self.reader, Reader::Plain { echo: true, .. })
    }

    /// Whether output is coloured.
    pub fn colour(&self) -> bool {
        self.colour
    }

    /// Writes text as it is.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// Writes a line.
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        self.write(text)?;
        self.write("\n")
    }

    /// Says a line that should survive the next clear of the screen, such as
    /// the computer's move: it is said now and, in a terminal, again after it.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        if self.clears && self.is_interactive() {
            self.carried.push(text.to_string());
        }
        self.say(text)
    }

    /// Clears the screen before a board, in a terminal, unless turned off,
    /// and says again the notes given since the last clear.
    pub fn clear(&mut self) -> io::Result<()> {
        if self.clears && self.is_interactive() {
            self.write("\u{1b}[H\u{1b}[2J")?;
            for note in std::mem::take(&mut self.carried) {
                self.say(&note)?;
            }
        }
        Ok(())
    }

    /// Asks a question and reads one line. `answers` feeds Tab completion.
    pub fn ask(&mut self, question: &str, answers: &[String]) -> io::Result<Reply> {
        if self.interrupted() {
            return Ok(Reply::End);
        }
        let styled = if self.colour {
            question.bold().to_string()
        } else {
            question.to_string()
        };
        match &mut self.reader {
            Reader::Editor(editor) => {
                if let Some(helper) = editor.helper_mut() {
                    helper.candidates = answers.to_vec();
                }
                Ok(match editor.readline(&(question, styled.as_str())) {
                    Ok(line) => check(line.into_bytes()),
                    Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                        Reply::Bad(BadLine::NotUtf8)
                    }
                    Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                        return Err(e);
                    }
                    Err(_) => Reply::End,
                })
            }
            Reader::Plain { input, echo } => {
                let echo = *echo;
                self.out.write_all(styled.as_bytes())?;
                self.out.flush()?;
                let read = read_capped(input.as_mut(), MAX_LINE)?;
                if !echo {
                    if read.is_none() {
                        // End of input leaves the cursor after the prompt.
                        self.say("")?;
                    }
                    return Ok(match read {
                        None => Reply::End,
                        Some((_, total)) if total > MAX_LINE => Reply::Bad(BadLine::TooLong(total)),
                        Some((bytes, _)) => check(bytes),
                    });
                }
                let reply = match read {
                    None => Reply::End,
                    Some((bytes, total)) if total > MAX_LINE => {
                        self.echo(&String::from_utf8_lossy(&bytes))?;
                        return Ok(Reply::Bad(BadLine::TooLong(total)));
                    }
                    Some((bytes, _)) => check(bytes),
                };
                match &reply {
                    Reply::Line(line) => self.echo(line)?,
                    Reply::Bad(_) | Reply::End => self.echo("")?,
                }
                Ok(reply)
            }
        }
    }

    /// Echoes a line after its prompt, so a transcript reads like a conversation.
    fn echo(&mut self, line: &str) -> io::Result<()> {
        let shown: String = line.chars().take(60).flat_map(char::escape_debug).collect();
        let more = if line.chars().count() > 60 { "..." } else { "" };
        self.say(&format!("{shown}{more}"))
    }
}

/// Takes a line's bytes as text, refusing what no game should see.
fn check(bytes: Vec<u8>) -> Reply {
    if bytes.len() > MAX_LINE {
        return Reply::Bad(BadLine::TooLong(bytes.len()));
    }
    match String::from_utf8(bytes) {
        Err(_) => Reply::Bad(BadLine::NotUtf8),
        Ok(line) if line.chars().any(|c| c.is_control() && c != '\t') => {
            Reply::Bad(BadLine::Control)
        }
        Ok(line) => Reply::Line(line),
    }
}

/// Reads one line without its line ending, keeping at most `cap` bytes of it
/// (plus one, to tell it was longer) and skipping the rest; also returns its
/// whole length. `None` at end of input.
fn read_capped(input: &mut dyn BufRead, cap: usize) -> io::Result<Option<(Vec<u8>, usize)>> {
    let mut kept = Vec::new();
    let mut total = 0;
    let mut started = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(started.then_some((kept, total)));
        }
        started = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let line = &buf[..newline.unwrap_or(buf.len())];
        let room = (cap + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&line[..line.len().min(room)]);
        total += line.len();
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            // A CRLF line ending is a line ending, not part of the answer.
            if total == kept.len() && kept.last() == Some(&b'\r') {
                kept.pop();
                total -= 1;
            }
            return Ok(Some((kept, total)));
        }
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
        let mut c = console(b"B1\r\nok\n\xff\xfe\n\x1b[31m\n");
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("B1".into()));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("ok".into()));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Bad(BadLine::NotUtf8));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Bad(BadLine::Control));
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::End);
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::End);
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
            Reply::Bad(BadLine::TooLong(1 << 20))
        );
        assert_eq!(c.ask("? ", &[]).unwrap(), Reply::Line("B1".into()));
    }
}
