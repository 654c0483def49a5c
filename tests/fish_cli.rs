//! `tallyho fish` through the real binary: analyse, options where they
//! belong, and a fish game in the log, listed and replayed.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

mod scratch;
use scratch::Scratch;

/// A fresh folder for one test and the log in it. The folder is removed
/// when the guard drops: bind it (`let (_dir, log)`) for the whole test.
fn log_path(name: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new(&format!("fish-{name}"));
    let log = dir.join("history.jsonl");
    (dir, log)
}

fn tallyho(log: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tallyho").expect("binary built");
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TALLYHO_HISTORY", log)
        .env("HOME", log.parent().expect("in a folder"));
    cmd
}

/// The assignment's example state, P to move.
const EXAMPLE: &str = ".1111./..2221/12..21/123.21/122221/111111 P:1,2 A:4,3 next:P";

#[test]
fn analyse_gives_the_best_move_and_says_whether_it_is_exact() {
    let (_dir, log) = log_path("analyse");
    let out = tallyho(&log)
        .args(["fish", "analyse", EXAMPLE, "--json", "--think", "300"])
        .output()
        .expect("ran");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["to_move"], "P");
    assert!(v["best"].as_str().expect("a move").starts_with("1,2-"));
    assert!(v["exact"].is_boolean());
    // Few tiles left: the value is exact.
    let small = "1.../.22./.2../1..1 P:1,1 A:4,4 next:P";
    tallyho(&log)
        .args(["fish", "analyse", small])
        .assert()
        .success()
        .stdout(predicate::str::contains("(exact)"))
        .stdout(predicate::str::contains("Best move:"));
}

/// A position where neither penguin can move reads, so it is answered with
/// its final score and status 0, as the fox's and draughts' analysers
/// answer a finished position.
#[test]
fn a_finished_position_is_answered_with_its_score() {
    let (_dir, log) = log_path("over");
    let over = "1.../..../..../...1 P:1,1 A:4,4 next:P";
    let out = tallyho(&log)
        .args(["fish", "analyse", over, "--json"])
        .output()
        .expect("ran");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["over"], true);
    assert_eq!(v["best"], serde_json::Value::Null);
    assert_eq!(v["exact"], true);
    tallyho(&log)
        .args(["fish", "analyse", over])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Best move: none: neither player can move, the game is over",
        ));
}

