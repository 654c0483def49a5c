//! `tallyho join` in a pseudo-terminal, ended by a signal while rustyline
//! reads the lobby's line: the terminal is given back as it was, the
//! client says it left and exits with 128 plus the signal, and the server
//! sees the player go.

use std::process::Command;
use std::time::{Duration, Instant};

use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Regex, Session};
use tallyho::server::{Rules, limits::Limits};

mod scratch;
mod server_common;
use scratch::Scratch;
use server_common::{Client, Serving};

/// The pid of the one child of process `parent`.
fn child_of(parent: i32) -> Option<i32> {
    let children =
        std::fs::read_to_string(format!("/proc/{parent}/task/{parent}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

/// A shell running `tallyho join addr` in a fresh pseudo-terminal, then
/// reporting its status and the terminal's modes, as the player's shell
/// would find them.
fn join_under_a_shell(addr: &str, home: &Scratch) -> Result<OsSession, expectrl::Error> {
    let script = format!(
        "stty echo icanon; '{}' join {addr} --color never; echo STATUS=$?; stty -a",
        env!("CARGO_BIN_EXE_tallyho")
    );
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script])
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    Ok(session)
}

/// How many players the server has online, as a machine client sees them
/// (the client itself among them).
fn online(addr: std::net::SocketAddr) -> usize {
    let mut client = Client::arrive(addr);
    client.speak_json();
    client.send("who");
    let who = client.event_named("who");
    who["players"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_signal_at_the_lobby_prompt_gives_the_terminal_back() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-signals");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    for (signal, name) in [
        (libc::SIGTERM, "TERM"),
        (libc::SIGHUP, "HUP"),
        (libc::SIGQUIT, "QUIT"),
    ] {
        let home = Scratch::unmade(&format!("join-sig-{name}"));
        let mut session = join_under_a_shell(&addr.to_string(), &home)?;
        session.expect("commands.")?;
        session.expect("> ")?;
        // rustyline is now reading in raw mode, a word typed.
        session.send("wh")?;
        let shell = session.get_process().pid().as_raw();
        let join = (0..100)
            .find_map(|_| {
                std::thread::sleep(Duration::from_millis(20));
                child_of(shell)
            })
            .expect("join runs under the shell");
        // SAFETY: sends a signal to a process this test started.
        assert_eq!(unsafe { libc::kill(join, signal) }, 0);
        session.expect("server.")?;
        session.expect(format!("STATUS={}", 128 + signal).as_str())?;
        for mode in ["icanon", "echo"] {
            let found = session.expect(Regex(format!(r"\s-?{mode}\s").as_str()))?;
            let found = String::from_utf8_lossy(found.get(0).unwrap_or_default()).to_string();
            assert_eq!(found.trim(), mode, "after SIG{name}, {mode} is on again");
        }
        session.expect(Eof)?;
        // The server saw the player go: only the one asking is online.
        let end = Instant::now() + Duration::from_secs(10);
        let mut count = online(addr);
        while count != 1 && Instant::now() < end {
            // Seldom: the door takes a burst of connections, then one in 3 s.
            std::thread::sleep(Duration::from_millis(500));
            count = online(addr);
        }
        assert_eq!(count, 1, "after SIG{name} the server still has join online");
    }
    running.stop();
    Ok(())
}

/// `join` to a port that takes the connection and never says a word, at
/// `target` (`ADDR` at the line door, `USER@ADDR` through ssh), left with
/// Ctrl-C once connected: it says the player left, and ends with status 0.
fn ctrl_c_before_the_first_word(
    tag: &str,
    target: impl Fn(std::net::SocketAddr) -> String,
) -> Result<(), expectrl::Error> {
    let silent = std::net::TcpListener::bind("127.0.0.1:0")?;
    let addr = silent.local_addr()?;
    let held = std::thread::spawn(move || silent.accept().map(|(stream, _)| stream));
    let home = Scratch::unmade(&format!("join-sig-{tag}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
    cmd.args(["join", &target(addr), "--color", "never"])
        .env("HOME", &home)
        .env_remove("SSH_AUTH_SOCK")
        .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(10)));
    // Connected, waiting for the server's first word.
    let _stream = held.join().map_err(|_| std::io::Error::other("accept"))??;
    session.send(expectrl::ControlCode::EndOfText)?;
    session.expect("You left before the server said anything.")?;
    server_common::ends_with_status_0(
        &mut session,
        &format!("Ctrl-C is the player leaving ({tag})"),
    )
}

#[test]
fn ctrl_c_while_the_server_says_nothing_leaves() -> Result<(), expectrl::Error> {
    ctrl_c_before_the_first_word("silent", |addr| addr.to_string())
}

/// Through ssh, which the terminal's Ctrl-C ends too, often before join
/// has noted the Ctrl-C: the same sentence and status every time.
#[test]
fn ctrl_c_while_ssh_connects_says_one_thing_every_time() -> Result<(), expectrl::Error> {
    if !server_common::openssh::have_openssh() {
        return Ok(());
    }
    // ssh waits at the silent port for the server's greeting.
    for round in 0..3 {
        ctrl_c_before_the_first_word(&format!("ssh-{round}"), |addr| format!("ann@{addr}"))?;
    }
    Ok(())
}

/// A direction override typed at join's prompt is shown escaped while the
/// line is edited, never sent to the terminal as it is.
#[test]
fn a_direction_override_typed_is_shown_escaped() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-typed");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let home = Scratch::unmade("join-typed-home");
    let mut session = join_under_a_shell(&addr.to_string(), &home)?;
    session.expect("commands.")?;
    session.expect("> ")?;
    session.send("say a\u{202e}b")?;
    let seen = session.expect("b")?;
    let shown = String::from_utf8_lossy(seen.as_bytes()).to_string();
    let before = String::from_utf8_lossy(seen.before()).to_string();
    assert!(
        !before.contains('\u{202e}') && !shown.contains('\u{202e}'),
        "{before:?}"
    );
    assert!(before.contains("\\u{202e}"), "{before:?}");
    session.send("\x15quit\r")?;
    session.expect("STATUS=0")?;
    running.stop();
    Ok(())
}

