//! Why the store could not do what was asked: each error names the file or
//! the game and says what an operator (or the lobby) can do about it.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{AccountId, GameId};
use crate::shell::log::LogError;
use crate::shell::safe;

/// A path as a message shows it: nothing in it can control a terminal.
pub(super) fn shown(path: &Path) -> String {
    safe::text(&path.display().to_string())
}

/// Text from a database or a player, made safe for a terminal.
fn clean(text: &str) -> String {
    safe::text(text)
}

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data folder could not be made or used.
    #[error("the server's data folder {}: {}", shown(.0), clean(&.1.to_string()))]
    Folder(PathBuf, #[source] io::Error),
    /// The data folder, or a file in it, is behind a loop of symbolic links
    /// (or a chain longer than the system follows).
    #[error(
        "{} leads through more symbolic links than the system follows (a loop of links, or a chain of over 40), so it cannot hold the server's data: name another --data folder",
        shown(.0)
    )]
    LinkLoop(PathBuf),
    /// The data folder, or its database, is a symbolic link to nothing.
    #[error(
        "{} is a symbolic link to nothing, so it cannot hold the server's data: make what it leads to, or name another --data folder",
        shown(.0)
    )]
    Dangling(PathBuf),
    /// Something that is not a folder stands where the data folder should be.
    #[error("{} is not a folder, so it cannot hold the server's data: name another --data folder", shown(.0))]
    NotAFolder(PathBuf),
    /// Another server (or another store in this one) holds the data folder.
    #[error(
        "another tallyho server is using the data folder {} (it holds the lock on {}): stop it, or give this one another --data folder",
        shown(.0),
        shown(&.0.join(super::LOCK_FILE))
    )]
    InUse(PathBuf),
    /// A folder or a special file (a pipe, a socket, a device) stands where
    /// the store keeps a file (the database, its lock, SQLite's files, the
    /// log); the words say which.
    #[error(
        "{} is {}, where the server keeps a file of its own: move it aside, or name another --data folder",
        shown(.0),
        .1
    )]
    NotAFile(PathBuf, &'static str),
    /// A symbolic link where SQLite keeps a file of its own beside the
    /// database (`server.db-wal`): SQLite will not open it.
    #[error(
        "{} is a symbolic link, where SQLite keeps a file of its own beside the database: remove the link",
        shown(.0)
    )]
    SqliteLink(PathBuf),
    /// The database file is not SQLite, or its first page is damaged.
    #[error(
        "{} is not a database tallyho can read (damaged, or not an SQLite file): move it aside to start an empty store, or restore it from a backup",
        shown(.0)
    )]
    NotADatabase(PathBuf),
    /// SQLite's check found damage inside the database.
    #[error(
        "{} is damaged ({}): restore it from a backup, or move it aside to start an empty store",
        shown(.0),
        clean(.1)
    )]
    Damaged(PathBuf, String),
    /// Another program's SQLite database.
    #[error(
        "{} is another program's SQLite database, not a tallyho server's: give the server a --data folder of its own",
        shown(.0)
    )]
    Foreign(PathBuf),
    /// A database written by a newer tallyho.
    #[error(
        "{} was written by a newer tallyho (its schema is version {found}; this one knows up to {known}): run the newer tallyho, or restore a backup",
        shown(.path)
    )]
    TooNew {
        /// The database.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// SQLite refused or failed, while doing what `doing` says.
    #[error("{}: could not {doing}: {}", shown(.path), clean(&.source.to_string()))]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// What the store was doing: `record a move`.
        doing: &'static str,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
    /// The change was made but could not be saved (a full disk, a failing
    /// one): nothing of it is kept.
    #[error("{}: could not save the change (nothing of it is kept): {}", shown(.path), clean(&.source.to_string()))]
    Commit {
        /// The database.
        path: PathBuf,
        /// What SQLite said; shared by every change in the failed commit.
        #[source]
        source: Arc<rusqlite::Error>,
    },
    /// The writer thread could not be started.
    #[error("could not start the server's store's writer thread: {0}")]
    Thread(#[source] io::Error),
    /// The writer thread has stopped, so nothing more can be stored.
    #[error(
        "the server's store ({}) stopped or failed before answering, so this was not kept: see the server's log, and restart it",
        shown(.0)
    )]
    Stopped(PathBuf),
    /// A value kept in the database does not read back.
    #[error("{}: {what} does not read back ({}): the database was changed by hand or is damaged", shown(.path), clean(.detail))]
    Unreadable {
        /// The database.
        path: PathBuf,
        /// What: `game 7's setup`.
        what: String,
        /// Why it does not read.
        detail: String,
    },
    /// No game in progress has this number.
    #[error("there is no game {0} in progress")]
    NoGame(GameId),
    /// The game has already finished.
    #[error("game {0} has already finished")]
    AlreadyFinished(GameId),
    /// A move given out of turn: a gap or a ply already stored.
    #[error("game {game} has {stored} moves stored, so its next move is ply {stored}, not {ply}")]
    Ply {
        /// The game.
        game: GameId,
        /// The ply given.
        ply: u32,
        /// How many moves are stored.
        stored: u32,
    },
    /// More moves taken back than were played.
    #[error("game {game} has {stored} moves stored, so {plies} cannot be taken back")]
    TakeBack {
        /// The game.
        game: GameId,
        /// How many were to be taken back.
        plies: u32,
        /// How many are stored.
        stored: u32,
    },
    /// A seat names an account that does not exist.
    #[error("there is no account {}", .0.0)]
    NoAccount(AccountId),
    /// The key already has an account.
    #[error("this key already belongs to the account {}", clean(.0))]
    KeyHasAccount(String),
    /// A finished game's ending could not be stored yet (a full disk, a
    /// failing one): the store keeps it in memory and stores it when it can
    /// (tried again every few seconds, after the next change that is
    /// stored, and at shutdown). Said to players: it names no file.
    #[error(
        "the server could not store the end of game {game} yet ({}); it keeps the result and stores it as soon as it can",
        clean(.reason)
    )]
    EndingWaits {
        /// The game.
        game: GameId,
        /// Why, as SQLite said it: `database or disk is full`.
        reason: String,
    },
    /// A rated game's winner names neither seat's side (or both), so it
    /// cannot be rated. The game stays in progress.
    #[error(
        "game {game}'s winner {} is not the side of exactly one seat, so it cannot be rated; the game stays in progress",
        clean(.winner)
    )]
    Winner {
        /// The game.
        game: GameId,
        /// The winning side named.
        winner: String,
    },
}

