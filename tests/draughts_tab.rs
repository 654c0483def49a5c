//! Tab at a draughts move prompt, in a pseudo-terminal where rustyline
//! reads: squares complete as the player writes them, by coordinates
//! (`C3 ` offers B4 and D4) or by numbers (`11 ` offers 15 and 16).

use std::process::Command;
use std::time::Duration;

use expectrl::session::OsSession;
use expectrl::{ControlCode, Eof, Expect, Regex, Session};

/// `tallyho draughts` for two named players in a fresh pseudo-terminal.
fn spawn(tag: &str) -> Result<OsSession, expectrl::Error> {
    let home = std::env::temp_dir().join(format!("tallyho-tab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a home");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    cmd.args(["draughts", "--players", "2", "--names", "Ann,Bob"])
        .args(["--color", "never"])
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TALLYHO_HISTORY", home.join("history.jsonl"))
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    Ok(session)
}

#[test]
fn tab_completes_coordinates_after_a_coordinate_and_numbers_after_a_number()
-> Result<(), expectrl::Error> {
    let mut session = spawn("squares")?;

    session.expect("Move from (9, 10, 11, 12)? ")?;
    // C3 is 11: its men go to D4 (15) or B4 (16).
    session.send("C3 \t\t")?;
    session.expect(Regex("B4  D4|D4  B4"))?;
    // The line cleared (Ctrl-U), the same by numbers.
    session.send("\x15")?;
    session.send("11 \t\t")?;
    session.expect("15  16")?;
    // One letter of a coordinate completes to the one square it can be.
    session.send("\x15")?;
    session.send("E\t")?;
    session.expect("E3")?;
    session.send(" D\t\r")?;
    session.expect("1. Ann moved 10-15.")?;
    session.send(ControlCode::EndOfText)?;
    session.expect("Final score: Ann:0 - Bob:0")?;
    session.expect(Eof)?;
    Ok(())
}
