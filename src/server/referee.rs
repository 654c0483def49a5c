//! The referee: every change to a game in progress goes through here, is
//! checked against the rules on the server's own table, kept, and then
//! shown to the others in the room by waking them.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use super::Server;
use super::hub::{Notice, Offer, Room, RoomState, Seat, SessionId, Sitter, ending_said};
use super::store::{AccountId, GameId, NewGame, PlayerRef, SeatInfo, StoreError, StoredGame};
use crate::cabinet;
use crate::games::GameKind;
use crate::shell::log::{Record, Seat as LoggedSeat, warn};
use crate::shell::table::Table;

/// Why a move was not played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unplayed {
    /// The rules or the game's state refused it: the reason, a clause.
    Refused(String),
    /// The store could not keep it (a full disk): why, in its words.
    NotKept(String),
}

impl Unplayed {
    /// The clause said to the player whose move it was.
    pub(crate) fn words(&self) -> String {
        match self {
            Unplayed::Refused(why) => why.clone(),
            Unplayed::NotKept(why) => {
                format!("the server could not keep your move, so it was not played ({why})")
            }
        }
    }
}

impl Server {
    /// Starts a game at a new room: kept in the store first, then listed.
    pub(crate) fn begin_room(
        &self,
        table: Box<dyn Table>,
        seats: [Seat; 2],
        rated: bool,
    ) -> Result<Arc<Room>, String> {
        let sides = table.sides();
        let info = |i: usize| SeatInfo {
            handle: seats[i].handle.clone(),
            side: sides[i].clone(),
            player: player_of(&seats[i].sitter),
        };
        let new = NewGame {
            game: table.kind().game().to_string(),
            flow: table.kind().flow().to_string(),
            setup: table.setup(),
            start: table.start(),
            seats: [info(0), info(1)],
            rated,
        };
        let id = self
            .store()
            .begin_game(&new)
            .map_err(|e| format!("the server could not keep a new game ({})", e.reason()))?;
        let number = u64::try_from(id.0).unwrap_or_default();
        Ok(self
            .hub()
            .open_room(number, Room::new(number, rated, table, seats)))
    }

    /// Brings back a game kept in the store, adjourned; adds what became
    /// of it to `recovered`.
    pub(crate) fn restore(&self, game: StoredGame, recovered: &mut Recovered) {
        let number = u64::try_from(game.id.0).unwrap_or_default();
        let restored = GameKind::from_log(&game.game, &game.flow)
            .map_err(|e| e.to_string())
            .and_then(|kind| cabinet::restore(kind, &game.setup).map_err(|e| e.to_string()))
            .and_then(|mut table| {
                for mv in &game.moves {
                    table.play(mv).map_err(|e| e.to_string())?;
                }
                Ok(table)
            });
        let table = match restored {
            Ok(table) => table,
            Err(why) => {
                warn(&format!("game {number} cannot be brought back: {why}"));
                recovered.lost += 1;
                return;
            }
        };
        let seat = |info: &SeatInfo| Seat {
            handle: info.handle.clone(),
            sitter: match &info.player {
                Some(PlayerRef::Account(id)) => Sitter::Person(Some(id.0)),
                Some(PlayerRef::Computer { level }) => Sitter::Computer(level.clone()),
                None => Sitter::Person(None),
            },
            session: None,
            left: None,
            owner: None,
        };
        let seats = [seat(&game.seats[0]), seat(&game.seats[1])];
        let room = self
            .hub()
            .open_room(number, Room::new(number, game.rated, table, seats));
        let mut st = room.lock();
        st.adjourned = true;
        // Its last move ended it, but the server stopped before the game
        // was kept as finished: kept now.
        if st.table.ending().is_some() {
            recovered.finished += 1;
            self.finish(&room, &mut st);
        } else if st.seats.iter().any(|s| s.sitter == Sitter::Person(None)) {
            recovered.guests += 1;
            // A guest's game cannot come back: the guest is gone. The
            // server stopped without ending it (it was killed, or stopped
            // at once by a second signal): ended now.
            st.adjourned = false;
            self.cut_off(
                &room,
                &mut st,
                "the server stopped during the game, and a guest cannot come back: it ends without a winner.",
            );
        } else {
            recovered.adjourned += 1;
        }
    }

