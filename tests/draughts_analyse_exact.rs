//! `tallyho draughts analyse`: the exact line gives the true reason when a
//! position is not exact, and a count of plies reads right ("1 ply").

use std::path::Path;

use assert_cmd::Command;

mod scratch;
use scratch::Scratch;

/// A fresh home for one test, removed when dropped.
fn home(name: &str) -> Scratch {
    Scratch::new(&format!("exact-{name}"))
}

/// `analyse FEN` in a fresh data directory: its lines.
fn analyse(home: &Path, fen: &str) -> Vec<String> {
    analyse_within(home, fen, "1000")
}

/// `analyse FEN --think MS` in a fresh data directory: its lines.
fn analyse_within(home: &Path, fen: &str, think: &str) -> Vec<String> {
    let out = Command::cargo_bin("tallyho")
        .expect("binary built")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .args(["draughts", "analyse", fen, "--think", think, "--ascii"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("ran");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The text after `label`, with the lines wrapped under it joined.
fn line(lines: &[String], label: &str) -> String {
    let Some(at) = lines.iter().position(|l| l.starts_with(label)) else {
        return String::new();
    };
    let mut text = lines[at][label.len()..].trim().to_string();
    for more in lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("            "))
    {
        text.push(' ');
        text.push_str(more.trim());
    }
    text
}

#[test]
fn one_piece_alone_is_not_exact_because_the_other_side_has_none() {
    let home = home("one");
    let lines = analyse(&home, "W:WK1:B");
    assert_eq!(line(&lines, "Score:"), "White wins in 1 ply");
    assert_eq!(
        line(&lines, "Exact:"),
        "White wins with any move, by the rules: Black has no pieces (the endgame \
         database holds positions with pieces of both sides)"
    );
}

#[test]
fn a_side_with_no_move_has_lost_by_the_rules_not_by_the_database() {
    let home = home("none");
    for fen in ["W:W:B1", "B:W5,6,9,10:B1", "W:W29:B25,K22"] {
        let lines = analyse(&home, fen);
        let side = if fen.starts_with('W') {
            "White"
        } else {
            "Black"
        };
        assert_eq!(
            line(&lines, "Exact:"),
            format!("{side} has lost: it has no move (the rules)"),
            "{fen}"
        );
        let searched = line(&lines, "Searched:");
        assert!(
            searched.starts_with("no search: the rules decide it ("),
            "{fen}: {searched}"
        );
        assert!(
            line(&lines, "Position:").starts_with(&format!("{side} to move, ")),
            "{fen}"
        );
    }
}

#[test]
fn more_pieces_than_the_database_holds_says_how_many() {
    let home = home("seven");
    let lines = analyse(&home, "B:WK1:BK28,K32,K2,K3,K4,K5");
    assert_eq!(
        line(&lines, "Exact:"),
        "not known: 7 pieces are on the board, and the endgame database holds at most 5 \
         (6 after `tallyho draughts build-db --pieces 6`)"
    );
    // Where one of six is kept (here in name only), none larger is built.
    let data = home.join("data").join("tallyho");
    std::fs::create_dir_all(&data).expect("data directory made");
    std::fs::write(data.join("draughts-endgame-6-compulsory.bin"), b"").expect("file written");
    let lines = analyse(&home, "B:WK1:BK28,K32,K2,K3,K4,K5");
    assert_eq!(
        line(&lines, "Exact:"),
        "not known: 7 pieces are on the board, and the endgame database holds at most 6"
    );
}

#[test]
fn more_pieces_than_any_database_here_holds_is_the_reason_however_short_the_think() {
    // No database is ready within a millisecond, but none here could hold
    // six pieces anyway: no six-piece one has been built.
    let home = home("six");
    for think in ["1", "1000"] {
        let lines = analyse_within(&home, "B:W18,24,K10:B12,16,K22", think);
        assert_eq!(
            line(&lines, "Exact:"),
            "not known: 6 pieces are on the board, and the endgame database holds at most 5 \
             (`tallyho draughts build-db --pieces 6` builds one of 6)",
            "--think {think}"
        );
    }
    // Three pieces: the database would hold them; it was not ready, and
    // none is kept here, so the line says how to build it once.
    let lines = analyse_within(&home, "B:W18,K10:B12", "1");
    assert_eq!(
        line(&lines, "Exact:"),
        "not known: the endgame database was not ready within --think \
         (`tallyho draughts build-db` builds it once and keeps it, in about two minutes)"
    );
}

#[test]
fn a_position_the_database_decides_says_there_was_no_search() {
    let home = home("decided");
    let lines = analyse_within(&home, "W:WK1:BK32,K28", "10000");
    assert_eq!(
        line(&lines, "Exact:"),
        "White loses in 32 plies (endgame database)"
    );
    let searched = line(&lines, "Searched:");
    assert!(
        searched.starts_with("no search: the endgame database decides it ("),
        "{searched}"
    );
}
