//! `tallyho join` at a dumb terminal (`TERM=dumb`), which reads the line
//! itself: the prompt is printed plainly after what the server says, no
//! control sequence reaches the terminal, and Ctrl-C leaves.

use std::process::Command;
use std::time::Duration;

use expectrl::{ControlCode, Expect, Session};
use tallyho::server::{Rules, limits::Limits};

mod scratch;
mod server_common;
use scratch::Scratch;
use server_common::Serving;

#[test]
fn a_dumb_terminal_shows_the_prompt_plainly() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-dumb");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door().to_string();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    // Colour as the terminal decides: none on a dumb one.
    cmd.args(["join", &addr])
        .env("HOME", data.join("home"))
        .env("TERM", "dumb")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(10)));
    let mut shown = Vec::new();
    let mut upto =
        |session: &mut expectrl::session::OsSession, word: &str| -> Result<(), expectrl::Error> {
            let found = session.expect(word)?;
            shown.extend_from_slice(found.before());
            shown.extend_from_slice(found.get(0).unwrap_or_default());
            Ok(())
        };
    upto(&mut session, "commands.")?;
    // The prompt, after the welcome.
    upto(&mut session, "> ")?;
    session.send("who\r")?;
    upto(&mut session, "online:")?;
    upto(&mut session, "> ")?;
    // A game: the board, whose turn, and the prompt after them.
    session.send("play fox rubbish\r")?;
    upto(&mut session, "resign.")?;
    upto(&mut session, "> ")?;
    session.send("moves\r")?;
    upto(&mut session, "A8-B7")?;
    upto(&mut session, "> ")?;
    let text = String::from_utf8_lossy(&shown).into_owned();
    assert!(!text.contains('\u{1b}'), "a control sequence: {text:?}");
    assert!(text.contains("  A B C D E F G H"), "{text}");
    // Ctrl-C, which the terminal turns into SIGINT: the player leaves.
    session.send(ControlCode::EndOfText)?;
    session.expect("Goodbye.")?;
    server_common::ends_with_status_0(&mut session, "Ctrl-C is a clean end")?;
    running.stop();
    Ok(())
}

/// A server with its data in `data`, and join to it at a dumb terminal
/// under a shell that runs `after` when join ends, shown the lobby's
/// prompt.
fn dumb_join(
    data: &Scratch,
    after: &str,
) -> Result<
    (
        Serving,
        Session<expectrl::process::unix::UnixProcess, expectrl::process::unix::PtyStream>,
    ),
    expectrl::Error,
> {
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door().to_string();
    let script = format!("'{}' join {addr}; {after}", env!("CARGO_BIN_EXE_tallyho"));
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script])
        .env("HOME", data.join("home"))
        .env("TERM", "dumb");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(10)));
    session.expect("commands.")?;
    session.expect("> ")?;
    Ok((running, session))
}

/// The server gone at a dumb terminal, with a line half typed: join asks
/// for Enter, as at any terminal, and takes the line, which would else be
/// left in the terminal for the shell to run.
#[test]
fn a_dumb_terminal_is_asked_for_enter_when_the_server_goes() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-dumb-gone");
    let (running, mut session) =
        dumb_join(&data, "echo STATUS=$?; read rest; echo \"LEFT=[$rest]\"")?;
    session.send("11-1")?;
    running.stop();
    session.expect("Press Enter to leave.")?;
    session.send("\r")?;
    session.expect("STATUS=1")?;
    // What the shell reads next is what is typed next, not the half line.
    session.send("after\r")?;
    session.expect("LEFT=[after]")?;
    Ok(())
}

/// The server gone at a dumb terminal: one Ctrl-D on the empty line leaves,
/// as Enter does; the terminal reads the end of input once.
#[test]
fn one_ctrl_d_at_a_dumb_terminal_leaves_when_the_server_has_gone() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-dumb-ctrl-d");
    let (running, mut session) = dumb_join(&data, "echo STATUS=$?")?;
    running.stop();
    session.expect("Press Enter to leave.")?;
    session.send("\x04")?;
    session.expect("STATUS=1")?;
    Ok(())
}
