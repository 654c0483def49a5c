//! The server's store: accounts, ratings, games in progress with every
//! move, and finished games, in one SQLite file written by one thread.
//!
//! `server.db` lives in the data folder (made with mode 0700), in WAL
//! mode. One writer thread owns the write connection: a call sends its
//! change over a bounded channel and blocks until the change is committed,
//! so the callers are blocking threads (one per network session), never
//! async tasks. Changes that arrive together share one commit (see
//! [`writer`]). Reads go through a second, read-only connection behind a
//! mutex: they never wait for the writer, and see every change whose call
//! has returned.
//!
//! **Durability.** `synchronous = FULL`: a commit waits for the
//! write-ahead log to reach the disk. A move is kept once
//! [`Store::add_move`] returns, through a `kill -9` of the server and
//! through a power cut. (`NORMAL` would survive a killed process but could
//! lose the last moves to a power cut; group commit makes `FULL` cheap.)
//! After a crash, [`Store::adjourn_all`] turns every game that was in
//! progress into an adjourned one at its last move.
//!
//! **Finished games** are kept in the database first (with the rating
//! changes, in the same transaction), then appended to `history.jsonl`
//! beside it through the game log's own code and locking
//! ([`crate::shell::log::Log`]), so `tallyho history --history
//! DIR/history.jsonl` reads them. The database remembers which finished
//! games the log has not taken yet; opening the store appends them (once:
//! a game already in the log is recognised), so a crash between the two
//! writes loses nothing.
//!
//! **Another database later.** Nothing outside this module names SQLite:
//! the server sees [`Store`], its plain values and [`StoreError`]. A shared
//! database for several server machines (PostgreSQL) would replace the
//! inside behind the same functions: the same tables (with `BIGSERIAL`
//! ids), each function one transaction from a connection pool instead of
//! a job for the writer thread, the writer's group commit left to the
//! database, `SELECT … FOR UPDATE` on the game row where a function reads
//! before it writes (a move's ply, a finished game's ratings), and the
//! data-folder lock replaced by the database's own. Two things would move:
//! `history.jsonl` is one machine's file, so each machine would write its
//! own (or the log would become a query), and "adjourn every game after a
//! crash" would apply only to the games the crashed machine was serving.

mod error;
mod schema;
mod writer;

use std::fmt;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

pub use error::StoreError;
use error::log_failure;
use writer::Job;

use crate::shell::date::utc_now;
use crate::shell::log::{Log, Record, warn};

/// The database's file name in the data folder.
pub const DATABASE: &str = "server.db";

/// The finished games' log in the data folder.
pub const HISTORY: &str = "history.jsonl";

/// The file whose lock says a server is using the data folder.
pub const LOCK_FILE: &str = "server.lock";

/// How many players per game [`Store::ratings`] returns at most.
pub const LEADERBOARD: u32 = 100;

/// An account: a handle, and the ssh keys that log in as it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AccountId(pub i64);

/// An account as the lobby sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its number in the store.
    pub id: AccountId,
    /// Its handle, as first written.
    pub handle: String,
}

/// A game's number: the same while it is played and once it has finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A rated player: an account, or one of the server's computer levels
/// (one player per game and level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerRef {
    /// A person with an account.
    Account(AccountId),
    /// The server's computer at this level: `cunning`.
    Computer {
        /// The level's name.
        level: String,
    },
}

/// One seat at a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// The name shown.
    pub handle: String,
    /// The side, as the game names it: `fox`, `black`.
    pub side: String,
    /// Who sits there; `None` for a guest, who is never rated.
    pub player: Option<PlayerRef>,
}

/// A game about to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Which game: `fox`, `draughts`, `fish`.
    pub game: String,
    /// Its flow, as the log names it.
    pub flow: String,
    /// Its setup, as the game names it.
    pub setup: Vec<(String, String)>,
    /// The start position in the game's notation.
    pub start: String,
    /// Seat 0 is Player 1.
    pub seats: [SeatInfo; 2],
    /// Whether it was offered as rated.
    pub rated: bool,
}

/// A game in progress, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Its number.
    pub id: GameId,
    /// Which game.
    pub game: String,
    /// Its flow.
    pub flow: String,
    /// Its setup.
    pub setup: Vec<(String, String)>,
    /// The start position.
    pub start: String,
    /// Seat 0 is Player 1.
    pub seats: [SeatInfo; 2],
    /// Whether it is rated.
    pub rated: bool,
    /// Every move so far, from ply 0.
    pub moves: Vec<String>,
    /// Whether it is adjourned.
    pub adjourned: bool,
}

