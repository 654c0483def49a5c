//! The command line end to end: options, colour decisions, exit statuses and
//! closed pipes, through the real binary.

use std::io::{Read, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

mod scratch;
use scratch::Scratch;

fn tallyho() -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    let home = std::env::temp_dir().join(format!("tallyho-cli-{}", std::process::id()));
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TALLYHO_HISTORY")
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"));
    cmd
}

const TWO: [&str; 4] = ["--players", "2", "--names", "a,b"];

#[test]
fn a_pipe_gets_letters_and_no_escape_codes() {
    tallyho()
        .args(TWO)
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("8 F X O X O X O X"))
        .stdout(predicate::str::contains("\u{1b}").not());
}

#[test]
fn color_always_colours_a_pipe_and_never_wins_over_the_environment() {
    tallyho()
        .args(TWO)
        .args(["--color", "always"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{1b}["));
    tallyho()
        .args(TWO)
        .env("CLICOLOR_FORCE", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}["));
    tallyho()
        .args(TWO)
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}").not());
    tallyho()
        .args(TWO)
        .args(["--color", "never"])
        .env("CLICOLOR_FORCE", "1")
        .write_stdin("")
        .assert()
        .stdout(predicate::str::contains("\u{1b}").not());
}

#[test]
fn bad_options_are_usage_errors_with_status_2() {
    tallyho()
        .args(["--board", "9x5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a board 9 squares wide is not supported: the width must be 4 to 8",
        ));
    tallyho()
        .args(["--fox-start", "B8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: invalid value 'B8' for '--fox-start <SQUARE|choose>': the fox cannot start on B8: it starts on a dark square of the top row (A8, C8, E8, G8)",
        ));
    tallyho()
        .args(["--names", "a,b,c"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value 'a,b,c' for '--names <A,B>': give one or two names",
        ));
    tallyho()
        .args(["--rules", "chess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a rule set"));
}

#[test]
fn every_bad_option_value_is_refused_in_one_style() {
    // clap's own refusals and the games' own read alike.
    for args in [
        &["fish", "--penguins", "5"][..],
        &["fish", "--level", "god"],
        &["--level", "god", "draughts"],
        &["--board", "9x9"],
        &["fish", "--board", "3x3"],
    ] {
        tallyho()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error: invalid value '"));
    }
}

#[test]
fn options_before_a_command_are_read_by_it() {
    let log = Scratch::unmade("pdn.jsonl");
    std::fs::write(&log, "").expect("an empty log");
    for args in [["--pdn", "history"], ["history", "--pdn"]] {
        tallyho()
            .args(args)
            .arg("--history")
            .arg(&log)
            .assert()
            .code(0)
            .stderr(predicate::str::contains("holds no draughts games"));
    }
    tallyho()
        .args(["--players", "2", "history"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--players means nothing to `tallyho history`",
        ));
}

#[test]
fn an_option_a_command_does_not_use_is_refused_for_that_whatever_its_value() {
    // Values that would be wrong anyway: the option's place is the news.
    for (args, said) in [
        (
            &["draughts", "--fox-level", "greedy"][..],
            "--fox-level means nothing to `tallyho draughts`",
        ),
        (
            &["--fox-level", "greedy", "draughts"],
            "--fox-level means nothing to `tallyho draughts`",
        ),
        (
            &["draughts", "perft", "--think", "abc", "3"],
            "--think means nothing to `tallyho draughts perft`",
        ),
    ] {
        tallyho()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(format!("error: {said}")));
    }
    // Where the option belongs, its value is what is wrong.
    tallyho()
        .args(["fox", "--fox-level", "greedy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"greedy\" is not a level"));
    tallyho()
        .args(["draughts", "--threads", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("write a number from 1 to 256"));
}

#[test]
fn the_game_takes_threads_for_its_computer_players() {
    for args in [
        &["draughts", "--threads", "1"][..],
        &["--threads", "2", "draughts"],
    ] {
        tallyho()
            .args(args)
            .args(["--players", "0", "--levels", "overpowered,greedy"])
            .args(["--think", "50", "--color", "never"])
            .write_stdin("n\n")
            .assert()
            .code(0)
            .stdout(predicate::str::contains("Final score"));
    }
}

#[test]
fn negative_numbers_are_refused_as_numbers() {
    for (args, said) in [
        (
            &["draughts", "--game", "-1"][..],
            "write a whole number, 1 or more",
        ),
        (
            &["draughts", "build-db", "--pieces", "-1"],
            "write a number from 2 to 6",
        ),
        (&["draughts", "perft", "-1"], "write a number from 1 to 40"),
        (&["replay", "-1"], "write a whole number, 1 or more"),
        // Zero, below the least, in the same words as below zero.
        (&["replay", "0"], "write a whole number, 1 or more"),
        (
            &["draughts", "--game", "0"],
            "write a whole number, 1 or more",
        ),
        // Options whose values are not numbers say what they want.
        (&["draughts", "--opening", "-1"], "\"-1\" is not an opening"),
        (
            &["draughts", "analyse", "-1"],
            "\"-1\" is not a FEN position",
        ),
        (
            &["serve", "--ssh-port", "-1"],
            "a port is a number from 0 to 65535",
        ),
    ] {
        tallyho()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
}

#[test]
fn options_set_the_board_rules_and_first_mover() {
    tallyho()
        .args(TWO)
        .args(["--board", "8x7", "--first", "hounds", "--rules", "escape"])
        .write_stdin("help\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Hound (b) next"))
        .stdout(predicate::str::contains("7 X F X O X O X O"))
        .stdout(predicate::str::contains("(8x7 board, escape rules)"));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(TWO)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("started");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    // Whether or not tallyho is still reading, a broken pipe here is fine.
    let _ = stdin.write_all("help\n".repeat(1000).as_bytes());
    drop(stdin);
    let status = child.wait().expect("exited");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read");
    assert!(status.success(), "status {status:?}, stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// tallyho with these arguments, its stdin a pipe to write to, and what it
/// writes to stdout coming through a channel as it comes.
struct Piped {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    said: std::sync::mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl Piped {
    fn start(args: &[&str]) -> Piped {
        let mut child = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(args)
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("started");
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, said) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut chunk) {
                if tx.send(chunk[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Piped {
            child,
            stdin,
            said,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin
            .as_mut()
            .expect("stdin open")
            .write_all(bytes)
            .expect("sent");
    }

    /// Waits (20 s at most) until stdout has said `answer`, sending nothing.
    fn wait_for(&mut self, answer: &str) {
        while !String::from_utf8_lossy(&self.seen).contains(answer) {
            match self.said.recv_timeout(std::time::Duration::from_secs(20)) {
                Ok(more) => self.seen.extend(more),
                Err(_) => {
                    let _ = self.child.kill();
                    panic!(
                        "no {answer:?} without more input: {}",
                        String::from_utf8_lossy(&self.seen)
                    );
                }
            }
        }
    }

    /// Closes stdin and waits for the end: the exit code and all it said.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("exited");
        // The reader's channel closes when stdout does.
        self.seen.extend(self.said.iter().flatten());
        (
            status.code(),
            String::from_utf8_lossy(&self.seen).into_owned(),
        )
    }
}

#[test]
fn a_line_ended_by_a_lone_cr_is_answered_before_more_input_comes() {
    // A program that sends CR for Enter, as a terminal does, and waits for
    // the answer before it sends the next line.
    let mut game = Piped::start(&["--no-history"]);
    game.send(b"xyzzy\r");
    game.wait_for("\"xyzzy\" is not on the menu");
    // The LF of a CRLF that follows is the CR's pair, not an empty answer.
    game.send(b"\n6\r\n");
    let (code, seen) = game.finish();
    assert_eq!(seen.matches("is not on the menu").count(), 1, "{seen}");
    assert!(seen.contains("Goodbye."), "{seen}");
    // One line was refused: status 3.
    assert_eq!(code, Some(3), "{seen}");

    // A byte order mark opening a script (a file saved on Windows) is no
    // part of its first line, in play as in `analyse -`.
    tallyho()
        .args(["--no-history"])
        .write_stdin("\u{feff}6\r\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("not on the menu").not());
    tallyho()
        .args(["analyse", "-", "--board", "4x4"])
        .write_stdin("\u{feff}A4/B1,D1/fox\n")
        .assert()
        .success();

    // `analyse -` reads its lines the same way.
    let mut analyse = Piped::start(&["analyse", "-", "--board", "4x4"]);
    analyse.send(b"A4/B1,D1/fox\r");
    analyse.wait_for("\"winner\"");
    let (code, seen) = analyse.finish();
    assert_eq!((code, seen.lines().count()), (Some(0), 1), "{seen}");
}

#[test]
fn analyse_reports_the_solved_start_in_json() {
    let output = tallyho()
        .args(["analyse", "--board", "4x4", "--rules", "standard", "--json"])
        .output()
        .expect("ran");
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["winner"], "hounds");
    assert_eq!(json["plies"], 8);
    assert_eq!(json["best"], serde_json::json!(["A4-B3"]));
    assert_eq!(json["reachable"], 110);
    assert!(json["possible_games"].is_string());
    assert_eq!(json["board"], "4x4");
    assert_eq!(json["rules"], "standard");
    assert_eq!(json["position"], "A4/B1,D1/fox");
}

#[test]
fn analyse_text_names_the_verdict_best_moves_and_counts() {
    tallyho()
        .args(["analyse", "E8/B1,D1,F1,H1/fox"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Verdict:     hounds win in"))
        .stdout(predicate::str::contains("Best moves:"))
        .stdout(predicate::str::contains("Reachable:"))
        .stdout(predicate::str::contains("possible games"))
        .stdout(predicate::str::contains("Solved in:"));
}

#[test]
fn analyse_refuses_bad_positions_with_status_2() {
    let cases = [
        ("E8/B1,B1,F1,H1/fox", "two pieces stand on B1"),
        ("E8/B1,D1,F1,H2/fox", "H2 is a light square"),
        ("E8/B1,D1,F1/fox", "this board needs 4 hounds, not 3"),
        ("E9/B1,D1,F1,H1/fox", "\"E9\" is off the board"),
        ("junk", "\"junk\" is not a position"),
        (
            "111111/122221/123321/123321/122221/111111 place:1/1 next:P",
            "try tallyho fish analyse",
        ),
        ("E8/B1,D1,F1,H1/cat", "\"cat\" is not a side to move"),
    ];
    for (position, message) in cases {
        tallyho()
            .args(["analyse", position])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn analyse_reports_a_finished_position_with_status_0() {
    let cases = [
        (
            "D1/B3,D3,F3,H3/hounds",
            "the fox has won: the fox reached row 1",
        ),
        (
            "A8/B7,D1,F1,H1/fox",
            "the hounds have won: the fox is trapped",
        ),
    ];
    for (position, result) in cases {
        tallyho()
            .args(["analyse", position])
            .assert()
            .code(0)
            .stdout(predicate::str::contains(result));
    }
}

#[test]
fn help_and_version_at_every_level() {
    tallyho()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("tallyho "));
    for args in [
        vec!["--help"],
        vec!["classic", "--help"],
        vec!["analyse", "--help"],
    ] {
        tallyho()
            .args(&args)
            .assert()
            .success()
            .stdout(predicate::str::contains("--board"))
            .stdout(predicate::str::contains("--rules"))
            .stdout(predicate::str::contains("--color"));
    }
    for args in [vec!["history", "--help"], vec!["replay", "--help"]] {
        tallyho()
            .args(&args)
            .assert()
            .success()
            .stdout(predicate::str::contains("--history"))
            .stdout(predicate::str::contains("--board").not());
    }
    tallyho()
        .arg("--help")
        .assert()
        .stdout(predicate::str::contains("--players"))
        .stdout(predicate::str::contains("--fox-level"))
        .stdout(predicate::str::contains("--delay"))
        .stdout(predicate::str::contains("--history"));
}

#[test]
fn help_is_wrapped_at_word_boundaries_to_80_columns_off_a_terminal() {
    for command in [
        &[][..],
        &["classic"],
        &["draughts"],
        &["draughts", "perft"],
        &["fish"],
        &["serve"],
        &["join"],
        &["history"],
    ] {
        for flag in ["--help", "-h"] {
            let out = tallyho().args(command).arg(flag).output().expect("ran");
            assert!(out.status.success(), "{command:?} {flag}");
            let text = String::from_utf8(out.stdout).expect("text");
            // The one word longer than a line is fish's example position.
            let long: Vec<&str> = text
                .lines()
                .filter(|l| l.chars().count() > 80 && !l.contains("'.1111./"))
                .collect();
            assert!(long.is_empty(), "{command:?} {flag}: {long:#?}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_session_and_another_seed_another() {
    let watch = |seed: &str| {
        tallyho()
            .args([
                "--players",
                "0",
                "--level",
                "rubbish",
                "--games",
                "3",
                "--no-history",
                "--seed",
                seed,
            ])
            .output()
            .expect("ran")
            .stdout
    };
    assert_eq!(watch("42"), watch("42"));
    assert_ne!(watch("42"), watch("43"));
}

#[test]
fn an_option_goes_before_or_after_its_command_and_nowhere_else() {
    // Before the command, it still means what it says.
    let json = |args: &[&str]| {
        let out = tallyho().args(args).output().expect("ran");
        assert!(out.status.success(), "{args:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("json")
    };
    let before = json(&["--board", "6x6", "analyse", "--json"]);
    let after = json(&["analyse", "--board", "6x6", "--json"]);
    assert_eq!(before["board"], "6x6");
    assert_eq!(before, after);
    // The tools' own options too: the engine's and the database's.
    tallyho()
        .args(["--no-book", "draughts", "engine"])
        .write_stdin("isready\nquit\n")
        .assert()
        .success()
        .stdout("readyok\n");
    tallyho()
        .args(["--pieces", "9", "draughts", "build-db"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("write a number from 2 to 6"));
    // Where it means nothing, it is refused by name.
    for (args, option) in [
        (&["--players", "2", "history"][..], "--players"),
        (&["analyse", "--history", "x.jsonl"][..], "--history"),
        (&["--level", "cunning", "replay", "1"][..], "--level"),
        (&["history", "--board", "4x4"][..], "--board"),
        (&["classic", "--names", "a,b"][..], "--names"),
        (&["draughts", "--pieces", "3"][..], "--pieces"),
        (&["--no-book", "draughts", "perft", "1"][..], "--no-book"),
    ] {
        tallyho()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(option));
    }
    // Each command's help lists its own options only.
    tallyho()
        .args(["history", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--json"))
        .stdout(predicate::str::contains("--players").not())
        .stdout(predicate::str::contains("--board").not());
}

#[test]
fn bounds_and_huge_arguments() {
    tallyho()
        .args(TWO)
        .args(["--delay", "999999999"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--delay"));
    let huge = "x".repeat(100_000);
    let out = tallyho().args(["--board", &huge]).output().expect("ran");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 500,
        "{} bytes of error",
        out.stderr.len()
    );
    let long = "y".repeat(3000);
    let out = tallyho().args(["--board", &long]).output().expect("ran");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 500,
        "{} bytes of error",
        out.stderr.len()
    );
}

#[test]
fn term_dumb_gets_no_colour() {
    tallyho()
        .args(TWO)
        .env("TERM", "dumb")
        .env("CLICOLOR_FORCE", "0")
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{1b}").not());
}

#[test]
fn names_must_be_visible_and_not_the_computers() {
    for (names, why) in [
        ("\u{200b},b", "invisible"),
        ("a\u{202e}x,b", "invisible"),
        ("a,A", "different names"),
    ] {
        tallyho()
            .args(["--players", "2", "--names", names])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
    tallyho()
        .args(["--players", "1", "--names", "swtp"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("computer's name"));
    // Chosen at the menu, a game against the computer is refused the same.
    for game in [None, Some("capture"), Some("fish")] {
        let name = if game == Some("fish") { "ai" } else { "swtp" };
        let said = format!("--names gave the computer's name, {}", name.to_uppercase());
        tallyho()
            .args(game)
            .args(["--no-history", "--names", name])
            .write_stdin("2\nquit\n")
            .assert()
            .code(3)
            .stdout(predicate::str::contains(said));
    }
}

#[test]
fn analyse_reads_positions_from_standard_input_one_json_object_a_line() {
    let out = tallyho()
        .args(["analyse", "-", "--board", "7x8", "--rules", "capture"])
        .write_stdin(&b"D8/A1,C1,E1,G1/fox\n\nnonsense\nx/A1,E1/fox\n\xff\xfe\n"[..])
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 4);
    // Bytes that are no text are blamed on their encoding.
    assert_eq!(lines[3]["error"], "the line is not valid UTF-8 text");
    assert_eq!(lines[0]["winner"], "hounds");
    assert_eq!(lines[0]["plies"], 14);
    assert_eq!(lines[1]["input"], "nonsense");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("is not a position")
    );
    // A finished position is answered with its result, not refused.
    assert_eq!(lines[2]["over"], true);
    assert_eq!(lines[2]["how"], "fox-captured");
    // A hundred lines each ended by a lone CR: a hundred answers, however
    // many fit the line cap together.
    let out = tallyho()
        .args(["analyse", "-", "--board", "4x4"])
        .write_stdin("A4/B1,D1/fox\r".repeat(100))
        .output()
        .expect("ran");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(said.matches("\"winner\"").count(), 100, "{said}");
    assert!(out.status.success(), "{said}");
    // All good: status 0.
    tallyho()
        .args(["analyse", "-"])
        .write_stdin("E8/B1,D1,F1,H1/fox\r\nA8/B1,D1,F1,H1/hounds\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "\"position\":\"A8/B1,D1,F1,H1/hounds\"",
        ));
}

#[test]
fn a_classic_game_is_logged_with_swtp_and_replays_the_fox_that_cannot_move() {
    let log = Scratch::unmade("classic.jsonl");
    let script = std::fs::read_to_string("tests/transcripts/classic_fox_trapped.txt")
        .expect("the transcript's script");
    let input: String = script.lines().skip(1).map(|l| format!("{l}\n")).collect();
    tallyho()
        .args(["classic", "--seed", "1", "--history"])
        .arg(&log)
        .write_stdin(input)
        .assert()
        .code(0);
    let json = tallyho()
        .args(["history", "--json", "--history"])
        .arg(&log)
        .output()
        .expect("history ran");
    let json = String::from_utf8_lossy(&json.stdout);
    assert!(json.contains("\"name\":\"SWTP\""), "{json}");
    assert!(json.contains("\"name\":\"YOU\""), "{json}");
    let replay_of = |log: &std::path::Path| {
        let replay = tallyho()
            .args(["replay", "1", "--history"])
            .arg(log)
            .output()
            .expect("replay ran");
        String::from_utf8_lossy(&replay.stdout).into_owned()
    };
    let replay = replay_of(&log);
    assert!(replay.contains("I CAN'T MOVE.\nYOU WIN!"), "{replay}");
    assert!(replay.contains("I MOVED FROM 8,1"), "{replay}");
    assert!(replay.contains("YOU MOVED FROM"), "{replay}");
    // The person's name lost (a record written by hand): the person is
    // called by the side, never "I" as the computer is, nor a blank.
    let (yours, mine) = (
        replay.matches("YOU MOVED FROM").count(),
        replay.matches("I MOVED FROM").count(),
    );
    let text = std::fs::read_to_string(&log).expect("log");
    for blank in ["", "   "] {
        std::fs::write(
            &log,
            text.replace("\"name\":\"YOU\"", &format!("\"name\":\"{blank}\"")),
        )
        .expect("written");
        let replay = replay_of(&log);
        assert_eq!(
            replay.matches("HOUNDS MOVED FROM").count(),
            yours,
            "{replay}"
        );
        assert_eq!(replay.matches("I MOVED FROM").count(), mine, "{replay}");
        let history = tallyho()
            .args(["history", "--history"])
            .arg(&log)
            .output()
            .expect("history ran");
        let history = String::from_utf8_lossy(&history.stdout);
        assert!(history.contains("Computer (hounds)"), "{history}");
    }
}

/// Every bad value is refused in one style, whether clap or tallyho refuses
/// it: the option, the value, and what to write instead, with status 2.
#[test]
fn bad_values_are_refused_in_one_style() {
    let cases: [&[&str]; 6] = [
        &["fish", "--penguins", "5"],
        &["fish", "--think", "0"],
        &["--level", "god"],
        &["draughts", "--opening", "999"],
        &["replay", "abc"],
        &["draughts", "build-db", "--pieces", "7"],
    ];
    for args in cases {
        let out = assert_cmd::Command::cargo_bin("tallyho")
            .expect("binary built")
            .args(args)
            .output()
            .expect("ran");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8(out.stderr).expect("utf-8");
        let value = args[args.len() - 1];
        assert!(
            said.starts_with(&format!("error: invalid value '{value}' for '")),
            "{args:?}: {said}"
        );
        assert!(said.contains(": write "), "{args:?}: {said}");
        assert!(!said.contains("For more information"), "{args:?}: {said}");
        assert!(!said.contains(" is not in "), "{args:?}: {said}");
    }
    // Six pieces is the largest endgame database there is.
    let out = assert_cmd::Command::cargo_bin("tallyho")
        .expect("binary built")
        .args(["draughts", "build-db", "--pieces", "7"])
        .output()
        .expect("ran");
    let said = String::from_utf8(out.stderr).expect("utf-8");
    assert!(said.contains("write a number from 2 to 6"), "{said}");
}

/// A full standard output fails every command, named as such; build-db
/// with the path it built at, after its progress on standard error.
#[test]
fn a_full_standard_output_is_named_as_such() {
    let home = Scratch::new("stdout-full");
    for args in [
        &["--players", "0", "--games", "1"][..],
        &["history"],
        &["fish", "--players", "0", "--games", "1"],
        &["draughts", "perft", "2"],
        &["draughts", "build-db", "--pieces", "2"],
    ] {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = StdCommand::new(env!("CARGO_BIN_EXE_tallyho"))
            .args(args)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("ran");
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        let last = said.lines().last().unwrap_or_default();
        assert_eq!(
            last, "error: cannot write to standard output: No space left on device (os error 28)",
            "{args:?}: {said}"
        );
    }
}

#[test]
fn a_refused_line_is_echoed_escaped_and_a_blank_name_is_called_blank() {
    let input: &[u8] = b"1\n\xe3\x80\x80\na\x00b\n\x1b]0;x\x07\n\xff\nA\xe3\x85\xa4n\nO'Brien \"A\\B\"\nAnn\nquit\n";
    let out = tallyho()
        .arg("--no-history")
        .write_stdin(input)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let asked = "What should Player 1 be called (starts as fox)? ";
    for said in [
        format!("{asked}\\u{{3000}}\nA name cannot be blank.\n"),
        format!("{asked}a\\u{{0}}b\nThat line holds control characters; type plain text.\n"),
        format!(
            "{asked}\\u{{1b}}]0;x\\u{{7}}\nThat line holds control characters; type plain text.\n"
        ),
        format!("{asked}\u{fffd}\nThat line is not valid UTF-8 text; type plain text.\n"),
        // A Hangul filler draws as nothing: echoed escaped, and refused.
        format!("{asked}A\\u{{3164}}n\nA name cannot hold invisible characters such as U+3164.\n"),
        // Quotes and backslashes are echoed as typed: only what could
        // control a terminal is escaped.
        format!("{asked}O'Brien \"A\\B\"\n"),
    ] {
        assert!(stdout.contains(&said), "{said:?} not in:\n{stdout}");
    }
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert!(!stdout.contains("full-width"), "{stdout}");
}

#[test]
fn with_two_players_undo_takes_back_the_movers_own_move_and_the_reply() {
    let out = tallyho()
        .args(["--players", "2", "--names", "A,B", "--no-history"])
        .write_stdin("B7\nundo\nD1 C2\nundo\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    for said in [
        "Move (B1, D1, F1, H1)? undo\nThere is no move of yours to take back.\n",
        "Move fox to (A6, C6, A8, C8)? undo\nTook back D1-C2.\nTook back A8-B7.\n",
    ] {
        assert!(stdout.contains(said), "{said:?} not in:\n{stdout}");
    }
    // Back at the start: the fox's first question again.
    let after = stdout
        .split("Took back A8-B7.\n")
        .nth(1)
        .unwrap_or_default();
    assert!(after.contains("Move fox to (B7)? quit\n"), "{stdout}");
}

#[test]
fn a_bare_enter_at_a_move_prompt_is_reminded_not_refused() {
    let two_players = || {
        let mut cmd = tallyho();
        cmd.args([
            "draughts",
            "--players",
            "2",
            "--names",
            "A,B",
            "--no-history",
        ]);
        cmd
    };
    let out = two_players().write_stdin("\nquit\n").assert().code(0);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.contains("Type a square from the list, a whole move like 11-15"),
        "{said}"
    );
    // A bad square still counts as a refused line.
    two_players().write_stdin("99\nquit\n").assert().code(3);
}

/// `tallyho ARGS --no-history` fed `input`: its status and what it said.
fn run(args: &[&str], input: &str) -> (Option<i32>, String) {
    let out = tallyho()
        .args(args)
        .arg("--no-history")
        .write_stdin(input)
        .output()
        .expect("ran");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A bare Enter at any question, not only a move prompt, is reminded what
/// to type and not counted as a refused line: the menu, the side question,
/// and the 1978 program's move prompt.
#[test]
fn a_bare_enter_is_reminded_at_every_question() {
    let (code, said) = run(&["draughts"], "\n\n3\n");
    assert_eq!(code, Some(0), "{said}");
    let (code, said) = run(&["classic"], "NO\n\nquit\n");
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("TYPE LINE, THEN COLUMN, LIKE 1,2"), "{said}");
    let one = [
        "draughts",
        "--players",
        "1",
        "--names",
        "Ann",
        "--level",
        "rubbish",
    ];
    let (code, said) = run(&one, "\nquit\n");
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("Type black or white."), "{said}");
    assert!(!said.contains("\"\""), "{said}");
    // Junk there is still refused.
    let (code, _) = run(&["draughts"], "\njunk\n3\n");
    assert_eq!(code, Some(3));
}

/// `q` alone at a move prompt does not end the game (a slip of one letter):
/// it is reminded to type quit in full, and not counted as refused.
#[test]
fn q_alone_at_a_move_prompt_does_not_end_the_game() {
    let two = ["draughts", "--players", "2", "--names", "Ann,Bob"];
    let (code, said) = run(&two, "q\n11-15\nquit\n");
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("To leave the game, type quit in full."),
        "{said}"
    );
    assert!(said.contains("1. Ann moved 11-15."), "{said}");
    let (code, said) = run(&["classic"], "NO\nq\n1,2 2,3\nquit\n");
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("TO LEAVE THE GAME, TYPE QUIT IN FULL."),
        "{said}"
    );
    assert!(said.contains("YOU MOVED FROM 1,2 TO 2,3"), "{said}");
}

#[test]
fn a_refusal_quotes_at_most_forty_columns_of_what_was_typed() {
    let invisible = "\u{200b}".repeat(33);
    let long = "x".repeat(99);
    let out = tallyho()
        .args(TWO)
        .write_stdin(format!(
            "{invisible}\n{long}\n\"{long}\nx y \"{}\nA8\nquit\n",
            "x".repeat(60)
        ))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    // Each character that draws as nothing is shown as its escape, and
    // counted as wide as that.
    let quoted = format!("\"{}…\" is not a square", "\\u{200b}".repeat(4));
    assert!(said.contains(&quoted), "{said}");
    let quoted = format!("\"{}…\" is neither a square nor a command", "x".repeat(39));
    assert!(said.contains(&quoted), "{said}");
    // A double quote typed among the rest changes nothing.
    let quoted = format!("\"\"{}…\" is not a square", "x".repeat(38));
    assert!(said.contains(&quoted), "{said}");
    let quoted = format!("\"x y \"{}…\" has too many parts", "x".repeat(34));
    assert!(said.contains(&quoted), "{said}");
    // The fox the prompt chose for the player is not "already chosen".
    assert!(
        said.contains("A8 is the only piece that can move: now name where it goes."),
        "{said}"
    );
}

#[test]
fn a_menu_entry_is_chosen_by_its_first_word() {
    let out = tallyho().write_stdin("play\nquit\n").output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("is not on the menu"), "{said}");
}
