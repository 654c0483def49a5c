//! What a player sees for typed moves and loaded files that used to go
//! wrong: a whole path typed again at a jump prompt, a capture mark on a
//! plain move, full-width digits, and PDN files with CR line ends or a
//! Unicode ellipsis after a move number.

mod draughts_common;
mod scratch;

use draughts_common::{folder, play};

#[test]
fn a_whole_path_typed_at_a_jump_prompt_is_not_glued_on() {
    let home = folder("typed", "jump");
    let file = home.join("two.pdn");
    std::fs::write(&file, "[FEN \"B:W6,14,15:B1\"]\n*\n").unwrap();
    let (_, shown, _) = play(&home, Some(&file), "1x10\n1x10x21\n1x10x17\nquit\n");
    assert!(shown.contains("Jump 1x10 on to (17, 19)? "), "{shown}");
    // The path so far, typed again, is quoted as typed.
    assert!(
        shown.contains("1x10 is already chosen: now name where it goes from 10."),
        "{shown}"
    );
    assert!(
        shown.contains("1x10x21 is not a legal move: the piece on 1 can play 1x10x17 or 1x10x19."),
        "{shown}"
    );
    assert!(!shown.contains("1x10x10"), "{shown}");
    assert!(shown.contains("1. Ann moved 1x10x17."), "{shown}");
}

#[test]
fn a_path_typed_again_from_a_square_before_the_last_goes_on_from_it() {
    let home = folder("typed", "again");
    let file = home.join("three.pdn");
    // Black's man on 1 jumps 1x10, then 10x17 or 10x19; from 17 on to 26.
    std::fs::write(&file, "[FEN \"B:W6,14,15,22,31:B1,3,12\"]\n*\n").unwrap();
    let (_, shown, _) = play(
        &home,
        Some(&file),
        "17\n10\n17\n1\n17\n10x17x31\n10x17x26\nquit\n",
    );
    assert!(shown.contains("Jump 1x10x17 on to (26)? "), "{shown}");
    // A square chosen before, typed alone, goes back to it, and says so.
    assert!(
        shown.contains("Back to 10: now name where it goes.\nJump 1x10 on to (17, 19)? "),
        "{shown}"
    );
    // The piece's first square goes back to it and on as the game must.
    assert!(
        shown.contains(
            "Back to 1, and on to 10: now name where it goes.\nJump 1x10 on to (17, 19)? "
        ),
        "{shown}"
    );
    // A wrong path from a square already chosen is quoted from that square.
    assert!(shown.contains("1x10x17x31 is not a legal move"), "{shown}");
    assert!(!shown.contains("1x10x17x10"), "{shown}");
    assert!(shown.contains("1. Ann moved 1x10x17x26."), "{shown}");
}

#[test]
fn a_capture_mark_on_a_plain_move_and_full_width_digits_are_refused_clearly() {
    let home = folder("typed", "marks");
    let (_, shown, _) = play(
        &home,
        None,
        "11x15\nM11x15\nc11x15\nC3xD4\n１１-１５\n😀x１１\nＡｎｎ\n２２\nｈｅｌｐ\nquit\n",
    );
    // Typed by coordinates, it is quoted by coordinates.
    assert!(
        shown.contains("An x is for a capture, but C3-D4 is a plain move: type C3-D4."),
        "{shown}"
    );
    assert_eq!(
        shown
            .matches("An x is for a capture, but 11-15 is a plain move: type 11-15.")
            .count(),
        3,
        "{shown}"
    );
    assert!(
        shown.contains("\"１１-１５\" uses full-width characters: type plain 11-15."),
        "{shown}"
    );
    // Where the plain form is no move either, it is not offered.
    assert!(shown.contains("\"😀\" is not a square"), "{shown}");
    assert!(!shown.contains("type plain 😀"), "{shown}");
    // A plain form that is all plain characters, but no move: said so,
    // rather than suggested and then refused.
    assert!(
        shown.replace('\n', " ").contains(
            "\"Ａｎｎ\" uses full-width characters, and \"Ann\" is neither a square nor a command"
        ),
        "{shown}"
    );
    assert!(!shown.contains("type plain Ann"), "{shown}");
    // Squares that parse but make no move: the refusal they would get.
    assert!(
        shown
            .replace('\n', " ")
            .contains("\"２２\" uses full-width characters, and the piece on 22 (F6) is White's"),
        "{shown}"
    );
    // A command's word: told to type it plain.
    assert!(
        shown.contains("\"ｈｅｌｐ\" uses full-width characters: type plain help."),
        "{shown}"
    );
}

