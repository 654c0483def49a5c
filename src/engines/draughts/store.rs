//! The draughts endgame databases kept on disk, in a directory the caller
//! chooses (the user's data directory): built once per machine, checked
//! against their checksum whenever they are read, and rebuilt when damaged.
//!
//! One file per size and capture rule: `draughts-endgame-5-compulsory.bin`.
//! Files are written whole under a temporary name and then renamed, so a
//! build stopped half way leaves no half file behind; what a run that was
//! killed while writing leaves is removed by a later save, once it has not
//! changed for ten minutes.

use std::fs;
use std::io::{self, Read, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::games::draughts::endgame::{BytesError, Endgame, LARGEST_PIECES, MAX_PIECES};
use crate::games::draughts::{Captures, Setup};
use crate::shell::log::{OpenError, open_regular};

/// Bytes a file may hold beyond its entries (its header and checksum).
const HEADER_SLACK: u64 = 256;

/// How long a half-written file may go unchanged before it is taken for
/// the leftover of a killed run and removed.
const STALE_PART: Duration = Duration::from_secs(600);

/// Writes a database as [`Endgame::to_bytes`] lays it out, a part at a
/// time: a six-piece database is never copied whole.
fn write(path: &Path, db: &Endgame) -> io::Result<()> {
    // A new file only: whatever stands at the name (a link someone left
    // there) is neither followed nor written through.
    let mut out = io::BufWriter::new(fs::File::create_new(path)?);
    db.write_parts(&mut |part: &[u8]| out.write_all(part))?;
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// The database of `pieces` pieces, built in memory: `progress` may stop it.
fn built(
    pieces: u32,
    rules: Setup,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Endgame, StoreError> {
    buildable(pieces)?;
    Endgame::build_with_progress(pieces, rules, progress).ok_or(StoreError::Stopped)
}

/// Whether a database of `pieces` pieces can be built at all.
fn buildable(pieces: u32) -> Result<(), StoreError> {
    if (2..=LARGEST_PIECES).contains(&pieces) {
        Ok(())
    } else {
        Err(StoreError::Size(pieces))
    }
}

/// A size in bytes in megabytes, or gigabytes from 1 GB: `187 MB`, `3.74 GB`.
fn megabytes(bytes: u64) -> String {
    const MB: u64 = 1_000_000;
    if bytes >= 1000 * MB {
        format!("{:.2} GB", bytes as f64 / (1000 * MB) as f64)
    } else if bytes >= 10 * MB {
        format!("{} MB", bytes / MB)
    } else if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else {
        format!("{} kB", bytes.div_ceil(1000))
    }
}

/// Two sizes, as [`megabytes`] writes them where that tells them apart,
/// else in bytes: a shortfall is never shown as two equal figures.
fn two_sizes(a: u64, b: u64) -> (String, String) {
    let (x, y) = (megabytes(a), megabytes(b));
    if x == y && a != b {
        (format!("{a} bytes"), format!("{b} bytes"))
    } else {
        (x, y)
    }
}

/// Why a stored database could not be read, written or built.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be opened, or is not a regular file.
    #[error(transparent)]
    Open(OpenError),
    /// The file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A file longer than any database of its size.
    #[error("{}: longer than a {pieces}-piece database", path.display())]
    TooLong {
        /// The file.
        path: PathBuf,
        /// The pieces its name says.
        pieces: u32,
    },
    /// A file that is not a whole database: its checksum or layout is wrong.
    #[error("{}: {reason}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: BytesError,
    },
    /// A whole database, but not the one its name says.
    #[error("{}: holds {pieces} pieces with {captures} captures", path.display())]
    Misnamed {
        /// The file.
        path: PathBuf,
        /// The pieces it holds.
        pieces: u32,
        /// Its capture rule.
        captures: Captures,
    },
    /// The folder cannot take the database: said before the build.
    #[error("the database cannot be saved in {}: {why}", dir.display())]
    Unsaveable {
        /// The folder.
        dir: PathBuf,
        /// Why, in words.
        why: String,
    },
    /// A size that cannot be built.
    #[error("databases of {0} pieces cannot be built: from 2 to {LARGEST_PIECES}")]
    Size(u32),
    /// The build was stopped before it ended.
    #[error("the build was stopped")]
    Stopped,
}

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
    pub fn load(&self, pieces: u32, rules: Setup) -> Result<Option<Endgame>, StoreError> {
        let path = self.path(pieces, rules);
        // Opened without waiting, and only a regular file: a FIFO put in
        // the database's place is refused, not waited on.
        let file = match open_regular(&path) {
            Ok(f) => f,
            Err(OpenError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::Open(e)),
        };
        // Never read more than the database can hold.
        let most = Endgame::entries(pieces) as u64 + HEADER_SLACK;
        if file.metadata().is_ok_and(|m| m.len() > most) {
            return Err(StoreError::TooLong { path, pieces });
        }
        // A part at a time: the database is never held twice.
        let mut input = io::BufReader::new(file.take(most + 1));
        let db = Endgame::read_parts(
            &mut |len| {
                let mut part = Vec::new();
                part.try_reserve_exact(len)
                    .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))
                    .and_then(|_| (&mut input).take(len as u64).read_to_end(&mut part))
                    .map_err(|source| StoreError::Io {
                        path: path.clone(),
                        source,
                    })?;
                Ok(part)
            },
            |max_pieces, captures| {
                if max_pieces != pieces || captures != rules.captures {
                    return Err(StoreError::Misnamed {
                        path: path.clone(),
                        pieces: max_pieces,
                        captures,
                    });
                }
                Ok(())
            },
            |reason| StoreError::Damaged {
                path: path.clone(),
                reason,
            },
        )?;
        Ok(Some(db))
    }

    /// Writes a database (whole, then renamed into place).
    pub fn save(&self, db: &Endgame) -> Result<PathBuf, StoreError> {
        let rules = Setup::with_captures(db.captures());
        let path = self.path(db.max_pieces(), rules);
        let temp = self.writable(&path)?;
        let written = write(&temp, db).and_then(|_| fs::rename(&temp, &path));
        if let Err(source) = written {
            let _ = fs::remove_file(&temp);
            return Err(StoreError::Io { path, source });
        }
        Ok(path)
    }

    /// Whether a database could be saved here, as far as can be told
    /// without making anything: the nearest folder of the store's path that
    /// exists is a folder this user may write in.
    pub fn could_save(&self) -> bool {
        use rustix::fs::{Access, access};
        self.dir
            .ancestors()
            .find(|a| a.symlink_metadata().is_ok())
            .is_some_and(|a| a.is_dir() && access(a, Access::WRITE_OK | Access::EXEC_OK).is_ok())
    }

    /// The folder made if need be, and the name of a file that was just
    /// created and removed there: where a database of `path` is written
    /// before it is renamed into place. Half-written files that a killed
    /// run left under other names are removed first.
    fn writable(&self, path: &Path) -> Result<PathBuf, StoreError> {
        let temp = path.with_extension(format!("part{}", std::process::id()));
        let refused = |why: String| StoreError::Unsaveable {
            dir: self.dir.clone(),
            why,
        };
        let said = |e: io::Error| {
            let text = e.to_string();
            // The system's words without their code: `permission denied`.
            let text = text.split(" (os error").next().unwrap_or(&text);
            text.to_lowercase()
        };
        fs::create_dir_all(&self.dir).map_err(|e| {
            // A file where a folder of the path belongs.
            let blocked = self.dir.ancestors().find(|a| a.is_file());
            refused(match blocked {
                Some(file) => format!("{} is a file, where a folder would go", file.display()),
                None => said(e),
            })
        })?;
        if path.is_dir() {
            let name = path.file_name().unwrap_or(path.as_os_str());
            return Err(refused(format!(
                "a folder named {} stands where the database would go",
                name.display()
            )));
        }
        self.remove_stale_parts(path);
        // Removing first unlinks whatever stands at the name, a link
        // included, without touching what it points to.
        let _ = fs::remove_file(&temp);
        fs::File::create_new(&temp).map_err(|e| refused(said(e)))?;
        let _ = fs::remove_file(&temp);
        Ok(temp)
    }

    /// Refuses a build whose database the folder's disk has no room for,
    /// as far as the system can tell: before the build's time is spent.
    fn has_room(&self, pieces: u32, path: &Path) -> Result<(), StoreError> {
        let Ok(stat) = rustix::fs::statvfs(&self.dir) else {
            return Ok(());
        };
        // The file it replaces frees its room.
        let old = fs::metadata(path).map_or(0, |m| m.len());
        let free = stat
            .f_bavail
            .saturating_mul(stat.f_frsize)
            .saturating_add(old);
        let needed = Endgame::entries(pieces) as u64;
        if free >= needed {
            return Ok(());
        }
        let (needed, free) = two_sizes(needed, free);
        Err(StoreError::Unsaveable {
            dir: self.dir.clone(),
            why: format!("the database takes {needed}, and the disk has {free} free"),
        })
    }

    /// Removes the half-written files of `path` (`NAME.partPID`) that have
    /// not changed for [`STALE_PART`]: a run killed while it wrote. A run
    /// that is writing one changes it all the time.
    fn remove_stale_parts(&self, path: &Path) {
        let (Some(stem), Ok(entries)) = (path.file_stem(), fs::read_dir(&self.dir)) else {
            return;
        };
        let prefix = format!("{}.part", stem.to_string_lossy());
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(prefix.as_str())) else {
                continue;
            };
            if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age >= STALE_PART);
            if stale {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Builds the database of `pieces` pieces and saves it, telling
    /// `progress(done, total)` as it goes (it returns `false` to stop: then
    /// nothing is saved). What `tallyho draughts build-db --pieces N` does.
    pub fn build(
        &self,
        pieces: u32,
        rules: Setup,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Endgame, StoreError> {
        // A size out of range, then a folder that cannot be written, are
        // found before the build's time is spent, not after.
        buildable(pieces)?;
        let path = self.path(pieces, rules);
        self.writable(&path)?;
        self.has_room(pieces, &path)?;
        let db = built(pieces, rules, progress)?;
        self.save(&db)?;
        Ok(db)
    }

    /// The stored database of `pieces` pieces, or, when there is none or it
    /// is damaged, one built now and saved if it can be: a folder that
    /// cannot be written costs the next run the build, not this one the
    /// database.
    pub fn load_or_build(
        &self,
        pieces: u32,
        rules: Setup,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Endgame, StoreError> {
        if let Ok(Some(db)) = self.load(pieces, rules) {
            return Ok(db);
        }
        let db = built(pieces, rules, progress)?;
        let _ = self.save(&db);
        Ok(db)
    }

    /// Hands `give` the databases a player needs, larger each time, while
    /// it answers `true`: the largest stored one with a number of pieces in
    /// `wanted`, when there is one; else first a quick one of `quick`
    /// pieces (seconds), then the smallest of `wanted`, read or built
    /// (minutes) and saved. The quick 4-piece one is kept on disk too, so a
    /// short-lived engine that never finishes the large one reads it next
    /// time instead of building it again; smaller ones are only built.
    pub fn supply(
        &self,
        rules: Setup,
        quick: u32,
        wanted: RangeInclusive<u32>,
        give: &mut dyn FnMut(Endgame) -> bool,
    ) {
        let quick = quick.clamp(2, MAX_PIECES);
        // A quick one of three pieces or fewer is built in a tenth of a
        // second at most, sooner than a large one is read (a third of a
        // second for five): handed over first, so that a small ending is
        // answered at once.
        if quick < MAX_PIECES
            && wanted.clone().any(|n| self.path(n, rules).is_file())
            && !give(Endgame::build(quick, rules))
        {
            return;
        }
        if let Some(db) = self.largest_in(wanted.clone(), rules) {
            give(db);
            return;
        }
        let first = if quick == MAX_PIECES {
            self.load_or_build(quick, rules, &mut |_, _| true).ok()
        } else {
            None
        };
        if !give(first.unwrap_or_else(|| Endgame::build(quick, rules))) {
            return;
        }
        let big = *wanted.start();
        if big > quick
            && let Ok(db) = self.load_or_build(big, rules, &mut |_, _| true)
        {
            give(db);
        }
    }

    /// The largest stored database that loads, if any.
    pub fn largest(&self, rules: Setup) -> Option<Endgame> {
        self.largest_in(2..=LARGEST_PIECES, rules)
    }

    /// The largest stored database with a number of pieces in `pieces` that
    /// loads, if any: with `5..=6`, a six-piece database built by hand is
    /// used before the five-piece one built on first use; with `5..=5`,
    /// only the five-piece one (a match that names its database).
    pub fn largest_in(&self, pieces: RangeInclusive<u32>, rules: Setup) -> Option<Endgame> {
        ((*pieces.start()).max(2)..=(*pieces.end()).min(LARGEST_PIECES))
            .rev()
            .find_map(|n| self.load(n, rules).ok().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    fn temp_dir(name: &str) -> Scratch {
        Scratch::unmade(&format!("endgame-store-{name}"))
    }

    #[test]
    fn a_database_is_built_once_then_read_back_and_checked() {
        let dir = temp_dir("once");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        assert!(matches!(store.load(3, rules), Ok(None)));
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
        let err = store.load(3, rules).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");
        let again = store.load_or_build(3, rules, &mut |_, _| true).unwrap();
        assert_eq!(again, built);
        assert_eq!(store.load(3, rules).unwrap(), Some(built));
    }

    #[test]
    fn the_quick_four_piece_database_is_kept_and_read_the_next_time() {
        let dir = temp_dir("quick");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        let mut given = Vec::new();
        // Stopped after the quick one: the five-piece build takes minutes.
        store.supply(rules, MAX_PIECES, 5..=5, &mut |db| {
            given.push(db.max_pieces());
            false
        });
        assert_eq!(given, [4]);
        let path = store.path(4, rules);
        let kept = fs::metadata(&path).unwrap().modified().unwrap();
        assert!(store.load(4, rules).unwrap().is_some());
        // The next start reads it: the file is not written again.
        given.clear();
        store.supply(rules, MAX_PIECES, 5..=5, &mut |db| {
            given.push(db.max_pieces());
            false
        });
        assert_eq!(given, [4]);
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), kept);
        // A smaller quick one is built, not kept; the larger one is saved.
        given.clear();
        let other = temp_dir("quick-small");
        let store = EndgameStore::new(&other);
        store.supply(rules, 2, 3..=3, &mut |db| {
            given.push(db.max_pieces());
            true
        });
        assert_eq!(given, [2, 3]);
        assert!(matches!(store.load(2, rules), Ok(None)));
        assert!(store.load(3, rules).unwrap().is_some());
        // Once the larger one is kept, it is read, not built again; the
        // quick one of two pieces, built in a moment, still comes first.
        given.clear();
        let kept = fs::metadata(store.path(3, rules))
            .unwrap()
            .modified()
            .unwrap();
        store.supply(rules, 2, 3..=3, &mut |db| {
            given.push(db.max_pieces());
            true
        });
        assert_eq!(given, [2, 3]);
        let path = store.path(3, rules);
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), kept);
        // The quick one of four pieces, where it is not kept, is not built
        // first: it takes seconds.
        given.clear();
        store.supply(rules, MAX_PIECES, 3..=3, &mut |db| {
            given.push(db.max_pieces());
            true
        });
        assert_eq!(given, [3]);
    }

    #[test]
    fn saving_neither_writes_through_a_link_nor_keeps_what_a_killed_run_left() {
        let dir = temp_dir("parts");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        let db = Endgame::build(2, rules);
        fs::create_dir_all(&dir).unwrap();
        let path = store.path(2, rules);
        let part = |pid: &str| path.with_extension(format!("part{pid}"));
        // A killed run's half file, an hour old; one being written now; and
        // a file that only looks alike.
        let old = part("4000000");
        fs::write(&old, b"half").unwrap();
        let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
        let busy = part("4000001");
        fs::write(&busy, b"busy").unwrap();
        let other = part("s");
        fs::write(&other, b"other").unwrap();
        #[cfg(unix)]
        let victim = {
            let victim = dir.join("victim.txt");
            fs::write(&victim, b"precious").unwrap();
            std::os::unix::fs::symlink(&victim, part(&std::process::id().to_string())).unwrap();
            victim
        };
        store.save(&db).unwrap();
        assert_eq!(store.load(2, rules).unwrap(), Some(db));
        assert!(!old.exists());
        assert!(busy.exists() && other.exists());
        #[cfg(unix)]
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
    }

    #[test]
    fn the_largest_database_kept_is_the_one_used() {
        let dir = temp_dir("largest");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        assert_eq!(store.largest(rules), None);
        let two = store.build(2, rules, &mut |_, _| true).unwrap();
        assert_eq!(store.largest(rules), Some(two.clone()));
        assert_eq!(store.largest_in(3..=LARGEST_PIECES, rules), None);
        let three = store.build(3, rules, &mut |_, _| true).unwrap();
        // As a six-piece database built by hand is used before the
        // five-piece one built on first use.
        assert_eq!(store.largest(rules), Some(three.clone()));
        assert_eq!(store.largest_in(3..=LARGEST_PIECES, rules), Some(three));
        // A range that stops short of the larger one keeps to it.
        assert_eq!(store.largest_in(2..=2, rules), Some(two.clone()));
        // Written a slice at a time, read back the same, byte for byte.
        assert_eq!(fs::read(store.path(2, rules)).unwrap(), two.to_bytes());
        // A file cut short, or one named for other pieces, is not used.
        let bytes = two.to_bytes();
        fs::write(store.path(2, rules), &bytes[..bytes.len() - 1]).unwrap();
        let err = store.load(2, rules).unwrap_err().to_string();
        assert!(err.contains("cut short"), "{err}");
        fs::write(store.path(3, rules), &bytes).unwrap();
        assert!(matches!(
            store.load(3, rules),
            Err(StoreError::Misnamed { pieces: 2, .. })
        ));
        assert_eq!(store.largest(rules), None);
        fs::write(store.path(2, rules), &bytes).unwrap();
        assert_eq!(store.largest(rules), Some(two.clone()));
        // A FIFO in a database's place is refused at once, not waited on.
        fs::remove_file(store.path(3, rules)).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(store.path(3, rules))
            .status()
            .unwrap();
        assert!(made.success());
        let err = store.load(3, rules).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        assert_eq!(store.largest(rules), Some(two));
    }

    /// A build of 3 pieces that must be refused: why, and how often it
    /// reported progress before that.
    fn refused_build(store: &EndgameStore, rules: Setup) -> (String, u32) {
        let mut calls = 0;
        let err = store
            .build(3, rules, &mut |_, _| {
                calls += 1;
                true
            })
            .unwrap_err()
            .to_string();
        (err, calls)
    }

    #[test]
    fn a_folder_that_cannot_be_written_is_found_before_the_build() {
        let dir = temp_dir("unwritable");
        fs::write(&dir, b"a file where the folder should be").unwrap();
        let store = EndgameStore::new(dir.join("tallyho"));
        let rules = Setup::STANDARD;
        let (err, calls) = refused_build(&store, rules);
        assert!(err.contains("tallyho-endgame-store-unwritable"), "{err}");
        assert_eq!(calls, 0, "no build before the folder is known good");
        // A game still gets the database, for this run only.
        let db = store.load_or_build(3, rules, &mut |_, _| true).unwrap();
        assert_eq!(db.max_pieces(), 3);
        assert!(matches!(store.load(3, rules), Err(_) | Ok(None)));
    }

    #[test]
    fn a_folder_where_the_database_goes_is_found_before_the_build() {
        let dir = temp_dir("folder-in-the-way");
        let store = EndgameStore::new(dir.to_path_buf());
        let rules = Setup::STANDARD;
        fs::create_dir_all(store.path(3, rules)).unwrap();
        let (err, calls) = refused_build(&store, rules);
        assert!(err.starts_with("the database cannot be saved in "), "{err}");
        assert!(
            err.ends_with("-compulsory.bin stands where the database would go"),
            "{err}"
        );
        assert_eq!(calls, 0, "no build before the place is known good");
        assert_eq!(megabytes(187_110_312), "187 MB");
        assert_eq!(megabytes(3_739_728_052), "3.74 GB");
        assert_eq!(megabytes(1_500_000), "1.5 MB");
        assert_eq!(megabytes(216_038), "217 kB");
        // Where the figures would read the same, the bytes.
        assert_eq!(
            two_sizes(216_038, 216_001),
            ("216038 bytes".to_string(), "216001 bytes".to_string())
        );
        assert_eq!(
            two_sizes(216_038, 196_608),
            ("217 kB".to_string(), "197 kB".to_string())
        );
        assert_eq!(
            two_sizes(187_110_312, 2_100_000),
            ("187 MB".to_string(), "2.1 MB".to_string())
        );
    }

    #[test]
    fn sizes_out_of_range_and_stopped_builds_say_so() {
        let dir = temp_dir("range");
        let store = EndgameStore::new(&dir);
        let rules = Setup::STANDARD;
        assert_eq!(
            store
                .build(7, rules, &mut |_, _| true)
                .unwrap_err()
                .to_string(),
            "databases of 7 pieces cannot be built: from 2 to 6"
        );
        assert_eq!(
            store
                .build(3, rules, &mut |_, _| false)
                .unwrap_err()
                .to_string(),
            "the build was stopped"
        );
        assert!(matches!(store.load(3, rules), Ok(None)));
        // A file too long for its size is not read whole.
        fs::create_dir_all(&dir).unwrap();
        fs::write(store.path(2, rules), vec![0u8; 1 << 20]).unwrap();
        assert!(
            store
                .load(2, rules)
                .unwrap_err()
                .to_string()
                .contains("longer than")
        );
    }
}
