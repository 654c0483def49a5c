//! The log's file: opening it safely, locking, numbering, appending,
//! reading line by line, and stepping over damage.
//!
//! Several tallyho processes may share one log. An append takes an
//! exclusive lock, numbers its record after the last one in the file (read
//! from the file's tail, never the whole log) and writes the line at once;
//! if the write fails part-way, the file is cut back to where it was. Reading
//! streams line by line, so a log of any size reads in little memory. Only a
//! regular file is a log: a FIFO or a device would hang or never end. The
//! file is opened once, without blocking, and what was opened is checked, so
//! nothing swapped in after a check can hang a reader.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, MutexGuard};
use std::time::{Duration, Instant};

use super::check::{Checker, Doubt, Doubts, date_problem};
use super::record::{Record, VERSION, claimed_number, is_blank, number_of, parse_record};
use super::warn;
use rustix::fs::Access;

use crate::shell::lines::{Ends, read_capped};
use crate::shell::safe;

/// The longest line read as a record; longer lines are damage.
const MAX_RECORD: usize = 1 << 20;

/// How much of the log's end an append reads at least.
const TAIL_WINDOW: u64 = 64 * 1024;

/// A path as a message shows it: nothing in it can control a terminal.
fn shown(path: &Path) -> String {
    safe::text(&path.display().to_string())
}

/// Why a file could not be opened for reading.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// It is a folder.
    #[error("{} is a folder, not a file", shown(.0))]
    Folder(PathBuf),
    /// It is a FIFO, a device or a socket: reading it could hang or never end.
    #[error("{} is not a regular file", shown(.0))]
    NotAFile(PathBuf),
    /// The system would not let this user read it.
    #[error("{} may not be read by you", shown(.0))]
    Denied(PathBuf),
    /// The file could not be opened or looked at.
    #[error("{}: {}", shown(.0), safe::text(&.1.to_string()))]
    Io(PathBuf, #[source] io::Error),
}

/// Flags that keep an open from waiting: a FIFO with no writer opens at
/// once (and is then refused), and no terminal becomes ours.
const NO_WAIT: i32 = libc::O_NONBLOCK | libc::O_NOCTTY;

/// Opens `path` for reading, once, without ever blocking, and only if what
/// was opened is a regular file. Checking the opened file, not the path,
/// leaves no moment for a FIFO to be swapped in. Any reader of a file named
/// by a user (a log, a PDN file) can use it; `file.metadata()` then gives
/// the opened file's size.
pub fn open_regular(path: &Path) -> Result<File, OpenError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(NO_WAIT)
        .open(path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::PermissionDenied => OpenError::Denied(path.to_path_buf()),
            _ => OpenError::Io(path.to_path_buf(), e),
        })?;
    is_regular(&file, path)?;
    Ok(file)
}

/// Whether a file lies on a file system the kernel makes up as it is read
/// (`/proc`, `/sys`): its files say they are regular, but their sizes and
/// their contents are no file's.
#[cfg(target_os = "linux")]
fn made_up(stat: &rustix::fs::StatFs) -> bool {
    const PROC_SUPER_MAGIC: i64 = 0x9fa0;
    const SYSFS_MAGIC: i64 = 0x6265_6572;
    // `f_type` is an i64 here, an i32 or a u32 on other targets.
    #[allow(clippy::useless_conversion)]
    let kind = i64::from(stat.f_type);
    matches!(kind, PROC_SUPER_MAGIC | SYSFS_MAGIC)
}

/// Whether the file at `path`, or the open `file`, is on such a system.
#[cfg(target_os = "linux")]
fn on_made_up_system(file: Option<&File>, path: &Path) -> bool {
    let stat = match file {
        Some(file) => rustix::fs::fstatfs(file),
        None => rustix::fs::statfs(path),
    };
    stat.is_ok_and(|stat| made_up(&stat))
}

#[cfg(not(target_os = "linux"))]
fn on_made_up_system(_file: Option<&File>, _path: &Path) -> bool {
    false
}

/// Refuses an opened file that is not a regular file.
fn is_regular(file: &File, path: &Path) -> Result<(), OpenError> {
    match file.metadata() {
        Ok(meta) if meta.is_file() && on_made_up_system(Some(file), path) => {
            Err(OpenError::NotAFile(path.to_path_buf()))
        }
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) if meta.is_dir() => Err(OpenError::Folder(path.to_path_buf())),
        Ok(_) => Err(OpenError::NotAFile(path.to_path_buf())),
        Err(e) => Err(OpenError::Io(path.to_path_buf(), e)),
    }
}

/// The most links followed from a log's path to the file it names, as
/// the system follows them.
const MAX_LINKS: usize = 40;

