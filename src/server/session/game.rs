//! A game's conversation at the server: the moves said as they come, the
//! board, the turn asked through the game's own prompt, offers, and leaving.

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use super::{After, Session, words};
use crate::server::hub::{Doing, Offer, Room, RoomState, SessionId, Sitter, ending_said};
use crate::server::referee::Unplayed;
use crate::shell::safe;
use crate::shell::table::{Asked, Table};
use crate::shell::turn::Command;

impl Session {
    /// Plays a game the session was seated at.
    pub(super) fn play(&mut self, room: &Arc<Room>) -> io::Result<After> {
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
    pub(super) fn follow(&mut self, room: &Arc<Room>, seat: Option<usize>) -> io::Result<After> {
        let after = self.follow_game(room, seat);
        self.flags.every_wake();
        after
    }

    fn follow_game(&mut self, room: &Arc<Room>, seat: Option<usize>) -> io::Result<After> {
        self.start_words(room, seat)?;
        // The moves so far are said first: a watcher joins late, a player
        // comes back.
        let mut shown = Shown {
            plies: 0,
            take_backs: 0,
            drawn: None,
        };
        loop {
            let glance = Glance::of(&self.server, room, seat, self.id);
            self.wake_for_news(room, seat, glance.sight);
            self.news(room.number, &glance, seat, &mut shown)?;
            // A player hears what a shutdown did with their game in its
            // notice, which the machine dialect's `adjourned` event comes
            // before: nothing is said of it here.
            let shut_out = seat.is_some() && self.server.shutdown().is_cancelled();
            if glance.cut_off || (shut_out && glance.sight.adjourned) {
                // A guest's game a shutdown ended is not adjourned: a
                // watcher is told so here.
                if seat.is_none() {
                    self.event(
                        json!({"event": "adjourned", "game": room.number, "resumable": false}),
                    )?;
                    // With where it is kept, as its players hear: in one
                    // piece, so the shutdown's notice never comes between.
                    let mut told =
                        crate::shell::text::cut_off_by_shutdown(&room.number.to_string());
                    if let Some(epilogue) = &glance.epilogue {
                        told.push(' ');
                        told.push_str(epilogue);
                    }
                    self.say(&told)?;
                }
                return Ok(After::Lobby);
            }
            if glance.table.ending().is_some() {
                self.end_words(room.number, &glance)?;
                return Ok(After::Lobby);
            }
            if glance.sight.adjourned || !glance.sight.seated {
                let what = if seat.is_some() {
                    "type resume when both players are online"
                } else {
                    "it goes on when both players are back"
                };
                self.event(json!({"event": "adjourned", "game": room.number, "resumable": true}))?;
                self.say(&format!("Game {} is adjourned: {what}.", room.number))?;
                return Ok(After::Lobby);
            }
            let Some(seat) = seat else {
                match self.watcher_turn(room)? {
                    Some(after) => return Ok(after),
                    None => continue,
                }
            };
            let names = &glance.names;
            let step = match glance.sight.offer {
                Some(Offer::Draw(by) | Offer::Undo(by)) if by != seat => {
                    self.answer_offer(room, seat, &names[by])?
                }
                _ if glance.table.to_move() == seat => {
                    let computer = glance.computer.is_some();
                    self.my_turn(room, seat, glance.table.as_ref(), computer)?
                }
                _ => match &glance.computer {
                    Some(level) => self.computer_turn(room, glance.table.as_ref(), level)?,
                    None => self.their_turn(room, seat, &names[1 - seat], glance.sight.away)?,
                },
            };
            if let Some(after) = step {
                return Ok(after);
            }
        }
    }

    /// Until the next look, a wake ends a read only where the game differs
    /// from `seen` (or the session must end): a wake that comes after the
    /// look for a change made before it would ask the same question twice.
    fn wake_for_news(&self, room: &Arc<Room>, seat: Option<usize>, seen: Sight) {
        let (server, room, id) = (self.server.clone(), Arc::clone(room), self.id);
        let outbox = self.outbox.clone();
        self.flags.news_when(move || {
            outbox.is_closed() || Sight::of(&server, &room.lock(), seat, id) != seen
        });
    }

    /// The moves not yet said, and the board when anything changed.
    fn news(
        &mut self,
        number: u64,
        glance: &Glance,
        seat: Option<usize>,
        shown: &mut Shown,
    ) -> io::Result<()> {
        let table = glance.table.as_ref();
        let names = &glance.names;
        let moves = table.moves();
        if let Some(taken) = shown.look(&glance.taken_back, moves.len()) {
            self.event(
                json!({"event": "takeback", "game": number, "plies": shown.plies, "taken": taken}),
            )?;
            let plies = crate::shell::text::plies(u32::try_from(taken).unwrap_or(u32::MAX));
            self.say(&format!("Taken back: {plies}."))?;
        }
        for (ply, mv) in moves.iter().enumerate().skip(shown.plies) {
            let mover = table.mover(ply);
            self.event(json!({"event": "move", "game": number, "ply": ply + 1,
                "by": names[mover], "move": mv}))?;
            let said = table.said_move(ply, &names[mover]);
            self.say(&said)?;
            // What followed from it, as local play says it.
            for line in table.after_move(ply) {
                self.say(&line)?;
            }
        }
        shown.plies = moves.len();
        // The board again only when it changed (or was asked for): an
        // offer, an answer, a word said leave it as it was. A machine asking
        // is answered with a `board` event, whether or not the position
        // also changed.
        let now = (moves.len(), table.position());
        let asked = std::mem::take(&mut self.board_asked);
        let changed = shown.drawn.as_ref() != Some(&now);
        if changed || (asked && !self.json) {
            self.position(number, table, names, seat, "position")?;
        }
        if asked && self.json {
            self.position(number, table, names, seat, "board")?;
        }
        shown.drawn = Some(now);
        Ok(())
    }

    /// How the game ended, the result, and what followed.
    fn end_words(&mut self, number: u64, glance: &Glance) -> io::Result<()> {
        let names = &glance.names;
        let Some(ending) = glance.table.ending() else {
            return Ok(());
        };
        let winner = ending.winner.map(|i| names[i].clone());
        let text = ending_said(glance.ending_words.as_ref(), glance.table.as_ref(), names);
        self.event(
            json!({"event": "end", "game": number, "winner": winner, "how": ending.how,
            "text": text, "epilogue": glance.epilogue}),
        )?;
        self.say(&text)?;
        if let Some(epilogue) = &glance.epilogue {
            self.say(epilogue)?;
        }
        Ok(())
    }

    pub(super) fn start_words(&mut self, room: &Room, seat: Option<usize>) -> io::Result<()> {
        let st = room.lock();
        let kind = st.table.kind().game();
        let kind_shown = words::game_with_setup(st.table.as_ref());
        let names = st.names();
        let sides = st.table.sides();
        // In sentences, as the game's own words name the sides.
        let nouns = st.table.side_nouns();
        let st_setup = st.table.setup();
        let moves = st.table.moves();
        let rated = room.rated;
        // Who is away as a watcher arrives: later comings and goings are
        // told as they happen.
        let away: Vec<String> = st
            .seats
            .iter()
            .filter(|s| s.left.is_some())
            .map(|s| s.handle.clone())
            .collect();
        drop(st);
        let pairs: serde_json::Map<String, Value> = st_setup
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        self.event(
            json!({"event": "start", "game": room.number, "kind": kind, "setup": pairs, "moves": moves,
            "side": seat.map(|s| sides[s].clone()), "players": names, "rated": rated}),
        )?;
        let rated_word = if rated { "rated" } else { "unrated" };
        let mut text = format!(
            "Game {}: {kind_shown}, {rated_word}. {} ({}) against {} ({}).",
            room.number, names[0], nouns[0], names[1], nouns[1]
        );
        if seat.is_some() && self.account.is_none() {
            text.push_str(
                " You are a guest: if your connection drops, this game cannot be resumed.",
            );
        }
        if seat.is_none() {
            text.push_str(" You are watching: type help for the commands, unwatch to stop.");
            for name in away {
                text.push_str(&format!(" {name} has left the game for now."));
            }
        }
        self.say(&text)
    }

    /// The position: an event to a machine, the board to a person. The
    /// event is named `event`: `position` when the game moved on, or the
    /// command it answers (`board`, `moves`), with the same fields.
    pub(super) fn position(
        &mut self,
        number: u64,
        table: &dyn Table,
        names: &[String; 2],
        seat: Option<usize>,
        event: &str,
    ) -> io::Result<()> {
        let to_move = table.to_move();
        if self.json {
            let legal = table.legal();
            return self.event(json!({"event": event, "game": number,
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
    pub(super) fn my_turn(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        table: &dyn Table,
        computer: bool,
    ) -> io::Result<Option<After>> {
        let commands = Command::ALL;
        let asked = if self.json {
            match self.ask_json(room, seat, table)? {
                Ok(asked) => asked,
                Err(after) => return Ok(after),
            }
        } else {
            table.ask_move(
                &mut self.console,
                &commands,
                seat,
                !room.rated,
                words::TURN_WORDS,
            )?
        };
        self.carry_out(room, seat, table, computer, asked)
    }

    /// A turn in the machine dialect: one line, a command or a whole move.
    /// `Err` when the turn ends without one (a wake, a refusal, leaving).
    fn ask_json(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        table: &dyn Table,
    ) -> io::Result<Result<Asked, Option<After>>> {
        let line = match self.read_seated(room, seat, "")? {
            Ok(line) => line,
            Err(after) => return Ok(Err(after)),
        };
        if let Some(command) = Command::from_word(&line) {
            return Ok(Ok(Asked::Command(command)));
        }
        match table.parse_move(&line) {
            Ok(mv) => Ok(Ok(Asked::Play(mv))),
            Err(why) => {
                self.refuse(&why)?;
                Ok(Err(None))
            }
        }
    }

    /// Carries out what the player's turn came to.
    fn carry_out(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        table: &dyn Table,
        computer: bool,
        asked: Asked,
    ) -> io::Result<Option<After>> {
        match asked {
            Asked::Play(mv) => {
                if let Err(why) = self.server.play(room, seat, &mv, Some(self.id)) {
                    self.refuse(&why.words())?;
                }
                Ok(None)
            }
            Asked::Command(Command::Resign) => {
                self.server.resign(room, seat, self.id);
                Ok(None)
            }
            Asked::Command(asked @ (Command::Undo | Command::Draw)) => {
                self.offer(room, seat, asked, computer)?;
                Ok(None)
            }
            Asked::Command(Command::Quit) => {
                self.leave(room, seat)?;
                Ok(Some(After::Lobby))
            }
            Asked::Command(Command::Hint) if self.json => {
                let text = table.hint_text(!room.rated);
                self.event(json!({"event": "hint", "game": room.number, "text": text}))?;
                Ok(None)
            }
            Asked::Command(Command::Help) if self.json => {
                let help = table.help();
                self.event(json!({"event": "help", "text": help}))?;
                Ok(None)
            }
            Asked::Command(asked @ (Command::Moves | Command::Board)) if self.json => {
                let names = room.lock().names();
                let event = if asked == Command::Moves {
                    "moves"
                } else {
                    "board"
                };
                self.position(room.number, table, &names, Some(seat), event)?;
                Ok(None)
            }
            Asked::Command(_) => Ok(None),
            Asked::Other(line) => Ok(self.game_word(room, Some(seat), &line)?.flatten()),
            Asked::Leave => {
                if self.flags.take_woken() {
                    return Ok(None);
                }
                if self.flags.take_interrupted() {
                    // Ctrl-C at a terminal: the door has shown ^C; ask again.
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

    /// `undo` or `draw` (`asked`), on either player's turn: an offer to
    /// the other player, or against the computer its answer at once.
    fn offer(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        asked: Command,
        computer: bool,
    ) -> io::Result<()> {
        let (pending, other, away, moved) = {
            let st = room.lock();
            let them = &st.seats[1 - seat];
            let away = matches!(them.sitter, Sitter::Person(_)) && them.session.is_none();
            let moved = (0..st.table.moves().len()).any(|ply| st.table.mover(ply) == seat);
            (st.offer, them.handle.clone(), away, moved)
        };
        // The other player's offer, made first.
        let theirs_first = format!("the offer from {other} waits for your answer");
        if away {
            return self.refuse(&format!("no offer can be made while {other} is away"));
        }
        match pending {
            _ if computer => {}
            None => {}
            Some(Offer::Draw(by) | Offer::Undo(by)) if by == seat => {
                return self.refuse("your offer is still waiting for an answer");
            }
            // Two draw offers crossed: both players want it.
            Some(Offer::Draw(_)) if asked == Command::Draw => {
                self.server.answer(room, seat, true, self.id);
                return Ok(());
            }
            // The other's offer came first: its question is asked next.
            Some(_) => return self.refuse(&theirs_first),
        }
        match asked {
            Command::Draw if computer => self.inform("The computer declines the draw."),
            Command::Draw if !self.server.offer(room, Offer::Draw(seat), self.id) => {
                self.refuse(&theirs_first)
            }
            Command::Draw => self.inform("You offer a draw."),
            _ if computer && room.rated => {
                self.refuse("moves cannot be taken back in a rated game against the computer")
            }
            _ if !moved => self.refuse("there is no move of yours to take back"),
            _ if computer => {
                if self.server.take_back(room, seat, self.id) {
                    Ok(())
                } else {
                    self.refuse("there is no move of yours to take back")
                }
            }
            _ if !self.server.offer(room, Offer::Undo(seat), self.id) => self.refuse(&theirs_first),
            _ => self.inform("You ask to take back your last move."),
        }
    }

    /// The words that work in a game whoever's turn it is: `say`, and
    /// `claim` and `adjourn` when the other player is away.
    pub(super) fn game_word(
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
            // An answer with no question: none is waiting, or the one
            // waiting is this player's own. (One from the other player is
            // the prompt's to take.)
            ("yes" | "no", Some(seat)) if rest.trim().is_empty() => {
                let (offer, other) = {
                    let st = room.lock();
                    (st.offer, st.seats[1 - seat].handle.clone())
                };
                match offer {
                    Some(Offer::Draw(by) | Offer::Undo(by)) if by != seat => Ok(None),
                    Some(_) => {
                        self.refuse(&format!("your offer waits for {other}'s answer"))?;
                        Ok(Some(None))
                    }
                    None => {
                        self.refuse("there is no offer to answer")?;
                        Ok(Some(None))
                    }
                }
            }
            // Both players typed resume at once, and the other's seated
            // this one first: nothing is wrong.
            ("resume", Some(_))
                if rest.trim().is_empty() || rest.trim() == room.number.to_string() =>
            {
                self.inform(&format!("You are playing game {}.", room.number))?;
                Ok(Some(None))
            }
            (lobby, seat) if words::LOBBY_WORDS.contains(&lobby) => {
                let back = match seat {
                    Some(_) => "quit to go back there (the game waits for you)",
                    None => "unwatch to go back there",
                };
                self.refuse(&format!("\"{lobby}\" works in the lobby: type {back}"))?;
                Ok(Some(None))
            }
            _ => Ok(None),
        }
    }

    /// A line from a seated player at `prompt`, or `Err` with what follows
    /// when there is nothing more to do with it: the player has gone (and
    /// left the seat), the line was empty, or it was a word every game
    /// prompt answers ([`Session::game_word`]).
    fn read_seated(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        prompt: &str,
    ) -> io::Result<Result<String, Option<After>>> {
        let Some(line) = self.read(prompt)? else {
            self.leave(room, seat)?;
            return Ok(Err(Some(After::Gone)));
        };
        if line.trim().is_empty() {
            return Ok(Err(None));
        }
        match self.game_word(room, Some(seat), &line)? {
            Some(after) => Ok(Err(after)),
            None => Ok(Ok(line)),
        }
    }

    /// Waiting for the other player: commands still work.
    pub(super) fn their_turn(
        &mut self,
        room: &Arc<Room>,
        seat: usize,
        other: &str,
        away: Away,
    ) -> io::Result<Option<After>> {
        let prompt = match away {
            Away::ForNow => format!("{other} is away. (say, board, resign, quit) > "),
            Away::PastGrace => {
                format!("{other} is still away. (claim, adjourn, say, board, resign, quit) > ")
            }
            Away::ForGood => format!("{other} has gone. (claim, say, board, resign, quit) > "),
            Away::Here => {
                format!("Waiting for {other}. (undo, draw, say, board, resign, quit) > ")
            }
        };
        let line = match self.read_seated(room, seat, &prompt)? {
            Ok(line) => line,
            Err(after) => return Ok(after),
        };
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
                self.board_asked = true;
                Ok(None)
            }
            Some(Command::Help) => {
                self.help(room)?;
                Ok(None)
            }
            // An offer (refused, with the reason, while the other is away).
            Some(asked @ (Command::Undo | Command::Draw)) => {
                self.offer(room, seat, asked, false)?;
                Ok(None)
            }
            _ => {
                self.refuse(&format!("not your turn: it is {other}'s move"))?;
                Ok(None)
            }
        }
    }

    /// The game's help, away from the move prompt (which gives its own).
    fn help(&mut self, room: &Arc<Room>) -> io::Result<()> {
        let help = room.lock().table.help();
        if self.json {
            self.event(json!({"event": "help", "text": help}))
        } else {
            self.say(&help)
        }
    }

    /// A draw or a take-back offered by the other player: yes or no.
    pub(super) fn answer_offer(
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
        let line = match self.read_seated(room, seat, &question)? {
            Ok(line) => line,
            Err(after) => return Ok(after),
        };
        let why = match crate::shell::ask::parse_yes_no(&line) {
            Ok(yes) => {
                self.server.answer(room, seat, yes, self.id);
                return Ok(None);
            }
            Err(why) => why,
        };
        // The words of a game still work here, and a move on the player's
        // own turn is played (the offer lapses, as it does for any move).
        match Command::from_word(&line) {
            // A draw offered back: both players want it.
            Some(Command::Draw) if matches!(offer, Some(Offer::Draw(_))) => {
                self.server.answer(room, seat, true, self.id);
            }
            Some(Command::Draw | Command::Undo) => {
                self.refuse(&format!(
                    "the offer from {by} waits for your answer: type yes or no"
                ))?;
            }
            Some(Command::Resign) => self.server.resign(room, seat, self.id),
            Some(Command::Quit) => {
                self.leave(room, seat)?;
                return Ok(Some(After::Lobby));
            }
            Some(Command::Board) => self.board_asked = true,
            Some(Command::Help) => self.help(room)?,
            _ => {
                let mv = {
                    let st = room.lock();
                    (st.table.to_move() == seat).then(|| st.table.parse_move(&line))
                };
                match mv {
                    Some(Ok(mv)) => {
                        if let Err(e) = self.server.play(room, seat, &mv, Some(self.id)) {
                            self.refuse(&e.words())?;
                        }
                    }
                    _ => self.refuse(&why)?,
                }
            }
        }
        Ok(None)
    }

    /// The server's computer moves, thought out on this player's thread.
    /// The computer's move, played by the session of the person it
    /// plays. A move the store cannot keep is not tried again at once: the
    /// person is told, and leaves the game, which waits (adjourned) until
    /// they resume it.
    pub(super) fn computer_turn(
        &mut self,
        room: &Arc<Room>,
        table: &dyn Table,
        level: &str,
    ) -> io::Result<Option<After>> {
        let seed = rand::random();
        let deadline = crate::shell::clock::Until::after(self.server.think());
        let Some(mv) = table.computer_move(level, seed, &deadline) else {
            return Ok(None);
        };
        let seat = table.to_move();
        match self.server.play(room, seat, &mv, Some(self.id)) {
            Ok(()) => Ok(None),
            // The game changed meanwhile: the next look says how.
            Err(Unplayed::Refused(_)) => Ok(None),
            Err(Unplayed::NotKept(why)) => {
                self.refuse(&format!(
                    "the server could not keep the computer's move, so it was not played ({why})"
                ))?;
                self.leave(room, 1 - seat)?;
                Ok(Some(After::Lobby))
            }
        }
    }

    /// A watcher's prompt.
    pub(super) fn watcher_turn(&mut self, room: &Arc<Room>) -> io::Result<Option<After>> {
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
                self.board_asked = true;
                Ok(None)
            }
            "moves" if self.json => {
                let (table, names) = {
                    let st = room.lock();
                    (st.table.fork(), st.names())
                };
                self.position(room.number, table.as_ref(), &names, None, "moves")?;
                Ok(None)
            }
            "moves" => {
                let line = room.lock().table.moves_line();
                self.say(&line)?;
                Ok(None)
            }
            "help" | "?" => {
                self.event(json!({"event": "help", "text": words::WATCH_HELP}))?;
                self.say(words::WATCH_HELP)?;
                Ok(None)
            }
            _ => {
                let typed = line.split_whitespace().next().unwrap_or("");
                self.refuse(&format!(
                    "\"{}\" is not a command while watching; type help",
                    safe::cut(typed, 20)
                ))?;
                Ok(None)
            }
        }
    }

    /// The player leaves their seat: the game waits for them.
    pub(super) fn leave(&mut self, room: &Arc<Room>, seat: usize) -> io::Result<()> {
        if self.outbox.is_closed() {
            // Nobody to tell: the seat is parked as the session ends.
            return Ok(());
        }
        // The end of the player's input (Ctrl-D): the seat is parked as the
        // session ends, once the player is offline (a guest's for good).
        let going = self.flags.ended.load(std::sync::atomic::Ordering::SeqCst);
        if !going {
            self.server.park(room, seat, Instant::now());
            // Leaving a game whose other player can never come back ends
            // it: its end is said here, as at the board.
            let glance = Glance::of(&self.server, room, Some(seat), self.id);
            if glance.table.ending().is_some() {
                return self.end_words(room.number, &glance);
            }
        }
        let guest = self.account.is_none();
        let words = words::left(room.number, guest, going);
        self.event(json!({"event": "left", "game": room.number, "guest": guest, "text": words}))?;
        self.say(&words)
    }
}

/// What a session has said of its game so far.
struct Shown {
    plies: usize,
    /// The room's take-backs already looked at.
    take_backs: usize,
    /// The position last drawn: its plies and its notation.
    drawn: Option<(usize, String)>,
}

impl Shown {
    /// A look at a game of `plies` plies, with the room's take-backs: how
    /// many plies were taken back since the last look, if any, and the
    /// first ply still to say left in `self.plies`. A take-back and a move
    /// played after it (typed ahead, say) are both told.
    fn look(&mut self, (count, kept): &(usize, VecDeque<usize>), plies: usize) -> Option<usize> {
        // The fewest plies the game had since the last look.
        let missed = count.saturating_sub(self.take_backs);
        let low = match kept.len().checked_sub(missed) {
            Some(seen) => kept.iter().skip(seen).copied().fold(plies, usize::min),
            // More than the room remembers: all said again.
            None => 0,
        };
        self.take_backs = *count;
        let taken = self.plies.checked_sub(low).filter(|&t| t > 0);
        self.plies = self.plies.min(low);
        taken
    }
}

/// A room as one session sees it at one moment: a copy, so nobody waits
/// for the session while it asks.
struct Glance {
    table: Box<dyn Table>,
    names: [String; 2],
    /// The room's take-backs (`RoomState::taken_back`).
    taken_back: (usize, VecDeque<usize>),
    ending_words: Option<String>,
    epilogue: Option<String>,
    /// The server's computer's level, when it is the opponent.
    computer: Option<String>,
    /// What the question asked from this look depends on.
    sight: Sight,
    /// A guest's game a shutdown ended: it cannot be resumed.
    cut_off: bool,
}

/// What a session's question depends on, besides the moves (the offer
/// waiting, the game adjourned, the seats): when a wake finds all of it as
/// it was at the session's last look, the question stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Sight {
    /// The room's count of changes (`RoomState::version`).
    version: u64,
    offer: Option<Offer>,
    adjourned: bool,
    /// Whether the session still holds its seat (or watches).
    seated: bool,
    /// Where the opponent is (for a watcher, [`Away::Here`]).
    away: Away,
}

impl Sight {
    fn of(
        server: &crate::server::Server,
        st: &RoomState,
        seat: Option<usize>,
        id: SessionId,
    ) -> Sight {
        Sight {
            version: st.version,
            offer: st.offer,
            adjourned: st.adjourned,
            seated: seat.is_none_or(|s| st.seats[s].session == Some(id)),
            away: match seat {
                Some(s) if st.seats[1 - s].left.is_some() => {
                    if server.lost(st, 1 - s) {
                        Away::ForGood
                    } else if st.away_past(1 - s, server.grace(), Instant::now()) {
                        Away::PastGrace
                    } else {
                        Away::ForNow
                    }
                }
                _ => Away::Here,
            },
        }
    }
}

/// Where the opponent is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Away {
    /// In the game.
    Here,
    /// Left, and may come back within the grace time.
    ForNow,
    /// Left, and the grace time is over: the game may be claimed or
    /// adjourned.
    PastGrace,
    /// A guest who left: gone for good.
    ForGood,
}

impl Glance {
    fn of(
        server: &crate::server::Server,
        room: &Room,
        seat: Option<usize>,
        id: SessionId,
    ) -> Glance {
        let st = room.lock();
        Glance {
            table: st.table.fork(),
            names: st.names(),
            taken_back: st.taken_back.clone(),
            ending_words: st.ending_words.clone(),
            epilogue: st.epilogue.clone(),
            computer: seat.and_then(|s| match &st.seats[1 - s].sitter {
                Sitter::Computer(level) => Some(level.clone()),
                Sitter::Person(_) => None,
            }),
            sight: Sight::of(server, &st, seat, id),
            cut_off: st.cut_off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(plies: usize, take_backs: usize) -> Shown {
        Shown {
            plies,
            take_backs,
            drawn: None,
        }
    }

    #[test]
    fn a_take_back_and_a_move_after_it_are_both_told() {
        // 21 plies seen; two taken back (19 left), then a move typed ahead
        // played: 20 now. Two plies taken back, and ply 20 to say.
        let mut seen = shown(21, 0);
        let room = (1, VecDeque::from([19]));
        assert_eq!(seen.look(&room, 20), Some(2));
        assert_eq!(seen.plies, 19);
        // Looked at again with nothing new: nothing taken back.
        seen.plies = 20;
        assert_eq!(seen.look(&room, 20), None);
        assert_eq!(seen.plies, 20);
        // A plain take-back, and one that left more than was seen.
        assert_eq!(shown(8, 1).look(&(2, VecDeque::from([19, 6])), 6), Some(2));
        assert_eq!(shown(4, 1).look(&(2, VecDeque::from([19, 6])), 7), None);
        // More take-backs than the room remembers: everything said again.
        let mut far = shown(30, 0);
        assert_eq!(far.look(&(40, VecDeque::from([28, 29])), 30), Some(30));
        assert_eq!(far.plies, 0);
        assert_eq!(far.take_backs, 40);
    }
}
