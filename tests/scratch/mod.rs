//! What a test makes outside itself, taken down when the test ends, passed
//! or failed: a folder or file under the system temp folder, and the child
//! processes that work in it. Each is a guard whose `Drop` does the work, so
//! a panicking test cleans up as it unwinds.

#![allow(dead_code)]

use std::ops::{Deref, DerefMut};
use std::process::Child;

#[path = "../../src/scratch.rs"]
mod folder;
pub use folder::Scratch;

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
