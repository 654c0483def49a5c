//! What every session shares: who is online, the open seeks, and the games
//! in progress (rooms). A room holds the one authoritative table of a game;
//! sessions ask moves on copies of it and hand the moves back here, where
//! they are checked again, stored, and the other sessions woken.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::link::{Outbox, Waker};
use crate::games::GameKind;
use crate::shell::table::Table;

/// A session's number while it is connected.
pub type SessionId = u64;

/// What a player online is doing, for `who`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Doing {
    /// In the lobby.
    Idle,
    /// Playing game N.
    Playing(u64),
    /// Watching game N.
    Watching(u64),
}

/// Something said to a session between its own questions.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Notice {
    /// `say` or `tell` from another player.
    Said {
        /// Who said it.
        from: String,
        /// What, as typed.
        text: String,
        /// Whether only this player was told.
        told: bool,
    },
    /// A line from the server.
    Info(String),
    /// The server's last line to a player before it closes the connection
    /// (its shutdown): no question is shown again after it. `game`: the
    /// game it took from under them, if they were playing one (its number,
    /// and whether it can be resumed), which the machine dialect hears
    /// first as an `adjourned` event.
    Last {
        text: String,
        game: Option<(u64, bool)>,
    },
}

/// A player online.
pub struct Online {
    /// Their handle.
    pub handle: String,
    /// Their account, when they logged in with a key.
    pub account: Option<i64>,
    /// Where notices go.
    pub outbox: Outbox,
    /// Wakes their session.
    pub waker: Waker,
    /// Whether they speak the machine dialect.
    pub json: bool,
    /// Their terminal's width in columns (0 while unknown), when they are
    /// at one: notices are wrapped to it.
    pub width: Option<Arc<AtomicUsize>>,
    /// What they are doing.
    pub doing: Doing,
    /// A game they were seated at by someone else, not yet seen.
    pub seated: Option<Arc<Room>>,
}

/// An open offer of a game.
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its number in `seeks`.
    pub n: u64,
    /// The session that made it.
    pub by: SessionId,
    /// Its maker's handle.
    pub handle: String,
    /// For one player only (a challenge).
    pub to: Option<String>,
    /// The game.
    pub kind: GameKind,
    /// The setup options given.
    pub options: Vec<(String, String)>,
    /// The side its maker plays (an index into the game's sides), if chosen.
    pub side: Option<usize>,
    /// Whether it is rated.
    pub rated: bool,
}

/// The lobby: everyone online, the seeks, the rooms. Its lock is held for
/// moments only, and never while a room's lock is taken.
#[derive(Default)]
pub struct Hub {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_session: u64,
    next_seek: u64,
    online: BTreeMap<SessionId, Online>,
    seeks: Vec<Seek>,
    rooms: BTreeMap<u64, Arc<Room>>,
    /// Adjourned games a player asked to resume while the other was busy,
    /// by number: the session that asked. They resume once both are free.
    resume_asks: BTreeMap<u64, SessionId>,
}

/// The most seeks open at once, and per player.
const MAX_SEEKS: usize = 2000;
const MAX_SEEKS_EACH: usize = 3;

impl Hub {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session's number.
    pub fn session_id(&self) -> SessionId {
        let mut state = self.lock();
        state.next_session += 1;
        state.next_session
    }

    /// A guest handle nobody online has: `guest1`, `guest2`…
    pub fn guest_handle(&self, taken: &dyn Fn(&str) -> bool) -> String {
        // Numbers drawn at random, so a guest of one run of the server is
        // not mistaken in the log for a guest of another.
        let seated = self.seated_handles();
        let state = self.lock();
        let mut digits = 4;
        loop {
            for _ in 0..20 {
                let n: u64 = rand::random_range(0..10u64.pow(digits));
                let handle = format!("guest{n}");
                let used = state
                    .online
                    .values()
                    .any(|o| o.handle.eq_ignore_ascii_case(&handle))
                    || seated.iter().any(|h| h.eq_ignore_ascii_case(&handle));
                if !used && !taken(&handle) {
                    return handle;
                }
            }
            digits = (digits + 1).min(18);
        }
    }