    /// Plays `mv` for the player of `seat`: checked, kept, then shown.
    pub(crate) fn play(
        &self,
        room: &Arc<Room>,
        seat: usize,
        mv: &str,
        by: Option<SessionId>,
    ) -> Result<(), Unplayed> {
        let mut st = room.lock();
        if st.adjourned {
            return Err(Unplayed::Refused("the game is adjourned".into()));
        }
        if st.table.ending().is_some() {
            return Err(Unplayed::Refused("the game is over".into()));
        }
        if st.table.to_move() != seat {
            return Err(Unplayed::Refused("it is not your turn".into()));
        }
        st.table
            .play(mv)
            .map_err(|e| Unplayed::Refused(e.to_string()))?;
        let ply = st.table.moves().len() - 1;
        let id = GameId(i64::try_from(room.number).unwrap_or_default());
        let played = st.table.moves().last().cloned().unwrap_or_default();
        if let Err(e) = self
            .store()
            .add_move(id, u32::try_from(ply).unwrap_or(u32::MAX), &played)
        {
            st.table.take_back(1);
            return Err(Unplayed::NotKept(e.reason()));
        }
        st.moved[seat] = true;
        if let Some(offer) = st.offer.take() {
            self.lapsed(&st, offer, seat, "moved");
        }
        self.after_change(room, &mut st, by);
        Ok(())
    }

    /// Tells the players that `offer` lapsed before it was answered, when
    /// the player of `seat` `did` something else (`moved`, `left`): they
    /// offered and went on, or did it without answering. A player who has
    /// left is not told.
    fn lapsed(&self, st: &RoomState, offer: Offer, seat: usize, did: &str) {
        let (what, offerer) = match offer {
            Offer::Draw(by) => ("draw offer", by),
            Offer::Undo(by) => ("request to take back a move", by),
        };
        let mover = &st.seats[seat].handle;
        // What the other player is told, and the watchers, who heard the
        // offer made.
        let (told, watchers) = if offerer == seat {
            let seen = format!("{mover} {did}, so their {what} lapsed.");
            let told = vec![
                (seat, format!("Your {what} lapsed when you {did}.")),
                (1 - seat, seen.clone()),
            ];
            (told, seen)
        } else {
            let name = &st.seats[offerer].handle;
            let told = vec![
                (
                    offerer,
                    format!("{mover} {did} without answering: your {what} lapsed."),
                ),
                (
                    seat,
                    format!("You {did} without answering: {name}'s {what} lapsed."),
                ),
            ];
            let seen = format!("{mover} {did} without answering: {name}'s {what} lapsed.");
            (told, seen)
        };
        for (to, text) in told {
            if let Some(id) = st.seats[to].session {
                self.hub().notify(id, &Notice::Info(text));
            }
        }
        self.tell_watchers(st, &watchers);
    }

    /// The player of `seat` resigns.
    pub(crate) fn resign(&self, room: &Arc<Room>, seat: usize, by: SessionId) {
        let mut st = room.lock();
        if st.table.ending().is_some() {
            return;
        }
        let name = st.seats[seat].handle.clone();
        let winner = st.seats[1 - seat].handle.clone();
        st.ending_words = Some(format!("{name} resigned: {winner} wins."));
        st.table.settle(Some(1 - seat), "resigned");
        self.after_change(room, &mut st, Some(by));
    }

    /// An offer to the other player.
    /// `false`, and nothing made, when an offer came first: the other
    /// player's, made since the player looked.
    pub(crate) fn offer(&self, room: &Arc<Room>, offer: Offer, by: SessionId) -> bool {
        let mut st = room.lock();
        if st.offer.is_some() {
            return false;
        }
        st.offer = Some(offer);
        // Watchers are told in words: the board is as it was.
        let told = match offer {
            Offer::Draw(seat) => format!("{} offers a draw.", st.seats[seat].handle),
            Offer::Undo(seat) => format!(
                "{} asks to take back their last move.",
                st.seats[seat].handle
            ),
        };
        self.tell_watchers(&st, &told);
        st.changed(self.hub(), Some(by));
        true
    }

