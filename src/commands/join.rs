//! `tallyho join [USER@]HOST[:PORT]`: the cabinet's client of a server. With
//! `USER@` it goes through the ssh door, running the system's `ssh` (so the
//! player's keys, agent and `known_hosts` just work); without, it connects
//! to the line door. It speaks the machine dialect, keeps its own copy of
//! each game from the `start` and `move` events, and draws the boards
//! locally as local play draws them. What the player types goes to the
//! server line by line; on the player's turn Tab completes the legal moves.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, ExternalPrinter, Helper};
use serde_json::Value;

use super::{AppError, Ending};
use tallyho::shell::console::{Look, Terminal, terminal_columns};
use tallyho::shell::lines::AnyNewline;
use tallyho::shell::safe;
use tallyho::shell::signals;
use tallyho::shell::table::Table;

/// The line door's port when none is given.
const DEFAULT_PORT: u16 = 2323;
/// The ssh door's port when none is given.
const SSH_PORT: u16 = 2222;
/// The longest event line taken from the server; the rest is skipped.
const MAX_EVENT: usize = 256 * 1024;
/// The longest line sent to the server (the server's own cap).
const MAX_TYPED: usize = 1024;
/// How long connecting may take.
const CONNECT: Duration = Duration::from_secs(10);
/// What the player types after.
const PROMPT: &str = "> ";
/// How long the server is quiet before a dumb terminal's prompt is shown
/// again.
const SETTLE: Duration = Duration::from_millis(40);
/// How long the server is quiet before a script's next line is taken.
const QUIET: Duration = Duration::from_millis(150);
/// How long a script's line waits for an answer that may never come.
const NO_ANSWER: Duration = Duration::from_secs(3);
/// How often a wait looks at Ctrl-C.
const TICK: Duration = Duration::from_millis(50);

/// Standard output was closed (`| head`): nothing more can be shown, so
/// the session ends as at the end of input, with no more lines sent.
static OUTPUT_GONE: AtomicBool = AtomicBool::new(false);

/// Standard output failed otherwise (a full disk, `>/dev/full`): the
/// first such error, said when join ends, which is then no clean end.
static OUTPUT_FAILED: Mutex<Option<io::Error>> = Mutex::new(None);

/// Notes a write to standard output that failed: closed, the session ends
/// as at the end of input; failed otherwise, it ends so too, and join's
/// last word is the error.
fn wrote(result: io::Result<()>) {
    let Err(e) = result else {
        return;
    };
    OUTPUT_GONE.store(true, Ordering::SeqCst);
    if e.kind() != io::ErrorKind::BrokenPipe {
        OUTPUT_FAILED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }
}

/// The ending, unless standard output failed on the way: then its error.
fn unless_output_failed(ending: Ending) -> Result<Ending, AppError> {
    match OUTPUT_FAILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        Some(e) => Err(e.into()),
        None => Ok(ending),
    }
}

/// Said when the player pressed Ctrl-C before the server's first word.
const LEFT_EARLY: &str = "You left before the server said anything.";
/// Said when the connection ended before the server's first word (ssh's
/// own reason is on standard error).
const NO_WORD: &str = "The connection ended before the server said anything.";
/// Said last when the server closed the connection.
const CLOSED: &str = "The server closed the connection.";
/// Said last when a signal ends the client.
const LEFT: &str = "You left the server.";
/// Said when the server asks a script for a handle.
const NO_HANDLE: &str = "The server asks for a handle for your key, as your user name cannot be one, and a script's lines are not answers to that: join as a user name that is free (USER@HOST), or choose the handle once at a terminal. join leaves.";
/// How long a script waits for the other player's move unless `--wait`
/// says otherwise.
pub const WAIT: Duration = Duration::from_secs(600);

