//! `tallyho serve` as a child process, its database refusing finished
//! games as a full disk does (a trigger the test puts in and takes out):
//! the players of a resigned game are told, in both dialects and naming
//! no file, that its ending is kept; the operator is warned on standard
//! error, and told again once it is stored, every few seconds or at
//! SIGTERM; after a restart the game is in the log with its winner and
//! does not come back. Loopback only; every wait is bounded.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod scratch;
mod server_common;
use scratch::{KillOnDrop, Scratch};
use server_common::process::{exited, serve_lines, signal};
use server_common::store::{empty, fill, log_at};
use server_common::{Client, fox_seek_taken};

/// The longest any test waits for one thing.
const PATIENCE: Duration = Duration::from_secs(30);

/// What the server has written to its standard error so far.
#[derive(Clone, Default)]
struct Stderr(Arc<Mutex<String>>);

impl Stderr {
    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    /// Waits until `text` has been written.
    fn wait_for(&self, text: &str) {
        let end = Instant::now() + PATIENCE;
        while !self.text().contains(text) {
            assert!(
                Instant::now() < end,
                "waited for {text:?} on stderr: {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// `tallyho serve` on a line port, killed when dropped; its address, and
/// its standard error as it comes.
fn serve(data: &Path) -> (KillOnDrop, String, Stderr) {
    let (mut child, addr) = serve_lines(data, Stdio::piped());
    let stderr = Stderr::default();
    let errors = child.stderr.take().unwrap();
    let into = stderr.clone();
    // Ends when the server's standard error closes.
    std::thread::spawn(move || {
        for line in BufReader::new(errors).lines() {
            let Ok(line) = line else { return };
            let mut text = into.0.lock().unwrap();
            text.push_str(&line);
            text.push('\n');
        }
    });
    (child, addr, stderr)
}

/// What was said, read as words: the scripted dialect wraps its lines.
fn words(said: &str) -> String {
    said.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `name` (scripted, the fox) and a guest in the machine dialect (the
/// hounds) start a fox game and make a move each, then the database fills
/// and the hounds resign. Checks what each is told; the game's number.
fn resigned_while_full(addr: &str, data: &Path, name: &str) -> u64 {
    let mut ann = Client::arrive(addr);
    let mut hounds = Client::arrive(addr);
    ann.take_name(name);
    let welcome = hounds.speak_json();
    let them = welcome["handle"].as_str().unwrap().to_string();
    fox_seek_taken(&mut ann, &mut hounds);
    let start = hounds.events_to("start").pop().unwrap();
    let game = start["game"].as_u64().unwrap();
    ann.wait_for("Move fox to (B7)? ");
    // A move the database has no room for is not played.
    fill(data, "moves");
    ann.send("A8-B7");
    let said = words(&ann.wait_for("full)."));
    assert!(
        said.contains(
            "The server could not keep your move, so it was not played (database or disk is full)."
        ),
        "{said}"
    );
    assert!(!said.contains("server.db"), "no file named: {said}");
    empty(data, "moves");
    ann.send("A8-B7");
    hounds.events_to("move");
    hounds.send("B1-A2");
    ann.wait_for("2. ");
    ann.wait_for("Move fox to ");

    fill(data, "finished");
    hounds.send("resign");
    let said = words(&ann.wait_for("it can."));
    assert!(
        said.contains(&format!("{them} resigned: {name} wins.")),
        "{said}"
    );
    assert!(
        said.contains(
            "The server could not store this game's ending yet (database or disk is full); it keeps the result and stores it as soon as it can."
        ),
        "{said}"
    );
    let events = hounds.events_to("end");
    let end = events.last().unwrap();
    assert_eq!(end["winner"], name);
    assert_eq!(end["how"], "resigned");
    // The machine dialect hears it in the `end` event, and not before.
    let why = "The server could not store this game's ending yet (database or disk is full); it keeps the result and stores it as soon as it can.";
    assert_eq!(end["epilogue"], why, "{events:?}");
    assert!(
        events
            .iter()
            .filter_map(|e| e["text"].as_str())
            .all(|t| !t.contains("ending")),
        "{events:?}"
    );
    for told in [said.as_str(), why] {
        assert!(!told.contains("server.db"), "no file named: {told}");
        assert!(!told.contains(&data.display().to_string()), "{told}");
    }
    game
}

#[test]
fn a_resigned_game_the_disk_had_no_room_for_is_stored_later_and_stays_finished() {
    let dir = Scratch::new("ending-waits");
    let data = dir.join("serve");
    let (mut server, addr, stderr) = serve(&data);

    // Stored by the server's own retry once there is room.
    let first = resigned_while_full(&addr, &data, "ann");
    stderr.wait_for(&format!(
        "tallyho: warning: game {first}'s ending could not be stored in "
    ));
    stderr.wait_for("(database or disk is full); it is kept and tried again");
    empty(&data, "finished");
    stderr.wait_for(&format!(
        "tallyho: warning: game {first}'s ending is stored now"
    ));

    // Stored by the last try at SIGTERM.
    let second = resigned_while_full(&addr, &data, "amy");
    stderr.wait_for(&format!("game {second}'s ending could not be stored in "));
    empty(&data, "finished");
    signal(&server, "TERM");
    exited(&mut server);
    stderr.wait_for(&format!("game {second}'s ending is stored now"));
    let warned = stderr.text();
    for game in [first, second] {
        let waits = format!("game {game}'s ending could not be stored in ");
        assert_eq!(warned.matches(&waits).count(), 1, "said once: {warned}");
        let stored = format!("game {game}'s ending is stored now");
        assert_eq!(warned.matches(&stored).count(), 1, "said once: {warned}");
    }
    assert!(!warned.contains("before the server stopped"), "{warned}");
    // Moves failing: said when they start to, and when they work again,
    // once each time.
    assert_eq!(
        warned
            .matches("tallyho: warning: moves cannot be stored: ")
            .count(),
        2,
        "{warned}"
    );
    assert_eq!(
        warned
            .matches("database or disk is full; said once")
            .count(),
        2,
        "{warned}"
    );
    assert_eq!(
        warned.matches("moves can be stored in ").count(),
        2,
        "{warned}"
    );

    // A restart: neither game comes back, and both are in the log, won.
    let (_again, addr, _) = serve(&data);
    let mut ann = Client::arrive(&addr);
    ann.send("games");
    ann.wait_for("No games are being played.");
    let (records, _) = log_at(&data.join("history.jsonl"));
    let endings: Vec<_> = records
        .into_iter()
        .map(|r| (r.outcome.winner, r.outcome.how, r.plies))
        .collect();
    let won = (Some("fox".to_string()), "resigned".to_string(), 2);
    assert_eq!(endings, [won.clone(), won]);
}
