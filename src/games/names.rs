//! The names a game gives its sides and its computer levels, declared once
//! for every game: [`sides!`] and [`levels!`] write the enum, its names on the
//! command line and in the log, `Display`, `FromStr` and, for levels,
//! [`Level`](super::Level). Their refusals are [`UnknownSide`] and
//! [`UnknownLevel`]; a game's other named choices (a rule set, a capture
//! rule) are refused with [`UnknownChoice`].

use std::fmt;

/// Items as a list for a sentence: `a`, `a or b`, `a, b or c`; empty for none.
pub fn or_list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    joined(items, "or")
}

/// Items as a list for a sentence: `a`, `a and b`, `a, b and c`; empty for
/// none.
pub fn and_list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    joined(items, "and")
}

fn joined<T: fmt::Display>(items: impl IntoIterator<Item = T>, last_word: &str) -> String {
    let names: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {last_word} {last}", rest.join(", ")),
    }
}

/// A side's name that the game does not have.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownSide {
    /// What was written.
    pub text: String,
    /// The game's sides, by their names.
    pub names: [&'static str; 2],
}

impl fmt::Display for UnknownSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.names;
        if self.text.trim().is_empty() {
            write!(f, "type {a} or {b}")
        } else {
            write!(f, "\"{}\" is not a side: type {a} or {b}", self.text)
        }
    }
}

impl std::error::Error for UnknownSide {}

/// A level's name that the game does not have.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownLevel {
    /// What was written.
    pub text: String,
    /// The game's levels, weakest first.
    pub names: Vec<String>,
}

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let written = or_list(&self.names);
        write!(f, "\"{}\" is not a level: write {written}", self.text)
    }
}

impl std::error::Error for UnknownLevel {}

/// A name for one of a game's choices (a rule set, a capture rule) that the
/// game does not have.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownChoice {
    /// What was written.
    pub text: String,
    /// What kind of choice: `rule set`, `capture rule`.
    pub what: &'static str,
    /// The names there are.
    pub names: &'static [&'static str],
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let written = or_list(self.names);
        write!(
            f,
            "\"{}\" is not a {}: write {written}",
            self.text, self.what
        )
    }
}

impl std::error::Error for UnknownChoice {}

/// Declares a game's two sides: each with its name (first) and the other
/// words that name it, in any case.
///
/// ```ignore
/// sides! {
///     /// Who moves.
///     pub enum Side {
///         /// The fox.
///         Fox = "fox" | "f",
///         /// The hounds.
///         Hounds = "hounds" | "hound" | "h",
///     }
/// }
/// ```
macro_rules! sides {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(#[$ameta:meta])* $a:ident = $aname:literal $(| $aword:literal)*,
            $(#[$bmeta:meta])* $b:ident = $bname:literal $(| $bword:literal)*,
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis enum $name {
            $(#[$ameta])* $a,
            $(#[$bmeta])* $b,
        }

        impl $name {
            /// The side's name, as the log, position notation and questions write it.
            pub const fn name(self) -> &'static str {
                match self {
                    $name::$a => $aname,
                    $name::$b => $bname,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::games::UnknownSide;

            fn from_str(text: &str) -> Result<$name, Self::Err> {
                let word = text.trim();
                if [$aname $(, $aword)*].iter().any(|w| w.eq_ignore_ascii_case(word)) {
                    Ok($name::$a)
                } else if [$bname $(, $bword)*].iter().any(|w| w.eq_ignore_ascii_case(word)) {
                    Ok($name::$b)
                } else {
                    Err($crate::games::UnknownSide {
                        text: word.to_string(),
                        names: [$aname, $bname],
                    })
                }
            }
        }
    };
}

/// Declares a game's computer levels, weakest first: each with its name and
/// a line for the menu saying how it plays.
macro_rules! levels {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal: $desc:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every level, weakest first.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used on the command line and in the log.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// One line saying what playing it is like.
            pub const fn description(self) -> &'static str {
                match self {
                    $($name::$variant => $desc,)+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::games::UnknownLevel;

            fn from_str(text: &str) -> Result<$name, Self::Err> {
                <$name as $crate::games::Level>::parse_name(text)
            }
        }

        impl $crate::games::Level for $name {
            const ALL: &'static [$name] = $name::ALL;

            fn description(self) -> &'static str {
                $name::description(self)
            }
        }
    };
}
