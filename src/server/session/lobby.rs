//! The lobby's commands: who is here, offers of games, watching, talking,
//! ratings and history.

use std::io;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{After, Session, words};
use crate::cabinet;
use crate::games::GameKind;
use crate::server::hub::{Doing, Notice, Room, RoomState, Seat, Seek, SessionId, Sitter};
use crate::shell::log::{game_line, result_words, seats_words, warn};
use crate::shell::safe;
use crate::shell::table::Table;

/// The most unfinished games one player may hold at once.
const MAX_GAMES: usize = 5;

/// What came of trying to resume a game.
enum Resumed {
    /// The player is seated at it (or was, by the other player resuming
    /// at the same moment).
    Done,
    /// The player holds no seat there to go back to.
    NotMine,
    /// Not yet, and why; and the other player's session when they are
    /// online but busy.
    NotYet(String, Option<SessionId>),
}

/// The columns the ratings table takes.
const TABLE_WIDTH: usize = 70;

impl Session {
    /// Refuses a new game to a player who holds too many unfinished ones.
    fn too_many_games(&mut self) -> io::Result<bool> {
        if self.server.hub().games_of(self.account, self.id) < MAX_GAMES {
            return Ok(false);
        }
        self.refuse(&format!(
            "you have {MAX_GAMES} unfinished games: finish one first (games lists them, resume goes back)"
        ))?;
        Ok(true)
    }

    /// Carries out a lobby command; `false` when the player leaves.
    pub(super) fn lobby_command(&mut self, line: &str) -> io::Result<bool> {
        let (word, rest) = words::split(line);
        match word.as_str() {
            "help" | "?" if self.json => {
                self.event(json!({"event": "help", "text": words::LOBBY_HELP}))?;
            }
            "help" | "?" => self.say(words::LOBBY_HELP)?,
            "quit" | "exit" | "bye" | "q" => {
                self.farewell()?;
                return Ok(false);
            }
            "who" => self.who()?,
            "name" => self.name(rest)?,
            "seek" => self.seek(rest, None)?,
            "challenge" => {
                let (to, rest) = words::split(rest);
                if to.is_empty() {
                    self.refuse("challenge whom? Type challenge NAME GAME")?;
                } else if to.eq_ignore_ascii_case(&self.handle) {
                    self.refuse("you cannot challenge yourself; seek GAME offers a game to all")?;
                } else if !self.server.hub().is_online(&to) {
                    self.refuse(&format!("nobody called {} is online", safe::cut(&to, 20)))?;
                } else if rest.trim().is_empty() {
                    self.refuse(&format!(
                        "challenge {to} to which game? Type challenge NAME GAME: {}",
                        cabinet::GAMES.join(", ")
                    ))?;
                } else {
                    let to = self.server.hub().handle_as_written(&to).unwrap_or(to);
                    self.seek(rest, Some(to))?;
                }
            }
            "unseek" => {
                let n = self.server.hub().unseek(self.id);
                self.event(json!({"event": "unseek", "taken": n}))?;
                if n == 0 {
                    self.say("You have no open seeks.")?;
                } else {
                    let taken = if n == 1 {
                        "Your seek is taken back.".to_string()
                    } else {
                        format!("Your {n} seeks are taken back.")
                    };
                    self.say(&taken)?;
                }
            }
            "seeks" => self.seeks()?,
            "accept" => self.accept(rest)?,
            "play" => self.play_computer(rest)?,
            "games" => self.games()?,
            "resume" => self.resume(rest)?,
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
            "proto" => self.refuse("the one protocol is json: type proto json")?,
            _ => self.refuse(&format!(
                "\"{}\" is not a command here; type help for the list",
                // Quoted as typed, not as matched (in lower case).
                safe::cut(line.split_whitespace().next().unwrap_or(&word), 20)
            ))?,
        }
        Ok(true)
    }

