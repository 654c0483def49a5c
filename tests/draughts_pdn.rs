//! PDN: a file written elsewhere replays legally, tallyho's own files read
//! back to the same games, and no input makes the reader panic.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tallyho::games::Rules;
use tallyho::games::draughts::pdn::{self, GameResult, PdnGame};
use tallyho::games::draughts::{Captures, Position, Setup, Side, fen, notation};

fn published() -> Vec<PdnGame> {
    let text = std::fs::read_to_string("tests/data/draughts/published.pdn").unwrap();
    pdn::read(&text, Setup::STANDARD).unwrap()
}

#[test]
fn published_games_replay_legally_to_their_results() {
    let games = published();
    assert_eq!(games.len(), 2);
    let rules = Setup::STANDARD;
    for g in &games {
        // Every move was found among the legal moves as it was read; check
        // again here through the Rules seam, position by position.
        let mut history = vec![g.start];
        for m in &g.moves {
            let here = *history.last().unwrap();
            assert!(rules.legal_moves(&here).contains(m), "{m} in {here}");
            assert!(
                rules.outcome(&history).is_none(),
                "the game went on after its end"
            );
            history.push(rules.play(&here, m));
        }
    }
    let chinook = &games[0];
    assert_eq!(chinook.tag("Black"), Some("Chinook"));
    assert_eq!(chinook.moves.len(), 71);
    assert_eq!(chinook.result, GameResult::Draw);
    // The paper's short double jump f6xb6 could go by d8 or by d4; only the
    // d4 side (15) has a piece to take on the way.
    assert_eq!(chinook.moves[70].to_string(), "22x15x24");
    let end = chinook.end();
    // Three pieces each, agreed drawn.
    assert_eq!(fen::write(&end), "W:W30,K6,K10:B12,23,K24");
    let loy = &games[1];
    assert_eq!(loy.result, GameResult::WhiteWins);
    assert_eq!(loy.result.winner(), Some(Side::White));
    assert_eq!(loy.moves.len(), 38);
    assert_eq!(loy.moves[11].to_string(), "28x19x12");
    assert_eq!(loy.moves[36].to_string(), "19x26");
}

/// The newspaper printed the Chinook game in coordinates; read move by move
/// as a player would type them, they are the same moves.
#[test]
fn the_coordinate_score_is_the_same_game() {
    let score = "g3-h4 f6-e5 e3-d4 g7-f6 f2-e3 d6-c5 c3-b4 e5xc3 b4xd6 c7xe5 b2xd4 e5xc3 \
        d2xb4 f6-e5 a1-b2 h8-g7 b2-c3 e5-f4 e3xg5 h6xf4 c1-d2 b8-c7 g1-f2 c7-d6 h4-g5 b6-c5 \
        f2-e3 g7-h6 e1-f2 d6-e5 b4xd6 e7xc5 c3-b4 d8-e7 b4xd6 e7xc5 g5-f6 h6-g5 f2-g3 g5-h4 \
        e3xg5 h4xf2 d2-c3 f2-e1 c3-b4 c5-d4 b4-c5 e1-d2 c5-d6 d2-e3 f6-e7 e3-f4 g5-f6 d4-e3 \
        e7-d8 e3-d2 d8-c7 d2-e1 f6-e7 e1-d2 e7-d8 d2-e3 d8-e7 f4-g5 h2-g3 g5-h4 c7-b6 a7xc5 \
        e7-f6 h4xf2 f6xb6";
    let rules = Setup::STANDARD;
    let mut p = Position::START;
    let mut moves = Vec::new();
    for word in score.split_whitespace() {
        let m = notation::parse_move(&rules, &p, word).unwrap();
        p = p.play(&m);
        moves.push(m);
    }
    assert_eq!(moves, published()[0].moves);
}

#[test]
fn old_macintosh_line_ends_are_line_ends() {
    // A ; comment and a % escape each end at a lone CR, not at the file's end.
    let text = "[Event \"Mac\"]\r; a comment\r% an escape line\r1. 11-15 23-19 *\r";
    let games = pdn::read(text, Setup::STANDARD).expect("read");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 2);
}

