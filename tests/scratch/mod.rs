//! What a test makes outside itself, taken down when the test ends, passed
//! or failed: a folder or file under the system temp folder, and the child
//! processes that work in it. Each is a guard whose `Drop` does the work, so
//! a panicking test cleans up as it unwinds.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::process::Child;

/// A folder (or file) under the temp folder, removed with all it holds when
/// dropped. Bind it to a name for as long as the test uses the path: `let _ =`
/// or a temporary would remove it at once.
#[must_use = "dropping the guard removes the folder at once"]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty folder `name` under the temp folder; what an earlier
    /// run left under that name goes first.
    pub fn new(name: &str) -> Scratch {
        let scratch = Scratch::unmade(name);
        std::fs::create_dir_all(&scratch.0).expect("a scratch folder");
        scratch
    }

    /// The path `name` under the temp folder, cleared but not made: for a
    /// file, or a folder the code under test must make itself.
    pub fn unmade(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(name);
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

/// Something that works in a scratch folder (a pseudo-terminal session, a
/// child, a server), dropped before its folder is removed, so nothing is
/// still writing there when the folder goes.
pub struct Housed<T> {
    // Fields drop in the order declared: the value first.
    value: T,
    _folder: Scratch,
}

impl<T> Housed<T> {
    pub fn new(value: T, folder: Scratch) -> Housed<T> {
        Housed {
            value,
            _folder: folder,
        }
    }

    /// Drops the value (a server stops, a child is killed), then removes
    /// the folder: now, rather than at the end of the test.
    pub fn stop(self) {}
}

impl<T> Deref for Housed<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Housed<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

/// A child process that is killed and waited for when dropped, so a failed
/// test leaves no process behind (a dropped `Child` runs on).
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Deref for KillOnDrop {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for KillOnDrop {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}
