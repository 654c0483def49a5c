//! The lobby as players see it, on a server in this process: guests on the
//! line door and accounts linked as a key's login is (see
//! `server_common::keyed`). A challenge to a guest, a resume promised for
//! when both are free, two resumes at once, talk throttled, names and
//! handles, and what `history` and `play` say. Loopback only; every wait is
//! bounded.

use std::time::Duration;

use tallyho::server::limits::Limits;

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

#[test]
fn a_challenge_to_a_guest_is_unrated_and_the_guest_can_accept_it() {
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
        said.contains("is open: fox. It is unrated, as visitor is a guest. You are told"),
        "{said}"
    );
    let n = seek_number(&said);
    visitor.wait_for(&format!(
        "carol challenges you to fox: type accept {n} to play."
    ));
    visitor.send(&format!("accept {n}"));
    visitor.wait_for("fox, unrated. carol (fox) against visitor (hounds).");
    carol.wait_for("fox, unrated. carol (fox) against visitor (hounds).");
    carol.wait_for("Move fox to (B7)? ");
    running.stop();
}