    /// The handles seated at games in progress, whether or not online.
    pub fn seated_handles(&self) -> Vec<String> {
        self.rooms()
            .iter()
            .flat_map(|room| room.lock().names())
            .collect()
    }

    /// Whether a handle is online.
    pub fn is_online(&self, handle: &str) -> bool {
        self.lock()
            .online
            .values()
            .any(|o| o.handle.eq_ignore_ascii_case(handle))
    }

    /// Whether the player online as `handle` is a guest (plays unrated).
    pub fn is_guest(&self, handle: &str) -> bool {
        self.lock()
            .online
            .values()
            .find(|o| o.handle.eq_ignore_ascii_case(handle))
            .is_some_and(|o| o.account.is_none())
    }

    /// Puts a player online.
    pub fn join(&self, id: SessionId, online: Online) {
        self.lock().online.insert(id, online);
    }

    /// Takes a player offline, with their seeks.
    pub fn leave(&self, id: SessionId) {
        let mut state = self.lock();
        let Some(gone) = state.online.remove(&id).map(|o| o.handle) else {
            return;
        };
        // The handle may still be online in another session (a login
        // again with the same key): then it has not left, and its seeks
        // and challenges pass to that session.
        let still_here = state
            .online
            .iter()
            .find(|(_, o)| o.handle.eq_ignore_ascii_case(&gone))
            .map(|(&other, _)| other);
        if let Some(other) = still_here {
            for seek in state.seeks.iter_mut().filter(|s| s.by == id) {
                seek.by = other;
            }
            return;
        }
        let why = format!(": {gone} has left the server");
        drop_seeks(&mut state, |s| s.by == id, &why, None);
        // A challenge to a player who has gone is gone too, and its maker
        // is told.
        let to_gone = |s: &Seek| {
            s.to.as_deref()
                .is_some_and(|to| to.eq_ignore_ascii_case(&gone))
        };
        let (dropped, kept): (Vec<Seek>, Vec<Seek>) = std::mem::take(&mut state.seeks)
            .into_iter()
            .partition(to_gone);
        state.seeks = kept;
        for seek in dropped {
            if let Some(o) = state.online.get(&seek.by) {
                let told = format!(
                    "Your challenge to {gone} (seek {}) is withdrawn: {gone} has left the server.",
                    seek.n
                );
                deliver(o, &Notice::Info(told));
            }
        }
    }

    /// A handle as the player online writes it.
    pub fn handle_as_written(&self, handle: &str) -> Option<String> {
        self.lock()
            .online
            .values()
            .find(|o| o.handle.eq_ignore_ascii_case(handle))
            .map(|o| o.handle.clone())
    }

    /// Says who a session is, once known.
    pub fn identify(&self, id: SessionId, handle: &str, account: Option<i64>) {
        if let Some(o) = self.lock().online.get_mut(&id) {
            o.handle = handle.to_string();
            o.account = account;
        }
    }

    /// How many unfinished games a player holds a seat at (playing, left
    /// or adjourned): by account, or for a guest by session.
    pub fn games_of(&self, account: Option<i64>, session: SessionId) -> usize {
        self.rooms()
            .iter()
            .filter(|room| room.lock().seats.iter().any(|s| s.is_of(account, session)))
            .count()
    }

    /// Whether a game in progress waits for this account to come back.
    pub fn waiting_for(&self, account: i64) -> bool {
        // The rooms are locked after the lobby is let go: a room's lock is
        // always taken before the lobby's, never after.
        self.rooms().iter().any(|room| {
            let st = room.lock();
            !st.adjourned
                && st
                    .seats
                    .iter()
                    .any(|s| s.session.is_none() && s.sitter == Sitter::Person(Some(account)))
        })
    }

