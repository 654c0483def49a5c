//! `tallyho join` from a pipe answers its lines in their order, as
//! scripted play does: the server's answers and join's own refusals
//! interleave as the lines did, and a line sent while the computer is to
//! move is taken at the player's next turn.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tallyho::server::{Rules, limits::Limits};

mod scratch;
mod server_common;
use scratch::{KillOnDrop, Scratch};
use server_common::{Client, Serving, piped_join};

/// Everything `join` prints until it ends, which must be within a minute.
fn all_it_says(join: &mut Child) -> String {
    let mut out = join.stdout.take().expect("its output is piped");
    // Read on a thread, so a client that never ends fails the test.
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let end = Instant::now() + Duration::from_secs(60);
    while join.try_wait().ok().flatten().is_none() {
        assert!(Instant::now() < end, "join did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    reading.join().unwrap_or_default()
}

#[test]
fn a_script_is_answered_in_the_order_of_its_lines() {
    let data = Scratch::new("join-order");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door().to_string();
    let mut join = piped_join(&addr);
    let mut typed = join.stdin.take().expect("its input is piped");
    // All at once, as from printf: a line ended by a lone CR, one too long,
    // one with a NUL, a game, and `moves` sent while the computer is to
    // move (after the player's first move).
    let script = format!(
        "who\r{}\nsay nul\0byte\nplay fox rubbish\nA8-B7\nmoves\nwho\n",
        "x".repeat(2000)
    );
    typed
        .write_all(script.as_bytes())
        .expect("join takes the script");
    drop(typed);
    let text = all_it_says(&mut join);
    running.stop();
    // Each answer after the one to the line before.
    let order = [
        "online:",
        "bytes long",
        "control characters",
        "You play fox.",
        "moved A8-B7.",
        "rubbish moved",
        "Legal moves: B7-",
        "\"who\" works in the lobby",
        "Goodbye.",
    ];
    let mut from = 0;
    for word in order {
        let Some(at) = text[from..].find(word) else {
            panic!("{word:?} is not where it should be, after {from}:\n{text}");
        };
        from += at + word.len();
    }
}

#[test]
fn a_script_waiting_for_its_turn_goes_on_when_the_other_player_leaves() {
    let data = Scratch::new("join-order-gone");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    let mut ann = Client::arrive(addr);
    ann.speak_json();
    ann.send("seek fox --side hounds");
    let n = ann.event_named("seeking")["n"].clone();
    let mut join = piped_join(&addr.to_string());
    let mut typed = join.stdin.take().expect("its input is piped");
    // The claim waits for the hounds' move, which never comes: the
    // hounds leave instead.
    typed
        .write_all(format!("accept {n}\nA8-B7\nclaim\n").as_bytes())
        .expect("join takes the script");
    drop(typed);
    ann.event_named("move");
    drop(ann);
    let text = all_it_says(&mut join);
    running.stop();
    let mut from = 0;
    // The claim's end, as the text door words it.
    for word in [
        "moved A8-B7.",
        "left the game and did not come back: guest",
        "Goodbye.",
    ] {
        let Some(at) = text[from..].find(word) else {
            panic!("{word:?} is not where it should be, after {from}:\n{text}");
        };
        from += at + word.len();
    }
}

#[test]
fn a_script_stops_waiting_for_a_move_that_never_comes() {
    let data = Scratch::new("join-order-wait");
    let running = Serving::lines(data.to_path_buf(), Limits::default(), Rules::default());
    let addr = running.line_door();
    // Ann plays the fox, who moves first, and never moves.
    let mut ann = Client::arrive(addr);
    let handle = ann.speak_json()["handle"].clone();
    ann.send("seek fox --side fox");
    let n = ann.event_named("seeking")["n"].clone();
    let mut join = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["join", &addr.to_string(), "--wait", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tallyho join starts"),
    );
    let mut typed = join.stdin.take().expect("its input is piped");
    typed
        .write_all(format!("accept {n}\nD1-C2\nwho\n").as_bytes())
        .expect("join takes the script");
    drop(typed);
    let text = all_it_says(&mut join);
    let status = join.wait().expect("join is waited for");
    // Sentences wrap: read as one line.
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut from = 0;
    let gave_up = format!(
        "Fox ({}) has not moved in 1 second: join stops waiting (--wait) and leaves.",
        handle.as_str().unwrap_or_default()
    );
    for word in ["You play hounds.", &gave_up, "You left game", "Goodbye."] {
        let Some(at) = text[from..].find(word) else {
            panic!("{word:?} is not where it should be, after {from}:\n{text}");
        };
        from += at + word.len();
    }
    // Nothing after the wait was sent.
    assert!(!text.contains("not your turn"), "{text}");
    assert!(!text.contains("online:"), "{text}");
    assert_eq!(status.code(), Some(6), "{text}");
    // The other player hears that the script left.
    let news = ann.event_named("info");
    assert!(
        news["text"].as_str().unwrap_or_default().contains("left"),
        "{news}"
    );
    running.stop();
}