/// Ctrl-\ at join's prompt, which the line editor reads as a key, quits as
/// SIGQUIT does: the player left, status 131, as in local play.
#[test]
fn ctrl_backslash_at_the_prompt_quits_as_the_signal_does() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-quit-key");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let home = Scratch::unmade("join-quit-key-home");
    let mut session = join_under_a_shell(&addr.to_string(), &home)?;
    session.expect("commands.")?;
    session.expect("> ")?;
    session.send("wh\x1c")?;
    session.expect("You left the server.")?;
    session.expect("STATUS=131")?;
    running.stop();
    Ok(())
}

#[test]
fn enter_after_the_server_has_gone_gives_the_terminal_back() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-server-gone");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let home = Scratch::unmade("join-server-gone-home");
    let mut session = join_under_a_shell(&addr.to_string(), &home)?;
    session.expect("commands.")?;
    session.expect("> ")?;
    // The server goes while rustyline reads in raw mode.
    running.stop();
    session.expect("Press Enter to leave.")?;
    session.send("\r")?;
    // Gone before the player asked to leave: status 1.
    session.expect("STATUS=1")?;
    for mode in ["icanon", "echo"] {
        let found = session.expect(Regex(format!(r"\s-?{mode}\s").as_str()))?;
        let found = String::from_utf8_lossy(found.get(0).unwrap_or_default()).to_string();
        assert_eq!(found.trim(), mode, "{mode} is on again");
    }
    session.expect(Eof)?;
    Ok(())
}

/// Ctrl-D after the server has gone leaves as Enter does, even after a
/// line half typed, where the line editor would delete a character.
#[test]
fn ctrl_d_after_the_server_has_gone_leaves_after_a_half_typed_line() -> Result<(), expectrl::Error>
{
    let data = Scratch::new("join-gone-ctrl-d");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let home = Scratch::unmade("join-gone-ctrl-d-home");
    let mut session = join_under_a_shell(&addr.to_string(), &home)?;
    session.expect("commands.")?;
    session.expect("> ")?;
    session.send("who")?;
    session.send("\x01")?;
    running.stop();
    session.expect("Press Enter to leave.")?;
    session.send("\x04")?;
    session.expect("STATUS=1")?;
    session.expect(Eof)?;
    Ok(())
}

/// Ctrl-\ after the server has gone leaves as Enter does, with no word of
/// leaving a server that is not there.
#[test]
fn ctrl_backslash_after_the_server_has_gone_says_no_farewell() -> Result<(), expectrl::Error> {
    let data = Scratch::new("join-gone-quit");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let home = Scratch::unmade("join-gone-quit-home");
    let mut session = join_under_a_shell(&addr.to_string(), &home)?;
    session.expect("commands.")?;
    session.expect("> ")?;
    running.stop();
    session.expect("Press Enter to leave.")?;
    session.send("\x1c")?;
    let found = session.expect("STATUS=")?;
    let before = String::from_utf8_lossy(found.before()).to_string();
    assert!(!before.contains("You left the server."), "{before:?}");
    session.expect(Eof)?;
    Ok(())
}
