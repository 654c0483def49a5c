//! The server's store: accounts, ratings, games in progress with every
//! move, and finished games, in one SQLite file written by one thread.
//!
//! `server.db` lives in the data folder (made with mode 0700), in WAL
//! mode. One writer thread owns the write connection: a call sends its
//! change over a bounded channel and blocks until the change is committed,
//! so the callers are blocking threads (one per network session), never
//! async tasks. Changes that arrive together share one commit (group
//! commit, in `writer.rs`). Reads go through a second, read-only connection behind a
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
//! **Endings the database refuses** (a full disk, a failing one) are kept
//! in memory, at most one per game, and stored with their rating changes
//! as soon as the database takes changes again (`waiting.rs`); until then
//! the database holds the game in progress with every move, so a server
//! killed first brings it back adjourned.
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
mod finished;
mod folder;
mod games;
mod ratings;
mod schema;
mod waiting;
mod writer;

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::glicko2::Glicko2Rating;

pub use error::StoreError;
use error::log_failure;
use finished::{history_of, keep_finished, note_logged, relog, take_unseen};
pub(crate) use folder::check_file;
use folder::{lock_folder, make_database_file, make_folder};
use games::{account_exists, moves_stored, not_in_progress, unfinished_games};
use ratings::{leaderboard, read_rating};
use waiting::{NotKept, Waiting};
use writer::Job;

use crate::shell::date::utc_now;
use crate::shell::log::{Log, LogError, Record, warn};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

/// A game that ended while one of its players was not online.
#[derive(Debug, Clone)]
pub struct Unseen {
    /// Its number while it was played.
    pub game: GameId,
    /// Its record, with its number in the server's log (0 while the log
    /// has not taken it).
    pub record: Record,
    /// How the ratings moved: each player's name, rating before and after.
    pub ratings: Vec<(String, f64, f64)>,
}

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
    /// The finished games' log: its path. Appends go through the two
    /// below, which wait less for another program's lock.
    log: Log,
    /// The same log, waited for briefly as a game ends: its room is held
    /// meanwhile, and another program holding the file's lock must not
    /// hold up the players, nor others looking at the room.
    quick_log: Log,
    /// The same log, tried once without waiting: while another program
    /// is known to hold its lock, game ends do not queue up behind it.
    nowait_log: Log,
    /// The log's lock was held by another program at the last try.
    log_held: std::sync::atomic::AtomicBool,
    /// Games of this run the log has not taken (its lock was held, or it
    /// failed), tried again when a game ends and the log takes it; the
    /// rest at the next start. At most [`UNLOGGED`] are held.
    unlogged: Mutex<Vec<(GameId, Record)>>,
    /// Taken around each append, so this server's threads take turns in
    /// the process rather than wait on the file's lock (which is for other
    /// programs).
    appending: Mutex<()>,
    /// Where changes go; taken when the store closes.
    jobs: Option<SyncSender<Job>>,
    /// The writer, joined when the store closes.
    writer: Option<JoinHandle<()>>,
    /// The read-only connection.
    reader: Mutex<Connection>,
    /// Endings not stored yet, and the kinds of write failing now.
    waiting: Mutex<Waiting>,
    /// Taken while the waiting endings are tried: one try at a time.
    retrying: Mutex<()>,
    /// Held while the store is open: one server per data folder.
    _lock: File,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // An ending still waiting gets a last try while the writer runs.
        self.last_try();
        // The writer ends when its channel closes: wait for it to close the
        // database, so a store opened next finds it free.
        self.jobs.take();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl Inner {
    /// Sends a change to the writer and waits until it is committed.
    fn send<T: Send + 'static>(
        &self,
        change: impl FnOnce(&Connection, &Path) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        let stopped = || StoreError::Stopped(self.db.clone());
        let jobs = self.jobs.as_ref().ok_or_else(stopped)?;
        let (reply, answer) = sync_channel(1);
        let path = db.clone();
        let job = writer::job(db, move |conn| change(conn, &path), reply);
        jobs.send(job).map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }

    /// Finishes a game now (see [`Store::finish_game`]): the database
    /// first, then the log. An error is the database's: nothing is kept.
    fn finish_now(&self, id: GameId, record: &Record, rated: bool) -> Result<Finished, StoreError> {
        let kept = record.clone();
        let ratings = self.send(move |conn, db| keep_finished(conn, db, id, &kept, rated))?;
        // The games the log could not take before go in first, in the
        // order they ended; a game the log does not take waits again,
        // and so do those after it.
        let before = std::mem::take(&mut *self.unlogged());
        let mut free = true;
        for (id, record) in before {
            if free {
                free = self.log_one(id, &record, true).0.is_some();
            } else {
                self.unlogged().push((id, record));
            }
        }
        let (number, log_error) = self.log_one(id, record, false);
        Ok(Finished {
            number,
            log_error,
            ratings,
        })
    }

    /// The games of this run the log has not taken.
    fn unlogged(&self) -> std::sync::MutexGuard<'_, Vec<(GameId, Record)>> {
        self.unlogged.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Appends one finished game to the log, waiting only briefly for
    /// another program's lock, and notes in the database where it went or
    /// why it did not. A game the log did not take is held to try again;
    /// when a game held so (`again`) is not taken, it was warned of and
    /// noted already.
    fn log_one(&self, id: GameId, record: &Record, again: bool) -> (Option<u64>, Option<String>) {
        let held = self.log_held.load(std::sync::atomic::Ordering::SeqCst);
        let log = if held {
            &self.nowait_log
        } else {
            &self.quick_log
        };
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
        let turn = self
            .appending
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let appended = log.append(record, &mut waiting);
        drop(turn);
        self.log_held.store(
            matches!(appended, Err(LogError::Locked(..))),
            std::sync::atomic::Ordering::SeqCst,
        );
        let (number, log_error) = match appended {
            Ok(number) => (Some(number), None),
            Err(e) => {
                let said = log_failure(&e);
                let mut unlogged = self.unlogged();
                if unlogged.len() < UNLOGGED {
                    unlogged.push((id, record.clone()));
                }
                drop(unlogged);
                if again {
                    return (None, Some(said));
                }
                warn(&format!("game {id}: {said}"));
                (None, Some(said))
            }
        };
        let noted = (number, log_error.clone());
        let noting = self.send(move |conn, db| note_logged(conn, db, id, noted.0, noted.1));
        if let Err(e) = noting {
            // The game is in the log (or not) all the same; the next start
            // finds it there and notes it.
            warn(&format!("game {id}: {e}"));
        }
        (number, log_error)
    }
}

