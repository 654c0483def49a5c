//! The lobby as players see it, on a server in this process: guests on the
//! line door and accounts linked as a key's login is (see
//! `server_common::keyed`). A challenge to a guest, a resume promised for
//! when both are free, two resumes at once, talk throttled, names and
//! handles, and what `history` and `play` say. Loopback only; every wait is
//! bounded.

use std::time::Duration;

use tallyho::server::Rules;
use tallyho::server::limits::{Limits, Talk};
use tallyho::server::link::Dialect;

mod scratch;
mod server_common;
use scratch::{Housed, Scratch};
use server_common::keyed::Keyed;
use server_common::{Client, Serving, Speaker, quick_rules, seek_number};

/// A server with only its line door open, on a data folder of its own,
/// with the default limits and a minute's grace time.
fn lobby(name: &str) -> Housed<Serving> {
    let data = Scratch::unmade(&format!("server-lobby-{name}"));
    let running = Serving::lines(
        data.to_path_buf(),
        Limits::default(),
        quick_rules(Duration::from_secs(60)),
    );
    Housed::new(running, data)
}

/// A guest on `running`'s line door, named `handle`.
fn guest(running: &Serving, handle: &str) -> Client {
    let mut client = Client::arrive(running.line_door());
    client.take_name(handle);
    client
}

/// Text as one line: a long sentence is wrapped where its words fall.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An account, `handle`, logged in and welcomed.
fn account(running: &Serving, handle: &str) -> Keyed {
    let mut player = Keyed::login(running.server(), handle);
    player.wait_for(&format!(
        "Welcome to tallyho, {handle}. Your games are rated."
    ));
    player
}

/// The account carol playing game 1, fox, against the guest visitor, who
/// accepted her challenge: carol to move.
fn carol_and_a_guest(running: &Serving) -> (Keyed, Client) {
    let mut carol = account(running, "carol");
    let mut visitor = guest(running, "visitor");
    carol.send("challenge visitor fox --side fox");
    let n = seek_number(&flat(&carol.wait_for("accepts.")));
    visitor.wait_for(&format!("type accept {n} to play."));
    visitor.send(&format!("accept {n}"));
    carol.wait_for("Move fox to (B7)? ");
    (carol, visitor)
}

/// A server started again on `data` once the last has let go of it
/// (a grace timer holds it until its time is up): it finds no game left
/// unfinished, and carol, logged in and asking for her `history`, is told
/// of no game that ended while she was away. The server, and carol at the
/// prompt after the listing's heading.
fn carol_back_and_told_nothing(data: &Scratch, rules: Rules) -> (Serving, Keyed) {
    server_common::closed(data);
    server_common::closed(data);
    let again = Serving::lines(data.to_path_buf(), Limits::default(), rules);
    assert_eq!(
        again.server().recovered(),
        tallyho::server::Recovered::default()
    );
    let mut carol = account(&again, "carol");
    carol.send("history");
    let said = flat(&carol.wait_for("Your last games:"));
    assert!(!said.contains("While you were away"), "{said}");
    (again, carol)
}

#[test]
fn a_challenge_to_a_guest_is_unrated_and_the_guest_can_accept_it_and_a_shutdown_ends_it() {
    let running = lobby("guest-challenge");
    let mut carol = account(&running, "carol");
    let mut visitor = guest(&running, "visitor");
    // Rated is what a guest cannot play: refused, with the reason.
    carol.send("challenge visitor fox --rated");
    let said = flat(&carol.wait_for("--rated."));
    assert!(
        said.ends_with("Guests play unrated, and visitor is a guest: challenge without --rated."),
        "{said}"
    );
    carol.send("challenge visitor fox --side fox");
    let said = flat(&carol.wait_for("accepts."));
    assert!(
        said.contains(
            "is open: fox (unrated, carol plays fox). It is unrated, as visitor is a guest. You are told when visitor accepts."
        ),
        "{said}"
    );
    let n = seek_number(&said);
    visitor.wait_for(&format!(
        "carol challenges you to fox (unrated, carol plays fox): type accept {n} to play."
    ));
    visitor.send(&format!("accept {n}"));
    visitor.wait_for("fox, unrated. carol (fox) against visitor (hounds).");
    carol.wait_for("fox, unrated. carol (fox) against visitor (hounds).");
    carol.wait_for("Move fox to (B7)? ");
    // A shutdown: the game cannot be resumed, and its account player is
    // not told to resume it.
    running.stop();
    let said = flat(&carol.wait_for("without a winner."));
    assert!(
        said.ends_with(
            "The server is shutting down. A game with a guest cannot be resumed: your game in progress ends here, without a winner."
        ),
        "{said}"
    );
    let said = flat(&visitor.wait_for("ends here."));
    assert!(
        said.ends_with("A guest's game cannot be resumed: your game in progress ends here."),
        "{said}"
    );
}