/// A Glicko-2 rating, and how many rated games it stands on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating: 1500 to start.
    pub rating: f64,
    /// How unsure it is: 350 to start, smaller with each game.
    pub deviation: f64,
    /// How erratic the player is: 0.06 to start.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
}

impl Default for Rating {
    /// Glicko-2's start: 1500, 350, 0.06, no games.
    fn default() -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
        }
    }
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The account's handle, or the computer level's name.
    pub name: String,
    /// Whether it is one of the server's computer levels.
    pub computer: bool,
    /// Which game.
    pub game: String,
    /// The rating.
    pub rating: Rating,
}

/// What finishing a game did.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// Its number in `history.jsonl`; `None` if the log could not take it
    /// (the game is still kept in the database, and the log gets it on the
    /// server's next start).
    pub number: Option<u64>,
    /// Why the log could not take it, said in a sentence for the players.
    pub log_error: Option<String>,
    /// Each rated player's name, rating before and after; empty when the
    /// game moved no rating.
    pub ratings: Vec<(String, Rating, Rating)>,
}

/// The handle is taken (by any account, in any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleTaken;

/// The server's store; clones share one writer thread and one database.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("db", &self.inner.db).finish()
    }
}

struct Inner {
    /// The database file.
    db: PathBuf,
    /// The finished games' log.
    log: Log,
    /// Where changes go; taken when the store closes.
    jobs: Option<SyncSender<Job>>,
    /// The writer, joined when the store closes.
    writer: Option<JoinHandle<()>>,
    /// The read-only connection.
    reader: Mutex<Connection>,
    /// Held while the store is open: one server per data folder.
    _lock: File,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // The writer ends when its channel closes: wait for it to close the
        // database, so a store opened next finds it free.
        self.jobs.take();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// An error of SQLite's while doing `doing`, on the database at `db`.
fn sql<'a>(db: &'a Path, doing: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + 'a {
    move |e| StoreError::sqlite(db, doing, e)
}

/// A handle as compared for "taken": one handle however it is written.
fn folded(handle: &str) -> String {
    handle.to_lowercase()
}

