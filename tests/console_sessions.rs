//! Two consoles at once in one process, each over its own in-memory
//! streams: neither reads the other's lines nor writes into the other's
//! output, and a stop raised for one leaves the other asking.

// A test's helpers unwrap as its assertions do: a failure is the test's.
#![allow(clippy::unwrap_used)]

use std::io::{self, Cursor, Write};
use std::sync::{Arc, Barrier, Mutex};
use std::thread;

use std::sync::atomic::Ordering;

use tallyho::shell::console::{Console, Reply};

/// An output the test can read afterwards.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// Asks `rounds` questions, a barrier between each so the two threads interleave.
fn converse(mut console: Console, name: &str, rounds: usize, turns: &Barrier) -> Vec<Reply> {
    let mut replies = Vec::new();
    for round in 0..rounds {
        turns.wait();
        console.say(&format!("{name} says {round}.")).unwrap();
        replies.push(
            console
                .ask(&format!("{name}, move {round}? "), &[])
                .unwrap(),
        );
    }
    replies
}

#[test]
fn two_consoles_on_two_threads_keep_to_their_own_streams() {
    let (out_a, out_b) = (Shared::default(), Shared::default());
    let turns = Arc::new(Barrier::new(2));
    // Each console is built on its own thread, as a server builds one per connection.
    let start = |input: &'static [u8], out: &Shared, name: &'static str| {
        let (out, turns) = (out.clone(), Arc::clone(&turns));
        thread::spawn(move || {
            let console = Console::scripted(Box::new(Cursor::new(input)), Box::new(out), false);
            converse(console, name, 3, &turns)
        })
    };
    let one = start(b"B7\nD1 C2\n", &out_a, "Ann");
    let two = start(b"11-15\n", &out_b, "Bob");
    let (one, two) = (one.join().unwrap(), two.join().unwrap());

    assert_eq!(
        one,
        [
            Reply::Line("B7".into()),
            Reply::Line("D1 C2".into()),
            Reply::End
        ]
    );
    assert_eq!(one.len(), 3);
    assert_eq!(two, [Reply::Line("11-15".into()), Reply::End, Reply::End]);
    assert_eq!(
        out_a.text(),
        "Ann says 0.\nAnn, move 0? B7\nAnn says 1.\nAnn, move 1? D1 C2\n\
         Ann says 2.\nAnn, move 2? \n"
    );
    assert_eq!(
        out_b.text(),
        "Bob says 0.\nBob, move 0? 11-15\nBob says 1.\nBob, move 1? \n\
         Bob says 2.\nBob, move 2? \n"
    );
}

#[test]
fn a_stop_raised_for_one_console_ends_only_its_questions() {
    let mut a = Console::scripted(Box::new(Cursor::new(b"B7\n")), Box::new(io::sink()), false);
    let mut b = Console::scripted(Box::new(Cursor::new(b"B7\n")), Box::new(io::sink()), false);
    a.stop_flag().store(true, Ordering::SeqCst);
    assert!(a.interrupted() && !b.interrupted());
    assert_eq!(a.ask("? ", &[]).unwrap(), Reply::End);
    assert_eq!(b.ask("? ", &[]).unwrap(), Reply::Line("B7".into()));
}
