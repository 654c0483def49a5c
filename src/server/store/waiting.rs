//! Endings that could not be stored yet, and writes that keep failing.
//!
//! A game whose ending the database refused (a full disk, a failing one)
//! has been told to its players as over. Its ending and its rating changes
//! are kept here, in memory, one per game and [`MOST_WAITING`] at most,
//! and tried again: every [`RETRY`], soon after any other change is
//! stored (the database has room again), when the store is flushed at
//! shutdown, and when it closes. Until then the database holds the game
//! as it was, in progress with every move, so a server killed before the
//! ending is stored brings it back adjourned at its last move, as after
//! any crash.
//!
//! The operator hears of each ending twice at most (when it waits, and
//! when it is stored or given up), and of any other kind of write once
//! when it starts failing and once when it works again, never once per
//! try.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use super::{Finished, GameId, Inner, StoreError, error};
use crate::shell::log::{Record, warn};
use crate::shell::safe;

/// How often waiting endings are tried again.
pub(super) const RETRY: Duration = Duration::from_secs(5);

/// The shortest time between two tries, however many changes are stored.
const PAUSE: Duration = Duration::from_secs(1);

/// How many endings may wait at once; beyond them an ending is not kept
/// (its game stays in progress in the database, and comes back adjourned).
pub(super) const MOST_WAITING: usize = 1000;

/// What waits, under one lock.
#[derive(Default)]
pub(super) struct Waiting {
    /// The endings, one per game.
    endings: BTreeMap<GameId, Ending>,
    /// Wakes the thread that tries again; `Some` while it runs.
    nudge: Option<SyncSender<()>>,
    /// The kinds of write failing now, each said once to the operator.
    failing: BTreeSet<&'static str>,
}

/// A finished game not stored yet.
struct Ending {
    record: Record,
    rated: bool,
    /// Whether the operator has been told it is lost to a stop.
    told_lost: bool,
}

