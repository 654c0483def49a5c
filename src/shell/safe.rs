//! Text from outside (the game log, file names, error messages) made safe
//! for a terminal, and laid out by display width.
//!
//! Control characters (C0, DEL, C1) and invisible format characters (among
//! them the bidirectional overrides) are shown escaped, as `\u{1b}`, so no
//! file can move the cursor, retitle the window or turn text around.

use std::io::{self, Write};

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::ask::is_format;

/// The text with every character that could control a terminal escaped.
pub fn text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_control() || is_format(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`text`] of `raw` cut to at most `max` columns, with `…` where it was
/// cut: between characters, an escape counted as one, so no escape is
/// left half shown.
pub fn text_cut(raw: &str, max: usize) -> String {
    let pieces: Vec<String> = raw
        .chars()
        .map(|c| text(c.encode_utf8(&mut [0; 4])))
        .collect();
    cut_pieces(&pieces, max, "…")
}

/// `pieces` (each a character as shown: itself or its escape) in at most
/// `max` columns: whole where they fit, else as many as fit before `mark`.
/// A piece that is a character [`text`] escapes counts as wide as its
/// escape, which is how it is shown in the end.
pub fn cut_pieces(pieces: &[String], max: usize, mark: &str) -> String {
    let shown_width = |piece: &str| width(&text(piece));
    if pieces.iter().map(|p| shown_width(p)).sum::<usize>() <= max {
        return pieces.concat();
    }
    let room = max.saturating_sub(width(mark));
    let mut out = String::new();
    let mut used = 0;
    for piece in pieces {
        let w = shown_width(piece);
        if used + w > room {
            break;
        }
        used += w;
        out.push_str(piece);
    }
    out.push_str(mark);
    out
}

