//! The database file: opening it, telling ours from damage and from other
//! programs' databases, and the schema with its version.
//!
//! `application_id` marks the file as a tallyho server's; `user_version`
//! is the schema's version. A later release adds a step to [`MIGRATIONS`]
//! and the store upgrades an older file on open, in one transaction.

use std::path::Path;
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::StoreError;

/// "TLHO": marks a SQLite file as a tallyho server's store.
const APPLICATION_ID: i64 = 0x544c_484f;

/// The schema version this build writes.
pub(super) const VERSION: i64 = 2;

/// How long a connection waits for SQLite's own locks (a checkpoint, the
/// other connection) before saying the database is busy.
const BUSY: Duration = Duration::from_secs(5);

/// Each step takes the schema from version `i` to `i + 1`.
const MIGRATIONS: [&str; VERSION as usize] = [SCHEMA_1, SCHEMA_2];

/// The first schema.
const SCHEMA_1: &str = "
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    handle TEXT NOT NULL,
    -- the handle in lower case: one handle, however it is written
    folded TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
-- an ssh key's fingerprint names its account; an account may have more later
CREATE TABLE keys (
    fingerprint TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id)
);
CREATE TABLE account_ratings (
    account INTEGER NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, game)
);
-- the server's computer levels, one player per game and level
CREATE TABLE computer_ratings (
    level TEXT NOT NULL,
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (level, game)
);
-- games in progress; AUTOINCREMENT: a number is never used twice, since a
-- finished game keeps its number
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    flow TEXT NOT NULL,
    setup TEXT NOT NULL,
    start TEXT NOT NULL,
    rated INTEGER NOT NULL,
    adjourned INTEGER NOT NULL DEFAULT 0,
    began TEXT NOT NULL
);
CREATE TABLE seats (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
    handle TEXT NOT NULL,
    side TEXT NOT NULL,
    account INTEGER REFERENCES accounts(id),
    level TEXT,
    CHECK (account IS NULL OR level IS NULL),
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE TABLE moves (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
-- finished games: the log's record as JSON, the accounts that sat, the
-- rating changes as JSON, and the game's number in history.jsonl once it
-- is there (or why it is not)
CREATE TABLE finished (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    ended TEXT NOT NULL,
    rated INTEGER NOT NULL,
    account0 INTEGER REFERENCES accounts(id),
    account1 INTEGER REFERENCES accounts(id),
    record TEXT NOT NULL,
    ratings TEXT NOT NULL,
    log_number INTEGER,
    log_error TEXT
);
CREATE INDEX finished_account0 ON finished(account0) WHERE account0 IS NOT NULL;
CREATE INDEX finished_account1 ON finished(account1) WHERE account1 IS NOT NULL;
CREATE INDEX finished_unlogged ON finished(id) WHERE log_number IS NULL;
";

/// The second: the endings a player was not online to see, told at their
/// next login. The game is `finished(id)` once its ending is stored (until
/// then it may wait in memory, so the column names no table).
const SCHEMA_2: &str = "
CREATE TABLE unseen (
    account INTEGER NOT NULL REFERENCES accounts(id),
    game INTEGER NOT NULL,
    PRIMARY KEY (account, game)
) WITHOUT ROWID;
";

/// A database marked as ours at schema `version` has every table and
/// column that version made (as a fresh database made in memory has
/// them): one marked by hand, or cut short, is refused as damaged before
/// anything reads it.
fn has_its_tables(conn: &Connection, path: &Path, version: i64) -> Result<(), StoreError> {
    let sqlite = |e| StoreError::sqlite(path, "read the database", e);
    let model = Connection::open_in_memory().map_err(sqlite)?;
    for step in MIGRATIONS
        .iter()
        .take(usize::try_from(version).unwrap_or(0))
    {
        model.execute_batch(step).map_err(sqlite)?;
    }
    let damaged = |what: String| {
        StoreError::Damaged(
            path.to_path_buf(),
            format!(
                "it is marked as a tallyho server's store of schema version {version}, but {what}"
            ),
        )
    };
    let names = |conn: &Connection, sql: &str, arg: &str| -> Result<Vec<String>, StoreError> {
        let mut statement = conn.prepare(sql).map_err(sqlite)?;
        let rows = statement
            .query_map([arg], |row| row.get::<_, String>(0))
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>());
        rows.map_err(sqlite)
    };
    let tables_sql = "SELECT name FROM sqlite_schema WHERE type = ?1 AND name NOT LIKE 'sqlite_%' ORDER BY rowid";
    let columns_sql = "SELECT name FROM pragma_table_info(?1)";
    // SQLite's names are the same whatever their case.
    let among = |name: &str, names: &[String]| names.iter().any(|n| n.eq_ignore_ascii_case(name));
    let have = names(conn, tables_sql, "table")?;
    let made = names(&model, tables_sql, "table")?;
    // A table a later version makes, there already: the upgrade could not
    // make it, and what is in it was never tallyho's.
    let latest = Connection::open_in_memory().map_err(sqlite)?;
    for step in MIGRATIONS {
        latest.execute_batch(step).map_err(sqlite)?;
    }
    for table in names(&latest, tables_sql, "table")? {
        if !among(&table, &made) && among(&table, &have) {
            return Err(damaged(format!(
                "it already has a table {table}, which only a later version makes"
            )));
        }
    }
    for table in made {
        if !among(&table, &have) {
            return Err(damaged(format!("has no table {table}")));
        }
        let columns = names(conn, columns_sql, &table)?;
        for column in names(&model, columns_sql, &table)? {
            if !among(&column, &columns) {
                return Err(damaged(format!("its table {table} has no column {column}")));
            }
        }
    }
    Ok(())
}

/// Refuses, from the first hundred bytes of `path` alone, a database
/// [`open_writer`] would refuse for what its header says: not SQLite's, or
/// marked as another program's, or as a newer tallyho's. Nothing is opened
/// to write, so a refused start leaves the file and SQLite's files beside
/// it as they were. (A header still waiting in the write-ahead log is
/// SQLite's to read, when the store opens.)
pub(super) fn check_header(path: &Path) -> Result<(), StoreError> {
    use std::io::Read;
    let Ok(file) = crate::shell::log::open_regular(path) else {
        // Missing (made new), or not to be read: the open says why.
        return Ok(());
    };
    let mut header = Vec::with_capacity(100);
    if file.take(100).read_to_end(&mut header).is_err() || header.is_empty() {
        return Ok(());
    }
    if header.len() < 100 || !header.starts_with(b"SQLite format 3\0") {
        return Err(StoreError::NotADatabase(path.to_path_buf()));
    }
    let word = |at: usize| {
        let bytes: [u8; 4] = header[at..at + 4].try_into().unwrap_or_default();
        i64::from(i32::from_be_bytes(bytes))
    };
    let (version, application) = (word(60), word(68));
    if application != 0 && application != APPLICATION_ID {
        return Err(StoreError::Foreign(path.to_path_buf()));
    }
    if application == APPLICATION_ID && version > VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: version,
            known: VERSION,
        });
    }
    Ok(())
}