#[test]
fn a_move_number_may_be_followed_by_an_ellipsis() {
    let text = "[FEN \"W:W21:B1\"]\n1… 21-17 2. 1-5 *\n";
    let games = pdn::read(text, Setup::STANDARD).expect("read");
    assert_eq!(games[0].moves.len(), 2);
}

#[test]
fn a_move_in_full_width_digits_is_refused_as_the_prompt_refuses_it() {
    let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. １２-１６ *\n";
    let e = pdn::read(text, Setup::STANDARD).unwrap_err();
    assert_eq!(
        e.why, "\"１２-１６\" uses full-width characters: type plain 12-16",
        "{e}"
    );
}

#[test]
fn a_second_fen_tag_and_moves_after_the_result_are_errors() {
    let text = "[FEN \"W:W21:B1\"]\n[FEN \"B:W21:B1\"]\n*\n";
    let e = pdn::read(text, Setup::STANDARD).unwrap_err();
    assert!(e.why.contains("a second FEN tag"), "{e}");
    for tag in [
        "GameType \"21\"",
        "Captures \"optional\"",
        "Result \"*\"",
        "Event \"two\"",
    ] {
        let text = format!("[{tag}]\n[{tag}]\n1. 11-15 *\n");
        let e = pdn::read(&text, Setup::STANDARD).unwrap_err();
        let name = tag.split(' ').next().unwrap_or_default();
        assert!(
            e.why
                .contains(&format!("a second {name} tag: a game has one")),
            "{e}"
        );
    }
    let text = "[Event \"x\"]\n1. 11-15 23-19 1-0 2. 8-11\n";
    let e = pdn::read(text, Setup::STANDARD).unwrap_err();
    // A damaged game of its own: game 1 ended at its result and stands.
    assert_eq!(e.game, 2, "{e}");
    assert!(e.why.contains("after the result of game 1"), "{e}");
    assert!(pdn::read_each(text, Setup::STANDARD)[0].is_ok());
}

#[test]
fn each_game_is_read_on_its_own() {
    let text = "[Event \"one\"]\n1. 11-15 23-19 1-0\n\
                [Event \"two\"]\n[FEN \"W:W21:B1\"]\n[FEN \"B:W21:B1\"]\n1. 21-17 *\n\
                [Event \"three\"]\n1. 11-15 99-1 *\n\
                [Event \"four\"]\n1. 9-13 22-18 *\n";
    let games = pdn::read_each(text, Setup::STANDARD);
    assert_eq!(games.len(), 4, "{games:?}");
    assert!(games[0].is_ok());
    assert!(games[1].as_ref().unwrap_err().why.contains("second FEN"));
    assert_eq!(games[2].as_ref().unwrap_err().game, 3);
    let four = games[3].as_ref().expect("game four stands alone");
    assert_eq!(four.tag("Event"), Some("four"));
    assert_eq!(four.moves.len(), 2);
}

fn arb_game() -> impl Strategy<Value = PdnGame> {
    (
        proptest::collection::vec(any::<u16>(), 0..120),
        any::<bool>(),
        "[ -~]{0,20}",
        0usize..4,
    )
        .prop_map(|(picks, optional, name, result)| {
            let rules = Setup::with_captures(if optional {
                Captures::Optional
            } else {
                Captures::Compulsory
            });
            let mut g = PdnGame::new(rules, Position::START);
            g.set_tag("Event", "proptest");
            g.set_tag("Black", &name);
            g.set_tag("White", "Ann \\ \"Bo\"");
            let mut history = vec![Position::START];
            for pick in picks {
                if rules.outcome(&history).is_some() {
                    break;
                }
                let here = *history.last().unwrap();
                let ms = rules.legal_moves(&here);
                let m = ms[pick as usize % ms.len()];
                g.moves.push(m);
                history.push(here.play(&m));
            }
            g.result = [
                GameResult::BlackWins,
                GameResult::WhiteWins,
                GameResult::Draw,
                GameResult::Unfinished,
            ][result];
            g
        })
}