/// Why the log could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The path is a FIFO, a device, a folder: not a file tallyho may use.
    #[error("{} is not a regular file, so it cannot be the game log", shown(.0))]
    NotAFile(PathBuf),
    /// The path's symbolic links lead round in a loop: no file at all.
    #[error(
        "{} leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so it cannot be the game log",
        shown(.0)
    )]
    LinkLoop(PathBuf),
    /// The log's folder does not exist (or is not a folder), and tallyho
    /// makes only the default log's folder.
    #[error(
        "the folder {} does not exist, so the game log {} cannot be kept there: make the folder first, or name a log in a folder that exists",
        shown(.folder),
        shown(.log)
    )]
    NoFolder {
        /// The log named.
        log: PathBuf,
        /// Its missing folder.
        folder: PathBuf,
    },
    /// The log's folder is a loop of symbolic links (or a chain longer
    /// than the system follows).
    #[error(
        "the folder {} leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so the game log {} cannot be kept there: name a log in a folder that exists",
        shown(.folder),
        shown(.log)
    )]
    FolderLinkLoop {
        /// The log named.
        log: PathBuf,
        /// Its folder, behind the loop.
        folder: PathBuf,
    },
    /// The log's folder is a file (or anything but a folder).
    #[error(
        "{} is not a folder, so the game log {} cannot be kept there: name a log in a folder that exists",
        shown(.folder),
        shown(.log)
    )]
    NotAFolder {
        /// The log named.
        log: PathBuf,
        /// What stands where its folder should be.
        folder: PathBuf,
    },
    /// The log, or the folder it would be made in, may not be read and
    /// written (`false`), or is on a read-only file system (`true`).
    #[error(
        "{} {}, so no game can be kept in it: name another log, or play with --no-history",
        shown(.0),
        if *.1 { "is on a read-only file system" } else { "may not be read and written by you" }
    )]
    CannotWrite(PathBuf, bool),
    /// The log may not be read by this user.
    #[error("{} may not be read by you, so its games cannot be shown", shown(.0))]
    CannotRead(PathBuf),
    /// Another program held the lock for too long.
    #[error("{}", held_lock(.0, *.1))]
    Locked(PathBuf, Duration),
    /// The numbers are used up: the last record, with the damaged lines
    /// after it, reaches the largest number there is.
    #[error(
        "the game numbers in {} are used up (its last game, with any damaged lines after it, reaches the largest number there is), so no game can follow",
        shown(.0)
    )]
    Full(PathBuf),
    /// The record would be a line longer than reading takes, so it would
    /// be skipped as damaged: it is not written.
    #[error(
        "the game's record would take {size} bytes, more than the {max} a line of {log} may hold, so it is not kept",
        size = .1,
        log = shown(.0),
        max = MAX_RECORD
    )]
    TooLong(PathBuf, usize),
    /// The file could not be read or written.
    #[error("{}: {}", shown(.0), safe::text(&.1.to_string()))]
    Io(PathBuf, #[source] io::Error),
}

impl From<OpenError> for LogError {
    fn from(e: OpenError) -> LogError {
        match e {
            OpenError::NotAFile(path) | OpenError::Folder(path) => LogError::NotAFile(path),
            OpenError::Denied(path) => LogError::CannotRead(path),
            OpenError::Io(path, e) => LogError::Io(path, e),
        }
    }
}

/// Why a log could not be locked: another program held its lock while
/// `waited` went by (not at all, where it was tried once).
fn held_lock(path: &Path, waited: Duration) -> String {
    let for_how_long = match (waited.as_secs(), waited.subsec_millis()) {
        (0, 0) => return format!("another program holds the lock on {}", shown(path)),
        (1, 0) => "1 second".to_string(),
        (s, 0) => format!("{s} seconds"),
        (0, ms) => format!("{ms} milliseconds"),
        _ => format!("{:.1} seconds", waited.as_secs_f64()),
    };
    format!(
        "another program has held the lock on {} for {for_how_long}",
        shown(path)
    )
}

/// The game log: a JSON-lines file, one record per finished game.
#[derive(Clone, Debug)]
pub struct Log {
    path: PathBuf,
    /// How long to wait for another program's lock before giving up.
    patience: Duration,
    /// Whether a missing folder is made: only for the default log. A path
    /// the user named in a folder that is not there is more likely a typo.
    make_folder: bool,
    /// Whether a log made anew is for its owner alone (mode 0600), as a
    /// server's is in its private data folder.
    private: bool,
}