#[test]
fn an_account_whose_game_with_a_guest_a_shutdown_ended_is_not_told_again_after_it() {
    let data = Scratch::unmade("server-lobby-guest-shutdown-told-once");
    let rules = || quick_rules(Duration::from_secs(60));
    let running = Serving::lines(data.to_path_buf(), Limits::default(), rules());
    let (mut carol, visitor) = carol_and_a_guest(&running);
    running.stop();
    carol.wait_for("without a winner.");
    drop((carol, visitor));
    // The game ended at the shutdown: the next start has nothing of it to
    // end, and carol, told at the shutdown, is not told again.
    let (_again, mut carol) = carol_back_and_told_nothing(&data, rules());
    let listed = flat(&carol.wait_for("> "));
    assert!(
        listed.contains("fox: carol (fox) against visitor (hounds)")
            && listed.contains("abandoned"),
        "{listed}"
    );
}

#[test]
fn at_a_shutdown_an_account_away_from_a_guests_game_is_told_of_it_once_and_of_its_game_adjourned() {
    let running = lobby("shutdown-away-from-guest");
    let (mut carol, mut visitor) = carol_and_a_guest(&running);
    let mut bob = account(&running, "bob");
    carol.send("quit");
    carol.wait_for("You left game 1.");
    carol.send("challenge bob draughts");
    let n = seek_number(&flat(&carol.wait_for("accepts.")));
    bob.wait_for(&format!("type accept {n} to play."));
    bob.send(&format!("accept {n}"));
    carol.wait_for("Game 2: draughts");
    running.stop();
    // Game 1 ended; game 2 is adjourned, and carol is told so, not that
    // her game in progress ends.
    let said = flat(&carol.wait_for("is back."));
    assert_eq!(
        said.matches("Game 1, which you had left, is over").count(),
        1,
        "{said}"
    );
    assert!(
        said.contains(
            "Game 1, which you had left, is over: the server is shutting down, and a guest cannot come back: it ends without a winner."
        ),
        "{said}"
    );
    assert!(!said.contains("ends here"), "{said}");
    assert!(
        said.ends_with(
            "The server is shutting down. Games in progress are adjourned: type resume when it is back."
        ),
        "{said}"
    );
    // The guest, at the game, hears where it is kept.
    let said = flat(&visitor.wait_for("server's log."));
    assert!(
        said.ends_with(
            "A guest's game cannot be resumed: your game in progress ends here. The game is kept as number 1 in the server's log."
        ),
        "{said}"
    );
}

#[test]
fn a_guests_game_both_players_left_ends_at_a_shutdown_and_its_account_player_is_told_then() {
    let data = Scratch::unmade("server-lobby-guest-adjourned-shutdown");
    // A short grace: its timer holds the store until it is up.
    let rules = || quick_rules(Duration::from_secs(1));
    let running = Serving::lines(data.to_path_buf(), Limits::default(), rules());
    let (mut carol, mut visitor) = carol_and_a_guest(&running);
    carol.send("quit");
    carol.wait_for("You left game 1.");
    visitor.wait_for("carol has left the game.");
    visitor.send("quit");
    visitor.wait_for("You left game 1.");
    running.stop();
    let said = flat(&carol.wait_for("shutting down."));
    assert!(
        said.ends_with(
            "Game 1, which you had left, is over: the server is shutting down, and a guest cannot come back: it ends without a winner. The game is kept as number 1 in the server's log. The server is shutting down."
        ),
        "{said}"
    );
    drop((carol, visitor));
    carol_back_and_told_nothing(&data, rules());
}

