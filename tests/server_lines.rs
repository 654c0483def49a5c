//! The server in process, on 127.0.0.1:0, with clients on its line door:
//! whole games of every game through seek and accept, a watcher, the grace
//! time and a claim, escaped chat, a megabyte line, and a burst of
//! connections. Loopback only; every wait is bounded.
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::Value;
use tallyho::server::limits::Limits;

mod scratch;
mod server_common;
use scratch::{Housed, Scratch};
use server_common::{Client, Serving, fox_seek_taken, quick_rules, seek_number};

/// The longest any test waits for one answer.
const PATIENCE: Duration = Duration::from_secs(20);

/// A server on a data folder of its own (made by the server); dropped or
/// stopped, the server stops, then the folder is removed.
fn serve(name: &str, limits: Limits, grace: Duration) -> Housed<Serving> {
    let data = Scratch::unmade(&format!("server-lines-{name}"));
    let running = Serving::lines(data.to_path_buf(), limits, quick_rules(grace));
    Housed::new(running, data)
}

/// A server as [`serve`] starts it, with the default limits and a minute's
/// grace time.
fn lobby(name: &str) -> Housed<Serving> {
    serve(name, Limits::default(), Duration::from_secs(60))
}

impl Client {
    /// The next JSON event if one comes within a moment.
    fn poll_event(&mut self) -> Option<Value> {
        let mut buf = [0; 65536];
        loop {
            if let Some(line) = self.shown.take("\n") {
                if line.trim() == "proto json" {
                    continue;
                }
                return Some(serde_json::from_str(line.trim()).unwrap());
            }
            match self.stream.read(&mut buf) {
                Ok(0) => panic!("closed: {:?}", self.shown.unread()),
                Ok(n) => self.shown.push(&buf[..n]),
                Err(_) => return None,
            }
        }
    }
}

/// Two clients in the machine dialect start a game of `game`: the first
/// seeks, the second accepts. Returns them with their sides.
fn pair(addr: SocketAddr, game: &str) -> ((Client, String), (Client, String)) {
    let mut a = Client::arrive(addr);
    let mut b = Client::arrive(addr);
    for c in [&mut a, &mut b] {
        assert_eq!(c.speak_json()["rated"], false);
    }
    a.send(&format!("seek {game}"));
    let n = a.event_named("seeking")["n"].as_u64().unwrap();
    b.send("seeks");
    let seeks = b.event_named("seeks");
    assert!(
        seeks["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["n"] == n && s["game"] == game),
        "{seeks}"
    );
    b.send(&format!("accept {n}"));
    let start_a = a.event_named("start");
    let start_b = b.event_named("start");
    assert_eq!(start_a["kind"], game);
    assert_eq!(start_a["game"], start_b["game"]);
    let side_a = start_a["side"].as_str().unwrap().to_string();
    let side_b = start_b["side"].as_str().unwrap().to_string();
    assert_ne!(side_a, side_b);
    ((a, side_a), (b, side_b))
}

/// Plays the first legal move whenever it is a client's turn, until both
/// see the end. Returns the moves each saw, and the end event.
fn play_out(players: &mut [(Client, String); 2]) -> ([Vec<String>; 2], Value) {
    let mut moves: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut ends: [Option<Value>; 2] = [None, None];
    let end = Instant::now() + PATIENCE * 6;
    while ends.iter().any(Option::is_none) {
        assert!(Instant::now() < end, "the game did not end");
        for (i, (client, side)) in players.iter_mut().enumerate() {
            if ends[i].is_some() {
                continue;
            }
            // Read what has come; act on a position where it is our turn.
            let Some(event) = client.poll_event() else {
                continue;
            };
            match event["event"].as_str().unwrap() {
                "move" => moves[i].push(event["move"].as_str().unwrap().to_string()),
                "end" => ends[i] = Some(event),
                "position" if event["to_move"] == side.as_str() => {
                    let legal = event["legal"].as_array().unwrap();
                    if let Some(mv) = legal.first() {
                        client.send(mv.as_str().unwrap());
                    }
                }
                "error" => panic!("refused: {event}"),
                _ => {}
            }
        }
    }
    let [a, b] = ends;
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b, "both players see the same end");
    (moves, a)
}

#[test]
fn two_line_clients_play_a_whole_game_of_every_game() {
    let running = lobby("games");
    let addr = running.line_door();
    for game in ["fox", "draughts", "fish"] {
        let (a, b) = pair(addr, game);
        let mut players = [a, b];
        let (moves, end) = play_out(&mut players);
        assert_eq!(moves[0], moves[1], "{game}: both saw every move");
        assert!(!moves[0].is_empty());
        assert!(end["how"].is_string(), "{end}");
        // Both are back in the lobby.
        for (client, _) in &mut players {
            client.send("games");
            let games = client.event_named("games");
            assert_eq!(games["games"].as_array().unwrap().len(), 0, "{games}");
        }
    }
    running.stop();
}

#[test]
fn a_watcher_sees_every_move_from_the_first() {
    let running = lobby("watch");
    let addr = running.line_door();
    let ((mut a, side_a), (b, side_b)) = pair(addr, "fox");
    // One move before the watcher comes.
    let first = loop {
        let event = a.event();
        if event["event"] == "position" {
            if event["to_move"] == side_a.as_str() {
                let mv = event["legal"][0].as_str().unwrap().to_string();
                a.send(&mv);
                break mv;
            }
            break String::new();
        }
    };
    let mut watcher = Client::arrive(addr);
    watcher.speak_json();
    watcher.send("games");
    let games = watcher.event_named("games");
    let number = games["games"][0]["game"].as_u64().unwrap();
    watcher.send(&format!("watch {number}"));
    let start = watcher.event_named("start");
    assert_eq!(start["side"], Value::Null);
    let mut players = [(a, side_a), (b, side_b)];
    let (moves, end) = play_out(&mut players);
    let mut watched = Vec::new();
    loop {
        let event = watcher.event();
        match event["event"].as_str().unwrap() {
            "move" => watched.push(event["move"].as_str().unwrap().to_string()),
            "end" => {
                assert_eq!(event, end);
                break;
            }
            _ => {}
        }
    }
    if !first.is_empty() {
        assert_eq!(watched[0], first);
    }
    assert_eq!(watched, moves[0]);
    running.stop();
}