/// Connects to a line door and plays through it until the player or the
/// server leaves. From a script, `wait` bounds each wait for the other
/// player's move.
pub fn run(target: &str, look: Look, wait: Duration) -> Result<Ending, AppError> {
    let terminal = Terminal::detect();
    // As local play: SIGTERM, SIGHUP and SIGQUIT put the terminal back as
    // it is now (before ssh or the line editor change it), say the last
    // word and exit with 128 plus the signal. The exit closes the
    // connection, and the server takes that as the player leaving.
    signals::install_catching(terminal, terminal.stdin);
    *signals::farewell()
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(LEFT.to_string());
    let mut link = Link::open(target)?;
    let stream = link.reader()?;
    let mut to_server = link.writer()?;
    // rustyline reads at a terminal; at a dumb one the terminal reads the
    // line itself and join prints its prompt plainly.
    let interactive = terminal.interactive() && !terminal.dumb;
    // A person types at a terminal that reads the line itself: a dumb one,
    // or one whose output join does not write to (`join … | tee game.txt`).
    let dumb = terminal.stdin && !interactive;
    let view = Arc::new(Mutex::new(View {
        colour: look.colour,
        keys: interactive,
        guest: true,
        game: None,
        legal: Vec::new(),
        their_turn: false,
        turn_since: None,
        to_move: String::new(),
        news: false,
        sent: None,
        heard: None,
        closed: false,
        asked_handle: false,
        refused: false,
        unheard: Vec::new(),
    }));
    let (tx, rx) = mpsc::channel::<Input>();
    // Until the server's first word, ssh may still be asking at the terminal
    // (a host key to accept, a passphrase): the player's side starts after it.
    let out = Arc::new(Mutex::new(Out::Plain));
    // The player asked to leave: the connection's end is theirs, not the server's.
    let leaving = Arc::new(AtomicBool::new(false));
    // The server said something: ssh reached it, or the door answered.
    let heard = Arc::new(AtomicBool::new(false));
    let (first_word, answered) = mpsc::channel::<()>();
    // What ssh said of the connection's end, where join runs through it.
    let ssh_pid = link.ssh_pid();
    let ssh_end = link.errors().map(|errors| {
        let end = Arc::new(SshEnd {
            pid: ssh_pid,
            ..SshEnd::default()
        });
        let (out, told, heard) = (Arc::clone(&out), Arc::clone(&end), Arc::clone(&heard));
        std::thread::spawn(move || relay_ssh(errors, &out, &told, &heard));
        end
    });
    let net = {
        let view = Arc::clone(&view);
        let out = Arc::clone(&out);
        let leaving = Arc::clone(&leaving);
        let heard = Arc::clone(&heard);
        let tx = tx.clone();
        std::thread::spawn(move || {
            let ends = Ends {
                leaving: &leaving,
                heard: &heard,
                ssh: ssh_end.as_deref(),
            };
            read_server(stream, &view, &out, &ends, first_word);
            let _ = tx.send(Input::ServerGone);
        })
    };
    // The first event, or the end of a connection that never gave one. At
    // a terminal the signal thread only notes Ctrl-C: it leaves here too.
    // A script waits for it as long as for a move (`--wait`): a server
    // that takes the connection and says nothing does not hold it for good.
    let stop = signals::interrupt_flag();
    // A script's lines are paced and its waits bounded by `--wait`; a
    // person typing at a terminal is waited for, whatever standard output
    // is.
    let script = !interactive && !dumb;
    // Output read by another program, which may stop reading (`| head -1`).
    let piped = !terminal.stdout;
    let began = Instant::now();
    let mut silent = false;
    while let Err(mpsc::RecvTimeoutError::Timeout) = answered.recv_timeout(TICK) {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        if script && began.elapsed() >= wait {
            silent = true;
            break;
        }
    }
    if !heard.load(Ordering::SeqCst) {
        // The player left with Ctrl-C, or the connection ended first. A
        // Ctrl-C ends ssh too, often before the signal thread has noted
        // it, so the signal's own mark is read: whichever ends first, the
        // player who pressed Ctrl-C is told the same, with the same status.
        let left = stop.load(Ordering::SeqCst) || signals::ctrl_c_raised();
        link.close();
        let _ = net.join();
        return unless_output_failed(if left {
            // On a line after the terminal's ^C.
            print(&out, format!("\n{}", wrap(LEFT_EARLY)));
            Ending::Clean
        } else {
            // The server's own words, where it said some before closing
            // (`Sorry: too many connections…`) or falling silent: said for it.
            let unheard =
                std::mem::take(&mut view.lock().unwrap_or_else(|e| e.into_inner()).unheard);
            if !unheard.is_empty() {
                print(
                    &out,
                    wrap(&format!("The server said: {}", unheard.join(" "))),
                );
            }
            let last = if silent {
                silent_words(wait)
            } else if unheard.is_empty() {
                NO_WORD.to_string()
            } else {
                CLOSED.to_string()
            };
            print(&out, wrap(&last));
            Ending::Dropped
        });
    }
    let reading = start_reading(interactive, dumb, &view, &out, &tx)?;
    *out.lock().unwrap_or_else(|e| e.into_inner()) = reading;
    prompt(&out);
    drop(tx);
    // Join's own words, wrapped to the window as it is now.
    let say = |text: String| print(&out, wrap(&text));
    let mut gone = false;
    // The connection ended before the player asked to leave.
    let mut dropped = false;
    // A script gave up waiting for the other player's move.
    let mut gave_up = false;
    // A line was refused, by join or by the server.
    let mut refused = false;
    // A script was asked for a handle, and left.
    let mut no_handle = false;
    // What the loop takes next before reading more: the end of input, once
    // a script has given up waiting.
    let mut next: Option<Input> = None;
    loop {
        prompt_when_settled(&out);
        // A script's reader gone (`| head -1`) is seen before the next
        // line goes, not only when an answer cannot be written.
        if next.is_none()
            && (OUTPUT_GONE.load(Ordering::SeqCst)
                || (piped && tallyho::shell::console::output_unread()))
        {
            next = Some(Input::End);
        }
        let received = match next.take() {
            Some(input) => Ok(input),
            None => rx.recv_timeout(SETTLE),
        };
        let input = match received {
            Ok(input) => input,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            // Ctrl-C at a dumb terminal, which the signal thread only
            // notes: the player leaves, as with Ctrl-D, on a line after
            // the terminal's ^C.
            Err(mpsc::RecvTimeoutError::Timeout) if dumb && stop.load(Ordering::SeqCst) => {
                *out.lock().unwrap_or_else(|e| e.into_inner()) = Out::Plain;
                print(&out, String::new());
                Input::End
            }
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
        };
        // From a pipe, each line is taken as a script's line is at its
        // prompt: once the server has answered the one before and, in a
        // game, it is the player's turn; so every answer comes in the
        // order of the lines.
        match input {
            Input::TooLong(length) => {
                if script && let Err(to_move) = paced(&view, true, wait) {
                    say(gave_up_words(&to_move, wait));
                    gave_up = true;
                    next = Some(Input::End);
                    continue;
                }
                say(too_long(length));
                refused = true;
                prompt(&out);
            }
            Input::Line(line) => {
                if gone {
                    break;
                }
                let line = line.trim().to_string();
                if line.is_empty() {
                    prompt(&out);
                    continue;
                }
                if script && let Err(to_move) = paced(&view, true, wait) {
                    // The line is not sent: the script leaves as at the
                    // end of its input, and says why.
                    say(gave_up_words(&to_move, wait));
                    gave_up = true;
                    next = Some(Input::End);
                    continue;
                }
                if script && view.lock().unwrap_or_else(|e| e.into_inner()).asked_handle {
                    // Nor is it sent as a handle.
                    say(NO_HANDLE.to_string());
                    no_handle = true;
                    next = Some(Input::End);
                    continue;
                }
                // Laid out already: a board as drawn, sentences wrapped.
                if let Some(text) = local(&line, &view) {
                    print(&out, text);
                    prompt(&out);
                    continue;
                }
                if let Err(why) = check(&line) {
                    say(why);
                    refused = true;
                    prompt(&out);
                    continue;
                }
                // The lobby's words for leaving the server (in a game,
                // `quit` goes back to the lobby).
                if leaves_the_server(&line, &view) {
                    leaving.store(true, Ordering::SeqCst);
                }
                view.lock().unwrap_or_else(|e| e.into_inner()).sent = Some(Instant::now());
                if to_server.write_all(format!("{line}\n").as_bytes()).is_err() {
                    dropped = !leaving.load(Ordering::SeqCst);
                    break;
                }
            }
            Input::End => {
                // The last line's answer first; the server says what becomes
                // of a game at the end of input, whoever is to move.
                if script {
                    let _ = paced(&view, false, wait);
                }
                leaving.store(true, Ordering::SeqCst);
                // The line editor has stopped reading: what is left to say
                // goes plainly to the terminal, each line ended, and at a
                // dumb terminal after the prompt's line (Ctrl-D left the
                // cursor after it).
                {
                    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                    if matches!(*out, Out::Prompted { shown: true, .. }) {
                        let mut stdout = tallyho::shell::console::stdout();
                        let _ = stdout.write_all(b"\n");
                        let _ = stdout.flush();
                    }
                    *out = Out::Plain;
                }
                // The end of input, passed on: the server says what became
                // of a game left (a guest's ends), then goodbye.
                link.shut_writing(to_server);
                // The server's last words, then the connection closes.
                while let Ok(input) = rx.recv_timeout(Duration::from_secs(2)) {
                    if matches!(input, Input::ServerGone) {
                        break;
                    }
                }
                break;
            }
            Input::ServerGone if interactive && leaving.load(Ordering::SeqCst) => {
                // The player asked to leave: the server's goodbye was the end.
                break;
            }
            Input::ServerGone if interactive || dumb => {
                // The line editor holds the terminal until Enter; at a dumb
                // terminal, the line half typed is taken too, not left for
                // the shell to run.
                say("Press Enter to leave.".to_string());
                // The server has gone: a signal now leaves nothing, so it
                // says nothing of leaving.
                *signals::farewell()
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = None;
                dropped = !leaving.load(Ordering::SeqCst);
                gone = true;
            }
            Input::ServerGone => {
                dropped = !leaving.load(Ordering::SeqCst);
                break;
            }
        }
    }
    link.close();
    if !interactive {
        let _ = net.join();
    } else {
        // Whatever the line editor is doing as join ends, the terminal is
        // the player's again as it was.
        signals::restore();
    }
    // A connection that ended before the player asked to leave is no clean
    // end: a script can tell a server that went away from a goodbye.
    unless_output_failed(if dropped || !heard.load(Ordering::SeqCst) {
        Ending::Dropped
    } else if no_handle {
        Ending::NoHandle
    } else if gave_up {
        Ending::GaveUp
    } else if script && (refused || view.lock().unwrap_or_else(|e| e.into_inner()).refused) {
        // A script can tell that some of its lines were not taken.
        Ending::Refused
    } else {
        Ending::Clean
    })
}

/// `wait` in words: `3 seconds`.
fn seconds_words(wait: Duration) -> String {
    let seconds = wait.as_secs();
    let unit = if seconds == 1 { "second" } else { "seconds" };
    format!("{seconds} {unit}")
}

/// Said when a script stops waiting for the server's first word after
/// `wait`.
fn silent_words(wait: Duration) -> String {
    format!(
        "The server has not answered in {}: join stops waiting (--wait) and leaves.",
        seconds_words(wait)
    )
}

/// Said when a script stops waiting for `to_move`'s move after `wait`.
fn gave_up_words(to_move: &str, wait: Duration) -> String {
    format!(
        "{to_move} has not moved in {}: join stops waiting (--wait) and leaves.",
        seconds_words(wait)
    )
}

/// Starts the thread that reads the player's lines, through the line
/// editor (with Tab over the legal moves) on a terminal or plainly from a
/// pipe, and gives what the other threads print through.
fn start_reading(
    interactive: bool,
    dumb: bool,
    view: &Arc<Mutex<View>>,
    out: &Arc<Mutex<Out>>,
    tx: &mpsc::Sender<Input>,
) -> Result<Out, AppError> {
    let tx = tx.clone();
    if !interactive {
        let out = Arc::clone(out);
        std::thread::spawn(move || read_plain(&tx, &out));
        return Ok(if dumb {
            Out::Prompted {
                shown: false,
                said: None,
            }
        } else {
            Out::Plain
        });
    }
    let editor_failed =
        |e: rustyline::error::ReadlineError| AppError::Failed(format!("the line editor: {e}"));
    let mut editor: Editor<Moves, DefaultHistory> = Editor::new().map_err(editor_failed)?;
    editor.set_helper(Some(Moves {
        view: Arc::clone(view),
    }));
    // Ctrl-\ reaches the raw terminal as a key: it quits as the signal
    // does, as in local play.
    editor.bind_sequence(
        rustyline::KeyEvent::ctrl('\\'),
        rustyline::EventHandler::Conditional(Box::new(tallyho::shell::console::Quit)),
    );
    // Ctrl-D once the server has gone leaves, as Enter does, even after
    // a line half typed (where it would delete a character).
    editor.bind_sequence(
        rustyline::KeyEvent::ctrl('D'),
        rustyline::EventHandler::Conditional(Box::new(LeaveWhenGone(Arc::clone(view)))),
    );
    // Ctrl-Z stops join as it stops a local game, and `fg` brings back
    // the line as it was (rustyline's own suspend, from the editor's
    // thread, left the terminal as the shell put it back, and the line
    // unseen).
    editor.bind_sequence(
        rustyline::KeyEvent::ctrl('Z'),
        rustyline::EventHandler::Conditional(Box::new(Suspend)),
    );
    let printer = editor.create_external_printer().map_err(editor_failed)?;
    // A signal's exit turns off what rustyline turns on (bracketed paste).
    signals::editing();
    std::thread::spawn(move || read_editor(editor, &tx));
    Ok(Out::Editor(Box::new(printer)))
}

