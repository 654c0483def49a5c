//! `tallyho join` against a server in process: a player types into the
//! client through a pipe and plays a whole game of Fox and Hounds with a
//! machine client on the line door, and sees the boards, the moves and the
//! end as the client draws them.

use std::io::Write;
use std::net::TcpStream;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tallyho::server::{Rules, limits::Limits};

mod scratch;
mod server_common;
use scratch::{KillOnDrop, Scratch};
use server_common::{Client, Serving, lines};

/// The JSON event in a line door's line, after any prompt.
fn as_event(line: &str) -> Option<Value> {
    let i = line.find('{')?;
    serde_json::from_str(&line[i..]).ok()
}

/// The next JSON event among a line door's lines.
fn event(rx: &mpsc::Receiver<String>, wait: Duration) -> Option<Value> {
    let end = Instant::now() + wait;
    loop {
        let line = rx
            .recv_timeout(end.saturating_duration_since(Instant::now()))
            .ok()?;
        if let Some(event) = as_event(&line) {
            return Some(event);
        }
    }
}

fn field<'a>(event: &'a Value, name: &str) -> &'a str {
    event.get(name).and_then(Value::as_str).unwrap_or("")
}

/// A server with its line door on a port the system chooses, on loopback.
fn serve(data: &Scratch) -> Serving {
    Serving::lines(data.to_path_buf(), Limits::default(), Rules::default())
}

/// `tallyho join ADDR` as a child process, killed when dropped, with what
/// is typed to it and the lines it prints as they come.
fn piped_join(addr: &str) -> (KillOnDrop, ChildStdin, mpsc::Receiver<String>) {
    let mut client = server_common::piped_join(addr);
    let typed = client.stdin.take().expect("its input is piped");
    let seen = lines(client.stdout.take().expect("its output is piped"));
    (client, typed, seen)
}

