//! One connection's conversation, on a thread of its own: the lobby's
//! commands, then the game's own conversation through its table, exactly as
//! in local play. A session reads only its own lines; what others do reaches
//! it as a wake, after which it looks at its room again.

use std::io;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use super::Server;
use super::hub::{Doing, Notice, Offer, Online, Room, Seat, Seek, SessionId, Sitter};
use super::link::{Dialect, Flags, Identity, InboxSource, Link, MAX_LINE, Outbox};
use super::table::Asked;
use crate::cabinet;
use crate::shell::console::{Columns, Console, Remote, Reply};
use crate::shell::safe;
use crate::shell::turn::Command;

mod words;

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
            // fell behind), its games wait for it and its opponents are told.
            server.left(id);
            server.hub().leave(id);
        });
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
    handle: String,
    account: Option<i64>,
    identity: Identity,
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
        let console = Console::remote(
            Box::new(InboxSource::new(link.inbox, Arc::clone(&flags))),
            Box::new(link.outbox.writer()),
            Remote {
                colour: dialect == Dialect::Terminal,
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
            handle: String::new(),
            account: None,
            identity: link.arrival.identity,
        }
    }

    /// Says a line to a person, or nothing to a machine.
    fn say(&mut self, text: &str) -> io::Result<()> {
        if self.json {
            return Ok(());
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
            return self.event(json!({"event": "error", "message": why}));
        }
        self.console.refuse(&words::sentence(why))
    }

    /// Reads a line. `None` when the connection is gone; an empty line when
    /// the session was woken or Ctrl-C was pressed.
    fn read(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            match self.console.ask(prompt, &[])? {
                Reply::Line(line) => return Ok(Some(line)),
                Reply::Bad(why) => {
                    let why = why.to_string();
                    self.refuse(&why)?;
                }
                Reply::End if self.flags.take_woken() => return Ok(Some(String::new())),
                Reply::End if self.flags.take_interrupted() => {
                    self.say("")?;
                    return Ok(Some(String::new()));
                }
                Reply::End => return Ok(None),
            }
        }
    }

    fn run(&mut self) -> io::Result<()> {
        if !self.greet()? {
            return Ok(());
        }
        loop {
            if let Some(room) = self.server.hub().take_seated(self.id) {
                match self.play(&room)? {
                    After::Lobby => continue,
                    After::Gone => return Ok(()),
                }
            }
            let Some(line) = self.read("> ")? else {
                return Ok(());
            };
            if line.trim().is_empty() {
                continue;
            }
            if !self.lobby_command(&line)? {
                return Ok(());
            }
        }
    }

    /// Who the player is: a guest's handle, or the account of their key
    /// (a new key claims a handle). `false` if they left before choosing.
    fn greet(&mut self) -> io::Result<bool> {
        let store = self.server.store().clone();
        let taken = |handle: &str| !store.handle_free(handle).unwrap_or(false);
        match self.identity.clone() {
            Identity::Guest => self.handle = self.server.hub().guest_handle(&taken),
            Identity::Key { fingerprint, user } => match store.account_for_key(&fingerprint) {
                Ok(Some(account)) => {
                    self.handle = account.handle;
                    self.account = Some(account.id.0);
                }
                Ok(None) => {
                    if !self.claim_handle(&fingerprint, &user)? {
                        return Ok(false);
                    }
                }
                Err(e) => {
                    self.say(&format!(
                        "The server cannot read its accounts ({e}); you play as a guest."
                    ))?;
                    self.handle = self.server.hub().guest_handle(&taken);
                }
            },
        }
        self.server
            .hub()
            .identify(self.id, &self.handle, self.account);
        let handle = self.handle.clone();
        let rated = self.account.is_some();
        self.event(json!({"event": "welcome", "handle": handle, "rated": rated}))?;
        self.say(&words::welcome(&handle, rated))?;
        // A game this account left, still waiting for it: back at once.
        if let Some(account) = self.account
            && self.server.hub().waiting_for(account)
        {
            self.resume()?;
        }
        Ok(true)
    }

    /// A new key's first login claims a handle: the ssh user name if it is
    /// free and valid, else one asked for.
    fn claim_handle(&mut self, fingerprint: &str, user: &str) -> io::Result<bool> {
        let mut wanted = user.to_string();
        let mut first = true;
        loop {
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
                        return Ok(true);
                    }
                    Ok(Err(_)) => {
                        self.refuse(&format!("the handle {wanted} is taken; choose another"))?;
                    }
                    Err(e) => {
                        self.refuse(&format!("the server could not keep your account ({e})"))?;
                    }
                },
                // The ssh user name is only a first guess: no refusal for it.
                Err(why) if !first => self.refuse(&why)?,
                Err(_) => {}
            }
            first = false;
            self.event(json!({"event": "handle", "message": "choose a handle for your key"}))?;
            let Some(line) = self.read("Choose a handle for your key: ")? else {
                return Ok(false);
            };
            wanted = line.trim().to_string();
        }
    }

    /// Carries out a lobby command; `false` when the player leaves.
    fn lobby_command(&mut self, line: &str) -> io::Result<bool> {
        let (word, rest) = words::split(line);
        match word.as_str() {
            "help" | "?" => self.say(words::LOBBY_HELP)?,
            "quit" | "exit" | "bye" | "q" => {
                self.say("Goodbye.")?;
                return Ok(false);
            }
            "who" => self.who()?,
            "name" => self.name(rest)?,
            "seek" => self.seek(rest, None)?,
            "challenge" => {
                let (to, rest) = words::split(rest);
                if to.is_empty() {
                    self.refuse("challenge whom? Type challenge NAME GAME")?;
                } else if !self.server.hub().is_online(&to) {
                    self.refuse(&format!("nobody called {} is online", safe::cut(&to, 20)))?;
                } else {
                    self.seek(rest, Some(to))?;
                }
            }
            "unseek" => {
                let n = self.server.hub().unseek(self.id);
                self.say(&format!("{n} of your seeks taken back."))?;
            }
            "seeks" => self.seeks()?,
            "accept" => self.accept(rest)?,
            "play" => self.play_computer(rest)?,
            "games" => self.games()?,
            "resume" => self.resume()?,
            "ratings" => self.ratings(rest)?,
            "history" => self.history()?,
            "watch" => self.watch(rest)?,
            "tell" => {
                let (to, text) = words::split(rest);
                self.tell(&to, text)?;
            }
            "say" => self.refuse("say works in a game; to one player, type tell NAME TEXT")?,
            "proto" if rest.trim().eq_ignore_ascii_case("json") => {
                self.json = true;
                self.console.quiet();
                self.server.hub().set_json(self.id);
                let handle = self.handle.clone();
                let rated = self.account.is_some();
                self.event(json!({"event": "welcome", "handle": handle, "rated": rated}))?;
            }
            _ => self.refuse(&format!(
                "\"{}\" is not a command here; type help for the list",
                safe::cut(&word, 20)
            ))?,
        }
        Ok(true)
    }

    fn who(&mut self) -> io::Result<()> {
        let who = self.server.hub().who();
        if self.json {
            let players: Vec<Value> = who
                .iter()
                .map(|(handle, _, doing)| json!({"handle": handle, "doing": words::doing(*doing)}))
                .collect();
            return self.event(json!({"event": "who", "players": players}));
        }
        let mut lines = vec![format!("{} online:", who.len())];
        for (handle, account, doing) in who {
            let rated = match account {
                Some(id) => {
                    let player = super::store::PlayerRef::Account(super::store::AccountId(id));
                    let ratings: Vec<String> = cabinet::GAMES
                        .iter()
                        .filter_map(|game| {
                            let r = self.server.store().rating(&player, game).ok()?;
                            Some(format!("{game} {:.0}", r.rating))
                        })
                        .collect();
                    format!(" ({})", ratings.join(", "))
                }
                None => " (guest)".to_string(),
            };
            lines.push(format!("  {handle}{rated}: {}", words::doing(doing)));
        }
        self.say(&lines.join("\n"))
    }

    /// The leaderboard of one game, or of each.
    fn ratings(&mut self, rest: &str) -> io::Result<()> {
        let game = rest.trim();
        let game = if game.is_empty() {
            None
        } else {
            match cabinet::kind(game) {
                Ok(kind) => Some(kind.game()),
                Err(why) => return self.refuse(&why),
            }
        };
        let rows = match self.server.store().ratings(game) {
            Ok(rows) => rows,
            Err(e) => return self.refuse(&format!("the ratings cannot be read ({e})")),
        };
        if self.json {
            let list: Vec<Value> = rows
                .iter()
                .map(|r| {
                    json!({"name": r.name, "computer": r.computer, "game": r.game,
                        "rating": r.rating.rating.round(), "deviation": r.rating.deviation.round(),
                        "games": r.rating.games})
                })
                .collect();
            return self.event(json!({"event": "ratings", "ratings": list}));
        }
        if rows.is_empty() {
            return self.say("Nobody is rated yet: rated games are played between accounts, and against the server's computer.");
        }
        let mut lines = vec![format!(
            "  {:<10} {:<16} {:>6} {:>9} {:>6}",
            "game", "player", "rating", "deviation", "games"
        )];
        for r in &rows {
            let name = if r.computer {
                format!("{} (computer)", r.name)
            } else {
                r.name.clone()
            };
            lines.push(format!(
                "  {:<10} {:<16} {:>6.0} {:>9.0} {:>6}",
                r.game,
                safe::cut(&name, 16),
                r.rating.rating,
                r.rating.deviation,
                r.rating.games
            ));
        }
        self.say(&lines.join("\n"))
    }

    /// The player's finished games.
    fn history(&mut self) -> io::Result<()> {
        let Some(account) = self.account else {
            return self.refuse("guests have no history: log in over ssh with a key to keep one");
        };
        let records = match self
            .server
            .store()
            .history(super::store::AccountId(account), 20)
        {
            Ok(records) => records,
            Err(e) => return self.refuse(&format!("your games cannot be read ({e})")),
        };
        if self.json {
            let list: Vec<Value> = records
                .iter()
                .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
                .collect();
            return self.event(json!({"event": "history", "games": list}));
        }
        if records.is_empty() {
            return self.say("You have no finished games yet.");
        }
        let mut lines = vec!["Your last games:".to_string()];
        for r in &records {
            let seats: Vec<String> = r.seats.iter().map(|s| s.display()).collect();
            let result = match r.winning_seat() {
                Some(seat) => format!("{} won ({})", seat.name, r.outcome.how),
                None => format!("a draw ({})", r.outcome.how),
            };
            lines.push(format!(
                "  {} {}: {}; {result}, {}",
                r.date.get(..10).unwrap_or(&r.date),
                r.game,
                seats.join(" against "),
                crate::shell::text::plies(r.plies)
            ));
        }
        self.say(&safe::text(&lines.join("\n")))
    }

    fn name(&mut self, rest: &str) -> io::Result<()> {
        if self.account.is_some() {
            return self.refuse("your handle is your account's; it cannot change");
        }
        let wanted = rest.trim();
        if let Err(why) = words::check_handle(wanted) {
            return self.refuse(&why);
        }
        let account = !self.server.store().handle_free(wanted).unwrap_or(false);
        if account
            || (self.server.hub().is_online(wanted) && !wanted.eq_ignore_ascii_case(&self.handle))
        {
            return self.refuse(&format!("the handle {wanted} is taken; choose another"));
        }
        self.handle = wanted.to_string();
        self.server.hub().rename(self.id, wanted);
        self.say(&format!("You are {wanted}."))?;
        let handle = self.handle.clone();
        self.event(json!({"event": "welcome", "handle": handle, "rated": false}))
    }

    fn seek(&mut self, rest: &str, to: Option<String>) -> io::Result<()> {
        let (game, rest) = words::split(rest);
        let kind = match cabinet::kind(&game) {
            Ok(kind) => kind,
            Err(why) => return self.refuse(&why),
        };
        let options = match words::options(rest) {
            Ok(options) => options,
            Err(why) => return self.refuse(&why),
        };
        // Checked now, so a bad seek is refused to its maker.
        let table = match cabinet::open(kind, &options.setup, 0) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why),
        };
        let side = match &options.side {
            None => None,
            Some(side) => match words::side(&table.sides(), side) {
                Ok(i) => Some(i),
                Err(why) => return self.refuse(&why),
            },
        };
        let rated = options.rated.unwrap_or(self.account.is_some());
        if rated && self.account.is_none() {
            return self.refuse("guests play unrated; log in over ssh with a key to play rated");
        }
        let seek = Seek {
            n: 0,
            by: self.id,
            handle: self.handle.clone(),
            to: to.clone(),
            kind,
            options: options.setup,
            side,
            rated,
        };
        match self.server.hub().seek(seek) {
            Ok(n) => {
                let whom = to.map_or_else(String::new, |to| format!(" to {to}"));
                self.say(&format!(
                    "Seek {n}{whom} is open: {}. You are told when someone accepts.",
                    kind.game()
                ))?;
                self.event(json!({"event": "seeking", "n": n}))?;
                if whom.is_empty() {
                    self.offer_computer(table.as_ref())?;
                }
                Ok(())
            }
            Err(why) => self.refuse(&why),
        }
    }

    /// While a seek waits: the server's computer level whose rating in
    /// that game is nearest the player's own.
    fn offer_computer(&mut self, table: &dyn super::table::Table) -> io::Result<()> {
        use super::store::{AccountId, PlayerRef};
        let game = table.kind().game();
        let store = self.server.store();
        let mine = self
            .account
            .and_then(|id| store.rating(&PlayerRef::Account(AccountId(id)), game).ok())
            .unwrap_or_default()
            .rating;
        let nearest = table
            .levels()
            .into_iter()
            .filter_map(|level| {
                let rating = store
                    .rating(
                        &PlayerRef::Computer {
                            level: level.clone(),
                        },
                        game,
                    )
                    .ok()?
                    .rating;
                Some((level, rating))
            })
            .min_by(|a, b| (a.1 - mine).abs().total_cmp(&(b.1 - mine).abs()));
        let Some((level, rating)) = nearest else {
            return Ok(());
        };
        self.event(
            json!({"event": "computer", "game": game, "level": level, "rating": rating.round()}),
        )?;
        self.say(&format!(
            "While you wait: the server's computer at {level} is rated nearest you in {game} ({rating:.0}); type play {game} {level} to play it instead."
        ))
    }

    fn seeks(&mut self) -> io::Result<()> {
        let seeks = self.server.hub().seeks(&self.handle);
        if self.json {
            let list: Vec<Value> = seeks
                .iter()
                .map(|s| {
                    json!({"n": s.n, "game": s.kind.game(), "by": s.handle, "rated": s.rated,
                        "setup": words::setup_text(&s.options), "to": s.to})
                })
                .collect();
            return self.event(json!({"event": "seeks", "seeks": list}));
        }
        if seeks.is_empty() {
            return self.say("No seeks are open. Type seek GAME to open one.");
        }
        let mut lines = vec!["Open seeks:".to_string()];
        for s in &seeks {
            let rated = if s.rated { "rated" } else { "unrated" };
            let setup = words::setup_text(&s.options);
            let to =
                s.to.as_ref()
                    .map_or_else(String::new, |t| format!(", to {t}"));
            lines.push(format!(
                "  {}. {} by {} ({rated}{}{to})",
                s.n,
                s.kind.game(),
                s.handle,
                if setup.is_empty() {
                    String::new()
                } else {
                    format!(", {setup}")
                }
            ));
        }
        self.say(&lines.join("\n"))
    }

    fn accept(&mut self, rest: &str) -> io::Result<()> {
        let Ok(n) = rest.trim().parse::<u64>() else {
            return self.refuse("accept which seek? Type accept N, with N from seeks");
        };
        let seek = match self.server.hub().take_seek(n, self.id, &self.handle) {
            Ok(seek) => seek,
            Err(why) => return self.refuse(&why),
        };
        if seek.rated && self.account.is_none() {
            let _ = self.server.hub().seek(seek);
            return self.refuse("that seek is rated, and guests play unrated");
        }
        let seed = rand::random();
        let table = match cabinet::open(seek.kind, &seek.options, seed) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why),
        };
        let maker_account = self.server.hub().account_of(seek.by);
        let maker = Seat::person(&seek.handle, maker_account, seek.by);
        let me = Seat::person(&self.handle, self.account, self.id);
        let maker_side = seek.side.unwrap_or(usize::from(rand::random::<bool>()));
        let seats = if maker_side == 0 {
            [maker, me]
        } else {
            [me, maker]
        };
        let room = match self.server.begin_room(table, seats, seek.rated) {
            Ok(room) => room,
            Err(why) => return self.refuse(&why),
        };
        self.server.hub().seat(seek.by, &room, true);
        self.server.hub().seat(self.id, &room, false);
        Ok(())
    }

    fn play_computer(&mut self, rest: &str) -> io::Result<()> {
        let (game, rest) = words::split(rest);
        let (level, rest) = words::split(rest);
        let kind = match cabinet::kind(&game) {
            Ok(kind) => kind,
            Err(why) => return self.refuse(&why),
        };
        let options = match words::options(rest) {
            Ok(options) => options,
            Err(why) => return self.refuse(&why),
        };
        let table = match cabinet::open(kind, &options.setup, rand::random()) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why),
        };
        let levels = table.levels();
        let Some(level) = levels
            .iter()
            .find(|l| l.eq_ignore_ascii_case(&level))
            .cloned()
        else {
            return self.refuse(&format!(
                "{} is played at the levels {}: type play {} LEVEL",
                kind.game(),
                crate::shell::text::list_or(&levels),
                kind.game()
            ));
        };
        let side = match &options.side {
            None => 0,
            Some(side) => match words::side(&table.sides(), side) {
                Ok(i) => i,
                Err(why) => return self.refuse(&why),
            },
        };
        let rated = options.rated.unwrap_or(self.account.is_some()) && self.account.is_some();
        let me = Seat::person(&self.handle, self.account, self.id);
        let computer = Seat::computer(&level);
        let seats = if side == 0 {
            [me, computer]
        } else {
            [computer, me]
        };
        let room = match self.server.begin_room(table, seats, rated) {
            Ok(room) => room,
            Err(why) => return self.refuse(&why),
        };
        self.server.hub().seat(self.id, &room, false);
        Ok(())
    }

    /// Goes back to a game the player left, or one adjourned when both
    /// players are online.
    fn resume(&mut self) -> io::Result<()> {
        for room in self.server.hub().rooms() {
            let mut st = room.lock();
            let Some(seat) = st
                .seats
                .iter()
                .position(|s| s.session.is_none() && s.is_of(self.account, self.id))
            else {
                continue;
            };
            let other = 1 - seat;
            let mut wake_other = None;
            if st.adjourned && st.seats[other].session.is_none() {
                let found = match &st.seats[other].sitter {
                    Sitter::Computer(_) => Some(None),
                    Sitter::Person(Some(account)) => {
                        self.server.hub().session_of(*account).map(Some)
                    }
                    Sitter::Person(None) => st.seats[other]
                        .owner
                        .filter(|&id| self.server.hub().is_connected(id))
                        .map(Some),
                };
                match found {
                    None => {
                        let name = st.seats[other].handle.clone();
                        drop(st);
                        return self.refuse(&format!(
                            "not yet: game {} resumes when both players are online, and {name} is not",
                            room.number
                        ));
                    }
                    Some(Some(id)) => {
                        st.seats[other].session = Some(id);
                        st.seats[other].left = None;
                        st.seats[other].owner = Some(id);
                        wake_other = Some(id);
                    }
                    Some(None) => {}
                }
            }
            if st.adjourned {
                st.adjourned = false;
                self.server.keep_resumed(&room);
            }
            st.seats[seat].session = Some(self.id);
            st.seats[seat].left = None;
            st.seats[seat].owner = Some(self.id);
            let me = st.seats[seat].handle.clone();
            if let Some(id) = st.seats[other].session {
                self.server
                    .hub()
                    .notify(id, &Notice::Info(format!("{me} is back.")));
            }
            st.changed(self.server.hub(), Some(self.id));
            drop(st);
            if let Some(id) = wake_other {
                self.server.hub().seat(id, &room, true);
            }
            self.server.hub().seat(self.id, &room, false);
            return Ok(());
        }
        self.refuse("you have no game to resume")
    }

    fn games(&mut self) -> io::Result<()> {
        let rooms = self.server.hub().rooms();
        let mut list = Vec::new();
        for room in &rooms {
            let st = room.lock();
            list.push((
                room.number,
                st.table.kind().game(),
                st.names(),
                st.table.moves().len(),
                st.adjourned,
            ));
        }
        if self.json {
            let games: Vec<Value> = list
                .iter()
                .map(|(n, game, names, plies, adjourned)| {
                    json!({"game": n, "kind": game, "players": names, "plies": plies, "adjourned": adjourned})
                })
                .collect();
            return self.event(json!({"event": "games", "games": games}));
        }
        if list.is_empty() {
            return self.say("No games are being played.");
        }
        let mut lines = vec!["Games:".to_string()];
        for (n, game, [a, b], plies, adjourned) in list {
            let state = if adjourned { ", adjourned" } else { "" };
            lines.push(format!(
                "  {n}. {game}: {a} against {b}, {}{state}",
                crate::shell::text::plies(u32::try_from(plies).unwrap_or(u32::MAX))
            ));
        }
        self.say(&lines.join("\n"))
    }

    fn tell(&mut self, to: &str, text: &str) -> io::Result<()> {
        if to.is_empty() || text.trim().is_empty() {
            return self.refuse("tell whom what? Type tell NAME TEXT");
        }
        let notice = Notice::Said {
            from: self.handle.clone(),
            text: text.trim().to_string(),
            told: true,
        };
        if self.server.hub().tell(to, &notice) {
            self.say(&format!("Told {}.", safe::text(to)))
        } else {
            self.refuse(&format!("nobody called {} is online", safe::cut(to, 20)))
        }
    }

    fn say_in_room(&mut self, room: &Room, text: &str) -> io::Result<()> {
        if text.trim().is_empty() {
            return self.refuse("say what? Type say TEXT");
        }
        let notice = Notice::Said {
            from: self.handle.clone(),
            text: text.trim().to_string(),
            told: false,
        };
        let st = room.lock();
        let sessions: Vec<SessionId> = st
            .seats
            .iter()
            .filter_map(|s| s.session)
            .chain(st.watchers.iter().copied())
            .filter(|&id| id != self.id)
            .collect();
        drop(st);
        for id in sessions {
            self.server.hub().notify(id, &notice);
        }
        Ok(())
    }

    fn watch(&mut self, rest: &str) -> io::Result<()> {
        let Ok(n) = rest.trim().parse::<u64>() else {
            return self.refuse("watch which game? Type watch N, with N from games");
        };
        let Some(room) = self.server.hub().room(n) else {
            return self.refuse(&format!("there is no game {n}; type games for the list"));
        };
        room.lock().watchers.push(self.id);
        self.server.hub().doing(self.id, Doing::Watching(n));
        let after = self.follow(&room, None);
        room.lock().watchers.retain(|&w| w != self.id);
        self.server.hub().doing(self.id, Doing::Idle);
        match after? {
            After::Lobby => self.say("Back in the lobby."),
            After::Gone => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Plays a game the session was seated at.
    fn play(&mut self, room: &Arc<Room>) -> io::Result<After> {
        self.server
            .hub()
            .doing(self.id, Doing::Playing(room.number));
        let Some(seat) = room.lock().seat_of(self.id) else {
            return Ok(After::Lobby);
        };
        let after = self.follow(room, Some(seat));
        self.server.hub().doing(self.id, Doing::Idle);
        after
    }

    /// The game's conversation for a player (`seat`) or a watcher: new
    /// moves said, the board drawn, and the turn asked when it is theirs.
    fn follow(&mut self, room: &Arc<Room>, seat: Option<usize>) -> io::Result<After> {
        self.start_words(room, seat)?;
        let mut shown_version = u64::MAX;
        // The moves so far are said first: a watcher joins late, a player
        // comes back.
        let mut shown_plies = 0;
        loop {
            let st = room.lock();
            let table = st.table.fork();
            let version = st.version;
            let names = st.names();
            let offer = st.offer;
            let adjourned = st.adjourned;
            let words_now = st.ending_words.clone();
            let epilogue = st.epilogue.clone();
            let still_seated = seat.is_none_or(|s| st.seats[s].session == Some(self.id));
            let computer = seat.and_then(|s| match &st.seats[1 - s].sitter {
                Sitter::Computer(level) => Some(level.clone()),
                Sitter::Person(_) => None,
            });
            let opponent_away = seat.is_some_and(|s| st.seats[1 - s].left.is_some());
            drop(st);
            let moves = table.moves();
            if moves.len() < shown_plies {
                shown_plies = moves.len();
            }
            for (ply, mv) in moves.iter().enumerate().skip(shown_plies) {
                let mover = table.mover(ply);
                self.event(json!({"event": "move", "game": room.number, "ply": ply + 1,
                    "by": names[mover], "move": mv}))?;
                let said = table.said_move(ply, &names[mover]);
                self.say(&said)?;
            }
            shown_plies = moves.len();
            if version != shown_version {
                shown_version = version;
                self.position(room.number, table.as_ref(), &names, seat)?;
            }
            if let Some(ending) = table.ending() {
                let result = table.result([&names[0], &names[1]]);
                let winner = ending.winner.map(|i| names[i].clone());
                self.event(json!({"event": "end", "game": room.number, "winner": winner, "how": ending.how}))?;
                if let Some(words) = words_now {
                    self.say(&words)?;
                }
                self.say(&result)?;
                if let Some(epilogue) = epilogue {
                    self.say(&epilogue)?;
                }
                return Ok(After::Lobby);
            }
            if adjourned || !still_seated {
                self.say(&format!(
                    "Game {} is adjourned: type resume when both players are online.",
                    room.number
                ))?;
                return Ok(After::Lobby);
            }
            let Some(seat) = seat else {
                match self.watcher_turn(room)? {
                    Some(after) => return Ok(after),
                    None => continue,
                }
            };
            if let Some(Offer::Draw(by) | Offer::Undo(by)) = offer
                && by != seat
            {
                if let Some(after) = self.answer_offer(room, seat, &names[by])? {
                    return Ok(after);
                }
                continue;
            }
            let step = if table.to_move() == seat {
                self.my_turn(room, seat, table.as_ref(), computer.is_some())?
            } else if let Some(level) = computer {
                self.computer_turn(room, table.as_ref(), &level)?;
                None
            } else {
                self.their_turn(room, seat, &names[1 - seat], opponent_away)?
            };
            if let Some(after) = step {
                return Ok(after);
            }
        }
    }

    fn start_words(&mut self, room: &Room, seat: Option<usize>) -> io::Result<()> {
        let st = room.lock();
        let kind = st.table.kind().game();
        let names = st.names();
        let sides = st.table.sides();
        let st_setup = st.table.setup();
        let rated = room.rated;
        drop(st);
        let pairs: serde_json::Map<String, Value> = st_setup
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        self.event(
            json!({"event": "start", "game": room.number, "kind": kind, "setup": pairs,
            "side": seat.map(|s| sides[s].clone()), "players": names, "rated": rated}),
        )?;
        let rated_word = if rated { "rated" } else { "unrated" };
        let mut text = format!(
            "Game {}: {kind}, {rated_word}. {} ({}) against {} ({}).",
            room.number, names[0], sides[0], names[1], sides[1]
        );
        if seat.is_some() && self.account.is_none() {
            text.push_str(
                " You are a guest: if your connection drops, this game cannot be resumed.",
            );
        }
        if seat.is_none() {
            text.push_str(" You are watching: type help for the commands, unwatch to stop.");
        }
        self.say(&text)
    }

    /// The position: an event to a machine, the board to a person.
    fn position(
        &mut self,
        number: u64,
        table: &dyn super::table::Table,
        names: &[String; 2],
        seat: Option<usize>,
    ) -> io::Result<()> {
        let to_move = table.to_move();
        if self.json {
            let legal = table.legal();
            return self.event(json!({"event": "position", "game": number,
                "position": table.position(), "to_move": table.sides()[to_move],
                "legal": legal}));
        }
        let titles = table.side_titles();
        let mut text = String::new();
        if table.ending().is_none() {
            text.push_str(&format!("{} ({}) next\n", titles[to_move], names[to_move]));
        }
        let colour = self.console.colour();
        let width = self.console.width();
        text.push_str(&table.screen(colour, width, seat));
        self.console.write(&format!("\n{text}"))
    }

    /// The player to move: the game's own move conversation.
    fn my_turn(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        table: &dyn super::table::Table,
        computer: bool,
    ) -> io::Result<Option<After>> {
        let mut commands = vec![
            Command::Help,
            Command::Moves,
            Command::Undo,
            Command::Board,
            Command::Hint,
            Command::Draw,
            Command::Resign,
            Command::Quit,
        ];
        if room.rated {
            commands.retain(|&c| c != Command::Hint);
        }
        let asked = if self.json {
            let Some(line) = self.read("")? else {
                return self.leave(room, seat).map(|()| Some(After::Gone));
            };
            if line.trim().is_empty() {
                return Ok(None);
            }
            if let Some(after) = self.game_word(room, Some(seat), &line)? {
                return Ok(after);
            }
            if let Some(command) = Command::from_word(&line) {
                Asked::Command(command)
            } else {
                match table.parse_move(&line) {
                    Ok(mv) => Asked::Play(mv),
                    Err(why) => {
                        self.refuse(&why)?;
                        return Ok(None);
                    }
                }
            }
        } else {
            table.ask_move(&mut self.console, &commands, seat, !room.rated)?
        };
        match asked {
            Asked::Play(mv) => {
                if let Err(why) = self.server.play(room, seat, &mv, Some(self.id)) {
                    self.refuse(&why)?;
                }
                Ok(None)
            }
            Asked::Command(Command::Resign) => {
                self.server.resign(room, seat, self.id);
                Ok(None)
            }
            Asked::Command(Command::Draw) => {
                if computer {
                    self.say("The computer declines the draw.")?;
                } else {
                    self.server.offer(room, Offer::Draw(seat), self.id);
                    self.say("You offer a draw.")?;
                }
                Ok(None)
            }
            Asked::Command(Command::Undo) => {
                if computer {
                    if !self.server.take_back(room, seat, self.id) {
                        self.say("There is no move of yours to take back.")?;
                    }
                } else {
                    self.server.offer(room, Offer::Undo(seat), self.id);
                    self.say("You ask to take back your last move.")?;
                }
                Ok(None)
            }
            Asked::Command(Command::Quit) => {
                self.leave(room, seat)?;
                Ok(Some(After::Lobby))
            }
            Asked::Command(Command::Help) if self.json => {
                let help = table.help();
                self.event(json!({"event": "help", "text": help}))?;
                Ok(None)
            }
            Asked::Command(_) => Ok(None),
            Asked::Other(line) => Ok(self.game_word(room, Some(seat), &line)?.flatten()),
            Asked::Leave => {
                if self.flags.take_woken() {
                    return Ok(None);
                }
                if self.flags.take_interrupted() {
                    self.say("")?;
                    return Ok(None);
                }
                self.leave(room, seat)?;
                if self.flags.ended.load(std::sync::atomic::Ordering::SeqCst) {
                    Ok(Some(After::Gone))
                } else {
                    // `quit` at the move prompt: back to the lobby.
                    Ok(Some(After::Lobby))
                }
            }
        }
    }

    /// The words that work in a game whoever's turn it is: `say`, and
    /// `claim` and `adjourn` when the other player is away.
    fn game_word(
        &mut self,
        room: &Arc<Room>,
        seat: Option<usize>,
        line: &str,
    ) -> io::Result<Option<Option<After>>> {
        let (word, rest) = words::split(line);
        match (word.as_str(), seat) {
            ("say", _) => {
                self.say_in_room(room, rest)?;
                Ok(Some(None))
            }
            ("tell", _) => {
                let (to, text) = words::split(rest);
                self.tell(&to, text)?;
                Ok(Some(None))
            }
            ("claim", Some(seat)) => {
                match self.server.claim(room, seat, self.id) {
                    Ok(()) => {}
                    Err(why) => self.refuse(&why)?,
                }
                Ok(Some(None))
            }
            ("adjourn", Some(seat)) => {
                match self.server.adjourn(room, seat) {
                    Ok(()) => {}
                    Err(why) => self.refuse(&why)?,
                }
                Ok(Some(None))
            }
            _ => Ok(None),
        }
    }

    /// Waiting for the other player: commands still work.
    fn their_turn(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        other: &str,
        away: bool,
    ) -> io::Result<Option<After>> {
        let prompt = if away {
            format!("{other} is away. (claim, adjourn, say, board, resign, quit) > ")
        } else {
            format!("Waiting for {other}. (say, board, resign, quit) > ")
        };
        let Some(line) = self.read(&prompt)? else {
            self.leave(room, seat)?;
            return Ok(Some(After::Gone));
        };
        if line.trim().is_empty() {
            return Ok(None);
        }
        if let Some(step) = self.game_word(room, Some(seat), &line)? {
            return Ok(step);
        }
        match Command::from_word(&line) {
            Some(Command::Resign) => {
                self.server.resign(room, seat, self.id);
                Ok(None)
            }
            Some(Command::Quit) => {
                self.leave(room, seat)?;
                Ok(Some(After::Lobby))
            }
            Some(Command::Board) => {
                room.lock().version += 1;
                Ok(None)
            }
            Some(Command::Help) => {
                let help = room.lock().table.help();
                self.say(&help)?;
                Ok(None)
            }
            _ => {
                self.refuse(&format!("not your turn: it is {other}'s move"))?;
                Ok(None)
            }
        }
    }

    /// A draw or a take-back offered by the other player: yes or no.
    fn answer_offer(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        by: &str,
    ) -> io::Result<Option<After>> {
        let offer = room.lock().offer;
        let question = match offer {
            Some(Offer::Draw(_)) => format!("{by} offers a draw. Do you accept (yes/no)? "),
            Some(Offer::Undo(_)) => {
                format!("{by} asks to take back their last move. Do you agree (yes/no)? ")
            }
            None => return Ok(None),
        };
        self.event(json!({"event": "offer", "game": room.number, "by": by,
            "offer": if matches!(offer, Some(Offer::Draw(_))) { "draw" } else { "undo" }}))?;
        let Some(line) = self.read(&question)? else {
            self.leave(room, seat)?;
            return Ok(Some(After::Gone));
        };
        if line.trim().is_empty() {
            return Ok(None);
        }
        if let Some(step) = self.game_word(room, Some(seat), &line)? {
            return Ok(step);
        }
        match crate::shell::ask::parse_yes_no(&line) {
            Ok(yes) => self.server.answer(room, seat, yes, self.id),
            Err(why) => self.refuse(&why)?,
        }
        Ok(None)
    }

    /// The server's computer moves, thought out on this player's thread.
    fn computer_turn(
        &mut self,
        room: &Arc<Room>,
        table: &dyn super::table::Table,
        level: &str,
    ) -> io::Result<()> {
        let seed = rand::random();
        let deadline = crate::shell::clock::Until::after(self.server.think());
        if let Some(mv) = table.computer_move(level, seed, &deadline) {
            let seat = table.to_move();
            if let Err(why) = self.server.play(room, seat, &mv, Some(self.id)) {
                self.refuse(&why)?;
            }
        }
        Ok(())
    }

    /// A watcher's prompt.
    fn watcher_turn(&mut self, room: &Arc<Room>) -> io::Result<Option<After>> {
        let prompt = format!("Watching game {}. > ", room.number);
        let Some(line) = self.read(&prompt)? else {
            return Ok(Some(After::Gone));
        };
        if line.trim().is_empty() {
            return Ok(None);
        }
        if let Some(step) = self.game_word(room, None, &line)? {
            return Ok(step);
        }
        let (word, _) = words::split(&line);
        match word.as_str() {
            "unwatch" | "quit" | "leave" | "q" => Ok(Some(After::Lobby)),
            "board" => {
                room.lock().version += 1;
                Ok(None)
            }
            "moves" => {
                let line = room.lock().table.moves_line();
                self.say(&line)?;
                Ok(None)
            }
            "help" | "?" => {
                self.say(words::WATCH_HELP)?;
                Ok(None)
            }
            _ => {
                self.refuse(&format!(
                    "\"{}\" is not a command while watching; type help",
                    safe::cut(&word, 20)
                ))?;
                Ok(None)
            }
        }
    }

    /// The player leaves their seat: the game waits for them.
    fn leave(&mut self, room: &Arc<Room>, seat: usize) -> io::Result<()> {
        self.server.park(room, seat, Instant::now());
        if !self.outbox.is_closed() {
            self.say(&format!(
                "You left game {}. It waits for you: type resume to go back.",
                room.number
            ))?;
        }
        Ok(())
    }
}