impl Store {
    /// Opens the store in `dir`, making the folder (mode 0700) if it is
    /// missing, `server.db` inside it, and `history.jsonl` beside it.
    /// Refuses a folder another server is using, and a `server.db` that is
    /// damaged, another program's, or from a newer tallyho. Appends to the
    /// log any finished game it has not taken yet.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        make_folder(dir)?;
        let lock = lock_folder(dir)?;
        let db = dir.join(DATABASE);
        make_database_file(&db)?;
        let conn = schema::open_writer(&db, "FULL")?;
        let log = Log::new(dir.join(HISTORY));
        relog(&conn, &db, &log)?;
        let reader = schema::open_reader(&db)?;
        let (jobs, writer) = writer::start(conn, db.clone())?;
        Ok(Store {
            inner: Arc::new(Inner {
                db,
                log,
                jobs: Some(jobs),
                writer: Some(writer),
                reader: Mutex::new(reader),
                _lock: lock,
            }),
        })
    }

    /// Where finished games are logged: `history.jsonl` in the data folder.
    pub fn history_path(&self) -> PathBuf {
        self.inner.log.path().to_path_buf()
    }

    /// The database file.
    pub fn database_path(&self) -> &Path {
        &self.inner.db
    }

    /// Sends a change to the writer and waits until it is committed.
    fn write<T: Send + 'static>(
        &self,
        change: impl FnOnce(&Connection, &Path) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.inner.db.clone();
        let stopped = || StoreError::Stopped(self.inner.db.clone());
        let jobs = self.inner.jobs.as_ref().ok_or_else(stopped)?;
        let (reply, answer) = sync_channel(1);
        let path = db.clone();
        let job = writer::job(db, move |conn| change(conn, &path), reply);
        jobs.send(job).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }

    /// Runs `read` on the read-only connection.
    fn read<T>(
        &self,
        read: impl FnOnce(&Connection, &Path) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        // A reader that panicked left no transaction open (they end with
        // their statements), so the connection is still good.
        let conn = self
            .inner
            .reader
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        read(&conn, &self.inner.db)
    }

    /// Waits until every change sent before is committed, then folds the
    /// write-ahead log into `server.db`. For shutdown: nothing is lost
    /// without it, but the database is then one file.
    pub fn flush(&self) -> Result<(), StoreError> {
        let stopped = || StoreError::Stopped(self.inner.db.clone());
        let jobs = self.inner.jobs.as_ref().ok_or_else(stopped)?;
        let (reply, answer) = sync_channel(1);
        jobs.send(Job::Checkpoint(reply)).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }

    /// The account this ssh key logs in as, if it has one.
    pub fn account_for_key(&self, fingerprint: &str) -> Result<Option<Account>, StoreError> {
        self.read(|conn, db| {
            conn.query_row(
                "SELECT a.id, a.handle FROM keys k JOIN accounts a ON a.id = k.account
                 WHERE k.fingerprint = ?1",
                [fingerprint],
                |row| {
                    Ok(Account {
                        id: AccountId(row.get(0)?),
                        handle: row.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(sql(db, "look up a key's account"))
        })
    }

    /// Whether no account has this handle, in any case (`Ann` makes `ann`
    /// taken). Guests' handles are the lobby's to check.
    pub fn handle_free(&self, handle: &str) -> Result<bool, StoreError> {
        let folded = folded(handle);
        self.read(|conn, db| {
            let taken = conn
                .query_row(
                    "SELECT 1 FROM accounts WHERE folded = ?1",
                    [&folded],
                    |_| Ok(()),
                )
                .optional()
                .map_err(sql(db, "look up a handle"))?;
            Ok(taken.is_none())
        })
    }

    /// Makes an account with this handle for this key, unless the handle is
    /// taken. A key that already has an account is an error: look it up
    /// first with [`Store::account_for_key`].
    pub fn create_account(
        &self,
        fingerprint: &str,
        handle: &str,
    ) -> Result<Result<Account, HandleTaken>, StoreError> {
        let (fingerprint, handle) = (fingerprint.to_string(), handle.to_string());
        self.write(move |conn, db| {
            let owner: Option<String> = conn
                .query_row(
                    "SELECT a.handle FROM keys k JOIN accounts a ON a.id = k.account
                     WHERE k.fingerprint = ?1",
                    [&fingerprint],
                    |row| row.get(0),
                )
                .optional()
                .map_err(sql(db, "look up a key's account"))?;
            if let Some(owner) = owner {
                return Err(StoreError::KeyHasAccount(owner));
            }
            let folded = folded(&handle);
            let taken = conn
                .query_row(
                    "SELECT 1 FROM accounts WHERE folded = ?1",
                    [&folded],
                    |_| Ok(()),
                )
                .optional()
                .map_err(sql(db, "look up a handle"))?;
            if taken.is_some() {
                return Ok(Err(HandleTaken));
            }
            conn.execute(
                "INSERT INTO accounts (handle, folded, created) VALUES (?1, ?2, ?3)",
                params![handle, folded, utc_now()],
            )
            .map_err(sql(db, "create an account"))?;
            let id = AccountId(conn.last_insert_rowid());
            conn.execute(
                "INSERT INTO keys (fingerprint, account) VALUES (?1, ?2)",
                params![fingerprint, id.0],
            )
            .map_err(sql(db, "create an account"))?;
            Ok(Ok(Account { id, handle }))
        })
    }

    /// Keeps a game that starts now; its number is the game's from now on.
    pub fn begin_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
        let game = game.clone();
        self.write(move |conn, db| {
            for seat in &game.seats {
                if let Some(PlayerRef::Account(id)) = &seat.player {
                    account_exists(conn, db, *id)?;
                }
            }
            let setup = serde_json::to_string(&game.setup).map_err(|e| StoreError::Unreadable {
                path: db.to_path_buf(),
                what: "a new game's setup".to_string(),
                detail: e.to_string(),
            })?;
            conn.execute(
                "INSERT INTO games (game, flow, setup, start, rated, began)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    game.game,
                    game.flow,
                    setup,
                    game.start,
                    game.rated,
                    utc_now()
                ],
            )
            .map_err(sql(db, "keep a new game"))?;
            let id = conn.last_insert_rowid();
            for (n, seat) in (0i64..).zip(&game.seats) {
                let (account, level) = match &seat.player {
                    None => (None, None),
                    Some(PlayerRef::Account(id)) => (Some(id.0), None),
                    Some(PlayerRef::Computer { level }) => (None, Some(level.as_str())),
                };
                conn.execute(
                    "INSERT INTO seats (game, seat, handle, side, account, level)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![id, n, seat.handle, seat.side, account, level],
                )
                .map_err(sql(db, "keep a new game's seats"))?;
            }
            Ok(GameId(id))
        })
    }

    /// Keeps move `ply` (from 0) of a game in progress: it must be the next
    /// one. Once this returns the move survives a crash of the server.
    pub fn add_move(&self, id: GameId, ply: u32, notation: &str) -> Result<(), StoreError> {
        let notation = notation.to_string();
        self.write(move |conn, db| {
            let stored = moves_stored(conn, db, id)?;
            if ply != stored {
                return Err(StoreError::Ply {
                    game: id,
                    ply,
                    stored,
                });
            }
            conn.execute(
                "INSERT INTO moves (game, ply, notation) VALUES (?1, ?2, ?3)",
                params![id.0, ply, notation],
            )
            .map_err(sql(db, "keep a move"))?;
            Ok(())
        })
    }

    /// Drops a game's last `plies` moves: an undo both players agreed to.
    pub fn take_back(&self, id: GameId, plies: u32) -> Result<(), StoreError> {
        self.write(move |conn, db| {
            let stored = moves_stored(conn, db, id)?;
            if plies > stored {
                return Err(StoreError::TakeBack {
                    game: id,
                    plies,
                    stored,
                });
            }
            conn.execute(
                "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
                params![id.0, stored - plies],
            )
            .map_err(sql(db, "take moves back"))?;
            Ok(())
        })
    }

    /// Marks a game in progress adjourned, or being played again.
    pub fn set_adjourned(&self, id: GameId, adjourned: bool) -> Result<(), StoreError> {
        self.write(move |conn, db| {
            let changed = conn
                .execute(
                    "UPDATE games SET adjourned = ?2 WHERE id = ?1",
                    params![id.0, adjourned],
                )
                .map_err(sql(db, "adjourn a game"))?;
            if changed == 0 {
                return Err(not_in_progress(conn, db, id));
            }
            Ok(())
        })
    }

    /// Adjourns every game in progress, as after a crash and at shutdown;
    /// returns how many were being played.
    pub fn adjourn_all(&self) -> Result<usize, StoreError> {
        self.write(|conn, db| {
            conn.execute("UPDATE games SET adjourned = 1 WHERE adjourned = 0", [])
                .map_err(sql(db, "adjourn the games in progress"))
        })
    }

    /// Finishes a game: in one transaction the finished game is kept (the
    /// record as given, its number aside), its moves in progress go, and,
    /// if `rated`, the ratings of its rated players move (a game with a
    /// guest, or between two computers, or someone against themself moves
    /// none). Then the record is appended to `history.jsonl`. A rated
    /// game's winner must be one seat's side, else it stays in progress.
    pub fn finish_game(
        &self,
        id: GameId,
        record: &Record,
        rated: bool,
    ) -> Result<Finished, StoreError> {
        let record = Record {
            number: 0,
            ..record.clone()
        };
        let kept = record.clone();
        let ratings = self.write(move |conn, db| keep_finished(conn, db, id, &kept, rated))?;
        let log = &self.inner.log;
        let mut told = false;
        let mut waiting = || {
            if !told {
                told = true;
                warn(&format!(
                    "waiting for another program to let go of {}",
                    error::shown(log.path())
                ));
            }
        };
        let (number, log_error) = match log.append(&record, &mut waiting) {
            Ok(number) => (Some(number), None),
            Err(e) => {
                let said = log_failure(&e);
                warn(&format!("game {id}: {said}"));
                (None, Some(said))
            }
        };
        let noted = (number, log_error.clone());
        let noting = self.write(move |conn, db| note_logged(conn, db, id, noted.0, noted.1));
        if let Err(e) = noting {
            // The game is in the log (or not) all the same; the next start
            // finds it there and notes it.
            warn(&format!("game {id}: {e}"));
        }
        Ok(Finished {
            number,
            log_error,
            ratings,
        })
    }

    /// Every game in progress, adjourned or not, oldest first.
    pub fn unfinished(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.read(|conn, db| {
            // One snapshot for all three tables.
            let snapshot = conn
                .unchecked_transaction()
                .map_err(sql(db, "read the games in progress"))?;
            let games = unfinished_games(&snapshot, db);
            let _ = snapshot.finish();
            games
        })
    }

    /// A player's rating in a game: the start rating if they have played
    /// no rated game of it.
    pub fn rating(&self, player: &PlayerRef, game: &str) -> Result<Rating, StoreError> {
        self.read(|conn, db| {
            read_rating(conn, player, game)
                .map_err(sql(db, "read a rating"))
                .map(Option::unwrap_or_default)
        })
    }

    /// The leaderboard: of one game, or of every game (by game name), best
    /// first, at most [`LEADERBOARD`] players a game. Only players with a
    /// rated game appear.
    pub fn ratings(&self, game: Option<&str>) -> Result<Vec<RatingRow>, StoreError> {
        self.read(|conn, db| {
            let mut statement = conn
                .prepare_cached(
                    "SELECT name, computer, game, rating, deviation, volatility, games FROM (
                         SELECT *, row_number() OVER
                             (PARTITION BY game ORDER BY rating DESC, name) AS place
                         FROM (
                             SELECT a.handle AS name, 0 AS computer, r.game, r.rating,
                                    r.deviation, r.volatility, r.games
                             FROM account_ratings r JOIN accounts a ON a.id = r.account
                             WHERE ?1 IS NULL OR r.game = ?1
                             UNION ALL
                             SELECT level, 1, game, rating, deviation, volatility, games
                             FROM computer_ratings WHERE ?1 IS NULL OR game = ?1))
                     WHERE place <= ?2
                     ORDER BY game, rating DESC, name",
                )
                .map_err(sql(db, "read the ratings"))?;
            let rows = statement
                .query_map(params![game, LEADERBOARD], |row| {
                    Ok(RatingRow {
                        name: row.get(0)?,
                        computer: row.get(1)?,
                        game: row.get(2)?,
                        rating: Rating {
                            rating: row.get(3)?,
                            deviation: row.get(4)?,
                            volatility: row.get(5)?,
                            games: row.get(6)?,
                        },
                    })
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(sql(db, "read the ratings"))?;
            Ok(rows)
        })
    }

    /// An account's last `limit` finished games, newest last, each with its
    /// number in `history.jsonl` (0 while the log has not taken it).
    pub fn history(&self, account: AccountId, limit: usize) -> Result<Vec<Record>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|conn, db| {
            let mut statement = conn
                .prepare_cached(
                    "SELECT id, record, log_number FROM finished
                     WHERE account0 = ?1 OR account1 = ?1 ORDER BY id DESC LIMIT ?2",
                )
                .map_err(sql(db, "read an account's games"))?;
            let rows = statement
                .query_map(params![account.0, limit], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, Option<i64>>(2)?,
                    ))
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(sql(db, "read an account's games"))?;
            let mut records = Vec::with_capacity(rows.len());
            for (id, json, number) in rows.into_iter().rev() {
                let mut record = parse_record(db, GameId(id), &json)?;
                record.number = number.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
                records.push(record);
            }
            Ok(records)
        })
    }
}