#[test]
fn a_player_joins_accepts_a_seek_and_plays_fox_to_the_end() {
    // Declared first, dropped last: the server and the client go before it.
    let data = Scratch::new("join-test");
    let running = serve(&data);
    let addr = running.line_door();

    // The opponent: a machine client that seeks and plays the hounds.
    let mut hounds = TcpStream::connect(addr).unwrap();
    let from_hounds = lines(hounds.try_clone().unwrap());
    let wait = Duration::from_secs(10);
    hounds
        .write_all(b"proto json\nseek fox --side hounds\n")
        .unwrap();
    let n = loop {
        let e = event(&from_hounds, wait).expect("the seek's number");
        if field(&e, "event") == "seeking" {
            break e["n"].as_u64().unwrap();
        }
    };

    let (mut client, mut typed, seen) = piped_join(&addr.to_string());
    writeln!(typed, "accept {n}").unwrap();
    let game = loop {
        let e = event(&from_hounds, wait).expect("the game starts");
        if field(&e, "event") == "start" {
            break e["game"].as_u64().unwrap();
        }
    };
    // A watcher at the text door: the end join says is the one it says.
    let mut watcher = Client::arrive(addr);
    watcher.send(&format!("watch {game}"));
    watcher.wait_for("unwatch to stop.");

    let mut screen = Vec::new();
    let mut my_moves = Vec::new();
    let mut hounds_end = None;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut over = false;
    while !(over && hounds_end.is_some()) {
        assert!(
            Instant::now() < deadline,
            "the game did not end:\n{}",
            screen.join("\n")
        );
        while let Ok(line) = seen.recv_timeout(Duration::from_millis(5)) {
            // The turn's sentence, wrapped at 80 columns off a terminal.
            if line.ends_with("resign.") {
                writeln!(typed, "moves").unwrap();
            }
            if let Some(list) = line.strip_prefix("Legal moves: ") {
                let first = list.split_whitespace().next().unwrap();
                my_moves.push(first.to_string());
                writeln!(typed, "{first}").unwrap();
            }
            // The epilogue, said last at the end.
            over |= line.starts_with("The game is kept");
            screen.push(line);
        }
        while let Ok(line) = from_hounds.recv_timeout(Duration::from_millis(5)) {
            let Some(e) = as_event(&line) else {
                continue;
            };
            match field(&e, "event") {
                "position" if field(&e, "to_move") == "hounds" => {
                    if let Some(mv) = e["legal"].as_array().and_then(|l| l.first()) {
                        writeln!(hounds, "{}", mv.as_str().unwrap()).unwrap();
                    }
                }
                "end" => hounds_end = Some(e),
                _ => {}
            }
        }
    }
    drop(typed);
    let status = client.wait().unwrap();
    running.stop();

    let screen = screen.join("\n");
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let hounds_end = hounds_end.unwrap();
    // The player was told the game and their side, saw the board drawn
    // locally, and saw each of their moves said back.
    // The sides as the server names them.
    assert!(screen.contains(" (fox) against guest"), "{screen}");
    assert!(screen.contains("You play fox."), "{screen}");
    // A script has no Tab to press: only `moves` is offered.
    assert!(
        words(&screen).contains(") to move: type your move (moves lists them), or resign.")
            && !screen.contains("Tab"),
        "{screen}"
    );
    assert!(screen.contains("  A B C D E F G H"), "{screen}");
    assert_eq!(my_moves.first().map(String::as_str), Some("A8-B7"));
    assert!(screen.contains(" moved A8-B7."), "{screen}");
    for mv in &my_moves {
        assert!(
            screen.contains(&format!(" moved {mv}.")),
            "{mv} not shown:\n{screen}"
        );
    }
    // The end the player saw is the one the server sent the opponent.
    let winner = field(&hounds_end, "winner");
    let how = field(&hounds_end, "how");
    // And where the game is kept, which the end event carries.
    let epilogue = field(&hounds_end, "epilogue");
    assert!(
        epilogue.contains("The game is kept as number"),
        "{epilogue}"
    );
    let watched = watcher.wait_for("The game is kept");
    // The text door's result: the line that says who won, to the epilogue.
    let result = watched
        .rfind(" won! ")
        .map(|i| watched[..i].rfind('\n').map_or(0, |n| n + 1))
        .map(|from| &watched[from..watched.len() - "The game is kept".len()])
        .unwrap_or_else(|| panic!("no result: {watched}"));
    assert!(
        words(&screen).contains(&words(&format!("{result} {epilogue}"))),
        "{result:?} {epilogue:?} not in:\n{screen}"
    );
    assert!(result.contains(winner), "{result}");
    // The end event carries that sentence, for any client to say.
    assert_eq!(
        words(field(&hounds_end, "text")),
        words(result),
        "{hounds_end:?}"
    );
    assert!(!screen.contains(&format!("({how})")), "{screen}");
    assert!(status.success(), "{status}");
}

#[test]
fn leaving_says_goodbye_and_a_server_that_stops_says_it_closed() {
    let data = Scratch::new("join-leave");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    // The end of the player's input, or `quit`: the player left.
    for typed in ["who\n", "who\nquit\n"] {
        let (mut client, mut input, seen) = piped_join(&addr);
        input.write_all(typed.as_bytes()).unwrap();
        drop(input);
        let seen: Vec<String> = seen.iter().collect();
        assert!(client.wait().unwrap().success());
        assert_eq!(
            seen.last().map(String::as_str),
            Some("Goodbye."),
            "{seen:?}"
        );
        assert!(!seen.iter().any(|l| l.contains("closed")), "{seen:?}");
    }
    // A line too long for the server is refused here whole, none of it
    // sent; a line ended by a lone CR is sent at once.
    let (mut client, mut input, seen) = piped_join(&addr);
    input
        .write_all(format!("{}\nsay a\x1b[2Jb\nwho\r", "x".repeat(3000)).as_bytes())
        .unwrap();
    let wait = Duration::from_secs(10);
    let mut said = Vec::new();
    while !said.iter().any(|l: &String| l.contains("in the lobby")) {
        said.push(
            seen.recv_timeout(wait)
                .expect("who answered, with no LF sent"),
        );
    }
    input.write_all(b"\nquit\n").unwrap();
    drop(input);
    said.extend(seen.iter());
    // The line refused tells in the exit status.
    assert_eq!(client.wait().unwrap().code(), Some(3), "{said:?}");
    let refused: Vec<&String> = said
        .iter()
        .filter(|l| l.contains("xxx") || l.contains("bytes long") || l.contains("control"))
        .collect();
    // Each refused line quoted, escaped, where it is short enough to be:
    // a script can tell which it was.
    assert_eq!(
        refused,
        [
            "That line is 3000 bytes long; the server takes at most 1024.",
            "\"say a\\u{1b}[2Jb\" holds control characters; type plain text."
        ],
        "{said:?}"
    );
    // The server stops while the player is still there: the server closed it.
    let (mut client, mut input, seen) = piped_join(&addr);
    input.write_all(b"who\n").unwrap();
    assert!(until(&seen, "in the lobby").is_some(), "who answered");
    running.stop();
    let rest: Vec<String> = seen.iter().collect();
    assert_eq!(
        rest.last().map(String::as_str),
        Some("The server closed the connection."),
        "{rest:?}"
    );
    drop(input);
    // No clean end: a script can tell it from a goodbye.
    assert_eq!(client.wait().unwrap().code(), Some(1));
}

