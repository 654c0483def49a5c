//! One connection's conversation, on a thread of its own. (Being written:
//! for now it answers every line with its echo.)

use std::sync::Arc;

use super::Server;
use super::link::{Flags, InboxSource, Link};
use crate::shell::console::{Console, Remote, Reply};

/// Starts a session's thread.
pub(super) fn spawn(server: Server, link: Link) {
    let _ = std::thread::Builder::new()
        .name("session".into())
        .stack_size(256 * 1024)
        .spawn(move || run(&server, link));
}

fn run(_server: &Server, link: Link) {
    let flags = Arc::new(Flags::default());
    let outbox = link.outbox.clone();
    let mut console = Console::remote(
        Box::new(InboxSource::new(link.inbox, Arc::clone(&flags))),
        Box::new(outbox.writer()),
        Remote {
            colour: false,
            echo: link.arrival.dialect != super::link::Dialect::Terminal,
            clears: false,
            columns: None,
            max_line: super::link::MAX_LINE,
        },
    );
    loop {
        match console.ask("> ", &[]) {
            Ok(Reply::Line(line)) => {
                let _ = console.say(&format!("you said {line}"));
            }
            Ok(Reply::Bad(why)) => {
                let _ = console.refuse(&why.to_string());
            }
            Ok(Reply::End) if flags.take_woken() || flags.take_interrupted() => {}
            Ok(Reply::End) | Err(_) => break,
        }
    }
    outbox.close();
}