#[test]
fn at_a_shutdown_a_machine_dialect_player_hears_its_game_adjourned_and_resumable() {
    let running = lobby("shutdown-json-account");
    let mut bob = account(&running, "bob");
    let mut carol = Keyed::login_in(running.server(), "carol", "carol", Dialect::Json);
    carol.wait_for("\"event\":\"welcome\"");
    bob.send("challenge carol draughts");
    let n = seek_number(&flat(&bob.wait_for("accepts.")));
    carol.wait_for("to play.");
    carol.send(&format!("accept {n}"));
    carol.wait_for("\"event\":\"start\"");
    bob.wait_for("Game 1: draughts");
    running.stop();
    let said = carol.wait_for("type resume when it is back.\"}\n");
    let last: Vec<serde_json::Value> = said
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        last[last.len().saturating_sub(2)..],
        [
            serde_json::json!({"event": "adjourned", "game": 1, "resumable": true}),
            serde_json::json!({"event": "info", "text": "The server is shutting down. Games in progress are adjourned: type resume when it is back."}),
        ],
        "{said}"
    );
}

#[test]
fn an_account_with_no_game_in_progress_is_told_only_that_the_server_is_shutting_down() {
    let running = lobby("shutdown-watching-account");
    let (_carol, _visitor) = carol_and_a_guest(&running);
    let mut dave = account(&running, "dave");
    dave.send("watch 1");
    dave.wait_for("unwatch to stop.");
    running.stop();
    dave.wait_for("The server is shutting down.");
    let rest = dave.wait_for("\n");
    assert!(rest.trim().is_empty(), "{rest:?}");
}

/// The next event named `name` a keyed player in the machine dialect is
/// sent.
fn keyed_event(player: &mut Keyed, name: &str) -> serde_json::Value {
    let start = format!("{{\"event\":\"{name}\"");
    player.wait_for(&start);
    let rest = player.wait_for("\n");
    serde_json::from_str(&format!("{start}{}", rest.trim_end()))
        .unwrap_or_else(|e| panic!("not an event: {rest:?}: {e}"))
}

#[test]
fn the_seeking_event_says_whether_the_seek_is_rated() {
    let running = lobby("seeking-rated");
    let mut carol = account(&running, "carol");
    let _visitor = guest(&running, "visitor");
    let _dave = account(&running, "dave");
    carol.send("proto json");
    keyed_event(&mut carol, "welcome");
    // A challenge to a guest is unrated, and the event says so.
    carol.send("challenge visitor fox");
    let seeking = keyed_event(&mut carol, "seeking");
    assert_eq!(seeking["rated"], false, "{seeking}");
    assert_eq!(seeking["to"], "visitor", "{seeking}");
    assert_eq!(seeking["game"], "fox", "{seeking}");
    // With the text door's words, which join says.
    assert!(
        seeking["text"].as_str().is_some_and(
            |t| t.contains("is open: fox (unrated). It is unrated, as visitor is a guest.")
        ),
        "{seeking}"
    );
    // An account's challenge to an account, and an open seek, are rated
    // unless they say --unrated.
    carol.send("challenge dave fox");
    assert_eq!(keyed_event(&mut carol, "seeking")["rated"], true);
    carol.send("seek draughts --unrated");
    let seeking = keyed_event(&mut carol, "seeking");
    assert_eq!(seeking["rated"], false, "{seeking}");
    assert_eq!(seeking["to"], serde_json::Value::Null, "{seeking}");
    // An account's unrated seek says so: a rated one reads the same else.
    assert!(
        seeking["text"].as_str().is_some_and(
            |t| t.contains("is open: draughts (unrated). You are told when someone accepts.")
        ),
        "{seeking}"
    );
    running.stop();
}

