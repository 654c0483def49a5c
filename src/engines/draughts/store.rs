//! The draughts endgame databases kept on disk, in a directory the caller
//! chooses (the user's data directory): built once per machine, checked
//! against their checksum whenever they are read, and rebuilt when damaged.
//!
//! One file per size and capture rule: `draughts-endgame-5-compulsory.bin`.
//! Files are written whole under a temporary name and then renamed, so a
//! build stopped half way leaves no half file behind.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::games::draughts::Setup;
use crate::games::draughts::endgame::{Endgame, LARGEST_PIECES};

/// Bytes a file may hold beyond its entries (its header and checksum).
const HEADER_SLACK: u64 = 256;

/// A directory of endgame databases.
#[derive(Clone, Debug)]
pub struct EndgameStore {
    dir: PathBuf,
}

impl EndgameStore {
    /// The databases in `dir` (created when the first is saved).
    pub fn new(dir: impl Into<PathBuf>) -> EndgameStore {
        EndgameStore { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the database of `pieces` pieces under `rules` is kept.
    pub fn path(&self, pieces: u32, rules: Setup) -> PathBuf {
        self.dir.join(format!(
            "draughts-endgame-{pieces}-{}.bin",
            rules.captures.name()
        ))
    }

    /// The stored database of exactly `pieces` pieces: `Ok(None)` when there
    /// is none, an error when the file is unreadable, of the wrong size or
    /// damaged (its checksum does not match).
    pub fn load(&self, pieces: u32, rules: Setup) -> Result<Option<Endgame>, String> {
        let path = self.path(pieces, rules);
        let file = match fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        // Never read more than the database can hold.
        let most = Endgame::entries(pieces) as u64 + HEADER_SLACK;
        let mut bytes = Vec::new();
        file.take(most + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if bytes.len() as u64 > most {
            return Err(format!(
                "{}: longer than a {pieces}-piece database",
                path.display()
            ));
        }
        let db = Endgame::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        if db.max_pieces() != pieces || db.captures() != rules.captures {
            return Err(format!(
                "{}: holds {} pieces with {} captures",
                path.display(),
                db.max_pieces(),
                db.captures()
            ));
        }
        Ok(Some(db))
    }

    /// Writes a database (whole, then renamed into place).
    pub fn save(&self, db: &Endgame) -> Result<PathBuf, String> {
        let rules = Setup::with_captures(db.captures());
        let path = self.path(db.max_pieces(), rules);
        fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let temp = path.with_extension(format!("part{}", std::process::id()));
        let written = fs::write(&temp, db.to_bytes()).and_then(|_| fs::rename(&temp, &path));
        if let Err(e) = written {
            let _ = fs::remove_file(&temp);
            return Err(format!("{}: {e}", path.display()));
        }
        Ok(path)
    }

    /// Builds the database of `pieces` pieces and saves it, telling
    /// `progress(done, total)` as it goes (it returns `false` to stop: then
    /// nothing is saved). What `tallyho draughts build-db --pieces N` does.
    pub fn build(
        &self,
        pieces: u32,
        rules: Setup,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Endgame, String> {
        if !(2..=LARGEST_PIECES).contains(&pieces) {
            return Err(format!(
                "databases of {pieces} pieces cannot be built: from 2 to {LARGEST_PIECES}"
            ));
        }
        let db = Endgame::build_with_progress(pieces, rules, progress)
            .ok_or_else(|| "the build was stopped".to_string())?;
        self.save(&db)?;
        Ok(db)
    }

    /// The stored database of `pieces` pieces, or, when there is none or it
    /// is damaged, one built now and saved.
    pub fn load_or_build(
        &self,
        pieces: u32,
        rules: Setup,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Endgame, String> {
        match self.load(pieces, rules) {
            Ok(Some(db)) => Ok(db),
            Ok(None) | Err(_) => self.build(pieces, rules, progress),
        }
    }

    /// The largest stored database that loads, if any.
    pub fn largest(&self, rules: Setup) -> Option<Endgame> {
        (2..=LARGEST_PIECES)
            .rev()
            .find_map(|n| self.load(n, rules).ok().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tallyho-endgame-store-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_database_is_built_once_then_read_back_and_checked() {
        let dir = temp_dir("once");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        assert_eq!(store.load(3, rules), Ok(None));
        let mut calls = Vec::new();
        let built = store
            .load_or_build(3, rules, &mut |done, total| {
                calls.push((done, total));
                true
            })
            .unwrap();
        assert_eq!(calls.last().map(|&(d, t)| d == t), Some(true));
        assert_eq!(calls[0].1, Endgame::entries(3));
        let read = store.load(3, rules).unwrap().unwrap();
        assert_eq!(read, built);
        assert_eq!(store.largest(rules), Some(built.clone()));
        // A damaged file is refused, then rebuilt.
        let path = store.path(3, rules);
        let mut bytes = fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        fs::write(&path, &bytes).unwrap();
        let err = store.load(3, rules).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
        let again = store.load_or_build(3, rules, &mut |_, _| true).unwrap();
        assert_eq!(again, built);
        assert_eq!(store.load(3, rules).unwrap(), Some(built));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn sizes_out_of_range_and_stopped_builds_say_so() {
        let dir = temp_dir("range");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        assert_eq!(
            store.build(6, rules, &mut |_, _| true).unwrap_err(),
            "databases of 6 pieces cannot be built: from 2 to 5"
        );
        assert_eq!(
            store.build(3, rules, &mut |_, _| false).unwrap_err(),
            "the build was stopped"
        );
        assert_eq!(store.load(3, rules), Ok(None));
        // A file too long for its size is not read whole.
        fs::create_dir_all(&dir).unwrap();
        fs::write(store.path(2, rules), vec![0u8; 1 << 20]).unwrap();
        assert!(store.load(2, rules).unwrap_err().contains("longer than"));
        let _ = fs::remove_dir_all(&dir);
    }
}
