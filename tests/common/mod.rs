//! Helpers shared by the integration tests.

use tallyho::games::fox::{Position, Rules, Setup};

/// A game played from a start under some rules: the generic game of the
/// cabinet, with the fox's rule set beside it.
#[allow(dead_code)]
pub struct Played {
    setup: Setup,
    game: tallyho::games::Game<Setup>,
}

#[allow(dead_code)]
impl Played {
    pub fn new(start: Position, rules: Rules) -> Played {
        let setup = Setup {
            board: start.board(),
            rules,
            fox_start: None,
            first: start.to_move(),
        };
        Played {
            setup,
            game: tallyho::games::Game::new(start),
        }
    }

    pub fn ending(&self) -> Option<tallyho::games::fox::Ending> {
        self.game.position().ending(self.setup.rules)
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn moves(&self) -> &[tallyho::games::fox::Move] {
        self.game.moves()
    }

    pub fn play(&mut self, mv: tallyho::games::fox::Move) -> bool {
        self.game.play(&self.setup, mv).is_ok()
    }
}