/// Two people in the scripted dialect on `running`'s line door, ann and
/// bob, in a fox game: the seeker, ann, plays the fox.
fn people(running: &Serving) -> (Client, Client) {
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    let mut b = Client::arrive(addr);
    a.take_name("ann");
    b.take_name("bob");
    fox_seek_taken(&mut a, &mut b);
    b.wait_for(": fox, unrated. ann (fox) against bob (hounds).");
    a.wait_for(": fox, unrated. ann (fox) against bob (hounds).");
    a.wait_for("Move fox to (B7)? ");
    b.wait_for("Waiting for ann.");
    (a, b)
}

#[test]
fn a_refusal_quotes_at_most_forty_columns_of_the_line_at_either_dialect() {
    let running = lobby("quoting");
    let (mut a, b) = people(&running);
    let long = format!("\"{}", "q".repeat(900));
    a.send(&long);
    let said = a.wait_for("Move fox to (B7)? ");
    assert!(
        said.contains(&format!("\"\"{}…\" is not a square", "q".repeat(38))),
        "{said}"
    );
    assert!(said.len() < 400, "{said}");
    drop((a, b));
    // The machine dialect's player, at the fox's move (a name of its own:
    // bob's session may not have ended yet).
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    a.speak_json();
    let mut b = Client::arrive(addr);
    b.take_name("dan");
    a.send("seek fox --side fox");
    let n = a.event_named("seeking")["n"].clone();
    b.send(&format!("accept {n}"));
    a.event_named("position");
    a.send(&long);
    let error = a.event_named("error");
    assert_eq!(
        error["message"],
        format!(
            "\"\"{}…\" is not a square: type a column letter A-H then a row number 1-8, like B1",
            "q".repeat(38)
        ),
        "{error}"
    );
}

#[test]
fn an_answer_with_no_offer_to_answer_is_told_so() {
    let running = lobby("answer-nothing");
    let (mut a, mut b) = people(&running);
    a.send("yes");
    a.wait_for("There is no offer to answer.");
    b.send("no");
    b.wait_for("There is no offer to answer.");
    a.send("draw");
    a.wait_for("You offer a draw.");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    a.send("yes");
    a.wait_for("Your offer waits for bob's answer.");
    // The one asked still answers it.
    b.send("no");
    a.wait_for("bob declines the draw.");
}

#[test]
fn seeks_a_game_takes_away_are_said_to_be_withdrawn() {
    let running = lobby("seeks-withdrawn");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    a.take_name("ann");
    let mut b = Client::arrive(addr);
    b.take_name("bob");
    a.send("seek fox --side fox");
    a.wait_for("accepts.");
    a.send("seek draughts");
    a.wait_for("accepts.");
    b.send("accept 1");
    a.wait_for("Your seek 2 is withdrawn: a player plays one game at a time.");
    // A game against the computer takes them too.
    let mut c = Client::arrive(addr);
    c.take_name("cat");
    c.send("seek fish");
    c.wait_for("accepts.");
    c.send("seek fox");
    c.wait_for("accepts.");
    c.send("play draughts rubbish");
    let said = c.wait_for("a player plays one game at a time.");
    assert!(said.contains("Your seeks 3 and 4 are withdrawn"), "{said}");
    let mut d = Client::arrive(addr);
    d.send("seeks");
    d.wait_for("No seeks are open.");
}

#[test]
fn said_text_arrives_escaped_and_moves_are_refused_out_of_turn() {
    let running = lobby("say");
    let (mut a, mut b) = people(&running);
    // A right-to-left override would turn bob's screen around.
    a.send("say hello \u{202e}dlrow");
    b.wait_for("ann says: hello \\u{202e}dlrow");
    // An escape sequence never gets as far as the game.
    a.send("say \u{1b}[2Jgone");
    a.wait_for("That line holds control characters; type plain text.");
    b.send("B2");
    b.wait_for("Not your turn: it is ann's move.");
    a.send("A8-B7");
    b.wait_for("1. ann moved A8-B7.");
    b.wait_for("Move (B1, D1, F1, H1)? ");
    running.stop();
}

#[test]
fn a_player_may_offer_a_draw_or_ask_for_a_move_back_while_the_other_thinks() {
    let running = lobby("asks");
    let (mut a, mut b) = people(&running);
    b.send("undo");
    b.wait_for("There is no move of yours to take back.");
    b.send("draw");
    b.wait_for("You offer a draw.");
    a.wait_for("bob offers a draw. Do you accept (yes/no)? ");
    // The game's words work at the question, and it is asked again.
    a.send("board");
    let board = a.wait_for("bob offers a draw. Do you accept (yes/no)? ");
    assert!(board.contains("8 F X O X O X O X"), "{board}");
    a.send("no");
    b.wait_for("ann declines the draw.");
    a.wait_for("Move fox to (B7)? ");
    a.send("A8-B7");
    a.wait_for("Waiting for bob. (undo, draw, say, board, resign, quit) > ");
    a.send("undo");
    a.wait_for("You ask to take back your last move.");
    b.wait_for("ann asks to take back their last move. Do you agree (yes/no)? ");
    b.send("draw");
    b.wait_for("The offer from ann waits for your answer: type yes or no.");
    b.send("yes");
    a.wait_for("bob agrees: your last move is taken back.");
    a.wait_for("Move fox to (B7)? ");
    // A move typed at the question is played, and the offer lapses.
    b.send("draw");
    a.wait_for("bob offers a draw. Do you accept (yes/no)? ");
    a.send("A8-B7");
    a.wait_for("You moved without answering: bob's draw offer lapsed.");
    b.wait_for("ann moved without answering: your draw offer lapsed.");
    a.wait_for("Waiting for bob.");
    // A draw offered back is agreed.
    a.send("draw");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    b.send("draw");
    for player in [&mut a, &mut b] {
        player.wait_for("A draw, agreed by the players.");
    }
    running.stop();
}

