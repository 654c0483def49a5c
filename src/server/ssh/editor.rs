//! The line editor of an ssh terminal. With a pty the client sends every
//! key as it is pressed and echoes nothing, so the door keeps the line being
//! typed, echoes it, and hands over whole lines. Knows nothing of ssh.

use std::collections::VecDeque;

use unicode_width::UnicodeWidthChar;

use crate::server::link::{MAX_LINE, notice_text};
use crate::shell::ask::is_format;

/// What a key did, besides its echo.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Edit {
    /// Enter: the line typed (at most [`MAX_LINE`] bytes), and how many
    /// bytes were typed in all: more means the line was too long.
    Line(String, usize),
    /// Ctrl-C.
    Interrupt,
    /// Ctrl-D on an empty line: no more input.
    End,
}

/// Where the editor is in an escape sequence (an arrow key, a function key),
/// which it reads to its end and drops.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Escape {
    #[default]
    None,
    /// After ESC.
    Start,
    /// After ESC [ : parameters until a final byte.
    Csi,
    /// After ESC O : one more byte.
    Ss3,
    /// In a control string (ESC ] for a window title, ESC P, ESC _, ESC ^,
    /// ESC X): everything until BEL or ESC \, which a control byte ends.
    Text,
}

/// The line being typed at a terminal.
#[derive(Default, Debug)]
pub struct Editor {
    line: String,
    /// The first bytes of a character not yet whole (at most 3).
    partial: Vec<u8>,
    /// How many bytes the partial character needs in all.
    needs: usize,
    escape: Escape,
    /// The last byte was `\r`, so a `\n` after it is the same Enter.
    after_cr: bool,
    /// Bytes typed past [`MAX_LINE`]: counted, not kept. The line is then
    /// refused at Enter, as too long.
    overflow: usize,
    ended: bool,
    /// Where the line starts on the terminal, and the terminal's width.
    place: Place,
}

/// Where the line being typed starts on the terminal (the columns the
/// question before it takes on its row, counted across the rows it wraps
/// to), and the terminal's width, 0 when not known or when the terminal
/// takes no cursor moves. Backspace needs them once the line has wrapped:
/// `^H` does not climb back to the row above, nor does it reach the last
/// column while the terminal waits there to wrap.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Place {
    /// The columns before the line, from the start of the question's row.
    pub start: usize,
    /// The terminal's columns.
    pub width: usize,
}

const BELL: &[u8] = b"\x07";
const ERASE: &[u8] = b"\x08 \x08";

impl Editor {
    /// Takes keys as they arrive: what to echo goes to `echo`, whole lines
    /// and the other edits to `edits`. After [`Edit::End`] every key is
    /// ignored.
    pub fn feed(&mut self, bytes: &[u8], echo: &mut Vec<u8>, edits: &mut Vec<Edit>) {
        for &b in bytes {
            if self.ended {
                return;
            }
            self.byte(b, echo, edits);
        }
    }

    /// The line typed so far.
    pub fn line(&self) -> &str {
        &self.line
    }

    /// The line as the terminal shows it: without its invisible format
    /// characters, which are kept but never written.
    pub fn shown_line(&self) -> String {
        shown(&self.line)
    }

    /// Says where the line starts and how wide the terminal is.
    pub fn place(&mut self, place: Place) {
        self.place = place;
    }

    /// Where the end of the line is, in cells from the start of the row the
    /// question starts on: a character too wide for what is left of a row
    /// goes to the next, as terminals put it.
    fn end(&self, line: &str) -> usize {
        let width = self.place.width;
        let mut at = self.place.start;
        for c in line.chars() {
            let cells = char_cells(c);
            if width > 0 && cells > 0 && at % width + cells > width {
                at += width - at % width;
            }
            at += cells;
        }
        at
    }

    fn byte(&mut self, b: u8, echo: &mut Vec<u8>, edits: &mut Vec<Edit>) {
        let after_cr = std::mem::take(&mut self.after_cr);
        // A control byte is no part of a sequence: it ends one unfinished
        // (a lone Escape key, then Enter or an arrow key's own ESC) and
        // does what it always does.
        if b < 0x20 || b == 0x7f {
            self.escape = Escape::None;
        }
        match self.escape {
            Escape::None => {}
            Escape::Start => {
                self.escape = match b {
                    b'[' => Escape::Csi,
                    b'O' => Escape::Ss3,
                    b']' | b'P' | b'_' | b'^' | b'X' => Escape::Text,
                    _ => Escape::None,
                };
                return;
            }
            Escape::Text => return,
            Escape::Csi => {
                // Parameters and intermediates run from 0x20 to 0x3f; any
                // other byte ends the sequence.
                if !(0x20..=0x3f).contains(&b) {
                    self.escape = Escape::None;
                }
                return;
            }
            Escape::Ss3 => {
                self.escape = Escape::None;
                return;
            }
        }
        if b >= 0x80 {
            self.utf8(b, echo);
            return;
        }
        // An ASCII byte ends any unfinished character: it was not one.
        self.partial.clear();
        match b {
            b'\r' => {
                self.after_cr = true;
                self.enter(echo, edits);
            }
            b'\n' if after_cr => {}
            b'\n' => self.enter(echo, edits),
            0x7f | 0x08 => self.backspace(echo),
            0x15 => self.erase_line(echo),
            0x03 => {
                echo.extend_from_slice(b"^C\r\n");
                self.line.clear();
                self.overflow = 0;
                edits.push(Edit::Interrupt);
            }
            0x04 if self.line.is_empty() => {
                self.ended = true;
                edits.push(Edit::End);
            }
            0x1b => self.escape = Escape::Start,
            0x20..=0x7e => self.insert(b as char, echo),
            _ => {}
        }
    }

