//! Two sessions of the shell at once in one process, each over in-memory
//! streams and each a whole game to its end: a session owns its input, its
//! output and its look, so each says exactly what the real binary says alone
//! (the golden transcripts' standard output, byte for byte).

use std::io::{Cursor, Write};
use std::sync::{Arc, Barrier, Mutex};
use std::thread;

use tallyho::faces::fish::FishFace;
use tallyho::faces::fox::FoxFace;
use tallyho::games::fish::{self, Deal};
use tallyho::games::fox::{self, Board, Rules};
use tallyho::games::{Computers, FoxFlow, GameKind};
use tallyho::shell::console::Console;
use tallyho::shell::face::Face;
use tallyho::shell::log::Keeper;
use tallyho::shell::matchplay::{self, Options};

/// A writer the test can read back after the session.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The lines a transcript's script types (everything after its `args:` line).
fn script(name: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(format!("tests/transcripts/{name}.txt")).expect("a script");
    let (_, lines) = text.split_once('\n').expect("an args line");
    lines.as_bytes().to_vec()
}

/// What the binary printed on standard output for a transcript, from its snapshot.
fn golden(name: &str) -> String {
    let snap = std::fs::read_to_string(format!(
        "tests/snapshots/transcripts__transcripts@{name}.txt.snap"
    ))
    .expect("a snapshot");
    let (_, after) = snap.split_once("\n$ tallyho").expect("the command line");
    let (_, body) = after.split_once('\n').expect("a line after it");
    let (stdout, _) = body
        .split_once("\n--- stderr ---")
        .expect("the stderr marker");
    stdout.to_string()
}

/// Two people at one terminal, named, with no log.
fn two_people<R: Computers>(rules: R, kind: GameKind, names: [&str; 2]) -> Options<R> {
    Options {
        rules,
        kind,
        players: Some(2),
        names: names.iter().map(ToString::to_string).collect(),
        games: None,
        seed: 0,
        level: None,
        side_levels: [None, None],
        side: None,
        delay_ms: 0,
        think_ms: 1000,
        log: Keeper::default(),
    }
}

/// Runs a session on its own thread once `start` lets every session go.
fn session<R, F>(
    options: Options<R>,
    face: F,
    input: Vec<u8>,
    start: Arc<Barrier>,
) -> thread::JoinHandle<String>
where
    R: Computers + 'static,
    Options<R>: Send,
    F: Face<R> + Send + 'static,
{
    thread::spawn(move || {
        let out = Shared::default();
        let mut console =
            Console::scripted(Box::new(Cursor::new(input)), Box::new(out.clone()), false);
        start.wait();
        matchplay::run(&mut console, &face, &options).expect("the session ran");
        let bytes = out.0.lock().expect("not poisoned").clone();
        String::from_utf8(bytes).expect("UTF-8")
    })
}

#[test]
fn two_sessions_at_once_each_say_what_one_says_alone() {
    let start = Arc::new(Barrier::new(2));
    let board = Board::new(4, 4).expect("4x4");
    let fox_rules = fox::Setup {
        board,
        rules: Rules::Coursework,
        fox_start: Some(board.default_fox_start()),
        first: fox::Side::Fox,
    };
    let fox = session(
        two_people(fox_rules, GameKind::Fox(FoxFlow::Default), ["a", "b"]),
        FoxFace,
        script("match_swap_and_score"),
        Arc::clone(&start),
    );
    let fish_rules = fish::Setup::new(fish::Board::default(), Deal::Rings, 1).expect("6x6");
    let mut fish_options = two_people(fish_rules, GameKind::Fish, ["Player", "AI"]);
    fish_options.games = Some(1);
    let fish = session(
        fish_options,
        FishFace,
        script("fish_assignment_example"),
        start,
    );
    let fox = fox.join().expect("the fox session ended");
    let fish = fish.join().expect("the fish session ended");
    assert_eq!(fox, golden("match_swap_and_score"));
    assert_eq!(fish, golden("fish_assignment_example"));
}