#[test]
fn a_guest_leaving_the_server_after_their_game_is_told_it_is_lost_and_the_opponent_at_once() {
    let running = lobby("guest-leaves");
    let (mut a, mut b) = people(&running);
    a.send("quit");
    a.wait_for("You left game 1.");
    b.wait_for("ann is away. (say, board, resign, quit) > ");
    a.send("quit");
    a.wait_for("As a guest you cannot come back to game 1: you leave it now. Goodbye.");
    let said = b.wait_for("gone. (claim, say, board, resign, quit) > ");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.ends_with(
            "ann has left the server, and as a guest cannot come back: type claim to take the win. ann has gone. (claim, say, board, resign, quit) >"
        ),
        "{said}"
    );
    // Nobody is left to wait for: leaving ends the game, as claiming would.
    b.send("quit");
    let said = b.wait_for("server's log.\n> ");
    assert!(
        said.contains("ann was a guest and cannot come back: bob wins."),
        "{said}"
    );
    assert!(!said.contains("waits"), "{said}");
    assert!(!said.contains("which you had left"), "{said}");
    running.stop();
}

#[test]
fn a_player_challenged_is_told_when_the_challenge_is_withdrawn_and_why() {
    let running = lobby("withdrawn");
    let addr = running.line_door();
    let [mut ann, mut bob, mut cat] = ["ann", "bob", "cat"].map(|name| {
        let mut client = Client::arrive(addr);
        client.take_name(name);
        client
    });
    ann.send("challenge bob fox");
    let n = seek_number(&ann.wait_for("when bob accepts."));
    ann.send("unseek");
    bob.wait_for(&format!(
        "ann's challenge (seek {n}) is withdrawn: ann took it back."
    ));
    ann.send("challenge bob draughts");
    let n = seek_number(&ann.wait_for("when bob accepts."));
    cat.send("seek fish");
    let fish = seek_number(&cat.wait_for("someone accepts."));
    ann.send("challenge cat fox");
    cat.wait_for("to play.");
    ann.send(&format!("accept {fish}"));
    // Cat, whom ann now plays, is not told ann has begun another game.
    let said = cat.wait_for("Game 1: fish");
    assert!(!said.contains("withdrawn"), "{said}");
    bob.wait_for(&format!(
        "ann's challenge (seek {n}) is withdrawn: ann has begun another game."
    ));
    // The player challenged leaves: the challenger hears it.
    let mut dan = Client::arrive(addr);
    dan.take_name("dan");
    dan.send("challenge bob fox");
    let n = seek_number(&dan.wait_for("when bob accepts."));
    bob.wait_for("to play.");
    bob.send("quit");
    bob.wait_for("Goodbye.");
    let said = dan.wait_for("left the server.");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.ends_with(&format!(
            "Your challenge to bob (seek {n}) is withdrawn: bob has left the server."
        )),
        "{said}"
    );
    running.stop();
}

#[test]
fn what_follows_a_move_is_said_to_both_players_as_in_local_play() {
    let running = lobby("eaten");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    let mut b = Client::arrive(addr);
    a.take_name("ann");
    b.take_name("bob");
    a.send("seek fox --rules capture --side fox");
    let n = seek_number(&a.wait_for(" is open: fox ("));
    b.send(&format!("accept {n}"));
    a.wait_for("Move fox to (B7)? ");
    for (fox, hound) in [("A8-B7", "B1-A2"), ("B7-C6", "A2-B3"), ("C6-D5", "B3-C4")] {
        a.send(fox);
        b.wait_for("Move (");
        b.send(hound);
        a.wait_for("Move fox to (");
    }
    a.send("D5-C4");
    for player in [&mut a, &mut b] {
        player.wait_for("7. ann moved D5-C4.\nThe fox ate the hound on C4.\n");
    }
    running.stop();
}

#[test]
fn a_guest_gone_for_good_is_told_once_and_not_again_when_the_grace_time_ends() {
    let running = serve("guest-once", Limits::default(), Duration::from_secs(1));
    let (a, mut b) = people(&running);
    drop(a);
    let said = b.wait_for("has gone. (claim, say, board, resign, quit) > ");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains(
            "ann has left the game, and as a guest cannot come back: type claim to take the win."
        ),
        "{said}"
    );
    // Past the grace time: nothing more is said of it.
    std::thread::sleep(Duration::from_millis(1600));
    b.send("board");
    let said = b.wait_for("has gone. (claim, say, board, resign, quit) > ");
    assert!(!said.contains("has not come back"), "{said}");
    b.send("claim");
    b.wait_for("bob wins.");
    running.stop();
}

#[test]
fn the_question_a_notice_interrupts_is_asked_again_after_it() {
    let running = lobby("reask");
    let (mut a, mut b) = people(&running);
    b.send("say your move");
    a.wait_for("\nbob says: your move\nMove fox to (B7)? ");
    a.send("say thinking");
    b.wait_for("\nann says: thinking\nWaiting for ann. (undo, draw, say, board, resign, quit) > ");
    running.stop();
}

#[test]
fn a_megabyte_line_and_an_unknown_word_are_refused_and_the_next_line_answered() {
    let running = lobby("long");
    let mut c = Client::arrive(running.line_door());
    let mut line = vec![b'x'; 1 << 20];
    line.push(b'\n');
    c.stream.write_all(&line).unwrap();
    c.wait_for("That line is 1048576 bytes long; a line here can be at most 1024.");
    c.send("who");
    c.wait_for("1 online:");
    // A word the lobby does not know is quoted as it was typed.
    c.send("B7-C8 now");
    c.wait_for("\"B7-C8\" is not a command here; type help for the list.");
    // A protocol there is none of is named as such.
    c.send("proto xml");
    c.wait_for("The one protocol is json: type proto json.");
    // An option the game does not take is named, with those it does, even
    // where it is given no value.
    c.send("seek fox --BOGUS");
    c.wait_for(
        "Fox has no option --BOGUS; it takes --board, --rules, --side, --rated and\n--unrated.",
    );
    running.stop();
}