/// Makes the data folder (mode 0700) if it is missing.
fn make_folder(dir: &Path) -> Result<(), StoreError> {
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(StoreError::NotAFolder(dir.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| StoreError::Folder(dir.to_path_buf(), e)),
        Err(e) => Err(StoreError::Folder(dir.to_path_buf(), e)),
    }
}

/// Takes the data folder's lock, held as long as the file stays open.
fn lock_folder(dir: &Path) -> Result<File, StoreError> {
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| StoreError::Folder(path.clone(), e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(StoreError::InUse(dir.to_path_buf())),
        Err(fs::TryLockError::Error(e)) => Err(StoreError::Folder(path, e)),
    }
}

/// Makes an empty `server.db` readable by its owner only (SQLite's own
/// files beside it take its mode); refuses what is not a file.
fn make_database_file(db: &Path) -> Result<(), StoreError> {
    match fs::metadata(db) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(_) => Err(StoreError::NotADatabase(db.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(db)
            .map(drop)
            .map_err(|e| StoreError::Folder(db.to_path_buf(), e)),
        Err(e) => Err(StoreError::Folder(db.to_path_buf(), e)),
    }
}

/// Refuses a seat's account that does not exist.
fn account_exists(conn: &Connection, db: &Path, id: AccountId) -> Result<(), StoreError> {
    let found = conn
        .query_row("SELECT 1 FROM accounts WHERE id = ?1", [id.0], |_| Ok(()))
        .optional()
        .map_err(sql(db, "look up an account"))?;
    found.ok_or(StoreError::NoAccount(id))
}

/// Why a game is not in progress: finished, or never begun.
fn not_in_progress(conn: &Connection, db: &Path, id: GameId) -> StoreError {
    let finished = conn
        .query_row("SELECT 1 FROM finished WHERE id = ?1", [id.0], |_| Ok(()))
        .optional();
    match finished {
        Ok(Some(())) => StoreError::AlreadyFinished(id),
        Ok(None) => StoreError::NoGame(id),
        Err(e) => StoreError::sqlite(db, "look up a game", e),
    }
}

/// How many moves a game in progress has kept.
fn moves_stored(conn: &Connection, db: &Path, id: GameId) -> Result<u32, StoreError> {
    let count: Option<i64> = conn
        .query_row(
            "SELECT (SELECT count(*) FROM moves WHERE game = ?1) FROM games WHERE id = ?1",
            [id.0],
            |row| row.get(0),
        )
        .optional()
        .map_err(sql(db, "count a game's moves"))?;
    let count = count.ok_or_else(|| not_in_progress(conn, db, id))?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

/// Reads a kept record.
fn parse_record(db: &Path, id: GameId, json: &str) -> Result<Record, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("finished game {id}'s record"),
        detail: e.to_string(),
    })
}

