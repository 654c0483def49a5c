//! Whole draughts sessions fed random input: junk, squares on and off the
//! board, whole moves and half moves, the seed's M and C, commands, draw
//! offers and their answers, long lines, bytes that are not UTF-8, and
//! streams cut off anywhere. Every session must end, without a panic, in
//! bounded time, saying goodbye or the final score.
//!
//! For a long run: `TALLYHO_FUZZ_CASES=5000 cargo test --release --test draughts_fuzz`.

mod fuzz_common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tallyho::engines::draughts::session::Session;
use tallyho::faces::draughts::DraughtsFace;
use tallyho::games::draughts::{Captures, Level, Setup, Start, ballot, fen};
use tallyho::shell::log::Keeper;
use tallyho::shell::matchplay::{self, Options};

/// One line, as a player or a broken script might type it.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let number = (0u8..40).prop_map(|n| n.to_string().into_bytes());
    let coordinate =
        (0u8..10, 0u8..10).prop_map(|(c, r)| format!("{}{}", (b'A' + c) as char, r).into_bytes());
    let path = proptest::collection::vec(1u8..=32, 2..5).prop_map(|squares| {
        let text: Vec<String> = squares.iter().map(ToString::to_string).collect();
        text.join("x").into_bytes()
    });
    let words = proptest::sample::select(vec![
        "help", "moves", "undo", "board", "hint", "draw", "resign", "quit", "yes", "no", "1", "2",
        "3", "Ann", "Bob", "", " ", "-", "x", "M", "C", "m 11-15", "C 22x15", "c3 d4", "E3xG5xE7",
        "11-15", "9-13", "22-18", "23-19", "15x22", "10x26", "1118", "C22", "M9", "black", "white",
        "Ｃ３", "11--15", "x11x", "K11",
    ])
    .prop_map(|w| w.as_bytes().to_vec());
    prop_oneof![
        5 => words,
        3 => number,
        2 => coordinate,
        2 => path,
        1 => proptest::collection::vec(any::<u8>(), 0..40),
        1 => (1usize..500).prop_map(|n| vec![b'9'; n]),
        1 => Just(vec![0xff, 0xfe, b'1', b'1']),
        1 => Just(b"\x1b[2J\x03".to_vec()),
    ]
}

/// Starts to play from: the usual one, ballot openings, endings.
const STARTS: [&str; 4] = [
    "B:W14,15,22,23,30:B10,1",
    "W:W22,24,30:B18,19,3",
    "B:W21,26,27:B1,24",
    "B:WK32:BK1",
];

/// One session's options, shown when a case fails.
struct Case(Options<Session>);

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.0;
        write!(
            f,
            "{:?} players {:?} games {:?} seed {} level {:?} {:?}",
            o.rules.rules, o.players, o.games, o.seed, o.level, o.side_levels
        )
    }
}

fn options() -> impl Strategy<Value = Case> {
    // Levels that do not search by the clock, so a case takes little time.
    let levels = proptest::sample::select(vec![Level::Rubbish, Level::Greedy, Level::Cunning]);
    (
        proptest::option::of(0u8..=2),
        proptest::option::of(levels.clone()),
        proptest::option::of(levels),
        any::<bool>(),
        0usize..7,
        any::<u64>(),
        proptest::option::of(1u32..3),
    )
        .prop_map(
            |(players, level, black_level, optional, start, seed, games)| {
                let captures = if optional {
                    Captures::Optional
                } else {
                    Captures::Compulsory
                };
                let start = match start {
                    0 => Start::Standard,
                    1 | 2 => Start::Opening(ballot::random(seed)),
                    n => Start::Position(fen::parse(STARTS[n - 3]).expect("a position")),
                };
                Case(Options {
                    rules: Session::new(Setup::with_captures(captures).starting(start)),
                    kind: tallyho::games::GameKind::Draughts,
                    players,
                    names: Vec::new(),
                    games,
                    seed,
                    level,
                    side_levels: [black_level, None],
                    side: None,
                    delay_ms: 0,
                    think_ms: 20,
                    log: Keeper::default(),
                })
            },
        )
}

/// Runs one session on a thread, so that a hang fails the test.
fn run_session(options: Options<Session>, input: Vec<u8>) -> Result<String, String> {
    fuzz_common::run_session(input, move |console| {
        matchplay::run(console, &DraughtsFace::default(), &options)
    })
}

#[test]
fn random_input_never_breaks_a_draughts_session() {
    let mut runner = TestRunner::new(Config {
        cases: fuzz_common::cases(32),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(options(), fuzz_common::stream(line(), 200)),
            |(Case(options), input)| {
                let text = run_session(options, input).map_err(TestCaseError::fail)?;
                prop_assert!(
                    text.contains("Final score") || text.ends_with("Goodbye.\n"),
                    "unexpected ending: {}",
                    &text[text.len().saturating_sub(300)..]
                );
                Ok(())
            },
        )
        .expect("no input breaks a draughts session");
}