    /// Renames a player online (a guest's `name`), and the challenges to
    /// them (their own seeks are taken back before a handle may change).
    pub fn rename(&self, id: SessionId, handle: &str) {
        let mut state = self.lock();
        let Some(o) = state.online.get_mut(&id) else {
            return;
        };
        let old = std::mem::replace(&mut o.handle, handle.to_string());
        let others = state
            .online
            .iter()
            .any(|(&other, o)| other != id && o.handle.eq_ignore_ascii_case(&old));
        if !others && !old.is_empty() {
            for seek in state.seeks.iter_mut() {
                if seek
                    .to
                    .as_deref()
                    .is_some_and(|to| to.eq_ignore_ascii_case(&old))
                {
                    seek.to = Some(handle.to_string());
                }
            }
        }
    }

    /// How many seeks a session has open.
    pub fn seeks_by(&self, id: SessionId) -> usize {
        self.lock().seeks.iter().filter(|s| s.by == id).count()
    }

    /// The player now speaks the machine dialect.
    pub fn set_json(&self, id: SessionId) {
        if let Some(o) = self.lock().online.get_mut(&id) {
            o.json = true;
        }
    }

    /// What a session is doing, if it is online.
    pub fn doing_of(&self, id: SessionId) -> Option<Doing> {
        self.lock().online.get(&id).map(|o| o.doing)
    }

    /// A session's account, if it has one.
    pub fn account_of(&self, id: SessionId) -> Option<i64> {
        self.lock().online.get(&id).and_then(|o| o.account)
    }

    /// Says what a player is doing.
    pub fn doing(&self, id: SessionId, doing: Doing) {
        if let Some(o) = self.lock().online.get_mut(&id) {
            o.doing = doing;
        }
    }

    /// Everyone online with a handle: handle, account, doing. A new key's
    /// session still choosing its handle is nobody yet.
    pub fn who(&self) -> Vec<(String, Option<i64>, Doing)> {
        self.lock()
            .online
            .values()
            .filter(|o| !o.handle.is_empty())
            .map(|o| (o.handle.clone(), o.account, o.doing))
            .collect()
    }

    /// Sends a notice to a player online by handle; `false` if not online.
    pub fn tell(&self, handle: &str, notice: &Notice) -> bool {
        let state = self.lock();
        let mut told = false;
        for o in state.online.values() {
            if o.handle.eq_ignore_ascii_case(handle) {
                deliver(o, notice);
                told = true;
            }
        }
        told
    }

    /// Sends a notice to a session.
    pub fn notify(&self, id: SessionId, notice: &Notice) {
        if let Some(o) = self.lock().online.get(&id) {
            deliver(o, notice);
        }
    }

    /// Opens a seek; its number, or why not.
    pub fn seek(&self, mut seek: Seek) -> Result<u64, String> {
        let mut state = self.lock();
        if state.seeks.len() >= MAX_SEEKS {
            return Err("there are too many open seeks; accept one instead".into());
        }
        if state.seeks.iter().filter(|s| s.by == seek.by).count() >= MAX_SEEKS_EACH {
            return Err(format!(
                "you have {MAX_SEEKS_EACH} seeks open already; `unseek` takes them back"
            ));
        }
        state.next_seek += 1;
        seek.n = state.next_seek;
        let n = seek.n;
        state.seeks.push(seek);
        Ok(n)
    }

    /// Takes back a player's seeks; how many.
    pub fn unseek(&self, id: SessionId) -> usize {
        let mut state = self.lock();
        let why = match state.online.get(&id) {
            Some(o) => format!(": {} took it back", o.handle),
            None => String::new(),
        };
        drop_seeks(&mut state, |s| s.by == id, &why, None).len()
    }

