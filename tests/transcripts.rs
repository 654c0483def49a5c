//! Golden transcripts: each `tests/transcripts/*.txt` holds the command line
//! (first line, after `args:`) and the lines a player types; the snapshot
//! holds what tallyho printed. Together they are the living spec of each flow.

use std::path::Path;

use assert_cmd::Command;

mod scratch;
use scratch::Scratch;

/// Runs tallyho on a script file and returns the whole transcript.
fn run_script(path: &Path) -> String {
    let script = std::fs::read(path).expect("script readable");
    let split = script
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(script.len());
    let header = String::from_utf8_lossy(&script[..split]).to_string();
    let args = header
        .strip_prefix("args:")
        .unwrap_or_else(|| panic!("{}: first line must start with args:", path.display()));
    let input = expand(script.get(split + 1..).unwrap_or_default());
    let home = tempfile_dir(path);
    let output = Command::cargo_bin("tallyho")
        .expect("binary built")
        .args(args.split_whitespace())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("TALLYHO_HISTORY")
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("tallyho ran");
    format!(
        "$ tallyho{args}\n{}\n--- stderr ---\n{}--- exit status: {} ---\n",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("signal".to_string(), |c| c.to_string()),
    )
}

/// Expands the one directive scripts may hold: a line `<<1MB>>` stands for a
/// line of 1,048,576 letters, too big to keep in the repository.
fn expand(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in input.split_inclusive(|&b| b == b'\n') {
        if line.strip_suffix(b"\n").unwrap_or(line) == b"<<1MB>>" {
            out.extend(std::iter::repeat_n(b'B', 1 << 20));
            out.push(b'\n');
        } else {
            out.extend_from_slice(line);
        }
    }
    out
}

/// A private home directory for one script, so no test touches the real
/// one; removed when dropped.
fn tempfile_dir(path: &Path) -> Scratch {
    let name = path
        .file_stem()
        .expect("named")
        .to_string_lossy()
        .to_string();
    Scratch::new(&format!("test-{name}"))
}

#[test]
fn transcripts() {
    insta::glob!("transcripts/*.txt", |path| {
        insta::assert_snapshot!(run_script(path));
    });
}