/// Why an ending was not kept to wait.
pub(super) enum NotKept {
    /// The database refused it for what it asks: not worth trying again.
    Refused(StoreError),
    /// Too many endings wait already.
    Full(StoreError),
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inner {
    /// Says to the operator when a kind of write (`moves`) starts failing
    /// with an error of the database's, and when it works again: once
    /// each. A change that is stored also wakes the endings that wait.
    pub(super) fn note_write<T>(&self, what: &'static str, result: &Result<T, StoreError>) {
        let mut waiting = lock(&self.waiting);
        match result {
            Ok(_) => {
                if waiting.failing.remove(what) {
                    warn(&format!(
                        "{what} can be stored in {} again",
                        error::shown(&self.db)
                    ));
                }
                if let Some(nudge) = &waiting.nudge {
                    let _ = nudge.try_send(());
                }
            }
            Err(e) if e.transient() => {
                if waiting.failing.insert(what) {
                    warn(&format!(
                        "{what} cannot be stored: {e}; said once, until they can be again"
                    ));
                }
            }
            Err(_) => {}
        }
    }

    /// Keeps an ending the database refused with `e` to try again, and
    /// tells the operator; the error for its players, or why it is not
    /// kept.
    pub(super) fn keep_waiting(
        self: &Arc<Self>,
        id: GameId,
        record: Record,
        rated: bool,
        e: StoreError,
    ) -> Result<StoreError, NotKept> {
        if !e.transient() {
            return Err(NotKept::Refused(e));
        }
        let mut waiting = lock(&self.waiting);
        if waiting.endings.len() >= MOST_WAITING && !waiting.endings.contains_key(&id) {
            drop(waiting);
            warn(&format!(
                "game {id}'s ending could not be stored ({}), and {MOST_WAITING} endings wait already, so it is not kept: the game comes back adjourned at its last move at the next start",
                e.reason()
            ));
            return Err(NotKept::Full(e));
        }
        waiting.endings.insert(
            id,
            Ending {
                record,
                rated,
                told_lost: false,
            },
        );
        if waiting.nudge.is_none() {
            waiting.nudge = self.start_retrying();
        }
        drop(waiting);
        warn(&format!(
            "game {id}'s ending could not be stored in {} ({}); it is kept and tried again every {} seconds and at shutdown",
            error::shown(&self.db),
            e.reason(),
            RETRY.as_secs()
        ));
        Ok(StoreError::EndingWaits {
            game: id,
            reason: e.reason(),
        })
    }

    /// Starts the thread that tries the waiting endings again; it ends
    /// when none waits, or when the store has closed.
    fn start_retrying(self: &Arc<Self>) -> Option<SyncSender<()>> {
        let (nudge, nudged) = sync_channel::<()>(1);
        let store: Weak<Inner> = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("store-retry".to_string())
            .stack_size(256 * 1024)
            .spawn(move || {
                loop {
                    match nudged.recv_timeout(RETRY) {
                        Ok(()) | Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                    let Some(inner) = store.upgrade() else {
                        return;
                    };
                    if inner.retry() == 0 {
                        let mut waiting = lock(&inner.waiting);
                        // Under the lock an ending kept now sees no thread
                        // and starts one.
                        if waiting.endings.is_empty() {
                            waiting.nudge = None;
                            return;
                        }
                    }
                    drop(inner);
                    std::thread::sleep(PAUSE);
                }
            });
        match spawned {
            Ok(_) => Some(nudge),
            Err(e) => {
                // Still tried after the next change stored, and at shutdown.
                warn(&format!(
                    "could not start the thread that stores waiting endings: {e}"
                ));
                None
            }
        }
    }

    /// Tries every waiting ending once, oldest game first, until the
    /// database refuses one again; how many still wait.
    pub(super) fn retry(&self) -> usize {
        let _turn = lock(&self.retrying);
        let todo: Vec<(GameId, Record, bool)> = lock(&self.waiting)
            .endings
            .iter()
            .map(|(id, ending)| (*id, ending.record.clone(), ending.rated))
            .collect();
        for (id, record, rated) in todo {
            let result = self.finish_now(id, &record, rated);
            if matches!(&result, Err(e) if e.transient()) {
                // Still no room: the rest wait with it.
                break;
            }
            lock(&self.waiting).endings.remove(&id);
            match result {
                Ok(finished) => warn(&stored_now(id, &finished)),
                Err(StoreError::AlreadyFinished(_)) => {
                    warn(&format!("game {id}'s ending is stored now"));
                }
                Err(e) => warn(&format!("game {id}'s ending is given up: {e}")),
            }
        }
        lock(&self.waiting).endings.len()
    }

    /// How many endings wait.
    pub(super) fn endings_waiting(&self) -> usize {
        lock(&self.waiting).endings.len()
    }

    /// A last try, as the store stops; the operator hears which games
    /// come back adjourned instead.
    pub(super) fn last_try(&self) {
        if lock(&self.waiting).endings.is_empty() {
            return;
        }
        self.retry();
        let mut waiting = lock(&self.waiting);
        for (id, ending) in &mut waiting.endings {
            if !ending.told_lost {
                ending.told_lost = true;
                warn(&format!(
                    "game {id}'s ending could not be stored before the server stopped: the game comes back adjourned at its last move at the next start"
                ));
            }
        }
    }
}

/// Said to the operator once a waiting ending is stored.
fn stored_now(id: GameId, finished: &Finished) -> String {
    let mut said = format!("game {id}'s ending is stored now");
    if !finished.ratings.is_empty() {
        let moved: Vec<String> = finished
            .ratings
            .iter()
            .map(|(name, before, after)| {
                format!(
                    "{} {:.0} to {:.0}",
                    safe::text(name),
                    before.rating,
                    after.rating
                )
            })
            .collect();
        said.push_str(&format!(", with its ratings ({})", moved.join(", ")));
    }
    said
}