#[test]
fn a_burst_of_connections_from_one_address_is_limited() {
    let limits = Limits {
        burst: 5,
        refill: Duration::from_secs(60),
        ..Limits::default()
    };
    let running = serve("burst", limits, Duration::from_secs(60));
    let addr = running.line_door();
    let mut welcomed = 0;
    let mut refused = 0;
    let mut kept = Vec::new();
    for _ in 0..10 {
        let mut c = Client::connect(addr);
        let first = c.wait_for("\n");
        if first.contains("Welcome") {
            welcomed += 1;
        } else {
            assert!(first.contains("Sorry: too many new connections"), "{first}");
            refused += 1;
        }
        kept.push(c);
    }
    assert_eq!((welcomed, refused), (5, 5));
    running.stop();
}

#[test]
fn a_person_plays_the_servers_computer_and_resigns() {
    let running = lobby("computer");
    let mut c = Client::arrive(running.line_door());
    c.send("play draughts champion");
    c.wait_for("Draughts is played at the levels rubbish, greedy, cunning or overpowered");
    // The level, coming first, is named before a bad option after it.
    c.send("play fox champion --bogus");
    c.wait_for("Fox is played at the levels ");
    c.send("play fox rubbish --bogus");
    c.wait_for("Fox has no option --bogus");
    c.send("name tess");
    c.wait_for("You are tess.");
    c.send("play draughts greedy --side white");
    c.wait_for("Game 1: draughts, unrated. greedy (Black) against tess (White).");
    // Black moves first: the computer's move is said, then the person is asked.
    c.wait_for("1. greedy moved ");
    c.wait_for("Move from (");
    // A lobby command at the move prompt is told where it works.
    c.send("resume 7");
    c.wait_for("\"resume\" works in the lobby: type quit to go back there");
    // Resuming the game being played (as two players resuming at once
    // may) is no mistake.
    c.send("resume 1");
    c.wait_for("You are playing game 1.");
    c.send("who");
    c.wait_for("\"who\" works in the lobby");
    c.send("hint");
    c.wait_for("Hint: ");
    c.wait_for("Move from (");
    c.send("resign");
    c.wait_for("tess resigned: greedy wins.");
    c.wait_for("> ");
    running.stop();
}

#[test]
fn a_draw_offered_and_a_move_taken_back_need_the_opponents_yes() {
    let running = lobby("offers");
    let (mut a, mut b) = people(&running);
    a.send("A8-B7");
    b.wait_for("Move (B1, D1, F1, H1)? ");
    b.send("B1-A2");
    a.wait_for("1. ann moved A8-B7.");
    a.wait_for("2. bob moved B1-A2.");
    a.wait_for("Move fox to (A6, C6, A8, C8)? ");
    a.send("undo");
    a.wait_for("You ask to take back your last move.");
    b.wait_for("ann asks to take back their last move. Do you agree (yes/no)? ");
    b.send("no");
    a.wait_for("bob declines to take back your move.");
    a.wait_for("Move fox to (A6, C6, A8, C8)? ");
    a.send("draw");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    b.send("ｙｅｓ");
    b.wait_for("\"ｙｅｓ\" uses full-width characters: type plain yes.");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    b.send("yes");
    a.wait_for("A draw, agreed by the players.");
    b.wait_for("A draw, agreed by the players.");
    running.stop();
}

#[test]
fn an_offer_lapses_aloud_when_its_maker_moves_on() {
    let running = lobby("lapse");
    let (mut a, mut b) = people(&running);
    let mut w = Client::arrive(running.line_door());
    w.take_name("wes");
    w.send("watch 1");
    w.wait_for("Watching game 1");
    a.send("draw");
    a.wait_for("You offer a draw.");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    w.wait_for("ann offers a draw.");
    // One offer at a time.
    a.send("undo");
    a.wait_for("Your offer is still waiting for an answer.");
    a.send("A8-B7");
    a.wait_for("Your draw offer lapsed when you moved.");
    b.wait_for("ann moved, so their draw offer lapsed.");
    // The question the news changed is not asked again: the new one is.
    let after = b.wait_for("Move (B1, D1, F1, H1)? ");
    assert!(!after.contains("Do you accept"), "{after:?}");
    // Nor after it.
    b.send("board");
    let board = b.wait_for("Move (B1, D1, F1, H1)? ");
    assert!(!board.contains("Do you accept"), "{board:?}");
    // The watcher, who heard the offer, hears it lapse.
    w.wait_for("ann moved, so their draw offer lapsed.");
    running.stop();
}

#[test]
fn an_offer_lapses_aloud_when_a_player_leaves() {
    let running = lobby("lapse-leaving");
    // The offer of the one who stays: told it lapsed, and asked again.
    let (mut a, b) = people(&running);
    a.send("draw");
    a.wait_for("You offer a draw.");
    drop(b);
    a.wait_for("bob left without answering: your draw offer lapsed.");
    a.wait_for("Move fox to (");
    running.stop();
    // The offer of the one who leaves, to the one answering it.
    let running = lobby("lapse-left");
    let (mut a, mut b) = people(&running);
    a.send("draw");
    b.wait_for("ann offers a draw. Do you accept (yes/no)? ");
    drop(a);
    b.wait_for("ann left, so their draw offer lapsed.");
    running.stop();
}

#[test]
fn a_player_in_the_lobby_is_told_when_their_game_ends() {
    let running = lobby("ended-away");
    let (mut a, b) = people(&running);
    a.send("quit");
    a.wait_for("type resume to go back.");
    // The other guest goes for good: the game ends, and the one in the
    // lobby hears how.
    drop(b);
    a.wait_for("Game 1, which you had left, is over: bob was a guest and cannot come back:");
    a.wait_for("wins. The game is kept as number 1 in the server's log.");
    running.stop();
}

