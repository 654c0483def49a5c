//! The ssh door with the real OpenSSH client: a key is an account, `guest`
//! needs none, the host key is kept and presented again after a restart,
//! scripts and `json` get lines, a terminal gets the door's own line editor,
//! and the gate turns connections away before any handshake.
//!
//! Each test starts a server in this process on 127.0.0.1:0 and runs the
//! system's `ssh`; without `ssh` or `ssh-keygen` the tests say so and pass.

#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tallyho::server::limits::{Gate, Limits};
use tallyho::server::ssh;
use tallyho::server::{Rules, Server};

mod scratch;
mod server_common;
use scratch::Scratch;
use server_common::openssh::{self, have_openssh, keygen, keygen_of};

/// How long any one client may take before it is killed and the test fails.
const CLIENT_TIME: Duration = Duration::from_secs(30);

/// A fresh directory for one test, removed when dropped: declare it before
/// the door and the clients that use it, so they are dropped first.
fn scratch(tag: &str) -> Scratch {
    Scratch::new(&format!("ssh-{tag}"))
}

/// A server's ssh door running on a thread of its own until dropped.
struct Door {
    port: u16,
    server: Server,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Door {
    fn start(data: &Path) -> Door {
        Door::start_with(data, Limits::default())
    }

    fn start_with(data: &Path, limits: Limits) -> Door {
        let rules = Rules {
            grace: Duration::from_secs(120),
            think: Duration::from_millis(50),
        };
        let server = Server::open(data.to_path_buf(), Gate::new(limits), rules).unwrap();
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let serving = server.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                port_tx.send(listener.local_addr().unwrap().port()).unwrap();
                ssh::serve(listener, serving).await.unwrap();
            });
        });
        let port = port_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the door starts");
        Door {
            port,
            server,
            thread: Some(thread),
        }
    }
}

/// A test's folder and a door serving from `dir/serve`, in the order to
/// bind them, so that the door is dropped first; `None`, with a note,
/// where OpenSSH is missing.
fn door_in(tag: &str) -> Option<(Scratch, Door)> {
    if !have_openssh() {
        return None;
    }
    let dir = scratch(tag);
    let door = Door::start(&dir.join("serve"));
    Some((dir, door))
}