/// Ctrl-Z at the line editor: join stops until continued, then the line
/// is drawn again.
struct Suspend;

impl rustyline::ConditionalEventHandler for Suspend {
    fn handle(
        &self,
        _: &rustyline::Event,
        _: rustyline::RepeatCount,
        _: bool,
        _: &rustyline::EventContext,
    ) -> Option<rustyline::Cmd> {
        signals::suspend_editing();
        Some(rustyline::Cmd::Repaint)
    }
}

/// Ctrl-D at the line editor: once the server has gone, the line ends and
/// join with it; before, the editor's own key (the end of input on an
/// empty line, else deleting a character).
struct LeaveWhenGone(Arc<Mutex<View>>);

impl rustyline::ConditionalEventHandler for LeaveWhenGone {
    fn handle(
        &self,
        _: &rustyline::Event,
        _: rustyline::RepeatCount,
        _: bool,
        _: &rustyline::EventContext,
    ) -> Option<rustyline::Cmd> {
        let gone = self.0.lock().unwrap_or_else(|e| e.into_inner()).closed;
        gone.then_some(rustyline::Cmd::AcceptLine)
    }
}

/// What the lobby's events say, worded as the text door words the same
/// answers: the welcome, a seek opened, the lists of seeks, players, games,
/// ratings and finished games, and a `tell` delivered; `None` for any
/// other event.
fn lobby_event(kind: &str, event: &Value) -> Option<String> {
    let text = match kind {
        "welcome" => {
            let rated = event.get("rated").and_then(Value::as_bool) == Some(true);
            format!(
                "You are {}{}. Type help for the commands.",
                clean(event, "handle"),
                if rated {
                    ". Your games are rated"
                } else {
                    ", a guest: your games are unrated"
                }
            )
        }
        // The text door's words, where the server sends them.
        "seeking" if !clean(event, "text").is_empty() => clean(event, "text"),
        "seeking" => {
            let n = number(event, "n");
            let to = event
                .get("to")
                .and_then(Value::as_str)
                .map(|to| format!(" to {}", safe::text(to)))
                .unwrap_or_default();
            // A challenge says when it is unrated: one to a guest always is.
            let unrated =
                if !to.is_empty() && event.get("rated").and_then(Value::as_bool) == Some(false) {
                    ", unrated"
                } else {
                    ""
                };
            match clean(event, "game") {
                game if game.is_empty() => {
                    format!("Seek {n} is open: you are told when someone accepts.")
                }
                game => format!(
                    "Seek {n}{to} is open: {game}{unrated}. You are told when someone accepts."
                ),
            }
        }
        "seeks" => list(
            event,
            "seeks",
            "Open seeks:",
            "No seeks are open. Type seek GAME to open one.",
            seek_line,
        ),
        "who" => {
            let players = items(event, "players");
            let mut lines = vec![format!("{} online:", players.len())];
            lines.extend(players.iter().map(who_line));
            lines.join("\n")
        }
        "ratings" => list(
            event,
            "ratings",
            "",
            "Nobody is rated yet: rated games are played between accounts, and against the server's computer.",
            |r| {
                let computer = if r.get("computer").and_then(Value::as_bool) == Some(true) {
                    " (computer)"
                } else {
                    ""
                };
                let games = r.get("games").and_then(Value::as_u64).unwrap_or(0);
                format!(
                    "  {}: {}{computer}, {} ± {}, {games} {}",
                    clean(r, "game"),
                    clean(r, "name"),
                    number(r, "rating"),
                    number(r, "deviation"),
                    if games == 1 { "game" } else { "games" }
                )
            },
        ),
        "history" => list(
            event,
            "games",
            "Your last games:",
            "You have no finished games yet.",
            history_line,
        ),
        "unseek" => match number(event, "taken").as_str() {
            "0" => "You have no open seeks.".to_string(),
            "1" => "Your seek is taken back.".to_string(),
            n => format!("Your {n} seeks are taken back."),
        },
        "computer" => {
            let (game, level) = (clean(event, "game"), clean(event, "level"));
            format!(
                "While you wait: the server's computer at {level} is rated nearest you in {game} ({}); type play {game} {level} to play it instead.",
                number(event, "rating")
            )
        }
        // Why the ssh user name is none, where the server says.
        "handle" => match event.get("user_name").and_then(Value::as_str) {
            Some(_) => format!(
                "Your user name cannot be your handle: {}. {}",
                clean(event, "user_name").trim_end_matches('.'),
                tallyho::shell::ask::capitalise(&clean(event, "message"))
            ),
            None => tallyho::shell::ask::capitalise(&clean(event, "message")),
        },
        "games" => list(
            event,
            "games",
            "Games:",
            "No games are being played.",
            |g| {
                let players = names(g, "players");
                let plies = g.get("plies").and_then(Value::as_u64).unwrap_or(0);
                let adjourned = if g.get("adjourned").and_then(Value::as_bool) == Some(true) {
                    ", adjourned"
                } else {
                    ""
                };
                format!(
                    "  {}. {}: {}, {}{adjourned}",
                    number(g, "game"),
                    game_with_setup(g),
                    players.join(" against "),
                    tallyho::shell::text::plies(u32::try_from(plies).unwrap_or(u32::MAX))
                )
            },
        ),
        "told" => format!("Told {}.", clean(event, "to")),
        _ => return None,
    };
    Some(text)
}

/// An open seek as the text door lists it: `1. fox by ann (unrated, board
/// 8x8, rules coursework, ann plays hounds, to bob)`.
fn seek_line(seek: &Value) -> String {
    let game = text_of(seek, "game");
    let mut about = vec![
        if seek.get("rated").and_then(Value::as_bool) == Some(true) {
            "rated"
        } else {
            "unrated"
        }
        .to_string(),
    ];
    let pairs = setup_pairs(seek);
    // A random board's seed is the server's business, as the text door says.
    about.extend(
        pairs
            .iter()
            .filter(|(k, _)| k != "seed")
            .map(|(k, v)| format!("{} {}", safe::text(k), safe::text(&safe::cut(v, 20)))),
    );
    let side = seek
        .get("side")
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| tallyho::cabinet::side_name(tallyho::cabinet::kind(game).ok()?, &pairs, i));
    if let Some(side) = side {
        about.push(format!("{} plays {}", clean(seek, "by"), safe::text(&side)));
    }
    if let Some(to) = seek.get("to").and_then(Value::as_str) {
        about.push(format!("to {}", safe::text(to)));
    }
    format!(
        "  {}. {} by {} ({})",
        number(seek, "n"),
        safe::text(game),
        clean(seek, "by"),
        about.join(", ")
    )
}

/// A player online as the text door lists them: their rating in each game
/// (the games in the cabinet's order), or that they are a guest.
fn who_line(player: &Value) -> String {
    let rated = match player.get("ratings").and_then(Value::as_object) {
        Some(ratings) => {
            let mut games: Vec<&String> = ratings.keys().collect();
            games.sort_by_key(|g| {
                tallyho::cabinet::GAMES
                    .iter()
                    .position(|known| known == g)
                    .unwrap_or(usize::MAX)
            });
            let said: Vec<String> = games
                .iter()
                .map(|g| format!("{} {}", safe::text(g), figure(ratings.get(g.as_str()))))
                .collect();
            format!(" ({})", said.join(", "))
        }
        None => " (guest)".to_string(),
    };
    format!(
        "  {}{rated}: {}",
        clean(player, "handle"),
        clean(player, "doing")
    )
}