/// Whether a SQLite error means the file is not a database.
fn not_a_database(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

/// Opens the writer's connection to `path`, refuses what is not our store,
/// and brings the schema up to [`VERSION`]. `synchronous` is the pragma's
/// value (see the module above for the choice).
pub(super) fn open_writer(path: &Path, synchronous: &str) -> Result<Connection, StoreError> {
    let sqlite = |doing| move |e| StoreError::sqlite(path, doing, e);
    let damaged = |doing: &'static str| {
        move |e: rusqlite::Error| {
            if not_a_database(&e) {
                StoreError::NotADatabase(path.to_path_buf())
            } else {
                StoreError::sqlite(path, doing, e)
            }
        }
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(damaged("open the database"))?;
    conn.busy_timeout(BUSY)
        .map_err(sqlite("set the busy timeout"))?;
    // Until the store is found fit, a refusal closes the connection
    // without folding a write-ahead log into the file (a newer tallyho's
    // header may wait there): the folder is left as it was found.
    let fold_on_close = |fold: bool| {
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, !fold)
            .map(drop)
            .map_err(sqlite("set the database's options"))
    };
    fold_on_close(false)?;
    let read = |sql: &str| conn.query_row(sql, [], |row| row.get::<_, i64>(0));
    // The first read of the file is where SQLite finds a foreign header.
    let application = read("PRAGMA application_id").map_err(damaged("read the database"))?;
    let version = read("PRAGMA user_version").map_err(damaged("read the database"))?;
    let tables =
        read("SELECT count(*) FROM sqlite_schema").map_err(damaged("read the database"))?;
    let ours = application == APPLICATION_ID;
    if !ours && (application != 0 || tables > 0) {
        return Err(StoreError::Foreign(path.to_path_buf()));
    }
    if ours && (version < 0 || (version == 0 && tables > 0)) {
        // No schema tallyho writes: it sets the mark and the version at once.
        return Err(StoreError::Damaged(
            path.to_path_buf(),
            format!(
                "it is marked as a tallyho server's store, but its schema version is {version}, which tallyho never writes"
            ),
        ));
    }
    if ours && version > VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: version,
            known: VERSION,
        });
    }
    if ours {
        check(&conn, path)?;
        has_its_tables(&conn, path, version)?;
    }
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
        .map_err(damaged("turn on write-ahead logging"))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::sqlite(
            path,
            "turn on write-ahead logging",
            rusqlite::Error::InvalidQuery,
        ));
    }
    conn.execute_batch(&format!(
        "PRAGMA synchronous = {synchronous}; PRAGMA foreign_keys = ON;"
    ))
    .map_err(sqlite("set the database's options"))?;
    migrate(&conn, path, if ours { version } else { 0 })?;
    fold_on_close(true)?;
    Ok(conn)
}

