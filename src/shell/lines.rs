//! The one capped line reader, for every input read a line at a time: a
//! script's lines at the console, the game log's records and the engine
//! mode's commands. A line longer than its cap is read to its end but never
//! kept whole, so no input can make a line grow without bound.

use std::io::{self, BufRead};

/// What ends a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ends {
    /// LF alone; a CR before it is the line's own (a program strips it).
    Lf,
    /// LF or CR, each ending its line at once, without waiting to see
    /// whether an LF follows a CR: a CRLF is a line and then an empty one.
    /// [`AnyNewline`] reads with it and passes over the LF of a CRLF.
    CrOrLf,
}

/// A line read with a cap.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Capped {
    /// The line's first bytes, without its ending: all of it when it is no
    /// longer than the cap, else the cap and one byte more (to tell).
    pub kept: Vec<u8>,
    /// The line's whole length in bytes, without its ending.
    pub length: usize,
    /// Whether an ending was read (not so for a last line cut short).
    pub ended: bool,
    /// Whether that ending was a CR.
    pub by_cr: bool,
    /// The line's first [`HEAD`] bytes after the blanks it opens with
    /// (whitespace as Unicode has it, and byte order marks), however many
    /// they are: a line too long to keep still tells what it opens with.
    pub head: Vec<u8>,
}

/// How many bytes [`Capped::head`] keeps.
pub const HEAD: usize = 64;

impl Capped {
    /// The whole line, if it is no longer than `cap`.
    pub fn whole(self, cap: usize) -> Option<Vec<u8>> {
        (self.length <= cap).then_some(self.kept)
    }
}

/// What the bytes at a line's opening, after the blanks before them, are.
#[derive(PartialEq, Eq)]
enum Opening {
    /// A blank: whitespace as Unicode has it, or a byte order mark.
    Blank,
    /// The start of a character, cut short.
    Partial,
    /// Anything else: a word begins (or bytes that are no UTF-8).
    Word,
}

fn opening(bytes: &[u8]) -> Opening {
    match std::str::from_utf8(bytes) {
        Ok(text) if text.chars().all(|c| c.is_whitespace() || c == '\u{feff}') => Opening::Blank,
        Ok(_) => Opening::Word,
        Err(e) if e.error_len().is_none() && bytes.len() < 4 => Opening::Partial,
        Err(_) => Opening::Word,
    }
}

/// Reads one line, keeping at most `cap` bytes of it and one more; `None`
/// at the end of the input.
pub fn read_capped<R: BufRead + ?Sized>(
    input: &mut R,
    cap: usize,
    ends: Ends,
) -> io::Result<Option<Capped>> {
    let mut line = Capped {
        kept: Vec::new(),
        length: 0,
        ended: false,
        by_cr: false,
        head: Vec::new(),
    };
    let mut started = false;
    // A blank character at the opening not yet whole.
    let mut lead: Vec<u8> = Vec::new();
    loop {
        let buf = filled(input)?;
        if buf.is_empty() {
            return Ok(started.then_some(line));
        }
        started = true;
        let end = buf
            .iter()
            .position(|&b| b == b'\n' || (b == b'\r' && ends != Ends::Lf));
        let part = &buf[..end.unwrap_or(buf.len())];
        let room = (cap + 1).saturating_sub(line.kept.len());
        line.kept.extend_from_slice(&part[..part.len().min(room)]);
        let mut shown = part;
        if line.head.is_empty() {
            // Blanks are passed over a character at a time, one that is
            // cut between reads kept whole in `lead` meanwhile.
            let mut taken = 0;
            for &b in part {
                taken += 1;
                lead.push(b);
                match opening(&lead) {
                    Opening::Blank => lead.clear(),
                    Opening::Partial => {}
                    Opening::Word => break,
                }
            }
            if !lead.is_empty() && opening(&lead) == Opening::Word {
                line.head.append(&mut lead);
                shown = &part[taken..];
            } else {
                shown = &[];
            }
        }
        let head_room = HEAD.saturating_sub(line.head.len());
        line.head
            .extend_from_slice(&shown[..shown.len().min(head_room)]);
        line.length += part.len();
        let ending = end.map(|i| buf[i]);
        let used = end.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if let Some(ending) = ending {
            line.ended = true;
            line.by_cr = ending == b'\r';
            return Ok(Some(line));
        }
    }
}