/// `tallyho join TARGET` with no input, run to its end.
fn join_once(target: &str, home: &Scratch) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["join", target])
        .env("HOME", home)
        .stdin(Stdio::null())
        .output()
        .expect("tallyho runs")
}

/// A join whose standard output fails (a full disk) leaves the server and
/// says so on standard error, with status 1, not as a clean end.
#[test]
fn a_join_that_cannot_write_its_output_says_so() {
    let data = Scratch::new("join-full");
    let running = serve(&data);
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut client = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["join", &running.line_door().to_string()])
        .env("HOME", &data)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("tallyho join starts");
    let mut typed = client.stdin.take().expect("its input is piped");
    // A line that is not all it would type: join must stop by itself.
    writeln!(typed, "who").expect("join takes a line");
    let mut out = KillOnDrop(client);
    let until = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = out.0.try_wait().expect("join is there") {
            break status;
        }
        assert!(
            Instant::now() < until,
            "join went on writing to a full disk"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(out.0.stderr.as_mut().expect("piped"), &mut said)
        .expect("its errors are text");
    assert_eq!(status.code(), Some(1), "{said}");
    assert_eq!(
        said.lines().last().unwrap_or_default(),
        "error: cannot write to standard output: No space left on device (os error 28)",
        "{said}"
    );
    drop(typed);
    running.stop();
}

/// join through the system's ssh, as a player runs it: a server gone is
/// said once, in join's words, with nothing of ssh's own on the row the
/// player types on.
/// A line door that turns join away says why in plain words, before any
/// event: join passes them on, not that the server said nothing.
#[test]
fn a_door_that_turns_join_away_is_heard() {
    let data = Scratch::new("join-turned-away");
    let limits = Limits {
        per_address: 1,
        ..Limits::default()
    };
    let running = Serving::lines(data.to_path_buf(), limits, Rules::default());
    let addr = running.line_door();
    let _first = Client::arrive(addr);
    let out = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["join", &addr.to_string()])
        .env("HOME", &data)
        .stdin(Stdio::null())
        .output()
        .expect("tallyho runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said,
        "The server said: Sorry: too many connections from your address; close one and\ntry again.\nThe server closed the connection.\n"
    );
    assert_eq!(out.status.code(), Some(1));
    running.stop();
}