impl StoreError {
    /// The data folder, or `path` in it, could not be made or used: said
    /// in tallyho's words where the system's are a loop of links.
    pub(super) fn folder(path: &Path, e: io::Error) -> StoreError {
        if e.raw_os_error() == Some(libc::ELOOP) {
            StoreError::LinkLoop(path.to_path_buf())
        } else {
            StoreError::Folder(path.to_path_buf(), e)
        }
    }

    /// Whether the database itself refused or failed (a full disk, an I/O
    /// error, a lock held too long), so the same change may succeed later;
    /// not a change the store refuses for what it asks.
    pub(super) fn transient(&self) -> bool {
        matches!(self, StoreError::Sqlite { .. } | StoreError::Commit { .. })
    }

    /// Why, in words for a player: what SQLite said, without the server's
    /// file names; the whole message for an error that names none.
    pub fn reason(&self) -> String {
        match self {
            StoreError::Sqlite { source, .. } => clean(&source.to_string()),
            StoreError::Commit { source, .. } => clean(&source.to_string()),
            StoreError::Stopped(_) => "the server's store has stopped".to_string(),
            StoreError::EndingWaits { reason, .. } => clean(reason),
            StoreError::Folder(_, e) => clean(&e.to_string()),
            StoreError::Thread(e) => clean(&e.to_string()),
            StoreError::Unreadable { what, .. } => format!("{what} does not read back"),
            StoreError::NotAFolder(_)
            | StoreError::LinkLoop(_)
            | StoreError::Dangling(_)
            | StoreError::InUse(_)
            | StoreError::NotADatabase(_)
            | StoreError::NotAFile(..)
            | StoreError::SqliteLink(_)
            | StoreError::Damaged(..)
            | StoreError::Foreign(_)
            | StoreError::TooNew { .. } => "the server's database cannot be used".to_string(),
            StoreError::NoGame(_)
            | StoreError::AlreadyFinished(_)
            | StoreError::Ply { .. }
            | StoreError::TakeBack { .. }
            | StoreError::NoAccount(_)
            | StoreError::KeyHasAccount(_)
            | StoreError::Winner { .. } => self.to_string(),
        }
    }

    /// An error of SQLite's, with what the store was doing: in SQLite's
    /// words, without the statement it was running.
    pub(super) fn sqlite(path: &Path, doing: &'static str, source: rusqlite::Error) -> StoreError {
        let source = match source {
            rusqlite::Error::SqlInputError { error, msg, .. } => {
                rusqlite::Error::SqliteFailure(error, Some(msg))
            }
            other => other,
        };
        StoreError::Sqlite {
            path: path.to_path_buf(),
            doing,
            source,
        }
    }
}

/// What became of a finished game's line in `history.jsonl`, kept in words.
pub(super) fn log_failure(e: &LogError) -> String {
    format!("the game is kept in the server's database but not in the game log: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlites_errors_are_said_without_the_statement() {
        let conn = rusqlite::Connection::open_in_memory().expect("a database in memory");
        let error = conn
            .prepare("SELECT nocolumn FROM sqlite_schema")
            .expect_err("no such column");
        assert!(
            matches!(error, rusqlite::Error::SqlInputError { .. }),
            "{error:?}"
        );
        let said = StoreError::sqlite(Path::new("server.db"), "read the database", error);
        assert_eq!(
            said.to_string(),
            "server.db: could not read the database: no such column: nocolumn"
        );
    }
}