/// Lines ended by LF, CRLF or a lone CR (old Macintosh files, and programs
/// that send CR as a terminal's Enter does), each returned as soon as its
/// ending comes: the LF of a CRLF is passed over when the next line is
/// read, so a line ended by a lone CR is answered without waiting for a
/// byte that may not come until the answer has been seen. A byte order mark
/// that opens the input (a file saved by some Windows editors) is dropped.
#[derive(Clone, Copy, Default, Debug)]
pub struct AnyNewline {
    /// The last line ended with a CR: an LF first in the next is its pair.
    after_cr: bool,
    /// A line has been read.
    started: bool,
    /// The last line ended with the input, not with a line end: the end
    /// (a second Ctrl-D at a terminal, after text) is not waited for again.
    finished: bool,
}

/// UTF-8's byte order mark.
const BOM: &[u8] = "\u{feff}".as_bytes();

impl AnyNewline {
    /// Reads one line, as [`read_capped`] does.
    pub fn read<R: BufRead + ?Sized>(
        &mut self,
        input: &mut R,
        cap: usize,
    ) -> io::Result<Option<Capped>> {
        // Each look ahead that finds the end of the input ends the read
        // there: at a terminal the end (Ctrl-D) is read once, and a second
        // read would wait for another.
        if std::mem::take(&mut self.after_cr) {
            match filled(input)?.first() {
                None => return Ok(None),
                Some(b'\n') => input.consume(1),
                Some(_) => {}
            }
        }
        if !std::mem::replace(&mut self.started, true) {
            let ahead = filled(input)?;
            if ahead.is_empty() {
                return Ok(None);
            }
            if ahead.starts_with(BOM) {
                input.consume(BOM.len());
            }
        }
        if self.finished {
            return Ok(None);
        }
        let line = read_capped(input, cap, Ends::CrOrLf)?;
        self.after_cr = line.as_ref().is_some_and(|l| l.by_cr);
        self.finished = line.as_ref().is_some_and(|l| !l.ended);
        Ok(line)
    }
}