/// How long a game's end waits for another program's lock on the log.
const QUICK_LOG: std::time::Duration = std::time::Duration::from_millis(250);

/// The most games of one run held to be logged when the log takes games
/// again; the database keeps the rest for the next start.
const UNLOGGED: usize = 1_000;

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
    /// missing, `server.db` inside it (mode 0600), and `history.jsonl`
    /// beside it (0600, when the first game ends).
    /// Refuses a folder another server is using, and a `server.db` that is
    /// damaged, another program's, or from a newer tallyho. Appends to the
    /// log any finished game it has not taken yet.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        // Every file is checked before any is made, and what was made for
        // an open that fails after all is taken away again: a refused
        // start leaves the folder as it was.
        Store::check(dir)?;
        let made = folder::Made::before(dir);
        make_folder(dir)?;
        let opened = lock_folder(dir).and_then(|lock| {
            // Held until what was made is gone, so that no other server
            // starts on the folder in between.
            let held = lock.try_clone().ok();
            let opened = Store::open_locked(dir, lock);
            if opened.is_err() {
                made.take_away(dir);
            }
            drop(held);
            opened
        });
        if opened.is_err() {
            made.take_away_folder(dir);
        }
        opened
    }

    /// [`Store::open`] once the folder is there and locked (`lock`).
    fn open_locked(dir: &Path, lock: File) -> Result<Store, StoreError> {
        let db = dir.join(DATABASE);
        make_database_file(&db)?;
        let conn = schema::open_writer(&db, "FULL")?;
        let log = Log::new(dir.join(HISTORY)).private();
        let quick_log = log.clone().with_patience(QUICK_LOG);
        // Briefly, as a game's end: another program holding the log does
        // not keep the doors shut. What it could not take waits in memory.
        let mut unlogged = relog(&conn, &db, &quick_log)?;
        unlogged.truncate(UNLOGGED);
        let reader = schema::open_reader(&db)?;
        let (jobs, writer) = writer::start(conn, db.clone())?;
        Ok(Store {
            inner: Arc::new(Inner {
                db,
                nowait_log: log.clone().with_patience(std::time::Duration::ZERO),
                log_held: std::sync::atomic::AtomicBool::new(false),
                quick_log,
                log,
                unlogged: Mutex::new(unlogged),
                jobs: Some(jobs),
                writer: Some(writer),
                reader: Mutex::new(reader),
                appending: Mutex::new(()),
                waiting: Mutex::new(Waiting::default()),
                retrying: Mutex::new(()),
                _lock: lock,
            }),
        })
    }

    /// What would refuse [`Store::open`] for what stands in `dir`, found
    /// without making anything (a folder, pipe or link where a file should
    /// be; another server using the folder; a database whose header is
    /// not tallyho's, or a newer tallyho's), so that a start can look
    /// before it opens its doors. The rest of `server.db` is read when the
    /// store opens.
    pub fn check(dir: &Path) -> Result<(), StoreError> {
        if !folder::folder_is_there(dir)? {
            return Ok(());
        }
        let db = dir.join(DATABASE);
        for file in [&dir.join(LOCK_FILE), &db, &dir.join(HISTORY)] {
            folder::check_file(file)?;
        }
        folder::check_sqlite_files(&db)?;
        folder::check_not_in_use(dir)?;
        schema::check_header(&db)
    }

    /// Where finished games are logged: `history.jsonl` in the data folder.
    pub fn history_path(&self) -> PathBuf {
        self.inner.log.path().to_path_buf()
    }

    /// The database file.
    pub fn database_path(&self) -> &Path {
        &self.inner.db
    }

    /// Sends a change to the writer and waits until it is committed; a
    /// failing kind of write (`what`: `moves`) is said to the operator.
    fn write<T: Send + 'static>(
        &self,
        what: &'static str,
        change: impl FnOnce(&Connection, &Path) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let result = self.inner.send(change);
        self.inner.note_write(what, &result);
        result
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
    ///
    /// An ending still waiting to be stored gets a last try first.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.inner.last_try();
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
        self.write("new accounts", move |conn, db| {
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
        self.write("new games", move |conn, db| {
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
        self.write("moves", move |conn, db| {
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
        self.write("moves taken back", move |conn, db| {
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
        self.write("adjournments", move |conn, db| {
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
        self.write("adjournments", |conn, db| {
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
    ///
    /// When the database cannot take it (a full disk, a failing one), the
    /// ending is kept in memory and stored as soon as it can be, and the
    /// error is [`StoreError::EndingWaits`]; until then the database holds
    /// the game in progress with every move, so a server killed before
    /// brings it back adjourned.
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
        match self.inner.finish_now(id, &record, rated) {
            Ok(finished) => {
                self.inner.note_write("game endings", &Ok(()));
                Ok(finished)
            }
            Err(e) => match self.inner.keep_waiting(id, record, rated, e) {
                Ok(waits) => Err(waits),
                Err(NotKept::Refused(e) | NotKept::Full(e)) => Err(e),
            },
        }
    }

    /// How many finished games wait to be stored.
    pub fn endings_waiting(&self) -> usize {
        self.inner.endings_waiting()
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
        self.read(|conn, db| leaderboard(conn, db, game))
    }

    /// Notes that the player of `account` was not online when game `id`
    /// ended, to be told at their next login.
    pub fn note_unseen(&self, account: AccountId, id: GameId) -> Result<(), StoreError> {
        self.write("unseen endings", move |conn, db| {
            conn.execute(
                "INSERT OR IGNORE INTO unseen (account, game) VALUES (?1, ?2)",
                params![account.0, id.0],
            )
            .map_err(sql(db, "note an ending a player has not seen"))
            .map(drop)
        })
    }

    /// The games of `account` that ended while its player was not online,
    /// oldest first; each is forgotten as it is returned. One whose ending
    /// still waits to be stored stays for the next login.
    pub fn take_unseen(&self, account: AccountId) -> Result<Vec<Unseen>, StoreError> {
        self.write("unseen endings", move |conn, db| {
            take_unseen(conn, db, account)
        })
    }

    /// An account's last `limit` finished games, newest last, each with its
    /// number in `history.jsonl` (0 while the log has not taken it).
    pub fn history(&self, account: AccountId, limit: usize) -> Result<Vec<Record>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|conn, db| history_of(conn, db, account, limit))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn handles_fold_to_lower_case_beyond_ascii() {
        assert_eq!(folded("ÉLODIE"), folded("élodie"));
        assert_eq!(folded("Ann"), "ann");
    }
}