impl Log {
    /// The log at `path`; nothing is touched until it is read or appended
    /// to. Only the default log's folder is made when missing.
    pub fn new(path: PathBuf) -> Log {
        let make_folder = Log::default_path().is_some_and(|default| default == path);
        Log {
            path,
            patience: Duration::from_secs(10),
            make_folder,
            private: false,
        }
    }

    /// The same log, made (if it is missing) readable by its owner alone.
    pub fn private(self) -> Log {
        Log {
            private: true,
            ..self
        }
    }

    /// The same log, giving up on a held lock after `patience`.
    pub fn with_patience(self, patience: Duration) -> Log {
        Log { patience, ..self }
    }

    /// `history.jsonl` in tallyho's data directory (on Linux
    /// `~/.local/share/tallyho/`); `None` when there is no home directory.
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "tallyho")
            .map(|dirs| dirs.data_dir().join("history.jsonl"))
    }

    /// Where the log lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, e: io::Error) -> LogError {
        // Links that lead back to themselves name no file at all.
        if e.raw_os_error() == Some(libc::ELOOP) {
            return LogError::LinkLoop(self.path.clone());
        }
        LogError::Io(self.path.clone(), e)
    }

    /// The log's folder: `None` for a bare file name (the current folder).
    fn folder(&self) -> Option<&Path> {
        self.path.parent().filter(|p| !p.as_os_str().is_empty())
    }

    /// Refuses a log whose folder is missing, unless tallyho makes it (the
    /// default log's). Nothing is made or opened.
    pub fn check_folder(&self) -> Result<(), LogError> {
        let Some(folder) = self.folder().filter(|f| !self.make_folder && !f.is_dir()) else {
            return Ok(());
        };
        let (log, folder) = (self.path.clone(), folder.to_path_buf());
        match fs::metadata(&folder) {
            Ok(_) => Err(LogError::NotAFolder { log, folder }),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                Err(LogError::FolderLinkLoop { log, folder })
            }
            Err(_) => Err(LogError::NoFolder { log, folder }),
        }
    }

    /// Refuses at once a log that could take no game: a missing folder
    /// (see [`Log::check_folder`]), a folder, FIFO or device where the file
    /// should be, or a link to a file in a folder that does not exist.
    /// Nothing is made or opened: it is for before play, so that no game
    /// is played only to be lost.
    pub fn check_place(&self) -> Result<(), LogError> {
        self.check_folder()?;
        match fs::metadata(&self.path) {
            Ok(meta) if meta.is_file() && on_made_up_system(None, &self.path) => {
                Err(LogError::NotAFile(self.path.clone()))
            }
            // Read too: the next number is read from the log's end.
            Ok(meta) if meta.is_file() => {
                self.check_writable(&self.path, Access::READ_OK | Access::WRITE_OK)
            }
            Ok(_) => Err(LogError::NotAFile(self.path.clone())),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                let target = self.link_target()?;
                // The file is made there: the nearest folder that is (the
                // default log's folders are made too) must take it, and
                // nothing but a folder may stand in the way.
                let mut folder = target
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                while !folder.is_dir() {
                    // A file, or a link to nowhere, where a folder goes.
                    if folder.symlink_metadata().is_ok() {
                        return Err(LogError::NotAFolder {
                            log: self.path.clone(),
                            folder: folder.to_path_buf(),
                        });
                    }
                    let Some(up) = folder.parent() else {
                        return Ok(());
                    };
                    folder = if up.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        up
                    };
                }
                self.check_writable(folder, Access::WRITE_OK | Access::EXEC_OK)?;
                self.check_root_may_make_in(folder)
            }
            Err(e) => Err(self.io(e)),
        }
    }

    /// For root, whom `access` lets write anywhere: whether a file can
    /// really be made in `folder` (not in `/sys`, nor on a read-only
    /// system), found by making one and taking it away again, so that the
    /// log is refused before a game is played, not after.
    fn check_root_may_make_in(&self, folder: &Path) -> Result<(), LogError> {
        if !rustix::process::geteuid().is_root() {
            return Ok(());
        }
        let probe = folder.join(format!(".tallyho-probe-{}", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(NO_WAIT)
            .open(&probe)
        {
            Ok(file) => {
                drop(file);
                let _ = fs::remove_file(&probe);
                Ok(())
            }
            Err(e) if e.raw_os_error() == Some(libc::EROFS) => {
                Err(LogError::CannotWrite(self.path.clone(), true))
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            Err(_) => Err(LogError::CannotWrite(self.path.clone(), false)),
        }
    }

    /// The file a log that does not exist would be made as: the log's path,
    /// or, for a link to nowhere (or a chain of them), the file the last
    /// link names, each read against its own folder. A link whose file's
    /// folder does not exist is refused: following it could make no file.
    fn link_target(&self) -> Result<PathBuf, LogError> {
        let mut target = self.path.clone();
        for _ in 0..MAX_LINKS {
            let Ok(next) = fs::read_link(&target) else {
                break;
            };
            target = match target.parent() {
                Some(folder) => folder.join(next),
                None => next,
            };
        }
        match target.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(folder) if target != self.path && !folder.is_dir() => Err(LogError::NoFolder {
                log: self.path.clone(),
                folder: folder.to_path_buf(),
            }),
            _ => Ok(target),
        }
    }

    /// Refuses the log where the system says `place` (the log, or the
    /// folder it would be made in) may not be written so.
    fn check_writable(&self, place: &Path, access: Access) -> Result<(), LogError> {
        match rustix::fs::access(place, access) {
            Err(rustix::io::Errno::ACCESS | rustix::io::Errno::PERM) => {
                Err(LogError::CannotWrite(self.path.clone(), false))
            }
            Err(rustix::io::Errno::ROFS) => Err(LogError::CannotWrite(self.path.clone(), true)),
            _ => Ok(()),
        }
    }

    /// Opens the log to append, making the default log's folder if needed.
    fn open_to_append(&self) -> Result<File, LogError> {
        let open = || {
            OpenOptions::new()
                .read(true)
                .append(true)
                .create(true)
                .mode(if self.private { 0o600 } else { 0o666 })
                .custom_flags(NO_WAIT)
                .open(&self.path)
        };
        let file = match open() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.check_folder()?;
                if let Some(folder) = self.folder() {
                    fs::create_dir_all(folder).map_err(|e| self.io(e))?;
                }
                open()
            }
            opened => opened,
        };
        let file = match file {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::IsADirectory => {
                return Err(LogError::NotAFile(self.path.clone()));
            }
            Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
                self.check_folder()?;
                return Err(self.io(e));
            }
            Err(e) => return Err(self.io(e)),
        };
        is_regular(&file, &self.path)?;
        Ok(file)
    }

    /// Takes the exclusive lock, calling `waiting` once if that takes over a second.
    fn lock(&self, file: &File, waiting: &mut dyn FnMut()) -> Result<(), LogError> {
        let started = Instant::now();
        let mut told = false;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(()),
                Err(fs::TryLockError::Error(e)) => return Err(self.io(e)),
                Err(fs::TryLockError::WouldBlock) => {}
            }
            let waited = started.elapsed();
            if waited >= self.patience {
                // Said as the patience it was given, not the moment more
                // that the last look took.
                return Err(LogError::Locked(self.path.clone(), self.patience));
            }
            if !told && waited >= Duration::from_secs(1) {
                told = true;
                waiting();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Appends `record` under the next number, which it returns; the
    /// record's own `number` is ignored. Creates the file, and the default
    /// log's folder.
    pub fn append(&self, record: &Record, waiting: &mut dyn FnMut()) -> Result<u64, LogError> {
        self.locked(waiting)?.append(record)
    }

    /// Opens the log to append and takes its exclusive lock, calling
    /// `waiting` once if that takes over a second.
    pub fn locked(&self, waiting: &mut dyn FnMut()) -> Result<Locked<'_>, LogError> {
        let file = self.open_to_append()?;
        self.lock(&file, waiting)?;
        Ok(Locked { log: self, file })
    }
}

