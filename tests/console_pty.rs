//! The console in a pseudo-terminal: the editor's history keeps only the
//! lines a game took, and a signal at a prompt turns off what the editor
//! turned on (bracketed paste) before leaving.

use std::process::Command;
use std::time::Duration;

use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Session};

mod scratch;
use scratch::{Housed, Scratch};

/// A session in a pseudo-terminal; its private home goes when it is dropped.
type Pty = Housed<OsSession>;

fn spawn(tag: &str) -> Result<Pty, expectrl::Error> {
    spawn_with(tag, &["--players", "2", "--names", "Ann,Bob"])
}

/// tallyho in a pseudo-terminal, with `args`, no colour, no clearing and no log.
fn spawn_with(tag: &str, args: &[&str]) -> Result<Pty, expectrl::Error> {
    let home = Scratch::unmade(&format!("cpty-{tag}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    cmd.args(args)
        .args(["--color", "never", "--no-clear", "--no-history"])
        .env("HOME", &home)
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    Ok(Housed::new(session, home))
}

#[test]
fn up_brings_back_the_last_line_taken_not_a_refused_one() -> Result<(), expectrl::Error> {
    let mut session = spawn("history")?;
    session.expect("Move fox to (B7)? ")?;
    session.send_line("B7")?;
    session.expect("Move (B1, D1, F1, H1)? ")?;
    session.send_line("Z9")?;
    session.expect("\"Z9\" is off the board")?;
    session.expect("Move (B1, D1, F1, H1)? ")?;
    // Up: the refused Z9 is not there; B7, the line taken before, is.
    session.send("\x1b[A")?;
    session.expect("B7")?;
    session.send("\x15quit\r")?;
    session.expect("Final score")?;
    session.expect(Eof)?;
    Ok(())
}

#[test]
fn sigterm_at_a_prompt_turns_bracketed_paste_off() -> Result<(), expectrl::Error> {
    let mut session = spawn("paste")?;
    session.expect("Move fox to (B7)? ")?;
    let pid = session.get_process().pid();
    let sent = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill ran");
    assert!(sent.success());
    session.expect("\x1b[?2004l")?;
    session.expect("Final score: Ann:0 - Bob:0")?;
    session.expect(Eof)?;
    Ok(())
}

/// tallyho against the computer in a pseudo-terminal, with `extra` options.
fn spawn_against(tag: &str, extra: &[&str]) -> Result<Pty, expectrl::Error> {
    let mut args = extra.to_vec();
    args.extend(["--players", "1", "--names", "Ann"]);
    spawn_with(tag, &args)
}

#[test]
fn ctrl_c_while_a_hint_is_thought_out_says_no_half_hint() -> Result<(), expectrl::Error> {
    let mut session = spawn_against(
        "hint",
        &[
            "fish", "--level", "rubbish", "--think", "8000", "--seed", "1",
        ],
    )?;
    session.expect("P, start a penguin")?;
    session.send_line("1 1")?;
    session.expect("P, move from (1,1)")?;
    session.send_line("hint")?;
    std::thread::sleep(Duration::from_millis(500));
    session.send(expectrl::ControlCode::EndOfText)?;
    let found = session.expect("Final score")?;
    let said = String::from_utf8_lossy(found.before()).to_string();
    assert!(!said.contains("Hint:"), "{said}");
    session.expect(Eof)?;
    Ok(())
}

#[test]
fn ctrl_c_in_the_pause_before_a_computer_move_plays_and_says_nothing() -> Result<(), expectrl::Error>
{
    let mut session = spawn_against(
        "pause",
        &[
            "--level", "rubbish", "--side", "hounds", "--delay", "3000", "--seed", "1",
        ],
    )?;
    // The fox (the computer) moves first, after its pause: Ctrl-C in it.
    session.expect("Fox (SWTP) next")?;
    std::thread::sleep(Duration::from_millis(500));
    session.send(expectrl::ControlCode::EndOfText)?;
    let found = session.expect("Final score")?;
    let said = String::from_utf8_lossy(found.before()).to_string();
    assert!(!said.contains("SWTP moves"), "{said}");
    session.expect(Eof)?;
    Ok(())
}

/// A paste of 200,000 keys with no bracketed-paste marks (as `tmux
/// paste-buffer` or a slow terminal sends it) is not drawn key by key: the
/// editor keeps the first kilobyte and counts the rest, so the paste is
/// read in a moment, Enter refuses the line with its whole length, and
/// Ctrl-C is heard straight after.
#[test]
fn a_huge_paste_is_counted_not_drawn_and_refused_whole() -> Result<(), expectrl::Error> {
    let mut session = spawn("huge-paste")?;
    session.expect("Move fox to (B7)? ")?;
    let chunk = "B".repeat(1000);
    let mut shown = 0;
    let mut buf = [0u8; 65536];
    for _ in 0..200 {
        session.send(&chunk)?;
        // What the editor draws meanwhile is read as it comes, so that
        // neither side waits on a full terminal.
        while let Ok(n) = session.try_read(&mut buf) {
            if n == 0 {
                break;
            }
            shown += n;
        }
    }
    session.send("\r")?;
    let found =
        session.expect("That line is 200000 bytes long; a line here can be at most 100.")?;
    shown += found.before().len();
    assert!(
        shown < 50_000,
        "{shown} bytes drawn for a paste of 200,000: the line was drawn key by key"
    );
    session.expect("Move fox to (B7)? ")?;
    session.send(expectrl::ControlCode::EndOfText)?;
    session.expect("Final score")?;
    session.expect(Eof)?;
    Ok(())
}

/// Keys that leave the line as it is (End, Left, Ctrl-L) do not make the
/// editor forget the keys it dropped past its kilobyte; and once one key is
/// dropped, a narrower one after it is dropped too, not put in after a gap.
#[test]
fn keys_dropped_past_the_editors_kilobyte_stay_counted() -> Result<(), expectrl::Error> {
    let mut session = spawn("dropped-kept")?;
    session.expect("Move fox to (B7)? ")?;
    // 1,100 keys, then End and Left: 76 were dropped, and still count.
    session.send("a".repeat(1100))?;
    session.send("\x1b[F\x1b[D\r")?;
    session.expect("That line is 1100 bytes long; a line here can be at most 100.")?;
    session.expect("Move fox to (B7)? ")?;
    // 1,023 bytes, then é (two bytes: dropped) and b (one byte: it would
    // fit, but is dropped after the é).
    session.send(format!("{}éb\r", "a".repeat(1023)))?;
    session.expect("That line is 1026 bytes long; a line here can be at most 100.")?;
    session.expect("Move fox to (B7)? ")?;
    // At the start of a full line, é is dropped and Z after it: Ctrl-K
    // then empties the line, and the empty line is what is taken (Enter
    // alone makes the fox's only move), not a Z the screen never showed.
    session.send(format!("{}\x1b[HéZ\x0b\r", "a".repeat(1023)))?;
    session.expect("Move (B1, D1, F1, H1)? ")?;
    // Edited shorter after a drop: the dropped keys are no longer counted.
    session.send(format!("{}é\x15B1-A2\r", "a".repeat(1024)))?;
    session.expect("Move fox to (")?;
    session.send(expectrl::ControlCode::EndOfText)?;
    session.expect("Final score")?;
    session.expect(Eof)?;
    Ok(())
}
