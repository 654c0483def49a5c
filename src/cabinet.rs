//! The cabinet's game list for those who take games by name: the server's
//! `seek`, `play` and its restored games. The one place below the command
//! line that names every game with its face; the server itself names none.

use crate::engines::draughts::session::Session;
use crate::faces::draughts::DraughtsFace;
use crate::faces::fish::FishFace;
use crate::faces::fox::FoxFace;
use crate::games::{self, FoxFlow, GameKind, Rules};
use crate::shell::safe;
use crate::shell::table::{PlayError, Seated, Table};

/// Why the cabinet could not set a table.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// No game was named.
    #[error("which game? The games are {}", GAMES.join(", "))]
    NoGameNamed,
    /// No game has that name (the name as typed, lowercase).
    #[error("there is no game \"{}\" here: the games are {}", safe::cut(.0, 20), GAMES.join(", "))]
    NoGame(String),
    /// The game has no such setup option.
    #[error("{game} has no option --{}; it takes {}", safe::cut(.key, 20), offered(.known, .also))]
    NoOption {
        /// The game's name.
        game: &'static str,
        /// The option as given.
        key: String,
        /// The options the game has.
        known: &'static [&'static str],
        /// The options its caller takes beside them (a seek's `side`).
        also: &'static [&'static str],
    },
    /// The game refused the setup: why, in its words.
    #[error("{0}")]
    Setup(Box<dyn std::error::Error + Send + Sync>),
    /// A move kept with the game could not be played again.
    #[error("{0}")]
    Play(#[from] PlayError),
}

/// Options as they are typed: `--board, --rules and --side`.
fn offered(known: &[&str], also: &[&str]) -> String {
    games::and_list(known.iter().chain(also).map(|k| format!("--{k}")))
}

/// A game's refusal of a setup, kept as the cabinet's.
fn setup_error(e: impl std::error::Error + Send + Sync + 'static) -> TableError {
    TableError::Setup(Box::new(e))
}

/// The games a server offers, by the names players type.
pub const GAMES: [&str; 3] = ["fox", "draughts", "fish"];

/// The setup options each game takes, as `--name value`.
fn options(kind: GameKind) -> &'static [&'static str] {
    match kind {
        GameKind::Fox(_) => &["board", "rules"],
        GameKind::Draughts => &["captures", "opening"],
        GameKind::Fish => &["board", "tiles", "penguins"],
    }
}

/// Whether a game of `kind` takes the setup option `key` (without its
/// dashes, in any case): the refusal quotes it as given and names the
/// options the game takes, then `also`, those its caller takes beside them.
pub fn check_option(
    kind: GameKind,
    key: &str,
    also: &'static [&'static str],
) -> Result<(), TableError> {
    let known = options(kind);
    if known.contains(&key.to_ascii_lowercase().as_str()) {
        Ok(())
    } else {
        Err(TableError::NoOption {
            game: kind.game(),
            key: key.to_string(),
            known,
            also,
        })
    }
}

/// The name of side `index` (as a seek keeps its maker's side) in a game
/// of `kind` set up with `given`; `None` for a side or setup there is not.
pub fn side_name(kind: GameKind, given: &[(String, String)], index: usize) -> Option<String> {
    open(kind, given, 0).ok()?.sides().get(index).cloned()
}

/// The computer's levels in a game of `kind`, weakest first: the same for
/// every setup.
pub fn levels(kind: GameKind) -> Vec<String> {
    open(kind, &[], 0)
        .map(|table| table.levels())
        .unwrap_or_default()
}

/// Every computer level's name, in any game, lowercase: names no player may take.
pub fn level_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = GAMES
            .iter()
            .filter_map(|game| kind(game).ok())
            .flat_map(levels)
            .map(|l| l.to_lowercase())
            .collect();
        names.sort();
        names.dedup();
        names
    })
}

/// The game a player names: `fox`, `draughts`, `fish`.
pub fn kind(name: &str) -> Result<GameKind, TableError> {
    let name = name.trim().to_ascii_lowercase();
    if name.is_empty() {
        return Err(TableError::NoGameNamed);
    }
    GameKind::ALL
        .into_iter()
        .find(|k| k.game() == name && k.flow() == "default")
        .ok_or(TableError::NoGame(name))
}

/// A new game of `kind` with the setup options a player gave (`board` →
/// `8x8`), over the game's defaults; `seed` deals a random board.
pub fn open(
    kind: GameKind,
    given: &[(String, String)],
    seed: u64,
) -> Result<Box<dyn Table>, TableError> {
    for (key, _) in given {
        check_option(kind, key, &[])?;
    }
    let mut pairs: Vec<(String, String)> = defaults(kind);
    for (key, value) in given {
        pairs.retain(|(k, _)| k != key);
        pairs.push((key.clone(), value.clone()));
    }
    if kind == GameKind::Fish && !pairs.iter().any(|(k, _)| k == "seed") {
        pairs.push(("seed".into(), seed.to_string()));
    }
    restore(kind, &pairs)
}