/// The log opened to append, its lock held until this is dropped.
pub struct Locked<'a> {
    log: &'a Log,
    file: File,
}

impl Locked<'_> {
    /// Appends `record` under the next number, which it returns; the
    /// record's own `number` is ignored.
    pub fn append(self, record: &Record) -> Result<u64, LogError> {
        let Locked { log, mut file } = self;
        log.write_locked(&mut file, record)
    }
}

impl Log {
    fn write_locked(&self, file: &mut File, record: &Record) -> Result<u64, LogError> {
        let length = file.metadata().map_err(|e| self.io(e))?.len();
        let (used, ends_in_newline) = tail(file, length).map_err(|e| self.io(e))?;
        // Past the largest number near the end, so that a log edited by
        // hand does not give a number twice; past the last record where the
        // largest leaves no number after it.
        let number = match used {
            Used { largest, .. } if largest < u64::MAX => largest + 1,
            Used { last, .. } if last < u64::MAX => last + 1,
            Used { .. } => return Err(LogError::Full(self.path.clone())),
        };
        let mut line = Vec::new();
        if !ends_in_newline {
            // An earlier writer was cut off mid-line: leave its fragment on a
            // line of its own, where reading skips it.
            line.push(b'\n');
        }
        let numbered = Record {
            number,
            ..record.clone()
        };
        serde_json::to_writer(&mut line, &numbered).map_err(|e| self.io(io::Error::other(e)))?;
        if line.len() > MAX_RECORD {
            return Err(LogError::TooLong(self.path.clone(), line.len()));
        }
        line.push(b'\n');
        let written = file.write_all(&line).and_then(|()| file.sync_data());
        if let Err(e) = written {
            // A full disk must not leave half a record: cut back to where we began.
            let _ = file.set_len(length);
            return Err(self.io(e));
        }
        Ok(number)
    }