    /// The answer of the player of `seat` to the offer waiting.
    pub(crate) fn answer(&self, room: &Arc<Room>, seat: usize, yes: bool, by: SessionId) {
        let mut st = room.lock();
        let Some(offer) = st.offer.take() else {
            return;
        };
        let name = st.seats[seat].handle.clone();
        let offerer = match offer {
            Offer::Draw(seat) | Offer::Undo(seat) => seat,
        };
        if let Some(id) = st.seats[offerer].session {
            let told = match (offer, yes) {
                (Offer::Draw(_), true) => format!("{name} agrees to the draw."),
                (Offer::Draw(_), false) => format!("{name} declines the draw."),
                (Offer::Undo(_), true) => format!("{name} agrees: your last move is taken back."),
                (Offer::Undo(_), false) => format!("{name} declines to take back your move."),
            };
            self.hub().notify(id, &Notice::Info(told));
        }
        let told = match (offer, yes) {
            (Offer::Draw(_), true) => format!("{name} agrees to the draw."),
            (Offer::Draw(_), false) => format!("{name} declines the draw."),
            (Offer::Undo(_), true) => format!("{name} agrees to take back a move."),
            (Offer::Undo(_), false) => format!("{name} declines to take back a move."),
        };
        self.tell_watchers(&st, &told);
        if yes {
            match offer {
                Offer::Draw(_) => {
                    st.ending_words = Some("A draw, agreed by the players.".into());
                    st.table.settle(None, "agreed");
                }
                Offer::Undo(offerer) => self.take_back_kept(room, &mut st, offerer),
            }
        }
        self.after_change(room, &mut st, Some(by));
    }

    /// Tells a room's watchers what happened, in words.
    pub(crate) fn tell_watchers(&self, st: &RoomState, text: &str) {
        for &id in &st.watchers {
            self.hub().notify(id, &Notice::Info(text.to_string()));
        }
    }

    /// Against the computer: takes back the player's last move and the
    /// computer's reply. `false` when there is none.
    pub(crate) fn take_back(&self, room: &Arc<Room>, seat: usize, by: SessionId) -> bool {
        let mut st = room.lock();
        let before = st.table.moves().len();
        self.take_back_kept(room, &mut st, seat);
        let changed = st.table.moves().len() != before;
        if changed {
            self.after_change(room, &mut st, Some(by));
        }
        changed
    }

    /// Takes back the moves since `seat`'s last move, in the store too.
    fn take_back_kept(&self, room: &Room, st: &mut RoomState, seat: usize) {
        let before = st.table.moves().len();
        take_back_to(st, seat);
        let taken = before - st.table.moves().len();
        if taken > 0 {
            let left = st.table.moves().len();
            let (count, kept) = &mut st.taken_back;
            *count += 1;
            if kept.len() == crate::server::hub::TAKE_BACKS_KEPT {
                kept.pop_front();
            }
            kept.push_back(left);
            let id = GameId(i64::try_from(room.number).unwrap_or_default());
            if let Err(e) = self
                .store()
                .take_back(id, u32::try_from(taken).unwrap_or(u32::MAX))
            {
                warn(&format!("game {}: {e}", room.number));
            }
        }
    }

    /// The player of `seat` claims the win over a player away too long.
    pub(crate) fn claim(&self, room: &Arc<Room>, seat: usize, by: SessionId) -> Result<(), String> {
        let mut st = room.lock();
        self.away_too_long(&st, seat)?;
        let gone = st.seats[1 - seat].handle.clone();
        let winner = st.seats[seat].handle.clone();
        st.ending_words = Some(format!(
            "{gone} left the game and did not come back: {winner} wins."
        ));
        // As a game abandoned before its first moves is aborted elsewhere,
        // a player who never moved has not begun it: it is not rated. One
        // whose moves were taken back had begun it.
        if room.rated && !st.moved[1 - seat] {
            st.unrated = Some(format!(
                "The game is not rated: {gone} left before making a move."
            ));
        }
        st.table.settle(Some(seat), "abandoned");
        self.after_change(room, &mut st, Some(by));
        Ok(())
    }