/// The input's buffer, filled again if empty, through interruptions; empty
/// at the end of the input. (The buffer is asked for twice, as the borrow
/// checker cannot yet see a loop return it: the second time it is already
/// filled, and nothing is read again.)
fn filled<R: BufRead + ?Sized>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Ok([]) => return Ok(&[]),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    input.fill_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Input as a terminal gives it: each `None` an end of input (Ctrl-D)
    /// read once, and then more.
    struct Terminal(std::collections::VecDeque<Option<&'static [u8]>>);

    impl io::Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.pop_front() {
                Some(Some(bytes)) => {
                    buf[..bytes.len()].copy_from_slice(bytes);
                    Ok(bytes.len())
                }
                Some(None) | None => Ok(0),
            }
        }
    }

    #[test]
    fn a_line_ended_by_the_end_of_input_is_the_last() {
        // `who`, Ctrl-D (the text sent without its end), Ctrl-D (the end).
        let typed = Terminal([Some(&b"who"[..]), None, Some(&b"more\n"[..])].into());
        let mut input = io::BufReader::new(typed);
        let mut lines = AnyNewline::default();
        let first = lines.read(&mut input, 80).unwrap().unwrap();
        assert_eq!((first.kept.as_slice(), first.ended), (&b"who"[..], false));
        assert!(
            lines.read(&mut input, 80).unwrap().is_none(),
            "not read again"
        );
    }

    #[test]
    fn one_end_of_input_at_a_terminal_ends_the_read() {
        // At the very start.
        let typed = Terminal([None, Some(&b"more\n"[..])].into());
        let mut input = io::BufReader::new(typed);
        assert!(
            AnyNewline::default()
                .read(&mut input, 80)
                .unwrap()
                .is_none()
        );
        // After a line ended by a carriage return.
        let typed = Terminal([Some(&b"one\r"[..]), None, Some(&b"more\n"[..])].into());
        let mut input = io::BufReader::new(typed);
        let mut reader = AnyNewline::default();
        assert_eq!(reader.read(&mut input, 80).unwrap().unwrap().kept, b"one");
        assert!(reader.read(&mut input, 80).unwrap().is_none());
    }

    fn lines(text: &[u8], cap: usize, ends: Ends) -> Vec<(Vec<u8>, usize, bool)> {
        let mut input = text;
        let mut out = Vec::new();
        while let Some(c) = read_capped(&mut input, cap, ends).expect("read") {
            out.push((c.kept, c.length, c.ended));
        }
        out
    }

    fn any_newline(text: &[u8], cap: usize) -> Vec<(Vec<u8>, usize, bool)> {
        let mut input = text;
        let mut reader = AnyNewline::default();
        let mut out = Vec::new();
        while let Some(c) = reader.read(&mut input, cap).expect("read") {
            out.push((c.kept, c.length, c.ended));
        }
        out
    }

    #[test]
    fn the_head_passes_over_the_blanks_even_read_a_byte_at_a_time() {
        let text = "\u{feff} \t\u{2003}\u{3000}\u{a0}position startpos\n  \u{200b}x\n";
        for capacity in [1, 2, 3, 64] {
            let mut input = io::BufReader::with_capacity(capacity, text.as_bytes());
            let first = read_capped(&mut input, 4, Ends::Lf)
                .expect("read")
                .expect("a line");
            assert_eq!(first.head, b"position startpos", "{capacity}");
            // A zero-width space is no blank: the word starts there.
            let second = read_capped(&mut input, 4, Ends::Lf)
                .expect("read")
                .expect("a line");
            assert_eq!(second.head, "\u{200b}x".as_bytes(), "{capacity}");
        }
    }

    #[test]
    fn lines_end_as_asked_and_long_ones_are_cut() {
        let text = b"ab\r\ncd\ref\nlonger line\nlast";
        assert_eq!(
            lines(text, 5, Ends::Lf),
            [
                (b"ab\r".to_vec(), 3, true),
                (b"cd\ref".to_vec(), 5, true),
                (b"longer".to_vec(), 11, true),
                (b"last".to_vec(), 4, false),
            ]
        );
        assert_eq!(
            any_newline(text, 5),
            [
                (b"ab".to_vec(), 2, true),
                (b"cd".to_vec(), 2, true),
                (b"ef".to_vec(), 2, true),
                (b"longer".to_vec(), 11, true),
                (b"last".to_vec(), 4, false),
            ]
        );
        assert_eq!(
            lines(text, 5, Ends::CrOrLf),
            [
                (b"ab".to_vec(), 2, true),
                (Vec::new(), 0, true),
                (b"cd".to_vec(), 2, true),
                (b"ef".to_vec(), 2, true),
                (b"longer".to_vec(), 11, true),
                (b"last".to_vec(), 4, false),
            ]
        );
        assert!(lines(b"", 5, Ends::Lf).is_empty());
        // A byte order mark is dropped where it opens the input only.
        assert_eq!(
            any_newline("\u{feff}a\n\u{feff}b".as_bytes(), 5),
            [
                (b"a".to_vec(), 1, true),
                ("\u{feff}b".as_bytes().to_vec(), 4, false)
            ]
        );
        // A CR, then an LF: one ending; a CR, then a CR: an empty line.
        assert_eq!(
            any_newline(b"a\r\n\r\r\nb\r", 5),
            [
                (b"a".to_vec(), 1, true),
                (Vec::new(), 0, true),
                (Vec::new(), 0, true),
                (b"b".to_vec(), 1, true),
            ]
        );
        assert_eq!(lines(b"\n", 5, Ends::Lf), [(Vec::new(), 0, true)]);
    }

    #[test]
    fn a_line_ended_by_a_lone_cr_comes_back_before_the_next_byte() {
        use std::io::Write;
        let (reader, mut writer) = io::pipe().expect("pipe");
        let (tx, rx) = std::sync::mpsc::channel();
        let reading = std::thread::spawn(move || {
            let mut input = io::BufReader::new(reader);
            let mut lines = AnyNewline::default();
            while let Some(line) = lines.read(&mut input, 80).expect("read") {
                tx.send(line.kept).expect("send");
            }
        });
        let wait = std::time::Duration::from_secs(10);
        writer.write_all(b"first\r").expect("write");
        assert_eq!(rx.recv_timeout(wait).as_deref(), Ok(&b"first"[..]));
        // The LF that then comes is the CR's pair, not an empty line.
        writer.write_all(b"\nsecond\r\n").expect("write");
        assert_eq!(rx.recv_timeout(wait).as_deref(), Ok(&b"second"[..]));
        drop(writer);
        reading.join().expect("reader");
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn a_huge_line_keeps_only_its_cap() {
        let huge = vec![b'x'; 1 << 20];
        let got = lines(&huge, 16, Ends::Lf);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0.len(), 17);
        assert_eq!(got[0].1, 1 << 20);
    }
}