/// A seat as kept.
fn seat_of(handle: String, side: String, account: Option<i64>, level: Option<String>) -> SeatInfo {
    let player = match (account, level) {
        (Some(id), _) => Some(PlayerRef::Account(AccountId(id))),
        (None, Some(level)) => Some(PlayerRef::Computer { level }),
        (None, None) => None,
    };
    SeatInfo {
        handle,
        side,
        player,
    }
}

/// A game's two seats.
fn seats_of(conn: &Connection, db: &Path, id: GameId) -> Result<[SeatInfo; 2], StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT handle, side, account, level FROM seats WHERE game = ?1 ORDER BY seat",
        )
        .map_err(sql(db, "read a game's seats"))?;
    let seats = statement
        .query_map([id.0], |row| {
            Ok(seat_of(row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read a game's seats"))?;
    <[SeatInfo; 2]>::try_from(seats).map_err(|seats| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("game {id}'s seats"),
        detail: format!("{} seats kept, not 2", seats.len()),
    })
}

/// Every game in progress, oldest first.
fn unfinished_games(conn: &Connection, db: &Path) -> Result<Vec<StoredGame>, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT id, game, flow, setup, start, rated, adjourned FROM games ORDER BY id",
        )
        .map_err(sql(db, "read the games in progress"))?;
    type Row = (i64, String, String, String, String, bool, bool);
    let rows: Vec<Row> = statement
        .query_map([], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(sql(db, "read the games in progress"))?;
    let mut moves = conn
        .prepare_cached("SELECT notation FROM moves WHERE game = ?1 ORDER BY ply")
        .map_err(sql(db, "read a game's moves"))?;
    let mut games = Vec::with_capacity(rows.len());
    for (id, game, flow, setup, start, rated, adjourned) in rows {
        let id = GameId(id);
        let setup = serde_json::from_str(&setup).map_err(|e| StoreError::Unreadable {
            path: db.to_path_buf(),
            what: format!("game {id}'s setup"),
            detail: e.to_string(),
        })?;
        let seats = seats_of(conn, db, id)?;
        let moves = moves
            .query_map([id.0], |row| row.get(0))
            .and_then(|rows| rows.collect::<Result<Vec<String>, _>>())
            .map_err(sql(db, "read a game's moves"))?;
        games.push(StoredGame {
            id,
            game,
            flow,
            setup,
            start,
            seats,
            rated,
            moves,
            adjourned,
        });
    }
    Ok(games)
}

/// A rated player's rating, if they have one in this game.
fn read_rating(
    conn: &Connection,
    player: &PlayerRef,
    game: &str,
) -> rusqlite::Result<Option<Rating>> {
    let row = |row: &rusqlite::Row<'_>| {
        Ok(Rating {
            rating: row.get(0)?,
            deviation: row.get(1)?,
            volatility: row.get(2)?,
            games: row.get(3)?,
        })
    };
    match player {
        PlayerRef::Account(id) => conn
            .query_row(
                "SELECT rating, deviation, volatility, games FROM account_ratings
                 WHERE account = ?1 AND game = ?2",
                params![id.0, game],
                row,
            )
            .optional(),
        PlayerRef::Computer { level } => conn
            .query_row(
                "SELECT rating, deviation, volatility, games FROM computer_ratings
                 WHERE level = ?1 AND game = ?2",
                params![level, game],
                row,
            )
            .optional(),
    }
}

