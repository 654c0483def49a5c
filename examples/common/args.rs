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

/// Numbers and ranges within `1..=max`, as `1-26` or `3,17,40-42`; `name`
/// is the option's, for the message. (Only the examples that take a list
/// of openings call it.)
#[allow(dead_code)]
pub fn numbers(text: &str, name: &str, max: usize) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (x, y) = part.split_once('-').unwrap_or((part, part));
        let p = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("{name}: {part}"))
        };
        let (x, y) = (p(x)?, p(y)?);
        if x < 1 || y > max || x > y {
            return Err(format!("{name} runs within 1-{max}"));
        }
        out.extend(x..=y);
    }
    Ok(out)
}
