//! The data folder: made private, locked by one server at a time, and the
//! database file made readable by its owner only.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

use super::{DATABASE, LOCK_FILE, StoreError};

/// Whether the data folder is there: refuses what stands in its place (a
/// file, a link to nothing), making nothing.
pub(super) fn folder_is_there(dir: &Path) -> Result<bool, StoreError> {
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(true),
        Ok(_) => Err(StoreError::NotAFolder(dir.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound && dangling(dir) => {
            Err(StoreError::Dangling(dir.to_path_buf()))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(StoreError::folder(dir, e)),
    }
}

/// Makes the data folder (mode 0700) if it is missing.
pub(super) fn make_folder(dir: &Path) -> Result<(), StoreError> {
    if folder_is_there(dir)? {
        return Ok(());
    }
    DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| StoreError::folder(dir, e))
}

/// Refuses a data folder another server holds, making nothing: its lock
/// file, where there is one, is taken and let go at once.
pub(super) fn check_not_in_use(dir: &Path) -> Result<(), StoreError> {
    let path = dir.join(LOCK_FILE);
    match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
    {
        Ok(file) => hold_lock(&file, dir, &path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StoreError::folder(&path, e)),
    }
}

/// Refuses what stands in the way of a file the store makes or opens at
/// `path`: a symbolic link to nothing (opening it to write would make a
/// file wherever it leads), a loop of links, or anything but a file (a
/// folder, a pipe, a device). A file missing is made when needed.
pub(crate) fn check_file(path: &Path) -> Result<(), StoreError> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(not_a_file(path.to_path_buf(), &meta)),
        // A loop of links among them.
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(StoreError::folder(path, e)),
        Err(_) if dangling(path) => Err(StoreError::Dangling(path.to_path_buf())),
        Err(_) => Ok(()),
    }
}

/// Refuses what stands in the way of the files SQLite makes beside the
/// database `db` as it needs them (`-wal`, `-shm`, `-journal`), beside the
/// file `db` leads to, where SQLite makes them: as [`check_file`], and a
/// symbolic link of any kind, which SQLite will not open.
pub(super) fn check_sqlite_files(db: &Path) -> Result<(), StoreError> {
    let real = fs::canonicalize(db).unwrap_or_else(|_| db.to_path_buf());
    let (Some(dir), Some(name)) = (real.parent(), real.file_name()) else {
        return Ok(());
    };
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut file = name.to_os_string();
        file.push(suffix);
        let path = dir.join(file);
        if fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_symlink()) {
            return Err(StoreError::SqliteLink(path));
        }
        check_file(&path)?;
    }
    Ok(())
}

/// What is not a file, in words.
fn not_a_file(path: std::path::PathBuf, meta: &fs::Metadata) -> StoreError {
    let what = if meta.is_dir() {
        "a folder"
    } else {
        "a special file (a pipe, a socket or a device)"
    };
    StoreError::NotAFile(path, what)
}

/// Takes the data folder's lock, held as long as the file stays open.
pub(super) fn lock_folder(dir: &Path) -> Result<File, StoreError> {
    let path = dir.join(LOCK_FILE);
    check_file(&path)?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| StoreError::folder(&path, e))?;
    hold_lock(&file, dir, &path)?;
    Ok(file)
}

/// Takes the lock on the opened lock file `file` at `path`, held until it
/// is closed; refuses `dir` as another server's.
fn hold_lock(file: &File, dir: &Path, path: &Path) -> Result<(), StoreError> {
    // A lock let go a moment ago may still be held for a moment more: by
    // a process started just then, between its fork and its exec, which
    // holds every open file until the exec closes it. Another server's is
    // held for good.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => return Err(StoreError::InUse(dir.to_path_buf())),
            Err(fs::TryLockError::Error(e)) => return Err(StoreError::folder(path, e)),
        }
    }
}

/// Makes an empty `server.db` readable by its owner only (SQLite's own
/// files beside it take its mode); refuses what is not a file.
pub(super) fn make_database_file(db: &Path) -> Result<(), StoreError> {
    check_file(db)?;
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(db)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::folder(db, e)),
    }
}

/// Whether `path` is a symbolic link to nothing: nothing is made through
/// it, as the link could lead anywhere.
fn dangling(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// What an opening store may make in its data folder, and whether each was
/// missing before it began, so that an open that fails takes away what it
/// made and nothing else.
pub(super) struct Made {
    folder: bool,
    lock: bool,
    database: bool,
}

impl Made {
    /// What is missing in `dir` now.
    pub(super) fn before(dir: &Path) -> Made {
        let missing = |path: &Path| fs::symlink_metadata(path).is_err();
        Made {
            folder: missing(dir),
            lock: missing(&dir.join(LOCK_FILE)),
            database: missing(&dir.join(DATABASE)),
        }
    }

    /// Takes away the lock file and the database (with SQLite's files
    /// beside it) where they were made; called with the lock still held.
    /// A database that was there before is left as it was, whatever
    /// SQLite made beside it: its write-ahead log may hold its changes.
    pub(super) fn take_away(&self, dir: &Path) {
        if self.database {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let _ = fs::remove_file(dir.join(format!("{DATABASE}{suffix}")));
            }
        }
        if self.lock {
            let _ = fs::remove_file(dir.join(LOCK_FILE));
        }
    }

    /// Takes away the data folder where it was made, if nothing is left in
    /// it.
    pub(super) fn take_away_folder(&self, dir: &Path) {
        if self.folder {
            let _ = fs::remove_dir(dir);
        }
    }
}