/// A finished game as the text door's `history` lists it: `2026-12-06
/// fox: ann (fox) against Computer (hounds, rubbish); ann won
/// (fox-trapped), 31 plies`.
fn history_line(game: &Value) -> String {
    let Ok(record) = serde_json::from_value::<tallyho::shell::log::Record>(game.clone()) else {
        return "  (a game this client cannot read)".to_string();
    };
    safe::text(&format!("  {}", tallyho::shell::log::game_line(&record)))
}

/// An event's game with what sets its setup apart, as the text door says
/// it: `fox (rules capture)`.
fn game_with_setup(event: &Value) -> String {
    match tallyho::cabinet::kind(text_of(event, "kind")) {
        Ok(kind) => safe::text(&tallyho::cabinet::game_with_setup(
            kind,
            &setup_pairs(event),
        )),
        Err(_) => clean(event, "kind"),
    }
}

/// The setup pairs of an event (`board` → `8x8`), as the server sent them.
fn setup_pairs(event: &Value) -> Vec<(String, String)> {
    event
        .get("setup")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The names in an event's list (the players of a game), made safe.
fn names(event: &Value, field: &str) -> Vec<String> {
    event
        .get(field)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(safe::text).collect())
        .unwrap_or_default()
}

/// The host and port of `text` (`HOST`, `HOST:PORT`, an IPv6 address bare
/// or as `[ADDR]:PORT`), with `default` for a port not given; a usage
/// error, quoting `target`, for anything else.
fn host_and_port<'a>(
    text: &'a str,
    default: u16,
    target: &str,
) -> Result<(&'a str, u16), AppError> {
    let bad = |why: &str| AppError::bad_value("[USER@]HOST[:PORT]", target, why);
    let port = |p: &str| p.parse::<u16>().map_err(|_| bad("a port is 0-65535"));
    let (host, port) = if let Some(inner) = text.strip_prefix('[') {
        let Some((host, rest)) = inner.split_once(']') else {
            return Err(bad("an unclosed [ ]: write an IPv6 address as [::1]:2323"));
        };
        match rest {
            "" => (host, default),
            _ => match rest.strip_prefix(':') {
                Some(p) => (host, port(p)?),
                None => return Err(bad("after [ADDR] comes nothing or :PORT")),
            },
        }
    } else if text.contains(']') {
        return Err(bad("an unclosed [ ]: write an IPv6 address as [::1]:2323"));
    } else {
        match text.split_once(':') {
            // One colon: HOST:PORT. More: an IPv6 address, bare.
            Some((host, p)) if !p.contains(':') => (host, port(p)?),
            _ => (text, default),
        }
    };
    if host.is_empty() {
        return Err(bad("no host: name one, as localhost or 127.0.0.1:2323"));
    }
    Ok((host, port))
}

/// The way to the server: a line door's connection, or the system's `ssh`
/// running `json` at the ssh door.
enum Link {
    Tcp(TcpStream),
    Ssh(Child),
}

impl Link {
    /// Connects to `target`: `USER@HOST[:PORT]` through ssh, else the line door.
    fn open(target: &str) -> Result<Link, AppError> {
        if let Some((user, host)) = target.split_once('@') {
            return Link::ssh(user, host, target);
        }
        let addrs = address(target)?;
        let mut stream = connect(&addrs, target)?;
        let _ = stream.set_nodelay(true);
        stream.write_all(b"proto json\n")?;
        Ok(Link::Tcp(stream))
    }