/// The number of the game whose start words end `said`.
fn game_number(said: &str) -> String {
    said.rsplit("Game ")
        .next()
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}

/// Guests ann (the fox) and bob start a game of Fox and Hounds and both
/// leave it, so it is adjourned: the two, and the game's number.
fn adjourned(running: &Serving) -> (Client, Client, String) {
    let mut ann = guest(running, "ann");
    let mut bob = guest(running, "bob");
    server_common::fox_seek_taken(&mut ann, &mut bob);
    let n = game_number(&ann.wait_for(": fox, unrated."));
    ann.wait_for("Move fox to (B7)? ");
    bob.wait_for("Waiting for ann.");
    ann.send("quit");
    ann.wait_for(&format!("You left game {n}."));
    bob.wait_for("ann has left the game.");
    bob.send("quit");
    bob.wait_for(&format!("You left game {n}."));
    (ann, bob, n)
}

#[test]
fn a_resume_that_waits_for_a_busy_player_happens_once_both_are_free() {
    let running = lobby("resume-later");
    let (mut ann, mut bob, n) = adjourned(&running);
    let mut carl = guest(&running, "carl");
    carl.send("play fox rubbish");
    let m = game_number(&carl.wait_for(": fox, unrated."));
    bob.send(&format!("watch {m}"));
    bob.wait_for("stop.");
    ann.send(&format!("resume {n}"));
    let said = flat(&ann.wait_for("free."));
    assert!(
        said.ends_with(&format!(
            "Not yet: bob is watching game {m}; game {n} resumes when both players are free."
        )),
        "{said}"
    );
    let said = flat(&bob.wait_for("lobby."));
    assert!(
        said.ends_with(&format!(
            "ann asks to resume game {n}: it goes on when you are back in the lobby."
        )),
        "{said}"
    );
    // Asked again, without the number, bob is not told twice.
    ann.send("resume");
    ann.wait_for("free.");
    bob.send("unwatch");
    let said = flat(&bob.wait_for("(hounds)."));
    assert!(!said.contains("asks to resume"), "{said}");
    assert!(said.contains("Back in the lobby."), "{said}");
    assert!(
        said.ends_with(&format!(
            "Game {n}: fox, unrated. ann (fox) against bob (hounds)."
        )),
        "{said}"
    );
    // Bob was busy, never away: ann hears that he resumes the game.
    let said = ann.wait_for(&format!("Game {n}: fox, unrated."));
    assert!(said.contains(&format!("bob resumes game {n}.")), "{said}");
    assert!(!said.contains("is back"), "{said}");
    ann.wait_for("Move fox to (B7)? ");
    ann.send("A8-B7");
    bob.wait_for("1. ann moved A8-B7.");
    running.stop();
}

#[test]
fn both_players_resuming_at_once_both_sit_down_and_neither_is_refused() {
    let running = lobby("resume-at-once");
    let (mut ann, mut bob, n) = adjourned(&running);
    ann.send(&format!("resume {n}"));
    bob.send(&format!("resume {n}"));
    let mut ann_saw = ann.wait_for("Move fox to (B7)? ");
    let mut bob_saw = bob.wait_for("Waiting for ann.");
    // Both have read everything the resumes said once a move is seen.
    ann.send("A8-B7");
    ann_saw += &ann.wait_for("Waiting for bob.");
    bob_saw += &bob.wait_for("1. ann moved A8-B7.");
    for said in [ann_saw, bob_saw] {
        assert!(!said.contains("no game"), "{said}");
        assert!(!said.contains("works in the lobby"), "{said}");
        assert_eq!(said.matches(&format!("Game {n}: fox")).count(), 1, "{said}");
    }
    running.stop();
}