/// A PATH whose `ssh` is the real one, told to use a key made in `dir`
/// and a host list there rather than the user's, with `options` more.
fn ssh_on_path(dir: &Scratch, options: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let key = server_common::openssh::keygen(dir, "ann");
    let real = Command::new("sh")
        .args(["-c", "command -v ssh"])
        .output()
        .expect("sh runs");
    let real = String::from_utf8(real.stdout)
        .expect("a path")
        .trim()
        .to_string();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a folder for the wrapper");
    let wrapper = bin.join("ssh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec '{real}' -F /dev/null -i '{}' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o 'UserKnownHostsFile={}' {options} \"$@\"\n",
            key.display(),
            dir.join("known_hosts").display()
        ),
    )
    .expect("the wrapper is written");
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
        .expect("the wrapper runs");
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Reads `stdout` until `text` has come; all of it.
fn read_until(stdout: &mut impl std::io::Read, text: &str) -> Vec<u8> {
    let mut seen = Vec::new();
    let mut buf = [0; 4096];
    let until = Instant::now() + Duration::from_secs(20);
    while !String::from_utf8_lossy(&seen).contains(text) {
        assert!(Instant::now() < until, "{}", String::from_utf8_lossy(&seen));
        let n = stdout.read(&mut buf).expect("join's output reads");
        assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    seen
}

/// `tallyho join ann@127.0.0.1:PORT` with `path`'s ssh, home in `dir`,
/// once it has listed who is in the lobby: the child, its input and output,
/// and what it has shown.
fn join_over_ssh(
    dir: &Scratch,
    path: &str,
    port: u16,
) -> (
    std::process::Child,
    ChildStdin,
    std::process::ChildStdout,
    Vec<u8>,
) {
    let mut client = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["join", &format!("ann@127.0.0.1:{port}")])
        .env("HOME", dir)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("join starts");
    let mut input = client.stdin.take().expect("piped");
    input.write_all(b"who\n").expect("join takes a line");
    let mut stdout = client.stdout.take().expect("piped");
    let seen = read_until(&mut stdout, "in the lobby");
    (client, input, stdout, seen)
}

#[test]
fn a_server_gone_under_ssh_is_said_in_joins_words_alone() {
    if !server_common::openssh::have_openssh() {
        return;
    }
    let dir = Scratch::new("join-ssh-gone");
    let path = ssh_on_path(&dir, "");
    let (mut server, port) = server_common::process::serve_ssh(&dir.join("data"));
    let (client, input, mut stdout, mut seen) = join_over_ssh(&dir, &path, port);
    // Gone without a word: the connection cut.
    server.kill().unwrap();
    server.wait().unwrap();
    std::io::Read::read_to_end(&mut stdout, &mut seen).unwrap();
    drop(input);
    let out = client.wait_with_output().unwrap();
    let seen = String::from_utf8_lossy(&seen);
    assert!(
        seen.trim_end()
            .ends_with("The server closed the connection."),
        "{seen}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Not ssh's `Connection to 127.0.0.1 closed by remote host.`, nor its
    // note of a host key added to the list.
    assert_eq!(stderr, "", "{seen}");
    assert_eq!(out.status.code(), Some(1));
}

/// A connection ssh gives up on (the server stopped answering) is said to
/// be lost, after ssh's own reason, not closed by the server.
#[test]
fn a_connection_ssh_gives_up_on_is_said_to_be_lost() {
    if !server_common::openssh::have_openssh() {
        return;
    }
    let dir = Scratch::new("join-ssh-lost");
    let path = ssh_on_path(&dir, "-o ServerAliveInterval=1 -o ServerAliveCountMax=1");
    let (server, port) = server_common::process::serve_ssh(&dir.join("data"));
    let (client, input, mut stdout, mut seen) = join_over_ssh(&dir, &path, port);
    // The server stops answering, and ssh gives up after two seconds.
    server_common::process::signal(&server, "STOP");
    std::io::Read::read_to_end(&mut stdout, &mut seen).unwrap();
    server_common::process::signal(&server, "CONT");
    drop(input);
    let out = client.wait_with_output().unwrap();
    let seen = String::from_utf8_lossy(&seen);
    assert!(
        seen.trim_end()
            .ends_with("The connection to the server was lost."),
        "{seen}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not responding."), "{stderr}");
    assert_eq!(out.status.code(), Some(1));
    drop(server);
}

#[test]
fn an_ssh_door_that_cannot_be_reached_is_no_clean_end() {
    let have_ssh = Command::new("ssh")
        .arg("-V")
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !have_ssh {
        return;
    }
    let home = Scratch::new("join-ssh-refused");
    // Port 1 on loopback: nothing listens there, so ssh is refused at once.
    let out = join_once("carol@127.0.0.1:1", &home);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim_end(),
        "The connection ended before the server said anything.",
        "{stdout}"
    );
}