    /// `ssh -T -p PORT USER@HOST json`: the door answers in the machine
    /// dialect from the first line. What ssh says, join passes on: see
    /// [`relay_ssh`].
    fn ssh(user: &str, host: &str, target: &str) -> Result<Link, AppError> {
        let bad = |why: &str| AppError::bad_value("[USER@]HOST[:PORT]", target, why);
        if user.is_empty() || user.starts_with('-') || user.chars().any(char::is_whitespace) {
            return Err(bad("the user name is empty or not one word"));
        }
        let (host, port) = host_and_port(host, SSH_PORT, target)?;
        if host.starts_with('-') || host.chars().any(char::is_whitespace) {
            return Err(bad("the host is empty or not one word"));
        }
        let child = Command::new("ssh")
            .args(["-T", "-o", "ConnectTimeout=10", "-p"])
            .arg(port.to_string())
            .arg("-l")
            .arg(user)
            .arg("--")
            .arg(host)
            .arg("json")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| AppError::Failed(format!("cannot run ssh: {e}")))?;
        Ok(Link::Ssh(child))
    }

    /// What the server says.
    fn reader(&mut self) -> Result<Box<dyn Read + Send>, AppError> {
        match self {
            Link::Tcp(stream) => Ok(Box::new(stream.try_clone()?)),
            Link::Ssh(child) => child
                .stdout
                .take()
                .map(|out| Box::new(out) as Box<dyn Read + Send>)
                .ok_or_else(|| AppError::Failed("ssh gave no output".into())),
        }
    }

    /// Where the player's lines go.
    fn writer(&mut self) -> Result<Box<dyn Write + Send>, AppError> {
        match self {
            Link::Tcp(stream) => Ok(Box::new(stream.try_clone()?)),
            Link::Ssh(child) => child
                .stdin
                .take()
                .map(|input| Box::new(input) as Box<dyn Write + Send>)
                .ok_or_else(|| AppError::Failed("ssh took no input".into())),
        }
    }

    /// The player has no more to say: the server sees the end of input.
    fn shut_writing(&self, writer: Box<dyn Write + Send>) {
        if let Link::Tcp(stream) = self {
            let _ = stream.shutdown(std::net::Shutdown::Write);
        }
        drop(writer);
    }

    /// The ssh process's id, to read how it exited; none for the line door.
    fn ssh_pid(&self) -> Option<rustix::process::Pid> {
        match self {
            Link::Tcp(_) => None,
            Link::Ssh(child) => Some(rustix::process::Pid::from_child(child)),
        }
    }

    /// ssh's standard error, to pass on; nothing for the line door.
    fn errors(&mut self) -> Option<std::process::ChildStderr> {
        match self {
            Link::Tcp(_) => None,
            Link::Ssh(child) => child.stderr.take(),
        }
    }

    /// Closes the connection.
    fn close(self) {
        match self {
            Link::Tcp(stream) => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
            Link::Ssh(mut child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// What the player's side sends the main loop.
enum Input {
    /// A line typed.
    Line(String),
    /// A line typed longer than the server takes: its length in bytes.
    TooLong(usize),
    /// The player is done (Ctrl-D, end of input).
    End,
    /// The server closed the connection.
    ServerGone,
}

/// Where the server's words are printed: above the line being edited, or
/// plainly to stdout.
enum Out {
    Editor(Box<dyn ExternalPrinter + Send>),
    Plain,
    /// Plainly, to a person at a dumb terminal, which reads the line
    /// itself: the prompt printed when all is said, and anything said
    /// while it is shown starts on a line of its own.
    Prompted {
        /// The prompt is the last thing on the screen (perhaps with what
        /// the player has begun to type after it).
        shown: bool,
        /// When the server last said something: the prompt follows once
        /// it has said all it had (a move, then its board, come apart).
        said: Option<Instant>,
    },
}

/// The columns join lays its text out in: the terminal's as they are now
/// (the window may have been resized since the last line), or 80 off a
/// terminal.
fn columns() -> usize {
    terminal_columns().unwrap_or(80)
}

/// Sentences wrapped to the window as it is now, as the shell says them
/// ([`safe::wrap_said`]): at word boundaries, never parting a number from
/// the word it counts, a table too narrow for its columns laid out a term
/// a line.
fn wrap(text: &str) -> String {
    safe::wrap_said(text, columns().max(20))
}

/// The longest line of ssh's passed on whole; the rest is cut.
const SSH_LINE: usize = 1024;

/// Passes ssh's lines on to the player's standard error, escaped, through
/// the line editor while it reads, so they never land on the row being
/// typed. ssh's `Connection to HOST closed by remote host.` is left out
/// (join says the connection's end in its own words), and so is its note
/// that it added a host key to the list; its errors, and the user's own
/// `LogLevel`, stand.
fn relay_ssh(
    errors: std::process::ChildStderr,
    out: &Mutex<Out>,
    end: &SshEnd,
    heard: &AtomicBool,
) {
    let mut errors = BufReader::new(errors);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut errors)
            .take(SSH_LINE as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(0) | Err(_) => {
                end.done.store(true, Ordering::SeqCst);
                return;
            }
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.starts_with("Connection to ") && text.ends_with("closed by remote host.") {
            end.remote_closed.store(true, Ordering::SeqCst);
            continue;
        }
        if text.trim().is_empty() || text.starts_with("Warning: Permanently added ") {
            continue;
        }
        if heard.load(Ordering::SeqCst) {
            end.spoke.store(true, Ordering::SeqCst);
        }
        let text = format!("{}\n", safe::text(text));
        match &mut *out.lock().unwrap_or_else(|e| e.into_inner()) {
            Out::Editor(printer) => {
                let _ = printer.print(text);
            }
            _ => {
                let _ = io::stderr().write_all(text.as_bytes());
            }
        }
    }
}

/// Prints text, laid out already, on its own lines.
fn print(out: &Mutex<Out>, mut text: String) {
    match &mut *out.lock().unwrap_or_else(|e| e.into_inner()) {
        Out::Editor(printer) => {
            // Ended, or the prompt drawn next would write over it.
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let _ = printer.print(text);
        }
        plain => {
            let mut stdout = tallyho::shell::console::stdout();
            let mut after_prompt = false;
            if let Out::Prompted { shown, .. } = plain {
                after_prompt = *shown;
                *shown = false;
            }
            if !text.ends_with('\n') {
                text.push('\n');
            }
            if after_prompt {
                text.insert(0, '\n');
            }
            wrote(
                stdout
                    .write_all(text.as_bytes())
                    .and_then(|()| stdout.flush()),
            );
        }
    }
}

/// At a dumb terminal, the prompt, unless it is shown already.
fn prompt(out: &Mutex<Out>) {
    if let Out::Prompted { shown, said } = &mut *out.lock().unwrap_or_else(|e| e.into_inner()) {
        *said = None;
        if !*shown {
            let mut stdout = tallyho::shell::console::stdout();
            wrote(
                stdout
                    .write_all(PROMPT.as_bytes())
                    .and_then(|()| stdout.flush()),
            );
            *shown = true;
        }
    }
}

/// At a dumb terminal, the server has said something: the prompt is due
/// when it has said no more for a moment.
fn heard_now(out: &Mutex<Out>) {
    if let Out::Prompted { said, .. } = &mut *out.lock().unwrap_or_else(|e| e.into_inner()) {
        *said = Some(Instant::now());
    }
}

/// The prompt, at a dumb terminal, once the server has said all it had.
fn prompt_when_settled(out: &Mutex<Out>) {
    let due = match &*out.lock().unwrap_or_else(|e| e.into_inner()) {
        Out::Prompted { said: Some(at), .. } => at.elapsed() >= SETTLE,
        _ => false,
    };
    if due {
        prompt(out);
    }
}

/// At a dumb terminal, the player has ended a line: the terminal's cursor
/// is at the start of the next.
fn typed(out: &Mutex<Out>) {
    if let Out::Prompted { shown, .. } = &mut *out.lock().unwrap_or_else(|e| e.into_inner()) {
        *shown = false;
    }
}

/// `HOST`, `HOST:PORT`, `[V6]:PORT`.
fn address(target: &str) -> Result<Vec<SocketAddr>, AppError> {
    let (host, port) = host_and_port(target, DEFAULT_PORT, target)?;
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| {
            AppError::Failed(format!(
                "cannot find {}: {e}",
                safe::text(&safe::cut(host, 60))
            ))
        })?
        .collect();
    if addrs.is_empty() {
        return Err(AppError::Failed(format!(
            "{} has no address",
            safe::text(&safe::cut(host, 60))
        )));
    }
    Ok(addrs)
}

fn connect(addrs: &[SocketAddr], target: &str) -> Result<TcpStream, AppError> {
    let mut last = None;
    for addr in addrs {
        match TcpStream::connect_timeout(addr, CONNECT) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    Err(AppError::Failed(format!(
        "cannot connect to {}: {}",
        safe::text(&safe::cut(target, 60)),
        last.map_or_else(|| "no address".to_string(), |e| e.to_string())
    )))
}

/// A line the server would refuse anyway, refused here with the reason.
fn check(line: &str) -> Result<(), String> {
    if line.len() > MAX_TYPED {
        return Err(too_long(line.len()));
    }
    if line.chars().any(|c| c.is_control()) {
        // Quoted, escaped: a script can tell which of its lines it was.
        return Err(format!(
            "\"{}\" holds control characters; type plain text.",
            safe::text(&safe::cut(line, 40))
        ));
    }
    Ok(())
}

/// Why a line of `length` bytes is not sent.
fn too_long(length: usize) -> String {
    format!("That line is {length} bytes long; the server takes at most {MAX_TYPED}.")
}

/// Words answered here: the server says nothing to them in the machine
/// dialect, and the client knows the answer.
/// Laid out for the window as it is now: a board as drawn for its width,
/// sentences wrapped. A watcher's `moves` is answered from the last
/// position the server sent, as the text door words it.
fn local(line: &str, view: &Mutex<View>) -> Option<String> {
    let view = view.lock().unwrap_or_else(|e| e.into_inner());
    let word = line.to_ascii_lowercase();
    match (word.as_str(), &view.game) {
        ("moves", Some(_)) if !view.legal.is_empty() => {
            Some(wrap(&format!("Legal moves: {}", view.legal.join("  "))))
        }
        ("moves", Some(game)) if game.seat.is_none() => Some(wrap(
            game.moves_line
                .as_deref()
                .unwrap_or("No move is known yet."),
        )),
        ("moves", Some(_)) => Some(wrap("It is not your turn.")),
        ("board", Some(game)) => game.board(view.colour, columns()),
        _ => None,
    }
}

/// Waits, for a script, until the server has answered the last line sent
/// (something said since, then a moment's quiet; or nothing for a long
/// while: some lines have no answer) and, with `turn`, until it is not the
/// other player's move; at once when the server has closed. `Err` with
/// the name of the player to move when they have not moved for `wait`.
fn paced(view: &Mutex<View>, turn: bool, wait: Duration) -> Result<(), String> {
    loop {
        {
            let view = view.lock().unwrap_or_else(|e| e.into_inner());
            if view.closed {
                return Ok(());
            }
            let answered = match (view.sent, view.heard) {
                // The server's first words, all of them, before the first line.
                (None, Some(heard)) => heard.elapsed() >= QUIET,
                (None, None) => true,
                (Some(sent), Some(heard)) if heard > sent => heard.elapsed() >= QUIET,
                (Some(sent), _) => sent.elapsed() >= NO_ANSWER,
            };
            if answered && !(turn && view.their_turn) {
                return Ok(());
            }
            if answered && view.turn_since.is_some_and(|since| since.elapsed() >= wait) {
                return Err(view.to_move.clone());
            }
        }
        std::thread::sleep(SETTLE);
    }
}

/// What ssh said on its way out, read by [`relay_ssh`].
#[derive(Default)]
struct SshEnd {
    /// `Connection to HOST closed by remote host.`: the server's end.
    remote_closed: AtomicBool,
    /// ssh said something of its own (an error: `Timeout, server not
    /// responding.`) after the server's first word, passed on to the
    /// player. What it says as it connects (a warning about the host's
    /// keys) is no reason for the end.
    spoke: AtomicBool,
    /// ssh's standard error has closed: ssh has exited.
    done: AtomicBool,
    /// The ssh process, whose exit status tells a connection ssh lost
    /// (255) where it said nothing of it (`LogLevel QUIET`).
    pid: Option<rustix::process::Pid>,
}

impl SshEnd {
    /// How ssh ended, once it has, read without reaping it (the link's
    /// close does that), waiting until `until` at most: its exit status,
    /// or `Err` with the signal that killed it.
    fn status(&self, until: Instant) -> Option<Result<i32, i32>> {
        use rustix::process::{WaitId, WaitIdOptions, waitid};
        let pid = self.pid?;
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
        loop {
            match waitid(WaitId::Pid(pid), options) {
                Ok(Some(status)) => {
                    return match status.exit_status() {
                        Some(code) => Some(Ok(code)),
                        None => status.terminating_signal().map(Err),
                    };
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }
}

/// ssh's exit status for an error of its own (a connection lost, or
/// never made), as against the server's end of the session.
const SSH_FAILED: i32 = 255;

/// How long join waits for ssh's last words once the server's have ended.
const SSH_LAST_WORDS: Duration = Duration::from_secs(1);

/// What tells how the connection ended.
struct Ends<'a> {
    /// The player asked to leave.
    leaving: &'a AtomicBool,
    /// The server said something.
    heard: &'a AtomicBool,
    /// What ssh said, where join runs through it.
    ssh: Option<&'a SshEnd>,
}

impl Ends<'_> {
    /// The last word: `Goodbye.` when the player asked to leave; that the
    /// connection was lost when ssh gave a reason of its own (its words
    /// are shown), exited as it does on its own errors while saying
    /// nothing (`LogLevel QUIET`), or was killed; else that the server
    /// closed it.
    fn last_word(&self) -> &'static str {
        if self.leaving.load(Ordering::SeqCst) {
            return "Goodbye.";
        }
        if let Some(ssh) = self.ssh {
            let until = Instant::now() + SSH_LAST_WORDS;
            while !ssh.done.load(Ordering::SeqCst) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
            // ssh failed, or was killed: the connection went with it.
            let failed = || matches!(ssh.status(until), Some(Ok(SSH_FAILED) | Err(_)));
            if !ssh.remote_closed.load(Ordering::SeqCst)
                && (ssh.spoke.load(Ordering::SeqCst) || failed())
            {
                return "The connection to the server was lost.";
            }
        }
        CLOSED
    }
}

/// The server's lines, each event said to the player; at the end, how the
/// connection ended ([`Ends::last_word`]), and nothing when no event came
/// (ssh could not reach it; its own words are on standard error).
fn read_server(
    stream: Box<dyn Read + Send>,
    view: &Mutex<View>,
    out: &Mutex<Out>,
    ends: &Ends,
    first_word: mpsc::Sender<()>,
) {
    let heard = ends.heard;
    let mut first_word = Some(first_word);
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_EVENT as u64 + 1)
            .read_until(b'\n', &mut line);
        // The last line may have no line end, or be cut off by a reset
        // (a server that closes without reading what join sent): what
        // came of it is read all the same, and then the loop ends.
        let last = !matches!(read, Ok(n) if n > 0);
        if last && line.is_empty() {
            break;
        }
        if line.len() > MAX_EVENT && !line.ends_with(b"\n") && !last {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut reader).take(64 * 1024).read_until(b'\n', &mut rest) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.ends_with(b"\n") => break,
                    Ok(_) => {}
                }
            }
            // Cut, it is no event; before the first, its start is kept
            // as a door's words are.
        }
        let text = String::from_utf8_lossy(&line);
        // Only events are read; a line that holds none (a prompt or an echo)
        // is skipped, and a prompt before an event on its line is ignored.
        let Some(event) = text
            .find('{')
            .and_then(|i| serde_json::from_str::<Value>(text[i..].trim_end()).ok())
        else {
            // Before the first event, kept: a door that turns the player
            // away says why in plain words, then closes.
            let said = text.trim();
            if !heard.load(Ordering::SeqCst) && !said.is_empty() {
                let mut view = view.lock().unwrap_or_else(|e| e.into_inner());
                match view.unheard.len() {
                    n if n < UNHEARD_LINES => {
                        view.unheard.push(safe::text_cut(said, UNHEARD_WIDTH))
                    }
                    // More than are kept: the cut is shown.
                    UNHEARD_LINES => view.unheard.push("…".to_string()),
                    _ => {}
                }
            }
            continue;
        };
        heard.store(true, Ordering::SeqCst);
        let said = view.lock().unwrap_or_else(|e| e.into_inner()).event(&event);
        if !said.is_empty() {
            print(out, said);
        }
        heard_now(out);
        // The welcome said: the player's side may take the terminal now.
        if let Some(first) = first_word.take() {
            let _ = first.send(());
        }
    }
    view.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
    // Nothing heard: the main thread says why, knowing whether the player
    // pressed Ctrl-C.
    if !heard.load(Ordering::SeqCst) {
        return;
    }
    print(out, wrap(ends.last_word()));
}