#[test]
fn a_flood_of_talk_is_refused_to_its_sender_and_never_reaches_the_other() {
    let running = lobby("talk-flood");
    let mut ann = guest(&running, "ann");
    let mut bob = guest(&running, "bob");
    server_common::fox_seek_taken(&mut ann, &mut bob);
    ann.wait_for("Move fox to (B7)? ");
    bob.wait_for("Waiting for ann.");
    let long = "x".repeat(900);
    for i in 0..40 {
        ann.send(&format!("say {i} {long}"));
    }
    for i in 0..10 {
        ann.send(&format!("tell bob {i}"));
    }
    // Read in turn, after the flood: a move reaches bob after all that
    // was sent him.
    ann.send("A8-B7");
    let ann_saw = ann.wait_for("Waiting for bob.");
    let bob_saw = bob.wait_for("1. ann moved A8-B7.");
    let refused = flat(&ann_saw)
        .matches("Not sent: you are talking too fast (say and tell take 5 lines at once, then one a second); wait 1 second.")
        .count();
    let heard = bob_saw.matches("ann says: ").count() + bob_saw.matches("ann tells you: ").count();
    assert_eq!(heard + refused, 50, "{bob_saw}");
    // Five at once, and at most a few more as the seconds pass.
    assert!((5..10).contains(&heard), "bob heard {heard} lines");
    assert!(flat(&bob_saw).contains("ann says: 0 xxx"), "{bob_saw}");
    running.stop();
}

#[test]
fn a_guest_keeps_one_name_through_a_seek_and_a_game() {
    let running = lobby("rename");
    let mut nm1 = guest(&running, "nm1");
    let mut bob = guest(&running, "bob");
    nm1.send("seek fox --side fox");
    let n = seek_number(&nm1.wait_for(" is open: fox ("));
    nm1.send("name nm1new");
    let said = flat(&nm1.wait_for("back."));
    assert!(
        said.ends_with(
            "Your handle cannot change while you have an open seek: unseek takes it back."
        ),
        "{said}"
    );
    bob.send(&format!("accept {n}"));
    nm1.wait_for("Move fox to (B7)? ");
    nm1.send("quit");
    nm1.wait_for("You left game");
    nm1.send("name nm1new");
    let said = flat(&nm1.wait_for("nm1."));
    assert!(
        said.ends_with(
            "Your handle cannot change while you have an unfinished game, which knows you as nm1."
        ),
        "{said}"
    );
    nm1.send("resume");
    nm1.wait_for("Move fox to (B7)? ");
    nm1.send("resign");
    nm1.wait_for("nm1 resigned: bob wins.");
    // No game and no seek: the name is free to change, and a challenge
    // to the old name follows it.
    bob.send("challenge nm1 fox --side hounds");
    let n = seek_number(&bob.wait_for(" is open: fox ("));
    nm1.wait_for(&format!("type accept {n} to play."));
    nm1.take_name("nm1new");
    nm1.send(&format!("accept {n}"));
    nm1.wait_for("fox, unrated. nm1new (fox) against bob (hounds).");
    running.stop();
}

/// How many of the talk refusals `said` holds.
fn too_fast(said: &str) -> usize {
    flat(said)
        .matches("Not sent: you are talking too fast")
        .count()
}

#[test]
fn connections_from_one_address_share_one_pace_of_talk() {
    let running = lobby("talk-address");
    let mut bob = guest(&running, "bob");
    let mut ann = guest(&running, "ann");
    let mut amy = guest(&running, "amy");
    // Ann spends the burst, and is told when it is spent.
    for i in 0..=Talk::BURST {
        ann.send(&format!("tell bob ann{i}"));
    }
    ann.send("who");
    let ann_saw = ann.wait_for("online:");
    assert_eq!(too_fast(&ann_saw), 1, "{ann_saw}");
    // Amy, on another connection from the same address, gets no burst of
    // her own: a flood cannot be spread over connections.
    for i in 0..Talk::BURST {
        amy.send(&format!("tell bob amy{i}"));
    }
    amy.send("who");
    let amy_saw = amy.wait_for("online:");
    assert!(too_fast(&amy_saw) >= 1, "{amy_saw}");
    bob.send("who");
    let bob_saw = bob.wait_for("online:");
    assert!(bob_saw.contains("ann tells you: ann4"), "{bob_saw}");
    running.stop();
}