#[test]
fn ctrl_d_or_ctrl_c_at_a_terminal_says_goodbye_on_a_line_of_its_own() -> Result<(), expectrl::Error>
{
    use expectrl::process::unix::WaitStatus;
    use expectrl::session::OsSession;
    use expectrl::{ControlCode, Eof, Expect, Session};

    /// Waits for the goodbye, which ends its line, then for the end of the
    /// client's output and its clean exit (`why` says which, if not); what
    /// it printed after the goodbye.
    fn goodbye(session: &mut OsSession, why: &str) -> Result<String, expectrl::Error> {
        session.expect("Goodbye.\r\n")?;
        let rest = session.expect(Eof)?;
        let rest = String::from_utf8_lossy(rest.before()).into_owned();
        let pid = session.get_process().pid();
        let status = session
            .get_process()
            .wait()
            .expect("join can be waited for");
        assert_eq!(status, WaitStatus::Exited(pid, 0), "{why}");
        Ok(rest)
    }

    let data = Scratch::new("join-pty");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let join = || -> Result<_, expectrl::Error> {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tallyho"));
        cmd.args(["join", &addr, "--color", "never"])
            .env("HOME", data.join("home"))
            .env("TERM", "xterm");
        let mut session = Session::spawn(cmd)?;
        session.set_expect_timeout(Some(Duration::from_secs(20)));
        Ok(session)
    };
    for key in [ControlCode::EndOfTransmission, ControlCode::EndOfText] {
        let mut session = join()?;
        session.expect("Type help for the commands.")?;
        session.expect("> ")?;
        session.send(key)?;
        // Its last word ends its line, so the shell's prompt starts on its own.
        let rest = goodbye(&mut session, &format!("{key:?}"))?;
        assert!(!rest.contains("closed"), "{rest:?}");
    }
    // quit in the lobby, after leaving a game: goodbye, and no Enter more
    // asked for.
    let mut session = join()?;
    session.expect("> ")?;
    session.send("play fox rubbish\r")?;
    session.expect("Fox (")?;
    session.send("quit\r")?;
    session.expect("You left game")?;
    session.send("quit\r")?;
    let rest = goodbye(&mut session, "quit")?;
    assert!(!rest.contains("Press Enter"), "{rest:?}");
    running.stop();
    Ok(())
}

#[test]
fn a_target_that_names_no_host_is_a_usage_error() {
    let home = Scratch::new("join-bad-target");
    for target in [
        "",
        "[::1",
        "::1]",
        "[]:2323",
        ":2323",
        "[::1]:",
        "u@",
        "u@[::1",
        "u@-oProxyCommand=x",
    ] {
        let out = join_once(target, &home);
        assert_eq!(out.status.code(), Some(2), "{target:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error: invalid value ") && stderr.contains("[USER@]HOST[:PORT]"),
            "{target:?}: {stderr}"
        );
    }
}

/// The lines a client prints until one holds `wanted` (that one included),
/// or `None` after ten seconds without it.
fn until(seen: &mpsc::Receiver<String>, wanted: &str) -> Option<Vec<String>> {
    let end = Instant::now() + Duration::from_secs(10);
    let mut got = Vec::new();
    loop {
        let line = seen
            .recv_timeout(end.saturating_duration_since(Instant::now()))
            .ok()?;
        let done = line.contains(wanted);
        got.push(line);
        if done {
            return Some(got);
        }
    }
}