    /// The player of `seat` adjourns the game of a player away too long.
    pub(crate) fn adjourn(&self, room: &Arc<Room>, seat: usize) -> Result<(), String> {
        let mut st = room.lock();
        if self.lost(&st, 1 - seat) {
            return Err(format!(
                "not now: {} was a guest and cannot come back to an adjourned game; type claim to take the win",
                st.seats[1 - seat].handle
            ));
        }
        self.away_too_long(&st, seat)?;
        st.adjourned = true;
        st.seats[seat].session = None;
        st.changed(self.hub(), None);
        self.keep_adjourned(room, &st);
        Ok(())
    }

    fn away_too_long(&self, st: &RoomState, seat: usize) -> Result<(), String> {
        if self.lost(st, 1 - seat) {
            return Ok(());
        }
        let other = &st.seats[1 - seat];
        if other.session.is_some() || other.left.is_none() {
            return Err(format!("not now: {} is still in the game", other.handle));
        }
        if !st.away_past(1 - seat, self.grace(), Instant::now()) {
            // Whole seconds, rounded up: never "0 more seconds".
            let left = other.left.map_or(1, |l| {
                let rest = self
                    .grace()
                    .saturating_sub(Instant::now().saturating_duration_since(l));
                rest.as_millis().div_ceil(1000).max(1)
            });
            let seconds = if left == 1 { "second" } else { "seconds" };
            return Err(format!(
                "not yet: {} may still come back for {left} more {seconds}",
                other.handle
            ));
        }
        Ok(())
    }

    /// At shutdown: every game in progress is adjourned and kept, and
    /// everyone is told. What became of the games, for the operator.
    pub(crate) fn adjourn_all(&self) -> Adjourned {
        let mut adjourned = Adjourned::default();
        // The sessions at a game: its number, whether it can be resumed,
        // and for one that ends, where it is kept.
        let mut seated: HashMap<SessionId, (u64, bool, Option<String>)> = HashMap::new();
        // The accounts with a game between accounts adjourned now, whether
        // at it or away from it (in the lobby, or watching): to resume.
        let mut to_resume: HashSet<i64> = HashSet::new();
        for room in self.hub().rooms() {
            let mut st = room.lock();
            if st.table.ending().is_some() {
                continue;
            }
            if st.seats.iter().any(|s| s.sitter == Sitter::Person(None)) {
                // A guest's game cannot be resumed (the guest is nobody
                // once gone): it ends now, adjourned before or not, while
                // its players are here to be told (below); the next start
                // would tell an account player again at their next login.
                // One away from it is told now if online, else at that
                // login.
                adjourned.guests += 1;
                st.adjourned = false;
                st.cut_off = true;
                self.cut_off(
                    &room,
                    &mut st,
                    "the server is shutting down, and a guest cannot come back: it ends without a winner.",
                );
                for id in st.seats.iter().filter_map(|s| s.session) {
                    seated.insert(id, (room.number, false, st.epilogue.clone()));
                }
            } else if st.adjourned {
                // Put away already: it is counted as in progress only once
                // it is played again.
                continue;
            } else {
                adjourned.games += 1;
                st.adjourned = true;
                self.keep_adjourned(&room, &st);
                for seat in &st.seats {
                    if let Some(id) = seat.session {
                        seated.insert(id, (room.number, true, None));
                    }
                    if let Sitter::Person(Some(account)) = seat.sitter {
                        to_resume.insert(account);
                    }
                }
            }
            for seat in &mut st.seats {
                seat.session = None;
            }
            st.changed(self.hub(), None);
        }
        // A player with no game in progress (watching, or in the lobby) is
        // told only that the server is shutting down.
        self.hub().tell_each(|id, account| {
            let shutting = "The server is shutting down.";
            let to_resume_later =
                || format!("{shutting} Games in progress are adjourned: type resume when it is back.");
            let (text, game) = match (seated.get(&id), account) {
                (Some(&(game, false, ref kept)), account) => {
                    let mut text = if account.is_some() {
                        format!("{shutting} A game with a guest cannot be resumed: your game in progress ends here, without a winner.")
                    } else {
                        format!("{shutting} A guest's game cannot be resumed: your game in progress ends here.")
                    };
                    if let Some(kept) = kept {
                        text.push(' ');
                        text.push_str(kept);
                    }
                    (text, Some((game, false)))
                }
                (Some(&(game, true, _)), _) => (to_resume_later(), Some((game, true))),
                (None, Some(account)) if to_resume.contains(&account) => (to_resume_later(), None),
                (None, _) => (shutting.to_string(), None),
            };
            Notice::Last { text, game }
        });
        adjourned
    }

