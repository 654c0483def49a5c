//! `tallyho history --pdn` for draughts: the Seven Tag Roster, the mark of
//! optional captures, and a new ballot opening for each game of
//! `--opening random`.

use std::path::Path;

mod draughts_common;
mod scratch;

use draughts_common::{exported, folder, tallyho};

/// Plays `games` games between two people, each resigning at once.
fn resign_games(home: &Path, games: u32, extra: &[&str]) -> String {
    let out = tallyho(home)
        .args([
            "draughts",
            "--players",
            "2",
            "--names",
            "Ann,Bob",
            "--seed",
            "5",
        ])
        .args(["--games", &games.to_string()])
        .args(extra)
        .write_stdin("resign\n".repeat(games as usize))
        .output()
        .expect("ran");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn the_seven_tag_roster_is_written_whole() {
    let home = folder("export", "roster");
    resign_games(&home, 1, &[]);
    let text = exported(&home);
    let tags: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(
        tags[..7],
        ["Event", "Site", "Date", "Round", "Black", "White", "Result"],
        "{text}"
    );
    assert!(
        text.contains("[Site \"?\"]\n") && text.contains("[Round \"?\"]\n"),
        "{text}"
    );
    assert!(!text.contains("Captures"), "{text}");
}

#[test]
fn a_game_with_optional_captures_says_so() {
    let home = folder("export", "optional");
    resign_games(&home, 1, &["--captures", "optional"]);
    let text = exported(&home);
    assert!(
        text.contains("[GameType \"21\"]\n[Captures \"optional\"]\n"),
        "{text}"
    );
}

#[test]
fn a_random_opening_is_drawn_for_each_game() {
    let home = folder("export", "random");
    let shown = resign_games(&home, 4, &["--opening", "random"]);
    let text = exported(&home);
    let openings: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("[Opening \"ballot "))
        .collect();
    assert_eq!(openings.len(), 4, "{text}");
    let mut distinct = openings.clone();
    distinct.sort();
    distinct.dedup();
    assert!(
        distinct.len() >= 3,
        "one opening for the session: {openings:?}"
    );
    // Each game's first board is its own opening's: White to move after
    // three moves, from squares that differ game to game.
    let questions: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("Move from"))
        .collect();
    assert_eq!(questions.len(), 4, "{shown}");
    assert!(
        questions.iter().any(|q| *q != questions[0]),
        "{questions:?}"
    );
    // Each game names its opening before its first board, as the export does.
    let said: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("Ballot opening "))
        .collect();
    assert_eq!(said.len(), 4, "{shown}");
    for (line, tag) in said.iter().zip(&openings) {
        let number = tag
            .trim_start_matches("[Opening \"ballot ")
            .split(['"', ':', ' '])
            .next();
        let number = number.expect("a number");
        assert!(
            line.starts_with(&format!("Ballot opening {number}:")),
            "{line} / {tag}"
        );
    }
}