/// The player's lines at a terminal, through rustyline.
fn read_editor(mut editor: Editor<Moves, DefaultHistory>, tx: &mpsc::Sender<Input>) {
    loop {
        match editor.readline(PROMPT) {
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                // Leaving: nothing more is read, so the terminal is the
                // player's again as the server says goodbye, which the end
                // of input asks for and waits for, printed plainly.
                if editor
                    .helper()
                    .is_some_and(|moves| leaves_the_server(&line, &moves.view))
                {
                    let _ = tx.send(Input::End);
                    return;
                }
                if tx.send(Input::Line(line)).is_err() {
                    return;
                }
                // The server has gone, and this was the Enter that leaves:
                // no prompt again, and the terminal left as the editor
                // put it back.
                if editor.helper().is_some_and(|moves| {
                    moves.view.lock().unwrap_or_else(|e| e.into_inner()).closed
                }) {
                    return;
                }
            }
            // Ctrl-C at the prompt leaves, as in local play, and as
            // Ctrl-D does.
            Err(_) => {
                let _ = tx.send(Input::End);
                return;
            }
        }
    }
}

/// Whether `line` leaves the server: a word for leaving, typed in the
/// lobby (in a game, `quit` goes back to the lobby).
fn leaves_the_server(line: &str, view: &Mutex<View>) -> bool {
    let word = line.split_whitespace().next().unwrap_or_default();
    let in_lobby = view
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .game
        .is_none();
    in_lobby
        && ["quit", "exit", "bye", "q"]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(word))
}

/// The player's lines from a pipe or a file: ended by LF, CRLF or a lone
/// CR, each passed on as soon as it ends; a line longer than the server
/// takes is passed on as its length alone, never in pieces.
fn read_plain(tx: &mpsc::Sender<Input>, out: &Mutex<Out>) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut lines = AnyNewline::default();
    while let Ok(Some(line)) = lines.read(&mut input, MAX_TYPED) {
        typed(out);
        let sent = if line.length > MAX_TYPED {
            Input::TooLong(line.length)
        } else {
            Input::Line(String::from_utf8_lossy(&line.kept).into_owned())
        };
        if tx.send(sent).is_err() {
            return;
        }
    }
    let _ = tx.send(Input::End);
}

/// Tab completion of the legal moves, on the player's turn.
struct Moves {
    view: Arc<Mutex<View>>,
}

impl Completer for Moves {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = line[..pos].to_ascii_lowercase();
        let view = self.view.lock().unwrap_or_else(|e| e.into_inner());
        let found = view
            .legal
            .iter()
            .filter(|m| m.to_ascii_lowercase().starts_with(&typed))
            .map(|m| Pair {
                display: m.clone(),
                replacement: m.clone(),
            })
            .collect();
        Ok((0, found))
    }
}

impl Hinter for Moves {
    type Hint = String;
}
impl Highlighter for Moves {
    /// The line as typed, pasted controls and direction overrides shown
    /// escaped, as the local game's line editor shows them.
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> std::borrow::Cow<'l, str> {
        tallyho::shell::console::shown_typed(line)
    }

    fn highlight_char(
        &self,
        line: &str,
        _pos: usize,
        _kind: rustyline::highlight::CmdKind,
    ) -> bool {
        tallyho::shell::console::unsafe_line(line)
    }
}
impl Validator for Moves {}
impl Helper for Moves {}

/// A game followed: the client's own table, rebuilt from `start` and the
/// `move` events.
struct Game {
    number: u64,
    /// `None` once the client lost track (a move it could not play).
    table: Option<Box<dyn Table>>,
    /// The player's side, as an index; `None` for a watcher.
    seat: Option<usize>,
    /// The players' handles, made safe.
    names: [String; 2],
    /// The legal moves of the last position, as `moves` says them to a
    /// watcher (the text door's words); `None` before any.
    moves_line: Option<String>,
    /// How many of the game's moves have been said. The moves so far that
    /// a `start` brings (a resumed game, one watched) are said as the
    /// server sends them again, as the text door says them.
    told: usize,
}

impl Game {
    fn board(&self, colour: bool, width: usize) -> Option<String> {
        let table = self.table.as_ref()?;
        Some(table.screen(colour, width, self.seat))
    }
}