/// A game from the middle: starting from one of the random games' positions.
fn arb_setup_game() -> impl Strategy<Value = PdnGame> {
    (arb_game(), 0usize..60).prop_map(|(g, cut)| {
        let cut = cut.min(g.moves.len());
        let positions = g.positions();
        let mut h = PdnGame::new(g.rules, positions[cut]);
        h.moves = g.moves[cut..].to_vec();
        h.result = g.result;
        h
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn written_games_read_back_the_same(games in proptest::collection::vec(
        prop_oneof![arb_game(), arb_setup_game()], 1..4)
    ) {
        let text = pdn::write_all(&games);
        let back = pdn::read(&text, Setup::STANDARD).unwrap();
        prop_assert_eq!(back.len(), games.len());
        for (a, b) in games.iter().zip(&back) {
            prop_assert_eq!(&a.moves, &b.moves);
            prop_assert_eq!(a.start, b.start);
            prop_assert_eq!(a.rules, b.rules);
            prop_assert_eq!(a.result, b.result);
            // Unknown names, missing or empty, are written as "?".
            prop_assert_eq!(a.known_tag("Black").unwrap_or("?"), b.tag("Black").unwrap_or("?"));
            prop_assert_eq!(a.known_tag("White").unwrap_or("?"), b.tag("White").unwrap_or("?"));
            // Writing again gives the same text.
            prop_assert_eq!(pdn::write(a), pdn::write(b));
        }
    }

    /// Short captures (start and end only) read as the full paths whenever
    /// only one capture fits.
    #[test]
    fn short_captures_read_as_the_unique_fit(g in arb_game()) {
        let text: String = g
            .moves
            .iter()
            .map(|m| {
                if m.is_capture() {
                    format!("{}x{}", m.from(), m.to())
                } else {
                    m.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let mut p = g.start;
        for (m, word) in g.moves.iter().zip(text.split(' ')) {
            let legal = g.rules.legal_moves(&p);
            let fits = legal
                .iter()
                .filter(|c| c.from() == m.from() && c.to() == m.to())
                .count();
            // A single jump's full path is its own name, ahead of any longer
            // capture it also abbreviates.
            let named = legal.iter().find(|c| c.squares() == [m.from(), m.to()]);
            let read = notation::parse_move(&g.rules, &p, word);
            if let Some(named) = named {
                prop_assert_eq!(read, Ok(*named));
            } else if fits == 1 {
                prop_assert_eq!(read, Ok(*m));
            } else {
                prop_assert!(read.is_err());
            }
            p = p.play(m);
        }
    }

    #[test]
    fn no_text_makes_the_reader_panic(text in "\\PC{0,200}") {
        let _ = pdn::read(&text, Setup::STANDARD);
    }

    #[test]
    fn no_pdn_like_text_makes_the_reader_panic(
        text in "([\\[\\]{}();%\"*.!?$ \n]|[0-9]{1,2}|[-x/]|Event|FEN|GameType|Result|B:W|K|[a-h][1-8]){0,80}"
    ) {
        let _ = pdn::read(&text, Setup::STANDARD);
    }

    #[test]
    fn no_text_makes_fen_or_moves_panic(text in "\\PC{0,40}") {
        let _ = fen::parse(&text);
        let _ = notation::parse_move(&Setup::STANDARD, &Position::START, &text);
        let _ = tallyho::games::draughts::PdnSquare::parse(&text);
    }
}

#[test]
fn a_tag_name_holding_a_control_character_is_refused_for_that() {
    let e = pdn::read("[Ev\u{1b}[31ment \"x\"]\n1. 11-15 *\n", Setup::STANDARD).unwrap_err();
    assert_eq!(
        e.why, "a tag's name is letters, digits and _: tag Ev is followed by \u{1b}",
        "{e}"
    );
}
