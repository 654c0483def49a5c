//! `tallyho draughts build-db` when the database cannot be kept: a folder
//! that cannot be written, or a folder where the file goes, is found before
//! the build.

mod scratch;

use std::path::Path;

use scratch::Scratch;

fn home(name: &str) -> Scratch {
    Scratch::new(&format!("build-db-{name}"))
}

/// `build-db --pieces 3` with `home`: status and stderr.
fn build(home: &Path) -> (Option<i32>, String) {
    build_of(home, "3")
}

/// `build-db --pieces N` with `home`: status and stderr.
fn build_of(home: &Path, pieces: &str) -> (Option<i32>, String) {
    let out = assert_cmd::Command::cargo_bin("tallyho")
        .expect("binary built")
        .args(["draughts", "build-db", "--pieces", pieces])
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("ran");
    let err = String::from_utf8(out.stderr).expect("utf-8");
    (out.status.code(), err)
}

#[test]
fn a_folder_where_the_file_goes_is_refused_before_the_build() {
    let home = home("in-the-way");
    // A folder where the database's file belongs: found before the build's
    // time is spent, not when the file is put in place after it.
    let kept = home.join("data/tallyho/draughts-endgame-3-compulsory.bin");
    std::fs::create_dir_all(kept.join("in-the-way")).expect("folder");
    let (status, err) = build(&home);
    assert_eq!(status, Some(1), "{err}");
    assert!(
        err.starts_with("error: the database cannot be saved in "),
        "no bar first: {err:?}"
    );
    assert!(
        err.ends_with(
            ": a folder named draughts-endgame-3-compulsory.bin stands where the database would go\n"
        ),
        "{err:?}"
    );
    let left: Vec<_> = std::fs::read_dir(home.join("data/tallyho"))
        .expect("folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 1, "no part file is left: {left:?}");
}

#[test]
fn a_folder_that_cannot_be_written_is_refused_before_the_build() {
    let home = home("before");
    std::fs::write(home.join("data"), "a file where the data folder belongs").expect("file");
    let (status, err) = build(&home);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.starts_with("error: "), "no bar first: {err:?}");
    assert!(
        err.contains("cannot be saved in")
            && err.ends_with("/data is a file, where a folder would go\n"),
        "{err:?}"
    );
}

#[test]
fn a_database_already_kept_is_not_built_again_and_a_damaged_one_is() {
    let home = home("again");
    let (status, err) = build(&home);
    assert_eq!(status, Some(0), "{err}");
    // Off a terminal, progress comes a line at a time, with no bar drawn
    // over itself.
    assert!(
        err.starts_with("  0% of 3 pieces\n") && err.ends_with("100% of 3 pieces\n"),
        "built with progress lines: {err:?}"
    );
    assert!(!err.contains('\r') && !err.contains('['), "{err:?}");
    let (status, err) = build(&home);
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        err, "The 3-piece database is already built, and its checksum agrees.\n",
        "no bar the second time"
    );
    // A byte changed: the checksum disagrees, so it is built again.
    let kept = home.join("data/tallyho/draughts-endgame-3-compulsory.bin");
    let mut bytes = std::fs::read(&kept).expect("kept");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&kept, bytes).expect("damaged");
    let (status, err) = build(&home);
    assert_eq!(status, Some(0), "{err}");
    assert!(err.ends_with("100% of 3 pieces\n"), "built again: {err:?}");
}

#[test]
fn a_smaller_database_is_not_built_beside_a_larger_one_kept() {
    let home = home("smaller");
    let (status, err) = build_of(&home, "4");
    assert_eq!(status, Some(0), "{err}");
    let (status, err) = build(&home);
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        err,
        "The 4-piece database is already built, and its checksum agrees: it holds every \
         position of 3 pieces or fewer.\n"
    );
    let kept: Vec<_> = std::fs::read_dir(home.join("data/tallyho"))
        .expect("folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(kept, ["draughts-endgame-4-compulsory.bin"]);
}
