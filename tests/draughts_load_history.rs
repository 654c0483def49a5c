//! `tallyho draughts --load` keeps the loaded game's past: its positions
//! count toward a repetition, the forty-move count goes on, the move numbers
//! go on, a game already over (by the rules or by its recorded result) is
//! refused with its result, and the game
//! written out as PDN carries the loaded game's tags and moves.

use std::collections::HashSet;
mod draughts_common;
mod scratch;

use draughts_common::{exported, folder, play};
use tallyho::games::draughts::{GameResult, PdnGame, Position, Setup, fen, pdn};

/// Two kings each walking about: a game of `plies` quiet plies in which no
/// position comes twice and no capture is ever on.
fn wandering(plies: usize) -> PdnGame {
    let rules = Setup::STANDARD;
    let start = fen::parse("B:WK29,K30:BK1,K2").expect("a position");
    fn walk(
        rules: &Setup,
        pos: Position,
        seen: &mut HashSet<String>,
        moves: &mut Vec<tallyho::games::draughts::Move>,
        plies: usize,
    ) -> bool {
        if moves.len() == plies {
            return true;
        }
        for m in rules.moves(&pos) {
            let next = pos.play(&m);
            let key = fen::write(&next);
            if m.is_capture()
                || !rules.captures_available(&next).is_empty()
                || !seen.insert(key.clone())
            {
                continue;
            }
            moves.push(m);
            if walk(rules, next, seen, moves, plies) {
                return true;
            }
            moves.pop();
            seen.remove(&key);
        }
        false
    }
    let mut seen = HashSet::from([fen::write(&start)]);
    let mut moves = Vec::new();
    assert!(walk(&rules, start, &mut seen, &mut moves, plies));
    let mut game = PdnGame::new(rules, start);
    game.moves = moves;
    game
}

/// A king shuffle from `B:WK32:BK1`, `cycles` times round (4 plies each).
const SHUFFLE: &str = "[Event \"Shuffle\"]\n[Site \"Leeds\"]\n[Round \"3\"]\n\
    [Black \"Cy\"]\n[White \"Di\"]\n[FEN \"B:WK32:BK1\"]\n";

#[test]
fn earlier_positions_of_a_loaded_game_count_toward_a_repetition() {
    let home = folder("load", "repetition");
    let file = home.join("shuffle.pdn");
    // The start has come round twice: one more time round draws.
    std::fs::write(
        &file,
        format!("{SHUFFLE}1. 1-5 32-27 2. 5-1 27-32 3. 1-5 32-27 *\n"),
    )
    .unwrap();
    let (status, shown, _) = play(&home, Some(&file), "5-1\n27-32\n");
    assert_eq!(status, Some(0), "{shown}");
    // The move numbers go on from the loaded game's six plies.
    assert!(shown.contains("7. Ann moved 5-1."), "{shown}");
    assert!(shown.contains("8. Bob moved 27-32."), "{shown}");
    assert!(
        shown.contains("A draw: the same position came round a third time."),
        "{shown}"
    );
    // Written out: the loaded game's tags and every move, numbered on.
    let text = exported(&home);
    for tag in [
        "[Event \"Shuffle\"]",
        "[Site \"Leeds\"]",
        "[Round \"3\"]",
        "[Black \"Ann\"]",
        "[White \"Bob\"]",
        "[Result \"1/2-1/2\"]",
        "[FEN \"B:WK32:BK1\"]",
        "[Termination \"repetition\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    assert!(
        text.ends_with("\n1. 1-5 32-27 2. 5-1 27-32 3. 1-5 32-27 4. 5-1 27-32 1/2-1/2\n"),
        "{text}"
    );
    // And it reads back as the same game.
    let back = pdn::read(&text, Setup::STANDARD).expect("reads back");
    assert_eq!(back[0].moves.len(), 8);
}