#[test]
fn no_word_the_server_answers_is_a_handle() {
    let running = lobby("handles");
    let mut visitor = Client::arrive(running.line_door());
    for word in [
        "who", "seek", "games", "yes", "no", "accept", "claim", "say", "help",
    ] {
        visitor.send(&format!("name {word}"));
        visitor.wait_for(&format!("\"{word}\" is a command: choose another name."));
    }
    // At a terminal, the first line after a taken user name is not a
    // handle.
    let _carol = account(&running, "carol");
    let mut other = Keyed::login_in(running.server(), "carol", "another", Dialect::Terminal);
    other.wait_for("Choose a handle for your key: ");
    // Nobody yet to the others: `who` lists the visitor and carol only.
    visitor.wait_for("> ");
    visitor.send("who");
    let who = visitor.wait_for("online:") + &visitor.wait_for("> ");
    assert!(who.contains("2 online:"), "{who}");
    assert!(!who.contains("\n   (guest)"), "{who}");
    other.send("who");
    other.wait_for("\"who\" is a command: choose another name.");
    other.send("carol2");
    other.wait_for("Your key is now the account carol2");
    running.stop();
}

/// A script (`ssh -T`, lines piped) whose user name is taken is never
/// asked for a handle: its lines are moves and commands. It is told why
/// and what to do instead, and the session ends.
#[test]
fn a_script_whose_user_name_is_taken_is_told_so_and_not_asked() {
    let running = lobby("script-handle");
    let _carol = account(&running, "carol");
    let mut other = Keyed::login_with(running.server(), "carol", "another");
    let said = flat(&other.wait_for("ends."));
    assert!(
        said.starts_with(
            "Your user name cannot be your handle: the handle carol is taken. A script is not asked for another: log in with a free user name as the handle (ssh NAME@HOST), or once from a terminal to choose one. This session ends."
        ),
        "{said}"
    );
    running.stop();
}

#[test]
fn history_lists_the_last_game_first() {
    let running = lobby("history");
    let mut carol = account(&running, "carol");
    carol.send("play fox rubbish --side fox");
    carol.wait_for("(B7)? ");
    carol.send("resign");
    carol.wait_for("carol resigned");
    carol.send("play draughts rubbish --side black");
    carol.wait_for("Move from (");
    carol.send("resign");
    carol.wait_for("carol resigned");
    carol.send("history");
    carol.wait_for("Your last games:");
    let listed = carol.wait_for("> ");
    let draughts = listed.find(" draughts: carol (black)");
    let fox = listed.find(" fox: carol (fox)");
    assert!(
        draughts.is_some() && fox.is_some() && draughts < fox,
        "{listed}"
    );
    running.stop();
}

#[test]
fn a_guest_asking_for_a_rated_game_is_told_why_not() {
    let running = lobby("play-rated");
    let mut visitor = guest(&running, "visitor");
    visitor.send("play fox rubbish --rated");
    let said = flat(&visitor.wait_for("rated."));
    assert!(
        said.ends_with("Guests play unrated; log in over ssh with a key to play rated."),
        "{said}"
    );
    // Without --rated, the guest plays, unrated.
    visitor.send("play fox rubbish");
    visitor.wait_for("fox, unrated. visitor (fox) against rubbish (hounds).");
    running.stop();
}