    /// A byte of a character beyond ASCII.
    fn utf8(&mut self, b: u8, echo: &mut Vec<u8>) {
        if (0x80..0xc0).contains(&b) {
            if self.partial.is_empty() {
                return;
            }
            self.partial.push(b);
            if self.partial.len() == self.needs {
                let bytes = std::mem::take(&mut self.partial);
                if let Some(c) = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|s| s.chars().next())
                {
                    self.insert(c, echo);
                }
            }
            return;
        }
        self.partial.clear();
        self.needs = match b {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return,
        };
        self.partial.push(b);
    }

    fn insert(&mut self, c: char, echo: &mut Vec<u8>) {
        // A control character (C1's CSI, from an 8-bit terminal's keys) is
        // dropped: it could steer the terminal.
        if c.is_control() {
            return;
        }
        // An invisible format character is never shown, but kept, taking
        // no cell, so the session refuses the line (or shows it escaped)
        // naming it, as the line door does, rather than taking a line the
        // player did not type (a handle with a direction override left out).
        if is_format(c) && self.overflow == 0 && self.line.len() + c.len_utf8() <= MAX_LINE {
            self.line.push(c);
            return;
        }
        if self.overflow > 0 || self.line.len() + c.len_utf8() > MAX_LINE {
            // One bell for the first key past the end, not one a key: a
            // paste of a megabyte must not ring a million times.
            if self.overflow == 0 {
                echo.extend_from_slice(BELL);
            }
            self.overflow = self.overflow.saturating_add(c.len_utf8());
            return;
        }
        self.line.push(c);
        let mut utf8 = [0; 4];
        echo.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }

    fn backspace(&mut self, echo: &mut Vec<u8>) {
        if self.overflow > 0 {
            // A key typed past the end was never shown: forget one byte.
            self.overflow -= 1;
            return;
        }
        let was = self.end(&self.line);
        // What one cell shows goes as one: a character with the marks
        // drawn on it (e and a combining accent), so the line sent is the
        // line seen.
        let mut cells = 0;
        while let Some(c) = self.line.pop() {
            cells = char_cells(c);
            if cells > 0 {
                break;
            }
        }
        if cells == 0 {
            return;
        }
        let (width, start) = (self.place.width, self.place.start);
        let now = self.end(&self.line);
        // The erased character started here: after the line left, or at
        // the start of the next row where it did not fit.
        let from = was - cells;
        let one_row = width == 0
            || (!was.is_multiple_of(width)
                && from == now
                && (!now.is_multiple_of(width) || now == start));
        if one_row {
            for _ in 0..cells {
                echo.extend_from_slice(ERASE);
            }
            return;
        }
        let row = cursor_row(was, width);
        up(echo, row - from / width);
        column(echo, from % width);
        echo.extend(std::iter::repeat_n(b' ', cells));
        if now.is_multiple_of(width) && now > start {
            // The line now ends at the last column of the row above: its
            // last character is written again, so the cursor waits there
            // as after typing it.
            let (at, last) = self
                .line
                .char_indices()
                .rev()
                .find_map(|(at, c)| Some((at, char_cells(c))).filter(|&(_, w)| w > 0))
                .unwrap_or((0, 0));
            let before = now - last;
            up(echo, from / width - before / width);
            column(echo, before % width);
            echo.extend_from_slice(shown(&self.line[at..]).as_bytes());
        } else {
            up(echo, from / width - now / width);
            column(echo, now % width);
        }
    }

    /// Ctrl-U: the whole line erased.
    fn erase_line(&mut self, echo: &mut Vec<u8>) {
        self.overflow = 0;
        let (width, start) = (self.place.width, self.place.start);
        let end = self.end(&self.line);
        if width == 0
            || end == start
            || (end / width == start / width && !end.is_multiple_of(width))
        {
            while !self.line.is_empty() {
                self.backspace(echo);
            }
            return;
        }
        // Back to where the line starts, and everything after it cleared.
        let row = cursor_row(end, width);
        up(echo, row - start / width);
        column(echo, start % width);
        echo.extend_from_slice(b"\x1b[J");
        self.line.clear();
    }

    fn enter(&mut self, echo: &mut Vec<u8>, edits: &mut Vec<Edit>) {
        echo.extend_from_slice(b"\r\n");
        let total = self.line.len() + std::mem::take(&mut self.overflow);
        edits.push(Edit::Line(std::mem::take(&mut self.line), total));
    }
}

