//! The shell's own wording helpers, shared by every game's face.

/// A list, as prompts show choices: `9, 10, 11`.
pub fn list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A list of choices ending in "or": `6, 8 or 13`.
pub fn list_or<T: ToString>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {}", list(rest), last.to_string()),
    }
}