    /// Ends a game with a guest that the server, not a player, cut off:
    /// nobody wins it. Kept, and its players away from it told `why`.
    fn cut_off(&self, room: &Arc<Room>, st: &mut RoomState, why: &str) {
        st.ending_words = Some(why.to_string());
        st.table.settle(None, "abandoned");
        self.finish(room, st);
    }

    /// A session has ended: every seat it held is parked, and it watches
    /// nothing any more.
    pub(crate) fn left(&self, id: SessionId) {
        for room in self.hub().rooms() {
            let seat = {
                let mut st = room.lock();
                st.watchers.retain(|&w| w != id);
                st.seat_of(id)
            };
            if let Some(seat) = seat {
                self.park(&room, seat, Instant::now());
            }
            // A guest's parked games can never be resumed now: also one
            // adjourned when both seats emptied (the other is the computer,
            // or gone).
            let mut st = room.lock();
            let Some(owned) = st.seats.iter().position(|s| s.owner == Some(id)) else {
                continue;
            };
            // A seat the guest had left before leaving the server: the
            // opponent waiting for them hears they cannot come back now.
            if !self.reap(&room, &mut st)
                && seat.is_none()
                && st.table.ending().is_none()
                && !st.adjourned
                && self.lost(&st, owned)
            {
                let name = st.seats[owned].handle.clone();
                if let Some(other) = st.seats[1 - owned].session {
                    let told = format!(
                        "{name} has left the server, and as a guest cannot come back: type claim to take the win."
                    );
                    self.hub().notify(other, &Notice::Info(told));
                }
                self.tell_watchers(
                    &st,
                    &format!("{name} has left the server, and as a guest cannot come back."),
                );
                st.presence_changed(self.hub(), None);
            }
        }
    }

    /// The player of `seat` has left (or their connection dropped): the
    /// seat waits, the opponent is told, and the grace time runs.
    pub(crate) fn park(&self, room: &Arc<Room>, seat: usize, now: Instant) {
        let mut st = room.lock();
        if st.table.ending().is_some() || st.seats[seat].session.is_none() || st.adjourned {
            return;
        }
        // The other player is a guest gone for good: nobody is left to wait
        // for, so leaving ends the game, won, and the player still at the
        // board hears its end there.
        if self.lost(&st, 1 - seat) && !self.guest_gone(&st.seats[seat]) {
            st.ending_words = Some(guest_lost(
                &st.seats[1 - seat].handle,
                &st.seats[seat].handle,
            ));
            st.table.settle(Some(seat), "abandoned");
            let by = st.seats[seat].session;
            self.after_change(room, &mut st, by);
            return;
        }
        st.seats[seat].session = None;
        st.seats[seat].left = Some(now);
        let lapsed = st.offer.take();
        let name = st.seats[seat].handle.clone();
        let grace = self.grace().as_secs();
        let opponent = st.seats[1 - seat].session;
        let both_gone = opponent.is_none();
        if let Some(offer) = lapsed {
            // The seat is empty already: only the one who stays is told.
            self.lapsed(&st, offer, seat, "left");
        }
        if let Some(id) = opponent {
            let told = if self.lost(&st, seat) {
                format!(
                    "{name} has left the game, and as a guest cannot come back: type claim to take the win."
                )
            } else {
                let seconds = if grace == 1 { "second" } else { "seconds" };
                format!(
                    "{name} has left the game. They have {grace} {seconds} to come back; then you may claim the win or adjourn."
                )
            };
            self.hub().notify(id, &Notice::Info(told));
            // Watchers too: the game waits for the player.
            let told = if self.lost(&st, seat) {
                format!("{name} has left the game, and as a guest cannot come back.")
            } else {
                format!("{name} has left the game.")
            };
            self.tell_watchers(&st, &told);
        }
        if self.reap(room, &mut st) {
            return;
        }
        if both_gone {
            st.adjourned = true;
            self.keep_adjourned(room, &st);
            // Watchers hear that it is adjourned.
            st.changed(self.hub(), None);
        } else if lapsed.is_some() {
            // The one who stays may be answering the offer, or waiting for
            // its answer: asked again, whoever is to move.
            st.changed(self.hub(), None);
        } else {
            st.presence_changed(self.hub(), None);
        }
        drop(st);
        if !both_gone {
            self.start_grace(room, seat, now);
        }
    }

