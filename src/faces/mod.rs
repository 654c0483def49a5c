//! What each game says and draws: boards, sentences, help, and how a player
//! names squares. Each game's face implements the shell's
//! [`Face`](crate::shell::face::Face) and returns strings; the shell prints them.

pub mod draughts;
pub mod fish;
pub mod fox;

/// Asserts that each prose line of a help (indented, not a table's row with
/// its gap of two spaces) is whole sentences, so that the console wraps
/// whole paragraphs to the terminal's width and no line broken early
/// leaves an orphan at a narrow one.
#[cfg(test)]
pub(crate) fn assert_whole_sentences(help: &str) {
    for line in help.lines().filter(|l| l.starts_with("  ")) {
        let text = line.trim_start();
        if text.contains("  ") {
            continue;
        }
        assert!(
            text.ends_with('.') || text.ends_with(':'),
            "broken mid-sentence: {line:?}"
        );
    }
}
