//! One connection's conversation, on a thread of its own: the lobby's
//! commands, then the game's own conversation through its table, exactly as
//! in local play. A session reads only its own lines; what others do reaches
//! it as a wake, after which it looks at its room again.

use std::io;
use std::sync::Arc;

use serde_json::{Value, json};

use super::Server;
use super::hub::{Doing, Online, SessionId};
use super::link::{Dialect, Flags, Identity, InboxSource, Link, MAX_LINE, Outbox};
use crate::shell::console::{Columns, Console, Remote, Reply};
use crate::shell::safe;

mod game;
mod lobby;
mod words;

/// How long a login waits for the sessions it closes to be gone.
const TAKEOVER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Starts a session's thread.
pub(super) fn spawn(server: Server, link: Link) {
    let _ = std::thread::Builder::new()
        .name("session".into())
        .stack_size(512 * 1024)
        .spawn(move || {
            let id = server.hub().session_id();
            let mut session = Session::new(server.clone(), id, link);
            let _ = session.run();
            // Dropping the session's ends of the link lets the door send
            // what is left, then close.
            drop(session);
            // However the session ended (a write that failed, a reader that
            // fell behind, a new login with its key), its games wait for it
            // and its opponents are told.
            server.hub().leave(id);
            server.left(id);
        });
}

/// How a login ended: who the player is, or why they are not in.
#[derive(PartialEq, Eq)]
enum Greeted {
    /// In the lobby, known.
    In,
    /// Left before choosing a handle (`quit`, the end of input).
    Left,
    /// A script whose user name cannot be its key's handle: it cannot be
    /// asked for one, so it is told why and turned away.
    Refused,
}

/// Where a game's conversation leaves the session.
enum After {
    /// Back to the lobby.
    Lobby,
    /// The connection is gone.
    Gone,
}

struct Session {
    server: Server,
    id: SessionId,
    console: Console,
    flags: Arc<Flags>,
    outbox: Outbox,
    json: bool,
    /// The scripted dialect (`ssh -T` with lines piped): nobody there
    /// answers a question the script did not expect.
    script: bool,
    handle: String,
    account: Option<i64>,
    identity: Identity,
    /// Where the connection comes from: every connection from there shares
    /// one pace for `say` and `tell`.
    peer: std::net::IpAddr,
    /// The player asked for the board: drawn again though nothing moved.
    board_asked: bool,
}

impl Session {
    fn new(server: Server, id: SessionId, link: Link) -> Session {
        let flags = Arc::new(Flags::default());
        let dialect = link.arrival.dialect;
        let width = Arc::clone(&link.arrival.width);
        let columns: Columns = Arc::new(move || {
            let w = width.load(std::sync::atomic::Ordering::Relaxed);
            (w > 0).then_some(w)
        });
        let mut source = InboxSource::new(link.inbox, Arc::clone(&flags));
        if dialect == Dialect::Terminal {
            source = source.telling(link.outbox.clone());
        }
        let console = Console::remote(
            Box::new(source),
            Box::new(link.outbox.writer()),
            Remote {
                colour: dialect == Dialect::Terminal && link.arrival.colour,
                echo: dialect == Dialect::Script,
                clears: false,
                columns: (dialect == Dialect::Terminal).then_some(columns),
                max_line: MAX_LINE,
                prompts: dialect != Dialect::Json,
            },
        );
        server.hub().join(
            id,
            Online {
                handle: String::new(),
                account: None,
                outbox: link.outbox.clone(),
                waker: link.waker.clone(),
                json: dialect == Dialect::Json,
                width: (dialect == Dialect::Terminal).then(|| Arc::clone(&link.arrival.width)),
                doing: Doing::Idle,
                seated: None,
            },
        );
        Session {
            server,
            id,
            console,
            flags,
            outbox: link.outbox,
            json: dialect == Dialect::Json,
            script: dialect == Dialect::Script,
            handle: String::new(),
            account: None,
            identity: link.arrival.identity,
            peer: link.arrival.peer.ip(),
            board_asked: false,
        }
    }

    /// Says a line to a person, or nothing to a machine.
    fn say(&mut self, text: &str) -> io::Result<()> {
        if self.json {
            return Ok(());
        }
        self.console.say(text)
    }

    /// Says a line to a person, or sends it to a machine as an `info`
    /// event: an answer with no event of its own.
    fn inform(&mut self, text: &str) -> io::Result<()> {
        if self.json {
            return self.event(json!({"event": "info", "text": text}));
        }
        self.console.say(text)
    }

    /// Sends one event of the machine dialect, or nothing to a person.
    fn event(&mut self, value: Value) -> io::Result<()> {
        if !self.json {
            return Ok(());
        }
        let line = safe::json(&value.to_string());
        self.console.write(&format!("{line}\n"))
    }

