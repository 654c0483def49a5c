//! What a console has written since it last cleared the screen, kept for a
//! Ctrl-L redraw. Lines said are kept whole, so that the redraw wraps them
//! at the width the screen has then, not the width it had when they were
//! first said.

use crate::shell::safe;

/// The most screen text kept: past it, what is kept is forgotten (the
/// redraw then shows only what comes after).
const MAX_SCREEN: usize = 64 * 1024;

/// One piece of what was written.
#[derive(Debug)]
enum Part {
    /// A line said (wrapped to the width when shown), its line end implied.
    Said(String),
    /// Text written as it is (a board drawn for the width of its time).
    Raw(String),
}

/// The screen's text since the last clear.
#[derive(Debug, Default)]
pub struct Screen {
    parts: Vec<Part>,
    bytes: usize,
}

impl Screen {
    /// A line said, to be wrapped at word boundaries when shown.
    pub fn said(&mut self, line: &str) {
        self.push(Part::Said(line.to_string()));
    }

    /// Text written as it is.
    pub fn raw(&mut self, text: &str) {
        if let Some(Part::Raw(last)) = self.parts.last_mut() {
            last.push_str(text);
            self.bytes += text.len();
            self.forget_if_full();
        } else {
            self.push(Part::Raw(text.to_string()));
        }
    }

    /// Forgets everything: the screen was cleared.
    pub fn clear(&mut self) {
        self.parts.clear();
        self.bytes = 0;
    }

    /// The text as it would be written again at `width` columns.
    pub fn shown(&self, width: usize) -> String {
        let mut out = String::with_capacity(self.bytes + self.bytes / 8);
        for part in &self.parts {
            match part {
                Part::Said(line) => {
                    out.push_str(&safe::wrap_said(line, width));
                    out.push('\n');
                }
                Part::Raw(text) => out.push_str(text),
            }
        }
        out
    }

    fn push(&mut self, part: Part) {
        self.bytes += match &part {
            Part::Said(t) | Part::Raw(t) => t.len(),
        };
        self.parts.push(part);
        self.forget_if_full();
    }

    fn forget_if_full(&mut self) {
        if self.bytes > MAX_SCREEN {
            self.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_said_are_wrapped_at_the_width_of_the_redraw() {
        let mut s = Screen::default();
        s.raw("A B\nC D\n");
        s.said("Type help for the rules and commands, or quit to leave.");
        assert_eq!(
            s.shown(30),
            "A B\nC D\nType help for the rules and\ncommands, or quit to leave.\n"
        );
        assert_eq!(
            s.shown(80),
            "A B\nC D\nType help for the rules and commands, or quit to leave.\n"
        );
    }

    #[test]
    fn too_much_is_forgotten_and_a_clear_forgets_all() {
        let mut s = Screen::default();
        s.raw(&"x".repeat(MAX_SCREEN));
        s.raw("y");
        assert_eq!(s.shown(80), "");
        s.said("after");
        assert_eq!(s.shown(80), "after\n");
        s.clear();
        assert_eq!(s.shown(80), "");
    }
}
