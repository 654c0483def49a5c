//! The one thread that writes: it owns the write connection and runs the
//! jobs sent to it, in the order sent.
//!
//! Jobs that arrive together are committed together (group commit): each
//! runs inside a savepoint of one transaction, so a job that fails undoes
//! only itself, and one commit, one `fsync`, makes the whole group durable.
//! A caller hears back only after the commit, so a change is on disk when
//! its call returns. A busy server then pays one `fsync` per group, not
//! per move.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::thread::JoinHandle;

use rusqlite::Connection;

use super::StoreError;

/// How many jobs may wait for the writer; a caller beyond them waits.
pub(super) const QUEUE: usize = 256;

/// How many jobs one commit takes at most.
const GROUP: usize = 64;

/// What a change answers once its commit is known: it is given the
/// commit's error, if the commit failed.
type Answer = Box<dyn FnOnce(Option<&Shared>) + Send>;

/// An SQLite error that every change of a group hears.
type Shared = Arc<rusqlite::Error>;

/// A change that ran: whether it succeeded (else its savepoint is undone),
/// and how it answers.
pub(super) struct Ran {
    ok: bool,
    answer: Answer,
}

/// A change waiting for the writer.
pub(super) trait Work: Send {
    /// Runs the change on the writer's connection, inside a savepoint.
    fn run(self: Box<Self>, conn: &Connection) -> Ran;
    /// Answers without running: the transaction could not begin.
    fn fail(self: Box<Self>, e: &Shared);
}

/// A change and where its caller waits for the result.
struct Change<T, F> {
    path: PathBuf,
    change: F,
    reply: SyncSender<Result<T, StoreError>>,
}

impl<T, F> Work for Change<T, F>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, StoreError> + Send,
{
    fn run(self: Box<Self>, conn: &Connection) -> Ran {
        let Change {
            path,
            change,
            reply,
        } = *self;
        let result = change(conn);
        let ok = result.is_ok();
        let answer: Answer = Box::new(move |commit| {
            let answer = match (result, commit) {
                (Ok(value), None) => Ok(value),
                (Err(e), _) => Err(e),
                (Ok(_), Some(e)) => Err(StoreError::Commit {
                    path,
                    source: Arc::clone(e),
                }),
            };
            // A caller that has gone needs no answer.
            let _ = reply.send(answer);
        });
        Ran { ok, answer }
    }

    fn fail(self: Box<Self>, e: &Shared) {
        let _ = self.reply.send(Err(StoreError::Commit {
            path: self.path,
            source: Arc::clone(e),
        }));
    }
}

/// What the writer is asked.
pub(super) enum Job {
    /// A change, committed with the others of its group.
    Write(Box<dyn Work>),
    /// Everything before it is committed; now fold the write-ahead log into
    /// the database file.
    Checkpoint(SyncSender<Result<(), StoreError>>),
}

/// Starts the writer on `conn`: the jobs' sender, and the thread to join.
pub(super) fn start(
    conn: Connection,
    path: PathBuf,
) -> Result<(SyncSender<Job>, JoinHandle<()>), StoreError> {
    let (jobs, queue) = sync_channel(QUEUE);
    let thread = std::thread::Builder::new()
        .name("store-writer".to_string())
        .spawn(move || run(&conn, &path, &queue))
        .map_err(StoreError::Thread)?;
    Ok((jobs, thread))
}

/// A job that runs `change` and sends its result to `reply` once the
/// commit is known.
pub(super) fn job<T: Send + 'static>(
    path: PathBuf,
    change: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    reply: SyncSender<Result<T, StoreError>>,
) -> Job {
    Job::Write(Box::new(Change {
        path,
        change,
        reply,
    }))
}

