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
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tallyho::shell::log::Log;

mod scratch;
mod server_common;
use scratch::{KillOnDrop, Scratch};
use server_common::{Client, seek_number};

/// The longest any test waits for one thing.
const PATIENCE: Duration = Duration::from_secs(30);

impl Client {
    /// The next JSON event named `name`, and every event before it.
    fn events_to(&mut self, name: &str) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let line = self.wait_for("\n");
            if line.trim() == "proto json" {
                continue;
            }
            let event: Value = serde_json::from_str(line.trim())
                .unwrap_or_else(|e| panic!("not an event: {line:?}: {e}"));
            let done = event["event"] == name;
            seen.push(event);
            if done {
                return seen;
            }
        }
    }
}

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
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(["serve", "--ssh-port", "off", "--line-port", "0", "--data"])
            .arg(data)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
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
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first
        .trim()
        .strip_prefix("lines ")
        .unwrap_or_else(|| panic!("the first line names the line door: {first:?}"))
        .to_string();
    (child, addr, stderr)
}

/// Runs `sql` on the server's database, as an operator's tool would.
fn sqlite(data: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(data.join("server.db")).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn.execute_batch(sql).unwrap();
}

/// From now on the database refuses `table`'s new rows as a full disk.
fn fill(data: &Path, table: &str) {
    sqlite(
        data,
        &format!(
            "CREATE TRIGGER full_{table} BEFORE INSERT ON {table}
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;"
        ),
    );
}

/// The database takes `table`'s new rows again.
fn empty(data: &Path, table: &str) {
    sqlite(data, &format!("DROP TRIGGER full_{table}"));
}

/// `name` (scripted, the fox) and a guest in the machine dialect (the
/// hounds) start a fox game and make a move each, then the database fills
/// and the hounds resign. Checks what each is told; the game's number.
fn resigned_while_full(addr: &str, data: &Path, name: &str) -> u64 {
    let mut ann = Client::connect(addr);
    let mut hounds = Client::connect(addr);
    ann.wait_for("> ");
    hounds.wait_for("> ");
    ann.send(&format!("name {name}"));
    ann.wait_for(&format!("You are {name}."));
    hounds.send("proto json");
    let welcome = hounds.events_to("welcome").pop().unwrap();
    let them = welcome["handle"].as_str().unwrap().to_string();
    ann.send("seek fox --side fox");
    let n = seek_number(&ann.wait_for(" is open: fox."));
    hounds.send(&format!("accept {n}"));
    let start = hounds.events_to("start").pop().unwrap();
    let game = start["game"].as_u64().unwrap();
    ann.wait_for("Move fox to (B7)? ");
    // A move the database has no room for is not played.
    fill(data, "moves");
    ann.send("A8-B7");
    let said = ann.wait_for("full).");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
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
    // The scripted dialect wraps its lines: read as words.
    let said = ann.wait_for("it can.");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
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
    let info: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "info")
        .filter_map(|e| e["text"].as_str())
        .filter(|t| t.contains("ending"))
        .collect();
    assert_eq!(
        info,
        [
            "The server could not store this game's ending yet (database or disk is full); it keeps the result and stores it as soon as it can."
        ],
        "{events:?}"
    );
    for told in [said.as_str(), info[0]] {
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
    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let end = Instant::now() + PATIENCE;
    while server.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "the server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
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
    let mut ann = Client::connect(&addr);
    ann.wait_for("> ");
    ann.send("games");
    ann.wait_for("No games are being played.");
    let mut records = Log::new(data.join("history.jsonl")).stream().unwrap();
    let mut endings = Vec::new();
    while let Some(r) = records.next_record().unwrap() {
        endings.push((r.outcome.winner, r.outcome.how, r.plies));
    }
    let won = (Some("fox".to_string()), "resigned".to_string(), 2);
    assert_eq!(endings, [won.clone(), won]);
}