/// Keeps a rated player's new rating.
fn write_rating(
    conn: &Connection,
    player: &PlayerRef,
    game: &str,
    rating: &Rating,
) -> rusqlite::Result<()> {
    match player {
        PlayerRef::Account(id) => conn.execute(
            "INSERT INTO account_ratings (account, game, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games",
            params![
                id.0,
                game,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games
            ],
        ),
        PlayerRef::Computer { level } => conn.execute(
            "INSERT INTO computer_ratings (level, game, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (level, game) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games",
            params![
                level,
                game,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games
            ],
        ),
    }
    .map(drop)
}

/// A rated player's name: the account's handle, or the level's name.
fn player_name(conn: &Connection, player: &PlayerRef) -> rusqlite::Result<String> {
    match player {
        PlayerRef::Account(id) => {
            conn.query_row("SELECT handle FROM accounts WHERE id = ?1", [id.0], |row| {
                row.get(0)
            })
        }
        PlayerRef::Computer { level } => Ok(level.clone()),
    }
}

/// Glicko-2 after one game between `one` and `two`, from `one`'s side.
fn rate(one: &Rating, two: &Rating, outcome: Outcomes) -> (Rating, Rating) {
    let glicko = |r: &Rating| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let (a, b) = glicko2(&glicko(one), &glicko(two), &outcome, &Glicko2Config::new());
    let back = |g: Glicko2Rating, before: &Rating| Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: before.games.saturating_add(1),
    };
    (back(a, one), back(b, two))
}