    /// The seeks a player may see: open ones, and challenges to them.
    pub fn seeks(&self, handle: &str) -> Vec<Seek> {
        self.lock()
            .seeks
            .iter()
            .filter(|s| {
                s.to.as_deref()
                    .is_none_or(|to| to.eq_ignore_ascii_case(handle))
                    || s.handle.eq_ignore_ascii_case(handle)
            })
            .cloned()
            .collect()
    }

    /// Takes seek `n` off the list for `taker`: the seek, or why not. A
    /// player plays one game at a time, so the maker's other seeks and the
    /// taker's go with it, in the same moment: two accepts at once never
    /// seat one player in two games.
    pub fn take_seek(&self, n: u64, taker: SessionId, handle: &str) -> Result<Seek, String> {
        let mut state = self.lock();
        let Some(i) = state.seeks.iter().position(|s| s.n == n) else {
            return Err(format!("there is no seek {n}; type seeks for the list"));
        };
        let seek = &state.seeks[i];
        let maker_account = state.online.get(&seek.by).and_then(|o| o.account);
        let taker_account = state.online.get(&taker).and_then(|o| o.account);
        if seek.by == taker || (maker_account.is_some() && maker_account == taker_account) {
            return Err("that seek is your own".into());
        }
        if seek
            .to
            .as_deref()
            .is_some_and(|to| !to.eq_ignore_ascii_case(handle))
        {
            return Err(format!("there is no seek {n}; type seeks for the list"));
        }
        if seek.rated && taker_account.is_none() {
            return Err("that seek is rated, and guests play unrated".into());
        }
        let seek = state.seeks.remove(i);
        withdraw_seeks(&mut state, seek.by, Some(taker));
        withdraw_seeks(&mut state, taker, Some(seek.by));
        Ok(seek)
    }

    /// A new room's number, and the room put in the list.
    pub fn open_room(&self, number: u64, room: Room) -> Arc<Room> {
        let room = Arc::new(room);
        self.lock().rooms.insert(number, Arc::clone(&room));
        room
    }

    /// Seats a session at a room and wakes it: someone else started its game.
    pub fn seat(&self, id: SessionId, room: &Arc<Room>, wake: bool) {
        let mut state = self.lock();
        withdraw_seeks(&mut state, id, None);
        if let Some(o) = state.online.get_mut(&id) {
            o.seated = Some(Arc::clone(room));
            o.doing = Doing::Playing(room.number);
            if wake {
                o.waker.wake();
            }
        }
    }

    /// The game a session was seated at, once.
    pub fn take_seated(&self, id: SessionId) -> Option<Arc<Room>> {
        self.lock().online.get_mut(&id)?.seated.take()
    }

    /// The room numbered `n`.
    pub fn room(&self, n: u64) -> Option<Arc<Room>> {
        self.lock().rooms.get(&n).cloned()
    }

    /// Every room, by number.
    pub fn rooms(&self) -> Vec<Arc<Room>> {
        self.lock().rooms.values().cloned().collect()
    }

    /// Takes a finished room off the list.
    pub fn close_room(&self, n: u64) {
        let mut state = self.lock();
        state.rooms.remove(&n);
        state.resume_asks.remove(&n);
    }

    /// Remembers that session `by` asked to resume game `n` while the other
    /// player was busy; `false` if it had asked already.
    pub fn ask_resume(&self, n: u64, by: SessionId) -> bool {
        self.lock().resume_asks.insert(n, by) != Some(by)
    }

    /// Forgets a resume asked for game `n`: it resumed, or cannot.
    pub fn forget_resume(&self, n: u64) {
        self.lock().resume_asks.remove(&n);
    }

    /// The resumes asked and not yet carried out: game, and who asked.
    pub fn clone_asks(&self) -> Vec<(u64, SessionId)> {
        let state = self.lock();
        state.resume_asks.iter().map(|(&n, &by)| (n, by)).collect()
    }