impl Drop for Door {
    fn drop(&mut self) {
        self.server.shutdown().cancel();
        self.server.closing().cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The ssh command for `user` at the door, with no user configuration or
/// agent, and `dir/known_hosts` as the host list.
fn ssh_command(door: &Door, dir: &Path, user: &str, key: Option<&Path>) -> Command {
    ssh_with(door, dir, user, key, &[])
}

/// The same with `options` first (ssh takes the first value it is given).
fn ssh_with(door: &Door, dir: &Path, user: &str, key: Option<&Path>, options: &[&str]) -> Command {
    openssh::ssh_command(door.port, dir, user, key, options)
}

/// Runs a client with `input` on its stdin; kills it if it takes too long.
fn run(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssh starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > CLIENT_TIME {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!("ssh took more than {CLIENT_TIME:?}: {output:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = writer.join();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `input` as a script for `user` at the door (`ssh -T`, no
/// terminal): what ssh did, and its standard output as text.
fn script(
    door: &Door,
    dir: &Path,
    user: &str,
    key: Option<&Path>,
    input: &[u8],
) -> (Output, String) {
    let out = run(ssh_command(door, dir, user, key).arg("-T"), input);
    let stdout = text(&out.stdout);
    (out, stdout)
}

#[test]
fn a_key_is_an_account_and_a_script_gets_its_answers() {
    let Some((dir, door)) = door_in("script") else {
        return;
    };
    let key = keygen(&dir, "ann");
    let (out, stdout) = script(&door, &dir, "ann", Some(&key), b"who\r\nhi\nquit");
    assert!(out.status.success(), "{out:?}");
    // A new key claims the ssh user name as its handle; every line is
    // echoed after its prompt.
    assert!(
        stdout.starts_with("Your key is now the account ann: log in with it to play as ann again.\nWelcome to tallyho, ann. Your games are rated."),
        "{stdout}"
    );
    assert!(stdout.contains("> who\n"), "{stdout}");
    assert!(stdout.contains("ann"), "{stdout}");
    assert!(
        stdout.contains("> hi\n\"hi\" is not a command here"),
        "{stdout}"
    );
    // The last line counts though it has no end.
    assert!(stdout.contains("> quit\nGoodbye."), "{stdout}");
    // No terminal: the text is as the session wrote it.
    assert!(!stdout.contains('\r'), "{stdout:?}");
    // The same key is the same account, whatever user name ssh is given.
    let (out, stdout) = script(&door, &dir, "someone", Some(&key), b"quit\n");
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.starts_with("Welcome to tallyho, ann. Your games are rated."),
        "{stdout}"
    );
    // Another key is another account.
    let other_key = keygen(&dir, "bob");
    let (_, stdout) = script(&door, &dir, "bob", Some(&other_key), b"quit\n");
    assert!(
        stdout.starts_with("Your key is now the account bob"),
        "{stdout}"
    );
}

#[test]
fn an_rsa_key_is_an_account_too() {
    let Some((dir, door)) = door_in("rsa") else {
        return;
    };
    let key = keygen_of(&dir, "rsa", &["-t", "rsa", "-b", "2048"]);
    let (out, stdout) = script(&door, &dir, "rita", Some(&key), b"quit\n");
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("Welcome to tallyho, rita. Your games are rated."),
        "{stdout}"
    );
}

#[test]
fn a_long_script_over_ssh_is_answered_to_its_last_line() {
    let Some((dir, door)) = door_in("long-script") else {
        return;
    };
    // Far more lines than the session's inbox holds, sent at once: the
    // door queues them, and the answers still flow while it does.
    // (250 answers still fit the pipe this test reads only at the end.)
    let lines = "who\n".repeat(250) + "quit\n";
    let (out, stdout) = script(&door, &dir, "guest", None, lines.as_bytes());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout.matches("> who\n").count(), 250, "{stdout}");
    assert!(stdout.ends_with("> quit\nGoodbye.\n"), "{stdout}");
}

#[test]
fn a_guest_needs_no_key_and_others_need_one() {
    let Some((dir, door)) = door_in("guest") else {
        return;
    };
    let (out, stdout) = script(&door, &dir, "guest", None, b"who\n");
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains("You are a guest"), "{stdout}");
    assert!(stdout.contains("(guest)"), "{stdout}");
    // Anyone else without a key is turned away, and told only of keys.
    let (out, _) = script(&door, &dir, "ann", None, b"who\n");
    assert_eq!(out.status.code(), Some(255), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Permission denied (publickey)"), "{stderr}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn the_host_key_is_private_and_the_same_after_a_restart() {
    if !have_openssh() {
        return;
    }
    let dir = scratch("restart");
    let data = dir.join("serve");
    let key = keygen(&dir, "ann");
    // Both servers are known under one name, so the second must present
    // the key the first one did.
    let strict = |door: &Door, checking: &str| {
        let checking = format!("StrictHostKeyChecking={checking}");
        let options = ["-o", &checking, "-o", "HostKeyAlias=tallyho-test"];
        let mut cmd = ssh_with(door, &dir, "ann", Some(&key), &options);
        cmd.arg("-T");
        cmd
    };
    {
        let door = Door::start(&data);
        let out = run(&mut strict(&door, "accept-new"), b"quit\n");
        assert!(text(&out.stdout).contains("Goodbye."), "{out:?}");
    }
    let path = data.join(ssh::HOST_KEY_FILE);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", path.display());
    let known = std::fs::read_to_string(dir.join("known_hosts")).unwrap();
    let presented = ssh::host_key(&data).unwrap();
    let public = presented.public_key().to_openssh().unwrap();
    assert!(known.contains(&public), "{known}");
    {
        let door = Door::start(&data);
        let out = run(&mut strict(&door, "yes"), b"quit\n");
        assert!(out.status.success(), "{out:?}");
        assert!(text(&out.stdout).contains("Goodbye."), "{out:?}");
    }
    // A server with another data directory has another key, and the client
    // refuses it: the check above could fail.
    let other = Door::start(&dir.join("other"));
    let out = run(&mut strict(&other, "yes"), b"quit\n");
    assert_eq!(out.status.code(), Some(255), "{out:?}");
    assert!(
        text(&out.stderr).contains("Host key verification failed"),
        "{out:?}"
    );
}

#[test]
fn json_is_the_one_command_and_others_fail_with_status_2() {
    let Some((dir, door)) = door_in("exec") else {
        return;
    };
    let key = keygen(&dir, "ann");
    let mut cmd = ssh_command(&door, &dir, "ann", Some(&key));
    cmd.args(["-T", "json"]);
    let out = run(&mut cmd, b"who\n");
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(r#"{"event":"welcome","handle":"ann","#),
        "{stdout}"
    );
    assert!(stdout.contains(r#"{"event":"who","#), "{stdout}");
    let mut cmd = ssh_command(&door, &dir, "ann", Some(&key));
    cmd.args(["-T", "rm", "-rf", "/\x1b[2J"]);
    let out = run(&mut cmd, b"who\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no command \"rm -rf /"), "{stderr}");
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn a_long_line_is_refused_without_ending_the_session() {
    let Some((dir, door)) = door_in("long") else {
        return;
    };
    let mut input = vec![b'x'; 1 << 20];
    input.extend_from_slice(b"\nquit\n");
    let (out, stdout) = script(&door, &dir, "guest", None, &input);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("That line is 1048576 bytes long"),
        "{stdout}"
    );
    assert!(stdout.contains("Goodbye."), "{stdout}");
    assert!(stdout.len() < 16 * 1024, "{} bytes came back", stdout.len());
}

#[test]
fn a_script_sending_far_ahead_is_told_why_it_is_cut_off() {
    let Some((dir, door)) = door_in("flood") else {
        return;
    };
    // Three megabytes of short lines, far more than is read ahead.
    let input = b"who\n".repeat(800_000);
    let (out, _) = script(&door, &dir, "guest", None, &input);
    assert!(!out.status.success(), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("more than a mebibyte of input came before it could be read"),
        "{stderr}"
    );
}

#[test]
fn the_gate_turns_a_connection_away_before_the_handshake() {
    let dir = scratch("gate");
    let door = Door::start_with(
        &dir.join("serve"),
        Limits {
            per_address: 1,
            ..Limits::default()
        },
    );
    let address = ("127.0.0.1", door.port);
    // The first connection is let in: it hears the server's version.
    let mut first = TcpStream::connect(address).unwrap();
    first.set_read_timeout(Some(CLIENT_TIME)).unwrap();
    let mut hello = [0; 8];
    first.read_exact(&mut hello).unwrap();
    assert_eq!(&hello, b"SSH-2.0-");
    // The second, while the first is open, hears why not, and is closed.
    let mut second = TcpStream::connect(address).unwrap();
    second.set_read_timeout(Some(CLIENT_TIME)).unwrap();
    let mut said = String::new();
    second.read_to_string(&mut said).unwrap();
    assert_eq!(
        said,
        "tallyho: too many connections from your address; close one and try again\r\n"
    );
    // Once the first is gone its place is free again.
    drop(first);
    let started = Instant::now();
    loop {
        let mut third = TcpStream::connect(address).unwrap();
        third.set_read_timeout(Some(CLIENT_TIME)).unwrap();
        let mut hello = [0; 8];
        third.read_exact(&mut hello).unwrap();
        if &hello == b"SSH-2.0-" {
            break;
        }
        assert!(started.elapsed() < CLIENT_TIME, "the place was never freed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

mod terminal {
    use super::*;
    use expectrl::session::OsSession;
    use expectrl::{Eof, Expect, Session};

    /// ann, with a new key, at a terminal over ssh (`ssh -tt`) to a door of
    /// her own. Fields drop in order: the client, the door, the folder.
    struct AtTerminal {
        session: OsSession,
        door: Door,
        dir: Scratch,
    }

    /// ann at a terminal, as the test named `tag` needs her; `None`, with a
    /// note, where OpenSSH is missing.
    fn ann_at_a_terminal(tag: &str) -> Result<Option<AtTerminal>, expectrl::Error> {
        if !have_openssh() {
            return Ok(None);
        }
        let dir = scratch(tag);
        let door = Door::start(&dir.join("serve"));
        let key = keygen(&dir, "ann");
        let mut cmd = ssh_command(&door, &dir, "ann", Some(&key));
        cmd.arg("-tt");
        let mut session = Session::spawn(cmd)?;
        session.set_expect_timeout(Some(CLIENT_TIME));
        Ok(Some(AtTerminal { session, door, dir }))
    }

    /// ann types quit, and ssh ends.
    fn leave(session: &mut OsSession) -> Result<(), expectrl::Error> {
        session.send("quit\r")?;
        session.expect(Eof)?;
        Ok(())
    }

    /// bob, with his key, tells ann `text` from a script, which ends well.
    fn bob_tells_ann(door: &Door, dir: &Path, bob_key: &Path, text: &str) {
        let told = format!("tell ann {text}\nquit\n");
        let (out, _) = script(door, dir, "bob", Some(bob_key), told.as_bytes());
        assert!(out.status.success(), "{out:?}");
    }

    #[test]
    fn the_door_echoes_and_edits_what_is_typed_at_a_terminal() -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir: _dir,
            door: _door,
            mut session,
        }) = ann_at_a_terminal("pty")?
        else {
            return Ok(());
        };
        session.expect("> ")?;
        // Backspace erases the x: on the screen, and in the line taken.
        session.send("abx\x7fc\r")?;
        session.expect("abx\x08 \x08c\r\n")?;
        // Output to a terminal has its newlines turned into \r\n.
        session.expect("\"abc\" is not a command here; type help for the list.\r\n")?;
        session.expect("> ")?;
        // Arrows are dropped, Ctrl-U erases the line, a wide character
        // takes two columns back.
        session.send("\x1b[Ajunk\x15狐\x7fok\r")?;
        session.expect("junk\x08 \x08\x08 \x08\x08 \x08\x08 \x08狐\x08 \x08\x08 \x08ok\r\n")?;
        session.expect("\"ok\" is not a command here")?;
        session.expect("> ")?;
        // A direction override is never shown, but not silently left out
        // either: the session names it, escaped.
        session.send("a\u{202e}b\r")?;
        session.expect("ab\r\n")?;
        session.expect("\"a\\u{202e}b\" is not a command here")?;
        session.expect("> ")?;
        // Ctrl-D on an empty line ends the session, and ssh with it.
        session.send("\x04")?;
        session.expect(Eof)?;
        Ok(())
    }

    /// Whether `text` holds a colour or another graphic rendition
    /// (`ESC [ … m`).
    fn coloured(text: &str) -> bool {
        text.split("\x1b[").skip(1).any(|rest| {
            rest.chars()
                .find(|c| !(c.is_ascii_digit() || *c == ';'))
                .is_some_and(|c| c == 'm')
        })
    }

    #[test]
    fn a_dumb_terminal_is_shown_no_colour() -> Result<(), expectrl::Error> {
        if !have_openssh() {
            return Ok(());
        }
        // Bound folder first, so the client goes first and the folder last.
        let dir = scratch("pty-dumb");
        let door = Door::start(&dir.join("serve"));
        let key = keygen(&dir, "ann");
        // The terminal's type is the pty request's, as ssh takes it from TERM.
        for (term, colour) in [("dumb", false), ("xterm", true)] {
            let mut cmd = ssh_command(&door, &dir, "ann", Some(&key));
            cmd.arg("-tt").env("TERM", term);
            let mut session = Session::spawn(cmd)?;
            session.set_expect_timeout(Some(CLIENT_TIME));
            session.expect("> ")?;
            session.send("play fox rubbish\r")?;
            let board = session.expect("(B7)")?;
            let board = String::from_utf8_lossy(board.before()).into_owned();
            assert!(board.contains("next"), "{board:?}");
            assert_eq!(coloured(&board), colour, "TERM={term}: {board:?}");
            session.send("resign\r")?;
            session.expect("resigned")?;
            session.expect("> ")?;
            leave(&mut session)?;
        }
        Ok(())
    }

    #[test]
    fn a_terminal_closed_by_a_new_login_shows_nothing_after_its_last_line()
    -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir,
            door,
            mut session,
        }) = ann_at_a_terminal("pty-replaced")?
        else {
            return Ok(());
        };
        session.expect("> ")?;
        session.send("play fox rubbish --side fox\r")?;
        session.expect("(B7)")?;
        let (out, _) = script(&door, &dir, "ann", Some(&dir.join("ann")), b"quit\n");
        assert!(out.status.success(), "{out:?}");
        session.expect("closed.")?;
        // What came after it, up to the end.
        let after = session.expect(Eof)?;
        let after = String::from_utf8_lossy(after.get(0).unwrap_or(&[])).into_owned();
        assert!(after.trim().is_empty(), "after the last line: {after:?}");
        Ok(())
    }

    /// The text up to the next prompt, each line's width checked.
    fn widest_line(session: &mut OsSession) -> Result<(String, usize), expectrl::Error> {
        let found = session.expect("> ")?;
        let text = String::from_utf8_lossy(found.before()).into_owned();
        let widest = text.split("\r\n").map(|l| l.chars().count()).max();
        Ok((text, widest.unwrap_or(0)))
    }

    #[test]
    fn the_text_is_laid_out_for_the_terminal_width_as_it_changes() -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir: _dir,
            door: _door,
            mut session,
        }) = ann_at_a_terminal("width")?
        else {
            return Ok(());
        };
        session
            .get_process_mut()
            .set_window_size(40, 24)
            .expect("the pty takes a size");
        // 40 columns, from the pty request (or its first window change).
        let (welcome, widest) = widest_line(&mut session)?;
        assert!(welcome.contains("Welcome to tallyho, ann."), "{welcome:?}");
        assert!(widest <= 40, "{welcome:?}");
        session.send("xyzzy\r")?;
        let (refused, widest) = widest_line(&mut session)?;
        assert!(refused.contains("is not a command"), "{refused:?}");
        assert!(widest <= 40, "{refused:?}");
        // Wider: the same refusal takes one line.
        session
            .get_process_mut()
            .set_window_size(120, 24)
            .expect("the pty takes a size");
        std::thread::sleep(Duration::from_millis(300));
        session.send("xyzzy\r")?;
        let (refused, _) = widest_line(&mut session)?;
        assert!(
            refused.contains("\"xyzzy\" is not a command here; type help for the list.\r\n"),
            "{refused:?}"
        );
        leave(&mut session)
    }

    /// What is said to a player at a terminal is wrapped at its words to
    /// the terminal's width, escapes and all, and no escape is broken.
    #[test]
    fn a_message_is_wrapped_to_the_terminal_width() -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir,
            door,
            mut session,
        }) = ann_at_a_terminal("wrapped")?
        else {
            return Ok(());
        };
        session
            .get_process_mut()
            .set_window_size(40, 24)
            .expect("the pty takes a size");
        session.expect("Welcome to tallyho, ann.")?;
        session.expect("> ")?;
        let bob_key = keygen(&dir, "bob");
        let words = "one two three four five six seven eight nine ten eleven twelve";
        let told = format!("{words} x{} end.", "\u{180e}".repeat(10));
        bob_tells_ann(&door, &dir, &bob_key, &told);
        session.expect("bob tells you:")?;
        let rest = session.expect("end.")?;
        let rest = format!(
            "bob tells you:{}end.",
            String::from_utf8_lossy(rest.before())
        );
        let lines: Vec<&str> = rest.split("\r\n").collect();
        assert!(lines.len() > 3, "{rest:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{rest:?}");
        assert!(lines.join(" ").contains(words), "{rest:?}");
        let escapes: usize = lines.iter().map(|l| l.matches("\\u{180e}").count()).sum();
        assert_eq!(escapes, 10, "{rest:?}");
        leave(&mut session)
    }

    /// A message that arrives while a line is typed is followed by the
    /// question and the typed text again, so what is sent is what is seen.
    #[test]
    fn a_message_while_typing_shows_the_typed_text_again() -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir,
            door,
            mut session,
        }) = ann_at_a_terminal("typing")?
        else {
            return Ok(());
        };
        session.expect("Welcome to tallyho, ann.")?;
        session.expect("> ")?;
        let bob_key = keygen(&dir, "bob");
        let tell = |text: &str| bob_tells_ann(&door, &dir, &bob_key, text);
        // Nothing typed yet: the message, then the prompt again.
        tell("first");
        session.expect("bob tells you: first\r\n")?;
        session.expect("> ")?;
        session.send("wh")?;
        session.expect("wh")?;
        tell("hello there");
        session.expect("bob tells you: hello there")?;
        // Then, on a line of its own, the prompt and what was typed.
        let again = session.expect("wh")?;
        let again = String::from_utf8_lossy(again.before()).into_owned();
        assert!(
            again.starts_with("\r\n") && again.contains("> "),
            "{again:?}"
        );
        session.send("o\r")?;
        session.expect("online:")?;
        leave(&mut session)
    }

    /// Lines pasted at once are shown as typed at a local terminal: each
    /// after its own question, not all before the first answer, with the
    /// questions after them run together on one row.
    #[test]
    fn lines_pasted_at_once_are_each_shown_after_their_question() -> Result<(), expectrl::Error> {
        // Bound folder first, so the client goes first and the folder last.
        let Some(AtTerminal {
            dir: _dir,
            door: _door,
            mut session,
        }) = ann_at_a_terminal("pasted")?
        else {
            return Ok(());
        };
        session.expect("Welcome to tallyho, ann.")?;
        session.expect("> ")?;
        session.send("xyzzy\rplugh\rwh")?;
        // What is typed of the next line follows the next question.
        let before = session.expect("wh")?;
        session.send("o\r")?;
        let after = session.expect("online:")?;
        let seen = format!(
            "> {}wh{}",
            String::from_utf8_lossy(before.before()),
            String::from_utf8_lossy(after.before())
        );
        let refused = |word: &str| {
            format!("> {word}\r\n\"{word}\" is not a command here; type help for the list.\r\n")
        };
        assert_eq!(
            unstyled(&seen),
            format!("{}{}> who\r\n1 ", refused("xyzzy"), refused("plugh"))
        );
        session.expect("> ")?;
        // A paste far longer than one packet, a line dropped with Ctrl-C in
        // it: every line after its own question still.
        let words: Vec<String> = (1..=1000).map(|n| format!("q{n}")).collect();
        let (first, second) = words.split_at(500);
        let paste = format!("{}\rzz\x03{}\rwho\r", first.join("\r"), second.join("\r"));
        session.send(paste)?;
        let pasted = session.expect("online:")?;
        let expected: String = first.iter().map(|w| refused(w)).collect::<String>()
            + "> zz^C\r\n"
            + &second.iter().map(|w| refused(w)).collect::<String>()
            + "> who\r\n1 ";
        assert_eq!(
            unstyled(&format!("> {}", String::from_utf8_lossy(pasted.before()))),
            expected
        );
        leave(&mut session)
    }

    /// `text` without its graphic renditions (`ESC [ … m`).
    fn unstyled(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("\x1b[") {
            out.push_str(&rest[..at]);
            let sequence = &rest[at + 2..];
            let end = sequence.find('m').map_or(sequence.len(), |m| m + 1);
            rest = &sequence[end..];
        }
        out + rest
    }
}