/// The writer's loop: until every sender is gone.
fn run(conn: &Connection, path: &Path, queue: &Receiver<Job>) {
    let mut next = queue.recv().ok();
    while let Some(first) = next.take() {
        let mut group = Vec::new();
        let mut after = None;
        match first {
            Job::Write(work) => group.push(work),
            Job::Checkpoint(reply) => after = Some(reply),
        }
        while after.is_none() && group.len() < GROUP {
            match queue.try_recv() {
                Ok(Job::Write(work)) => group.push(work),
                Ok(Job::Checkpoint(reply)) => after = Some(reply),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        if !group.is_empty() {
            commit_group(conn, group);
        }
        if let Some(reply) = after {
            let _ = reply.send(checkpoint(conn, path));
        }
        next = queue.recv().ok();
    }
}

/// Runs a group of changes in one transaction, each in its own savepoint,
/// commits, and answers each.
fn commit_group(conn: &Connection, group: Vec<Box<dyn Work>>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        let e = Arc::new(e);
        for work in group {
            work.fail(&e);
        }
        return;
    }
    let mut answers = Vec::with_capacity(group.len());
    let mut spoiled = None;
    for work in group {
        if let Some(e) = &spoiled {
            work.fail(e);
            continue;
        }
        match run_one(conn, work) {
            Ok(answer) => answers.push(answer),
            Err((answer, e)) => {
                answers.extend(answer);
                spoiled = Some(e);
            }
        }
    }
    let failure = match spoiled {
        Some(e) => Some(e),
        None => conn.execute_batch("COMMIT").map_err(Arc::new).err(),
    };
    if failure.is_some() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    for answer in answers {
        answer(failure.as_ref());
    }
}

/// Runs one change in a savepoint, undone if the change fails. When the
/// savepoint could not be set or undone, which spoils the group: the error,
/// with the change's answer if it ran.
fn run_one(conn: &Connection, work: Box<dyn Work>) -> Result<Answer, (Option<Answer>, Shared)> {
    if let Err(e) = conn.execute_batch("SAVEPOINT job") {
        let e = Arc::new(e);
        work.fail(&e);
        return Err((None, e));
    }
    // A change that panics (a bug) is undone and leaves the writer running;
    // its caller hears that the store did not answer.
    let ran = catch_unwind(AssertUnwindSafe(|| work.run(conn)));
    let (ok, answer) = match ran {
        Ok(Ran { ok, answer }) => (ok, answer),
        Err(_) => (false, Box::new(|_: Option<&Shared>| ()) as Answer),
    };
    let undone = if ok {
        Ok(())
    } else {
        conn.execute_batch("ROLLBACK TO job")
    };
    match undone.and_then(|()| conn.execute_batch("RELEASE job")) {
        Ok(()) => Ok(answer),
        Err(e) => Err((Some(answer), Arc::new(e))),
    }
}

/// Folds the write-ahead log into the database file and empties it.
fn checkpoint(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .map_err(|e| StoreError::sqlite(path, "fold the write-ahead log into the database", e))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn insert(path: &Path, n: i64) -> impl FnOnce(&Connection) -> Result<(), StoreError> + use<> {
        let path = path.to_path_buf();
        move |conn| {
            conn.execute("INSERT INTO t (n) VALUES (?1)", [n])
                .map(drop)
                .map_err(|e| StoreError::sqlite(&path, "insert", e))
        }
    }

    #[test]
    fn a_failing_change_in_a_group_undoes_only_itself() {
        let path = PathBuf::from("memory");
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .unwrap();
        let (jobs, thread) = start(conn, path.clone()).unwrap();
        // The first change holds the writer until the next three wait
        // behind it, so those three share one commit.
        let (go, gate) = sync_channel::<()>(0);
        let (first_reply, first) = sync_channel(1);
        let hold = move |_: &Connection| -> Result<(), StoreError> {
            gate.recv().unwrap();
            Ok(())
        };
        jobs.send(job(path.clone(), hold, first_reply)).unwrap();
        let mut answers = Vec::new();
        for n in [1, 1, 2] {
            let (reply, answer) = sync_channel(1);
            jobs.send(job(path.clone(), insert(&path, n), reply))
                .unwrap();
            answers.push(answer);
        }
        // The last change reads what the group kept.
        let (count_reply, count) = sync_channel(1);
        let counting = |conn: &Connection| -> Result<i64, StoreError> {
            Ok(conn
                .query_row("SELECT count(*) FROM t", [], |row| row.get(0))
                .unwrap())
        };
        jobs.send(job(path.clone(), counting, count_reply)).unwrap();
        go.send(()).unwrap();
        first.recv().unwrap().unwrap();
        let results: Vec<bool> = answers.iter().map(|a| a.recv().unwrap().is_ok()).collect();
        assert_eq!(results, [true, false, true]);
        assert_eq!(count.recv().unwrap().unwrap(), 2);
        drop(jobs);
        thread.join().unwrap();
    }

    #[test]
    fn a_change_that_panics_is_undone_and_the_writer_goes_on() {
        let path = PathBuf::from("memory");
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .unwrap();
        let (jobs, thread) = start(conn, path.clone()).unwrap();
        let (reply, answer) = sync_channel::<Result<(), StoreError>>(1);
        let panics = |conn: &Connection| -> Result<(), StoreError> {
            conn.execute("INSERT INTO t (n) VALUES (7)", []).unwrap();
            panic!("a bug in a change");
        };
        jobs.send(job(path.clone(), panics, reply)).unwrap();
        assert!(
            answer.recv().is_err(),
            "no answer from a change that panicked"
        );
        let (reply, answer) = sync_channel(1);
        let count = |conn: &Connection| -> Result<i64, StoreError> {
            Ok(conn
                .query_row("SELECT count(*) FROM t", [], |row| row.get(0))
                .unwrap())
        };
        jobs.send(job(path, count, reply)).unwrap();
        assert_eq!(answer.recv().unwrap().unwrap(), 0);
        drop(jobs);
        thread.join().unwrap();
    }

    #[test]
    fn a_full_database_answers_with_an_error_and_the_writer_goes_on() {
        let path = PathBuf::from("server.db");
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (b BLOB); PRAGMA max_page_count = 8")
            .unwrap();
        let (jobs, thread) = start(conn, path.clone()).unwrap();
        let big = |conn: &Connection| -> Result<(), StoreError> {
            conn.execute("INSERT INTO t (b) VALUES (zeroblob(100000))", [])
                .map(drop)
                .map_err(|e| StoreError::sqlite(Path::new("server.db"), "keep a move", e))
        };
        let (reply, answer) = sync_channel(1);
        jobs.send(job(path.clone(), big, reply)).unwrap();
        let refused = answer.recv().unwrap().unwrap_err();
        assert_eq!(
            refused.to_string(),
            "server.db: could not keep a move: database or disk is full"
        );
        let (reply, answer) = sync_channel(1);
        let small = |conn: &Connection| -> Result<(), StoreError> {
            conn.execute("INSERT INTO t (b) VALUES (x'00')", [])
                .unwrap();
            Ok(())
        };
        jobs.send(job(path, small, reply)).unwrap();
        answer.recv().unwrap().unwrap();
        drop(jobs);
        thread.join().unwrap();
    }
}
