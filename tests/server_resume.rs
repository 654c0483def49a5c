//! Never losing a game, with the real OpenSSH client and keys as accounts:
//! a player whose connection drops comes back within the grace time and
//! finishes the game; a server killed with SIGKILL mid-game comes back with
//! the game adjourned, and both players resume it. Loopback only; every
//! wait is bounded; skipped (with a note) where OpenSSH is missing.
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

mod scratch;
mod server_common;
use scratch::Scratch;
use server_common::openssh::{have_openssh, keygen, ssh_command};
use server_common::process::{exited, exited_0_saying, said, serve_lines, serve_ssh, signal};
use server_common::{Serving, Speaker, Transcript, fox_seek_taken, quick_rules};

const PATIENCE: Duration = Duration::from_secs(20);

/// A fresh folder for one test, removed when dropped: declare it before the
/// server and the clients that use it, so they are dropped first.
fn scratch(tag: &str) -> Scratch {
    Scratch::new(&format!("resume-{tag}"))
}

/// A player at an OpenSSH client without a terminal: lines in, text out.
struct Player {
    child: Child,
    input: Option<ChildStdin>,
    text: Receiver<Vec<u8>>,
    shown: Transcript,
}

impl Player {
    fn login(port: u16, dir: &Path, user: &str, key: &Path) -> Player {
        let mut child = ssh_command(port, dir, user, Some(key), &["-T"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let (tx, text) = channel();
        std::thread::spawn(move || {
            let mut buf = [0; 8192];
            while let Ok(n @ 1..) = out.read(&mut buf) {
                if tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Player {
            input: child.stdin.take(),
            child,
            text,
            shown: Transcript::default(),
        }
    }

    /// The connection drops: the client is killed.
    fn drop_line(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Speaker for Player {
    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        input.write_all(line.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
    }

    fn wait_for(&mut self, text: &str) -> String {
        self.shown.wait_in(&self.text, text, PATIENCE)
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a test of two players needs: its folder, Ann's and Bob's keys, and
/// a server with that grace time on its ssh port. `None` (with a note)
/// where OpenSSH is missing. Fields drop in the order written: the server
/// before the folder it keeps its data in.
struct House {
    running: Serving,
    port: u16,
    keys: [PathBuf; 2],
    dir: Scratch,
}

fn house(tag: &str, grace: Duration) -> Option<House> {
    if !have_openssh() {
        return None;
    }
    let dir = scratch(tag);
    let keys = [keygen(&dir, "ann"), keygen(&dir, "bob")];
    let running = Serving::ssh(dir.join("serve"), quick_rules(grace));
    let port = running.ssh_port();
    Some(House {
        dir,
        keys,
        running,
        port,
    })
}

impl House {
    /// Ann logged in again with her key.
    fn ann(&self) -> Player {
        Player::login(self.port, &self.dir, "ann", &self.keys[0])
    }

    /// Ann and Bob in a game, as [`start_game`] begins it.
    fn start_game(&self) -> (Player, Player) {
        start_game(self.port, &self.dir, &self.keys)
    }

    /// A game as [`start_game`] begins it, then Ann's line drops: Bob, once
    /// told that she has `left` (the grace time, in words) to come back.
    fn ann_drops(&self, left: &str) -> Player {
        let (ann, mut bob) = self.start_game();
        ann.drop_line();
        bob.wait_for(&format!(
            "ann has left the game. They have {left} to come back"
        ));
        bob
    }
}

/// Ann (the fox) and Bob (the hounds) log in with their keys and start a
/// rated game of Fox and Hounds; Ann has played A8-B7.
fn start_game(port: u16, dir: &Path, keys: &[PathBuf; 2]) -> (Player, Player) {
    let mut ann = Player::login(port, dir, "ann", &keys[0]);
    ann.wait_for("Welcome to tallyho, ann. Your games are rated.");
    let mut bob = Player::login(port, dir, "bob", &keys[1]);
    bob.wait_for("Welcome to tallyho, bob. Your games are rated.");
    fox_seek_taken(&mut ann, &mut bob);
    bob.wait_for("fox, rated. ann (fox) against bob (hounds).");
    ann.wait_for("Move fox to (B7)? ");
    ann.send("A8-B7");
    bob.wait_for("1. ann moved A8-B7.");
    bob.wait_for("Move (B1, D1, F1, H1)? ");
    (ann, bob)
}

#[test]
fn a_login_with_the_same_key_takes_the_seat_from_a_frozen_connection() {
    let Some(h) = house("frozen", Duration::from_secs(60)) else {
        return;
    };
    let (ann, mut bob) = h.start_game();
    // Ann's client stops answering, its connection still open (a laptop
    // lid closed, a network gone quiet): the server cannot tell.
    let pid = i32::try_from(ann.child.id()).unwrap();
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    bob.send("B1-A2");
    // Her new login with the same key closes the frozen session and puts
    // her back in the game at once.
    let mut again = h.ann();
    again.wait_for("Welcome to tallyho, ann.");
    again.wait_for("Your other session with this key was closed");
    again.wait_for("2. bob moved B1-A2.");
    again.wait_for("Move fox to (");
    bob.wait_for("ann is back.");
    again.send("resign");
    for p in [&mut again, &mut bob] {
        p.wait_for("ann resigned: bob wins.");
    }
    // One ann online, not two.
    bob.send("who");
    let who = bob.wait_for("in the lobby");
    assert_eq!(who.matches("ann").count(), 1, "{who}");
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    ann.drop_line();
    drop((again, bob));
    h.running.stop();
}

#[test]
fn resume_passes_over_a_game_whose_opponent_is_away_for_one_that_can_go_on() {
    let Some(h) = house("choose", Duration::from_secs(60)) else {
        return;
    };
    // Game 1, against Bob, adjourned with both gone.
    let (ann, bob) = h.start_game();
    drop(bob);
    ann.drop_line();
    // A later game against the computer, left when Ann's line drops.
    let mut ann = h.ann();
    ann.wait_for("Welcome to tallyho, ann.");
    ann.send("play fox rubbish --side fox");
    ann.wait_for("Move fox to (B7)? ");
    ann.drop_line();
    let mut ann = h.ann();
    ann.wait_for("Welcome to tallyho, ann.");
    // Bob is away: the game against the computer is the one to go on with.
    ann.send("resume");
    ann.wait_for("Move fox to (B7)? ");
    ann.send("resign");
    ann.wait_for("ann resigned");
    ann.send("resume");
    ann.wait_for("resumes when both players are online, and bob is not");
    drop(ann);
    h.running.stop();
}

#[test]
fn a_dropped_player_comes_back_within_the_grace_time_and_finishes() {
    let Some(h) = house("drop", Duration::from_secs(60)) else {
        return;
    };
    let mut bob = h.ann_drops("60 seconds");
    // Bob moves while Ann is away; the move waits for her. Her leaving
    // changed nothing on the board, so it was not drawn again: his
    // question and what he typed were shown again under the notice.
    bob.send("B1-A2");
    let shown = bob.wait_for("2. bob moved B1-A2.");
    assert!(!shown.contains("(bob) next"), "{shown}");
    let mut ann = h.ann();
    ann.wait_for("Welcome to tallyho, ann.");
    ann.wait_for("1. ann moved A8-B7.");
    ann.wait_for("2. bob moved B1-A2.");
    ann.wait_for("Move fox to (");
    bob.wait_for("ann is back.");
    ann.send("resign");
    for p in [&mut ann, &mut bob] {
        p.wait_for("ann resigned: bob wins.");
        p.wait_for("bob's fox rating: 1500 to ");
    }
    drop((ann, bob));
    h.running.stop();
}

#[test]
fn a_grace_time_ends_only_for_the_latest_leaving() {
    let Some(h) = house("regrace", Duration::from_secs(2)) else {
        return;
    };
    let mut bob = h.ann_drops("2 seconds");
    let mut ann = h.ann();
    ann.wait_for("Waiting for bob.");
    bob.wait_for("ann is back.");
    std::thread::sleep(Duration::from_secs(1));
    // She leaves again: a grace time of its own, whole, from now.
    ann.send("quit");
    bob.wait_for("ann has left the game. They have 2 seconds to come back");
    let left = Instant::now();
    bob.wait_for("ann has not come back: type claim to take the win");
    assert!(
        left.elapsed() >= Duration::from_millis(1500),
        "told after {:?}, before the second grace time was up",
        left.elapsed()
    );
    drop((ann, bob));
    h.running.stop();
}

#[test]
fn a_player_away_past_the_grace_time_loses_to_a_claim() {
    let Some(h) = house("grace", Duration::from_secs(1)) else {
        return;
    };
    let mut bob = h.ann_drops("1 second");
    bob.send("claim");
    bob.wait_for("Not yet: ann may still come back for 1 more second.");
    bob.wait_for("ann has not come back: type claim to take the win, or adjourn");
    bob.send("claim");
    bob.wait_for("ann left the game and did not come back: bob wins.");
    bob.wait_for("bob's fox rating: 1500 to ");
    drop(bob);
    h.running.stop();
}

/// Text as said, its lines joined: the server wraps at 80 columns.
fn unwrapped(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_claim_over_a_player_who_never_moved_is_not_rated() {
    let Some(h) = house("unmoved", Duration::from_secs(1)) else {
        return;
    };
    // Ann has moved; Bob leaves before his first move.
    let (mut ann, bob) = h.start_game();
    bob.drop_line();
    ann.wait_for("bob has left the game. They have 1 second to come back");
    ann.wait_for("bob has not come back: type claim to take the win, or adjourn");
    ann.send("claim");
    ann.wait_for("bob left the game and did not come back: ann wins.");
    ann.wait_for("The game is not rated: bob left before making a move.");
    let said = ann.wait_for("in the server's log.");
    assert!(!said.contains("rating:"), "{said}");
    // Bob was not online to be told: he is, once he logs in again.
    let mut bob = Player::login(h.port, &h.dir, "bob", &h.keys[1]);
    bob.wait_for("Welcome to tallyho, bob.");
    let said = unwrapped(&bob.wait_for("\n> "));
    assert!(
        said.contains(
            "While you were away, game 1 (fox: ann (fox) against bob (hounds)) ended: ann won (abandoned)."
        ),
        "{said}"
    );
    drop(bob);
    // Once.
    let mut bob = Player::login(h.port, &h.dir, "bob", &h.keys[1]);
    bob.wait_for("Welcome to tallyho, bob.");
    bob.send("who");
    let said = bob.wait_for("ann");
    assert!(!said.contains("While you were away"), "{said}");
    drop((ann, bob));
    h.running.stop();
}

/// A player whose only move was taken back by agreement had begun the
/// game: a claim over them is rated, and nobody is told they never moved.
#[test]
fn a_claim_over_a_player_whose_move_was_taken_back_is_rated() {
    let Some(h) = house("takenback", Duration::from_secs(1)) else {
        return;
    };
    let (mut ann, mut bob) = h.start_game();
    bob.send("B1-A2");
    ann.wait_for("Move fox to (A6, C6, A8, C8)? ");
    ann.send("B7-C6");
    bob.wait_for("3. ann moved B7-C6.");
    bob.send("undo");
    ann.wait_for("bob asks to take back their last move. Do you agree (yes/no)? ");
    ann.send("yes");
    bob.wait_for("Taken back: 2 plies.");
    bob.wait_for("Move (B1, D1, F1, H1)? ");
    bob.drop_line();
    ann.wait_for("bob has not come back: type claim to take the win, or adjourn");
    ann.send("claim");
    ann.wait_for("bob left the game and did not come back: ann wins.");
    let said = ann.wait_for("in the server's log.");
    assert!(said.contains("ann's fox rating: 1500 to "), "{said}");
    assert!(!said.contains("not rated"), "{said}");
    drop(ann);
    h.running.stop();
}

#[test]
fn a_player_offline_when_a_rated_game_ends_is_told_with_the_ratings() {
    let Some(h) = house("unseen", Duration::from_secs(1)) else {
        return;
    };
    let mut bob = h.ann_drops("1 second");
    bob.wait_for("ann has not come back: type claim to take the win, or adjourn");
    bob.send("claim");
    bob.wait_for("bob's fox rating: 1500 to ");
    let mut ann = h.ann();
    ann.wait_for("Welcome to tallyho, ann.");
    let said = unwrapped(&ann.wait_for("\n> "));
    assert!(
        said.contains("While you were away, game 1 (fox: ann (fox) against bob (hounds)) ended: bob won (abandoned). ann's fox rating: 1500 to 1338. bob's fox rating: 1500 to 1662. It is kept as number 1 in the server's log."),
        "{said}"
    );
    drop((ann, bob));
    h.running.stop();
}

#[test]
fn the_waiting_prompt_offers_claim_and_adjourn_only_past_the_grace_time() {
    let Some(h) = house("offered", Duration::from_secs(1)) else {
        return;
    };
    let (mut ann, mut bob) = h.start_game();
    bob.send("B1-A2");
    ann.wait_for("Move fox to (");
    bob.wait_for("Waiting for ann.");
    ann.drop_line();
    bob.wait_for("ann has left the game. They have 1 second to come back");
    bob.wait_for("ann is away. (say, board, resign, quit) > ");
    bob.wait_for("ann has not come back: type claim to take the win, or adjourn");
    bob.wait_for("ann is still away. (claim, adjourn, say, board, resign, quit) > ");
    bob.send("draw");
    bob.wait_for("No offer can be made while ann is away.");
    drop(bob);
    h.running.stop();
}

#[test]
fn a_game_survives_a_killed_server_and_is_resumed() {
    if !have_openssh() {
        return;
    }
    let dir = scratch("kill");
    let data = dir.join("serve");
    let keys = [keygen(&dir, "ann"), keygen(&dir, "bob")];
    let (mut first, port) = serve_ssh(&data);
    let (ann, bob) = start_game(port, &dir, &keys);
    // SIGKILL: no farewell, no flush.
    first.kill().unwrap();
    first.wait().unwrap();
    drop((ann, bob));
    // Started and stopped with nobody on: the game came back adjourned,
    // so no game in progress is adjourned by the stop.
    let (mut idle, addr) = serve_lines(&data, Stdio::piped());
    // Once its door answers, the server is ready for the signal too.
    let (_stream, _) = arrive(&addr);
    signal(&idle, "TERM");
    let said = exited_0_saying(&mut idle);
    assert!(
        said.contains("tallyho serve: 1 adjourned game brought back, to be resumed.\n"),
        "{said}"
    );
    assert!(
        said.contains("shutting down: 0 games in progress adjourned"),
        "{said}"
    );
    let (mut second, port) = serve_ssh(&data);
    let mut ann = Player::login(port, &dir, "ann", &keys[0]);
    ann.wait_for("Welcome to tallyho, ann.");
    ann.send("games");
    ann.wait_for("fox: ann against bob, 1 ply, adjourned");
    ann.send("resume");
    ann.wait_for("resumes when both players are online, and bob is not.");
    let mut bob = Player::login(port, &dir, "bob", &keys[1]);
    bob.wait_for("Welcome to tallyho, bob.");
    bob.send("resume");
    for p in [&mut ann, &mut bob] {
        p.wait_for("fox, rated. ann (fox) against bob (hounds).");
        p.wait_for("1. ann moved A8-B7.");
    }
    bob.wait_for("Move (B1, D1, F1, H1)? ");
    bob.send("B1-A2");
    ann.wait_for("2. bob moved B1-A2.");
    ann.send("resign");
    ann.wait_for("ann resigned: bob wins.");
    drop((ann, bob));
    let _ = second.kill();
    let _ = second.wait();
    // The finished game is in the server's log, as the local log reads it.
    let history = Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .arg("history")
        .arg("--history")
        .arg(data.join("history.jsonl"))
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&history.stdout);
    assert!(history.status.success(), "{history:?}");
    assert!(listed.contains("ann (fox)"), "{listed}");
    assert!(listed.contains("bob (hounds)"), "{listed}");
}

/// After a crash, the operator is told what became of the games left
/// unfinished: a guest's game against the computer ends without a winner.
#[test]
fn a_restart_after_a_crash_tells_the_operator_what_became_of_the_games() {
    let dir = scratch("told");
    let data = dir.join("serve");
    let (mut first, addr) = serve_lines(&data, Stdio::null());
    let (mut stream, mut seen) = arrive(&addr);
    stream.write_all(b"play fox rubbish --side fox\n").unwrap();
    read_until(&mut stream, &mut seen, "Move fox to (B7)? ");
    first.kill().unwrap();
    first.wait().unwrap();
    let (mut second, addr) = serve_lines(&data, Stdio::piped());
    let (_stream, _) = arrive(&addr);
    signal(&second, "TERM");
    let said = exited_0_saying(&mut second);
    assert!(
        said.starts_with("tallyho serve: 1 game with a guest ended without a winner.\n"),
        "{said}"
    );
}

#[test]
fn sigterm_tells_the_players_and_the_server_exits_0() {
    let dir = scratch("term");
    let (mut child, addr) = serve_lines(&dir.join("serve"), Stdio::null());
    let (mut stream, mut seen) = arrive(&addr);
    signal(&child, "TERM");
    // The player is told, then the connection closes.
    let mut buf = [0; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            Err(e) => panic!("{e}: {seen}"),
        }
    }
    assert!(seen.contains("The server is shutting down."), "{seen}");
    assert_eq!(exited(&mut child).code(), Some(0));
}

#[test]
fn sigterm_the_moment_a_door_is_named_still_shuts_down_cleanly() {
    let dir = scratch("prompt-term");
    // No wait for the door to answer: the signal goes as soon as the
    // server has said where it is, as an operator's script might send it.
    let (mut child, _) = serve_lines(&dir.join("serve"), Stdio::piped());
    signal(&child, "TERM");
    let said = exited_0_saying(&mut child);
    assert!(
        said.contains("shutting down: 0 games in progress adjourned"),
        "{said}"
    );
}

#[test]
fn sigquit_shuts_down_cleanly_as_sigterm_does() {
    let dir = scratch("quit");
    let (mut child, addr) = serve_lines(&dir.join("serve"), Stdio::piped());
    let (mut stream, mut seen) = arrive(&addr);
    signal(&child, "QUIT");
    read_until(&mut stream, &mut seen, "The server is shutting down.");
    let said = exited_0_saying(&mut child);
    assert!(
        said.contains("shutting down: 0 games in progress adjourned"),
        "{said}"
    );
}

/// A second signal does not wait for the shutdown the first began: the
/// server says so and ends at once, with the second signal's status.
#[test]
fn a_second_signal_stops_the_server_at_once() {
    let dir = scratch("twice");
    let (mut child, addr) = serve_lines(&dir.join("serve"), Stdio::piped());
    let (_stream, _) = arrive(&addr);
    // Held still, the server takes both signals together when it goes on.
    signal(&child, "STOP");
    signal(&child, "TERM");
    signal(&child, "INT");
    signal(&child, "CONT");
    let status = exited(&mut child);
    assert!(
        matches!(status.code(), Some(130 | 143)),
        "the second signal's status: {status}"
    );
    let said = said(&mut child);
    assert!(
        said.contains("stopped at once by a second signal; the games in progress are brought back at the next start, as after a crash."),
        "{said}"
    );
}

/// A connection that has not finished its ssh handshake has nobody to say
/// goodbye to: the shutdown closes it at once. It used to be waited for
/// as a player is, 8 seconds.
#[test]
fn a_shutdown_does_not_wait_for_a_half_done_ssh_handshake() {
    let dir = scratch("half");
    let (mut child, port) = serve_ssh(&dir.join("serve"));
    let _silent = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    // And one that gave its version, then nothing.
    let mut versioned = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    versioned.write_all(b"SSH-2.0-OpenSSH_9.0\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    signal(&child, "TERM");
    assert_eq!(exited(&mut child).code(), Some(0));
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(4), "the shutdown took {took:?}");
}

#[test]
fn players_quiet_for_a_while_are_told_of_the_shutdown_before_they_are_cut_off() {
    let Some(h) = house("quiet", Duration::from_secs(60)) else {
        return;
    };
    let (mut ann, mut bob) = h.start_game();
    // Nobody types for longer than the ssh door gives its connections to
    // say goodbye: the shutdown's time is counted from the shutdown, not
    // from the connection's last stir.
    std::thread::sleep(Duration::from_secs(7));
    h.running.stop();
    // Wrapped at 80 columns, as a script's conversation is.
    for p in [&mut ann, &mut bob] {
        p.wait_for("The server is shutting down. Games in progress are adjourned:");
        p.wait_for("it is back.");
    }
}

/// A guest at the line door `addr`, once shown the lobby's first prompt:
/// the connection, and what it was shown.
fn arrive(addr: &str) -> (std::net::TcpStream, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut seen = String::new();
    read_until(&mut stream, &mut seen, "> ");
    (stream, seen)
}

/// Reads from `stream` into `seen` until `text` has come.
fn read_until(stream: &mut std::net::TcpStream, seen: &mut String, text: &str) {
    let mut buf = [0; 4096];
    while !seen.contains(text) {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "{seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

/// SIGHUP stops the server as SIGTERM does: the players are told, the
/// games adjourned, and the operator reads on standard error what became
/// of them, after a warning that anyone may write in its data folder.
#[test]
fn sighup_shuts_down_cleanly_and_the_operator_is_told() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("hup");
    let data = dir.join("serve");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (mut child, addr) = serve_lines(&data, Stdio::piped());
    let (mut stream, mut seen) = arrive(&addr);
    stream.write_all(b"play fox rubbish --side fox\n").unwrap();
    read_until(&mut stream, &mut seen, "Move fox to (B7)? ");
    signal(&child, "HUP");
    read_until(&mut stream, &mut seen, "The server is shutting down.");
    let said = exited_0_saying(&mut child);
    assert!(
        said.contains(&format!(
            "anyone may write in the data folder {} (mode 777)",
            data.display()
        )),
        "{said}"
    );
    assert!(
        said.contains(
            "tallyho serve: shutting down: 0 games in progress adjourned; 1 game with a guest is over, as a guest cannot come back."
        ),
        "{said}"
    );
}