/// The players a finished game rates, with the outcome from the first's
/// side; `None` when it rates nobody.
fn rated_pair(
    id: GameId,
    seats: &[SeatInfo; 2],
    winner: Option<&str>,
) -> Result<Option<(PlayerRef, PlayerRef, Outcomes)>, StoreError> {
    let (Some(one), Some(two)) = (&seats[0].player, &seats[1].player) else {
        return Ok(None);
    };
    let people = [one, two]
        .iter()
        .filter(|p| matches!(p, PlayerRef::Account(_)))
        .count();
    if people == 0 || one == two {
        return Ok(None);
    }
    let outcome = match winner {
        None => Outcomes::DRAW,
        Some(side) => match (seats[0].side == side, seats[1].side == side) {
            (true, false) => Outcomes::WIN,
            (false, true) => Outcomes::LOSS,
            _ => {
                return Err(StoreError::Winner {
                    game: id,
                    winner: side.to_string(),
                });
            }
        },
    };
    Ok(Some((one.clone(), two.clone(), outcome)))
}

/// The first half of finishing a game, in the writer: keeps the finished
/// game, drops it from the games in progress, moves the ratings.
fn keep_finished(
    conn: &Connection,
    db: &Path,
    id: GameId,
    record: &Record,
    rated: bool,
) -> Result<Vec<(String, Rating, Rating)>, StoreError> {
    let game: Option<String> = conn
        .query_row("SELECT game FROM games WHERE id = ?1", [id.0], |row| {
            row.get(0)
        })
        .optional()
        .map_err(sql(db, "look up a game"))?;
    let game = game.ok_or_else(|| not_in_progress(conn, db, id))?;
    let seats = seats_of(conn, db, id)?;
    let pair = if rated {
        rated_pair(id, &seats, record.outcome.winner.as_deref())?
    } else {
        None
    };
    let mut changes = Vec::new();
    if let Some((one, two, outcome)) = pair {
        let rating_sql = sql(db, "move the players' ratings");
        let before_one = read_rating(conn, &one, &game)
            .map_err(&rating_sql)?
            .unwrap_or_default();
        let before_two = read_rating(conn, &two, &game)
            .map_err(&rating_sql)?
            .unwrap_or_default();
        let (after_one, after_two) = rate(&before_one, &before_two, outcome);
        write_rating(conn, &one, &game, &after_one).map_err(&rating_sql)?;
        write_rating(conn, &two, &game, &after_two).map_err(&rating_sql)?;
        changes.push((
            player_name(conn, &one).map_err(&rating_sql)?,
            before_one,
            after_one,
        ));
        changes.push((
            player_name(conn, &two).map_err(&rating_sql)?,
            before_two,
            after_two,
        ));
    }
    let json = serde_json::to_string(record).map_err(|e| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("game {id}'s record"),
        detail: e.to_string(),
    })?;
    let ratings_json = serde_json::Value::Array(
        changes
            .iter()
            .map(|(name, before, after)| {
                serde_json::json!({
                    "name": name,
                    "before": [before.rating, before.deviation, before.volatility, before.games],
                    "after": [after.rating, after.deviation, after.volatility, after.games],
                })
            })
            .collect(),
    )
    .to_string();
    let account = |seat: &SeatInfo| match &seat.player {
        Some(PlayerRef::Account(id)) => Some(id.0),
        _ => None,
    };
    conn.execute(
        "INSERT INTO finished (id, game, ended, rated, account0, account1, record, ratings)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id.0,
            game,
            record.date,
            !changes.is_empty(),
            account(&seats[0]),
            account(&seats[1]),
            json,
            ratings_json
        ],
    )
    .map_err(sql(db, "keep a finished game"))?;
    conn.execute_batch(&format!(
        "DELETE FROM moves WHERE game = {0}; DELETE FROM seats WHERE game = {0};
         DELETE FROM games WHERE id = {0};",
        id.0
    ))
    .map_err(sql(db, "drop a finished game from the games in progress"))?;
    Ok(changes)
}

