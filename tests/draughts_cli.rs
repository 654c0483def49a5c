//! `tallyho draughts` end to end, through the real binary: perft, analyse,
//! `--load` and its errors, and the log's games written as PDN and read back.

use std::path::Path;

use assert_cmd::Command;

mod draughts_common;
mod scratch;

use draughts_common::tallyho;
use scratch::Scratch;

/// A folder of its own for one test, removed when dropped.
fn folder(name: &str) -> Scratch {
    draughts_common::folder("draughts", name)
}
use predicates::prelude::*;
use tallyho::games::Rules;
use tallyho::games::draughts::{GameResult, Position, Setup, ballot, fen, pdn, perft};

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("ran");
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn perft_prints_a_line_per_depth() {
    let home = folder("perft");
    let text = stdout(tallyho(&home).args(["draughts", "perft", "6"]));
    let expected: String = [7, 49, 302, 1469, 7361, 36768]
        .iter()
        .enumerate()
        .map(|(d, n)| format!("perft({}) = {n}\n", d + 1))
        .collect();
    assert_eq!(text, expected);
    // From a position, under either capture rule, as the library counts.
    let position = "W:W22,24,K30:B18,19,K3";
    for rule in ["compulsory", "optional"] {
        let rules = Setup::with_captures(rule.parse().unwrap());
        let pos = fen::parse(position).unwrap();
        let text =
            stdout(tallyho(&home).args(["draughts", "perft", "4", position, "--captures", rule]));
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let counts: Vec<String> = (1..=4)
            .map(|d| format!("perft({d}) = {}", perft(&pos, d, rules)))
            .collect();
        assert_eq!(lines, counts, "{rule}");
    }
}