    /// The session online with this account, if any.
    pub fn session_of(&self, account: i64) -> Option<SessionId> {
        let state = self.lock();
        let mut sessions = state
            .online
            .iter()
            .filter(|(_, o)| o.account == Some(account));
        let all: Vec<(SessionId, Doing)> =
            sessions.by_ref().map(|(id, o)| (*id, o.doing)).collect();
        // One in the lobby first: it is free to sit down.
        all.iter()
            .find(|(_, doing)| *doing == Doing::Idle)
            .or(all.first())
            .map(|(id, _)| *id)
    }

    /// Closes the other sessions online with this account, telling each
    /// why (the notice leaves before the connection closes); returns them.
    pub fn close_others(&self, account: i64, except: SessionId) -> Vec<SessionId> {
        let state = self.lock();
        let mut closed = Vec::new();
        for (&id, o) in &state.online {
            if id != except && o.account == Some(account) {
                // The last line: no question is shown again after it.
                deliver(
                    o,
                    &Notice::Last {
                        text:
                            "You logged in again with this key elsewhere: this session is closed."
                                .into(),
                        game: None,
                    },
                );
                // Closed at once, the connection could lose the notice on
                // its way out: the outbox takes no more, and the door
                // closes the connection once the notice has left.
                o.outbox.retire();
                // Woken, the session writes, finds its outbox retired and
                // ends at once, without waiting for its door to notice.
                o.waker.wake();
                closed.push(id);
            }
        }
        closed
    }

    /// Whether a session still holds a seat at a game (until its end has
    /// parked them).
    pub fn holds_seat(&self, id: SessionId) -> bool {
        self.rooms()
            .iter()
            .any(|room| room.lock().seat_of(id).is_some())
    }

    /// How many sessions are online.
    pub fn online(&self) -> usize {
        self.lock().online.len()
    }

    /// Whether every session's text has been sent.
    pub fn all_quiet(&self) -> bool {
        self.lock().online.values().all(|o| o.outbox.is_empty())
    }

    /// Tells everyone online, each what `notice` says to their account
    /// (`None` for a guest).
    pub fn tell_each(&self, notice: impl Fn(SessionId, Option<i64>) -> Notice) {
        for (&id, o) in &self.lock().online {
            deliver(o, &notice(id, o.account));
        }
    }

    /// Whether a session is still connected.
    pub fn is_connected(&self, id: SessionId) -> bool {
        self.lock().online.contains_key(&id)
    }

    /// Wakes a session, with its waker.
    pub fn waker(&self, id: SessionId) -> Option<Waker> {
        self.lock().online.get(&id).map(|o| o.waker.clone())
    }
}

/// Takes a player's seeks off the list as a game of theirs begins (a
/// player plays one game at a time), telling them which; the `partner`
/// they begin it with, where known, hears nothing of a challenge to them.
fn withdraw_seeks(state: &mut State, id: SessionId, partner: Option<SessionId>) {
    let why = match state.online.get(&id) {
        Some(o) => format!(": {} has begun another game", o.handle),
        None => String::new(),
    };
    let gone: Vec<String> = drop_seeks(state, |s| s.by == id, &why, partner)
        .iter()
        .map(|s| s.n.to_string())
        .collect();
    if gone.is_empty() {
        return;
    }
    if let Some(o) = state.online.get(&id) {
        let told = match &gone[..] {
            [one] => format!("Your seek {one} is withdrawn: a player plays one game at a time."),
            more => format!(
                "Your seeks {} are withdrawn: a player plays one game at a time.",
                crate::games::and_list(more)
            ),
        };
        deliver(o, &Notice::Info(told));
    }
}