/// Every answer the server gives in its machine dialect is said to the
/// player: ratings, unseek, a hint, a take-back (the board drawn after it,
/// not a raw position), an undo with nothing to take back, and leaving.
#[test]
fn join_says_every_answer_and_follows_a_take_back() {
    let data = Scratch::new("join-answers");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let (mut client, mut input, seen) = piped_join(&addr);
    let mut type_then = |line: &str, wanted: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        until(&seen, wanted).unwrap_or_else(|| panic!("{line}: no {wanted:?}"))
    };
    type_then("who", "in the lobby");
    type_then("ratings", "Nobody is rated yet");
    type_then("unseek", "You have no open seeks.");
    type_then("play fox rubbish", "Fox (guest");
    type_then("hint", "Hint: A8-B7");
    type_then("undo", "There is no move of yours to take back.");
    type_then("A8-B7", "1. guest");
    type_then("", "Fox (guest");
    let after = type_then("undo", "Fox (guest");
    assert!(
        after.iter().any(|l| l == "Taken back: 2 plies."),
        "{after:?}"
    );
    assert!(after.iter().any(|l| l == "8 F X O X O X O X"), "{after:?}");
    assert!(
        !after.iter().any(|l| l.starts_with("Position:")),
        "{after:?}"
    );
    // The table followed: the same move again is played and drawn.
    let again = type_then("A8-B7", "1. guest");
    assert!(!again.iter().any(|l| l.contains("missed")), "{again:?}");
    // The game's help, line by line, the server's words after it.
    let help = type_then("help", "On the server");
    assert!(
        help.iter().any(|l| l == "Commands at a move prompt"),
        "{help:?}"
    );
    assert!(!help.iter().any(|l| l.contains("\\u{a}")), "{help:?}");
    // A guest's game waits only while the guest is here.
    let left = type_then("quit", "come back to it.");
    assert!(
        read(&left)
            .contains("You left game 1. It waits while you are here: type resume to go back."),
        "{left:?}"
    );
    // Leaving the server names it once more, as the text door does.
    let parting = type_then("quit", "Goodbye.");
    assert!(
        read(&parting).contains("As a guest you cannot come back to game 1: you leave it now."),
        "{parting:?}"
    );
    drop(input);
    // Some of its lines were refused on purpose: the status says so.
    assert_eq!(client.wait().unwrap().code(), Some(3));
    running.stop();
}

/// A machine client on the line door, named `handle`, with its lines.
fn machine(addr: &str, handle: &str) -> (TcpStream, mpsc::Receiver<String>) {
    let mut stream = TcpStream::connect(addr).expect("the line door answers");
    let from = lines(stream.try_clone().expect("the stream clones"));
    write!(stream, "proto json\nname {handle}\n").expect("the door takes lines");
    let wait = Duration::from_secs(10);
    while let Some(e) = event(&from, wait) {
        if field(&e, "event") == "welcome" && field(&e, "handle") == handle {
            break;
        }
    }
    (stream, from)
}

/// Lines as one text, each line's end a space: what a player reads,
/// wherever the lines were wrapped.
fn read(lines: &[String]) -> String {
    lines.join(" ")
}

/// The lobby's lists and answers say what the text door says: the seeks
/// with rated and their setup, who is online under its count, a tell
/// delivered, the sides as the server names them, a guest's game that
/// waits only while they are here, a watcher's moves and leaving, the
/// games with their plies, and the server's own help.
#[test]
fn join_words_its_answers_as_the_text_door_does() {
    let data = Scratch::new("join-words");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let (mut bob, from_bob) = machine(&addr, "bob");
    let (mut client, mut input, seen) = piped_join(&addr);
    let mut type_then = |line: &str, wanted: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        until(&seen, wanted).unwrap_or_else(|| panic!("{line}: no {wanted:?}"))
    };
    type_then("name ann", "You are ann");
    type_then("seek fox --board 6x6 --side hounds", "rated nearest you");
    let seeks = type_then("seeks", "by ann");
    assert_eq!(
        seeks[seeks.len() - 2..],
        [
            "Open seeks:",
            "  1. fox by ann (unrated, board 6x6, ann plays hounds)"
        ],
        "{seeks:?}"
    );
    let who = type_then("who", "ann (guest)");
    assert!(who.iter().any(|l| l == "2 online:"), "{who:?}");
    assert!(
        who.iter().any(|l| l == "  ann (guest): in the lobby"),
        "{who:?}"
    );
    type_then("tell bob hello", "Told bob.");
    type_then("unseek", "Your seek is taken back.");
    // The sides as the server names them, what sets the game apart, and a
    // guest's game.
    let start = type_then("play fox rubbish --rules capture", "resumed.");
    assert!(
        read(&start).contains(
            "Game 1: fox (rules capture), unrated. ann (fox) against rubbish (hounds). You play fox. \
             You are a guest: if your connection drops, this game cannot be resumed."
        ),
        "{start:?}"
    );
    // The computer's answer to a draw comes as news, and is said.
    type_then("draw", "The computer declines the draw.");
    type_then("A8-B7", "2. rubbish");
    let left = type_then("quit", "come back to it.");
    assert!(
        read(&left).contains(
            "You left game 1. It waits while you are here: type resume to go back. \
             A guest who leaves the server cannot come back to it."
        ),
        "{left:?}"
    );
    let games = type_then("games", "1. fox");
    assert_eq!(
        games[games.len() - 2..],
        [
            "Games:",
            "  1. fox (rules capture): ann against rubbish, 2 plies, adjourned"
        ],
        "{games:?}"
    );
    // A watcher: bob's game against the computer.
    bob.write_all(b"play draughts rubbish\n").unwrap();
    let wait = Duration::from_secs(10);
    let game = loop {
        let e = event(&from_bob, wait).expect("bob's game starts");
        if field(&e, "event") == "start" {
            break e["game"].as_u64().unwrap();
        }
    };
    let watching = type_then(&format!("watch {game}"), "to move.");
    assert!(
        read(&watching).contains("You are watching: type help for the commands, unwatch to stop."),
        "{watching:?}"
    );
    // A watcher's moves: the legal moves, as the text door says them.
    let moves = type_then("moves", "Legal moves: ");
    assert_eq!(
        moves.last().map(String::as_str),
        Some("Legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16."),
        "{moves:?}"
    );
    type_then("unwatch", "Back in the lobby.");
    // The server's help, complete: the lobby's, now that join is there.
    let help = type_then("help", "unwatch.");
    for word in ["ratings [GAME]", "history", "unseek", "claim or adjourn"] {
        assert!(read(&help).contains(word), "{word}: {help:?}");
    }
    // Back in the lobby, quit leaves the server: a goodbye, a clean end.
    input.write_all(b"quit\n").unwrap();
    drop(input);
    let rest: Vec<String> = seen.iter().collect();
    assert_eq!(
        rest.last().map(String::as_str),
        Some("Goodbye."),
        "{rest:?}"
    );
    assert!(client.wait().unwrap().success(), "{rest:?}");
    drop(bob);
    running.stop();
}