/// What the client knows of the server: the game it follows, and the legal
/// moves when it is the player's turn.
struct View {
    colour: bool,
    /// Whether the line editor reads keys (Tab completes there only).
    keys: bool,
    /// Whether the player is a guest, as the welcome said.
    guest: bool,
    game: Option<Game>,
    legal: Vec<String>,
    /// In a game, the other player is to move (and has asked nothing of
    /// this one).
    their_turn: bool,
    /// Since when the other player has been to move, as the last position
    /// said: a script waits for them at most `--wait`.
    turn_since: Option<Instant>,
    /// Who is to move then, as said to the player.
    to_move: String,
    /// News came since the last move (the other player gone, or back): a
    /// script need not wait for the other player's move to act on it.
    news: bool,
    /// When the last line went to the server.
    sent: Option<Instant>,
    /// When the server last said something.
    heard: Option<Instant>,
    /// The server closed the connection.
    closed: bool,
    /// The server asks for a handle (an ssh key new to it, whose user name
    /// cannot be one): a script's lines are not answers to that.
    asked_handle: bool,
    /// The server refused a line (an `error` event).
    refused: bool,
    /// What the server said before its first event, in plain words (the
    /// line door's reason for turning the player away), made safe.
    unheard: Vec<String>,
}

/// How many of the server's lines before its first event are kept.
const UNHEARD_LINES: usize = 4;
/// How many columns of each are kept.
const UNHEARD_WIDTH: usize = 240;

