//! The examples' command lines, read the one way every draughts example
//! reads them: `--name value` pairs anywhere on the line.

/// The words after the program's name.
pub fn words() -> Vec<String> {
    std::env::args().skip(1).collect()
}

/// The value after `--name`, if it is given.
pub fn value(words: &[String], name: &str) -> Option<String> {
    words
        .iter()
        .position(|a| a == name)
        .and_then(|i| words.get(i + 1))
        .cloned()
}