/// At a terminal 40 columns wide, every line join writes fits it, broken
/// between words (the lobby's help, the start of a game, whose move it
/// is, the legal moves); after the window grows, the board is drawn for
/// the new width.
#[test]
fn join_lays_out_its_lines_for_the_window_as_it_is_now() -> Result<(), expectrl::Error> {
    use expectrl::{Expect, Session};

    let data = Scratch::new("join-width");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let mut cmd = Command::new("sh");
    // The window is 40 columns before join starts.
    cmd.args([
        "-c",
        "until [ \"$(stty size)\" = '24 40' ]; do sleep 0.01; done; \
         exec \"$0\" join \"$1\" --color never",
    ])
    .arg(env!("CARGO_BIN_EXE_tallyho"))
    .arg(&addr)
    .env("HOME", data.join("home"))
    .env("TERM", "xterm");
    let mut session = Session::spawn(cmd)?;
    session
        .get_process_mut()
        .set_window_size(40, 24)
        .map_err(std::io::Error::from)?;
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    // Single words: a sentence may break anywhere between its words, as the
    // handle the server gives has a length of its own.
    session.expect("commands.")?;
    session.expect("> ")?;
    /// The lines the terminal shows for what it was sent, escape sequences
    /// left out.
    fn shown(bytes: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(bytes);
        let mut plain = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                // CSI: ESC [ parameters, then a final letter or ~.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() || c == '~' {
                            break;
                        }
                    }
                }
                continue;
            }
            match c {
                // A carriage return alone: the line is written over from
                // its start (the prompt gives way to what is printed).
                '\r' if chars.peek() != Some(&'\n') => {
                    plain.truncate(plain.rfind('\n').map_or(0, |i| i + 1));
                }
                '\r' => {}
                c => plain.push(c),
            }
        }
        plain.lines().map(str::to_string).collect()
    }
    let too_wide = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.chars().count() > 40)
            .cloned()
            .collect()
    };
    session.send("help\r")?;
    let help = shown(session.expect("unwatch.")?.before());
    assert!(too_wide(&help).is_empty(), "{help:#?}");
    // Words are whole: none broken where the line ends.
    assert!(help.iter().any(|l| l.contains("--captures,")), "{help:#?}");
    assert!(help.iter().any(|l| l.contains("adjourn")), "{help:#?}");
    session.send("play draughts rubbish\r")?;
    let turn = shown(session.expect("resign.")?.before());
    // The board is drawn for 40 columns (framed, its key of square numbers
    // left out); the sentences around it fit.
    assert!(!turn.iter().any(|l| l.contains("PDN squares")), "{turn:#?}");
    let sentences: Vec<String> = turn
        .iter()
        .filter(|l| l.contains(" against ") || l.contains("move"))
        .cloned()
        .collect();
    assert!(sentences.len() >= 2, "{turn:#?}");
    assert!(too_wide(&sentences).is_empty(), "{turn:#?}");
    session.send("moves\r")?;
    let moves = shown(session.expect("12-16")?.before());
    assert!(too_wide(&moves).is_empty(), "{moves:#?}");
    assert!(
        moves.iter().any(|l| l.starts_with("Legal moves: 9-13")),
        "{moves:#?}"
    );
    // The window grows: the board is drawn for 100 columns, with its key.
    session
        .get_process_mut()
        .set_window_size(100, 24)
        .map_err(std::io::Error::from)?;
    session.send("board\r")?;
    session.expect("PDN squares")?;
    session.send("quit\r")?;
    session.expect("it.")?;
    session.send("quit\r")?;
    session.expect("Goodbye.")?;
    running.stop();
    Ok(())
}