    /// Whether the player of `seat` is a guest gone for good: nobody can
    /// ever sit there again.
    pub(crate) fn lost(&self, st: &RoomState, seat: usize) -> bool {
        st.seats[seat].session.is_none() && self.guest_gone(&st.seats[seat])
    }

    /// Whether `seat` is a guest's whose session has gone from the server
    /// (seated there still or not).
    fn guest_gone(&self, seat: &Seat) -> bool {
        seat.sitter == Sitter::Person(None)
            && seat.owner.is_none_or(|id| !self.hub().is_connected(id))
    }

    /// Ends a game nobody can finish: a guest is gone for good, and the
    /// other side is gone too or is the computer. The one who could still
    /// play wins; two guests gone draw. `true` if it ended the game.
    pub(crate) fn reap(&self, room: &Arc<Room>, st: &mut RoomState) -> bool {
        if st.table.ending().is_some() {
            return false;
        }
        let lost = [self.lost(st, 0), self.lost(st, 1)];
        let present = |i: usize| {
            st.seats[i].session.is_some() && !matches!(st.seats[i].sitter, Sitter::Computer(_))
        };
        let (winner, words) = match lost {
            [true, true] => (
                None,
                "Both guests left: the game ends without a winner.".to_string(),
            ),
            [true, false] | [false, true] => {
                let gone = usize::from(lost[1]);
                if present(1 - gone) {
                    return false;
                }
                (
                    Some(1 - gone),
                    guest_lost(&st.seats[gone].handle, &st.seats[1 - gone].handle),
                )
            }
            [false, false] => return false,
        };
        st.ending_words = Some(words);
        st.adjourned = false;
        st.table.settle(winner, "abandoned");
        self.after_change(room, st, None);
        true
    }

