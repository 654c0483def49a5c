//! Tab at a draughts move prompt, in a pseudo-terminal where rustyline
//! reads: squares complete as the player writes them, by coordinates
//! (`C3 ` offers B4 and D4) or by numbers (`11 ` offers 15 and 16).

use std::process::Command;
use std::time::Duration;

use expectrl::session::OsSession;
use expectrl::{ControlCode, Eof, Expect, Session};

mod scratch;
use scratch::{Housed, Scratch};

/// `tallyho draughts` for two named players in a fresh pseudo-terminal,
/// with a private home that goes when the session is dropped.
fn spawn(tag: &str) -> Result<Housed<OsSession>, expectrl::Error> {
    let home = Scratch::new(&format!("tab-{tag}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    cmd.args(["draughts", "--players", "2", "--names", "Ann,Bob"])
        .args(["--color", "never"])
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TALLYHO_HISTORY", home.join("history.jsonl"))
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    Ok(Housed::new(session, home))
}

#[test]
fn tab_completes_coordinates_after_a_coordinate_and_numbers_after_a_number()
-> Result<(), expectrl::Error> {
    let mut session = spawn("squares")?;

    session.expect("Move from (9, 10, 11, 12)? ")?;
    // C3 is 11: its men go to D4 (15) or B4 (16).
    // Each key waits for the echo of the last, as a person's would.
    // One Tab lists them.
    session.send("C3 ")?;
    session.expect("C3 ")?;
    session.send("\t")?;
    session.expect("B4  D4")?;
    // The line cleared (Ctrl-U), the same by numbers.
    session.send("\x15")?;
    session.send("11 ")?;
    session.expect("11 ")?;
    session.send("\t")?;
    session.expect("15  16")?;
    // One letter of a coordinate completes to the one square it can be.
    session.send("\x15")?;
    session.send("E\t")?;
    session.expect("E3")?;
    session.send(" D\t\r")?;
    session.expect("1. Ann moved 10-15.")?;
    // Ctrl-C at Bob's question, once it is asked.
    session.expect("Move from (21, 22, 23, 24)? ")?;
    session.send(ControlCode::EndOfText)?;
    session.expect("Final score: Ann:0 - Bob:0")?;
    session.expect(Eof)?;
    Ok(())
}

/// `tallyho draughts` with its welcome, in a pseudo-terminal of `columns`
/// by `rows`: the size is set from outside, and tallyho starts once it is.
fn spawn_sized(tag: &str, columns: u16, rows: u16) -> Result<Housed<OsSession>, expectrl::Error> {
    let home = Scratch::new(&format!("tab-{tag}"));
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!(
            "until [ \"$(stty size)\" = '{rows} {columns}' ]; do sleep 0.01; done; \
             exec \"$0\" draughts --color never"
        ),
    ])
    .arg(env!("CARGO_BIN_EXE_tallyho"))
    .env("HOME", &home)
    .env("XDG_DATA_HOME", home.join("data"))
    .env("TALLYHO_HISTORY", home.join("history.jsonl"))
    .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    resize(&mut session, columns, rows)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    Ok(Housed::new(session, home))
}