    /// Reads the log a record at a time, in the order appended. Damaged
    /// lines are counted, not returned. A missing file reads as empty; a
    /// missing folder is refused, as for appending.
    pub fn stream(&self) -> Result<Records, LogError> {
        // No lock: a reader held up by a slow pipe (a pager) must never keep
        // a finished game out. An appender writes whole lines, and a last
        // line without its newline that is no record yet is skipped.
        let lines = match open_regular(&self.path) {
            Ok(file) => Some(BufReader::new(file)),
            Err(OpenError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => {
                self.check_folder()?;
                // A link to a file in a folder that does not exist is no
                // empty log: playing through it is refused the same way.
                self.link_target()?;
                None
            }
            Err(OpenError::Io(_, e)) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(self.io(e));
            }
            Err(OpenError::Io(_, e)) if e.kind() == io::ErrorKind::NotADirectory => {
                self.check_folder()?;
                // A file stands where one of the default log's folders
                // would be made.
                let in_the_way = self
                    .path
                    .ancestors()
                    .skip(1)
                    .find(|p| p.exists() && !p.is_dir());
                return Err(match in_the_way {
                    Some(folder) => LogError::NotAFolder {
                        log: self.path.clone(),
                        folder: folder.to_path_buf(),
                    },
                    None => self.io(e),
                });
            }
            Err(e) => return Err(e.into()),
        };
        Ok(Records {
            lines,
            skipped: Skipped::default(),
            path: self.path.clone(),
            watched: None,
            watched_damage: None,
            numberless: (0, 0),
            line: 0,
            checker: Checker::default(),
        })
    }
}

/// The numbers the end of a log has used: 0 for none.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Used {
    /// The last record's, with the damaged lines after it counted on.
    last: u64,
    /// The largest of that and the numbers in the last 64 KiB.
    largest: u64,
}