    /// Tells the opponent when the grace time is up.
    fn start_grace(&self, room: &Arc<Room>, seat: usize, left: Instant) {
        let server = self.clone();
        let room = Arc::clone(room);
        let grace = self.grace();
        let _ = std::thread::Builder::new()
            .name("grace".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                std::thread::sleep(grace);
                let mut st = room.lock();
                // The player came back (and perhaps left again, which started
                // a grace time of its own): this one is over.
                if st.seats[seat].left != Some(left) || st.table.ending().is_some() || st.adjourned {
                    return;
                }
                // A guest gone for good: the opponent and the watchers were
                // told so as they went, and told they may claim.
                if server.lost(&st, seat) {
                    return;
                }
                let name = st.seats[seat].handle.clone();
                let told = format!(
                    "{name} has not come back: type claim to take the win, or adjourn to finish the game later."
                );
                if let Some(id) = st.seats[1 - seat].session {
                    server.hub().notify(id, &Notice::Info(told));
                }
                let other = &st.seats[1 - seat].handle;
                let watchers =
                    format!("{name} has not come back: {other} may claim the win, or adjourn the game.");
                server.tell_watchers(&st, &watchers);
                st.presence_changed(server.hub(), None);
            });
    }

    /// After a change: a game that has ended is kept and closed, and
    /// everyone in the room is woken.
    fn after_change(&self, room: &Arc<Room>, st: &mut RoomState, by: Option<SessionId>) {
        if st.table.ending().is_some() {
            self.finish(room, st);
        }
        st.changed(self.hub(), by);
    }

    /// Keeps a finished game and takes its room off the list.
    fn finish(&self, room: &Arc<Room>, st: &mut RoomState) {
        let sides = st.table.sides();
        let seats: Vec<LoggedSeat> = st
            .seats
            .iter()
            .zip(sides)
            .map(|(seat, side)| LoggedSeat {
                name: seat.handle.clone(),
                side,
                level: match &seat.sitter {
                    Sitter::Computer(level) => Some(level.clone()),
                    Sitter::Person(_) => None,
                },
            })
            .collect();
        if let Some(record) = st.table.record(seats) {
            // The machine dialect hears it in the `end` event.
            let said = self.keep_finished(room, &record, st.unrated.as_deref());
            st.epilogue = (!said.is_empty()).then_some(said);
        }
        self.tell_the_away(room, st);
        self.hub().close_room(room.number);
    }

    /// Tells each player online but away from the game (in the lobby,
    /// another game, or logged in again) that it has ended, and how; a
    /// player with an account who is not online is told at their next
    /// login.
    fn tell_the_away(&self, room: &Room, st: &RoomState) {
        let how = ending_said(st.ending_words.as_ref(), st.table.as_ref(), &st.names());
        for seat in &st.seats {
            let online = match seat.sitter {
                Sitter::Person(Some(account)) => {
                    let online = self.hub().session_of(account);
                    if online.is_none() {
                        let id = GameId(i64::try_from(room.number).unwrap_or_default());
                        if let Err(e) = self.store().note_unseen(AccountId(account), id) {
                            warn(&format!("game {}: {e}", room.number));
                        }
                    }
                    online
                }
                Sitter::Person(None) => seat.owner.filter(|&id| self.hub().is_connected(id)),
                Sitter::Computer(_) => None,
            };
            let Some(id) = online.filter(|&id| seat.session != Some(id)) else {
                continue;
            };
            let mut told = format!("Game {}, which you had left, is over: {how}", room.number);
            if let Some(epilogue) = &st.epilogue {
                told.push(' ');
                told.push_str(epilogue);
            }
            self.hub().notify(id, &Notice::Info(told));
        }
    }

    /// Keeps a finished game; what to tell its players: how their ratings
    /// moved, and where it is kept; or that the store could not keep it (in
    /// words that name none of the server's files: the store tells its
    /// operator the rest). `unrated` says why a rated room's game does not
    /// count after all.
    fn keep_finished(&self, room: &Room, record: &Record, unrated: Option<&str>) -> String {
        let id = GameId(i64::try_from(room.number).unwrap_or_default());
        match self
            .store()
            .finish_game(id, record, room.rated && unrated.is_none())
        {
            Ok(finished) => {
                let mut lines: Vec<String> = unrated.map(str::to_string).into_iter().collect();
                lines.extend(finished.ratings.iter().map(|(name, before, after)| {
                    rating_moved(name, &record.game, before.rating, after.rating)
                }));
                if let Some(number) = finished.number {
                    lines.push(format!(
                        "The game is kept as number {number} in the server's log."
                    ));
                }
                if finished.log_error.is_some() {
                    // The reason names the server's files: for its operator's
                    // eyes (the store warns on its standard error).
                    lines.push(
                        "The server could not add the game to its log yet; it will when the log takes games again, or at its next start."
                            .to_string(),
                    );
                }
                lines.join(" ")
            }
            Err(StoreError::EndingWaits { reason, .. }) => format!(
                "The server could not store this game's ending yet ({reason}); it keeps the result and stores it as soon as it can."
            ),
            Err(e) => {
                warn(&format!(
                    "game {}'s ending could not be kept: {e}",
                    room.number
                ));
                format!("The server could not keep this game ({}).", e.reason())
            }
        }
    }

    /// Takes a game out of adjournment in the store.
    pub(crate) fn keep_resumed(&self, room: &Room) {
        let id = GameId(i64::try_from(room.number).unwrap_or_default());
        if let Err(e) = self.store().set_adjourned(id, false) {
            warn(&format!("game {}: {e}", room.number));
        }
    }

    /// Keeps a game as adjourned.
    fn keep_adjourned(&self, room: &Room, _st: &RoomState) {
        let id = GameId(i64::try_from(room.number).unwrap_or_default());
        if let Err(e) = self.store().set_adjourned(id, true) {
            warn(&format!("game {}: {e}", room.number));
        }
    }
}