/// A watcher who arrives while a player is away is told so, and every
/// watcher hears when the grace time runs out.
#[test]
fn watchers_hear_who_is_away_and_when_the_grace_time_is_up() {
    let data = Scratch::unmade("server-lobby-watched-away");
    let running = Serving::lines(
        data.to_path_buf(),
        Limits::default(),
        quick_rules(Duration::from_secs(2)),
    );
    let running = Housed::new(running, data);
    let mut ann = account(&running, "ann");
    let mut bob = account(&running, "bob");
    server_common::fox_seek_taken(&mut ann, &mut bob);
    let n = game_number(&ann.wait_for(": fox, rated."));
    ann.wait_for("Move fox to (B7)? ");
    drop(ann);
    bob.wait_for("ann has left the game.");
    let mut wes = guest(&running, "wes");
    wes.send(&format!("watch {n}"));
    let said = flat(&wes.wait_for("for now."));
    assert!(
        said.ends_with("unwatch to stop. ann has left the game for now."),
        "{said}"
    );
    bob.wait_for("ann has not come back: type claim");
    let said = flat(&wes.wait_for("adjourn the game."));
    assert!(
        said.ends_with("ann has not come back: bob may claim the win, or adjourn the game."),
        "{said}"
    );
    running.stop();
}

/// A player who drops and comes back: the watchers are told both, as the
/// opponent is.
#[test]
fn watchers_hear_a_player_leave_and_come_back() {
    let running = lobby("watched-leaving");
    let mut ann = account(&running, "ann");
    let mut bob = account(&running, "bob");
    server_common::fox_seek_taken(&mut ann, &mut bob);
    let n = game_number(&ann.wait_for(": fox, rated."));
    ann.wait_for("Move fox to (B7)? ");
    let mut wes = guest(&running, "wes");
    wes.send(&format!("watch {n}"));
    wes.wait_for("Watching game");
    drop(ann);
    bob.wait_for("ann has left the game.");
    let left = flat(&wes.wait_for("ann has left the game."));
    assert!(!left.contains("is back"), "{left}");
    let mut ann = account(&running, "ann");
    ann.wait_for("Move fox to (B7)? ");
    bob.wait_for("ann is back.");
    // One message under the other (or under the question, asked again
    // in the pause between), with no empty line between; then the
    // question again.
    let back = wes.wait_for("ann is back.");
    assert!(
        back == "\nann is back." || back == "\nWatching game 1. > \nann is back.",
        "{back:?}"
    );
    assert_eq!(wes.wait_for("Watching game 1. > "), "\nWatching game 1. > ");
    running.stop();
}

#[test]
fn watchers_hear_an_offer_and_its_answer_in_words_and_see_the_board_once() {
    let running = lobby("offers-watched");
    let mut ann = guest(&running, "ann");
    let mut bob = guest(&running, "bob");
    server_common::fox_seek_taken(&mut ann, &mut bob);
    let n = game_number(&ann.wait_for(": fox, unrated."));
    ann.wait_for("Move fox to (B7)? ");
    bob.wait_for("Waiting for ann.");
    let mut wes = guest(&running, "wes");
    wes.send(&format!("watch {n}"));
    let mut seen = wes.wait_for("Watching game");
    let mut machine = Client::arrive(running.line_door());
    machine.speak_json();
    machine.send(&format!("watch {n}"));
    let mut events = machine.events_to("start");
    machine.event_named("position");
    ann.send("draw");
    ann.wait_for("You offer a draw.");
    bob.wait_for("(yes/no)? ");
    bob.send("no");
    ann.wait_for("bob declines the draw.");
    ann.send("say hi");
    seen += &wes.wait_for("ann says: hi");
    events.extend(machine.events_to("said"));
    assert!(seen.contains("\nann offers a draw.\n"), "{seen}");
    assert!(seen.contains("\nbob declines the draw.\n"), "{seen}");
    assert_eq!(seen.matches("(ann) next").count(), 1, "{seen}");
    let infos: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "info")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(infos, ["ann offers a draw.", "bob declines the draw."]);
    assert!(
        events.iter().all(|e| e["event"] != "position"),
        "{events:?}"
    );
    running.stop();
}