/// `tallyho draughts` with its welcome, in a pseudo-terminal 40 columns wide
/// and 24 rows high: the box fits, and the welcome comes a page at a time.
#[test]
fn the_welcome_fits_a_forty_by_twenty_four_terminal() -> Result<(), expectrl::Error> {
    let mut session = spawn_sized("narrow", 40, 24)?;
    let seen = session.expect("Press Enter for more.")?;
    let text = String::from_utf8_lossy(seen.before()).replace('\r', "");
    // The title, the box and the rules' first lines fill the screen, the
    // question on its last row; the page ends between two rules.
    let page: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("DRAUGHTS"))
        .collect();
    assert!(
        (20..=23).contains(&page.len()),
        "{} rows: {text}",
        page.len()
    );
    assert!(page.contains(&"The rules"), "{text}");
    assert!(
        page.iter().any(|l| l.contains("Captures are compulsory.")),
        "{text}"
    );
    let welcome: Vec<&str> = text.lines().take_while(|l| *l != "The rules").collect();
    assert!(welcome.len() > 6, "{text}");
    for line in &welcome {
        assert!(
            line.chars().count() <= 40,
            "wider than 40 columns: {line:?}"
        );
    }
    // The box is whole: every line inside it has its frame both sides.
    let inside: Vec<&&str> = welcome.iter().filter(|l| l.starts_with('│')).collect();
    assert!(inside.len() > 3, "{text}");
    assert!(inside.iter().all(|l| l.trim_end().ends_with('│')), "{text}");
    // Enter shows the rest: the last rule whole, then the controls.
    session.send("\r")?;
    let seen = session.expect("Press Enter to continue.")?;
    let rest = String::from_utf8_lossy(seen.before()).replace('\r', "");
    // Its first line of words (after the line editor's own sequences).
    let rest: Vec<&str> = rest
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(char::is_alphabetic))
        .collect();
    assert_eq!(
        rest.first(),
        Some(&"  A player who cannot move loses. The"),
        "{rest:?}"
    );
    assert!(rest.contains(&"The controls"), "{rest:?}");
    assert!(rest.len() <= 23, "{rest:?}");
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// `q` between pages passes over the rest, as in a pager, and does not
/// leave: the question after the last page is asked.
#[test]
fn q_between_pages_passes_over_the_rest() -> Result<(), expectrl::Error> {
    let mut session = spawn_sized("pager-q", 40, 24)?;
    session.expect("Press Enter for more.")?;
    session.send("q\r")?;
    let seen = session.expect("Press Enter to continue.")?;
    let skipped = String::from_utf8_lossy(seen.before()).into_owned();
    assert!(!skipped.contains("The controls"), "{skipped:?}");
    assert!(!skipped.contains("Goodbye"), "{skipped:?}");
    // A second q, pressed once more than needed, goes on to the menu as
    // Enter does after the last page: it does not leave.
    session.send("q\r")?;
    session.expect("Choose (1, 2, 3)?")?;
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// On a screen only nine rows high, the welcome is paged too, and a page
/// asked for after a resize is cut for the new size.
#[test]
fn the_welcome_pages_a_small_screen_and_follows_a_resize() -> Result<(), expectrl::Error> {
    let mut session = spawn_sized("small", 30, 9)?;
    let seen = session.expect("Press Enter for more.")?;
    let text = String::from_utf8_lossy(seen.before()).replace('\r', "");
    // The title and the page above the question (and the line editor's
    // sequences on the question's row).
    let page: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("DRAUGHTS"))
        .filter(|l| !l.starts_with('\u{1b}'))
        .collect();
    assert!(page.len() <= 8, "{} rows: {text}", page.len());
    // Wider and taller: the next page is wrapped for 80 columns.
    resize(&mut session, 80, 24)?;
    let mut wide = false;
    for _ in 0..8 {
        session.send("\r")?;
        let found = session.expect(expectrl::Regex("Press Enter (for more|to continue)\\."))?;
        let seen = String::from_utf8_lossy(found.before()).replace('\r', "");
        let last = found.get(0).is_some_and(|m| m.ends_with(b"continue."));
        wide |= seen
            .lines()
            .any(|l| l.chars().count() > 30 && l.starts_with("  "));
        if last {
            break;
        }
    }
    assert!(wide, "no page was wrapped for the wider screen");
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// `board` draws for the screen as it is when asked, not as it was when
/// the turn began.
#[test]
fn board_after_a_resize_fits_the_new_width() -> Result<(), expectrl::Error> {
    let mut session = spawn("resize")?;
    resize(&mut session, 100, 30)?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    // Narrower than the framed board: the next `board` is the compact one.
    resize(&mut session, 30, 30)?;
    session.send("board\r")?;
    // Row 1 of the compact board: the framed one has no such line.
    let seen = session.expect("1 o   o   o   o   1")?;
    let text = String::from_utf8_lossy(seen.before()).replace('\r', "");
    // From the letters over the board down to row 2 (the typed word comes
    // before them, broken up by the line editor's redrawing).
    let board: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("A B C D"))
        .collect();
    assert!(board.len() >= 8, "{text}");
    for line in &board {
        assert!(
            line.chars().count() <= 30,
            "wider than 30 columns: {line:?}"
        );
    }
    // Asked again for 30 columns, leaving room to type.
    session.expect("Move from (9, 10, 11,\r\n")?;
    session.expect("12)? ")?;
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// Ctrl-L after a resize draws the screen again with its sentences, the
/// board and the question for the new width, not cut where the old width
/// ended; what was typed is kept.
#[test]
fn ctrl_l_after_a_resize_wraps_at_the_new_width() -> Result<(), expectrl::Error> {
    let mut session = spawn("redraw")?;
    resize(&mut session, 100, 30)?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    session.send("11")?;
    session.expect("11")?;
    resize(&mut session, 30, 30)?;
    session.send("\x0c")?;
    // At 100 columns the sentence was one line; at 30 it breaks between
    // words, and no line of it is wider than the screen.
    let seen = session.expect("commands, or quit to leave.")?;
    let text = String::from_utf8_lossy(seen.before()).replace('\r', "");
    assert!(text.ends_with("Type help for the rules and\n"), "{text:?}");
    // The board is drawn anew for 30 columns: the compact one, with no
    // line wider than the screen.
    let seen = session.expect("1 o   o   o   o   1")?;
    let text = String::from_utf8_lossy(seen.before()).replace('\r', "");
    for line in text.lines() {
        assert!(line.chars().count() <= 30, "wider than 30: {line:?}");
    }
    // The question would leave 3 columns to type in: it breaks earlier.
    session.expect("Move from (9, 10, 11,\r\n")?;
    session.expect("12)? 11")?;
    session.send("\x15")?;
    // Narrower than the question: it is laid out again too, its first line
    // written before the line editor's prompt, its last line the prompt.
    resize(&mut session, 20, 30)?;
    session.send("\x0c")?;
    session.expect("Move from (9, 10,\r\n")?;
    session.expect("11, 12)? ")?;
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// At 30 columns White's question would leave 2 columns to type in: it is
/// broken earlier, at a word, so what is typed stays on the prompt's line.
#[test]
fn a_question_leaving_too_little_room_to_type_breaks_earlier() -> Result<(), expectrl::Error> {
    let mut session = spawn("room")?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    resize(&mut session, 30, 30)?;
    session.send("11-15\r")?;
    session.expect("1. Ann moved 11-15.")?;
    session.expect("Move from (21, 22, 23,\r\n")?;
    session.expect("24)? ")?;
    // What is typed follows the prompt: Ctrl-L draws the question again
    // with it, laid out the same.
    session.send("help")?;
    session.expect("help")?;
    session.send("\x0c")?;
    session.expect("Move from (21, 22, 23,\r\n")?;
    session.expect("24)? help")?;
    session.send(ControlCode::EndOfText)?;
    session.expect("Final score: Ann:0 - Bob:0")?;
    session.expect(Eof)?;
    Ok(())
}

/// Between games on a screen narrower than the framed board, the swap
/// notice names the pieces in the compact board's letters, as the status
/// line does: `o` and `x`, not the kings' capitals.
#[test]
fn the_swap_notice_and_status_on_a_narrow_screen_name_the_compact_boards_letters()
-> Result<(), expectrl::Error> {
    let mut session = spawn("swap")?;
    // One column narrower than the framed board.
    resize(&mut session, 36, 30)?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    session.send("resign\r")?;
    session.expect("Play again (yes/no)? ")?;
    session.send("yes\r")?;
    session.expect("Sides swap: Bob is Black (o)")?;
    session.expect(expectrl::Regex(r"White\s+\(x\)\."))?;
    // The status line too: too wide for the screen whole, it is a line
    // for each side, never broken between a side and its letter.
    session.expect("Black (o): 12 men, 0 kings.\r\nWhite (x): 12 men, 0 kings.")?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    // At 20 columns a side's line is wrapped too, never parting a number
    // from what it counts.
    resize(&mut session, 20, 30)?;
    session.send("\x0c")?;
    session.expect("Black (o): 12 men,\r\n0 kings.\r\nWhite (x): 12 men,\r\n0 kings.")?;
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// A capture mark after a plain move's start offers nothing: the game
/// would refuse `11x15`, so Tab does not lead there.
#[test]
fn tab_after_a_capture_mark_offers_no_plain_move() -> Result<(), expectrl::Error> {
    let mut session = spawn("mark")?;
    session.expect("Move from (9, 10, 11, 12)? ")?;
    session.send("11x\t")?;
    session.send("\r")?;
    // The line was 11x, not completed to 11x1: the piece on 11 is picked.
    session.expect("Move 11 to (15, 16)? ")?;
    session.send(ControlCode::EndOfText)?;
    session.expect(Eof)?;
    Ok(())
}

/// Makes the pseudo-terminal `columns` wide and `rows` high, as a person
/// resizing the window does.
fn resize(session: &mut OsSession, columns: u16, rows: u16) -> Result<(), expectrl::Error> {
    session
        .get_process_mut()
        .set_window_size(columns, rows)
        .map_err(|e| std::io::Error::from(e).into())
}

/// Waits for `text`, naming it when it never comes.
fn wait_for(session: &mut OsSession, text: &str) {
    if let Err(e) = session.expect(text) {
        panic!("waited for {text:?}: {e}");
    }
}

/// At a jump prompt whose start is chosen already, the whole move typed
/// again from its start completes too: `10x` offers the landings, as
/// `E3x` does by coordinates, even once a landing is chosen, and a path
/// goes on to its end.
#[test]
fn tab_completes_a_jump_typed_again_from_its_start() -> Result<(), expectrl::Error> {
    let home = Scratch::new("tab-jump");
    let pdn = home.join("jump.pdn");
    std::fs::write(&pdn, "[FEN \"B:W14,15,22,23,30,31:B10,K1\"]\n*\n")
        .map_err(expectrl::Error::from)?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    cmd.args(["draughts", "--players", "2", "--names", "Ann,Bob"])
        .args(["--color", "never", "--no-history", "--load"])
        .arg(&pdn)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    wait_for(&mut session, "Jump from 10 to (17, 19)? ");
    session.send("10x")?;
    wait_for(&mut session, "10x");
    session.send("\t")?;
    wait_for(&mut session, "17  19");
    session.send("\x15")?;
    session.send("E3x")?;
    wait_for(&mut session, "E3x");
    session.send("\t")?;
    wait_for(&mut session, "C5  G5");
    session.send("\x15")?;
    // A landing chosen, the move typed again from its start may still take
    // the other way: Tab offers both first landings.
    session.send("17\r")?;
    wait_for(&mut session, "Jump 10x17 on to (26)? ");
    session.send("10x1")?;
    wait_for(&mut session, "10x1");
    session.send("\t")?;
    wait_for(&mut session, "17  19");
    session.send("\x15")?;
    // Typed on from the square reached, the rest completes too.
    session.send("17x")?;
    wait_for(&mut session, "17x");
    session.send("\t")?;
    wait_for(&mut session, "26");
    session.send("\x15")?;
    session.send("10x17x")?;
    wait_for(&mut session, "10x17x");
    session.send("\t")?;
    wait_for(&mut session, "26");
    session.send("\r")?;
    wait_for(&mut session, "1. Ann moved 10x17x26.");
    // Ctrl-C at Bob's question, once it is asked.
    wait_for(&mut session, "Jump from 31 to (22)? ");
    session.send(ControlCode::EndOfText)?;
    wait_for(&mut session, "Final score: Ann:0 - Bob:0");
    session.expect(Eof)?;
    Ok(())
}