#[test]
fn shutting_down_adjourns_the_games_and_tells_the_players() {
    let running = lobby("shutdown");
    let (mut a, mut b) = people(&running);
    running.stop();
    // Guests, whose games cannot be resumed: told so, not to come back.
    // Wrapped at 80 columns, as a script's conversation is.
    for c in [&mut a, &mut b] {
        c.wait_for("The server is shutting down.");
        let said = c.wait_for("ends here.");
        let said = said.replace('\r', "");
        assert!(said.lines().all(|l| l.chars().count() <= 80), "{said:?}");
        assert!(
            said.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .ends_with("A guest's game cannot be resumed: your game in progress ends here."),
            "{said:?}"
        );
    }
    // The connection closes.
    let mut rest = Vec::new();
    a.stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    assert!(a.stream.read_to_end(&mut rest).is_ok());
}

/// A computer's move the store cannot keep (a full disk) is said once, as
/// the computer's, and the player leaves the game, which waits: the
/// session does not try it again and again.
#[test]
fn a_computers_move_the_store_cannot_keep_is_said_once_and_the_game_waits() {
    let data = Scratch::unmade("server-lines-unkept");
    let start = || {
        Serving::lines(
            data.to_path_buf(),
            Limits::default(),
            quick_rules(Duration::from_secs(60)),
        )
    };
    start().stop();
    let conn = server_common::store::database(&data);
    conn.execute_batch(
        "CREATE TRIGGER refuse BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'no room'); END;",
    )
    .unwrap();
    drop(conn);
    let running = start();
    let mut alone = Client::arrive(running.line_door());
    alone.send("play fox rubbish --side hounds");
    let said = alone.wait_for("type resume to go back.");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains("The server could not keep the computer's move, so it was not played (no room). You left game 1."),
        "{said}"
    );
    // Nothing more comes of it.
    alone
        .stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut more = Vec::new();
    let until = Instant::now() + Duration::from_secs(1);
    let mut buf = [0; 65536];
    while Instant::now() < until && more.len() < 100_000 {
        if let Ok(n) = alone.stream.read(&mut buf) {
            more.extend_from_slice(&buf[..n]);
        }
    }
    let more = String::from_utf8_lossy(&more);
    assert!(!more.contains("could not keep"), "{more}");
    assert!(more.len() < 200, "{more}");
}

/// All a client is sent until its connection closes, as sent.
fn rest_of(client: &mut Client) -> String {
    client
        .stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut rest = Vec::new();
    let _ = client.stream.read_to_end(&mut rest);
    let mut all = client.shown.unread().to_string();
    all.push_str(&String::from_utf8_lossy(&rest));
    all
}

/// The same, its words on one line.
fn to_the_end(client: &mut Client) -> String {
    rest_of(client)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_shutdown_names_the_game_it_ended_to_its_player_in_the_machine_dialect() {
    let running = lobby("shutdown-json");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    a.take_name("ann");
    let mut b = Client::arrive(addr);
    b.speak_json();
    a.send("seek fox --side fox");
    let n = seek_number(&a.wait_for("accepts."));
    b.send(&format!("accept {n}"));
    let game = b.event_named("start")["game"].clone();
    a.wait_for("Move fox to (B7)? ");
    running.stop();
    // The last two events: which game ended, then the shutdown's words.
    let all = rest_of(&mut b);
    let events: Vec<Value> = all
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    let last = &events[events.len().saturating_sub(2)..];
    assert_eq!(
        last,
        [
            serde_json::json!({"event": "adjourned", "game": game, "resumable": false}),
            serde_json::json!({"event": "info", "text": "The server is shutting down. A guest's game cannot be resumed: your game in progress ends here. The game is kept as number 1 in the server's log."}),
        ],
        "{all}"
    );
    assert_eq!(
        events.iter().filter(|e| e["event"] == "adjourned").count(),
        1,
        "{all}"
    );
}

#[test]
fn a_guests_game_cut_off_by_a_shutdown_is_never_called_adjourned() {
    let running = lobby("shutdown-watched");
    let (mut a, mut b) = people(&running);
    let mut watcher = Client::arrive(running.line_door());
    watcher.take_name("cat");
    watcher.send("watch 1");
    watcher.wait_for("unwatch to stop.");
    running.stop();
    let said = to_the_end(&mut watcher);
    assert!(!said.contains("adjourned"), "{said}");
    // The two come in either order: the shutdown's notice and the game's
    // end reach the watcher's session on two paths.
    assert!(
        said.contains(
            "Game 1 ends here without a winner: a guest's game cannot be resumed. The game is kept as number 1 in the server's log."
        ),
        "{said}"
    );
    assert!(said.contains("The server is shutting down."), "{said}");
    for player in [&mut a, &mut b] {
        let said = to_the_end(player);
        assert!(!said.contains("adjourned"), "{said}");
        assert!(
            said.ends_with(
                "A guest's game cannot be resumed: your game in progress ends here. The game is kept as number 1 in the server's log."
            ),
            "{said}"
        );
    }
}

#[test]
fn a_guest_with_no_game_is_told_only_that_the_server_is_shutting_down() {
    let running = lobby("shutdown-idle");
    let mut idle = Client::arrive(running.line_door());
    running.stop();
    idle.wait_for("The server is shutting down.");
    let mut rest = Vec::new();
    idle.stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    assert!(idle.stream.read_to_end(&mut rest).is_ok());
    let rest = format!("{}{}", idle.shown.unread(), String::from_utf8_lossy(&rest));
    assert!(!rest.contains("game"), "{rest:?}");
}

/// A guest's game cut off by a shutdown is nobody's to win: it ends at
/// the next start without a winner, every time, whichever guest's
/// connection happened to close first, and against the computer too.
#[test]
fn a_guests_game_cut_off_by_a_shutdown_ends_without_a_winner() {
    let data = Scratch::unmade("server-lines-guests-stopped");
    let start = || {
        Serving::lines(
            data.to_path_buf(),
            Limits::default(),
            quick_rules(Duration::from_secs(60)),
        )
    };
    let rounds = 6;
    for round in 0..rounds {
        let running = start();
        let people = people(&running);
        let mut alone = Client::arrive(running.line_door());
        if round == 0 {
            alone.send("play fox rubbish --side hounds");
            alone.wait_for("Move (B1, D1, F1, H1)? ");
        }
        running.stop();
        drop((people, alone));
    }
    // The last round's game ends at this start.
    start().stop();
    let log = std::fs::read_to_string(data.join("history.jsonl")).unwrap();
    let records: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), rounds + 1, "{log}");
    for record in &records {
        assert_eq!(record["outcome"]["how"], "abandoned", "{log}");
        assert_eq!(record["outcome"]["winner"], Value::Null, "{log}");
    }
    // Nobody drew it: the game was cut off.
    let replay = std::process::Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["replay", "1", "--history"])
        .arg(data.join("history.jsonl"))
        .output()
        .unwrap();
    let replay = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay
            .trim_end()
            .ends_with("The game was cut off, and ends without a winner (abandoned)."),
        "{replay}"
    );
    let history = std::process::Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .args(["history", "--history"])
        .arg(data.join("history.jsonl"))
        .output()
        .unwrap();
    let history = String::from_utf8_lossy(&history.stdout);
    assert!(!history.contains(" draw "), "{history}");
    assert!(history.contains(" nobody "), "{history}");
}