/// The cells a character of the line takes: none for an invisible format
/// character, which is kept but never shown.
fn char_cells(c: char) -> usize {
    if is_format(c) {
        0
    } else {
        c.width().unwrap_or(0)
    }
}

/// Text of the line as the terminal shows it: its invisible format
/// characters left out.
fn shown(text: &str) -> String {
    text.chars().filter(|&c| !is_format(c)).collect()
}

/// The row of the cursor at the end of a line ending `end` cells from the
/// start of the question's row: a row filled to its last column keeps the
/// cursor there, waiting to wrap.
fn cursor_row(end: usize, width: usize) -> usize {
    if end > 0 && end.is_multiple_of(width) {
        end / width - 1
    } else {
        end / width
    }
}

/// The cursor moved up `rows` rows.
fn up(echo: &mut Vec<u8>, rows: usize) {
    if rows > 0 {
        echo.extend_from_slice(format!("\x1b[{rows}A").as_bytes());
    }
}

/// The cursor moved to `column` of its row, counted from 0.
fn column(echo: &mut Vec<u8>, column: usize) {
    echo.extend_from_slice(format!("\x1b[{}G", column + 1).as_bytes());
}

/// Text for a terminal with no line discipline: every `\n` that has no
/// `\r` before it gets one. `after_cr` carries the last byte's state from
/// one piece of text to the next.
pub fn crlf(text: &[u8], after_cr: &mut bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 16 + 1);
    for &b in text {
        if b == b'\n' && !*after_cr {
            out.push(b'\r');
        }
        out.push(b);
        *after_cr = b == b'\r';
    }
    out
}

/// The line being typed at a terminal, as the output task needs to know
/// it: its text, and whether it was handed over (Enter, Ctrl-C) since the
/// session last wrote, so the question on the screen is answered.
#[derive(Clone, Default, Debug)]
pub struct Typed {
    /// What is typed so far.
    pub line: String,
    /// The line was handed over since the session last wrote.
    pub handed: bool,
}

/// The echo of keys typed ahead. Once a line is handed over, what is typed
/// next (a paste of several lines, or keys pressed while the session is
/// busy) is not shown until the session takes it: each line typed ahead
/// appears after the question it answers, as the session reads it, and
/// what is typed of the next line after the next question, as a program
/// reading a local terminal shows them. Echoed at once, every line would
/// land before the answer to the one above, and the questions after them
/// would be written one after another on one row. The lines themselves are
/// handed over as they come; only their echo waits.
#[derive(Default, Debug)]
pub struct Ahead {
    /// Hold echo at all: only where the session says when it takes a line.
    on: bool,
    /// The lines handed over and not yet taken by the session, oldest
    /// first, each with its echo where that is not shown yet. They are in
    /// the session's queue, whose bound bounds them.
    untaken: VecDeque<Option<Vec<u8>>>,
    /// The session took the last line and has not asked since.
    answering: bool,
}

impl Ahead {
    /// Echo held for a session that says when it takes each line.
    pub fn taking() -> Ahead {
        Ahead {
            on: true,
            ..Ahead::default()
        }
    }

    /// Whether echo is held: keys typed now are not yet shown.
    pub fn holding(&self) -> bool {
        !self.untaken.is_empty() || self.answering
    }

    /// The echo of a key that handed no line over: what to show now.
    pub fn key<'a>(&self, echo: &'a [u8]) -> &'a [u8] {
        if self.holding() { &[] } else { echo }
    }

    /// A line handed over (Enter, Ctrl-C), whose key echoed `echo` and
    /// whose whole echo is `whole` (its text and the key's): what to show
    /// now.
    pub fn handed(&mut self, echo: Vec<u8>, whole: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
        if !self.on {
            return echo;
        }
        if self.holding() {
            self.untaken.push_back(Some(whole()));
            Vec::new()
        } else {
            self.untaken.push_back(None);
            echo
        }
    }

    /// The session took a line: its echo, if it is still to be shown.
    pub fn taken(&mut self) -> Option<Vec<u8>> {
        let echo = self.untaken.pop_front().flatten();
        self.answering = self.on && self.untaken.is_empty();
        echo
    }

    /// The session asked a question: true when what is typed of the next
    /// line is to be shown after it, as nothing is held any more.
    pub fn asked(&mut self) -> bool {
        let held = self.holding();
        if self.untaken.is_empty() {
            self.answering = false;
        }
        held && !self.holding()
    }
}