#[test]
fn undo_never_takes_back_a_loaded_games_moves() {
    let home = folder("load", "undo");
    let file = home.join("shuffle.pdn");
    std::fs::write(&file, format!("{SHUFFLE}1. 1-5 32-27 *\n")).unwrap();
    let (status, shown, _) = play(&home, Some(&file), "undo\nquit\n");
    assert_eq!(status, Some(4), "{shown}");
    assert!(
        shown.contains("There is no move of yours to take back."),
        "{shown}"
    );
    assert!(!shown.contains("took back"), "{shown}");
}

#[test]
fn the_forty_move_count_goes_on_from_a_loaded_game() {
    let home = folder("load", "forty");
    let game = wandering(79);
    let file = home.join("wander.pdn");
    std::fs::write(&file, pdn::write(&game)).unwrap();
    // One more quiet ply is the eightieth: a draw.
    let end = game.end();
    let last = Setup::STANDARD
        .moves(&end)
        .into_iter()
        .find(|m| {
            let next = end.play(m);
            !m.is_capture() && !game.positions().contains(&next)
        })
        .expect("a quiet move");
    let (status, shown, _) = play(&home, Some(&file), &format!("{last}\n"));
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains(&format!("80. Bob moved {last}.")), "{shown}");
    assert!(
        shown.contains("A draw: forty moves each with no capture and no man moved."),
        "{shown}"
    );
}

#[test]
fn a_loaded_game_already_over_is_refused_with_its_result() {
    let home = folder("load", "over");
    let refused = |name: &str, text: &str| {
        let file = home.join(name);
        std::fs::write(&file, text).unwrap();
        let (status, shown, why) = play(&home, Some(&file), "");
        assert_eq!(status, Some(2), "{why}");
        assert!(shown.is_empty(), "{shown}");
        why
    };
    let why = refused(
        "repeated.pdn",
        &format!("{SHUFFLE}1. 1-5 32-27 2. 5-1 27-32 3. 1-5 32-27 4. 5-1 27-32 *\n"),
    );
    assert_eq!(
        why,
        "error: --load repeated.pdn: game 1 is over: the same position came round a third \
         time, a draw (1/2-1/2)\n"
            .replace(
                "repeated.pdn",
                &home.join("repeated.pdn").display().to_string()
            )
    );
    let why = refused("forty.pdn", &pdn::write(&wandering(80)));
    assert!(
        why.contains(
            "game 1 is over: forty moves each were played with no capture and no man moved, \
             a draw (1/2-1/2)"
        ),
        "{why}"
    );
    let why = refused("blocked.pdn", "[FEN \"B:W32:B28\"] *");
    assert!(
        why.contains("game 1 is over: Black is to move and has no move, and has lost (0-1)"),
        "{why}"
    );
    // A game ended by its result alone: a resignation, an agreed draw.
    let why = refused("resigned.pdn", "[Result \"1-0\"]\n1. 11-15 23-19 1-0\n");
    assert!(why.contains("game 1 is over: 1-0, Black won\n"), "{why}");
    let why = refused("tagged.pdn", "[Result \"0-1\"]\n1. 11-15 23-19 *\n");
    assert!(why.contains("game 1 is over: 0-1, White won\n"), "{why}");
    let mut exported = wandering(6);
    exported.result = GameResult::WhiteWins;
    exported.set_tag("Termination", "resigned");
    let why = refused("exported.pdn", &pdn::write(&exported));
    assert!(
        why.contains("game 1 is over: 0-1, White won (resigned)\n"),
        "{why}"
    );
    let published = std::fs::read_to_string("tests/data/draughts/published.pdn").unwrap();
    let why = refused("published.pdn", &published);
    assert!(why.contains("game 1 is over: 1/2-1/2, a draw\n"), "{why}");
    // The same game one move short of its end loads.
    let file = home.join("short.pdn");
    std::fs::write(&file, pdn::write(&wandering(79))).unwrap();
    let (status, _, why) = play(&home, Some(&file), "quit\n");
    assert_eq!(status, Some(4), "{why}");
}