#[test]
fn a_guests_games_end_when_the_guest_is_gone_for_good() {
    let running = lobby("guests");
    let addr = running.line_door();
    // Against the computer: the game cannot go on, and ends.
    let mut c = Client::arrive(addr);
    c.send("play fox rubbish --side hounds");
    c.wait_for("Move (B1, D1, F1, H1)? ");
    drop(c);
    // The same when the guest left the game for the lobby first: the game
    // waited while the guest was here, and not after.
    let mut c = Client::arrive(addr);
    c.send("play fox rubbish --side hounds");
    c.wait_for("Move (B1, D1, F1, H1)? ");
    c.send("quit");
    c.wait_for("It waits while you are here: type resume to go back.");
    c.send("quit");
    c.wait_for("Goodbye.");
    drop(c);
    // (The server hears the connection close a moment after its goodbye.)
    let mut look = Client::arrive(addr);
    let ended = (0..100).any(|_| {
        look.send("games");
        let said = look.wait_for("> ");
        let none = said.contains("No games are being played.");
        if !none {
            std::thread::sleep(Duration::from_millis(50));
        }
        none
    });
    assert!(ended, "the guest's game outlived the guest");
    drop(look);
    // Two guests: the one left behind may claim at once.
    let (a, mut b) = people(&running);
    drop(a);
    b.wait_for("ann has left the game, and as a guest cannot come back:");
    b.wait_for("win.");
    b.send("adjourn");
    b.wait_for("Not now: ann was a guest and cannot come back to an adjourned game;");
    b.send("claim");
    b.wait_for("ann left the game and did not come back: bob wins.");
    b.wait_for("> ");
    b.send("games");
    b.wait_for("No games are being played.");
    running.stop();
}

#[test]
fn a_player_holds_at_most_five_unfinished_games() {
    let running = lobby("limit");
    let mut c = Client::arrive(running.line_door());
    for _ in 0..5 {
        c.send("play fox rubbish --side hounds");
        c.wait_for("Move (B1, D1, F1, H1)? ");
        c.send("quit");
        c.wait_for("It waits while you are here: type resume to go back.");
    }
    c.send("play fox rubbish");
    c.wait_for("You have 5 unfinished games: finish one first");
    c.send("seek fish");
    c.wait_for("You have 5 unfinished games: finish one first");
    running.stop();
}

#[test]
fn the_machine_dialect_answers_hint_and_says_when_you_leave() {
    let running = lobby("json-hint");
    let mut c = Client::arrive(running.line_door());
    c.send("proto json");
    c.event_named("welcome");
    c.send("play fox rubbish --side hounds");
    let start = c.event_named("start");
    let game = start["game"].clone();
    c.event_named("position");
    c.send("hint");
    let hint = c.event_named("hint");
    assert_eq!(hint["game"], game);
    assert!(hint["text"].as_str().unwrap().starts_with("Hint"), "{hint}");
    c.send("say hello");
    assert_eq!(c.event_named("said")["text"], "hello");
    c.send("quit");
    assert_eq!(c.event_named("left")["game"], game);
    running.stop();
}

#[test]
fn a_port_in_use_is_named_with_its_door() {
    let home = Scratch::new("port-in-use");
    // A port this test holds, on loopback.
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port().to_string();
    let doors = ["--ssh-port", "off", "--line-port", &port];
    let (status, stderr) = serve_refused(&home, &home.join("serve"), &doors);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("the line door on 127.0.0.1:{port}: ")),
        "{stderr}"
    );
    assert!(
        !home.join("serve").exists(),
        "a start refused at its door makes no data folder"
    );
}

/// A second server on a running server's data folder and door is told
/// the folder is in use (the cause), not only that its door is taken.
#[test]
fn a_second_server_on_the_same_folder_is_told_it_is_in_use() {
    let home = Scratch::new("folder-in-use");
    let data = home.join("serve");
    let running = Serving::lines(
        data.clone(),
        Limits::default(),
        quick_rules(Duration::from_secs(60)),
    );
    let port = running.line_door().port().to_string();
    let doors = ["--ssh-port", "off", "--line-port", &port];
    let (status, stderr) = serve_refused(&home, &data, &doors);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains("another tallyho server is using the data folder"),
        "{stderr}"
    );
    running.stop();
}

/// `tallyho serve` on `data` with the `doors` options, stopped if it has
/// not ended in 20 seconds: its status (`None` if it had to be stopped)
/// and what it said on standard error.
fn serve_refused(home: &Scratch, data: &std::path::Path, doors: &[&str]) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tallyho"))
        .arg("serve")
        .args(doors)
        .arg("--data")
        .arg(data)
        .env("HOME", home.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            _ if Instant::now() < end => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    (status, stderr)
}