/// What became of the games left unfinished when the server last stopped,
/// as it starts again.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Recovered {
    /// Brought back adjourned, to be resumed.
    pub adjourned: usize,
    /// Held by a guest, who cannot come back: ended without a winner.
    pub guests: usize,
    /// Ended by their last move before the server could keep them as
    /// finished: kept as finished now.
    pub finished: usize,
    /// Could not be brought back (each was warned of).
    pub lost: usize,
}

impl Recovered {
    /// The operator's line, or `None` where nothing was left unfinished.
    pub fn report(&self) -> Option<String> {
        let games = |n: usize| if n == 1 { "game" } else { "games" };
        let mut parts = Vec::new();
        if self.adjourned > 0 {
            parts.push(format!(
                "{} adjourned {} brought back, to be resumed",
                self.adjourned,
                games(self.adjourned)
            ));
        }
        if self.guests > 0 {
            parts.push(format!(
                "{} {} with a guest ended without a winner",
                self.guests,
                games(self.guests)
            ));
        }
        if self.finished > 0 {
            parts.push(format!(
                "{} {} ended by {} last move kept as finished",
                self.finished,
                games(self.finished),
                if self.finished == 1 { "its" } else { "their" }
            ));
        }
        if self.lost > 0 {
            parts.push(format!(
                "{} {} could not be brought back",
                self.lost,
                games(self.lost)
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The games in progress when the server shut down.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Adjourned {
    /// Adjourned, to be resumed when the server is back.
    pub games: usize,
    /// With a guest, who cannot come back: they end.
    pub guests: usize,
}

impl std::fmt::Display for Adjourned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let games = |n: usize| if n == 1 { "game" } else { "games" };
        write!(
            f,
            "{} {} in progress adjourned",
            self.games,
            games(self.games)
        )?;
        if self.guests > 0 {
            let are = if self.guests == 1 { "is" } else { "are" };
            write!(
                f,
                "; {} {} with a guest {are} over, as a guest cannot come back",
                self.guests,
                games(self.guests)
            )?;
        }
        Ok(())
    }
}

/// Takes back the moves since `seat`'s last move, that move included.
fn take_back_to(st: &mut RoomState, seat: usize) {
    let plies = st.table.moves().len();
    if let Some(ply) = (0..plies).rev().find(|&p| st.table.mover(p) == seat) {
        st.table.take_back(plies - ply);
    }
}

/// How a game ends that a guest, `gone`, can never come back to.
fn guest_lost(gone: &str, winner: &str) -> String {
    format!("{gone} was a guest and cannot come back: {winner} wins.")
}

/// Who sits at a seat, as the store rates them.
fn player_of(sitter: &Sitter) -> Option<PlayerRef> {
    match sitter {
        Sitter::Person(Some(id)) => Some(PlayerRef::Account(super::store::AccountId(*id))),
        Sitter::Person(None) => None,
        Sitter::Computer(level) => Some(PlayerRef::Computer {
            level: level.clone(),
        }),
    }
}

/// A rating's move, as a game's players are told it at its end and at a
/// later login: `bob's fox rating: 1500 to 1662.`
pub(crate) fn rating_moved(name: &str, game: &str, before: f64, after: f64) -> String {
    format!("{name}'s {game} rating: {before:.0} to {after:.0}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_is_told_each_kind_of_game_brought_back_once_counted() {
        assert_eq!(Recovered::default().report(), None);
        let all = Recovered {
            adjourned: 2,
            guests: 1,
            finished: 2,
            lost: 1,
        };
        assert_eq!(
            all.report().as_deref(),
            Some(
                "2 adjourned games brought back, to be resumed; 1 game with a guest ended without \
                 a winner; 2 games ended by their last move kept as finished; 1 game could not be \
                 brought back"
            )
        );
    }
}