#[test]
fn the_end_of_input_in_a_game_says_what_became_of_it() {
    let data = Scratch::new("join-eof");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let (mut client, mut typed, seen) = piped_join(&addr);
    writeln!(typed, "play fox rubbish").unwrap();
    let wait = Duration::from_secs(20);
    let mut screen = Vec::new();
    while !screen.iter().any(|l: &String| l.contains("You play fox.")) {
        screen.push(seen.recv_timeout(wait).expect("the game starts"));
    }
    // The input ends in the game: a guest's game ends with it.
    drop(typed);
    while let Ok(line) = seen.recv_timeout(wait) {
        screen.push(line);
    }
    let screen = screen.join("\n").replace('\n', " ");
    assert!(
        screen.contains("You left game 1, and as a guest cannot come back to it."),
        "{screen}"
    );
    assert!(screen.contains("Goodbye."), "{screen}");
    assert!(client.wait().unwrap().success());
    running.stop();
}

/// What follows a move (here a hound eaten) is said under it, as the text
/// door says it, though the machine dialect join speaks sends only moves.
#[test]
fn join_says_what_follows_a_move_as_the_text_door_does() {
    let data = Scratch::new("join-eaten");
    let running = serve(&data);
    let addr = running.line_door().to_string();
    let (mut bob, _from_bob) = machine(&addr, "bob");
    let (mut client, mut input, seen) = piped_join(&addr);
    let mut type_then = |line: &str, wanted: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        until(&seen, wanted).unwrap_or_else(|| panic!("{line}: no {wanted:?}"))
    };
    type_then("name ann", "You are ann");
    type_then("seek fox --rules capture --side fox", "rated nearest you");
    bob.write_all(b"accept 1\n").unwrap();
    for (ply, (fox, hound)) in [("A8-B7", "B1-A2"), ("B7-C6", "A2-B3"), ("C6-D5", "B3-C4")]
        .into_iter()
        .enumerate()
    {
        type_then(fox, &format!("{}. ann moved {fox}.", 2 * ply + 1));
        bob.write_all(format!("{hound}\n").as_bytes()).unwrap();
        until(&seen, &format!("{}. bob moved {hound}.", 2 * ply + 2)).unwrap();
    }
    let eaten = type_then("D5-C4", "7. ann moved D5-C4.");
    let next = until(&seen, "The fox ate").unwrap();
    assert_eq!(
        next.last().map(String::as_str),
        Some("The fox ate the hound on C4."),
        "{eaten:?} {next:?}"
    );
    // Bob to move: he resigns, and ann's script ends.
    bob.write_all(b"resign\n").unwrap();
    until(&seen, "bob resigned").unwrap();
    drop(input);
    assert_eq!(client.wait().unwrap().code(), Some(0));
    running.stop();
}