/// Takes off the list the seeks `gone` picks, and tells each player one
/// of them challenged, if online, that it is withdrawn, and `why`; but
/// not `spare`, who is about to play their maker.
fn drop_seeks(
    state: &mut State,
    gone: impl Fn(&Seek) -> bool,
    why: &str,
    spare: Option<SessionId>,
) -> Vec<Seek> {
    let (dropped, kept): (Vec<Seek>, Vec<Seek>) = std::mem::take(&mut state.seeks)
        .into_iter()
        .partition(|s| gone(s));
    state.seeks = kept;
    for seek in &dropped {
        let Some(to) = &seek.to else { continue };
        let told = format!(
            "{}'s challenge (seek {}) is withdrawn{why}.",
            seek.handle, seek.n
        );
        for (_, o) in state
            .online
            .iter()
            .filter(|&(&id, o)| o.handle.eq_ignore_ascii_case(to) && Some(id) != spare)
        {
            deliver(o, &Notice::Info(told.clone()));
        }
    }
    dropped
}

/// Sends a notice to one player, in their dialect.
fn deliver(o: &Online, notice: &Notice) {
    let text = if o.json {
        let value = match notice {
            Notice::Said { from, text, told } => serde_json::json!({
                "event": "said", "from": from, "text": text, "private": told
            }),
            Notice::Info(text) | Notice::Last { text, .. } => {
                serde_json::json!({"event": "info", "text": text})
            }
        };
        let mut lines = String::new();
        if let Notice::Last {
            game: Some((game, resumable)),
            ..
        } = notice
        {
            let put_away =
                serde_json::json!({"event": "adjourned", "game": game, "resumable": resumable});
            lines.push_str(&crate::shell::safe::json(&put_away.to_string()));
            lines.push('\n');
        }
        lines.push_str(&crate::shell::safe::json(&value.to_string()));
        lines.push('\n');
        lines
    } else {
        let line = match notice {
            Notice::Said {
                from,
                text,
                told: false,
            } => format!("{from} says: {text}"),
            Notice::Said {
                from,
                text,
                told: true,
            } => format!("{from} tells you: {text}"),
            Notice::Info(text) | Notice::Last { text, .. } => text.clone(),
        };
        let line = crate::shell::safe::text(&line);
        // A door that knows no window (the line door) is wrapped as a
        // script is, at 80 columns.
        let width = o.width.as_ref().map_or(0, |w| w.load(Ordering::Relaxed));
        let width = if width == 0 { SCRIPT_WIDTH } else { width };
        // A line of its own, marked as a notice: the ssh door shows the
        // question and the typed text again after it (see
        // `editor::InSight`); every door takes the mark off. The last line
        // is not marked: nothing follows it to answer.
        let mark = match notice {
            Notice::Last { .. } => String::new(),
            _ => char::from(crate::server::link::NOTICE).to_string(),
        };
        format!("{mark}\n{}\n", wrapped(&line, width.max(NARROWEST)))
    };
    o.outbox.send(text.into_bytes());
}

/// The width a notice is wrapped at where the window is not known, as a
/// script's conversation is.
const SCRIPT_WIDTH: usize = 80;

/// The narrowest screen a notice is wrapped for, as the console's own text.
const NARROWEST: usize = 20;

/// Escaped text (see [`crate::shell::safe::text`]) wrapped at word
/// boundaries to `width` columns. A word wider than a line is broken, but
/// never inside an escape such as `\u{180e}`.
fn wrapped(escaped: &str, width: usize) -> String {
    let words: Vec<String> = escaped
        .split(' ')
        .map(|word| {
            if crate::shell::safe::width(word) <= width {
                word.to_string()
            } else {
                broken(word, width)
            }
        })
        .collect();
    crate::shell::safe::wrap_said(&words.join(" "), width)
}

