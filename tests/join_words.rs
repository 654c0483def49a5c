//! `tallyho join` against a stand-in server on loopback that answers in
//! the machine dialect with what an account sees (ratings in `who`, a
//! leaderboard, finished games): the words join prints for them, as the
//! text door words them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tallyho::shell::log::{Ending, Record, Seat};

mod scratch;
use scratch::Scratch;

/// A finished game of fox as the server's store keeps it.
fn record() -> Record {
    Record {
        version: 2,
        number: 7,
        date: "2026-12-06T10:11:12Z".to_string(),
        game: "fox".to_string(),
        flow: "default".to_string(),
        setup: BTreeMap::from([
            ("board".to_string(), "8x8".to_string()),
            ("rules".to_string(), "coursework".to_string()),
        ]),
        seats: vec![
            Seat {
                name: "ann".to_string(),
                side: "fox".to_string(),
                level: None,
            },
            Seat {
                name: "rubbish".to_string(),
                side: "hounds".to_string(),
                level: Some("rubbish".to_string()),
            },
        ],
        outcome: Ending {
            winner: Some("fox".to_string()),
            how: "fox-escaped".to_string(),
            score: None,
        },
        plies: 1,
        start: String::new(),
        moves: vec!["A8-B7".to_string()],
        seed: None,
    }
}

/// The event the stand-in answers `line` with, as the server sends it.
fn answer(line: &str) -> Option<Value> {
    let history = serde_json::to_value(record()).ok()?;
    Some(match line {
        "proto json" => json!({"event": "welcome", "handle": "ann", "rated": true}),
        "who" => json!({"event": "who", "players": [
            {"handle": "ann", "doing": "in the lobby",
             "ratings": {"fish": 1500.0, "draughts": 1612.0, "fox": 1487.0}},
            {"handle": "guest3", "doing": "playing game 2", "ratings": null},
        ]}),
        "ratings" => json!({"event": "ratings", "ratings": [
            {"name": "ann", "computer": false, "game": "fox",
             "rating": 1487.0, "deviation": 320.0, "games": 1},
            {"name": "rubbish", "computer": true, "game": "fox",
             "rating": 1512.0, "deviation": 310.0, "games": 2},
        ]}),
        "history" => json!({"event": "history", "games": [history]}),
        "play draughts rubbish" => json!({"event": "start", "game": 1, "kind": "draughts",
            "setup": {}, "moves": [], "players": ["ann", "rubbish"], "rated": false,
            "side": "black"}),
        _ => return None,
    })
}

/// Serves one connection, if one comes within 20 seconds: each line
/// answered, until `quit`, the end, or 20 seconds of silence; the first
/// answer only after `first_after`.
fn stand_in(listener: &TcpListener, first_after: Duration) {
    let end = Instant::now() + Duration::from_secs(20);
    let _ = listener.set_nonblocking(true);
    let stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(_) if Instant::now() < end => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => return,
        }
    };
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { return };
        if line.trim() == "quit" {
            return;
        }
        if line.trim() == "proto json" {
            std::thread::sleep(first_after);
        }
        if let Some(event) = answer(line.trim()) {
            let _ = writeln!(out, "{event}");
        }
    }
}

/// A listener on a free loopback port, and its address.
fn loopback() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("its address").to_string();
    (listener, addr)
}

/// `tallyho join ADDR` fed `typed` on standard input, each line answered
/// in turn on the one connection; what it printed and its status.
fn joined(addr: &str, typed: &[u8]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["join", addr])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut input) = child.stdin.take() {
                input.write_all(typed)?;
            }
            child.wait_with_output()
        })
        .expect("tallyho join runs")
}

#[test]
fn an_accounts_who_ratings_and_history_are_said_as_the_text_door_says_them() {
    let (listener, addr) = loopback();
    let server = std::thread::spawn(move || stand_in(&listener, Duration::ZERO));
    let out = joined(&addr, b"who\nratings\nhistory\nquit\n");
    let _ = server.join();
    let seen = String::from_utf8_lossy(&out.stdout);
    let expected = "\
You are ann. Your games are rated. Type help for the commands.
2 online:
  ann (fox 1487, draughts 1612, fish 1500): in the lobby
  guest3 (guest): playing game 2
  fox: ann, 1487 ± 320, 1 game
  fox: rubbish (computer), 1512 ± 310, 2 games
Your last games:
  2026-12-06 fox: ann (fox) against rubbish (hounds, rubbish); ann won
  (fox-escaped), 1 ply
Goodbye.
";
    assert_eq!(seen, expected);
    assert!(out.status.success(), "{out:?}");
}

