//! What a player sees at a draughts move prompt for lines that used to get
//! no answer or the wrong one: a command's word with more after it, a
//! square the game had already filled in, and a last landing two captures
//! share.

mod draughts_common;
mod scratch;

use draughts_common::{folder, play};

#[test]
fn a_command_with_more_after_it_is_refused_by_name() {
    let home = folder("prompt", "words");
    let (_, shown, _) = play(&home, None, "undo 2\nboard --key\nquit now\nxyz\nquit\n");
    for word in ["undo", "board", "quit"] {
        assert!(
            shown.contains(&format!(
                "{word} takes nothing after it: type {word} alone."
            )),
            "{shown}"
        );
    }
    assert!(!shown.contains("is not a square"), "{shown}");
    assert!(
        shown.contains("\"xyz\" is neither a square nor a command"),
        "{shown}"
    );
}

#[test]
fn a_square_the_game_filled_in_gets_an_answer_and_undo_still_means_the_move() {
    let home = folder("prompt", "filled");
    // 6x15 is Black's only first jump; from 15 it goes on to 22 or 24.
    let shown = play_from(&home, "B:W10,18,19,30:B6,1", "6\nundo\n15\n24\nquit\n");
    let asked = "Jump 6x15 on to (22, 24)? ";
    assert_eq!(shown.matches(asked).count(), 4, "{shown}");
    // The piece's own square is quoted as typed, and the square it goes
    // on from named.
    assert!(
        shown.contains("6 is already chosen: now name where it goes from 15."),
        "{shown}"
    );
    assert_eq!(
        shown
            .matches("15 is already chosen: now name where it goes.")
            .count(),
        1,
        "{shown}"
    );
    assert!(
        shown.contains("There is no move of yours to take back."),
        "{shown}"
    );
    assert!(shown.contains("1. Ann moved 6x15x24."), "{shown}");
}

#[test]
fn a_last_landing_two_captures_share_asks_for_every_landing() {
    let home = folder("prompt", "shared");
    let shown = play_from(&home, "B:W9,10,17,18:B6,1", "6\n22\n6x13x22\nquit\n");
    assert!(
        shown.contains("6x22 could be 6x13x22 or 6x15x22: name every landing"),
        "{shown}"
    );
    assert!(!shown.contains("cannot go to 22"), "{shown}");
    assert!(shown.contains("1. Ann moved 6x13x22."), "{shown}");
}

#[test]
fn a_hint_that_does_not_go_on_from_the_squares_chosen_says_so() {
    let home = folder("prompt", "hint");
    // 10x19 must go on to 28, and then White wins in five plies; after
    // 10x17x26 White is a man up with no win the search finds. The engine
    // hints 10x17x26 at every depth from 2 to 22, so the hint does not hang
    // on how deep a second goes.
    let shown = play_from(
        &home,
        "B:W14,15,22,24,32:B10,1",
        "19\nhint\nundo\nhint\nquit\n",
    );
    // Wrapped at the terminal's width: read as one line.
    let shown = shown.replace('\n', " ");
    let said = "). It does not go on from the squares chosen: undo takes them back";
    assert_eq!(shown.matches(said).count(), 1, "{shown}");
    assert_eq!(shown.matches("Hint: 10x17x26").count(), 2, "{shown}");
}

/// Where the squares chosen start another way to the hinted move's end
/// (the same pieces taken, in another order), the hint names that way.
#[test]
fn a_hint_goes_on_from_the_squares_chosen_where_another_way_ends_the_same() {
    let home = folder("prompt", "hint-same-end");
    // From 1 the king takes 10, 19, 26, 17 (or 10, 17, 26, 19) and lands on
    // 10 either way.
    let shown = play_from(&home, "B:W6,14,15,22,23,24,K30:BK1,K32", "19\nhint\nquit\n");
    let shown = shown.replace('\n', " ");
    assert!(shown.contains("Hint: 1x10x19x26x17x10 ("), "{shown}");
    assert!(!shown.contains("does not go on"), "{shown}");
}

#[test]
fn a_draw_declined_half_way_through_a_jump_keeps_the_squares_chosen() {
    let home = folder("prompt", "draw");
    let shown = play_from(&home, "B:W14,15,22,24:B10,1", "19\ndraw\nno\nquit\n");
    let on = "Jump 10x19 on to (28)? ";
    assert_eq!(shown.matches(on).count(), 2, "{shown}");
    assert!(
        shown.contains("The game goes on.\nJump 10x19 on to (28)? "),
        "{shown}"
    );
}

/// Plays `input` from the position `fen` (loaded as a one-game PDN file)
/// and returns what was shown.
fn play_from(home: &std::path::Path, fen: &str, input: &str) -> String {
    let file = home.join("start.pdn");
    std::fs::write(&file, format!("[FEN \"{fen}\"]\n*\n")).expect("the start, written");
    play(home, Some(&file), input).1
}