/// A game of `kind` from the log's setup pairs, at its start.
pub fn restore(kind: GameKind, pairs: &[(String, String)]) -> Result<Box<dyn Table>, TableError> {
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    Ok(match kind {
        GameKind::Fox(_) => Seated::boxed(
            GameKind::Fox(FoxFlow::Default),
            games::fox::Setup::from_setup(&pairs).map_err(setup_error)?,
            FoxFace,
        ),
        GameKind::Draughts => Seated::boxed(
            kind,
            {
                let rules = games::draughts::Setup::from_setup(&pairs).map_err(setup_error)?;
                let captures = rules.setup().into_iter().find(|(k, _)| *k == "captures");
                let rule = captures.map(|(_, v)| v).unwrap_or_default();
                // A copy of the one session of its capture rule, which holds
                // the database, with this game's own rules.
                let mut session = shared_session(&rule, rules);
                session.rules = rules;
                session
            },
            DraughtsFace::default(),
        ),
        GameKind::Fish => Seated::boxed(
            kind,
            games::fish::Setup::from_setup(&pairs).map_err(setup_error)?,
            FishFace,
        ),
    })
}

/// The draughts session every game of this process under one capture rule
/// copies: its endgame database, built in memory the first time a game
/// needs it, is shared by them all. Its computer searches on one thread.
fn shared_session(captures: &str, rules: games::draughts::Setup) -> Session {
    static SHARED: std::sync::Mutex<Vec<(String, Session)>> = std::sync::Mutex::new(Vec::new());
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, session)) = shared.iter().find(|(rule, _)| rule == captures) {
        return session.clone();
    }
    let session = Session::new(rules).with_threads(1);
    shared.push((captures.to_string(), session.clone()));
    session
}

/// A game's default setup, as pairs.
/// A setup in words, as the lobby lists it: `board 6x6, rules capture`. A
/// random board's seed is the server's business, and is left out.
pub fn setup_words(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .filter(|(k, _)| k != "seed")
        .map(|(k, v)| format!("{k} {}", crate::shell::safe::cut(v, 20)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game's name with what sets its setup apart from its defaults, as the
/// lobby and a game's first line say it: `fox`, `fox (rules capture)`.
pub fn game_with_setup(kind: GameKind, pairs: &[(String, String)]) -> String {
    let usual = defaults(kind);
    let unusual: Vec<(String, String)> = pairs
        .iter()
        .filter(|pair| !usual.contains(pair))
        .cloned()
        .collect();
    let words = setup_words(&unusual);
    if words.is_empty() {
        kind.game().to_string()
    } else {
        format!("{} ({words})", kind.game())
    }
}

fn defaults(kind: GameKind) -> Vec<(String, String)> {
    let pairs = match kind {
        GameKind::Fox(_) => games::fox::Setup::default().setup(),
        GameKind::Draughts => games::draughts::Setup::STANDARD.setup(),
        GameKind::Fish => games::fish::Setup::default().setup(),
    };
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_opens_and_its_legal_moves_read_back_whole() {
        for name in GAMES {
            let kind = kind(name).unwrap();
            let mut table = open(kind, &[], 7).unwrap();
            // A few plies of each game, every legal move typed whole.
            for _ in 0..6 {
                let legal = table.legal();
                if legal.is_empty() {
                    break;
                }
                for mv in &legal {
                    assert_eq!(table.parse_move(mv).as_ref(), Ok(mv), "{name}: {mv}");
                }
                table.play(&legal[0]).unwrap();
            }
            assert!(table.play("Z99").is_err());
        }
    }

    /// Where only one piece can move, its destination alone is its move, as
    /// at a move prompt: the fox's first move by its square.
    #[test]
    fn a_lone_movers_destination_is_a_whole_move() {
        let table = open(kind("fox").unwrap(), &[], 1).unwrap();
        let only = table.legal();
        assert_eq!(only.len(), 1, "{only:?}");
        let to = only[0].rsplit([' ', '-']).next().unwrap().to_string();
        assert_eq!(table.parse_move(&to).as_ref(), Ok(&only[0]));
    }

    #[test]
    fn a_screen_fits_a_narrow_window() {
        for game in GAMES {
            let table = open(kind(game).unwrap(), &[], 1).unwrap();
            let screen = table.screen(false, 40, Some(0));
            for line in screen.lines() {
                assert!(safe::width(line) <= 40, "{game}: {line:?}\n{screen}");
            }
        }
    }

    #[test]
    fn unknown_games_and_options_are_refused_by_name() {
        assert_eq!(
            kind("chess").unwrap_err().to_string(),
            "there is no game \"chess\" here: the games are fox, draughts, fish"
        );
        assert_eq!(
            kind(" ").unwrap_err().to_string(),
            "which game? The games are fox, draughts, fish"
        );
        let err = open(GameKind::Draughts, &[("board".into(), "8x8".into())], 1)
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "draughts has no option --board; it takes --captures and --opening"
        );
        assert!(open(GameKind::Fish, &[("penguins".into(), "9".into())], 1).is_err());
        let fox = open(
            GameKind::Fox(FoxFlow::Default),
            &[("board".into(), "6x6".into())],
            1,
        )
        .unwrap();
        assert!(fox.setup().contains(&("board".into(), "6x6".into())));
    }
}