/// The numbers the end of the log has used, and whether the file ends in a
/// newline. It reads back from the end only as far as the last good record,
/// and at least the last 64 KiB, in blocks: a damaged end of any size costs
/// time but no memory. Damaged lines after the last good record count as
/// numbers used, since one may have held a number; the largest number in the
/// last 64 KiB is kept too, for a log edited by hand.
fn tail(file: &mut File, length: u64) -> io::Result<(Used, bool)> {
    if length == 0 {
        return Ok((Used::default(), true));
    }
    file.seek(SeekFrom::Start(length - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    let ends_in_newline = last[0] == b'\n';
    let mut lines = Backwards::new(file, length);
    let mut damaged: u64 = 0;
    let mut found: Option<u64> = None;
    let mut largest: Option<u64> = None;
    while let Some(line) = lines.next_line()? {
        let number = match &line {
            Some(line) if is_blank(line) => continue,
            Some(line) => number_of(line),
            None => None,
        };
        match (number, found) {
            (Some(n), None) => {
                found = Some(n.saturating_add(damaged));
                largest = Some(n);
            }
            (Some(n), Some(_)) => largest = largest.max(Some(n)),
            (None, None) => damaged += 1,
            (None, Some(_)) => {}
        }
        if found.is_some() && length - lines.position() >= TAIL_WINDOW {
            break;
        }
    }
    let last = found.unwrap_or(damaged);
    let used = Used {
        last,
        largest: last.max(largest.unwrap_or(0)),
    };
    Ok((used, ends_in_newline))
}

/// The lines of a file from the last to the first, read in blocks. A line
/// longer than [`MAX_RECORD`] comes out as `None`, without being kept.
struct Backwards<'a> {
    file: &'a mut File,
    /// Where the bytes not yet read end.
    unread: u64,
    /// The end of a line whose start is not read yet.
    carry: Vec<u8>,
    /// The line being read is longer than a record may be.
    long: bool,
    done: bool,
}

impl<'a> Backwards<'a> {
    fn new(file: &'a mut File, length: u64) -> Backwards<'a> {
        Backwards {
            file,
            unread: length,
            carry: Vec::new(),
            long: false,
            done: false,
        }
    }

    /// How far from the start of the file reading has come.
    fn position(&self) -> u64 {
        self.unread
    }

    fn next_line(&mut self) -> io::Result<Option<Option<Vec<u8>>>> {
        const BLOCK: u64 = 64 * 1024;
        const LONG_BLOCK: u64 = 1 << 20;
        loop {
            if let Some(i) = self.carry.iter().rposition(|&b| b == b'\n') {
                let line = self.carry.split_off(i + 1);
                self.carry.truncate(i);
                return Ok(Some((!std::mem::take(&mut self.long)).then_some(line)));
            }
            if self.unread == 0 {
                if self.done {
                    return Ok(None);
                }
                self.done = true;
                let line = std::mem::take(&mut self.carry);
                return Ok(Some((!std::mem::take(&mut self.long)).then_some(line)));
            }
            // Within a line already too long, larger blocks, and none of
            // it kept: a damaged end of gigabytes (a crash can leave one of
            // zeros) costs one read of it, not a copy of a megabyte a block.
            let size = self.unread.min(if self.long { LONG_BLOCK } else { BLOCK });
            self.unread -= size;
            self.file.seek(SeekFrom::Start(self.unread))?;
            let mut block = vec![0; size as usize];
            self.file.read_exact(&mut block)?;
            if self.long {
                if block.contains(&b'\n') {
                    self.carry = block;
                }
                continue;
            }
            block.extend_from_slice(&self.carry);
            self.carry = block;
            if self.carry.len() > MAX_RECORD && !self.carry.contains(&b'\n') {
                // All of it belongs to one line too long to be a record.
                self.long = true;
                self.carry.clear();
            }
        }
    }
}

/// The records of a log, read as they are needed.
pub struct Records {
    lines: Option<BufReader<File>>,
    skipped: Skipped,
    path: PathBuf,
    /// The game number whose line, if damaged, is worth a reason.
    watched: Option<u64>,
    /// Why the watched game's line could not be read, once met.
    watched_damage: Option<String>,
    /// The number of the last record read (0 before the first), and how
    /// many damaged lines with no number to read have come since: the
    /// appender counts such lines as numbers used, so one of them may be
    /// the watched game's.
    numberless: (u64, u64),
    /// The lines read so far.
    line: usize,
    /// The numbers met and the problems with records that read.
    checker: Checker,
}

/// What reading a log passed over, or read with a caution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Lines that were not a record.
    pub damaged: usize,
    /// Records a newer tallyho wrote: read as this release reads its own.
    pub newer: usize,
    /// The newest record version among them.
    pub newest: u32,
    /// Records read though their number or date is wrong.
    pub doubts: Doubts,
}

impl Skipped {
    /// One warning for each kind of trouble, naming the log.
    pub fn warnings(&self, path: &Path) -> Vec<String> {
        let path = safe::text(&path.display().to_string());
        let mut said = Vec::new();
        if self.damaged > 0 {
            let lines = if self.damaged == 1 { "line" } else { "lines" };
            said.push(format!(
                "skipped {} damaged {lines} in {path}",
                self.damaged
            ));
        }
        if self.newer > 0 {
            let (records, were) = if self.newer == 1 {
                ("record", "was")
            } else {
                ("records", "were")
            };
            let versions = if self.newer == 1 {
                format!("record version {}", self.newest)
            } else {
                format!("record versions up to {}", self.newest)
            };
            said.push(format!(
                "{} {records} in {path} {were} written by a newer tallyho ({versions}; this one writes {VERSION}) and {were} read as far as this one can",
                self.newer
            ));
        }
        said.extend(self.doubts.warnings(&path));
        said
    }
}

impl Records {
    /// How many lines so far were not a record.
    pub fn damaged(&self) -> usize {
        self.skipped.damaged
    }

    /// Keeps the reason if the line of game `number` proves damaged, for
    /// [`Records::watched_damage`]: a reader looking for one game can then
    /// say what is wrong with it instead of that it is not there.
    pub fn watch(&mut self, number: u64) {
        self.watched = Some(number);
    }

    /// Why the watched game's line could not be read, once it has been met.
    pub fn watched_damage(&self) -> Option<&str> {
        self.watched_damage.as_deref()
    }

    /// Where the damaged lines with no number since the last record come
    /// before the number `next`, and the watched game's number lies
    /// between, one of them may have been its line.
    fn numberless_may_hold(&mut self, next: u64) {
        let (last, since) = self.numberless;
        match self.watched {
            Some(watched)
                if since > 0
                    && self.watched_damage.is_none()
                    && last < watched
                    && watched < next =>
            {
                let after = if last == 0 {
                    "at the start of the log".to_string()
                } else {
                    format!("after game {last}")
                };
                let lines = if since == 1 {
                    "the damaged line".to_string()
                } else {
                    format!("the {since} damaged lines")
                };
                self.watched_damage = Some(format!(
                    "its number falls on {lines} {after}, whose numbers cannot be read"
                ));
            }
            _ => {}
        }
    }

    /// What the reading so far passed over or read with a caution.
    pub fn skipped(&self) -> Skipped {
        Skipped {
            doubts: self.checker.doubts.clone(),
            ..self.skipped.clone()
        }
    }

    /// The line the last record read was on, from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// What is wrong with `record`, the last one read, as warnings: a date
    /// that cannot be, and another record with its number later in the
    /// log, which this reads on to the end to find (a line at a time). For
    /// a reader that wants one game and so reads no further than it.
    pub fn doubts_about(&mut self, record: &Record) -> Result<Vec<String>, LogError> {
        let path = shown(&self.path);
        let mut doubts = Doubts::default();
        let line = self.line;
        if let Some(why) = date_problem(&record.date) {
            doubts.push(Doubt::Date {
                number: record.number,
                line,
                date: safe::text_cut(&record.date, 40),
                why,
            });
        }
        let mut said = doubts.warnings(&path);
        // Another reading, so that the problems of the games between are
        // not counted into this one's.
        let mut rest = Records {
            lines: self.lines.take(),
            skipped: Skipped::default(),
            path: self.path.clone(),
            watched: None,
            watched_damage: None,
            numberless: (0, 0),
            line: self.line,
            checker: Checker::default(),
        };
        while let Some(other) = rest.next_record()? {
            if other.number == record.number {
                said.push(format!(
                    "game {} is in {path} more than once, on line {line} and again on line {}: this is line {line}'s",
                    record.number,
                    rest.line()
                ));
                break;
            }
        }
        Ok(said)
    }

    /// The next record, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<Record>, LogError> {
        let Some(lines) = self.lines.as_mut() else {
            return Ok(None);
        };
        loop {
            let line =
                read_line(lines, MAX_RECORD).map_err(|e| LogError::Io(self.path.clone(), e))?;
            let Some((line, ended)) = line else {
                // The damaged lines at the end hold the numbers after the
                // last record's.
                let (last, since) = self.numberless;
                self.numberless_may_hold(last.saturating_add(since).saturating_add(1));
                return Ok(None);
            };
            self.line += 1;
            let Some(line) = line else {
                self.skipped.damaged += 1;
                self.numberless.1 += 1;
                continue;
            };
            if is_blank(&line) {
                continue;
            }
            // Games are numbered from 1: a line numbered 0 is no game's.
            let read = parse_record(&line).and_then(|r| {
                (r.number > 0)
                    .then_some(r)
                    .ok_or_else(|| "its number is 0".into())
            });
            match read {
                Ok(record) => {
                    self.numberless_may_hold(record.number);
                    self.numberless = (record.number, 0);
                    if record.version > VERSION {
                        self.skipped.newer += 1;
                        self.skipped.newest = self.skipped.newest.max(record.version);
                    }
                    self.checker.check(record.number, &record.date, self.line);
                    return Ok(Some(record));
                }
                // Being written right now, or cut off: its newline will tell.
                Err(_) if !ended => return Ok(None),
                Err(why) => {
                    self.skipped.damaged += 1;
                    match claimed_number(&line) {
                        Some(n) if self.watched == Some(n) => self.watched_damage = Some(why),
                        Some(_) => {}
                        None => self.numberless.1 += 1,
                    }
                }
            }
        }
    }
}

