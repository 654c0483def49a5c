//! The three-move ballot: every opening legal from the start, the published
//! deck size, no opening twice.

use std::collections::HashSet;

use tallyho::games::Rules;
use tallyho::games::draughts::ballot::{self, DECK_SIZE};
use tallyho::games::draughts::{Setup, Side};

#[test]
fn every_opening_is_three_legal_moves_from_the_start() {
    let rules = Setup::STANDARD;
    let mut seen = HashSet::new();
    let mut count = 0;
    for o in ballot::deck() {
        count += 1;
        let moves = o.moves();
        assert_eq!(moves.len(), 3, "{o}");
        let written: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(written.join(" "), o.notation(), "{o}");
        let history = o.positions();
        assert_eq!(history.len(), 4);
        assert!(rules.outcome(&history).is_none());
        assert_eq!(o.position().to_move(), Side::White);
        assert!(seen.insert(o.notation()), "{o} twice");
    }
    assert_eq!(count, DECK_SIZE);
    assert_eq!(DECK_SIZE, 156);
    assert_eq!(ballot::deck().filter(|o| o.is_newer()).count(), 12);
}

#[test]
fn random_openings_spread_over_the_deck() {
    let drawn: HashSet<usize> = (0..2000).map(|s| ballot::random(s).number()).collect();
    assert!(drawn.len() > 140);
    assert_eq!(ballot::random(42), ballot::random(42));
}