    /// A player's rating in each game, for an account.
    fn ratings_of(&self, account: Option<i64>) -> Option<serde_json::Map<String, Value>> {
        let player =
            crate::server::store::PlayerRef::Account(crate::server::store::AccountId(account?));
        Some(
            cabinet::GAMES
                .iter()
                .filter_map(|game| {
                    let r = self.server.store().rating(&player, game).ok()?;
                    Some((game.to_string(), json!(r.rating.round())))
                })
                .collect(),
        )
    }

    pub(super) fn who(&mut self) -> io::Result<()> {
        let who = self.server.hub().who();
        if self.json {
            let players: Vec<Value> = who
                .iter()
                .map(|(handle, account, doing)| {
                    json!({"handle": handle, "doing": words::doing(*doing),
                        "ratings": self.ratings_of(*account)})
                })
                .collect();
            return self.event(json!({"event": "who", "players": players}));
        }
        let mut lines = vec![format!("{} online:", who.len())];
        for (handle, account, doing) in who {
            let rated = match account {
                Some(id) => {
                    let player = crate::server::store::PlayerRef::Account(
                        crate::server::store::AccountId(id),
                    );
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
    pub(super) fn ratings(&mut self, rest: &str) -> io::Result<()> {
        let game = rest.trim();
        let game = if game.is_empty() {
            None
        } else {
            match cabinet::kind(game) {
                Ok(kind) => Some(kind.game()),
                Err(why) => return self.refuse(&why.to_string()),
            }
        };
        let rows = match self.server.store().ratings(game) {
            Ok(rows) => rows,
            Err(e) => return self.refuse(&format!("the ratings cannot be read ({})", e.reason())),
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
        // The table's columns, or on a narrow screen a line a rating.
        let table = self.console.width() >= TABLE_WIDTH;
        let mut lines = Vec::new();
        if table {
            lines.push(format!(
                "  {:<10} {:<28} {:>6} {:>9} {:>6}",
                "game", "player", "rating", "deviation", "games"
            ));
        }
        for r in &rows {
            let name = if r.computer {
                format!("{} (computer)", r.name)
            } else {
                r.name.clone()
            };
            let (rating, deviation, games) = (r.rating.rating, r.rating.deviation, r.rating.games);
            lines.push(if table {
                format!(
                    "  {:<10} {:<28} {rating:>6.0} {deviation:>9.0} {games:>6}",
                    r.game,
                    safe::cut(&name, 28),
                )
            } else {
                let plural = if games == 1 { "" } else { "s" };
                format!(
                    "  {}: {name}, {rating:.0} ± {deviation:.0}, {games} game{plural}",
                    r.game
                )
            });
        }
        self.say(&lines.join("\n"))
    }

    /// The player's finished games.
    pub(super) fn history(&mut self) -> io::Result<()> {
        let Some(account) = self.account else {
            return self.refuse("guests have no history: log in over ssh with a key to keep one");
        };
        let records = match self
            .server
            .store()
            .history(crate::server::store::AccountId(account), 20)
        {
            // The last games, the latest first.
            Ok(records) => records.into_iter().rev().collect::<Vec<_>>(),
            Err(e) => return self.refuse(&format!("your games cannot be read ({})", e.reason())),
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
            lines.push(format!("  {}", game_line(r)));
        }
        let lines: Vec<String> = lines.iter().map(|l| safe::text(l)).collect();
        self.say(&lines.join("\n"))
    }

    /// Tells a player who has just logged in how the games that ended
    /// while they were not online ended: the last few in full, and how
    /// many more `history` lists.
    pub(super) fn tell_unseen(&mut self, account: i64) -> io::Result<()> {
        let unseen = match self
            .server
            .store()
            .take_unseen(crate::server::store::AccountId(account))
        {
            Ok(unseen) => unseen,
            Err(e) => {
                warn(&format!("{}'s unseen endings: {e}", self.handle));
                return Ok(());
            }
        };
        let more = unseen.len().saturating_sub(UNSEEN_TOLD);
        for ended in unseen.iter().skip(more) {
            let r = &ended.record;
            let mut told = format!(
                "While you were away, game {} ({}: {}) ended: {}.",
                ended.game,
                r.game,
                seats_words(r),
                result_words(r)
            );
            for (name, before, after) in &ended.ratings {
                told.push(' ');
                told.push_str(&crate::server::referee::rating_moved(
                    name, &r.game, *before, *after,
                ));
            }
            // The number `replay` and the log know it by.
            if r.number > 0 {
                told.push_str(&format!(
                    " It is kept as number {} in the server's log.",
                    r.number
                ));
            }
            self.inform(&safe::text(&told))?;
        }
        if more > 0 {
            self.inform(&format!(
                "{more} more of your games ended while you were away: history lists them."
            ))?;
        }
        Ok(())
    }

    pub(super) fn name(&mut self, rest: &str) -> io::Result<()> {
        if self.account.is_some() {
            return self.refuse("your handle is your account's; it cannot change");
        }
        let wanted = rest.trim();
        if let Err(why) = words::check_handle(wanted) {
            return self.refuse(&why);
        }
        // A game and a seek name their players as they began: one name for
        // a player from start to end.
        if self.server.hub().games_of(None, self.id) > 0 {
            return self.refuse(&format!(
                "your handle cannot change while you have an unfinished game, which knows you as {}",
                self.handle
            ));
        }
        if self.server.hub().seeks_by(self.id) > 0 {
            return self.refuse(
                "your handle cannot change while you have an open seek: unseek takes it back",
            );
        }
        let account =
            !self.server.store().handle_free(wanted).unwrap_or(false)
                || self.server.hub().seated_handles().iter().any(|h| {
                    h.eq_ignore_ascii_case(wanted) && !h.eq_ignore_ascii_case(&self.handle)
                });
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

    /// The game named `game` and the options written after it, as `seek`
    /// and `play` take them; `None` once the player is told what is wrong.
    fn game_options(
        &mut self,
        game: &str,
        options: &str,
    ) -> io::Result<Option<(GameKind, words::SeekOptions)>> {
        let kind = match cabinet::kind(game) {
            Ok(kind) => kind,
            Err(why) => return self.refuse(&why.to_string()).map(|()| None),
        };
        // The game's own options, and those every seek and game takes.
        let known = |name: &str| {
            cabinet::check_option(kind, name, words::SEEK_OPTIONS).map_err(|e| e.to_string())
        };
        match words::options(options, known) {
            Ok(options) => Ok(Some((kind, options))),
            Err(why) => self.refuse(&why).map(|()| None),
        }
    }

    pub(super) fn seek(&mut self, rest: &str, to: Option<String>) -> io::Result<()> {
        if self.too_many_games()? {
            return Ok(());
        }
        let (game, rest) = words::split(rest);
        let Some((kind, options)) = self.game_options(&game, rest)? else {
            return Ok(());
        };
        // Checked now, so a bad seek is refused to its maker.
        let table = match cabinet::open(kind, &options.setup, 0) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why.to_string()),
        };
        let side = match &options.side {
            None => None,
            Some(side) => match words::side(&table.sides(), side) {
                Ok(i) => Some(i),
                Err(why) => return self.refuse(&why),
            },
        };
        // A guest plays unrated: a challenge to one is unrated, and said
        // so, or it could never be accepted.
        let to_guest = to.as_deref().filter(|to| self.server.hub().is_guest(to));
        if let Some(guest) = to_guest
            && options.rated == Some(true)
        {
            return self.refuse(&format!(
                "guests play unrated, and {guest} is a guest: challenge without --rated"
            ));
        }
        let rated = to_guest.is_none() && options.rated.unwrap_or(self.account.is_some());
        if rated && self.account.is_none() {
            return self.refuse("guests play unrated; log in over ssh with a key to play rated");
        }
        // An account's seeks are rated unless it says otherwise (a guest's
        // never are): an unrated one says so, and why where it was not asked.
        let unrated_why = (!rated && self.account.is_some()).then(|| match to_guest {
            Some(guest) => format!(" It is unrated, as {guest} is a guest."),
            // The terms say so.
            None => String::new(),
        });
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
        let terms = seek_terms(&seek);
        match self.server.hub().seek(seek) {
            Ok(n) => {
                let game = kind.game();
                let (whom, who) = match to.as_deref() {
                    Some(to) => {
                        let from = &self.handle;
                        self.server.hub().tell(
                            to,
                            &Notice::Info(format!(
                                "{from} challenges you to {game} ({terms}): type accept {n} to play."
                            )),
                        );
                        (format!(" to {to}"), to.to_string())
                    }
                    None => (String::new(), "someone".to_string()),
                };
                let said = format!(
                    "Seek {n}{whom} is open: {game} ({terms}).{} You are told when {who} accepts.",
                    unrated_why.unwrap_or_default()
                );
                self.say(&said)?;
                // Whether it is rated, as `seeks` and `start` say (a
                // challenge to a guest never is), and the text door's words.
                self.event(json!({"event": "seeking", "n": n, "game": kind.game(),
                    "rated": rated, "to": to, "text": said}))?;
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
    pub(super) fn offer_computer(&mut self, table: &dyn Table) -> io::Result<()> {
        use crate::server::store::{AccountId, PlayerRef};
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

    pub(super) fn seeks(&mut self) -> io::Result<()> {
        let seeks = self.server.hub().seeks(&self.handle);
        if self.json {
            let list: Vec<Value> = seeks
                .iter()
                .map(|s| {
                    json!({"n": s.n, "game": s.kind.game(), "by": s.handle, "rated": s.rated,
                        "setup": words::setup_object(&s.options), "to": s.to,
                        "side": s.side})
                })
                .collect();
            return self.event(json!({"event": "seeks", "seeks": list}));
        }
        if seeks.is_empty() {
            return self.say("No seeks are open. Type seek GAME to open one.");
        }
        let mut lines = vec!["Open seeks:".to_string()];
        for s in &seeks {
            let to =
                s.to.as_ref()
                    .map_or_else(String::new, |t| format!(", to {t}"));
            lines.push(format!(
                "  {}. {} by {} ({}{to})",
                s.n,
                s.kind.game(),
                s.handle,
                seek_terms(s)
            ));
        }
        self.say(&lines.join("\n"))
    }

    pub(super) fn accept(&mut self, rest: &str) -> io::Result<()> {
        if self.too_many_games()? {
            return Ok(());
        }
        let Ok(n) = rest.trim().parse::<u64>() else {
            return self.refuse("accept which seek? Type accept N, with N from seeks");
        };
        let seek = match self.server.hub().take_seek(n, self.id, &self.handle) {
            Ok(seek) => seek,
            Err(why) => return self.refuse(&why),
        };
        let seed = rand::random();
        let table = match cabinet::open(seek.kind, &seek.options, seed) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why.to_string()),
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

    pub(super) fn play_computer(&mut self, rest: &str) -> io::Result<()> {
        if self.too_many_games()? {
            return Ok(());
        }
        let (game, rest) = words::split(rest);
        let (level, rest) = words::split(rest);
        // The level comes before the options, and is checked before them.
        let level = match cabinet::kind(&game) {
            Ok(kind) => {
                let levels = cabinet::levels(kind);
                match levels.iter().find(|l| l.eq_ignore_ascii_case(&level)) {
                    Some(level) => level.clone(),
                    None => {
                        return self.refuse(&format!(
                            "{} is played at the levels {}: type play {} LEVEL",
                            kind.game(),
                            crate::shell::text::list_or(&levels),
                            kind.game()
                        ));
                    }
                }
            }
            // Refused below, with the games there are.
            Err(_) => level,
        };
        let Some((kind, options)) = self.game_options(&game, rest)? else {
            return Ok(());
        };
        let table = match cabinet::open(kind, &options.setup, rand::random()) {
            Ok(table) => table,
            Err(why) => return self.refuse(&why.to_string()),
        };
        let side = match &options.side {
            None => 0,
            Some(side) => match words::side(&table.sides(), side) {
                Ok(i) => i,
                Err(why) => return self.refuse(&why),
            },
        };
        if options.rated == Some(true) && self.account.is_none() {
            return self.refuse("guests play unrated; log in over ssh with a key to play rated");
        }
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

    /// The other player of an adjourned game, seated again in `other` if
    /// online and in the lobby (`None` for a computer); or why the game
    /// cannot resume yet, with the other player's session when they are
    /// online but busy.
    fn partner(
        &self,
        st: &mut RoomState,
        other: usize,
        number: u64,
    ) -> Result<Option<SessionId>, (String, Option<SessionId>)> {
        let hub = self.server.hub();
        let found = self.present(&st.seats[other]);
        let name = &st.seats[other].handle;
        // The other player must be free to sit down: in the lobby.
        if let Some(Some(id)) = found
            && let Some(doing) = hub.doing_of(id)
            && doing != Doing::Idle
        {
            return Err((
                format!(
                    "not yet: {name} is {}; game {number} resumes when both players are free",
                    words::doing(doing),
                ),
                Some(id),
            ));
        }
        let Some(id) = found else {
            return Err((
                format!(
                    "not yet: game {number} resumes when both players are online, and {name} is not"
                ),
                None,
            ));
        };
        if let Some(id) = id {
            st.seats[other].session = Some(id);
            st.seats[other].left = None;
            st.seats[other].owner = Some(id);
        }
        Ok(id)
    }

    /// Whether whoever sits at `seat` could sit down now: `Some(None)`
    /// for a computer, `Some(session)` for a player online, `None` for a
    /// player who is not.
    fn present(&self, seat: &Seat) -> Option<Option<SessionId>> {
        let hub = self.server.hub();
        match &seat.sitter {
            Sitter::Computer(_) => Some(None),
            Sitter::Person(Some(account)) => hub.session_of(*account).map(Some),
            Sitter::Person(None) => seat.owner.filter(|&id| hub.is_connected(id)).map(Some),
        }
    }

    /// Tells a player who has just logged in which of their games are
    /// adjourned, and whether each can go on now; and tells the other
    /// player of each, if online, that it can.
    pub(super) fn tell_adjourned(&mut self, account: i64) -> io::Result<()> {
        let mut told = Vec::new();
        for room in self.server.hub().rooms() {
            let st = room.lock();
            let mine = |s: &Seat| s.sitter == Sitter::Person(Some(account));
            let Some(seat) = st.seats.iter().position(mine).filter(|_| st.adjourned) else {
                continue;
            };
            let number = room.number;
            let other = &st.seats[1 - seat];
            let name = &other.handle;
            let game = words::game_with_setup(st.table.as_ref());
            told.push(match self.present(other) {
                Some(None) => format!(
                    "Game {number} ({game} against {name}) is adjourned: type resume to go on with it."
                ),
                Some(Some(id)) => {
                    let hub = self.server.hub();
                    let busy = hub.doing_of(id).filter(|&doing| doing != Doing::Idle);
                    let (theirs, mine) = match busy {
                        None => (
                            format!(
                                "{} is online: type resume to go on with your adjourned game {number}.",
                                self.handle
                            ),
                            format!(
                                "Game {number} ({game} against {name}) is adjourned, and {name} is online: type resume to go on with it."
                            ),
                        ),
                        Some(doing) => (
                            format!(
                                "{} is online: your adjourned game {number} can go on once you are back in the lobby (type resume there).",
                                self.handle
                            ),
                            format!(
                                "Game {number} ({game} against {name}) is adjourned, and {name} is {}: type resume, and it goes on once you are both in the lobby.",
                                words::doing(doing)
                            ),
                        ),
                    };
                    hub.notify(id, &Notice::Info(theirs));
                    mine
                }
                None => format!(
                    "Game {number} ({game} against {name}) is adjourned: it can go on (type resume) once {name} is online too."
                ),
            });
        }
        for line in told {
            self.inform(&safe::text(&line))?;
        }
        Ok(())
    }

    /// Takes this player back to `room` if they left it, or resumes it
    /// when it is adjourned and both players are free.
    fn try_resume(&mut self, room: &Arc<Room>) -> Resumed {
        let mut st = room.lock();
        // The other player, resuming at the same moment, seated this one
        // already: the game is on its way.
        if st.seat_of(self.id).is_some() && !st.adjourned {
            return Resumed::Done;
        }
        let Some(seat) = st
            .seats
            .iter()
            .position(|s| s.session.is_none() && s.is_of(self.account, self.id))
        else {
            return Resumed::NotMine;
        };
        let other = 1 - seat;
        let mut wake_other = None;
        if st.adjourned && st.seats[other].session.is_none() {
            match self.partner(&mut st, other, room.number) {
                Ok(id) => wake_other = id,
                Err((why, busy)) => return Resumed::NotYet(why, busy),
            }
        }
        let resumed = st.adjourned;
        if resumed {
            st.adjourned = false;
            self.server.keep_resumed(room);
        }
        st.seats[seat].session = Some(self.id);
        st.seats[seat].left = None;
        st.seats[seat].owner = Some(self.id);
        let me = st.seats[seat].handle.clone();
        // Back from leaving the game, or resuming it adjourned (the other
        // player may have been busy, never away).
        let told = if resumed {
            format!("{me} resumes game {}.", room.number)
        } else {
            format!("{me} is back.")
        };
        if let Some(id) = st.seats[other].session {
            self.server.hub().notify(id, &Notice::Info(told.clone()));
        }
        self.server.tell_watchers(&st, &told);
        st.presence_changed(self.server.hub(), Some(self.id));
        drop(st);
        self.server.hub().forget_resume(room.number);
        if let Some(id) = wake_other {
            self.server.hub().seat(id, room, true);
        }
        self.server.hub().seat(self.id, room, false);
        Resumed::Done
    }

    /// Keeps the promise of a resume asked while a player was busy: back
    /// in the lobby, a player of such a game resumes it if the other is
    /// free too.
    pub(super) fn resume_asked(&mut self) {
        let asks = self.server.hub().clone_asks();
        for (number, asker) in asks {
            let Some(room) = self.server.hub().room(number) else {
                self.server.hub().forget_resume(number);
                continue;
            };
            if asker != self.id && !self.server.hub().is_connected(asker) {
                // The one who asked has gone: asked again, if ever.
                self.server.hub().forget_resume(number);
                continue;
            }
            if let Resumed::Done = self.try_resume(&room) {
                return;
            }
        }
    }

    /// Goes back to a game the player left, or one adjourned when both
    /// players are online.
    pub(super) fn resume(&mut self, rest: &str) -> io::Result<()> {
        let wanted = match rest.trim() {
            "" => None,
            n => match n.parse::<u64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    return self
                        .refuse("resume which game? Type resume, or resume N with N from games");
                }
            },
        };
        // Without a number: a game waiting for this player first, then the
        // adjourned ones, passing over those whose opponent cannot come.
        let mut rooms = self.server.hub().rooms();
        rooms.sort_by_key(|room| (room.lock().adjourned, room.number));
        let mut first_refusal = None;
        for room in rooms {
            if wanted.is_some_and(|n| n != room.number) {
                continue;
            }
            match self.try_resume(&room) {
                Resumed::Done => return Ok(()),
                Resumed::NotMine => {}
                Resumed::NotYet(why, busy) if wanted.is_some() => {
                    return self.not_yet(room.number, &why, busy);
                }
                Resumed::NotYet(why, busy) => {
                    first_refusal.get_or_insert((room.number, why, busy));
                }
            }
        }
        match (wanted, first_refusal) {
            (Some(n), _) => {
                self.refuse(&format!("you have no game {n} to resume; games lists them"))
            }
            (None, Some((number, why, busy))) => self.not_yet(number, &why, busy),
            (None, None) => self.refuse("you have no game to resume"),
        }
    }

    /// Says why game `number` cannot resume yet. Waiting for a `busy`
    /// player, the promise is kept: the game resumes once both are free
    /// (see [`Session::resume_asked`]), and that player is told it is asked.
    fn not_yet(&mut self, number: u64, why: &str, busy: Option<SessionId>) -> io::Result<()> {
        if let Some(busy) = busy
            && self.server.hub().ask_resume(number, self.id)
        {
            self.server.hub().notify(
                busy,
                &Notice::Info(format!(
                    "{} asks to resume game {number}: it goes on when you are back in the lobby.",
                    self.handle
                )),
            );
        }
        self.refuse(why)
    }

    pub(super) fn games(&mut self) -> io::Result<()> {
        let rooms = self.server.hub().rooms();
        let mut list = Vec::new();
        for room in &rooms {
            let st = room.lock();
            list.push((
                room.number,
                st.table.kind().game(),
                (words::game_with_setup(st.table.as_ref()), st.table.setup()),
                st.names(),
                st.table.moves().len(),
                st.adjourned,
            ));
        }
        if self.json {
            let games: Vec<Value> = list
                .iter()
                .map(|(n, game, (_, setup), names, plies, adjourned)| {
                    json!({"game": n, "kind": game, "setup": words::setup_object(setup),
                        "players": names, "plies": plies, "adjourned": adjourned})
                })
                .collect();
            return self.event(json!({"event": "games", "games": games}));
        }
        if list.is_empty() {
            return self.say("No games are being played.");
        }
        let mut lines = vec!["Games:".to_string()];
        for (n, _, (game, _), [a, b], plies, adjourned) in list {
            let state = if adjourned { ", adjourned" } else { "" };
            lines.push(format!(
                "  {n}. {game}: {a} against {b}, {}{state}",
                crate::shell::text::plies(u32::try_from(plies).unwrap_or(u32::MAX))
            ));
        }
        self.say(&lines.join("\n"))
    }

    pub(super) fn tell(&mut self, to: &str, text: &str) -> io::Result<()> {
        if to.is_empty() || text.trim().is_empty() {
            return self.refuse("tell whom what? Type tell NAME TEXT");
        }
        if to.eq_ignore_ascii_case(&self.handle) {
            return self.refuse("that is you; tell tells another player");
        }
        let to = self
            .server
            .hub()
            .handle_as_written(to)
            .unwrap_or_else(|| to.to_string());
        let to = to.as_str();
        if !self.server.hub().is_online(to) {
            return self.refuse(&format!("nobody called {} is online", safe::cut(to, 20)));
        }
        if !self.may_talk()? {
            return Ok(());
        }
        let notice = Notice::Said {
            from: self.handle.clone(),
            text: text.trim().to_string(),
            told: true,
        };
        if self.server.hub().tell(to, &notice) {
            self.event(json!({"event": "told", "to": to}))?;
            self.say(&format!("Told {}.", safe::text(to)))
        } else {
            self.refuse(&format!("nobody called {} is online", safe::cut(to, 20)))
        }
    }

    pub(super) fn say_in_room(&mut self, room: &Room, text: &str) -> io::Result<()> {
        if text.trim().is_empty() {
            return self.refuse("say what? Type say TEXT");
        }
        if !self.may_talk()? {
            return Ok(());
        }
        let notice = Notice::Said {
            from: self.handle.clone(),
            text: text.trim().to_string(),
            told: false,
        };
        let from = self.handle.clone();
        self.event(json!({"event": "said", "from": from, "text": text.trim(), "private": false}))?;
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

    pub(super) fn watch(&mut self, rest: &str) -> io::Result<()> {
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
            After::Lobby => {
                self.event(json!({"event": "unwatched", "game": n}))?;
                self.say("Back in the lobby.")
            }
            After::Gone => {
                self.goodbye()?;
                Err(io::ErrorKind::BrokenPipe.into())
            }
        }
    }
}

/// What a seek offers: `rated, rules capture, side fox`.
fn seek_terms(s: &Seek) -> String {
    let mut terms = vec![if s.rated { "rated" } else { "unrated" }.to_string()];
    let setup = words::setup_text(&s.options);
    if !setup.is_empty() {
        terms.push(setup);
    }
    // The side its maker plays, by the game's name for it.
    if let Some(side) = s
        .side
        .and_then(|i| cabinet::side_name(s.kind, &s.options, i))
    {
        terms.push(format!("{} plays {side}", s.handle));
    }
    terms.join(", ")
}

/// How many endings a player who comes back is told of in full.
const UNSEEN_TOLD: usize = 5;