/// One line without its newline, and whether it had one: `None` at the end
/// of the file; the line is `None` when longer than `cap`, and then skipped
/// without being kept.
type Line = Option<(Option<Vec<u8>>, bool)>;

fn read_line(input: &mut impl BufRead, cap: usize) -> io::Result<Line> {
    let line = read_capped(input, cap, Ends::Lf)?;
    Ok(line.map(|l| {
        let ended = l.ended;
        (l.whole(cap), ended)
    }))
}

/// What became of a finished game given to a [`Keeper`].
#[derive(Debug)]
pub enum Kept {
    /// It is in the log under this number.
    Logged(u64),
    /// The session keeps no log (`--no-history`): nothing was lost.
    Off,
    /// The log could not take it: [`Kept::warn`] says so.
    Lost(LogError),
}

impl Kept {
    /// Whether the game is in the log.
    pub fn is_logged(&self) -> bool {
        matches!(self, Kept::Logged(_))
    }

    /// Whether a score that counts only kept games may count it: it is in
    /// the log, or there is no log to be in.
    pub fn counts(&self) -> bool {
        !matches!(self, Kept::Lost(_))
    }

    /// Warns on standard error that the game was not kept, if it was not:
    /// said by the session after the game's end, so the warning follows
    /// the result it is about.
    pub fn warn(&self) {
        if let Kept::Lost(e) = self {
            warn(&format!("this game was not kept: {e}"));
        }
    }
}