/// A script joining with an ssh key new to the server, whose user name
/// cannot be its handle, is asked for one: its lines are no answer to that.
/// join says so, sends none of them, and exits with status 1, as the ssh
/// door does for a script it turns away.
#[test]
fn a_script_asked_for_a_handle_says_so_and_leaves() {
    let (listener, addr) = loopback();
    // The lines the stand-in was sent, but for join's own `proto json`.
    let server = std::thread::spawn(move || {
        let mut sent = Vec::new();
        let _ = listener.set_nonblocking(false);
        let Ok((stream, _)) = listener.accept() else {
            return sent;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
        let Ok(mut out) = stream.try_clone() else {
            return sent;
        };
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if line.trim() == "proto json" {
                let asked = json!({"event": "handle", "message": "choose a handle for your key",
                    "user_name": "the handle alice is taken"});
                let _ = writeln!(out, "{asked}");
            } else {
                sent.push(line);
            }
        }
        sent
    });
    let out = joined(&addr, b"seek fox\nwho\n");
    let sent = server.join().expect("the stand-in ends");
    let seen = String::from_utf8_lossy(&out.stdout);
    let said = seen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains(
            "Your user name cannot be your handle: the handle alice is taken. Choose a handle for your key. "
        ),
        "{seen}"
    );
    assert!(
        seen.contains("a script's lines are not answers to that"),
        "{seen}"
    );
    assert_eq!(out.status.code(), Some(1), "{seen}");
    assert!(sent.is_empty(), "sent as a handle: {sent:?}");
}

/// A game of draughts starts in the text door's words, the sides with
/// capitals as the game's own sentences write them.
#[test]
fn a_draughts_game_starts_in_the_text_doors_words() {
    let (listener, addr) = loopback();
    let server = std::thread::spawn(move || stand_in(&listener, Duration::ZERO));
    let out = joined(&addr, b"play draughts rubbish\n");
    let _ = server.join();
    let seen = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    assert!(
        seen.contains(
            "Game 1: draughts, unrated. ann (Black) against rubbish (White). You play Black."
        ),
        "{seen}"
    );
}

/// A door that turns join away with words that have no line end, and
/// closes at once: the words are said, whether the server read join's
/// first line before closing (an orderly close) or not (a reset).
#[test]
fn a_servers_last_words_without_a_line_end_are_said() {
    for reads_first in [true, false] {
        let (listener, addr) = loopback();
        let server = std::thread::spawn(move || {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            if reads_first {
                let mut first = String::new();
                let _ = BufReader::new(&stream).read_line(&mut first);
            } else {
                // join's first line has come, and is left unread.
                std::thread::sleep(Duration::from_millis(300));
            }
            let _ = stream.write_all(b"Full: try again later.");
            let _ = stream.flush();
            std::thread::sleep(Duration::from_millis(300));
        });
        let out = joined(&addr, b"");
        let _ = server.join();
        let seen = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            seen, "The server said: Full: try again later.\nThe server closed the connection.\n",
            "read first: {reads_first}"
        );
        assert_eq!(out.status.code(), Some(1), "{seen}");
    }
}

/// An `error` event the server sends before join has sent a line of the
/// script's is said, but no line of the script's was refused: the status
/// stays 0. One that answers a line makes it 3.
#[test]
fn an_error_before_any_line_is_said_but_refuses_nothing() {
    for (typed, status) in [(&b""[..], 0), (&b"nonsense\n"[..], 3)] {
        let (listener, addr) = loopback();
        let server = std::thread::spawn(move || {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let Ok(mut out) = stream.try_clone() else {
                return;
            };
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                let events = match line.trim() {
                    "proto json" => vec![
                        json!({"event": "welcome", "handle": "ann", "rated": false}),
                        json!({"event": "error", "message": "the store is slow today"}),
                    ],
                    "quit" => return,
                    _ => vec![json!({"event": "error", "message": "no such command"})],
                };
                for event in events {
                    let _ = writeln!(out, "{event}");
                }
            }
        });
        let out = joined(&addr, typed);
        let _ = server.join();
        let seen = String::from_utf8_lossy(&out.stdout);
        assert!(seen.contains("The store is slow today.\n"), "{seen}");
        assert_eq!(out.status.code(), Some(status), "{seen}");
    }
}