#[test]
fn bad_positions_and_options_in_the_wrong_place_are_refused() {
    let (_dir, log) = log_path("bad");
    tallyho(&log)
        .args(["fish", "analyse", "\u{1b}]0;x\u{7}"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a position"))
        .stderr(predicate::str::contains("\u{1b}").not());
    // A penguin on a 2- or 3-point tile has moved there, taking a tile
    // (collected by its side, where the points are given).
    for (position, why) in [
        (
            "1111/1221/1221/1111 P:2,2 A:4,4 next:P",
            "1 penguin stands on tiles worth more than 1 point but 0 tiles are taken",
        ),
        (
            ".111/1221/1221/1111 P:2,2 A:4,4 points:-/1 next:A",
            "P has 1 penguin on tiles worth more than 1 point but has collected 0 tiles",
        ),
    ] {
        tallyho(&log)
            .args(["fish", "analyse", position])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
    tallyho(&log)
        .args(["fish", "analyse", EXAMPLE, "--players", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--players"));
    tallyho(&log)
        .args(["fish", "--board", "9x9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--board"));
    tallyho(&log)
        .args(["fish", "--penguins", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--penguins"));
    // Before the command, an option of the game still means it.
    tallyho(&log)
        .args(["--think", "200", "fish", "analyse", EXAMPLE])
        .assert()
        .success();
}

#[test]
fn a_fish_game_is_logged_listed_and_replayed() {
    let (_dir, log) = log_path("logged");
    tallyho(&log)
        .args([
            "fish",
            "--players",
            "0",
            "--level",
            "greedy",
            "--seed",
            "3",
            "--games",
            "1",
            "--board",
            "4x4",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("points: "));
    tallyho(&log)
        .arg("history")
        .assert()
        .success()
        .stdout(predicate::str::contains("fish"))
        // The points, first side's first, beside the winner or the draw.
        .stdout(predicate::str::is_match(r" \d+-\d+ ").expect("a pattern"));
    tallyho(&log)
        .args(["replay", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1. AI placed a penguin on"))
        .stdout(predicate::str::contains("wins!").or(predicate::str::contains("A draw")));
}

#[test]
fn analyse_reads_positions_from_standard_input_one_json_object_a_line() {
    let dir = Scratch::unmade("fish-lines");
    let out = tallyho(&dir.join("history.jsonl"))
        .args(["fish", "analyse", "-", "--think", "200"])
        .write_stdin("1221/2..2/2..2/1221 P:1,1 A:4,4 points:1/1 next:P\r\nnonsense\n\n")
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(2), "a bad line makes status 2");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["to_move"], "P");
    assert_eq!(lines[0]["exact"], true);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap_or("")
            .contains("is not a position")
    );
}

#[test]
fn watching_takes_a_level_for_each_side_through_one_option() {
    let dir = Scratch::new("fish-levels");
    let log = dir.join("history.jsonl");
    tallyho(&log)
        .args(["fish", "--players", "0", "--levels", "greedy,rubbish"])
        .args(["--board", "4x4", "--games", "1", "--seed", "2"])
        .assert()
        .success();
    let json = tallyho(&log)
        .args(["history", "--json"])
        .output()
        .expect("ran");
    let json = String::from_utf8_lossy(&json.stdout);
    assert!(
        json.contains("\"side\":\"P\",\"level\":\"greedy\""),
        "{json}"
    );
    assert!(
        json.contains("\"side\":\"A\",\"level\":\"rubbish\""),
        "{json}"
    );
}

#[test]
fn a_replay_says_where_a_turn_was_skipped() {
    let dir = Scratch::new("fish-skip");
    let log = dir.join("history.jsonl");
    let script =
        std::fs::read_to_string("tests/transcripts/fish_skipped_turn.txt").expect("script");
    let (args, input) = script.split_once('\n').expect("an args line");
    let args: Vec<&str> = args
        .trim_start_matches("args:")
        .split_whitespace()
        .collect();
    let played = tallyho(&log)
        .args(&args)
        .write_stdin(input)
        .output()
        .expect("ran");
    let played = String::from_utf8_lossy(&played.stdout);
    let skipped = played
        .lines()
        .find(|l| l.contains("turn is skipped"))
        .expect("the game skips a turn");
    let replay = tallyho(&log).args(["replay", "1"]).output().expect("ran");
    let replay = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.contains(skipped), "{replay}");
}

#[test]
fn analyse_all_values_every_legal_move() {
    let dir = Scratch::unmade("fish-all");
    let out = tallyho(&dir.join("history.jsonl"))
        .args(["fish", "analyse", "--all", "--json", "--think", "500"])
        .arg("1221/2..2/2..2/1221 P:1,1 A:4,4 points:1/1 next:P")
        .output()
        .expect("ran");
    assert!(out.status.success(), "{out:?}");
    let object: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let moves = object["moves"].as_array().expect("a list of moves");
    assert_eq!(moves.len(), 6, "{object}");
    let values: Vec<i64> = moves
        .iter()
        .map(|m| m["value"].as_i64().unwrap_or(i64::MIN))
        .collect();
    assert!(
        values.windows(2).all(|w| w[0] >= w[1]),
        "best first: {values:?}"
    );
}

/// The history table says a game of points with the winner's points first,
/// whichever seat the winner sat in.
#[test]
fn the_history_table_gives_the_winners_points_first() {
    let (_dir, log) = log_path("table-points");
    tallyho(&log)
        .args([
            "fish",
            "--players",
            "0",
            "--games",
            "4",
            "--level",
            "rubbish",
        ])
        .args(["--seed", "3"])
        .assert()
        .success();
    let out = tallyho(&log).arg("history").output().expect("ran");
    let table = String::from_utf8(out.stdout).expect("utf-8");
    let mut scores = 0;
    for line in table.lines() {
        let Some(points) = line
            .split_whitespace()
            .find(|w| w.split('-').count() == 2 && w.split('-').all(|n| n.parse::<u32>().is_ok()))
        else {
            continue;
        };
        let (a, b) = points.split_once('-').expect("a-b");
        let (a, b): (u32, u32) = (a.parse().expect("a"), b.parse().expect("b"));
        if !line.contains("draw") {
            assert!(a > b, "the winner's points come first: {line}");
        }
        scores += 1;
    }
    assert_eq!(scores, 4, "{table}");
}

/// The points lines at the end of a game come in seat order, Player 1's
/// first, though the seats swap sides every game.
#[test]
fn the_points_lines_come_in_seat_order() {
    let (_dir, log) = log_path("points-order");
    let out = tallyho(&log)
        .args([
            "fish",
            "--players",
            "0",
            "--games",
            "2",
            "--level",
            "rubbish",
        ])
        .args(["--seed", "3", "--no-history"])
        .output()
        .expect("ran");
    let shown = String::from_utf8(out.stdout).expect("utf-8");
    let labels: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("points:"))
        .map(|l| l.split(" points:").next().unwrap_or(""))
        .collect();
    assert_eq!(labels, ["AI's", "ROBOT's", "AI's", "ROBOT's"], "{shown}");
}

#[test]
fn the_logged_seed_deals_the_same_random_tiles_and_game_again() {
    let (dir, first) = log_path("seeded");
    let again = dir.join("again.jsonl");
    let watch = |log: &Path, seed: Option<&str>| {
        let mut cmd = tallyho(log);
        cmd.args(["fish", "--players", "0", "--levels", "rubbish,rubbish"])
            .args(["--tiles", "random", "--games", "1"]);
        if let Some(seed) = seed {
            cmd.args(["--seed", seed]);
        }
        cmd.assert().success();
        let line = std::fs::read_to_string(log).expect("logged");
        serde_json::from_str::<serde_json::Value>(&line).expect("a record")
    };
    // No --seed: one is drawn, and the log keeps it.
    let record = watch(&first, None);
    let seed = record["seed"].as_u64().expect("a seed").to_string();
    let replayed = watch(&again, Some(&seed));
    for field in ["start", "moves", "setup", "outcome"] {
        assert_eq!(record[field], replayed[field], "{field}");
    }
}

#[test]
fn a_logged_score_the_moves_do_not_give_is_damage() {
    let (_dir, log) = log_path("score");
    tallyho(&log)
        .args(["fish", "--players", "0", "--levels", "rubbish,rubbish"])
        .args(["--games", "1", "--seed", "3"])
        .assert()
        .success();
    tallyho(&log).args(["replay", "1"]).assert().success();
    let line = std::fs::read_to_string(&log).expect("logged");
    let mut record: serde_json::Value = serde_json::from_str(&line).expect("a record");
    let score = record["outcome"]["score"]
        .as_str()
        .expect("points")
        .to_string();
    record["outcome"]["score"] = "12-40".into();
    std::fs::write(&log, format!("{record}\n")).expect("written");
    tallyho(&log)
        .args(["replay", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "its moves end with {score} points, but it says \"12-40\""
        )));
}

/// Against the computer the person is P in every game: the help at "Play
/// again?" does not promise a swap of sides.
#[test]
fn play_again_help_against_the_computer_promises_no_swap() {
    let (_dir, log) = log_path("again-help");
    let moves = "1,1\n1,1 2,2\n2,2 3,3\n3,3 4,2\n4,2 3,2\n3,2 4,3\n4,3 4,4\n4,4 1,4\n\
                 1,4 1,3\n1,3 2,4\n2,4 3,4\nhelp\nno\n";
    let out = tallyho(&log)
        .args([
            "fish",
            "--players",
            "1",
            "--names",
            "Ann",
            "--level",
            "rubbish",
        ])
        .args([
            "--board",
            "4x4",
            "--seed",
            "3",
            "--no-history",
            "--color",
            "never",
        ])
        .write_stdin(moves)
        .output()
        .expect("ran");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Play again (yes/no)? help\nType yes to play another game, or no to stop;"),
        "{text}"
    );
    assert!(!text.contains("swapping"), "{text}");
}

/// A server's game its players ended (one left, the other claimed) is
/// replayed with the logged result, not as the points stand.
#[test]
fn a_game_won_otherwise_than_by_points_replays_with_its_logged_result() {
    let (_dir, log) = log_path("abandoned");
    std::fs::write(
        &log,
        concat!(
            r#"{"version":2,"number":5,"date":"2026-12-07T09:49:14Z","game":"fish","#,
            r#""flow":"default","setup":{"board":"6x6","penguins":"1","tiles":"rings"},"#,
            r#""seats":[{"name":"ann","side":"P","level":null},{"name":"bob","side":"A","#,
            r#""level":null}],"outcome":{"winner":"P","how":"abandoned","score":"2-2"},"#,
            r#""plies":6,"start":"111111/122221/123321/123321/122221/111111 place:1/1 next:P","#,
            r#""moves":["1,1","6,6","1,1-1,2","6,6-6,5","1,2-1,3","6,5-6,4"],"seed":null}"#,
            "\n"
        ),
    )
    .expect("log written");
    let replay = tallyho(&log).args(["replay", "5"]).output().expect("ran");
    let replay = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.contains("P, ann won! (abandoned)"), "{replay}");
    assert!(!replay.contains("A draw"), "{replay}");
}