/// JSON text with every character that could control a terminal written
/// as a `\u` escape, which JSON reads back as the same character.
pub fn json(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_control() || is_format(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A writer that passes text on with every character that could control
/// a terminal escaped, as [`text`] does, line ends kept: for whole
/// documents made of text from outside (PDN from the game log). Each write
/// is read as text on its own, so a writer should be given whole strings
/// (as `write!` and `write_all` of a `&str` do); bytes that are not UTF-8
/// come out as U+FFFD.
pub struct Escaping<W: Write>(pub W);

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let raw = String::from_utf8_lossy(buf);
        let mut out = String::with_capacity(raw.len());
        for line in raw.split_inclusive('\n') {
            match line.strip_suffix('\n') {
                Some(body) => {
                    out.push_str(&text(body));
                    out.push('\n');
                }
                None => out.push_str(&text(line)),
            }
        }
        self.0.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The length of the escape [`text`] writes (`\u{1b}`) at the start of
/// `shown`, if one is there.
fn escape_len(shown: &str) -> Option<usize> {
    let digits = shown.strip_prefix("\\u{")?;
    let hex = digits.find(|c: char| !c.is_ascii_hexdigit())?;
    (hex > 0 && digits[hex..].starts_with('}')).then_some(3 + hex + 1)
}

/// Text made safe by [`text`] as the pieces it is shown in: each escape
/// whole, each other character alone.
fn shown_pieces(shown: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        let len = escape_len(rest).unwrap_or(c.len_utf8());
        pieces.push(&rest[..len]);
        rest = &rest[len..];
    }
    pieces
}

/// Text made safe by [`text`] in capitals, its escapes left as they are
/// (`\u{1b}`, not `\U{1B}`): for a teletype's voice.
pub fn upper(shown: &str) -> String {
    shown_pieces(shown)
        .into_iter()
        .map(|piece| {
            if escape_len(piece).is_some() {
                piece.to_string()
            } else {
                piece.to_uppercase()
            }
        })
        .collect()
}

/// The columns `text` takes in a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` cut to at most `max` columns, with `…` where it was cut; an
/// escape that [`text`] wrote (`\u{1b}`) is kept whole or left out, never
/// shown in part. A character [`text`] would escape counts as wide as its
/// escape: the columns are those it takes once shown.
pub fn cut(text: &str, max: usize) -> String {
    let pieces: Vec<String> = shown_pieces(text).into_iter().map(String::from).collect();
    cut_pieces(&pieces, max, "…")
}

/// `text` with what each pair of double quotes holds cut to at most `max`
/// columns (see [`cut`]): a refusal quotes what was typed, and no more of
/// it than a glance takes in.
pub fn quotes_cut(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(4 * max + 256));
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let inside = &rest[open + 1..];
        let Some(close) = inside.find('"') else {
            break;
        };
        out.push_str(&rest[..=open]);
        out.push_str(&cut(&inside[..close], max));
        out.push('"');
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `text` cut to `columns` and padded with spaces to exactly that width,
/// on the left when `right` aligns it right.
pub fn pad(text: &str, columns: usize, right: bool) -> String {
    let text = cut(text, columns);
    let fill = " ".repeat(columns.saturating_sub(width(&text)));
    if right {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

/// Text wrapped at word boundaries so no line is wider than `width`
/// columns. A line's leading spaces indent its continuation lines too; a
/// word wider than a whole line is broken where it must be.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // A table's row too narrow for its columns is laid out below, as
        // its neighbours that do not fit are, even when it fits.
        let cramped = description_column(line).is_some_and(|column| width < column + 12);
        if self::width(line) <= width && !cramped {
            out.push_str(line);
            continue;
        }
        // A table's row (`  hint    name a best move …`): its description
        // wraps under itself, so the columns stay aligned.
        // A numbered item (`1. Rubbish - random legal moves`) likewise
        // wraps under its text, not under its number.
        // Too narrow for the table's columns: each term on a line of its
        // own, its description wrapped below it, a little further in.
        let column = description_column(line).or_else(|| numbered_column(line));
        let laid = match column {
            Some(column) if width >= column + 12 => {
                let (term, description) = line.split_at(column);
                Some((term, description, self::width(term), false))
            }
            _ => description_column(line).map(|column| {
                let (term, description) = line.split_at(column);
                let indent = line.len() - line.trim_start().len();
                (term.trim_end(), description, indent + 4, true)
            }),
        };
        if let Some((term, description, pad, alone)) = laid {
            out.push_str(term);
            let room = width.saturating_sub(pad).max(1);
            for (k, part) in wrap_words(description, room).iter().enumerate() {
                if alone || k > 0 {
                    out.push('\n');
                    out.push_str(&" ".repeat(pad));
                }
                out.push_str(part);
            }
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let room = width.saturating_sub(self::width(indent)).max(1);
        let mut current = String::new();
        let mut lines: Vec<String> = Vec::new();
        for word in line.split_whitespace() {
            let needed =
                self::width(&current) + usize::from(!current.is_empty()) + self::width(word);
            if !current.is_empty() && needed > room {
                lines.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            // A word longer than the whole line is broken.
            for c in word.chars() {
                if self::width(&current) + c.width().unwrap_or(0) > room {
                    lines.push(std::mem::take(&mut current));
                }
                current.push(c);
            }
        }
        lines.push(current);
        let joined: Vec<String> = lines.iter().map(|l| format!("{indent}{l}")).collect();
        out.push_str(&joined.join("\n"));
    }
    out
}

/// [`wrap`], where two words that `held` says go together (a number and
/// its unit, [`number_and_unit`]) are never parted at a line's end while
/// they fit on a line: the pair goes on to the next line whole. Only
/// plain spaces are written between them.
pub fn wrap_holding(text: &str, width: usize, held: impl Fn(&str, &str) -> bool) -> String {
    // While the text is wrapped, a held space is a character of the same
    // width that is no space, one the text does not hold, from the
    // private use area.
    let Some(glue) = ('\u{e000}'..='\u{f8ff}').find(|&c| !text.contains(c)) else {
        return wrap(text, width);
    };
    let mut joined = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            joined.push('\n');
        }
        let words: Vec<&str> = line.split(' ').collect();
        // `holds[k]`: the space before word `k` is held. A run of held
        // pairs (`game 12 plies`) is held only while it fits on a line:
        // else it is parted at its first held spaces until it does.
        let mut holds = vec![false; words.len()];
        let mut start = 0;
        let mut run = words.first().map_or(0, |w| self::width(w));
        for k in 1..words.len() {
            let (before, word) = (words[k - 1], words[k]);
            if before.is_empty() || word.is_empty() || !held(before, word) {
                start = k;
                run = self::width(word);
                continue;
            }
            holds[k] = true;
            run += 1 + self::width(word);
            while run > width && start < k {
                run -= self::width(words[start]) + 1;
                start += 1;
                holds[start] = false;
            }
        }
        for (k, word) in words.iter().enumerate() {
            if k > 0 {
                joined.push(if holds[k] { glue } else { ' ' });
            }
            joined.push_str(word);
        }
    }
    wrap(&joined, width).replace(glue, " ")
}

/// A sentence as the shell says it: [`wrap`], never parting a number from
/// the word it counts ([`number_and_unit`]).
pub fn wrap_said(text: &str, width: usize) -> String {
    wrap_holding(text, width, |before, after| {
        number_and_unit(before, after)
            || number_pair(before, after)
            || command_and_number(before, after)
    })
}

/// Whether `before` is a command that takes a number and `after` that
/// number, as they are typed (`accept 2`, `replay 12.`), or a game, seek,
/// row, column or hound is named by its number (`Game 3`, `number 4`,
/// `column 1.`).
pub fn command_and_number(before: &str, after: &str) -> bool {
    const NAMING: [&str; 15] = [
        "accept", "watch", "resume", "replay", "history", "game", "Game", "seek", "Seek", "number",
        "games", "row", "column", "hound", "Hound",
    ];
    NAMING.contains(&before.trim_start_matches(['`', '(']))
        && after
            .trim_end_matches(['.', ',', ';', ':', ')', '?', '!', '`'])
            .bytes()
            .all(|b| b.is_ascii_digit())
        && after.starts_with(|c: char| c.is_ascii_digit())
}

/// Whether `before` and `after` are two whole numbers in a row, as a fish
/// square is written (`2 4`, `(2 4)`, `like 2 4.`): one square, never
/// parted.
pub fn number_pair(before: &str, after: &str) -> bool {
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    digits(before.strip_prefix('(').unwrap_or(before))
        && digits(after.trim_end_matches(['.', ',', ';', ':', ')', '?', '!']))
}

/// Whether `before` is a number and `after` its unit, as in `0.28 s`,
/// `5993 nodes`, `(12 plies)` or `(-0.09 men`: a word of digits, with a
/// decimal point, a sign or after an opening bracket, then a word that
/// starts with a letter.
pub fn number_and_unit(before: &str, after: &str) -> bool {
    let number = before.trim_start_matches(['(', '[', '+', '-']);
    let mut parts = number.splitn(2, '.');
    let digits = |part: Option<&str>| {
        part.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let whole = digits(parts.next());
    let fraction = parts.next();
    whole
        && (fraction.is_none() || digits(fraction))
        && after.starts_with(|c: char| c.is_alphabetic())
}

/// The first page of `text` wrapped at `width`: at most `rows` lines, and
/// the rest of the text, unwrapped, where some is left (so that it can be
/// wrapped again for a screen resized meanwhile). A page ends between lines
/// of the text, so an item wrapped over several lines stays whole unless it
/// is longer than a page, and before a new part where one begins in its
/// second half: after a blank line, or at a line that starts with a letter
/// or digit after one that does not (`The rules` after an indented line or
/// a box's edge).
pub fn first_page(text: &str, width: usize, rows: usize) -> (String, Option<String>) {
    let source: Vec<&str> = text.split('\n').collect();
    let alnum = |line: &str| line.starts_with(|c: char| c.is_alphanumeric());
    let starts_part = |i: usize| {
        i > 0 && (source[i - 1].trim().is_empty() || (alnum(source[i]) && !alnum(source[i - 1])))
    };
    let rows = rows.max(1);
    let mut page: Vec<String> = Vec::new();
    // Each source line on the page, and the page's line where it begins.
    let mut begun: Vec<(usize, usize)> = Vec::new();
    for (i, line) in source.iter().enumerate() {
        let wrapped: Vec<String> = wrap_said(line, width)
            .split('\n')
            .map(str::to_string)
            .collect();
        if page.len() + wrapped.len() <= rows {
            begun.push((i, page.len()));
            page.extend(wrapped);
            continue;
        }
        let room = rows - page.len();
        // Where the page would hold less than half a screen (a heading
        // alone), the line goes on it in part, as a line longer than a page.
        if !page.is_empty() && page.len() > rows / 2 {
            let (k, at) = begun
                .iter()
                .rev()
                .find(|&&(k, at)| at > rows / 2 && starts_part(k))
                .copied()
                .unwrap_or((i, page.len()));
            page.truncate(at);
            return (page.join("\n"), Some(source[k..].join("\n")));
        }
        // As much of the line as fits, then the rest of its words as a
        // line of its own, indented as it is.
        let indent = &line[..line.len() - line.trim_start().len()];
        let words: Vec<&str> = wrapped[room..].iter().map(|l| l.trim()).collect();
        let mut rest = vec![format!("{indent}{}", words.join(" "))];
        rest.extend(source[i + 1..].iter().map(|l| l.to_string()));
        page.extend_from_slice(&wrapped[..room]);
        return (page.join("\n"), Some(rest.join("\n")));
    }
    (page.join("\n"), None)
}

/// Where a table row's description begins: after an indent, a term, and a
/// gap of two spaces or more. `None` for a line that is no such row.
fn description_column(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start().len();
    if indent == 0 {
        return None;
    }
    let gap = line[indent..].find("  ")? + indent;
    let after = line[gap..].len() - line[gap..].trim_start().len();
    let column = gap + after;
    (column < line.len()).then_some(column)
}

/// Where a numbered item's text begins: after an indent, the number and
/// `. `. `None` for a line that is no such item.
fn numbered_column(line: &str) -> Option<usize> {
    let text = line.trim_start();
    let indent = line.len() - text.len();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && text[digits..].starts_with(". ")).then_some(indent + digits + 2)
}

/// Words wrapped at `room` columns, each line without its indent.
fn wrap_words(text: &str, room: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && width(&current) + 1 + width(word) > room {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_between_escapes() {
        assert_eq!(text_cut("ab", 5), "ab");
        assert_eq!(text_cut("a\u{202e}bcdefghijk", 8), "a…");
        assert_eq!(text_cut("a\u{202e}bcdefghijk", 12), "a\\u{202e}bc…");
        assert_eq!(text_cut("xxxxxxxxxx", 4), "xxx…");
        assert_eq!(
            upper(&text("\u{1b}[31mhuman\u{202e}")),
            "\\u{1b}[31MHUMAN\\u{202e}"
        );
        assert_eq!(upper("a\\u{zz} b\\u{"), "A\\U{ZZ} B\\U{");
        // A cell cut where an escape is: the escape goes whole.
        let shown = text("\u{1b}[31mHUMAN\u{202e}");
        assert_eq!(cut(&shown, 18), "\\u{1b}[31mHUMAN…");
        assert_eq!(cut(&shown, 24), "\\u{1b}[31mHUMAN\\u{202e}");
        assert_eq!(cut(&shown, 5), "…");
        // Raw text is cut by the columns it takes once escaped: characters
        // that draw as nothing are no longer free.
        let invisible = "\u{200b}".repeat(33);
        assert_eq!(text(&cut(&invisible, 20)), "\\u{200b}\\u{200b}…");
        assert_eq!(cut("a\u{1b}b", 40), "a\u{1b}b");
        assert_eq!(text(&cut("ab\u{1b}cdef", 8)), "ab…");
        // Each quote cut on its own; what is outside them left whole.
        assert_eq!(
            quotes_cut(
                &format!("\"{}\" is not \"{}\" or \"ab\"", "x".repeat(50), invisible),
                20
            ),
            format!(
                "\"{}…\" is not \"\u{200b}\u{200b}…\" or \"ab\"",
                "x".repeat(19)
            )
        );
        assert_eq!(quotes_cut("a \"b", 20), "a \"b");
    }

    /// Every page of `text`, at one size.
    fn pages(text: &str, width: usize, rows: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = Some(text.to_string());
        while let Some(text) = rest.take() {
            let (page, more) = first_page(&text, width, rows);
            out.push(page);
            rest = more;
        }
        out
    }

    #[test]
    fn a_page_keeps_a_number_with_what_it_counts() {
        let help = "  One fox (F) and 4 hounds (H) stand on the board.";
        assert_eq!(
            first_page(help, 22, 10).0,
            "  One fox (F) and\n  4 hounds (H) stand\n  on the board."
        );
    }

    #[test]
    fn pages_end_between_items_and_before_a_new_part_in_their_second_half() {
        let text = "+--+\n|hi|\n+--+\nThe rules\n  one\n  two\n  three\nThe controls\n  four";
        // Six rows: "The controls" (row 8) is too far, so the page is full.
        assert_eq!(
            pages(text, 80, 6),
            [
                "+--+\n|hi|\n+--+\nThe rules\n  one\n  two",
                "  three\nThe controls\n  four"
            ]
        );
        // Eight rows: "The controls" begins the second page.
        assert_eq!(
            pages(text, 80, 8),
            [
                "+--+\n|hi|\n+--+\nThe rules\n  one\n  two\n  three",
                "The controls\n  four"
            ]
        );
        // An item wrapped over two lines is not parted where a page ends.
        assert_eq!(
            pages("  a b\n  c d\n  e f", 4, 5),
            ["  a\n  b\n  c\n  d", "  e\n  f"]
        );
        // A page that would hold a heading alone holds part of what
        // follows it too.
        assert_eq!(
            pages("Rules\n  a b c d e f g h", 5, 3),
            ["Rules\n  a b\n  c d", "  e f\n  g h"]
        );
        // A paragraph's lines are not a new part; a blank line before one is.
        assert_eq!(pages("a\nb\nc\n\nd\ne", 80, 5), ["a\nb\nc\n", "d\ne"]);
        // A line longer than a page is cut where the page ends, and what is
        // left of it keeps its indent.
        assert_eq!(pages("  a b c", 3, 2), ["  a\n  b", "  c"]);
        assert_eq!(pages("a\nb", 80, 9), ["a\nb"]);
        // What is left is the text itself, to be wrapped again at another
        // width.
        assert_eq!(
            first_page("  one two three\n  four", 8, 2),
            (
                "  one\n  two".to_string(),
                Some("  three\n  four".to_string())
            )
        );
    }

    #[test]
    fn a_number_is_held_to_its_unit() {
        let searched = "depth 11, 5993 nodes in 0.28 s";
        assert_eq!(wrap(searched, 28), "depth 11, 5993 nodes in 0.28\ns");
        let held = wrap_holding(searched, 28, number_and_unit);
        assert_eq!(held, "depth 11, 5993 nodes in\n0.28 s");
        assert_eq!(
            wrap_holding(searched, 22, number_and_unit),
            "depth 11, 5993 nodes\nin 0.28 s"
        );
        assert_eq!(
            wrap_holding("it (0.13 s)", 8, number_and_unit),
            "it\n(0.13 s)"
        );
        // A pair wider than the line is parted as any word would be.
        assert_eq!(
            wrap_holding("in 123456 nodes", 8, number_and_unit),
            "in\n123456\nnodes"
        );
        for (before, after) in [
            ("0.28", "s"),
            ("5993", "nodes"),
            ("(12", "plies)"),
            ("(-0.09", "men"),
            ("+1.5", "men"),
        ] {
            assert!(number_and_unit(before, after), "{before} {after}");
        }
        for (before, after) in [
            ("11,", "5993"),
            ("1.", "9-14"),
            ("5.", "s"),
            ("a1", "b"),
            ("0.2.8", "s"),
            ("-", "x"),
        ] {
            assert!(!number_and_unit(before, after), "{before} {after}");
        }
    }

    #[test]
    fn a_command_is_held_to_its_number() {
        let said = "ann challenges you to fox (rated): type accept 2 to play.";
        assert_eq!(
            wrap_said(said, 47),
            "ann challenges you to fox (rated): type\naccept 2 to play."
        );
        // A run of held words is held only while it fits a line.
        assert_eq!(wrap_said("see game 12 plies", 11), "see game\n12 plies");
        assert_eq!(wrap_said("x game 12 plies", 9), "x game\n12 plies");
        // A number that ends a sentence is not left alone on a line.
        assert_eq!(
            wrap_said("the hound moves from row 3 to column 1.", 37),
            "the hound moves from row 3 to\ncolumn 1."
        );
        for (before, after) in [
            ("accept", "2"),
            ("Game", "12."),
            ("`replay", "3`"),
            ("column", "1."),
            ("row", "3,"),
            ("hound", "2"),
        ] {
            assert!(command_and_number(before, after), "{before} {after}");
        }
        for (before, after) in [
            ("accept,", "2"),
            ("like", "2"),
            ("game", "2a"),
            ("game", "."),
        ] {
            assert!(!command_and_number(before, after), "{before} {after}");
        }
    }

    #[test]
    fn a_fish_square_is_held_whole() {
        let said = "\"x\" is not a square: type a row 1-6 and a column 1-6, like 2 4.";
        assert_eq!(
            wrap_said(said, 62),
            "\"x\" is not a square: type a row 1-6 and a column 1-6, like\n2 4."
        );
        assert_eq!(wrap_said("from (12 4) to", 9), "from\n(12 4) to");
        for (before, after) in [("2", "4"), ("(2", "4)"), ("2", "4."), ("10", "12,")] {
            assert!(number_pair(before, after), "{before} {after}");
        }
        for (before, after) in [("2,", "4"), ("1-6", "4"), ("2", "x"), ("", "4"), ("2", ".")] {
            assert!(!number_pair(before, after), "{before} {after}");
        }
    }

    #[test]
    fn a_numbered_item_wraps_under_its_text() {
        let item = "2. Greedy - takes the most it can, crowns when it can";
        assert_eq!(
            wrap(item, 30),
            "2. Greedy - takes the most it\n   can, crowns when it can"
        );
    }

    #[test]
    fn a_table_row_wraps_under_its_own_description() {
        let row = "  hint     name a best move, with the verdict of best play";
        assert_eq!(
            wrap(row, 40),
            "  hint     name a best move, with the\n           verdict of best play"
        );
        // Too narrow for the columns: the term on a line of its own, the
        // description below it, a little further in.
        assert_eq!(
            wrap(row, 20),
            "  hint\n      name a best\n      move, with the\n      verdict of\n      best play"
        );
        let lobby = "  seek GAME [options]         offer a game: fox, draughts or fish";
        let narrow = wrap(lobby, 40);
        assert_eq!(
            narrow,
            "  seek GAME [options]\n      offer a game: fox, draughts or\n      fish"
        );
        assert!(narrow.lines().all(|l| width(l) <= 40), "{narrow}");
    }

    #[test]
    fn escapes_reach_the_screen_as_text() {
        assert_eq!(text("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
        assert_eq!(
            text("x\u{202e}y\u{9b}z\u{7f}"),
            "x\\u{202e}y\\u{9b}z\\u{7f}"
        );
        assert_eq!(text("a\u{2028}b\u{2029}"), "a\\u{2028}b\\u{2029}");
        assert_eq!(text("狐狸 🦊"), "狐狸 🦊");
        // Fillers and variation selectors draw as nothing too.
        for c in [
            '\u{34f}',
            '\u{115f}',
            '\u{1160}',
            '\u{17b4}',
            '\u{17b5}',
            '\u{3164}',
            '\u{ffa0}',
            '\u{fe00}',
            '\u{fe0f}',
            '\u{e0100}',
        ] {
            assert_eq!(text(&format!("a{c}b")), format!("a\\u{{{:x}}}b", c as u32));
        }
    }

    #[test]
    fn long_lines_wrap_at_word_boundaries() {
        assert_eq!(wrap("short", 80), "short");
        assert_eq!(wrap("one two three four", 9), "one two\nthree\nfour");
        assert_eq!(wrap("  aa bb cc", 7), "  aa bb\n  cc");
        assert_eq!(wrap("abcdefghij", 4), "abcd\nefgh\nij");
        assert_eq!(wrap("x\ny", 1), "x\ny");
        for width in 5..40 {
            let text =
                "The fox got past the hounds: no hound can ever reach it, nor a square next to it.";
            assert!(wrap(text, width).lines().all(|l| super::width(l) <= width));
        }
    }

    #[test]
    fn json_keeps_its_meaning_without_raw_controls() {
        let raw = serde_json::to_string("a\u{9b}b\u{202e}c\u{E0041}\n").unwrap();
        let safe = json(&raw);
        assert!(
            safe.chars().all(|c| !c.is_control() && !is_format(c)),
            "{safe}"
        );
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "a\u{9b}b\u{202e}c\u{E0041}\n");
    }

    #[test]
    fn cells_align_by_display_width() {
        assert_eq!(width("狐狸"), 4);
        assert_eq!(pad("狐狸", 6, false), "狐狸  ");
        assert_eq!(pad("42", 4, true), "  42");
        assert_eq!(cut("abcdefgh", 5), "abcd…");
        assert_eq!(cut("狐狸狐狸", 5), "狐狸…");
        assert_eq!(width(&pad(&"x".repeat(70_000), 20, false)), 20);
    }

    #[test]
    fn a_document_passes_through_escaped_with_its_line_ends() {
        let mut out = Escaping(Vec::new());
        write!(out, "[Event \"\u{1b}]0;title\u{7}\u{202e}\"]\r\n").unwrap();
        out.write_all("1. 11-15 *\n".as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(out.0).unwrap(),
            "[Event \"\\u{1b}]0;title\\u{7}\\u{202e}\"]\\u{d}\n1. 11-15 *\n"
        );
    }
}