/// SQLite's quick check of every page: damage is found on start, not in the
/// middle of a game. It reads the whole file once.
fn check(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let mut statement = conn
        .prepare("PRAGMA quick_check(5)")
        .map_err(|e| StoreError::sqlite(path, "check the database", e))?;
    let found: Vec<String> = statement
        .query_map([], |row| row.get::<_, String>(0))
        .and_then(|rows| rows.collect())
        .map_err(|e| {
            if not_a_database(&e) {
                StoreError::Damaged(path.to_path_buf(), e.to_string())
            } else {
                StoreError::sqlite(path, "check the database", e)
            }
        })?;
    match found.as_slice() {
        [ok] if ok == "ok" => Ok(()),
        problems => Err(StoreError::Damaged(path.to_path_buf(), problems.join("; "))),
    }
}

/// Brings the schema from `version` to [`VERSION`], in one transaction.
fn migrate(conn: &Connection, path: &Path, version: i64) -> Result<(), StoreError> {
    if version == VERSION {
        return Ok(());
    }
    let sqlite = |e| StoreError::sqlite(path, "set up the database's tables", e);
    let transaction = conn.unchecked_transaction().map_err(sqlite)?;
    let from = usize::try_from(version).unwrap_or(0);
    for step in MIGRATIONS.iter().skip(from) {
        transaction.execute_batch(step).map_err(sqlite)?;
    }
    transaction
        .execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION};"
        ))
        .map_err(sqlite)?;
    transaction.commit().map_err(sqlite)
}

/// Opens a read-only connection for the readers, after the writer has set
/// the file up.
pub(super) fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let sqlite = |e| StoreError::sqlite(path, "open the database to read", e);
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(sqlite)?;
    conn.busy_timeout(BUSY).map_err(sqlite)?;
    Ok(conn)
}