/// A host key that is no key, or what is not a file where the key or its
/// public half is kept, refuses the start at once (a pipe does not hold
/// it), in words, before the store is made.
#[test]
fn a_bad_host_key_refuses_the_start_before_anything_is_made() {
    let home = Scratch::new("damaged-key");
    let data = home.join("serve");
    let pipe = |path: &std::path::Path| {
        let made = std::process::Command::new("mkfifo").arg(path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    };
    type Put = Box<dyn Fn(&std::path::Path)>;
    let cases: [(&str, Put, &str); 5] = [
        (
            "ssh_host_ed25519_key",
            Box::new(|p| std::fs::write(p, "not a key\n").unwrap()),
            "does not begin as a private key in OpenSSH's format does",
        ),
        (
            "ssh_host_ed25519_key",
            Box::new(|p| std::fs::write(p, "").unwrap()),
            "does not begin as a private key in OpenSSH's format does",
        ),
        (
            "ssh_host_ed25519_key",
            Box::new(pipe),
            "is a special file (a pipe, a socket or a device)",
        ),
        (
            "ssh_host_ed25519_key.pub",
            Box::new(pipe),
            "is a special file (a pipe, a socket or a device)",
        ),
        (
            "ssh_host_ed25519_key",
            Box::new(|p| std::os::unix::fs::symlink("nowhere", p).unwrap()),
            "is a symbolic link to nothing",
        ),
    ];
    for (name, put, said) in cases {
        std::fs::create_dir_all(&data).unwrap();
        put(&data.join(name));
        let doors = ["--ssh-port", "0", "--line-port", "off"];
        let (status, stderr) = serve_refused(&home, &data, &doors);
        assert_eq!(status, Some(1), "{name}: {stderr}");
        assert!(stderr.contains(said), "{name}: {stderr}");
        let held: Vec<_> = std::fs::read_dir(&data)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(held, [name], "nothing made beside it");
        std::fs::remove_dir_all(&data).unwrap();
    }
}

/// An undo with no move of one's own to take back is refused at once, not
/// put to the opponent; one agreed to says what was taken back.
#[test]
fn an_undo_needs_a_move_of_ones_own_and_says_what_it_took() {
    let running = lobby("undo-own");
    let (mut a, mut b) = people(&running);
    a.send("undo");
    a.wait_for("There is no move of yours to take back.");
    a.wait_for("Move fox to (B7)? ");
    a.send("A8-B7");
    b.wait_for("Move (B1, D1, F1, H1)? ");
    b.send("B1-A2");
    a.wait_for("Move fox to (A6, C6, A8, C8)? ");
    a.send("undo");
    b.wait_for("ann asks to take back their last move. Do you agree (yes/no)? ");
    b.send("yes");
    a.wait_for("Taken back: 2 plies.");
    a.wait_for("Move fox to (B7)? ");
    running.stop();
}

/// `help` in a game on the server says what the server's own words do, and
/// that quit leaves the game waiting, not over.
#[test]
fn help_in_a_game_names_the_servers_words() {
    let running = lobby("game-help");
    let (mut a, mut b) = people(&running);
    a.send("help");
    // The game's own help, without its lines for one terminal's undo and
    // quit: the server's section says what they do here.
    let own = a.wait_for("On the server");
    assert!(own.contains("list the legal moves"), "{own}");
    assert!(!own.contains("take back the last move"), "{own}");
    assert!(!own.contains("the score is printed"), "{own}");
    a.wait_for("ask the other player to take back your last move");
    a.wait_for("offer a draw; the other player answers");
    a.wait_for("leave for the lobby: the game waits (type resume)");
    a.wait_for("say TEXT to the other player and the watchers");
    a.wait_for("In a rated game hint is off, and undo is refused against the computer.");
    // Waiting for the other player's move, the same.
    b.send("help");
    b.wait_for("tell NAME TEXT  say TEXT to NAME alone");
    running.stop();
}

/// In the machine dialect, `help` while the other player is to move is
/// answered with the help event, as on one's own turn.
#[test]
fn the_machine_dialect_answers_help_out_of_turn() {
    let running = lobby("json-help");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    let mut b = Client::arrive(addr);
    a.take_name("ann");
    b.speak_json();
    fox_seek_taken(&mut a, &mut b);
    b.event_named("start");
    a.wait_for("Move fox to (B7)? ");
    b.send("help");
    let help = b.event_named("help");
    assert!(
        help["text"]
            .as_str()
            .unwrap_or_default()
            .contains("On the server"),
        "{help}"
    );
    running.stop();
}

/// In the machine dialect, an offer made is confirmed, as the text door
/// says it.
#[test]
fn the_machine_dialect_hears_its_own_offer_made() {
    let running = lobby("json-offer");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    let mut b = Client::arrive(addr);
    b.take_name("bob");
    a.speak_json();
    fox_seek_taken(&mut b, &mut a);
    a.event_named("start");
    b.wait_for("Move fox to (B7)? ");
    b.send("B7");
    a.event_named("move");
    a.send("draw");
    let made = a.event_named("info");
    assert_eq!(made["text"], "You offer a draw.");
    b.wait_for("offers a draw. Do you accept (yes/no)? ");
    running.stop();
}

#[test]
fn a_client_that_takes_nothing_for_the_idle_time_is_closed() {
    let limits = Limits {
        per_address: 1,
        idle: Duration::from_secs(1),
        ..Limits::default()
    };
    let running = serve("unread", limits, Duration::from_secs(60));
    let addr = running.line_door();
    // Far more answers than the socket's buffers hold, and a client that
    // reads none of them. Its session ends, or its outbox fills; either
    // way its place must come free after the idle second, not when the
    // session's own text gives up waiting (ten seconds) or never.
    let mut deaf = Client::connect(addr);
    let script = "help\n".repeat(20_000) + "quit\n";
    deaf.stream
        .write_all(script.as_bytes())
        .expect("the script is sent");
    let sent = Instant::now();
    loop {
        let mut next = Client::connect(addr);
        let first = next.wait_for("\n");
        if first.contains("Welcome") {
            break;
        }
        assert!(first.contains("Sorry: too many connections"), "{first}");
        assert!(
            sent.elapsed() < Duration::from_secs(6),
            "the deaf client keeps its place"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(deaf);
    running.stop();
}

/// In the machine dialect every answer comes as an event: a tell that
/// reached its player, a watcher's `moves`, `help` and `unwatch`, and the
/// computer declining a draw.
#[test]
fn the_machine_dialect_hears_every_answer() {
    let running = lobby("json-answers");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    let mut m = Client::arrive(addr);
    a.take_name("ann");
    m.speak_json();
    m.send("tell ann hello");
    assert_eq!(m.event_named("told")["to"], "ann");
    a.wait_for("tells you: hello");

    a.send("play fox rubbish --side fox");
    a.wait_for("Move fox to (B7)? ");
    m.send("watch 1");
    m.event_named("start");
    m.send("moves");
    let position = m.event_named("position");
    assert_eq!(position["legal"][0], "A8-B7", "{position}");
    m.send("help");
    let help = m.event_named("help");
    assert!(
        help["text"]
            .as_str()
            .unwrap_or_default()
            .contains("unwatch")
    );
    m.send("unwatch");
    assert_eq!(m.event_named("unwatched")["game"], 1);

    m.send("play fox rubbish --side fox");
    m.event_named("position");
    m.send("who");
    let refused = m.event_named("error");
    assert_eq!(
        refused["message"],
        "\"who\" works in the lobby: type quit to go back there (the game waits for you)"
    );
    m.send("draw");
    let info = m.event_named("info");
    assert_eq!(info["text"], "The computer declines the draw.");
    m.send("quit");
    let left = m.event_named("left");
    assert_eq!(left["guest"], true, "{left}");
    running.stop();
}

/// The end of a player's input (Ctrl-D, the end of a script) gets a last
/// word: what became of the game left, and goodbye.
#[test]
fn the_end_of_input_is_answered_with_goodbye() {
    let running = lobby("eof");
    let addr = running.line_door();
    let mut c = Client::arrive(addr);
    c.stream.shutdown(std::net::Shutdown::Write).unwrap();
    c.wait_for("Goodbye.");

    let mut g = Client::arrive(addr);
    g.send("play fox rubbish --side fox");
    g.wait_for("Move fox to (B7)? ");
    // A watcher's input ends too.
    let mut w = Client::arrive(addr);
    w.send("watch 1");
    w.wait_for("Watching game 1. > ");
    w.stream.shutdown(std::net::Shutdown::Write).unwrap();
    w.wait_for("Goodbye.");
    g.stream.shutdown(std::net::Shutdown::Write).unwrap();
    g.wait_for("You left game 1, and as a guest cannot come back to it.");
    g.wait_for("Goodbye.");
    running.stop();
}

/// Three players accept three seeks of one maker at once: one game
/// begins, and the other seeks are gone in the same moment, so the maker
/// is never seated in two games.
#[test]
fn accepts_at_once_seat_a_maker_in_one_game() {
    let running = lobby("accept-race");
    let addr = running.line_door();
    let mut cat = Client::arrive(addr);
    cat.take_name("cat");
    for n in 1..=3 {
        cat.send("seek fox --side fox");
        cat.wait_for(&format!("Seek {n} is open"));
    }
    let mut takers: Vec<Client> = (0..3).map(|_| Client::arrive(addr)).collect();
    for (n, taker) in (1..).zip(&mut takers) {
        taker.send(&format!("accept {n}"));
    }
    let mut started = 0;
    for (n, taker) in (1..).zip(&mut takers) {
        taker.wait_for(&format!("accept {n}"));
        let answer = taker.wait_for("> ");
        if answer.contains(": fox, unrated.") {
            started += 1;
        } else {
            assert!(
                answer.contains(&format!("There is no seek {n}")),
                "{answer}"
            );
        }
    }
    assert_eq!(started, 1);
    let mut watcher = Client::arrive(addr);
    watcher.send("games");
    watcher.wait_for("Games:");
    let games = watcher.wait_for("\n> ");
    assert_eq!(games.matches(". fox").count(), 1, "{games}");
    running.stop();
}

#[test]
fn the_seeks_say_the_side_their_maker_plays() {
    let running = lobby("seek-side");
    let addr = running.line_door();
    let mut a = Client::arrive(addr);
    a.take_name("ann");
    a.send("seek fish --board 5x4 --penguins 2 --side A");
    a.wait_for("Seek 1 is open");
    let mut b = Client::arrive(addr);
    b.send("seeks");
    b.wait_for("1. fish by ann (unrated, board 5x4, penguins 2, ann plays A)");
    // The game, begun, says what sets it apart from the usual one, and so
    // does the list of games.
    b.send("accept 1");
    b.wait_for("Game 1: fish (board 5x4, penguins 2), unrated.");
    let mut c = Client::arrive(addr);
    c.send("games");
    c.wait_for("1. fish (board 5x4, penguins 2): ");
    running.stop();
}

/// In the machine dialect `board` and `moves` are answered with events of
/// those names, carrying the fields of a `position` event: for the player
/// to move, for the other player, and for a watcher.
#[test]
fn board_and_moves_are_answered_with_events_of_their_names() {
    let running = lobby("json-board-moves");
    let addr = running.line_door();
    let ((mut a, side_a), (mut b, _)) = pair(addr, "fox");
    let first = a.event_named("position");
    b.event_named("position");
    let (mut mover, mut other) = if first["to_move"] == side_a.as_str() {
        (a, b)
    } else {
        (b, a)
    };
    let same_fields = |answer: &Value, name: &str| {
        assert_eq!(answer["event"], name, "{answer}");
        for field in ["game", "position", "to_move", "legal"] {
            assert_eq!(answer[field], first[field], "{field} of {answer}");
        }
    };
    mover.send("board");
    same_fields(&mover.event(), "board");
    mover.send("moves");
    same_fields(&mover.event(), "moves");
    // Out of turn, the board is still answered.
    other.send("board");
    same_fields(&other.event(), "board");
    let mut watcher = Client::arrive(addr);
    watcher.speak_json();
    watcher.send(&format!("watch {}", first["game"]));
    watcher.event_named("start");
    watcher.event_named("position");
    watcher.send("moves");
    same_fields(&watcher.event(), "moves");
    watcher.send("board");
    same_fields(&watcher.event(), "board");
    running.stop();
}