/// A door's first words longer than join takes are quoted cut, not taken
/// for silence; a door that takes the connection and says nothing, or
/// stops mid-line, holds a script no longer than `--wait`.
#[test]
fn a_door_too_long_or_silent_is_said_so() {
    let (listener, addr) = loopback();
    let server = std::thread::spawn(move || {
        // Too long: said once join's first line is read, then closed.
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
        let _ = BufReader::new(&stream).read_line(&mut String::new());
        let mut said = vec![b'x'; 1 << 20];
        said.push(b'\n');
        let _ = stream.write_all(&said);
        drop(stream);
        // Silent, then a line and silent: the connection held until join
        // has left.
        for said in [&b""[..], b"Sorry: busy\n", b"Sorry: bu"] {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let _ = stream.write_all(said);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
        }
    });
    let out = joined(&addr, b"");
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(seen.starts_with("The server said:\nxxxxxxxx"), "{seen}");
    assert!(
        seen.ends_with("x…\nThe server closed the connection.\n"),
        "{seen}"
    );
    assert_eq!(out.status.code(), Some(1), "{seen}");
    let silent =
        "The server has not answered in 1 second: join stops waiting (--wait) and leaves.\n";
    // The third door's words are cut off mid-line: quoted as far as they go.
    for said in [
        "",
        "The server said: Sorry: busy\n",
        "The server said: Sorry: bu\n",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["join", &addr, "--wait", "1"])
            .stdin(Stdio::null())
            .output()
            .expect("tallyho join runs");
        let seen = String::from_utf8_lossy(&out.stdout);
        assert_eq!(seen, format!("{said}{silent}"));
        assert_eq!(out.status.code(), Some(1), "{seen}");
    }
    let _ = server.join();
}

/// A person typing at a terminal whose output goes to a pipe (`join … |
/// tee game.txt`) is no script: join waits for the server as long as they
/// like, past `--wait`, and sends their lines as they type them.
#[test]
fn a_person_whose_output_is_piped_is_waited_for() -> Result<(), expectrl::Error> {
    use expectrl::Expect;
    let (listener, addr) = loopback();
    let server = std::thread::spawn(move || stand_in(&listener, Duration::from_millis(2500)));
    // Ctrl-C reaches the whole pipeline: `cat` is kept from it, so that
    // what join says on leaving, and its status, are seen.
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "trap '' INT; { \"$0\" join \"$1\" --wait 1; echo \"join ended with $?\"; } | cat",
    ])
    .arg(env!("CARGO_BIN_EXE_tallyho"))
    .arg(&addr);
    let mut session = expectrl::Session::spawn(cmd)?;
    session.set_expect_timeout(Some(Duration::from_secs(10)));
    let welcome = session.expect("Type help for the commands.")?;
    let before = String::from_utf8_lossy(welcome.before()).into_owned();
    assert!(!before.contains("has not answered"), "{before}");
    // The prompt, printed plainly, as at a dumb terminal.
    session.expect("> ")?;
    session.send("who\r")?;
    session.expect("2 online:")?;
    session.expect("> ")?;
    // Ctrl-C leaves as Ctrl-D does, cleanly.
    session.send(expectrl::ControlCode::EndOfText)?;
    session.expect("Goodbye.")?;
    session.expect("join ended with 0")?;
    session.expect(expectrl::Eof)?;
    let _ = server.join();
    Ok(())
}

/// Through ssh, a connection that ssh ends with its own error status (255:
/// lost, or timed out), or that ends with ssh killed, is said to be lost
/// even where ssh says nothing of it (`LogLevel QUIET`); one the server ends (its exit status) was closed by
/// the server. A stand-in `ssh` early on `PATH` plays both.
#[test]
fn a_connection_ssh_lost_quietly_is_said_to_be_lost() {
    use std::os::unix::fs::PermissionsExt;
    let bin = Scratch::new("quiet-ssh");
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        "#!/bin/sh\nprintf '{\"event\": \"welcome\", \"handle\": \"ann\", \"rated\": true}\\n'\nsleep 1\n[ \"$STATUS\" = kill ] && kill -KILL $$\nexit \"$STATUS\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for (status, last) in [
        ("255", "The connection to the server was lost.\n"),
        ("kill", "The connection to the server was lost.\n"),
        ("0", "The server closed the connection.\n"),
    ] {
        // Input held open: the player has not left when the server goes.
        let mut child = Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["join", "ann@127.0.0.1"])
            .env("PATH", &path)
            .env("STATUS", status)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tallyho join runs");
        let input = child.stdin.take();
        let out = child.wait_with_output().expect("join ends");
        drop(input);
        let seen = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            seen,
            format!("You are ann. Your games are rated. Type help for the commands.\n{last}"),
            "ssh's status {status}"
        );
        assert_eq!(out.status.code(), Some(1), "{seen}");
    }
}
