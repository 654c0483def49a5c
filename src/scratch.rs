//! A folder or file under the system temp folder that a test uses and that
//! goes when the test ends, passed or failed: its `Drop` removes it, so a
//! panicking test cleans up as it unwinds. The library's unit tests use it
//! (`crate::scratch`), and the integration tests through
//! `tests/scratch/mod.rs`, which reads this same file.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder (or file) under the temp folder, removed with all it holds when
/// dropped. Bind it to a name for as long as the test uses the path: `let _ =`
/// or a temporary would remove it at once.
#[must_use = "dropping the guard removes the folder at once"]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty folder `tallyho-NAME-PID` under the temp folder (the
    /// process id keeps test runs at once apart); what an earlier run left
    /// under that name goes first.
    pub fn new(name: &str) -> Scratch {
        let scratch = Scratch::unmade(name);
        std::fs::create_dir_all(&scratch.0).expect("a scratch folder");
        scratch
    }

    /// The path `tallyho-NAME-PID` under the temp folder, cleared but not
    /// made: for a file, or a folder the code under test must make itself.
    pub fn unmade(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("tallyho-{name}-{}", std::process::id()));
        remove(&path);
        Scratch(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// Removes `path`, a folder with all it holds or a file, if it is there.
fn remove(path: &Path) {
    let _ = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(_) => Ok(()),
    };
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Something just ended (a killed child's own child, a closing
        // thread) may make a file as the folder goes: try again a moment.
        for _ in 0..20 {
            remove(&self.0);
            if std::fs::symlink_metadata(&self.0).is_err() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// For `Command::env` and `Command::arg`.
impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}