/// An ssh client in a conversation: its output read as it comes, lines
/// written when the test decides.
struct Client {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    seen: std::sync::Arc<std::sync::Mutex<String>>,
    /// Where the next expect starts looking.
    at: usize,
}

impl Client {
    fn spawn(cmd: &mut Command) -> Client {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh starts");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().unwrap();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let filling = std::sync::Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                filling
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Client {
            child,
            stdin,
            seen,
            at: 0,
        }
    }

    /// `user` logged in at the door with `key` (`ssh -T`, no terminal).
    fn login(door: &Door, dir: &Path, user: &str, key: Option<&Path>) -> Client {
        Client::spawn(ssh_command(door, dir, user, key).arg("-T"))
    }

    /// `user` logged in with `key`, once welcomed and shown the lobby's
    /// first prompt.
    fn welcomed(door: &Door, dir: &Path, user: &str, key: &Path) -> Client {
        let mut client = Client::login(door, dir, user, Some(key));
        client.expect(&format!("Welcome to tallyho, {user}."));
        client.expect("> ");
        client
    }

    /// The connection drops: ssh is killed.
    fn drop_line(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits until `text` comes, after what was expected before.
    fn expect(&mut self, text: &str) {
        let started = Instant::now();
        loop {
            {
                let seen = self.seen.lock().unwrap();
                if let Some(i) = seen[self.at..].find(text) {
                    self.at += i + text.len();
                    return;
                }
                if started.elapsed() > CLIENT_TIME {
                    panic!(
                        "{text:?} never came; after the last expected:\n{}",
                        &seen[self.at..]
                    );
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes its input and waits for it to end; true if it ended well.
    fn finish(mut self) -> bool {
        drop(self.stdin.take());
        self.finish_by_itself()
    }

    /// Waits for it to end with its input open; true if it ended well.
    fn finish_by_itself(&mut self) -> bool {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            if started.elapsed() > CLIENT_TIME {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.drop_line();
    }
}

/// The fox's moves in a game the fox wins: it runs down the board while
/// one hound walks up its edge and leaves D1 open, and the fox takes it.
const FOX_RUN: [&str; 7] = ["B7", "C6", "D5", "E4", "F3", "E2", "D1"];

/// The hounds' answers, one after each fox move but the last.
const HOUNDS_WALK: [&str; 6] = ["D1C2", "C2B3", "B3A4", "A4B5", "B5A6", "B1A2"];

/// ann (the fox) and bob (the hounds), in a game just begun, play the
/// fox's win to its last move, bob shown each of ann's; `before` runs
/// before each fox move, with its index.
fn fox_wins(
    ann: &mut Client,
    bob: &mut Client,
    mut before: impl FnMut(usize, &mut Client, &mut Client),
) {
    let mut from = "A8";
    for (i, to) in FOX_RUN.into_iter().enumerate() {
        before(i, ann, bob);
        ann.expect("Move fox to (");
        ann.send(to);
        if let Some(hound) = HOUNDS_WALK.get(i) {
            bob.expect(&format!("ann moved {from}-{to}"));
            bob.expect("Move (");
            bob.send(hound);
        }
        from = to;
    }
}

#[test]
fn two_ssh_clients_play_a_whole_game_of_fox_and_hounds() {
    let Some((dir, door)) = door_in("fox") else {
        return;
    };
    let (ann_key, bob_key) = (keygen(&dir, "ann"), keygen(&dir, "bob"));
    let mut ann = Client::welcomed(&door, &dir, "ann", &ann_key);
    let mut bob = Client::welcomed(&door, &dir, "bob", &bob_key);
    ann.send("seek fox --side fox");
    ann.expect("Seek 1 is open: fox (rated, ann plays fox).");
    bob.send("seeks");
    bob.expect("1. fox by ann");
    bob.send("accept 1");
    bob.expect("ann (fox) against bob (hounds)");
    fox_wins(&mut ann, &mut bob, |_, _, _| {});
    for client in [&mut ann, &mut bob] {
        client.expect("E2-D1");
        client.expect("Fox, ann won! The fox reached row 1.");
        client.expect("> ");
        client.send("quit");
        client.expect("Goodbye.");
    }
    assert!(ann.finish());
    assert!(bob.finish());
}

#[test]
fn when_the_server_closes_an_ssh_client_is_told_and_ends_well() {
    let Some((dir, door)) = door_in("closing") else {
        return;
    };
    let key = keygen(&dir, "ann");
    let mut ann = Client::welcomed(&door, &dir, "ann", &key);
    door.server.shutdown().cancel();
    door.server.closing().cancel();
    // ssh leaves by itself, with the exit status the door sent.
    let started = Instant::now();
    assert!(ann.finish_by_itself(), "ssh did not end well");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn the_account_is_the_fingerprint_ssh_keygen_prints() {
    if !have_openssh() {
        return;
    }
    let dir = scratch("fingerprint");
    let key = keygen(&dir, "ann");
    let listed = Command::new("ssh-keygen")
        .args(["-E", "sha256", "-l", "-f"])
        .arg(key.with_extension("pub"))
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    // "256 SHA256:… ann (ED25519)"
    let listed = text(&listed.stdout);
    let printed = listed.split_whitespace().nth(1).unwrap();
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    let public = russh::keys::PublicKey::from_openssh(public.trim()).unwrap();
    assert_eq!(ssh::fingerprint(&public), printed);
}

#[test]
fn a_client_that_says_nothing_is_closed_after_the_idle_time() {
    if !have_openssh() {
        return;
    }
    let dir = scratch("idle");
    let door = Door::start_with(
        &dir.join("serve"),
        Limits {
            idle: Duration::from_secs(1),
            ..Limits::default()
        },
    );
    let mut ann = Client::login(&door, &dir, "guest", None);
    ann.expect("> ");
    let started = Instant::now();
    // Its input stays open, but it types nothing: the door closes it.
    assert!(!ann.finish_by_itself(), "ssh ended well, or never");
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    // And its place at the gate is given back.
    while door.server.gate().open() > 0 {
        assert!(started.elapsed() < CLIENT_TIME, "the place was never freed");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn garbage_on_the_port_ends_that_connection_and_no_other() {
    let Some((dir, door)) = door_in("garbage") else {
        return;
    };
    let mut guest = Client::login(&door, &dir, "guest", None);
    guest.expect("> ");
    let garbage: [&[u8]; 3] = [
        &[b'x'; 1 << 20],
        b"SSH-2.0-evil\r\n\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
        b"\x00\x00\x00\x0c\x0a\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\r\n",
    ];
    for bytes in garbage {
        let mut stream = TcpStream::connect(("127.0.0.1", door.port)).unwrap();
        stream.set_read_timeout(Some(CLIENT_TIME)).unwrap();
        // The server may close before all is written.
        let _ = stream.write_all(bytes);
        // It is closed in bounded time: the read ends (EOF or reset), it
        // does not time out.
        let mut sink = Vec::new();
        if let Err(e) = stream.read_to_end(&mut sink) {
            assert_ne!(e.kind(), std::io::ErrorKind::WouldBlock, "never closed");
            assert_ne!(e.kind(), std::io::ErrorKind::TimedOut, "never closed");
        }
    }
    guest.send("who");
    guest.expect("(guest)");
    guest.send("quit");
    guest.expect("Goodbye.");
    assert!(guest.finish());
}

#[test]
fn a_player_whose_ssh_drops_logs_in_again_with_the_key_and_finishes_the_game() {
    let Some((dir, door)) = door_in("drop") else {
        return;
    };
    let (ann_key, bob_key) = (keygen(&dir, "ann"), keygen(&dir, "bob"));
    let ann_ssh = || Client::login(&door, &dir, "ann", Some(&ann_key));
    let mut ann = ann_ssh();
    ann.expect("> ");
    let mut bob = Client::login(&door, &dir, "bob", Some(&bob_key));
    bob.expect("> ");
    ann.send("seek fox --side fox");
    ann.expect("Seek 1 is open");
    bob.send("accept 1");
    bob.expect("ann (fox) against bob (hounds)");
    fox_wins(&mut ann, &mut bob, |i, ann, bob| {
        if i == 3 {
            // ann's connection drops (ssh is killed) with the fox to move.
            ann.drop_line();
            bob.expect("ann has left the game.");
            *ann = ann_ssh();
            ann.expect("Welcome to tallyho, ann.");
            bob.expect("ann is back.");
        }
    });
    for client in [&mut ann, &mut bob] {
        client.expect("Fox, ann won! The fox reached row 1.");
        client.expect("> ");
        client.send("quit");
        client.expect("Goodbye.");
    }
    assert!(ann.finish());
    assert!(bob.finish());
}

/// A script (`ssh -T`, lines piped) with a new key whose ssh user name
/// cannot be a handle, taken or no handle at all, is told why and what to
/// do instead, none of its lines read as a handle, and ssh exits with 1.
/// A program (`json`) is asked: an empty line is answered, and `name NAME`
/// claims NAME as a guest's rename would.
#[test]
fn a_script_whose_user_name_is_no_handle_is_turned_away_and_a_program_asked() {
    let Some((dir, door)) = door_in("handle") else {
        return;
    };
    let bob_key = keygen(&dir, "bob");
    let (out, _) = script(&door, &dir, "bob", Some(&bob_key), b"quit\n");
    assert!(out.status.success(), "{out:?}");
    let key = keygen(&dir, "ann");
    for (user, why) in [
        ("bob", "the handle bob is taken."),
        ("fox", "\"fox\" is kept for the server."),
    ] {
        let (out, stdout) = script(&door, &dir, user, Some(&key), b"seek fox\nwho\nann\n");
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let said = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            said.starts_with(&format!("Your user name cannot be your handle: {why}")),
            "{said}"
        );
        assert!(
            said.ends_with("A script is not asked for another: log in with a free user name as the handle (ssh NAME@HOST), or once from a terminal to choose one. This session ends."),
            "{said}"
        );
        for not_read in ["Choose a handle", "seek", "who", "Welcome", "account ann"] {
            assert!(!said.contains(not_read), "{said}");
        }
    }
    let json = |input: &[u8]| {
        let out = run(
            ssh_command(&door, &dir, "fox", Some(&key))
                .arg("-T")
                .arg("json"),
            input,
        );
        text(&out.stdout)
    };
    // A user name that is another player's handle: the event says so too.
    let taken = text(
        &run(
            ssh_command(&door, &dir, "bob", Some(&key))
                .arg("-T")
                .arg("json"),
            b"quit\n",
        )
        .stdout,
    );
    assert!(
        taken.starts_with("{\"event\":\"handle\",\"message\":\"choose a handle for your key\",\"user_name\":\"the handle bob is taken\"}\n"),
        "{taken}"
    );
    let stdout = json(b"\nname carol\nquit\n");
    assert!(
        stdout.starts_with("{\"event\":\"handle\",\"message\":\"choose a handle for your key\",\"user_name\":\"\\\"fox\\\" is kept for the server\"}\n{\"event\":\"error\",\"message\":\"type the handle you want, or quit to leave\"}"),
        "{stdout}"
    );
    assert!(
        stdout.contains("{\"event\":\"welcome\",\"handle\":\"carol\",\"rated\":true}"),
        "{stdout}"
    );
}

/// A login with a key closes the key's other session, which is always told
/// why before it ends, however quickly the logins come.
#[test]
fn a_session_replaced_by_a_new_login_is_told_why_before_it_closes() {
    let Some((dir, door)) = door_in("replaced") else {
        return;
    };
    let key = keygen(&dir, "ann");
    let login = || {
        let mut client = Client::spawn(
            ssh_command(&door, &dir, "ann", Some(&key))
                .arg("-T")
                .arg("json"),
        );
        client.expect("\"event\":\"welcome\"");
        client
    };
    let mut old = login();
    for _ in 0..5 {
        let new = login();
        assert!(old.finish_by_itself(), "the replaced ssh did not end well");
        let seen = old.seen.lock().unwrap().clone();
        assert!(
            seen.contains(
                "{\"event\":\"info\",\"text\":\"You logged in again with this key elsewhere: this session is closed.\"}"
            ),
            "{seen}"
        );
        old = new;
    }
    // A person in a game is told too, and the game is kept for them.
    let mut person = Client::login(&door, &dir, "ann", Some(&key));
    person.expect("Welcome to tallyho, ann.");
    assert!(old.finish_by_itself());
    person.send("play fox rubbish --side fox");
    person.expect("Move fox to (B7)? ");
    let mut again = Client::login(&door, &dir, "ann", Some(&key));
    person.expect("You logged in again with this key elsewhere: this session is closed.");
    assert!(person.finish_by_itself());
    again.expect("Your other session with this key was closed");
    again.expect("> ");
    again.send("resume");
    again.expect("Move fox to (B7)? ");
    again.send("resign");
    again.expect("ann resigned");
}