/// Keeps a terminal's question and line being typed in sight while the
/// session writes: the session's output since its last newline (the
/// question asked) is remembered, so that after a notice arriving while a
/// question waits (a message, not the session's answer) the question and
/// the typed text are shown again, and after a question asked anew the
/// typed text is. Without it the question is gone from the screen, and the
/// text typed so far is still there, unseen, sent with whatever is typed
/// next.
///
/// A question shown again after a notice is stale once the session goes on
/// without an answer to it (woken to ask anew, or to draw the board): the
/// session's first new line then replaces that row instead of leaving it
/// above, when it fits one row of the terminal.
#[derive(Default, Debug)]
pub struct InSight {
    /// The session's output since its last newline.
    tail: Vec<u8>,
    /// The question shown again after the last notice, while it is the
    /// last thing written.
    restored: Option<Vec<u8>>,
    /// What was last written ended a row (or nothing was written yet).
    row_open: bool,
}

/// Back to the start of the row, and the row cleared.
const CLEAR_ROW: &[u8] = b"\r\x1b[K";

impl InSight {
    /// What to write for the session's `text` (a notice, or the session's
    /// own), while `typed` is the line being typed.
    /// `width` is the terminal's, 0 when not known.
    pub fn write(&mut self, text: &[u8], typed: &Typed, notice: bool, width: usize) -> Vec<u8> {
        let restored = self.restored.take();
        let handed = typed.handed;
        // A question answered is no longer on the screen to show again.
        let asked = if handed {
            self.tail.clear();
            Vec::new()
        } else {
            std::mem::take(&mut self.tail)
        };
        let stale = restored.filter(|question| {
            let row = String::from_utf8_lossy(question).into_owned() + &typed.line;
            !notice && !typed.handed && crate::shell::safe::width(&row) < width
        });
        let typed = typed.line.as_str();
        let mut out = match (stale, text.strip_prefix(b"\n")) {
            (Some(_), Some(rest)) => [CLEAR_ROW, rest].concat(),
            // The row may be ended already: by the session's last line, or
            // by the Enter of the line typed.
            _ if notice => notice_text(text, handed || !self.row_open).to_vec(),
            _ => text.to_vec(),
        };
        match text.iter().rposition(|&b| b == b'\n') {
            Some(end) => self.tail = text[end + 1..].to_vec(),
            None => {
                self.tail = asked.clone();
                self.tail.extend_from_slice(text);
            }
        }
        if text.is_empty() {
            return out;
        }
        if notice && !asked.is_empty() {
            // A notice, under the question: the question again, and the
            // typed text.
            out.extend_from_slice(&asked);
            out.extend_from_slice(typed.as_bytes());
            self.restored = Some(asked.clone());
            self.tail = asked;
        } else if !text.ends_with(b"\n") && !typed.is_empty() {
            // A question asked anew: the typed text after it.
            out.extend_from_slice(typed.as_bytes());
        }
        self.row_open = !out.ends_with(b"\n");
        out
    }

    /// Where a line typed now starts: the columns the session's question
    /// takes, from the start of its row.
    pub fn column(&self) -> usize {
        cells(&String::from_utf8_lossy(&self.tail))
    }
}

