//! Which game, and which of its flows: the one list of the cabinet's games.
//! The log, replay, export and the tournament dispatch on [`GameKind`];
//! [`GameKind::from_log`] is the one place a game's name is read back.

use std::fmt;

/// One of Fox and Hounds' conversations. Each is a flow of the same rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FoxFlow {
    /// The C coursework's: menu, names, a match (`tallyho`).
    Default,
    /// The 1978 BASIC program's (`tallyho classic`).
    Classic,
    /// The Python project's capture game (`tallyho capture`).
    Capture,
}

/// A game of the cabinet, with its flow where it has more than one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    /// Fox and Hounds.
    Fox(FoxFlow),
    /// English draughts.
    Draughts,
    /// "Hey, That's My Fish!".
    Fish,
}

/// A game or flow name that no game of the cabinet has.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownGame {
    /// The game's name as written.
    pub game: String,
    /// The flow's name as written.
    pub flow: String,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if GameKind::ALL.iter().any(|k| k.game() == self.game) {
            write!(f, "the game {} has no flow \"{}\"", self.game, self.flow)
        } else {
            write!(f, "tallyho does not know the game \"{}\"", self.game)
        }
    }
}

impl std::error::Error for UnknownGame {}

impl GameKind {
    /// Every game and flow, in the order the README lists them.
    pub const ALL: [GameKind; 5] = [
        GameKind::Fox(FoxFlow::Default),
        GameKind::Fox(FoxFlow::Classic),
        GameKind::Fox(FoxFlow::Capture),
        GameKind::Draughts,
        GameKind::Fish,
    ];

    /// The game's name in the log and on the command line.
    pub fn game(self) -> &'static str {
        match self {
            GameKind::Fox(_) => "fox",
            GameKind::Draughts => "draughts",
            GameKind::Fish => "fish",
        }
    }

    /// The flow's name in the log: `default` for a game's only flow.
    pub fn flow(self) -> &'static str {
        match self {
            GameKind::Fox(FoxFlow::Classic) => "classic",
            GameKind::Fox(FoxFlow::Capture) => "capture",
            GameKind::Fox(FoxFlow::Default) | GameKind::Draughts | GameKind::Fish => "default",
        }
    }

    /// The game and flow the log names.
    pub fn from_log(game: &str, flow: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.game() == game && k.flow() == flow)
            .ok_or_else(|| UnknownGame {
                game: game.to_string(),
                flow: flow.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_names() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_log(kind.game(), kind.flow()), Ok(kind));
        }
        let unknown = GameKind::from_log("chess", "default").unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "tallyho does not know the game \"chess\""
        );
        let unknown = GameKind::from_log("fox", "blitz").unwrap_err();
        assert_eq!(unknown.to_string(), "the game fox has no flow \"blitz\"");
    }
}
