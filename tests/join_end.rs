//! How `tallyho join` says a game's end to a watcher: in the text door's
//! sentence, not the log's code for it.

use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tallyho::server::{Rules, limits::Limits};

mod scratch;
mod server_common;
use scratch::Scratch;
use server_common::{Client, Serving, lines, piped_join};

/// The first line holding `word`, within a while.
fn line_with(seen: &mpsc::Receiver<String>, word: &str) -> Option<String> {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let line = seen
            .recv_timeout(end.saturating_duration_since(Instant::now()))
            .ok()?;
        if line.contains(word) {
            return Some(line);
        }
    }
}

/// Two machine players on the line door at `addr` start a game of fox and
/// hounds, Ann the fox: both players, and the game's number.
fn fox_game(addr: std::net::SocketAddr) -> (Client, Client, serde_json::Value) {
    let mut ann = Client::arrive(addr);
    ann.speak_json();
    ann.send("seek fox --side fox");
    let n = ann.event_named("seeking")["n"].clone();
    let mut bob = Client::arrive(addr);
    bob.speak_json();
    bob.send(&format!("accept {n}"));
    let game = bob.event_named("start")["game"].clone();
    (ann, bob, game)
}

/// `join`'s exit code, once it ends within a while; `meanwhile` runs
/// between looks. `None` when it never ends (it is killed on drop).
fn ended_within(join: &mut std::process::Child, mut meanwhile: impl FnMut()) -> Option<i32> {
    let end = Instant::now() + Duration::from_secs(20);
    while Instant::now() < end {
        if let Some(done) = join.try_wait().expect("join is there") {
            return done.code();
        }
        meanwhile();
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

#[test]
fn a_watcher_is_told_a_resignation_as_the_text_door_tells_it() {
    let data = Scratch::new("join-end");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    // Two machine players start a game.
    let (mut ann, _bob, game) = fox_game(addr);
    // A watcher at the text door, and one through join.
    let mut text_door = Client::arrive(addr);
    text_door.send(&format!("watch {game}"));
    text_door.wait_for("unwatch to stop.");
    let mut join = piped_join(&addr.to_string());
    let mut typed = join.stdin.take().expect("its input is piped");
    let seen = lines(join.stdout.take().expect("its output is piped"));
    writeln!(typed, "watch {game}").expect("join takes a line");
    assert!(line_with(&seen, "watching:").is_some());
    ann.send("resign");
    let said = text_door.wait_for(" wins.");
    let sentence = said.lines().last().unwrap_or_default().trim();
    assert!(sentence.contains(" resigned: "), "{said}");
    let joined = line_with(&seen, "resigned").expect("join says the end");
    assert_eq!(joined, sentence);
    drop(typed);
    let _ = join.wait();
    running.stop();
}

/// A script whose output is closed (`| head -1`) leaves: the lines after
/// go nowhere, not to the server as moves nobody sees answered.
#[test]
fn a_closed_output_ends_a_scripted_join() {
    let data = Scratch::new("join-closed");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let mut join = piped_join(&addr.to_string());
    let mut typed = join.stdin.take().expect("its input is piped");
    let seen = lines(join.stdout.take().expect("its output is piped"));
    writeln!(typed, "name h2").expect("join takes a line");
    assert!(line_with(&seen, "You are h2,").is_some());
    // The reader goes, as `head` does once it has its line.
    drop(seen);
    writeln!(typed, "who").expect("join takes a line");
    // Lines keep coming, as from a script; join takes none once its
    // output is gone.
    let code = ended_within(&mut join, || {
        let _ = writeln!(typed, "who");
    });
    assert_eq!(code, Some(0), "join went on with its output closed");
    let _ = writeln!(typed, "seek draughts");
    drop(typed);
    let mut other = Client::arrive(addr);
    other.speak_json();
    other.send("seeks");
    let seeks = other.event_named("seeks");
    assert_eq!(seeks["seeks"].as_array().map(Vec::len), Some(0), "{seeks}");
    running.stop();
}

/// A game already under way, watched through join: the moves so far are
/// said, each once and in order, as the text door says them.
#[test]
fn a_watcher_is_told_the_moves_so_far() {
    let data = Scratch::new("join-so-far");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let (mut ann, mut bob, game) = fox_game(addr);
    // Two plies, each by whoever is to move.
    let mut played = Vec::new();
    for _ in 0..2 {
        let position = ann.event_named("position");
        let mv = position["legal"][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if position["to_move"] == "fox" {
            ann.send(&mv);
        } else {
            bob.send(&mv);
        }
        played.push(mv);
    }
    let _ = ann.event_named("position");
    let mut join = piped_join(&addr.to_string());
    let mut typed = join.stdin.take().expect("its input is piped");
    let seen = lines(join.stdout.take().expect("its output is piped"));
    writeln!(typed, "watch {game}").expect("join takes a line");
    let first = line_with(&seen, "1. ").expect("the first move is said");
    assert!(first.ends_with(&format!("{}.", played[0])), "{first}");
    let second = line_with(&seen, "2. ").expect("the second move is said");
    assert!(second.ends_with(&format!("{}.", played[1])), "{second}");
    drop(typed);
    let _ = join.wait();
    running.stop();
}

/// A script some of whose lines the server refused ends with status 3, as
/// a scripted local game does: it can tell that not every line was taken.
#[test]
fn a_script_with_a_refused_line_ends_with_status_3() {
    let data = Scratch::new("join-refused");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    for (script, status) in [("who\n", 0), ("bogus\nwho\n", 3), ("accept 99\n", 3)] {
        let mut join = piped_join(&addr.to_string());
        let mut typed = join.stdin.take().expect("its input is piped");
        let seen = lines(join.stdout.take().expect("its output is piped"));
        typed
            .write_all(script.as_bytes())
            .expect("join takes the lines");
        drop(typed);
        let code = ended_within(&mut join, || {});
        let said: Vec<String> = seen.try_iter().collect();
        assert_eq!(code, Some(status), "{script:?}: {said:?}");
    }
    running.stop();
}

#[test]
fn a_watcher_through_join_is_told_a_guests_game_ends_at_a_shutdown() {
    let data = Scratch::new("join-cut-off");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let (_ann, _bob, game) = fox_game(addr);
    let mut join = piped_join(&addr.to_string());
    let mut typed = join.stdin.take().expect("its input is piped");
    let seen = lines(join.stdout.take().expect("its output is piped"));
    writeln!(typed, "watch {game}").expect("join takes a line");
    assert!(line_with(&seen, "watching:").is_some());
    running.stop();
    let mut said = Vec::new();
    while let Ok(line) = seen.recv_timeout(Duration::from_secs(10)) {
        said.push(line);
    }
    let said = said.join("\n");
    assert!(!said.contains("adjourned"), "{said}");
    assert!(
        said.contains(&format!(
            "Game {game} ends here without a winner: a guest's game cannot be resumed."
        )),
        "{said}"
    );
    drop(typed);
    let _ = join.wait();
}