/// The second half: where the log put the game, or why it could not.
fn note_logged(
    conn: &Connection,
    db: &Path,
    id: GameId,
    number: Option<u64>,
    error: Option<String>,
) -> Result<(), StoreError> {
    let number = number.and_then(|n| i64::try_from(n).ok());
    conn.execute(
        "UPDATE finished SET log_number = ?2, log_error = ?3 WHERE id = ?1",
        params![id.0, number, error],
    )
    .map_err(sql(db, "note a finished game's number in the game log"))
    .map(drop)
}

/// On open: appends to the log every finished game it has not taken (the
/// server stopped between the two writes, or the log failed), unless it is
/// there already. A log that cannot be read or written is warned about;
/// the games wait for the next start.
fn relog(conn: &Connection, db: &Path, log: &Log) -> Result<(), StoreError> {
    let mut statement = conn
        .prepare("SELECT id, record FROM finished WHERE log_number IS NULL ORDER BY id")
        .map_err(sql(db, "read the games the log has not taken"))?;
    let rows = statement
        .query_map([], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read the games the log has not taken"))?;
    if rows.is_empty() {
        return Ok(());
    }
    let mut waiting: Vec<(GameId, Record, Option<u64>)> = Vec::new();
    for (id, json) in rows {
        match parse_record(db, GameId(id), &json) {
            Ok(record) => waiting.push((GameId(id), record, None)),
            Err(e) => warn(&e.to_string()),
        }
    }
    // Which of them the log has already: the server stopped after
    // appending but before noting the number.
    match log.stream() {
        Ok(mut records) => loop {
            match records.next_record() {
                Ok(Some(found)) => {
                    let bare = Record {
                        number: 0,
                        ..found.clone()
                    };
                    if let Some(entry) = waiting
                        .iter_mut()
                        .find(|(_, record, number)| number.is_none() && *record == bare)
                    {
                        entry.2 = Some(found.number);
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    warn(&format!("finished games wait for the game log: {e}"));
                    return Ok(());
                }
            }
        },
        Err(e) => {
            warn(&format!("finished games wait for the game log: {e}"));
            return Ok(());
        }
    }
    for (id, record, number) in waiting {
        let (number, error) = match number {
            Some(number) => (Some(number), None),
            None => match log.append(&record, &mut || ()) {
                Ok(number) => (Some(number), None),
                Err(e) => {
                    let said = log_failure(&e);
                    warn(&format!("game {id}: {said}"));
                    (None, Some(said))
                }
            },
        };
        note_logged(conn, db, id, number, error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn seat(side: &str, player: Option<PlayerRef>) -> SeatInfo {
        SeatInfo {
            handle: String::new(),
            side: side.to_string(),
            player,
        }
    }

    #[test]
    fn the_outcome_is_read_from_the_first_seats_side() {
        let ann = Some(PlayerRef::Account(AccountId(1)));
        let bob = Some(PlayerRef::Account(AccountId(2)));
        let seats = [seat("fox", ann.clone()), seat("hounds", bob.clone())];
        let outcome = |winner| {
            rated_pair(GameId(1), &seats, winner)
                .unwrap()
                .map(|(_, _, o)| o)
        };
        assert_eq!(outcome(Some("fox")), Some(Outcomes::WIN));
        assert_eq!(outcome(Some("hounds")), Some(Outcomes::LOSS));
        assert_eq!(outcome(None), Some(Outcomes::DRAW));
        assert!(rated_pair(GameId(1), &seats, Some("geese")).is_err());
        let same = [seat("fox", ann.clone()), seat("fox", bob)];
        assert!(rated_pair(GameId(1), &same, Some("fox")).is_err());
        let guest = [seat("fox", ann), seat("hounds", None)];
        assert!(
            rated_pair(GameId(1), &guest, Some("fox"))
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn handles_fold_to_lower_case_beyond_ascii() {
        assert_eq!(folded("ÉLODIE"), folded("élodie"));
        assert_eq!(folded("Ann"), "ann");
    }

    #[test]
    fn glicko2_moves_a_win_and_counts_the_game() {
        let start = Rating::default();
        let (win, loss) = rate(&start, &start, Outcomes::WIN);
        assert!(win.rating > 1500.0 && loss.rating < 1500.0);
        assert_eq!((win.games, loss.games), (1, 1));
    }
}