/// The columns `text` takes on a terminal from the start of a row, with
/// escape sequences (colours) taking none and a carriage return going back
/// to the row's start.
fn cells(text: &str) -> usize {
    let mut at = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.next() {
                // CSI: parameters up to a final byte.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\x40'..='\x7e').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC: up to BEL or ST.
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\x07' || (c == '\x1b' && chars.next().is_some()) {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => at = 0,
            '\x08' => at = at.saturating_sub(1),
            c => at += c.width().unwrap_or(0),
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typing(line: &str) -> Typed {
        Typed {
            line: line.to_string(),
            handed: false,
        }
    }

    #[test]
    fn a_message_while_typing_is_followed_by_the_question_and_the_typed_text() {
        let mut shown = InSight::default();
        assert_eq!(
            shown.write(b"Board\nMove? ", &typing(""), false, 80),
            b"Board\nMove? "
        );
        // C2- typed (echoed by the editor, not here), then a message.
        assert_eq!(
            shown.write(b"\ncarol says: hi\n", &typing("C2-"), true, 80),
            b"\ncarol says: hi\nMove? C2-"
        );
        // Another: the question is still the one asked.
        assert_eq!(
            shown.write(b"\ncarol says: bye\n", &typing("C2-"), true, 80),
            b"\ncarol says: bye\nMove? C2-"
        );
        // Nothing typed: the message, then the question again.
        assert_eq!(
            shown.write(b"\nhi\n", &typing(""), true, 80),
            b"\nhi\nMove? "
        );
        // A question asked anew while text is typed: the text after it.
        assert_eq!(
            shown.write(b"New board\nMove? ", &typing("C2-"), false, 80),
            b"New board\nMove? C2-"
        );
        // The session's own output is left as it is.
        assert_eq!(
            shown.write(b"Moved.\n", &typing("C2-"), false, 80),
            b"Moved.\n"
        );
        // Even a line of its own: a board drawn after the other's move.
        assert_eq!(
            shown.write(b"\nBoard\n", &typing("C2-"), false, 80),
            b"\nBoard\n"
        );
    }

    #[test]
    fn a_question_shown_again_gives_way_to_the_next_one() {
        let mut shown = InSight::default();
        shown.write(b"Waiting for bob. > ", &typing(""), false, 80);
        assert_eq!(
            shown.write(b"\nbob has left.\n", &typing("sa"), true, 80),
            b"\nbob has left.\nWaiting for bob. > sa"
        );
        // Woken to ask anew: the session's new line replaces that row,
        // and the typed text follows the new question.
        assert_eq!(shown.write(b"\n", &typing("sa"), false, 80), b"\r\x1b[K");
        assert_eq!(
            shown.write(b"bob is away. > ", &typing("sa"), false, 80),
            b"bob is away. > sa"
        );
        // Answered first (Enter): the row stays, as the question answered.
        shown.write(b"\nhi\n", &typing(""), true, 80);
        let handed = Typed {
            line: String::new(),
            handed: true,
        };
        assert_eq!(shown.write(b"\nNo.\n", &handed, false, 80), b"\nNo.\n");
        // Wider than the terminal's row: left as it is, below.
        shown.write(b"> ", &typing(""), false, 80);
        shown.write(b"\nhi\n", &typing("abc"), true, 4);
        assert_eq!(shown.write(b"\n", &typing("abc"), false, 4), b"\n");
    }

    #[test]
    fn a_question_answered_is_not_shown_again() {
        let mut shown = InSight::default();
        shown.write(b"> ", &typing(""), false, 80);
        // Enter: the line is handed over, and a message comes before the
        // session's answer.
        let handed = Typed {
            line: String::new(),
            handed: true,
        };
        // The Enter ended the row: the message starts on the next.
        assert_eq!(shown.write(b"\nhi\n", &handed, true, 80), b"hi\n");
        // The answer and the next question; then a message shows it again.
        assert_eq!(
            shown.write(b"1 online\n> ", &typing(""), false, 80),
            b"1 online\n> "
        );
        assert_eq!(shown.write(b"\nbye\n", &typing(""), true, 80), b"\nbye\n> ");
        // A message between an answer and the next question: the answer
        // ended the row, so no empty one.
        shown.write(b"\n", &handed, false, 80);
        assert_eq!(
            shown.write(b"Moved.\n", &typing(""), false, 80),
            b"Moved.\n"
        );
        assert_eq!(shown.write(b"\nhey\n", &typing(""), true, 80), b"hey\n");
        assert_eq!(shown.write(b"\nyou\n", &typing(""), true, 80), b"you\n");
    }

    #[test]
    fn lines_typed_ahead_are_echoed_as_the_session_takes_them() {
        let mut ahead = Ahead::taking();
        let echo = |text: &str| text.as_bytes().to_vec();
        // Nothing waits: keys are echoed as they come, and so is the first
        // line's Enter.
        assert_eq!(ahead.key(b"ab"), b"ab");
        assert_eq!(ahead.handed(echo("\r\n"), || echo("ab\r\n")), b"\r\n");
        // Until the session has taken it and asked again, the rest waits:
        // a line, Ctrl-C on another, and the start of a third.
        assert_eq!(ahead.key(b"cd"), b"");
        assert_eq!(ahead.handed(echo("\r\n"), || echo("cd\r\n")), b"");
        assert_eq!(ahead.handed(echo("^C\r\n"), || echo("e^C\r\n")), b"");
        assert_eq!(ahead.key(b"f"), b"");
        assert!(ahead.holding());
        // ab taken (it was shown); asked again, then cd taken: its echo.
        assert_eq!(ahead.taken(), None);
        assert!(!ahead.asked());
        assert_eq!(ahead.taken(), Some(echo("cd\r\n")));
        assert_eq!(ahead.taken(), Some(echo("e^C\r\n")));
        // The last one taken: what is typed waits for the next question.
        assert!(ahead.holding());
        assert!(ahead.asked());
        assert!(!ahead.holding());
        assert_eq!(ahead.key(b"g"), b"g");
    }

    #[test]
    fn echo_is_not_held_for_a_session_that_does_not_say_what_it_takes() {
        let mut ahead = Ahead::default();
        let echo = |text: &str| text.as_bytes().to_vec();
        assert_eq!(ahead.handed(echo("\r\n"), || echo("a\r\n")), b"\r\n");
        assert_eq!(ahead.key(b"b"), b"b");
        assert_eq!(ahead.handed(echo("\r\n"), || echo("b\r\n")), b"\r\n");
        assert!(!ahead.holding());
        assert_eq!(ahead.taken(), None);
        assert!(!ahead.holding());
    }

    /// Feeds `keys`; gives back the echo as text and the edits.
    fn typed(editor: &mut Editor, keys: &[u8]) -> (String, Vec<Edit>) {
        let mut echo = Vec::new();
        let mut edits = Vec::new();
        editor.feed(keys, &mut echo, &mut edits);
        (String::from_utf8(echo).unwrap(), edits)
    }

    fn line(text: &str) -> Edit {
        Edit::Line(text.to_string(), text.len())
    }

    #[test]
    fn printable_keys_are_echoed_and_enter_hands_the_line_over() {
        let mut editor = Editor::default();
        assert_eq!(
            typed(&mut editor, b"seek fox\r"),
            ("seek fox\r\n".to_string(), vec![line("seek fox")])
        );
        // \r\n is one Enter; \n alone is one too.
        assert_eq!(
            typed(&mut editor, b"a\r\nb\n"),
            ("a\r\nb\r\n".to_string(), vec![line("a"), line("b")])
        );
        // An empty line is still a line.
        assert_eq!(typed(&mut editor, b"\r").1, vec![line("")]);
    }

    #[test]
    fn backspace_erases_a_whole_character_and_its_width() {
        let mut editor = Editor::default();
        let (echo, edits) = typed(&mut editor, b"abx\x7fc\r");
        assert_eq!(echo, "abx\x08 \x08c\r\n");
        assert_eq!(edits, vec![line("abc")]);
        // Ctrl-H is Backspace too; é is two bytes, one column.
        let (echo, edits) = typed(&mut editor, "é\x08e".as_bytes());
        assert_eq!(echo, "é\x08 \x08e");
        assert!(edits.is_empty());
        assert_eq!(editor.line(), "e");
        // A wide character takes two columns back.
        let (echo, _) = typed(&mut editor, "狐\x7f".as_bytes());
        assert_eq!(echo, "狐\x08 \x08\x08 \x08");
        assert_eq!(editor.line(), "e");
        // A combining accent goes with the letter it is drawn on.
        let (echo, _) = typed(&mut editor, "xe\u{301}\x7fw".as_bytes());
        assert_eq!(echo, "xe\u{301}\x08 \x08w");
        assert_eq!(editor.line(), "exw");
        // Backspace on an empty line does nothing.
        let mut empty = Editor::default();
        assert_eq!(typed(&mut empty, b"\x7f\x7f"), (String::new(), vec![]));
    }

    /// A terminal's screen as xterm draws it, for what the echo needs: a
    /// character at the last column leaves the cursor there until the next
    /// one wraps it, `^H` stops at the row's start, and the cursor moves
    /// up and to a column.
    #[derive(Clone, Default)]
    struct Screen {
        width: usize,
        rows: Vec<Vec<char>>,
        row: usize,
        column: usize,
        waiting: bool,
    }

    impl Screen {
        fn new(width: usize) -> Screen {
            Screen {
                width,
                ..Screen::default()
            }
        }

        fn put(&mut self, column: usize, c: char) {
            if self.rows.len() <= self.row {
                self.rows.resize(self.row + 1, Vec::new());
            }
            let row = &mut self.rows[self.row];
            if row.len() <= column {
                row.resize(column + 1, ' ');
            }
            row[column] = c;
        }

        fn write(&mut self, text: &str) {
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\x1b' => {
                        assert_eq!(chars.next(), Some('['));
                        let mut n = String::new();
                        let last = chars.by_ref().find(|c| {
                            n.push(*c);
                            c.is_ascii_alphabetic()
                        });
                        let n: usize = n[..n.len() - 1].parse().unwrap_or(1);
                        self.waiting = false;
                        match last {
                            Some('A') => self.row = self.row.checked_sub(n).expect("above"),
                            Some('G') => self.column = n - 1,
                            Some('J') => {
                                self.rows.truncate(self.row + 1);
                                if let Some(row) = self.rows.get_mut(self.row) {
                                    row.truncate(self.column);
                                }
                            }
                            other => panic!("no such sequence here: {other:?}"),
                        }
                    }
                    '\x08' => {
                        self.waiting = false;
                        self.column = self.column.saturating_sub(1);
                    }
                    c => {
                        let cells = c.width().unwrap_or(0);
                        if self.waiting || self.column + cells > self.width {
                            self.row += 1;
                            self.column = 0;
                            self.waiting = false;
                        }
                        self.put(self.column, c);
                        if cells == 2 {
                            self.put(self.column + 1, '\0');
                        }
                        if self.column + cells == self.width {
                            self.column = self.width - 1;
                            self.waiting = true;
                        } else {
                            self.column += cells;
                        }
                    }
                }
            }
        }

        fn shown(&self) -> String {
            let rows = self.rows.iter().map(|row| {
                let row: String = row.iter().filter(|&&c| c != '\0').collect();
                row.trim_end().to_string()
            });
            let mut rows: Vec<String> = rows.collect();
            while rows.last().is_some_and(String::is_empty) {
                rows.pop();
            }
            rows.join("|")
        }
    }

    #[test]
    fn backspace_and_ctrl_u_climb_a_line_wrapped_on_a_narrow_terminal() {
        let keys = [
            "abcdefghijklmnopqrstuvw",
            "ab狐cde狐狐fgh狐i",
            "狐狐狐狐狐狐狐",
        ];
        for width in 3..=9 {
            for start in 0..=2 * width + 1 {
                for key in keys {
                    let question = "?".repeat(start);
                    let mut screen = Screen::new(width);
                    screen.write(&question);
                    let mut editor = Editor::default();
                    editor.place(Place { start, width });
                    let mut typed = String::new();
                    let check = |screen: &Screen, typed: &str, what: &str| {
                        let mut seen = screen.clone();
                        let mut drawn = Screen::new(width);
                        drawn.write(&format!("{question}{typed}"));
                        assert_eq!(seen.shown(), drawn.shown(), "{what}: {start} of {width}");
                        // The cursor is where the next key lands.
                        seen.write("Z");
                        drawn.write("Z");
                        assert_eq!(seen.shown(), drawn.shown(), "{what}, Z: {start} of {width}");
                    };
                    for c in key.chars() {
                        let mut echo = Vec::new();
                        editor.feed(c.to_string().as_bytes(), &mut echo, &mut Vec::new());
                        screen.write(std::str::from_utf8(&echo).unwrap());
                        typed.push(c);
                    }
                    check(&screen, &typed, key);
                    let mut erased = screen.clone();
                    let mut left = typed.clone();
                    while left.pop().is_some() {
                        let mut echo = Vec::new();
                        editor.feed(b"\x7f", &mut echo, &mut Vec::new());
                        erased.write(std::str::from_utf8(&echo).unwrap());
                        check(&erased, &left, &format!("back to {left:?}"));
                    }
                    // Typed again, then Ctrl-U.
                    let mut echo = Vec::new();
                    editor.feed(
                        format!("{typed}\x15").as_bytes(),
                        &mut echo,
                        &mut Vec::new(),
                    );
                    let mut cleared = screen.clone();
                    cleared.write(&std::str::from_utf8(&echo).unwrap()[typed.len()..]);
                    check(&cleared, "", "Ctrl-U");
                }
            }
        }
    }

    #[test]
    fn the_question_is_counted_without_its_colours() {
        let mut shown = InSight::default();
        shown.write(b"Board\n\x1b[1mMove\x1b[0m? ", &typing(""), false, 80);
        assert_eq!(shown.column(), 6);
        shown.write("\x1b]0;title\x07狐: ".as_bytes(), &typing(""), false, 80);
        assert_eq!(shown.column(), 10);
        shown.write(b"done\n", &typing(""), false, 80);
        assert_eq!(shown.column(), 0);
    }

    #[test]
    fn ctrl_u_erases_the_line_and_ctrl_c_interrupts_it() {
        let mut editor = Editor::default();
        let (echo, edits) = typed(&mut editor, b"ab\x15x\r");
        assert_eq!(echo, "ab\x08 \x08\x08 \x08x\r\n");
        assert_eq!(edits, vec![line("x")]);
        let (echo, edits) = typed(&mut editor, b"resign\x03who\r");
        assert_eq!(echo, "resign^C\r\nwho\r\n");
        assert_eq!(edits, vec![Edit::Interrupt, line("who")]);
    }

    #[test]
    fn ctrl_d_ends_input_only_on_an_empty_line() {
        let mut editor = Editor::default();
        let (echo, edits) = typed(&mut editor, b"ab\x04\r\x04more\r");
        assert_eq!(echo, "ab\r\n");
        assert_eq!(edits, vec![line("ab"), Edit::End]);
    }

    #[test]
    fn escape_sequences_and_control_bytes_are_dropped_never_echoed() {
        let mut editor = Editor::default();
        // Up, Left, F1 (SS3), F5 (CSI with a parameter), Alt-x, a tab, a
        // bell, NUL, and C1's CSI written in UTF-8.
        let keys = b"\x1b[A\x1b[D\x1bOP\x1b[15~\x1bx\t\x07\x00\xc2\x9bok\r";
        let (echo, edits) = typed(&mut editor, keys);
        assert_eq!(echo, "ok\r\n");
        assert_eq!(edits, vec![line("ok")]);
        // A window title (OSC, ended by BEL or by ESC \) goes whole, its
        // text with it.
        let keys = b"say hi\x1b[2J\x1b]0;T\x07 there\x1b]2;x y\x1b\\!\r";
        let (echo, edits) = typed(&mut editor, keys);
        assert_eq!(echo, "say hi there!\r\n");
        assert_eq!(edits, vec![line("say hi there!")]);
        // A direction override and a zero-width space are not shown, but
        // kept, for the session to refuse or escape, naming them.
        let (echo, edits) = typed(&mut editor, "a\u{202e}\u{200b}b\r".as_bytes());
        assert_eq!(echo, "ab\r\n");
        assert_eq!(edits, vec![line("a\u{202e}\u{200b}b")]);
        // Erased with the character they follow.
        let (echo, edits) = typed(&mut editor, "ab\u{202e}\x7f\r".as_bytes());
        assert_eq!(echo, "ab\x08 \x08\r\n");
        assert_eq!(edits, vec![line("a")]);
    }

    #[test]
    fn a_lone_escape_key_then_another_key_types_nothing_of_it() {
        let mut editor = Editor::default();
        // Escape, then (in another packet) Right: the arrow's own ESC
        // starts its sequence afresh, and nothing is typed.
        let (echo, _) = typed(&mut editor, b"go\x1b");
        assert_eq!(echo, "go");
        let (echo, _) = typed(&mut editor, b"\x1b[C");
        assert_eq!(echo, "");
        // Escape in a sequence's middle, then Enter: the Enter is taken.
        let (echo, edits) = typed(&mut editor, b"\x1b[1\x1b\r");
        assert_eq!(echo, "\r\n");
        assert_eq!(edits, vec![line("go")]);
        // Escape, then Ctrl-C: the interrupt.
        let (_, edits) = typed(&mut editor, b"\x1b\x03");
        assert_eq!(edits, vec![Edit::Interrupt]);
        // Escape, then Backspace (DEL): the last character goes.
        let (_, edits) = typed(&mut editor, b"whox\x1b\x7f\r");
        assert_eq!(edits, vec![line("who")]);
    }

    #[test]
    fn broken_utf8_is_dropped_and_characters_may_arrive_in_pieces() {
        let mut editor = Editor::default();
        // A stray continuation byte, a lead byte cut short by ASCII, bytes
        // that are never UTF-8.
        let (echo, _) = typed(&mut editor, b"\x80\xe2\x82a\xff\xc0\xaf");
        assert_eq!(echo, "a");
        // € split over two packets.
        let (echo, _) = typed(&mut editor, b"\xe2\x82");
        assert_eq!(echo, "");
        let (echo, edits) = typed(&mut editor, b"\xac\r");
        assert_eq!(echo, "€\r\n");
        assert_eq!(edits, vec![line("a€")]);
    }

    #[test]
    fn the_line_is_capped_and_the_first_key_past_it_rings_the_bell() {
        let mut editor = Editor::default();
        let (echo, _) = typed(&mut editor, &vec![b'x'; MAX_LINE]);
        assert_eq!(echo.len(), MAX_LINE);
        let (echo, _) = typed(&mut editor, "yé".as_bytes());
        assert_eq!(echo, "\x07", "one bell, for the first key past the end");
        let (echo, _) = typed(&mut editor, &vec![b'z'; 100_000]);
        assert_eq!(echo, "", "no more bells: {} bytes", echo.len());
        let (echo, _) = typed(&mut editor, &vec![0x7f; 100_000]);
        assert_eq!(echo, "", "erasing the unseen keys shows nothing");
        assert_eq!(editor.line().len(), MAX_LINE);
        // Erasing what was typed past the end makes room again.
        let (echo, _) = typed(&mut editor, b"\x7f\x7f\x7f\x7f");
        assert_eq!(echo, "\x08 \x08");
        let (echo, edits) = typed(&mut editor, "é\r".as_bytes());
        assert_eq!(echo, "\x07\r\n");
        let [Edit::Line(taken, total)] = &edits[..] else {
            panic!("one line: {edits:?}");
        };
        assert_eq!(taken.len(), MAX_LINE - 1);
        // The é did not fit: the line is handed over as too long.
        assert_eq!(*total, MAX_LINE + 1);
    }

    #[test]
    fn output_gets_a_carriage_return_before_each_newline() {
        let mut after_cr = false;
        assert_eq!(crlf(b"a\nb\r\nc", &mut after_cr), b"a\r\nb\r\nc");
        assert_eq!(crlf(b"end\r", &mut after_cr), b"end\r");
        // The \r of the last piece belongs to this \n.
        assert_eq!(crlf(b"\nx\n", &mut after_cr), b"\nx\r\n");
    }
}