fn text_of<'a>(event: &'a Value, name: &str) -> &'a str {
    event.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The move at `ply`, played by `by`, and what followed from it (a
/// hound eaten, a man crowned, a turn skipped), as the text door says them.
fn said_with_after(table: &dyn Table, ply: usize, by: &str) -> String {
    std::iter::once(table.said_move(ply, by))
        .chain(table.after_move(ply))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A name or text from the server, safe for the terminal.
fn clean(event: &Value, name: &str) -> String {
    safe::text(text_of(event, name))
}

/// A text of several lines from the server (a game's help), each line
/// made safe for the terminal and the line ends kept.
fn clean_lines(event: &Value, name: &str) -> String {
    text_of(event, name)
        .split('\n')
        .map(safe::text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A number from the server as it is written (a rating, a count), or 0.
fn number(event: &Value, name: &str) -> String {
    figure(event.get(name))
}

/// A number as it is written, whole (a rating of 1500.0 is 1500), or 0.
fn figure(value: Option<&Value>) -> String {
    match value {
        Some(Value::Number(n)) => n.as_i64().map_or_else(
            || format!("{:.0}", n.as_f64().unwrap_or(0.0)),
            |i| i.to_string(),
        ),
        _ => "0".to_string(),
    }
}

impl View {
    /// What the player is told of an event (empty for nothing): sentences
    /// wrapped at word boundaries to the window as it is now, boards drawn
    /// for its width.
    fn event(&mut self, event: &Value) -> String {
        self.heard = Some(Instant::now());
        // A position says again whose turn it is; an offer to answer,
        // news (the other player gone: a claim to make), or the game left
        // or ended, is this player's to act on.
        let kind = text_of(event, "event");
        if [
            "position",
            "board",
            "moves",
            "offer",
            "info",
            "takeback",
            "start",
            "end",
            "left",
            "adjourned",
            "unwatched",
        ]
        .contains(&kind)
        {
            self.their_turn = false;
            self.turn_since = None;
        }
        // The other player's move says they are here; this player's own may
        // be reported after news of the other leaving, which still stands.
        let own_move = kind == "move"
            && self.game.as_ref().is_some_and(|g| {
                g.seat.and_then(|s| g.names.get(s)).map(String::as_str)
                    == event.get("by").and_then(Value::as_str)
            });
        match kind {
            "info" => self.news = true,
            "move" if own_move => {}
            "move" | "start" => self.news = false,
            _ => {}
        }
        // The answers to `board` and `moves` carry the position's fields
        // (this client answers those itself, unless it lost track).
        if ["position", "board", "moves"].contains(&kind) {
            // Laid out already: the board as drawn, the sentence wrapped.
            return self.position(event);
        }
        wrap(&self.event_text(event))
    }

    fn event_text(&mut self, event: &Value) -> String {
        let kind = text_of(event, "event");
        if kind == "welcome" {
            self.guest = event.get("rated").and_then(Value::as_bool) != Some(true);
        }
        self.asked_handle = match kind {
            "handle" => true,
            "welcome" => false,
            _ => self.asked_handle,
        };
        if let Some(text) = lobby_event(kind, event) {
            return text;
        }
        match kind {
            "start" => self.start(event),
            "move" => self.moved(event),
            "end" => {
                self.legal.clear();
                let game = self.game.take();
                let over = ending_words(event, game.as_ref());
                // The ratings it moved, where it is kept, or why not yet:
                // on a line of its own, as the text door says it.
                match clean(event, "epilogue") {
                    epilogue if epilogue.is_empty() => over,
                    epilogue => format!("{over}\n{epilogue}"),
                }
            }
            "said" => {
                let verb = if event.get("private").and_then(Value::as_bool) == Some(true) {
                    "tells you"
                } else {
                    "says"
                };
                format!("{} {verb}: {}", clean(event, "from"), clean(event, "text"))
            }
            "offer" => {
                let by = clean(event, "by");
                if text_of(event, "offer") == "draw" {
                    format!("{by} offers a draw: type yes or no.")
                } else {
                    format!("{by} asks to take back their last move: type yes or no.")
                }
            }
            "takeback" => self.taken_back(event),
            "hint" => clean_lines(event, "text"),
            "left" => {
                // Back in the lobby.
                self.legal.clear();
                self.game = None;
                // The server's sentence (a guest's game waits only while
                // they are here); this client's own for a server without.
                match clean_lines(event, "text") {
                    text if text.is_empty() => format!(
                        "You left game {}. It waits for you: type resume to go back.",
                        number(event, "game")
                    ),
                    text => text,
                }
            }
            "unwatched" => {
                self.legal.clear();
                self.game = None;
                "Back in the lobby.".to_string()
            }
            "adjourned" => {
                let seated = self.game.as_ref().is_some_and(|g| g.seat.is_some());
                self.legal.clear();
                self.game = None;
                if event.get("resumable").and_then(Value::as_bool) == Some(false) {
                    // A guest's game a shutdown cut off: the players'
                    // notice of the shutdown says so.
                    return if seated {
                        String::new()
                    } else {
                        tallyho::shell::text::cut_off_by_shutdown(&number(event, "game"))
                    };
                }
                format!(
                    "Game {} is adjourned: {}.",
                    number(event, "game"),
                    if seated {
                        "type resume when both players are online"
                    } else {
                        "it goes on when both players are back"
                    }
                )
            }
            // The server's reasons come as clauses: said as sentences.
            "error" => {
                // A refusal of a line sent; one before any line is the
                // server's news, not a line of the script's refused.
                self.refused |= self.sent.is_some();
                tallyho::shell::ask::capitalise(&clean(event, "message"))
            }
            "info" | "help" => clean_lines(event, "text"),
            _ => String::new(),
        }
    }

    /// Moves taken back: the client's table goes back as far, so the
    /// position that follows is drawn as a board.
    fn taken_back(&mut self, event: &Value) -> String {
        let plies = event.get("plies").and_then(Value::as_u64);
        let taken = event.get("taken").and_then(Value::as_u64).unwrap_or(0);
        if let Some(game) = self
            .game
            .as_mut()
            .filter(|g| event.get("game").and_then(Value::as_u64) == Some(g.number))
            && let Some(table) = game.table.as_mut()
        {
            let known = table.moves().len() as u64;
            match plies {
                Some(left) if left <= known => {
                    table.take_back((known - left) as usize);
                    game.told = game.told.min(left as usize);
                }
                // Not what this client knows: it loses track, and shows
                // positions as the server writes them.
                _ => game.table = None,
            }
        }
        format!(
            "Taken back: {}.",
            tallyho::shell::text::plies(u32::try_from(taken).unwrap_or(u32::MAX))
        )
    }

    fn start(&mut self, event: &Value) -> String {
        let number = event.get("game").and_then(Value::as_u64).unwrap_or(0);
        let players = names(event, "players");
        let pairs = setup_pairs(event);
        // The moves so far, when the server sends them (a watcher, a
        // resumed game), bring the client's table to the game's position.
        let so_far: Vec<&str> = event
            .get("moves")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let table = tallyho::cabinet::kind(text_of(event, "kind"))
            .and_then(|kind| tallyho::cabinet::restore(kind, &pairs))
            .and_then(|mut table| {
                for mv in &so_far {
                    table.play(mv)?;
                }
                Ok(table)
            });
        self.legal.clear();
        let (table, mut text) = match table {
            Ok(table) => (Some(table), String::new()),
            Err(why) => (
                None,
                format!(
                    "(This client cannot draw game {number}: {}.)\n",
                    safe::text(&why.to_string())
                ),
            ),
        };
        let side = event.get("side").and_then(Value::as_str);
        let seat = table
            .as_ref()
            .and_then(|t| side.and_then(|s| t.sides().iter().position(|x| x == s)));
        let name = |i: usize| players.get(i).cloned().unwrap_or_default();
        let rated = match event.get("rated").and_then(Value::as_bool) {
            Some(true) => ", rated",
            Some(false) => ", unrated",
            None => "",
        };
        // The sides as the text door says them (`fox`, `hounds`; `Black`,
        // `White`).
        let sides = table.as_ref().map(|t| t.side_nouns());
        text.push_str(&format!(
            "Game {number}: {}{rated}. ",
            game_with_setup(event)
        ));
        text.push_str(&match &sides {
            Some(sides) => format!(
                "{} ({}) against {} ({}).",
                name(0),
                sides[0],
                name(1),
                sides[1]
            ),
            None => format!("{} against {}.", name(0), name(1)),
        });
        match side {
            Some(side) => {
                let noun = seat
                    .zip(sides.as_ref())
                    .map_or_else(|| safe::text(side), |(i, nouns)| nouns[i].clone());
                text.push_str(&format!(" You play {noun}."));
                if self.guest {
                    text.push_str(
                        " You are a guest: if your connection drops, this game cannot be resumed.",
                    );
                }
            }
            None => {
                text.push_str(" You are watching: type help for the commands, unwatch to stop.")
            }
        }
        self.game = Some(Game {
            number,
            table,
            seat,
            names: [name(0), name(1)],
            moves_line: None,
            told: 0,
        });
        text
    }

    fn moved(&mut self, event: &Value) -> String {
        let number = event.get("game").and_then(Value::as_u64);
        let ply = event.get("ply").and_then(Value::as_u64).unwrap_or(0) as usize;
        let Some(game) = self.game.as_mut().filter(|g| Some(g.number) == number) else {
            return String::new();
        };
        let Some(table) = game.table.as_mut() else {
            return format!(
                "{ply}. {} plays {}",
                clean(event, "by"),
                clean(event, "move")
            );
        };
        let moves = table.moves();
        let known = moves.len();
        if ply <= known {
            // The moves so far, sent again: said once each, in order.
            let by = clean(event, "by");
            if ply == game.told + 1 && moves[ply - 1] == text_of(event, "move") {
                game.told = ply;
                return said_with_after(table.as_ref(), ply - 1, &by);
            }
            return String::new();
        }
        if ply > known + 1 {
            game.table = None;
            return format!(
                "(This client missed moves of game {}.)\n{ply}. {} plays {}",
                game.number,
                clean(event, "by"),
                clean(event, "move")
            );
        }
        match table.play(text_of(event, "move")) {
            Ok(()) => {
                game.told = ply;
                said_with_after(table.as_ref(), ply - 1, &clean(event, "by"))
            }
            Err(why) => {
                game.table = None;
                format!(
                    "(This client lost track of game {}: {}.)",
                    game.number,
                    safe::text(&why.to_string())
                )
            }
        }
    }

    /// A position: the board drawn for the window as it is now (or the
    /// position written out, when this client lost track), and whose move
    /// it is, wrapped.
    fn position(&mut self, event: &Value) -> String {
        let number = event.get("game").and_then(Value::as_u64);
        let colour = self.colour;
        let Some(game) = self.game.as_mut().filter(|g| Some(g.number) == number) else {
            return String::new();
        };
        let width = columns();
        let tracked = game
            .table
            .as_ref()
            .filter(|t| t.position() == text_of(event, "position"));
        let board = match tracked {
            Some(table) => table.screen(colour, width, game.seat),
            None => wrap(&format!("Position: {}\n", clean(event, "position"))),
        };
        let to_move = text_of(event, "to_move");
        let legal: Vec<String> = event
            .get("legal")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(safe::text).collect())
            .unwrap_or_default();
        game.moves_line = Some(match tracked {
            Some(table) if !legal.is_empty() => table.moves_line(),
            _ if legal.is_empty() => "There is no legal move.".to_string(),
            _ => tallyho::shell::text::legal_moves(&legal),
        });
        let mover = game
            .table
            .as_ref()
            .and_then(|t| t.sides().iter().position(|s| s == to_move));
        let who = match (mover, &game.table) {
            (Some(i), Some(table)) => format!("{} ({})", table.side_titles()[i], game.names[i]),
            _ => safe::text(to_move),
        };
        self.legal.clear();
        let said = if legal.is_empty() {
            String::new()
        } else if mover.is_some() && mover == game.seat {
            self.legal = legal;
            let help = if self.keys {
                "Tab completes; moves lists them"
            } else {
                "moves lists them"
            };
            format!("{who} to move: type your move ({help}), or resign.")
        } else {
            // Unless news came (a position may follow it).
            self.their_turn = game.seat.is_some() && !self.news;
            if self.their_turn {
                self.turn_since = Some(Instant::now());
                self.to_move = who.clone();
            }
            format!("{who} to move.")
        };
        format!("{board}{}", wrap(&said))
    }
}

/// How a game ended, worded as the text door words it: the server's own
/// sentence when the event carries one (`text`); else the game's own
/// result for an ending its rules decided, from this client's copy of the
/// game; else, for an ending the players made, the text door's sentence
/// for it; else the result and how, as the log names it.
fn ending_words(event: &Value, game: Option<&Game>) -> String {
    let text = clean_lines(event, "text");
    if !text.is_empty() {
        return text;
    }
    let number = number(event, "game");
    let how = text_of(event, "how");
    let winner = event.get("winner").and_then(Value::as_str).map(safe::text);
    let tracked = game.filter(|g| Some(g.number) == event.get("game").and_then(Value::as_u64));
    if let Some(game) = tracked {
        if let Some(table) = game.table.as_ref()
            && let Some(ending) = table.ending()
            && ending.how == how
        {
            return table.result([&game.names[0], &game.names[1]]);
        }
        // The loser: the player who is not the winner.
        let loser = winner
            .as_ref()
            .and_then(|w| game.names.iter().find(|n| *n != w));
        match (how, &winner, loser) {
            ("resigned", Some(winner), Some(loser)) => {
                return format!("{loser} resigned: {winner} wins.");
            }
            // Won by this player, who is here: their claim (the server
            // ends a game itself only when the winner is not here).
            ("abandoned", Some(winner), Some(loser))
                if game.seat.and_then(|i| game.names.get(i)) == Some(winner) =>
            {
                return format!("{loser} left the game and did not come back: {winner} wins.");
            }
            ("agreed", None, _) => return "A draw, agreed by the players.".to_string(),
            ("abandoned", None, _) => {
                return "Both guests left: the game ends without a winner.".to_string();
            }
            _ => {}
        }
    }
    let how = safe::text(how);
    match winner {
        Some(winner) => format!("Game {number} is over: {winner} wins ({how})."),
        None => format!("Game {number} is over: a draw ({how})."),
    }
}

/// The items of an event's list.
fn items<'a>(event: &'a Value, field: &str) -> &'a [Value] {
    event
        .get(field)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A list event said as lines under its `heading` (none when empty), or
/// `empty`.
fn list(
    event: &Value,
    field: &str,
    heading: &str,
    empty: &str,
    line: impl Fn(&Value) -> String,
) -> String {
    let items = items(event, field);
    if items.is_empty() {
        return empty.to_string();
    }
    let heading = (!heading.is_empty()).then(|| heading.to_string());
    heading
        .into_iter()
        .chain(items.iter().map(line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_line_keeps_a_count_with_its_word() {
        let game = serde_json::json!({
            "version": 2, "number": 2, "date": "2026-12-07T10:00:00Z", "game": "fox",
            "flow": "default", "setup": {},
            "seats": [{"name": "ann", "side": "fox"}, {"name": "bob", "side": "hounds"}],
            "outcome": {"winner": "hounds", "how": "fox-trapped"},
            "plies": 24, "start": "", "moves": []
        });
        let line = history_line(&game);
        assert_eq!(
            line,
            "  2026-12-07 fox: ann (fox) against bob (hounds); bob won (fox-trapped), 24 plies"
        );
        // At 80 columns, as off a terminal, `24` would end the first row.
        let said = wrap(&line);
        assert!(said.contains("24 plies"), "{said}");
    }
}
