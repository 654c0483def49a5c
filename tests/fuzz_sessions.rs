//! Whole sessions, in both flows, fed random input streams: junk, valid moves,
//! commands, empty lines, very long lines, invalid UTF-8, control characters,
//! and streams cut off anywhere. Every run must end, without a panic, in
//! bounded time, having asked its questions through the scripted console.
//!
//! CI runs a few dozen cases per flow. For a long run:
//! `TALLYHO_FUZZ_CASES=20000 cargo test --release --test fuzz_sessions`.

mod fuzz_common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tallyho::faces::fox::FoxFace;
use tallyho::flows::classic;
use tallyho::games::fox::players::Level;
use tallyho::games::fox::{Board, Rules, Setup, Side};
use tallyho::games::{FoxFlow, GameKind};
use tallyho::shell::log::Keeper;
use tallyho::shell::matchplay::{self, Options};

/// One session of either flow.
enum Session {
    Match(Options<Setup>),
    Classic(classic::Options),
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Session::Match(o) => write!(
                f,
                "match {:?} players {:?} games {:?} seed {} level {:?} {:?}",
                o.rules, o.players, o.games, o.seed, o.level, o.side_levels
            ),
            Session::Classic(o) => write!(
                f,
                "classic {:?} games {:?} seed {} level {:?}",
                o.setup, o.games, o.seed, o.level
            ),
        }
    }
}

/// One line of input, as a player or a broken script might send it.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let square =
        (0u8..10, 0u8..10).prop_map(|(c, r)| format!("{}{}", (b'A' + c) as char, r).into_bytes());
    let words = proptest::sample::select(vec![
        "help",
        "moves",
        "undo",
        "board",
        "hint",
        "quit",
        "yes",
        "no",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "fox",
        "hounds",
        "rubbish",
        "classic",
        "cunning",
        "overpowered",
        "Ann",
        "Bob",
        "",
        " ",
        "-",
        "?",
        ",",
        "B1 C2",
        "b1-c2",
        "1,2",
        "1,2 2,3",
        "2,1",
        "Ｂ１",
        "B1aa",
        "aaB1",
        "0",
        "99",
    ])
    .prop_map(|w| w.as_bytes().to_vec());
    prop_oneof![
        4 => words,
        4 => square,
        1 => proptest::collection::vec(any::<u8>(), 0..40),
        1 => (1usize..3000).prop_map(|n| vec![b'x'; n]),
        1 => Just(vec![0xff, 0xfe, b'B', b'1']),
        1 => Just(b"\x1b[2J\x03\x04".to_vec()),
    ]
}

fn options() -> impl Strategy<Value = Session> {
    let boards = proptest::sample::select(vec!["4x4", "6x6", "4x6", "8x8", "8x7"]);
    let levels = proptest::sample::select(Level::ALL.to_vec());
    (
        boards,
        proptest::sample::select(Rules::ALL.to_vec()),
        proptest::option::of(0u8..=2),
        proptest::option::of(levels.clone()),
        proptest::option::of(levels),
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
        any::<bool>(),
        proptest::option::of(1u32..3),
    )
        .prop_map(
            |(
                board,
                rules,
                players,
                level,
                fox_level,
                hounds_first,
                choose,
                seed,
                classic,
                games,
            )| {
                let board: Board = board.parse().expect("a supported board");
                let setup = Setup {
                    board,
                    rules,
                    fox_start: (!choose).then(|| board.default_fox_start()),
                    first: if hounds_first {
                        Side::Hounds
                    } else {
                        Side::Fox
                    },
                };
                if classic {
                    return Session::Classic(classic::Options {
                        setup,
                        games,
                        seed,
                        level,
                        delay_ms: 0,
                        log: Keeper::default(),
                    });
                }
                Session::Match(Options {
                    rules: setup,
                    kind: GameKind::Fox(FoxFlow::Default),
                    players,
                    names: Vec::new(),
                    games,
                    seed,
                    level,
                    side_levels: [fox_level, None],
                    side: None,
                    delay_ms: 0,
                    think_ms: 1000,
                    log: Keeper::default(),
                })
            },
        )
}

/// Runs one session on a thread, so that a hang fails the test instead of stalling it.
fn run_session(session: Session, input: Vec<u8>) -> Result<String, String> {
    fuzz_common::run_session(input, move |console| match session {
        Session::Classic(options) => classic::run(console, &options).map(drop),
        Session::Match(options) => matchplay::run(console, &FoxFace, &options).map(drop),
    })
}

#[test]
fn random_input_never_breaks_a_session() {
    let mut runner = TestRunner::new(Config {
        cases: fuzz_common::cases(48),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(options(), fuzz_common::stream(line(), 150)),
            |(session, input)| {
                let text = run_session(session, input).map_err(TestCaseError::fail)?;
                // Every session says goodbye: the final score or the 1978 farewell.
                prop_assert!(
                    text.contains("Final score")
                        || text.contains("THANKS FOR THE HUNT")
                        || text.ends_with("Goodbye.\n"),
                    "unexpected ending: {}",
                    &text[text.len().saturating_sub(300)..]
                );
                Ok(())
            },
        )
        .expect("no input breaks a session");
}