/// What a keeper holds while it keeps a record: in the binary, the
/// process's guard against a signal's exit, handed in by `main`; elsewhere
/// nothing.
#[derive(Clone, Copy, Debug)]
pub struct Hold {
    /// Held while a record is kept ([`crate::shell::signals::writing`]).
    pub writing: fn() -> Option<MutexGuard<'static, ()>>,
    /// Told when the keeper starts and stops waiting for another program's
    /// lock, when nothing is being written
    /// ([`crate::shell::signals::waiting_for_lock`]).
    pub waiting: fn(bool),
}

impl Default for Hold {
    fn default() -> Hold {
        Hold {
            writing: || None,
            waiting: |_| (),
        }
    }
}

/// Where finished games go during a session, and the warnings when they cannot.
#[derive(Clone, Debug)]
pub struct Keeper {
    log: Option<Log>,
    hold: Hold,
    /// Finished games the log could not take, shared by the keeper's
    /// clones: a played session that lost one ends with exit status 1.
    lost: Arc<AtomicU32>,
    /// Finished games handed to the keeper, kept or not: what a session
    /// cut short (its output closed) had finished.
    finished: Arc<AtomicU32>,
}

impl Default for Keeper {
    fn default() -> Keeper {
        Keeper::new(None)
    }
}

impl Keeper {
    /// Keeps games in `log`, or nowhere.
    pub fn new(log: Option<Log>) -> Keeper {
        Keeper {
            log,
            hold: Hold::default(),
            lost: Arc::default(),
            finished: Arc::default(),
        }
    }

    /// Holds `hold` while each record is written.
    pub fn holding(self, hold: Hold) -> Keeper {
        Keeper { hold, ..self }
    }

    /// Keeps games in `log`, or nowhere, refusing at once a log that could
    /// take no game (see [`Log::check_place`]).
    pub fn open(log: Option<Log>) -> Result<Keeper, LogError> {
        if let Some(log) = &log {
            log.check_place()?;
        }
        Ok(Keeper::new(log))
    }

    /// The log, if games are kept.
    pub fn log(&self) -> Option<&Log> {
        self.log.as_ref()
    }

    /// How many finished games the log could not take this session.
    pub fn lost(&self) -> u32 {
        self.lost.load(Ordering::Relaxed)
    }

    /// How many finished games were handed to the keeper this session.
    pub fn finished(&self) -> u32 {
        self.finished.load(Ordering::Relaxed)
    }

    /// Keeps a finished game. A failure is for the caller to warn of
    /// ([`Kept::warn`]); play goes on, and the next game tries again.
    pub fn keep(&self, record: &Record) -> Kept {
        self.keep_then(record, |_| ())
    }

    /// Keeps a finished game, then runs `then` with what became of it
    /// before a signal that ends the session may act. A score updated in
    /// `then` (the farewell a signal says) therefore never counts a game the
    /// log has not taken, nor misses one it has.
    pub fn keep_then(&self, record: &Record, then: impl FnOnce(&Kept)) -> Kept {
        // A signal that ends the session waits for this game to be kept, or
        // said lost: the wait for another program's lock is bounded. Only a
        // second Ctrl-C does not wait for that lock (see `Hold::waiting`).
        let _writing = (self.hold.writing)();
        self.finished.fetch_add(1, Ordering::Relaxed);
        let kept = match &self.log {
            None => Kept::Off,
            Some(log) => {
                let mut waiting = || {
                    warn(&format!(
                        "waiting for another program to let go of {}",
                        shown(log.path())
                    ));
                    (self.hold.waiting)(true);
                };
                let locked = log.locked(&mut waiting);
                (self.hold.waiting)(false);
                match locked.and_then(|locked| locked.append(record)) {
                    Ok(number) => Kept::Logged(number),
                    Err(e) => {
                        self.lost.fetch_add(1, Ordering::Relaxed);
                        Kept::Lost(e)
                    }
                }
            }
        };
        then(&kept);
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_longer_than_the_cap_are_skipped_whole() {
        let mut input = io::Cursor::new(b"abc\nxxxxxxxxxx\nde".to_vec());
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            Some((Some(b"abc".to_vec()), true))
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), Some((None, true)));
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            Some((Some(b"de".to_vec()), false))
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), None);
    }
}