#[test]
fn options_belong_to_their_commands() {
    let home = folder("options");
    tallyho(&home)
        .args(["draughts", "--players", "2", "perft", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--players"));
    tallyho(&home)
        .args(["draughts", "perft", "0"])
        .assert()
        .code(2);
    tallyho(&home)
        .args(["draughts", "perft", "3", "B:W1:B2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("crowning row"));
    tallyho(&home)
        .args([
            "draughts",
            "--game",
            "2",
            "--players",
            "2",
            "--names",
            "a,b",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--game needs --load"));
    // The same beside --opening, which clap lets waive what --game needs.
    tallyho(&home)
        .args(["draughts", "--game", "2", "--opening", "5"])
        .args(["--players", "2", "--names", "a,b"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--game needs --load"));
    tallyho(&home)
        .args(["draughts", "--opening", "7", "--load", "x.pdn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    tallyho(&home)
        .args([
            "draughts",
            "--opening",
            "157",
            "--players",
            "2",
            "--names",
            "a,b",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "for '--opening <N|random>': \"157\" is not an opening",
        ));
    tallyho(&home)
        .args(["draughts", "--players", "1", "--level", "classic"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "rubbish, greedy, cunning or overpowered",
        ));
}

/// A small ending read from standard input is exact at once, as it is on
/// the command line: answered from a database built for it in a tenth of
/// a second, not after the large one is built or read.
#[test]
fn analyse_each_answers_a_small_ending_exactly_at_once() {
    let home = folder("analyse-each-small");
    let text = stdout(
        tallyho(&home)
            .args(["draughts", "analyse", "-", "--think", "600"])
            .write_stdin(
                "B:WK1,K2:BK32
W:WK18:BK14,K10
",
            ),
    );
    let answers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert_eq!(answers[0]["exact"], "loss", "{text}");
    assert_eq!(answers[0]["exact_plies"], 30, "{text}");
    assert_eq!(answers[1]["exact"], "draw", "{text}");
}

/// `draughts analyse -`, as the fox's and fish's: a JSON object a line read,
/// an error object for a line that is no position, and status 2 at the end.
#[test]
fn analyse_reads_positions_from_standard_input_one_a_line() {
    let home = folder("analyse-each");
    let out = tallyho(&home)
        .args(["draughts", "analyse", "-", "--think", "200"])
        .write_stdin("B:W21-32:B1-12\n\nnonsense\r\n\u{feff}W:W5:B1\n")
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: 1 line of standard input was no position to analyse"
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let answers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(answers.len(), 3, "{text}");
    // In the order `--json` writes them, the position first.
    assert!(
        text.starts_with("{\"fen\":\"B:W21,") && text.contains(",\"to_move\":\"black\",\"best\":"),
        "{text}"
    );
    assert_eq!(
        answers[0]["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let legal: Vec<String> = Setup::STANDARD
        .legal_moves(&Position::START)
        .iter()
        .map(ToString::to_string)
        .collect();
    let best = answers[0]["best"].as_str().expect("a best move");
    assert!(legal.iter().any(|m| m == best), "{best}");
    assert_eq!(answers[1]["input"], "nonsense");
    assert!(
        answers[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("is not a FEN position")),
        "{}",
        answers[1]
    );
    // White to move with no move has lost, by the rules; the byte order
    // mark opening its line (files joined end to end) is no part of it.
    assert_eq!(answers[2]["fen"], "W:W5:B1");
    assert_eq!(answers[2]["best"], serde_json::Value::Null);
    assert_eq!(answers[2]["exact"], "loss");
    // The start is out of the database's reach, and says so.
    assert_eq!(
        answers[0]["not_exact"],
        "not known: too many pieces for the endgame database to reach"
    );
}

#[test]
fn analyse_gives_json_with_the_exact_result_where_the_database_reaches() {
    let home = folder("analyse");
    // Half of --think may go to building the three-piece database: 200 ms
    // was too little on a loaded machine (the exact result came back null).
    let text = stdout(tallyho(&home).args([
        "draughts",
        "--think",
        "2000",
        "analyse",
        "B:WK20:BK1,K2",
        "--json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert_eq!(json["exact"], "win");
    assert_eq!(json["not_exact"], serde_json::Value::Null);
    assert_eq!(json["score_kind"], "win");
    assert_eq!(json["to_move"], "black");
    let best = json["best"].as_str().expect("a best move");
    let pos = fen::parse("B:WK20:BK1,K2").unwrap();
    let legal: Vec<String> = Setup::STANDARD
        .legal_moves(&pos)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(legal.iter().any(|m| m == best), "{best}");
    assert_eq!(json["pv"][0], best);
    // Too many pieces for the database: a score, no exact result.
    let text = stdout(tallyho(&home).args([
        "draughts",
        "analyse",
        "B:W21-32:B1-12",
        "--think",
        "100",
        "--json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["exact"], serde_json::Value::Null);
    assert_eq!(
        json["not_exact"],
        "not known: too many pieces for the endgame database to reach"
    );
    assert_eq!(json["score_kind"], "points");
    // Text, with the board.
    let text = stdout(tallyho(&home).args(["draughts", "analyse", "W:W27:B23,1", "--ascii"]));
    assert!(text.contains("Best move:  27x18"), "{text}");
    assert!(text.contains("+---+"));
    tallyho(&home)
        .args(["draughts", "analyse", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a FEN position"));
}

/// Runs `tallyho draughts --load FILE` and returns the error it prints.
/// The error `--load` gives: status 1 for a file that cannot be read, 2 for
/// one that reads but holds no game to play (bad input).
fn load_error(home: &Path, file: &Path, extra: &[&str]) -> String {
    load_error_with(home, file, extra, 2)
}

fn load_error_with(home: &Path, file: &Path, extra: &[&str], status: i32) -> String {
    let out = tallyho(home)
        .args(["draughts", "--players", "2", "--names", "a,b", "--load"])
        .arg(file)
        .args(extra)
        .write_stdin("")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(status), "{out:?}");
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).expect("utf-8")
}

#[test]
fn load_refuses_what_is_no_pdn_game_precisely() {
    let home = folder("load");
    let write = |name: &str, text: &[u8]| {
        let path = home.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let missing = home.join("missing.pdn");
    assert!(load_error_with(&home, &missing, &[], 1).contains("there is no such file"));
    assert!(load_error_with(&home, &home, &[], 1).contains("that is a directory, not a PDN file"));
    let fifo = home.join("fifo.pdn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        assert!(load_error_with(&home, &fifo, &[], 1).contains("not a regular file"));
    }
    let huge = write("huge.pdn", &vec![b' '; 2 << 20]);
    assert!(load_error_with(&home, &huge, &[], 1).contains("larger than 1 MiB (1048576 bytes)"));
    let bad_fen = write("fen.pdn", b"[FEN \"B:W1:B2\"]\n*\n");
    let why = load_error(&home, &bad_fen, &[]);
    assert!(
        why.contains(
            "game 1, \"B:W1:B2\": the FEN tag: a white man stands on 1 (G1), its crowning row"
        ),
        "{why}"
    );
    let illegal = write("illegal.pdn", b"1. 11-15 22-18 2. 9-13 *\n");
    let why = load_error(&home, &illegal, &[]);
    assert!(
        why.contains("game 1, move 2 (Black), \"9-13\": a capture is compulsory: 15x22"),
        "{why}"
    );
    // A jump too long says what the piece can take, as the engine says it.
    let long = write(
        "long.pdn",
        b"[FEN \"B:W14,22,15,24:B1,10,9\"]\n1. 10x19x28x1 *\n",
    );
    let why = load_error(&home, &long, &[]);
    assert!(
        why.contains("\"10x19x28x1\": 10x19x28x1 is no capture here: the piece on 10 can take 10x17x26 or 10x19x28"),
        "{why}"
    );
    // Nothing from the file reaches the terminal raw.
    let escape = write("escape.pdn", b"1. 11-15 \x1b[2J\x07 *\n");
    let why = load_error(&home, &escape, &[]);
    assert!(!why.contains('\u{1b}') && why.contains("\\u{1b}"), "{why}");
    let two = write("two.pdn", b"1. 11-15 *\n1. 9-13 *\n");
    assert!(load_error(&home, &two, &["--game", "3"]).contains("the file holds 2 games; --game 3"));
    // A damaged game elsewhere in the file does not stop a good one.
    let edge = write(
        "edge.pdn",
        b"[Event \"a\"]\n1. 11-15 *\n[Event \"b\"]\n1. 11-15 99-1 *\n",
    );
    // Loaded, then left at once: the run's output.
    let quit_at_once = |file: &Path, extra: &[&str]| {
        tallyho(&home)
            .args(["draughts", "--players", "2", "--names", "a,b"])
            .args(["--games", "1", "--color", "never", "--load"])
            .arg(file)
            .args(extra)
            .write_stdin("quit\n")
            .output()
            .expect("ran")
    };
    let good = quit_at_once(&edge, &["--game", "1"]);
    assert_eq!(good.status.code(), Some(4), "{good:?}");
    assert!(load_error(&home, &edge, &["--game", "2"]).contains("game 2"));
    assert!(load_error(&home, &edge, &["--game", "6"]).contains("the file holds 2 games"));
    let over = write("over.pdn", b"[FEN \"B:W32:B28\"] *");
    assert!(
        load_error(&home, &over, &[])
            .contains("game 1 is over: Black is to move and has no move, and has lost (0-1)")
    );
    let optional = write("optional.pdn", b"[Captures \"optional\"] 1. 11-15 *");
    assert!(
        load_error(&home, &optional, &["--captures", "compulsory"])
            .contains("played with optional captures")
    );
    let empty = write("empty.pdn", b"% nothing\n");
    assert!(load_error(&home, &empty, &[]).contains("the file holds no game"));
    // Without --captures the file's tag sets the rule, and the player is told.
    let first_turn =
        |file: &Path| String::from_utf8_lossy(&quit_at_once(file, &[]).stdout).into_owned();
    let told = first_turn(&optional);
    assert!(
        told.contains("Captures are optional in this game, as its Captures tag says"),
        "{told}"
    );
    let plain = write("plain.pdn", b"1. 11-15 *");
    let plain_turn = first_turn(&plain);
    assert!(!plain_turn.contains("optional"), "{plain_turn}");
    // A game with no Captures tag played on under --captures optional: the
    // player is told the rule, and nothing claims a tag said it.
    let chosen = quit_at_once(&plain, &["--captures", "optional"]);
    let chosen = String::from_utf8_lossy(&chosen.stdout);
    assert!(
        chosen.contains("Captures are optional from here on, as --captures asks"),
        "{chosen}"
    );
    assert!(!chosen.contains("Captures tag"), "{chosen}");
}

#[test]
fn load_names_a_utf16_file_for_what_it_is() {
    let home = folder("utf16");
    let text = "[Event \"Club night\"]\r\n1. 11-15 *\r\n";
    let utf16 = |bom: bool, big: bool| -> Vec<u8> {
        let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
        units
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    for (name, bytes, order) in [
        ("bom.pdn", utf16(true, false), "little"),
        ("plain.pdn", utf16(false, false), "little"),
        ("big.pdn", utf16(true, true), "big"),
        ("big-plain.pdn", utf16(false, true), "big"),
        // Too big too: the encoding is why, and is what is said.
        ("huge.pdn", utf16(true, false).repeat(30_000), "little"),
    ] {
        let file = home.join(name);
        std::fs::write(&file, bytes).unwrap();
        assert_eq!(
            load_error(&home, &file, &[]),
            format!(
                "error: --load {}: the file looks like UTF-16 ({order}-endian); save it as UTF-8\n",
                file.display()
            )
        );
    }
}

#[test]
fn a_latin1_file_keeps_its_letters_and_says_how_it_was_read() {
    let home = folder("latin1");
    let file = home.join("old.pdn");
    std::fs::write(
        &file,
        b"[Event \"x\"]\n[Annotator \"M\xfcller\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    let out = load_and_resign(&home, &file, "1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "is not all UTF-8 (line 2 is the first that is not); what is not is read as Windows-1252"
        ),
        "{stderr}"
    );
    let pdn = stdout(tallyho(&home).args(["history", "--pdn"]));
    assert!(pdn.contains("[Annotator \"Müller\"]"), "{pdn}");
}

#[test]
fn empty_roster_tags_are_written_as_unknown() {
    let home = folder("empty-roster");
    let file = home.join("empty.pdn");
    std::fs::write(
        &file,
        "[Event \"\"]\n[Site \" \"]\n[Date \"\"]\n[Round \"\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    let pdn = loaded_and_resigned(&home, &file, "1");
    assert!(
        pdn.contains("[Event \"tallyho game 1\"]\n[Site \"?\"]\n"),
        "{pdn}"
    );
    assert!(pdn.contains("\n[Round \"?\"]\n"), "{pdn}");
    assert!(
        !pdn.contains("\"\"]") && !pdn.contains("[Date \"?"),
        "{pdn}"
    );
}

/// Loads game `number` of `file`, resigns it at once, and checks the run
/// ended cleanly: the game is then in the log. Returns the run's output.
fn load_and_resign(home: &Path, file: &Path, number: &str) -> std::process::Output {
    let out = tallyho(home)
        .args([
            "draughts",
            "--players",
            "2",
            "--names",
            "a,b",
            "--games",
            "1",
        ])
        .arg("--load")
        .arg(file)
        .args(["--game", number])
        .write_stdin("resign\n")
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    out
}

/// Loads game `number` of `file`, resigns it at once, and returns the game
/// as the log writes it in PDN.
fn loaded_and_resigned(home: &Path, file: &Path, number: &str) -> String {
    load_and_resign(home, file, number);
    let text = stdout(tallyho(home).args(["history", "--pdn"]));
    std::fs::remove_file(home.join("history.jsonl")).expect("the log, removed");
    text
}

/// A club's PDN game of two moves, with its tags, loaded in `home` and
/// resigned: the log's game 1.
fn club_night_played(home: &Path) {
    let file = home.join("club.pdn");
    std::fs::write(
        &file,
        "[Event \"Club night\"]\n[Site \"Leeds\"]\n\n1. 11-15 23-19 *\n",
    )
    .expect("the PDN file is written");
    load_and_resign(home, &file, "1");
}

#[test]
fn a_loaded_games_replay_names_its_rules_not_its_tags() {
    let home = folder("replay-tags");
    club_night_played(&home);
    let text = stdout(tallyho(&home).args(["replay", "1"]));
    // The intro, before the board (wrapped at the terminal's width).
    let intro = text.split("PDN squares").next().expect("some text");
    assert!(intro.starts_with("Game 1, "), "{intro}");
    assert!(intro.contains("captures compulsory"), "{intro}");
    assert!(
        !intro.contains("pdn-tags") && !intro.contains("Club"),
        "{intro}"
    );
    // The tags are still the log's, for its PDN.
    let pdn = stdout(tallyho(&home).args(["history", "--pdn"]));
    assert!(pdn.contains("[Event \"Club night\"]"), "{pdn}");
}

/// A loaded game's tags damaged in the log: the PDN is written with the
/// tags that could be read, and a warning says so.
#[test]
fn damaged_tags_in_the_log_are_warned_of() {
    let home = folder("damaged-tags");
    club_night_played(&home);
    let log = home.join("history.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("[Site"), "{text}");
    std::fs::write(&log, text.replace("[Site", "Site")).unwrap();
    let out = tallyho(&home)
        .args(["history", "--pdn"])
        .output()
        .expect("ran");
    assert!(out.status.success(), "{out:?}");
    let pdn = String::from_utf8_lossy(&out.stdout);
    assert!(pdn.contains("[Event \"Club night\"]"), "{pdn}");
    assert!(!pdn.contains("Leeds"), "{pdn}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("tallyho: warning: game 1's PDN tags in ")
            && said.contains("are damaged: it is written with those that could be read"),
        "{said}"
    );
}

#[test]
fn load_finds_each_game_by_its_number_whatever_lies_between() {
    let home = folder("numbers");
    // A stray line after game a's result is a damaged game of its own:
    // games b and c keep numbers of their own and load.
    let junk = home.join("junk.pdn");
    std::fs::write(
        &junk,
        "[Event \"a\"]\n\n1. 11-15 *\njunk\n[Event \"b\"]\n\n1. 9-13 *\n\n[Event \"c\"]\n\n1. 10-14 *\n",
    )
    .unwrap();
    assert!(loaded_and_resigned(&home, &junk, "1").contains("[Event \"a\"]"));
    let why = load_error(&home, &junk, &["--game", "2"]);
    assert!(
        why.contains("game 2, \"junk\": after the result of game 1, a game begins with its tags or with move 1"),
        "{why}"
    );
    let b = loaded_and_resigned(&home, &junk, "3");
    assert!(b.contains("[Event \"b\"]") && b.contains("1. 9-13 "), "{b}");
    let c = loaded_and_resigned(&home, &junk, "4");
    assert!(
        c.contains("[Event \"c\"]") && c.contains("1. 10-14 "),
        "{c}"
    );
    assert!(load_error(&home, &junk, &["--game", "5"]).contains("the file holds 4 games"));
    // Two files that each begin with a byte order mark, end to end.
    let one = |round: u32| {
        format!("\u{feff}[Event \"E\"]\n[Round \"{round}\"]\n[Result \"*\"]\n\n1. 11-15 23-19 *\n")
    };
    let bom = home.join("bom2.pdn");
    std::fs::write(&bom, one(1) + &one(2)).unwrap();
    for n in ["1", "2"] {
        let text = loaded_and_resigned(&home, &bom, n);
        assert!(text.contains(&format!("[Round \"{n}\"]")), "{text}");
    }
    assert!(load_error(&home, &bom, &["--game", "3"]).contains("the file holds 2 games"));
}

#[test]
fn tags_written_escaped_read_back_the_same() {
    let home = folder("escapes");
    let event_line = |pdn: &str| {
        pdn.lines()
            .find(|l| l.starts_with("[Event "))
            .map(str::to_string)
            .unwrap_or_default()
    };
    // A control character, and a backslash typed before `u{41}`.
    let first = home.join("first.pdn");
    std::fs::write(&first, "[Event \"\u{1b}[31mRED \\\\u{41}\"]\n1. 11-15 *\n").unwrap();
    let once = event_line(&loaded_and_resigned(&home, &first, "1"));
    assert_eq!(once, "[Event \"\\u{1b}[31mRED \\\\u{41}\"]");
    let again = home.join("again.pdn");
    std::fs::write(&again, format!("{once}\n1. 11-15 *\n")).unwrap();
    assert_eq!(event_line(&loaded_and_resigned(&home, &again, "1")), once);
}

#[test]
fn a_players_name_is_escaped_once_in_pdn() {
    let home = folder("name-escapes");
    club_night_played(&home);
    // A name with a control character and a backslash, as a hand-edited
    // or foreign log may hold.
    let log = home.join("history.jsonl");
    let line = std::fs::read_to_string(&log).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    let name = "A\u{1b}[31mnn\\x";
    record["seats"][0]["name"] = serde_json::json!(name);
    std::fs::write(&log, record.to_string() + "\n").unwrap();
    let text = stdout(tallyho(&home).args(["history", "--pdn"]));
    assert!(
        text.lines().any(|l| l == "[Black \"A\\u{1b}[31mnn\\\\x\"]"),
        "{text}"
    );
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text}");
    // And it reads back, as `--load` reads it, to the name the log holds.
    let back = pdn::read(&text, Setup::STANDARD).expect("the PDN reads back");
    assert_eq!(back[0].tag("Black"), Some(name));
}

#[test]
fn an_impossible_date_is_written_unknown_in_pdn_and_warned_of() {
    let home = folder("bad-date");
    club_night_played(&home);
    let log = home.join("history.jsonl");
    let line = std::fs::read_to_string(&log).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    record["date"] = serde_json::json!("2026-13-01T10:00:00Z");
    // The loaded game's own Date tag would stand: this is a game of tallyho's.
    record["setup"]
        .as_object_mut()
        .unwrap()
        .retain(|k, _| k == "captures");
    record["number"] = serde_json::json!(1);
    std::fs::write(&log, format!("{record}\n{record}\n")).unwrap();
    let shown = log.display();
    for (args, said) in [
        (
            &["history", "--pdn"][..],
            format!(
                "tallyho: warning: game 1 (line 1 of {shown}) is dated \"2026-13-01T10:00:00Z\": there is no month 13: months are 01-12\n\
                 tallyho: warning: game 1 (line 2 of {shown}) is dated \"2026-13-01T10:00:00Z\": there is no month 13: months are 01-12\n\
                 tallyho: warning: line 2 of {shown} is numbered 1, as an earlier game is: replay 1 shows the first\n"
            ),
        ),
        (
            &["history", "--pdn", "1"][..],
            format!(
                "tallyho: warning: game 1 (line 1 of {shown}) is dated \"2026-13-01T10:00:00Z\": there is no month 13: months are 01-12\n\
                 tallyho: warning: game 1 is in {shown} more than once, on line 1 and again on line 2: this is line 1's\n"
            ),
        ),
    ] {
        let out = tallyho(&home).args(args).output().expect("ran");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("[Date \"????.??.??\"]\n"), "{text}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), said, "{args:?}");
    }
}

#[test]
fn load_refuses_a_game_too_big_to_keep_in_the_log() {
    let home = folder("big");
    let write = |name: &str, text: &str| {
        let path = home.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let moves = "\n1. 11-15 23-19 *\n";
    let control = write(
        "control.pdn",
        &format!("[Event \"{}\"]\n{moves}", "\u{1}".repeat(200_000)),
    );
    let why = load_error(&home, &control, &[]);
    assert!(
        why.contains("game 1: the value of tag Event is 200000 characters long; a tag's value may be at most 500"),
        "{why}"
    );
    let many: String = (0..60_000).map(|i| format!("[T{i} \"x\"]\n")).collect();
    let many = write("many.pdn", &(many + moves));
    let why = load_error(&home, &many, &[]);
    assert!(
        why.contains("game 1: it has 60000 tags; a game to load may have at most 50"),
        "{why}"
    );
    let name = write("name.pdn", &format!("[{} \"x\"]{moves}", "E".repeat(100)));
    let why = load_error(&home, &name, &[]);
    assert!(
        why.contains(&format!(
            "game 1: the name of tag {}… is 100 characters long; a tag's name may be at most 40",
            "E".repeat(20)
        )),
        "{why}"
    );
    // Moves that go on past the game's end (a third repetition) would make
    // a game as long as the file: refused where it ended.
    let shuffles = write(
        "shuffles.pdn",
        &format!(
            "[FEN \"B:WK32:BK1\"]\n{}*\n",
            "1-5 32-27 5-1 27-32 ".repeat(40_000)
        ),
    );
    let why = load_error(&home, &shuffles, &[]);
    assert!(
        why.contains(
            "game 1 was over after move 4 (White): the same position came round a third time, \
             a draw (1/2-1/2); its moves go on past its end"
        ),
        "{why}"
    );
    // A game at every limit loads, and its record, every character
    // escaped, stays far below the log's 1 MiB a line.
    let most: String = (0..50)
        .map(|i| format!("[T{i:0>39} \"{}\"]\n", "\u{1}".repeat(500)))
        .collect();
    let most = write("most.pdn", &(most + moves));
    load_and_resign(&home, &most, "1");
    let log = std::fs::read_to_string(home.join("history.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 1);
    assert!(log.len() < 256 << 10, "{} bytes", log.len());
    let text = stdout(tallyho(&home).args(["history", "--pdn"]));
    assert_eq!(
        pdn::read(&text, Setup::STANDARD).unwrap()[0].tags.len(),
        50 + 9
    );
}

#[test]
fn load_starts_from_a_published_games_last_position() {
    let home = folder("published");
    // Loy resigned: the game is over, so it is loaded with its result `*`.
    let text = std::fs::read_to_string("tests/data/draughts/published.pdn").unwrap();
    let (head, moves) = text.rsplit_once("[Result \"0-1\"]").unwrap();
    let unfinished = home.join("loy.pdn");
    std::fs::write(
        &unfinished,
        format!("{head}[Result \"*\"]{}", moves.replace("} 0-1", "} *")),
    )
    .unwrap();
    let text = stdout(
        tallyho(&home)
            .args([
                "draughts",
                "--players",
                "2",
                "--names",
                "Ann,Bob",
                "--no-history",
            ])
            .arg("--load")
            .arg(&unfinished)
            .args(["--game", "2"])
            .write_stdin("quit\n"),
    );
    // Loy resigned after 19... 22-17: Black to move, four men and a king down.
    assert!(text.contains("Black (Ann) next"), "{text}");
    let games = pdn::read(
        &std::fs::read_to_string("tests/data/draughts/published.pdn").unwrap(),
        Setup::STANDARD,
    )
    .unwrap();
    let end = games[1].end();
    let holding = |s| end.pieces(s).count_ones();
    use tallyho::games::draughts::Side;
    let line = format!(
        "Black (O): {} men, {} kings.",
        holding(Side::Black) - end.kings(Side::Black).count_ones(),
        end.kings(Side::Black).count_ones()
    );
    assert!(text.contains(&line), "{line}\n{text}");
}

#[test]
fn the_swap_names_who_moves_first_in_the_loaded_game() {
    let home = folder("swap-loaded");
    let file = home.join("white-next.pdn");
    std::fs::write(&file, "[Event \"x\"]\n1. 11-15 23-19 2. 8-11 *\n").unwrap();
    let text = stdout(
        tallyho(&home)
            .args(["draughts", "--players", "2", "--names", "Ann,Bob"])
            .args(["--games", "2", "--no-history", "--load"])
            .arg(&file)
            .write_stdin("resign\nresign\n"),
    );
    // White moves first from the loaded position in each game.
    assert!(
        text.contains("Sides swap: Bob is Black (O), Ann White (X) and moves first."),
        "{text}"
    );
    assert!(text.contains("White (Ann) next"), "{text}");
}

/// A game of Fox and Hounds as the log keeps it, to sit among draughts games.
const FOX_RECORD: &str = r#"{"version":2,"number":1,"date":"2026-01-02T03:04:05Z","game":"fox","flow":"default","setup":{"board":"8x8","rules":"coursework"},"seats":[{"name":"a","side":"fox","level":null},{"name":"b","side":"hounds","level":null}],"outcome":{"winner":"fox","how":"fox-home"},"plies":0,"start":"x","moves":[],"seed":1}"#;

#[test]
fn history_writes_pdn_that_reads_back_to_the_logged_moves() {
    let home = folder("pdn");
    std::fs::write(home.join("history.jsonl"), format!("{FOX_RECORD}\n")).unwrap();
    let play = |args: &[&str], input: &str| {
        tallyho(&home)
            .args([
                "draughts",
                "--players",
                "2",
                "--names",
                "Ann,Bob",
                "--games",
                "1",
            ])
            .args(args)
            .write_stdin(input.to_string())
            .assert()
            .success();
    };
    // 2: a whole game from a set position; 3: a ballot opening, resigned;
    // 4: a draw agreed from the start.
    play(
        &["--load", "tests/data/draughts/endgame.pdn"],
        "10-6\n\n19-15\n8-3\n15-11\n3-7\n11x2\n",
    );
    play(&["--opening", "102"], "24x15\nresign\n");
    play(&[], "11-15\n23-19\ndraw\nyes\n");
    let text = stdout(tallyho(&home).args(["history", "--pdn"]));
    let games = pdn::read(&text, Setup::STANDARD).expect("the PDN reads back");
    assert_eq!(games.len(), 3, "{text}");
    let log = stdout(tallyho(&home).args(["history", "--json"]));
    let records: serde_json::Value = serde_json::from_str(&log).unwrap();
    let logged = |i: usize| -> Vec<String> {
        records[i]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    };
    let names =
        |g: &pdn::PdnGame| -> Vec<String> { g.moves.iter().map(ToString::to_string).collect() };
    // The set position: a FEN tag, and Black's win.
    assert_eq!(names(&games[0]), logged(1));
    assert_eq!(fen::write(&games[0].start), "B:W12:BK10,K19");
    assert_eq!(games[0].result, GameResult::BlackWins);
    assert_eq!(games[0].tag("Black"), Some("Ann"));
    // The loaded game's own Event stays; a game of tallyho's own is named.
    assert_eq!(games[0].tag("Event"), Some("Endgame study"));
    assert_eq!(games[1].tag("Event"), Some("tallyho game 3"));
    assert_eq!(games[1].tag("Site"), Some("?"));
    assert_eq!(games[1].tag("Round"), Some("?"));
    // The ballot game from the usual start, the opening's moves first.
    let opening = ballot::Opening::new(102).unwrap();
    assert_eq!(games[1].start, Position::START);
    let mut expected: Vec<String> = opening.moves().iter().map(ToString::to_string).collect();
    expected.extend(logged(2));
    assert_eq!(names(&games[1]), expected);
    assert_eq!(games[1].result, GameResult::WhiteWins, "Black resigned");
    assert_eq!(games[1].tag("Termination"), Some("resigned"));
    assert_eq!(games[2].result, GameResult::Draw);
    assert_eq!(names(&games[2]), logged(3));
    assert!(text.contains("[GameType \"21\"]"));
    // One game, by its number; a game of another kind, or none, is refused.
    let one = stdout(tallyho(&home).args(["history", "--pdn", "4"]));
    let games = pdn::read(&one, Setup::STANDARD).unwrap();
    assert_eq!((games.len(), games[0].result), (1, GameResult::Draw));
    tallyho(&home)
        .args(["history", "--pdn", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "game 1 is a fox game: only draughts games are written as PDN",
        ));
    tallyho(&home)
        .args(["history", "--pdn", "9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no game 9"));
    tallyho(&home)
        .args(["history", "--pdn", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value '0' for '[N]'"));
    // And the games replay.
    let replay = stdout(tallyho(&home).args(["replay", "2"]));
    assert!(
        replay.contains("Black, Ann won! White has no move left."),
        "{replay}"
    );
    let replay = stdout(tallyho(&home).args(["replay", "3"]));
    assert!(
        replay.contains("White, Bob won! Black resigned."),
        "{replay}"
    );
}

#[test]
fn the_engine_mode_answers_the_line_protocol() {
    let home = folder("engine");
    tallyho(&home)
        .args(["draughts", "engine", "--threads", "1"])
        .write_stdin("isready\nposition startpos\nperft 3\nposition startpos moves 11-15\ngo depth 4\nnonsense\nquit\n")
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .stdout(predicate::str::contains("readyok"))
        .stdout(predicate::str::contains("bestmove "))
        .stdout(predicate::str::contains("perft 3 302"));
}

#[test]
fn analyse_waits_for_the_database_no_longer_than_think_and_says_so() {
    let home = folder("analyse-wait");
    tallyho(&home)
        .args([
            "draughts",
            "analyse",
            "W:W21,22:B1,2",
            "--think",
            "1",
            "--threads",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "not known: the endgame database was not ready within --think",
        ));
    // Where no database could be kept (a file stands where the data folder
    // goes), build-db would not help, so it is not named.
    let nowhere = folder("analyse-wait-nowhere");
    std::fs::write(nowhere.join("data"), "").expect("a file");
    let out = tallyho(&nowhere)
        .args(["draughts", "analyse", "W:W21,22:B1,2", "--think", "1"])
        .output()
        .expect("ran");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not known: the endgame database was not ready within --think\n"),
        "{text}"
    );
    assert!(!text.contains("build-db"), "{text}");
    tallyho(&home)
        .args(["draughts", "analyse", "B:W21-32:B1-12", "--think", "50"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "too many pieces for the endgame database",
        ));
}

#[test]
fn a_server_game_claimed_after_a_player_left_replays_and_exports() {
    // As the server logs a game its winner claimed when the other player
    // had gone: over by no rule, as a resignation is not.
    let home = folder("abandoned");
    let log = home.join("history.jsonl");
    std::fs::write(
        &log,
        concat!(
            r#"{"version":2,"number":1,"date":"2026-12-07T08:48:12Z","game":"draughts","#,
            r#""flow":"default","setup":{"captures":"compulsory"},"seats":[{"name":"alice","#,
            r#""side":"black","level":null},{"name":"bob","side":"white","level":null}],"#,
            r#""outcome":{"winner":"black","how":"abandoned"},"plies":1,"#,
            r#""start":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","#,
            r#""moves":["11-15"],"seed":null}"#,
            "\n"
        ),
    )
    .unwrap();
    let replay = stdout(
        tallyho(&home)
            .arg("replay")
            .arg("1")
            .arg("--history")
            .arg(&log),
    );
    assert!(replay.contains("Black, alice won! (abandoned)"), "{replay}");
    let pdn = stdout(
        tallyho(&home)
            .args(["history", "--pdn", "1", "--history"])
            .arg(&log),
    );
    assert!(pdn.contains("[Termination \"abandoned\"]"), "{pdn}");
    assert!(pdn.contains("1. 11-15 1-0"), "{pdn}");
}

#[test]
fn a_loaded_game_from_a_ballot_openings_position_keeps_its_start_and_tags() {
    let home = folder("loaded-ballot-fen");
    let file = home.join("ballot.pdn");
    // Ballot 22's position (9-13 24-19 6-9), given as a FEN, and a name of
    // the file's own.
    std::fs::write(
        &file,
        "[Opening \"my own name\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\
         [FEN \"W:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,13\"]\n\n\
         1... 23-18 *\n",
    )
    .unwrap();
    let pdn = loaded_and_resigned(&home, &file, "1");
    assert!(pdn.contains("[Opening \"my own name\"]"), "{pdn}");
    assert!(
        pdn.contains(
            "[FEN \"W:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,13\"]"
        ),
        "{pdn}"
    );
    assert!(!pdn.contains("ballot 22"), "{pdn}");
    assert!(!pdn.contains("9-13"), "{pdn}");
}

#[test]
fn history_pdn_says_what_is_wrong_with_the_game_asked_for() {
    let home = folder("pdn-words");
    let log = home.join("history.jsonl");
    let good = concat!(
        r#"{"version":2,"number":1,"date":"2026-12-07T08:48:12Z","game":"draughts","#,
        r#""flow":"default","setup":{"captures":"compulsory"},"seats":[{"name":"alice","#,
        r#""side":"black","level":null},{"name":"bob","side":"white","level":null}],"#,
        r#""outcome":{"winner":"black","how":"resigned"},"plies":1,"#,
        r#""start":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","#,
        r#""moves":["11-15"],"seed":null}"#
    );
    let pdn = |args: &[&str]| {
        tallyho(&home)
            .args(["history", "--pdn"])
            .args(args)
            .arg("--history")
            .arg(&log)
            .output()
            .expect("ran")
    };
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();
    // A draughts game of a flow this release does not know: that is said,
    // not that it is no draughts game.
    std::fs::write(&log, good.replace("\"default\"", "\"later\"") + "\n").unwrap();
    let out = pdn(&["1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("game 1 cannot be written as PDN: the game draughts has no flow"),
        "{}",
        stderr(&out)
    );
    // All of them left out: said so, not that the log holds none.
    let out = pdn(&[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("the one draughts game in"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("holds no draughts games"));
    // Game 2's line damaged: said as `replay 2` says it.
    let damaged = good
        .replace("\"number\":1", "\"number\":2")
        .replace("\"moves\"", "\"mov");
    std::fs::write(&log, format!("{good}\n{damaged}\n")).unwrap();
    let out = pdn(&["2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("game 2 in") && stderr(&out).contains("its line is damaged"),
        "{}",
        stderr(&out)
    );
}