/// A word wider than `width` cut into lines of at most `width` columns,
/// each escape kept whole (an escape is narrower than any line).
fn broken(word: &str, width: usize) -> String {
    let mut lines = vec![String::new()];
    let mut rest = word;
    while let Some(c) = rest.chars().next() {
        // `\u{` and one to six hex digits, then `}`: one escape.
        let escape = rest.strip_prefix("\\u{").and_then(|r| {
            let digits = r.find(|d: char| !d.is_ascii_hexdigit())?;
            (r[digits..].starts_with('}') && (1..=6).contains(&digits)).then_some(digits)
        });
        let unit = match escape {
            Some(digits) => &rest[..3 + digits + 1],
            None => &rest[..c.len_utf8()],
        };
        rest = &rest[unit.len()..];
        let line = lines.last_mut().map_or(0, |l| crate::shell::safe::width(l));
        if line > 0 && line + crate::shell::safe::width(unit) > width {
            lines.push(String::new());
        }
        if let Some(last) = lines.last_mut() {
            last.push_str(unit);
        }
    }
    lines.join("\n")
}

/// Who sits at a seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sitter {
    /// A person: their account, or `None` for a guest.
    Person(Option<i64>),
    /// The server's computer at a level.
    Computer(String),
}

/// A seat at a room. Seat `i` plays side `i` of the table.
#[derive(Clone)]
pub struct Seat {
    /// The player's handle (a computer's level).
    pub handle: String,
    /// Who.
    pub sitter: Sitter,
    /// The session playing it now, if connected.
    pub session: Option<SessionId>,
    /// When its player left, while they are away.
    pub left: Option<Instant>,
    /// The session that last sat here: a guest may come back only while it lasts.
    pub owner: Option<SessionId>,
}

impl Seat {
    /// A person's seat, taken by a session.
    pub fn person(handle: &str, account: Option<i64>, session: SessionId) -> Seat {
        Seat {
            handle: handle.to_string(),
            sitter: Sitter::Person(account),
            session: Some(session),
            left: None,
            owner: Some(session),
        }
    }

    /// The computer's seat, at a level.
    pub fn computer(level: &str) -> Seat {
        Seat {
            handle: level.to_string(),
            sitter: Sitter::Computer(level.to_string()),
            session: None,
            left: None,
            owner: None,
        }
    }

    /// Whether this is the seat of the player with `account`, or of `session`.
    pub fn is_of(&self, account: Option<i64>, session: SessionId) -> bool {
        match &self.sitter {
            Sitter::Person(Some(a)) => account == Some(*a),
            Sitter::Person(None) => self.owner == Some(session),
            Sitter::Computer(_) => false,
        }
    }
}

/// An offer waiting for the other player's answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Offer {
    /// A draw, offered by the seat.
    Draw(usize),
    /// Taking back the seat's last move.
    Undo(usize),
}

/// A game in progress.
pub struct Room {
    /// Its number in `games`.
    pub number: u64,
    /// Whether it counts for ratings.
    pub rated: bool,
    state: Mutex<RoomState>,
}

/// A room's state, under its lock.
pub struct RoomState {
    /// The authoritative table.
    pub table: Box<dyn Table>,
    /// The two seats.
    pub seats: [Seat; 2],
    /// Sessions watching.
    pub watchers: Vec<SessionId>,
    /// An offer waiting.
    pub offer: Option<Offer>,
    /// Adjourned: nobody plays until both come back.
    pub adjourned: bool,
    /// Ended by a shutdown, as a guest cannot come back for it: its
    /// sessions are told so by the shutdown's notice, not as an ending.
    pub cut_off: bool,
    /// Said when the game ended otherwise than by the rules: who resigned,
    /// who left.
    pub ending_words: Option<String>,
    /// Said after the result: how the ratings moved, where the game is kept.
    pub epilogue: Option<String>,
    /// Bumped at every change, so a session knows to look again.
    pub version: u64,
    /// The take-backs of the game: how many, and the plies left after
    /// each of the last [`TAKE_BACKS_KEPT`], so that a session that looked
    /// before one says it, even where a move was played since.
    pub taken_back: (usize, VecDeque<usize>),
    /// Why a rated room's game, ended, does not count after all: a player
    /// who left before their first move had not begun it.
    pub unrated: Option<String>,
    /// Whether each seat has made a move in this game, one taken back since
    /// included (of a game brought back from the store, the moves it kept).
    pub moved: [bool; 2],
}