#[test]
fn a_player_logging_in_is_told_of_an_adjourned_game_and_its_other_player_that_it_can_go_on() {
    let data = Scratch::unmade("server-lobby-told-adjourned");
    let rules = || quick_rules(Duration::from_secs(1));
    let again = carol_and_bob_adjourned(&data, rules());
    let mut carol = account(&again, "carol");
    let said = flat(&carol.wait_for("online too."));
    assert!(
        said.ends_with(
            "Game 1 (fox against bob) is adjourned: it can go on (type resume) once bob is online too."
        ),
        "{said}"
    );
    let mut bob = account(&again, "bob");
    let said = flat(&bob.wait_for("with it."));
    assert!(
        said.ends_with(
            "Game 1 (fox against carol) is adjourned, and carol is online: type resume to go on with it."
        ),
        "{said}"
    );
    carol.wait_for("bob is online: type resume to go on with your adjourned game 1.");
    bob.send("resume");
    carol.wait_for("Move fox to (B7)? ");
    bob.wait_for("Waiting for carol.");
}

#[test]
fn an_account_leaving_the_server_from_the_lobby_is_told_which_game_waits_for_it() {
    let running = lobby("parting");
    let (mut carol, _visitor) = carol_and_a_guest(&running);
    carol.send("quit");
    carol.wait_for("You left game 1.");
    carol.send("quit");
    let said = flat(&carol.wait_for("Goodbye."));
    assert!(
        said.ends_with(
            "Game 1 waits for you: log in again with the same key to go back to it. Goodbye."
        ),
        "{said}"
    );
}

/// A server on `data` where carol (the fox) and bob had begun game 1, fox,
/// when it was shut down: started again, with that game adjourned.
fn carol_and_bob_adjourned(data: &Scratch, rules: Rules) -> Serving {
    // A short grace in `rules`: its timer holds the store until it is up.
    let running = Serving::lines(data.to_path_buf(), Limits::default(), rules);
    let mut carol = account(&running, "carol");
    let mut bob = account(&running, "bob");
    carol.send("challenge bob fox --side fox");
    let n = seek_number(&flat(&carol.wait_for("accepts.")));
    bob.wait_for(&format!("type accept {n} to play."));
    bob.send(&format!("accept {n}"));
    carol.wait_for("Move fox to (B7)? ");
    running.stop();
    carol.wait_for("it is back.");
    drop((carol, bob));
    server_common::closed(data);
    server_common::closed(data);
    Serving::lines(data.to_path_buf(), Limits::default(), rules)
}

#[test]
fn a_player_logging_in_while_the_other_plays_is_told_the_game_goes_on_once_both_are_free() {
    let data = Scratch::unmade("server-lobby-told-adjourned-busy");
    let again = carol_and_bob_adjourned(&data, quick_rules(Duration::from_secs(1)));
    let mut carol = account(&again, "carol");
    carol.wait_for("online too.");
    carol.send("play fish rubbish");
    carol.wait_for("Game 2: fish");
    let mut bob = account(&again, "bob");
    let said = flat(&bob.wait_for("in the lobby."));
    assert!(
        said.ends_with(
            "Game 1 (fox against carol) is adjourned, and carol is playing game 2: type resume, and it goes on once you are both in the lobby."
        ),
        "{said}"
    );
    let said = flat(&carol.wait_for("(type resume there)."));
    assert!(
        said.ends_with(
            "bob is online: your adjourned game 1 can go on once you are back in the lobby (type resume there)."
        ),
        "{said}"
    );
}

#[test]
fn a_challenge_survives_its_maker_logging_in_again_with_the_same_key() {
    let running = lobby("challenge-relogin");
    let mut carol = account(&running, "carol");
    let mut bob = account(&running, "bob");
    carol.send("challenge bob fox --side fox");
    let n = seek_number(&flat(&carol.wait_for("accepts.")));
    bob.wait_for(&format!("type accept {n} to play."));
    let mut again = account(&running, "carol");
    again.wait_for("Your other session with this key was closed");
    bob.send(&format!("accept {n}"));
    let said = bob.wait_for("Waiting for carol.");
    assert!(!said.contains("withdrawn"), "{said}");
    again.wait_for("Move fox to (B7)? ");
    drop(carol);
}