#[test]
fn a_dash_from_a_word_processor_or_a_phone_joins_squares_as_a_hyphen_does() {
    let home = folder("typed", "dashes");
    // An en dash, then (after White's 22-17, an em dash) and a minus sign
    // before a square, which is refused as -9 is.
    let (_, shown, _) = play(&home, None, "11\u{2013}15\n22\u{2014}17\n\u{2212}9\nquit\n");
    assert!(shown.contains("1. Ann moved 11-15."), "{shown}");
    assert!(shown.contains("2. Bob moved 22-17."), "{shown}");
    assert!(
        shown.contains("\"\u{2212}9\" is neither a square nor a command"),
        "{shown}"
    );
}

#[test]
fn files_with_cr_line_ends_or_an_ellipsis_load() {
    let home = folder("typed", "files");
    let mac = home.join("mac.pdn");
    std::fs::write(
        &mac,
        "[Event \"Mac\"]\r; a comment to the line's end\r% an escape line\r1. 11-15 23-19\r2. 8-11 *\r",
    )
    .unwrap();
    let (status, shown, why) = play(&home, Some(&mac), "quit\n");
    assert_eq!(status, Some(4), "{why}");
    // Three plies were read: White to move.
    assert!(shown.contains("White (Bob) next"), "{shown}");
    let dots = home.join("dots.pdn");
    std::fs::write(&dots, "[FEN \"W:W22,24:B18,19\"]\n1\u{2026} 22x15 *\n").unwrap();
    let (status, shown, why) = play(&home, Some(&dots), "quit\n");
    assert_eq!(status, Some(4), "{why}");
    assert!(shown.contains("Black (Ann) next"), "{shown}");
    assert!(shown.contains("Black (O): 1 man, 0 kings."), "{shown}");
}

#[test]
fn a_second_fen_and_moves_after_the_result_are_refused_as_such() {
    let home = folder("typed", "refused");
    let two = home.join("two.pdn");
    std::fs::write(&two, "[FEN \"W:W22:B18\"]\n[FEN \"B:W22:B18\"]\n*\n").unwrap();
    let (status, _, why) = play(&home, Some(&two), "");
    assert_eq!(status, Some(2));
    assert!(
        why.contains("a second FEN tag: a game has one start position"),
        "{why}"
    );
    // Moves after a result are a damaged game of their own: the game
    // before stands, and keeps its number.
    let after = home.join("after.pdn");
    std::fs::write(&after, "1. 11-15 23-19 * 22-17 *\n").unwrap();
    let (status, shown, why) = play(&home, Some(&after), "quit\n");
    assert_eq!(status, Some(4), "{why}");
    assert!(shown.contains("Black (Ann) next"), "{shown}");
    let out = draughts_common::tallyho(&home)
        .args(["draughts", "--players", "2", "--names", "Ann,Bob"])
        .arg("--load")
        .arg(&after)
        .args(["--game", "2"])
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2));
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(
        why.contains(
            "game 2, \"22-17\": after the result of game 1, a game begins with its tags or with move 1"
        ),
        "{why}"
    );
}

/// `cunning` answers a move as it did before an undo, whatever was tried in
/// between, so a player cannot fish for a better reply.
#[test]
fn cunning_replies_as_before_after_undo() {
    let home = folder("typed", "cunning");
    for seed in 1..=8 {
        let out = draughts_common::tallyho(&home)
            .args(["draughts", "--players", "1", "--names", "Ann"])
            .args(["--side", "black", "--level", "cunning", "--no-history"])
            .args(["--seed", &seed.to_string()])
            .write_stdin("9-13\nundo\n10-14\nundo\n11-15\nundo\n9-13\nundo\n9-13\nquit\n")
            .output()
            .expect("ran");
        let shown = String::from_utf8(out.stdout).expect("utf-8");
        let replies: Vec<&str> = shown.lines().filter(|l| l.starts_with("2. ")).collect();
        assert_eq!(replies.len(), 5, "{shown}");
        for answer in [&replies[3], &replies[4]] {
            assert_eq!(*answer, replies[0], "seed {seed}: {replies:?}");
        }
    }
}

#[test]
fn a_full_width_space_around_a_plain_move_is_padding() {
    let home = folder("typed", "ideographic");
    // An input method may put U+3000 first; inside the move it is still
    // full-width typing.
    let (_, shown, _) = play(
        &home,
        None,
        "\u{3000}11-15\u{3000}\n２２\u{3000}-\u{3000}１８\nquit\n",
    );
    assert!(
        shown.contains("\\u{3000}11-15\\u{3000}\n1. Ann moved 11-15."),
        "{shown}"
    );
    assert!(!shown.contains("\"11-15\" uses full-width"), "{shown}");
    assert!(shown.contains("uses full-width characters"), "{shown}");
}