/// How a game ended, as its players are told: an ending the players made
/// (a resignation, an agreed draw, a claim) as it was made (`words`); the
/// game's own words for the endings its rules decide.
pub fn ending_said(words: Option<&String>, table: &dyn Table, names: &[String; 2]) -> String {
    match words {
        Some(words) => words.clone(),
        None => table.result([&names[0], &names[1]]),
    }
}

/// The take-backs a room remembers: far more than come between two looks
/// of a session at its game, and no more however long a game goes on.
pub const TAKE_BACKS_KEPT: usize = 32;

impl Room {
    /// A room for a table and its seats.
    pub fn new(number: u64, rated: bool, table: Box<dyn Table>, seats: [Seat; 2]) -> Room {
        Room {
            number,
            rated,
            state: Mutex::new(RoomState {
                moved: [0, 1]
                    .map(|seat| (0..table.moves().len()).any(|ply| table.mover(ply) == seat)),
                table,
                seats,
                watchers: Vec::new(),
                offer: None,
                adjourned: false,
                cut_off: false,
                ending_words: None,
                epilogue: None,
                version: 0,
                taken_back: (0, VecDeque::new()),
                unrated: None,
            }),
        }
    }

    /// The room's state, locked. Never held while waiting for anyone.
    pub fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RoomState {
    /// Marks a change and wakes everyone in the room but `except`: each
    /// draws the board again.
    pub fn changed(&mut self, hub: &Hub, except: Option<SessionId>) {
        self.version += 1;
        let sessions = self
            .seats
            .iter()
            .filter_map(|s| s.session)
            .chain(self.watchers.iter().copied())
            .filter(|&id| Some(id) != except);
        for id in sessions {
            if let Some(waker) = hub.waker(id) {
                waker.wake();
            }
        }
    }

    /// Marks that a player left or came back: the board is as it was, so
    /// only the player waiting for the other is woken, whose prompt says
    /// whether the other is here. The player to move keeps the question
    /// and the line being typed; a watcher's prompt does not change.
    /// `except` is the session that came back, which is drawing its game.
    pub fn presence_changed(&mut self, hub: &Hub, except: Option<SessionId>) {
        let to_move = self.table.to_move();
        let waiting = self
            .seats
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != to_move)
            .filter_map(|(_, s)| s.session)
            .filter(|&id| Some(id) != except);
        for id in waiting {
            if let Some(waker) = hub.waker(id) {
                waker.wake();
            }
        }
    }

    /// The seat a session plays, if any.
    pub fn seat_of(&self, id: SessionId) -> Option<usize> {
        self.seats.iter().position(|s| s.session == Some(id))
    }

    /// The handles in the order of the sides.
    pub fn names(&self) -> [String; 2] {
        [self.seats[0].handle.clone(), self.seats[1].handle.clone()]
    }

    /// Whether the player of `seat` has been away longer than `grace`.
    pub fn away_past(&self, seat: usize, grace: Duration, now: Instant) -> bool {
        self.seats[seat]
            .left
            .is_some_and(|left| now.saturating_duration_since(left) >= grace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_is_wrapped_at_words_and_never_inside_an_escape() {
        let said = crate::shell::safe::text("bob says: one two three four five six seven eight");
        assert_eq!(
            wrapped(&said, 20),
            "bob says: one two\nthree four five six\nseven eight"
        );
        // A word wider than a line is broken between its escapes.
        let said = crate::shell::safe::text(&format!("bob says: x{}", "\u{180e}".repeat(6)));
        let lines = wrapped(&said, 20);
        assert_eq!(
            lines,
            "bob says:\nx\\u{180e}\\u{180e}\n\\u{180e}\\u{180e}\n\\u{180e}\\u{180e}"
        );
        // What only looks like an escape is broken like any word.
        assert_eq!(broken("\\u{12345678}xyz", 8), "\\u{12345\n678}xyz");
    }
}