    /// A refusal: said to a person, an `error` event to a machine.
    fn refuse(&mut self, why: &str) -> io::Result<()> {
        if self.json {
            let why = self.console.quoting_cut(why);
            return self.event(json!({"event": "error", "message": why}));
        }
        self.console.refuse(&words::sentence(why))
    }

    /// Whether a line may be said to others now (`say`, `tell`); if not,
    /// the player is told how long to wait.
    fn may_talk(&mut self) -> io::Result<bool> {
        let now = std::time::Instant::now();
        match self.server.gate().talk(self.peer, now) {
            Ok(()) => Ok(true),
            Err(wait) => {
                self.refuse(&words::too_fast(wait))?;
                Ok(false)
            }
        }
    }

    /// Reads a line. `None` when the connection is gone; an empty line when
    /// the session was woken or Ctrl-C was pressed.
    fn read(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            // Retired (a new login with its key): gone, even where no
            // prompt is written to find it out (the machine dialect).
            if self.outbox.is_closed() {
                return Ok(None);
            }
            match self.console.ask(prompt, &[])? {
                Reply::Line(line) => return Ok(Some(line)),
                Reply::Bad(why) => {
                    let why = why.to_string();
                    self.refuse(&why)?;
                }
                Reply::End if self.flags.take_woken() => return Ok(Some(String::new())),
                // Ctrl-C at a terminal: the door has shown ^C and a new line.
                Reply::End if self.flags.take_interrupted() => return Ok(Some(String::new())),
                Reply::End => return Ok(None),
            }
        }
    }

    fn run(&mut self) -> io::Result<()> {
        match self.greet()? {
            Greeted::In => {}
            Greeted::Left => return self.goodbye(),
            Greeted::Refused => return Ok(()),
        }
        loop {
            // Back in the lobby: a resume asked while someone was busy.
            self.resume_asked();
            if let Some(room) = self.server.hub().take_seated(self.id) {
                match self.play(&room)? {
                    After::Lobby => continue,
                    After::Gone => return self.goodbye(),
                }
            }
            let Some(line) = self.read("> ")? else {
                return self.goodbye();
            };
            if line.trim().is_empty() {
                continue;
            }
            if !self.lobby_command(&line)? {
                return Ok(());
            }
        }
    }

    /// The last word to a player whose input ended (Ctrl-D, or the end of
    /// a script), if the connection still takes it.
    fn goodbye(&mut self) -> io::Result<()> {
        if self.outbox.is_closed() {
            return Ok(());
        }
        self.farewell()
    }

    /// The last words to a player leaving the server: the games they had
    /// left, still unfinished, named with what becomes of them, then
    /// `Goodbye.` (a machine hears only the first, as an `info` event;
    /// its client says its own goodbye).
    fn farewell(&mut self) -> io::Result<()> {
        let games = self.parting();
        if self.json {
            return match games {
                Some(games) => self.inform(&games),
                None => Ok(()),
            };
        }
        match games {
            Some(games) => self.say(&format!("{games} Goodbye.")),
            None => self.say("Goodbye."),
        }
    }

    /// What becomes of the games the player had left, still unfinished.
    fn parting(&self) -> Option<String> {
        let mut parked: Vec<u64> = self
            .server
            .hub()
            .rooms()
            .iter()
            .filter(|room| {
                let st = room.lock();
                st.table.ending().is_none()
                    && st
                        .seats
                        .iter()
                        .any(|s| s.session.is_none() && s.is_of(self.account, self.id))
            })
            .map(|room| room.number)
            .collect();
        parked.sort_unstable();
        words::parting(&parked, self.account.is_none())
    }

    /// Who the player is: a guest's handle, or the account of their key
    /// (a new key claims a handle), unless they left before choosing or
    /// were turned away.
    fn greet(&mut self) -> io::Result<Greeted> {
        let store = self.server.store().clone();
        let taken = |handle: &str| !store.handle_free(handle).unwrap_or(false);
        match self.identity.clone() {
            Identity::Guest => self.handle = self.server.hub().guest_handle(&taken),
            Identity::Key { fingerprint, user } => match store.account_for_key(&fingerprint) {
                Ok(Some(account)) => {
                    self.handle = account.handle;
                    self.account = Some(account.id.0);
                }
                Ok(None) => match self.claim_handle(&fingerprint, &user)? {
                    Greeted::In => {}
                    not_in => return Ok(not_in),
                },
                Err(e) => {
                    self.say(&format!(
                        "The server cannot read its accounts ({}); you play as a guest.",
                        e.reason()
                    ))?;
                    self.handle = self.server.hub().guest_handle(&taken);
                }
            },
        }
        self.server
            .hub()
            .identify(self.id, &self.handle, self.account);
        // A key is one player: a login with it closes the account's other
        // sessions (one left frozen by a dropped network holds its seat
        // until it goes), and waits for them to be gone, their seats parked
        // for this one to take back.
        let mut closed = 0;
        if let Some(account) = self.account {
            let others = self.server.hub().close_others(account, self.id);
            let hub = self.server.hub();
            let until = std::time::Instant::now() + TAKEOVER_WAIT;
            let going = |o: SessionId| hub.is_connected(o) || hub.holds_seat(o);
            while others.iter().any(|&o| going(o)) && std::time::Instant::now() < until {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            closed = others.len();
        }
        let handle = self.handle.clone();
        let rated = self.account.is_some();
        self.event(json!({"event": "welcome", "handle": handle, "rated": rated}))?;
        self.say(&words::welcome(&handle, rated))?;
        if closed > 0 {
            self.say(&words::taken_over(closed))?;
        }
        if let Some(account) = self.account {
            self.tell_unseen(account)?;
            self.tell_adjourned(account)?;
        }
        // A game this account left, still waiting for it: back at once.
        if let Some(account) = self.account
            && self.server.hub().waiting_for(account)
        {
            self.resume("")?;
        }
        Ok(Greeted::In)
    }

    /// A new key's first login claims a handle: the ssh user name if it is
    /// free and valid, else one asked for; a script, which cannot be asked
    /// (its next lines are commands and moves, never a handle), is told
    /// why and turned away.
    fn claim_handle(&mut self, fingerprint: &str, user: &str) -> io::Result<Greeted> {
        let mut wanted = user.to_string();
        let mut first = true;
        loop {
            // Why the ssh user name is none, for a program's `handle` event.
            let mut user_refused = None;
            let checked = words::check_handle(&wanted).and_then(|()| {
                if self.server.hub().is_online(&wanted) {
                    Err(format!("the handle {wanted} is taken; choose another"))
                } else {
                    Ok(())
                }
            });
            match checked {
                Ok(()) => match self.server.store().create_account(fingerprint, &wanted) {
                    Ok(Ok(account)) => {
                        self.handle = account.handle;
                        self.account = Some(account.id.0);
                        self.say(&format!(
                            "Your key is now the account {}: log in with it to play as {} again.",
                            self.handle, self.handle
                        ))?;
                        return Ok(Greeted::In);
                    }
                    Ok(Err(_)) if first && self.script => {
                        return self.turn_script_away(&format!("the handle {wanted} is taken"));
                    }
                    // The ssh user name is only a first guess: said why it
                    // is none, not refused, as nothing was typed.
                    Ok(Err(_)) if first && !user.is_empty() => {
                        user_refused =
                            Some(self.no_handle(format!("the handle {wanted} is taken"))?);
                    }
                    Ok(Err(_)) => {
                        self.refuse(&format!("the handle {wanted} is taken; choose another"))?;
                    }
                    Err(e) => {
                        self.refuse(&format!(
                            "the server could not keep your account ({})",
                            e.reason()
                        ))?;
                        if self.script {
                            self.outbox.refused();
                            return Ok(Greeted::Refused);
                        }
                    }
                },
                Err(why) if first && self.script => return self.turn_script_away(&why),
                Err(_) if !first && wanted.is_empty() => {
                    self.refuse("type the handle you want, or quit to leave")?;
                }
                Err(why) if !first => self.refuse(&why)?,
                // The ssh user name is only a first guess: said why it is
                // none, not refused, as nothing was typed.
                Err(why) if !user.is_empty() => user_refused = Some(self.no_handle(why)?),
                Err(_) => {}
            }
            first = false;
            let mut asked = json!({"event": "handle", "message": "choose a handle for your key"});
            if let Some(why) = user_refused {
                let why = why.trim_end_matches('.');
                asked["user_name"] = json!(why.trim_end_matches("; choose another"));
            }
            self.event(asked)?;
            let Some(line) = self.read("Choose a handle for your key: ")? else {
                return Ok(Greeted::Left);
            };
            let line = line.trim();
            if line.eq_ignore_ascii_case("quit") {
                return Ok(Greeted::Left);
            }
            // `name NAME`, as a guest renames, is the handle NAME.
            wanted = match line.split_once(char::is_whitespace) {
                Some((word, rest)) if word.eq_ignore_ascii_case("name") => rest.trim(),
                // `name` alone names no handle.
                None if line.eq_ignore_ascii_case("name") => "",
                _ => line,
            }
            .to_string();
        }
    }

    /// Says why the ssh user name cannot be the handle (`why`), which a
    /// program's `handle` event carries too: given back.
    fn no_handle(&mut self, why: String) -> io::Result<String> {
        self.say(&format!(
            "Your user name cannot be your handle: {}.",
            crate::shell::safe::text(why.trim_end_matches('.'))
        ))?;
        Ok(why)
    }

    /// A script whose ssh user name cannot be its new key's handle, for
    /// `why`: told so and what to do instead, and the session ends with a
    /// failing exit status. None of its lines is read.
    fn turn_script_away(&mut self, why: &str) -> io::Result<Greeted> {
        self.say(&words::script_without_handle(why))?;
        self.outbox.refused();
        Ok(Greeted::Refused)
    }
}
