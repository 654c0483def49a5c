//! `tallyho draughts perft` and `analyse`.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::store;
use crate::commands::AppError;
use tallyho::engines::draughts::session::SharedEndgame;
use tallyho::faces::draughts::board;
use tallyho::faces::draughts::text;
use tallyho::games::draughts::endgame::{self, Endgame, Exact};
use tallyho::games::draughts::endgame::{LARGEST_PIECES, STORED_PIECES};
use tallyho::games::draughts::perft::perft_each_until;
use tallyho::games::draughts::{Analysis, Captures, Position, Score, Setup, Side};
use tallyho::games::{Deadline, Rules};
use tallyho::shell::clock::Until;
use tallyho::shell::safe;
use tallyho::shell::text::plies;

/// `tallyho draughts perft`: one line per depth, each printed when counted.
/// Depths that would run long are said to, once, from how the time grew so
/// far; Ctrl-C stops the count (exit status 130).
pub(super) fn perft(depth: u32, fen: Option<&str>, captures: Captures) -> Result<(), AppError> {
    let rules = Setup::with_captures(captures);
    let pos = match fen {
        Some(text) => position(&rules, text)?,
        None => Position::START,
    };
    let stop = Arc::new(AtomicBool::new(false));
    // Ctrl-C sets the flag instead of ending the process at once.
    let caught = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop));
    let flag = Flag(stop);
    let mut out = tallyho::shell::console::stdout();
    let mut clock = PerftClock::new(depth);
    let mut counted = 0;
    for (d, n) in perft_each_until(pos, depth, rules, &flag) {
        writeln!(out, "perft({d}) = {n}")?;
        out.flush()?;
        counted = d;
        if let Some(warning) = clock.depth_done(d, n.get()) {
            // Standard error may be closed or full: the count goes on.
            tallyho::shell::console::error_line(&warning);
        }
    }
    if let Ok(id) = caught {
        signal_hook::low_level::unregister(id);
    }
    if flag.passed() && counted < depth {
        out.flush()?;
        tallyho::shell::console::error_line(&text::perft_stopped(counted + 1));
        std::process::exit(130);
    }
    Ok(())
}

/// Ctrl-C, as a deadline the count asks.
struct Flag(Arc<AtomicBool>);

impl Deadline for Flag {
    fn passed(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How long a long count has left: each depth's time, and whether the
/// warning was given.
struct PerftClock {
    max: u32,
    started: Instant,
    /// When the last depth was done, in seconds from the start.
    last: f64,
    /// How long the last depth took.
    took: f64,
    /// The last depth's count.
    count: Option<u128>,
    warned: bool,
}

/// The time left, in seconds, past which `perft` says so.
const LONG_PERFT_SECONDS: f64 = 60.0;

impl PerftClock {
    fn new(max: u32) -> PerftClock {
        PerftClock {
            max,
            started: Instant::now(),
            last: 0.0,
            took: 0.0,
            count: None,
            warned: false,
        }
    }

    /// Depth `d`, counting `count`, is done: the warning, if the depths
    /// left would run long.
    fn depth_done(&mut self, d: u32, count: Option<u128>) -> Option<String> {
        let now = self.started.elapsed().as_secs_f64();
        let took = now - self.last;
        let before = self.took;
        self.last = now;
        self.took = took;
        let branching = match (self.count, count) {
            (Some(a), Some(b)) if a > 0 => b as f64 / a as f64,
            _ => 1.0,
        };
        self.count = count;
        // Depths shorter than this are too quick to time: a moment lost to
        // another program would read as a depth many times longer.
        if self.warned || d >= self.max || before <= 0.0 || took < 0.1 {
            return None;
        }
        let growth = growth(took / before, branching);
        let left = estimate(took, growth, self.max - d);
        (left > LONG_PERFT_SECONDS).then(|| {
            self.warned = true;
            text::perft_will_take(d + 1, self.max, left, growth)
        })
    }
}

/// A value wrapped to `room` columns, a move's number never left at the
/// end of a line apart from its move, nor a number apart from its unit
/// (`0.28 s`, `5993 nodes`).
fn line_wrapped(line: &str, room: usize) -> String {
    safe::wrap_holding(line, room, |before, after| {
        move_number(before) || safe::number_and_unit(before, after)
    })
}

/// Whether a word is a move's number in a line of moves: `5.` or `5...`.
fn move_number(word: &str) -> bool {
    let dots = word.trim_start_matches(|c: char| c.is_ascii_digit());
    dots.len() < word.len() && !dots.is_empty() && dots.bytes().all(|b| b == b'.')
}

/// The column where `analyse`'s values begin, after their labels.
const VALUE_COLUMN: usize = 12;

/// A label and its value, the value wrapped at words to `width` columns
/// with each line after the first under the value's start (or, on a
/// screen too narrow for that, under the label).
fn labelled(label: &str, value: &str, width: usize) -> String {
    let under_label = width < VALUE_COLUMN + 20;
    let indent = if under_label { 2 } else { VALUE_COLUMN };
    let pad = " ".repeat(indent);
    let wrapped = line_wrapped(value, width.saturating_sub(indent).max(10))
        .replace('\n', &format!("\n{pad}"));
    if under_label {
        format!("{label}\n{pad}{wrapped}")
    } else {
        format!("{label:<VALUE_COLUMN$}{wrapped}")
    }
}

/// `1 node`, `2 nodes`.
fn nodes_text(nodes: u64) -> String {
    if nodes == 1 {
        "1 node".to_string()
    } else {
        format!("{nodes} nodes")
    }
}

/// How many times as long each depth left will take, from how many times
/// as long the last took as the one before (`timed`) and how many times as
/// many paths it counted (`branching`). The table of subtree counts slows
/// the growth while it holds the tree; once the time grows at all fast it
/// is filling, and from there each depth costs about the branching factor
/// more (from the start: 3.3 times at depth 12, 5.4 by depth 14, 4.5 the
/// branching). A time that grew much faster than the tree did was
/// disturbed by other programs.
fn growth(timed: f64, branching: f64) -> f64 {
    if timed >= 1.5 {
        branching.max(timed.min(branching * 1.5))
    } else {
        timed.max(1.0)
    }
}

/// Seconds for `depths` more depths when the last took `took` seconds and
/// each takes `growth` times the one before.
fn estimate(took: f64, growth: f64, depths: u32) -> f64 {
    let growth = growth.max(1.0);
    let mut total = 0.0;
    let mut next = took;
    for _ in 0..depths {
        next *= growth;
        total += next;
        if !total.is_finite() || total > 1e18 {
            return 1e18;
        }
    }
    total
}

/// A position typed on the command line, checked.
fn position(rules: &Setup, text: &str) -> Result<Position, AppError> {
    rules
        .parse_position(text)
        .map_err(|e| AppError::Usage(safe::text(&safe::cut(&e.to_string(), 200))))
}

/// The databases `analyse` may use for `pos`, on their way: none for a
/// position with many pieces, where the search would not reach them; else
/// read from the data directory, or built, on a thread.
fn analysis_endgame(rules: &Setup, pos: &Position) -> Option<SharedEndgame> {
    (pos.piece_count() <= 10).then(|| endgame_for(rules, pos.piece_count()))
}

/// Analyses `pos` until `deadline`, with what `shared` holds once it is
/// ready: waited for until `half` first, the rest of the time left to the
/// search. Where the search is done sooner (a small ending searched to its
/// full depth at once) and the database would hold the position itself (of
/// at most `stored` pieces, with a move to make), it is waited for until
/// `deadline`, and the position analysed again with it: `--think` bounds
/// the whole answer, and all of it is used before an answer says the
/// database was not ready.
fn analysed(
    rules: &Setup,
    pos: Position,
    (half, deadline): (&Until, &Until),
    shared: Option<&SharedEndgame>,
    stored: u32,
) -> (Analysis, Option<Arc<Endgame>>, Duration) {
    // A side with no move has lost by the rules: nothing to wait for.
    let shared = shared.filter(|_| !rules.moves(&pos).is_empty());
    let waiting = Instant::now();
    let db = shared.and_then(|s| s.ready_within(half));
    let mut waited = waiting.elapsed();
    let analysis = tallyho::games::draughts::analyse(rules, &[pos], deadline, db.clone());
    let pieces = pos.piece_count();
    // The quick database of four pieces may be ready before the one that
    // holds the position: that one is still waited for.
    let holds = db.as_ref().is_some_and(|db| pieces <= db.max_pieces());
    if holds || pieces > stored {
        return (analysis, db, waited);
    }
    let waiting = Instant::now();
    let holding = shared.and_then(|s| s.holding_within(pieces, deadline));
    waited += waiting.elapsed();
    match holding {
        Some(db) => (
            tallyho::games::draughts::analyse(rules, &[pos], deadline, Some(Arc::clone(&db))),
            Some(db),
            waited,
        ),
        None => (analysis, db, waited),
    }
}

/// The databases for positions of `pieces` pieces: the stored ones read,
/// or built, on a thread of their own.
fn endgame_for(rules: &Setup, pieces: u32) -> SharedEndgame {
    let shared = SharedEndgame::default();
    if let Some(store) = store() {
        shared.keep_in(store, STORED_PIECES);
    }
    shared.start_with(*rules, pieces.clamp(2, endgame::MAX_PIECES));
    shared
}

/// The most pieces of an ending `analyse -` answers from a database built
/// for it at once (a tenth of a second), rather than wait for the large
/// one to be read.
const QUICK_PIECES: u32 = 3;

/// `draughts analyse -`: a JSON object for each position read from
/// standard input, one a line, each given `think` milliseconds in all; one
/// database read or built for them all.
fn analyse_each(rules: &Setup, think: u64) -> Result<(), AppError> {
    let mut shared: Option<SharedEndgame> = None;
    // Small endings are answered, as `analyse` answers one, from a database
    // built for them at once (in memory only), while the large one is read.
    let mut small: Option<SharedEndgame> = None;
    let stored = stored_pieces(rules);
    super::super::analyse_each_line(|line| {
        let pos = rules
            .parse_position(line)
            .map_err(|e| safe::cut(&e.to_string(), 200))?;
        let deadline = Until::after_millis(think);
        let half = Until::after_millis(think / 2);
        let pieces = pos.piece_count();
        let large_ready = shared
            .as_ref()
            .is_some_and(|s| s.holding_within(pieces, &Until::after_millis(0)).is_some());
        let db = if pieces <= QUICK_PIECES && !large_ready {
            Some(&*small.get_or_insert_with(|| {
                let quick = SharedEndgame::default();
                quick.start_with(*rules, QUICK_PIECES);
                quick
            }))
        } else {
            (pieces <= 10)
                .then(|| &*shared.get_or_insert_with(|| endgame_for(rules, endgame::MAX_PIECES)))
        };
        let (analysis, db, _) = analysed(rules, pos, (&half, &deadline), db, stored);
        Ok(analysis.to_json_saying(why_not_exact(rules, &analysis, db.as_deref()).as_deref()))
    })
}

/// A score in words for the side to move.
fn score_text(score: Score, side: Side) -> String {
    let side = side.title();
    match score {
        Score::Points(p) => format!("{:+.2} men for {side}", f64::from(p) / 100.0),
        Score::Win(n) => format!("{side} wins in {}", plies(n)),
        Score::Loss(n) => format!("{side} loses in {}", plies(n)),
    }
}

/// Why `analyse` gives no exact result for `pos`: the true reason. `stored`
/// is the most pieces a database here could hold, had it been ready: six
/// where `build-db --pieces 6` has built that one, else five.
fn not_exact(pos: &Position, db: Option<&Endgame>, stored: u32, kept: bool) -> String {
    let pieces = pos.piece_count();
    if let Some(none) = Side::ALL.into_iter().find(|&s| pos.pieces(s) == 0) {
        return text::not_exact_without_pieces(none);
    }
    match db {
        _ if pieces > 10 => {
            "not known: too many pieces for the endgame database to reach".to_string()
        }
        // No database `build-db` makes holds so many.
        _ if pieces > LARGEST_PIECES && stored < LARGEST_PIECES => format!(
            "not known: {pieces} pieces are on the board, and the endgame database holds at most \
             {stored} ({LARGEST_PIECES} after `tallyho draughts build-db --pieces {LARGEST_PIECES}`)"
        ),
        _ if pieces > LARGEST_PIECES => format!(
            "not known: {pieces} pieces are on the board, and the endgame database holds at most \
             {LARGEST_PIECES}"
        ),
        // Whatever is ready in this run: no database here holds so many.
        _ if pieces > stored => format!(
            "not known: {pieces} pieces are on the board, and the endgame database holds at most \
             {stored} (`tallyho draughts build-db --pieces {pieces}` builds one of {pieces})"
        ),
        Some(db) if pieces <= db.max_pieces() => "not known".to_string(),
        // The database that holds it is still being read.
        _ if kept => "not known: the endgame database was not ready within --think".to_string(),
        // Or built, which a run this short cannot finish, nor so keep.
        _ => "not known: the endgame database was not ready within --think \
              (`tallyho draughts build-db` builds it once and keeps it, in about two minutes)"
            .to_string(),
    }
}

/// Why `analysis` has no exact result, with `db` what was ready; `None`
/// where it has one.
fn why_not_exact(rules: &Setup, analysis: &Analysis, db: Option<&Endgame>) -> Option<String> {
    let pos = &analysis.position;
    analysis.exact.is_none().then(|| {
        not_exact(
            pos,
            db,
            stored_pieces(rules),
            kept(rules, pos.piece_count()),
        )
    })
}

/// Whether a database that holds positions of `pieces` pieces is kept in
/// the user's data directory (the quick one of four, or the one of five;
/// it is checked when read, not here), or none could be: where `build-db`
/// would be no help.
fn kept(rules: &Setup, pieces: u32) -> bool {
    store().is_none_or(|s| {
        (pieces.max(2)..=STORED_PIECES).any(|n| s.path(n, *rules).is_file()) || !s.could_save()
    })
}

/// The most pieces of a database kept in the user's data directory, or that
/// would be built there on first use: six where one of six is on disk (it
/// is checked when read, not here), else five.
fn stored_pieces(rules: &Setup) -> u32 {
    let six = store().is_some_and(|s| s.path(LARGEST_PIECES, *rules).is_file());
    if six { LARGEST_PIECES } else { STORED_PIECES }
}

/// `tallyho draughts analyse`.
pub(super) fn analyse(
    rules: &Setup,
    fen: &str,
    think: u64,
    json: bool,
    ascii: bool,
) -> Result<(), AppError> {
    if fen == "-" {
        return analyse_each(rules, think);
    }
    let pos = position(rules, fen)?;
    let started = Instant::now();
    let deadline = Until::after_millis(think);
    // Half the time at most for the database, the rest for the search.
    let half = Until::after_millis(think / 2);
    let shared = analysis_endgame(rules, &pos);
    let stored = stored_pieces(rules);
    let (analysis, db, waited) = analysed(rules, pos, (&half, &deadline), shared.as_ref(), stored);
    let elapsed = started.elapsed();
    let mut out = tallyho::shell::console::stdout();
    if json {
        let why = why_not_exact(rules, &analysis, db.as_deref());
        writeln!(out, "{}", analysis.to_json_saying(why.as_deref()))?;
        return Ok(());
    }
    let to_move = pos.to_move();
    let side = to_move.title();
    // For the terminal's width, as the game draws; 80 columns elsewhere.
    let width = tallyho::shell::console::terminal_columns().unwrap_or(80);
    let drawing = board::Drawing {
        ascii,
        width,
        ..board::Drawing::default()
    };
    write!(out, "{}", board::board(&pos, None, drawing))?;
    let field =
        |out: &mut tallyho::shell::console::NamedOut<io::Stdout>, label: &str, value: &str| {
            writeln!(out, "{}", labelled(label, value, width))
        };
    field(
        &mut out,
        "Position:",
        &format!("{side} to move, {}", rules.notation(&pos)),
    )?;
    match analysis.best {
        Some(m) => field(&mut out, "Best move:", &m.to_string())?,
        None => field(
            &mut out,
            "Best move:",
            &format!("none: {side} has no move, and has lost"),
        )?,
    }
    field(&mut out, "Score:", &score_text(analysis.score, to_move))?;
    if !analysis.pv.is_empty() {
        field(&mut out, "Line:", &analysis.pv_text(1))?;
    }
    // Time spent waiting for the database is said, so that a few nodes in
    // a second and a half do not look like a slow search.
    let waited = waited.as_secs_f64();
    let elapsed_text = if waited >= 0.01 {
        format!(
            "{:.2} s, {waited:.2} s of it waiting for the endgame database",
            elapsed.as_secs_f64()
        )
    } else {
        format!("{:.2} s", elapsed.as_secs_f64())
    };
    let searched = if analysis.best.is_none() {
        format!(
            "no search: the rules decide it ({:.2} s)",
            elapsed.as_secs_f64()
        )
    } else if analysis.depth == 0 && matches!(analysis.exact, Some(Exact::Win(_) | Exact::Loss(_)))
    {
        format!("no search: the endgame database decides it ({elapsed_text})")
    } else {
        format!(
            "depth {}, {} in {elapsed_text}",
            analysis.depth,
            nodes_text(analysis.nodes)
        )
    };
    field(&mut out, "Searched:", &searched)?;
    let exact = match analysis.exact {
        // Decided by the rules, not looked up.
        _ if analysis.best.is_none() => text::lost_without_a_move(to_move),
        Some(Exact::Win(n)) => format!("{side} wins in {} (endgame database)", plies(n)),
        Some(Exact::Loss(n)) => format!("{side} loses in {} (endgame database)", plies(n)),
        Some(Exact::Draw) => "a draw with best play (endgame database)".to_string(),
        None => why_not_exact(rules, &analysis, db.as_deref()).unwrap_or_default(),
    };
    field(&mut out, "Exact:", &exact)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_done_early_waits_for_the_database_within_think() {
        // A small ending is searched to its full depth long before the
        // database of four pieces is built; the first half of the time has
        // passed already, so only the wait after the search can find it.
        let rules = Setup::STANDARD;
        let pos = rules.parse_position("W:WK18:BK14,K10").unwrap();
        let shared = SharedEndgame::default();
        shared.start_with(rules, 4);
        let times = (&Until::after_millis(0), &Until::after_millis(60_000));
        let (analysis, db, _) = analysed(&rules, pos, times, Some(&shared), 5);
        assert!(db.is_some());
        assert_eq!(analysis.exact, Some(Exact::Draw));
        assert_eq!(analysis.score, Score::Points(0));
    }

    #[test]
    fn a_search_done_early_waits_for_the_database_that_holds_the_position() {
        // The quick database (two pieces here) is ready at once; the one
        // that holds three (four, here) is still being built when the
        // search is done, and is waited for.
        let dir = crate::scratch::Scratch::unmade("analyse-holding");
        let rules = Setup::STANDARD;
        let pos = rules.parse_position("W:WK18:BK14,K10").unwrap();
        let shared = SharedEndgame::default();
        shared.keep_in(
            tallyho::engines::draughts::store::EndgameStore::new(&dir),
            4,
        );
        shared.start_with(rules, 2);
        let quick = shared.ready_within(&tallyho::games::Never).unwrap();
        assert_eq!(quick.max_pieces(), 2);
        let times = (&Until::after_millis(0), &Until::after_millis(600_000));
        let (analysis, db, _) = analysed(&rules, pos, times, Some(&shared), 4);
        assert_eq!(db.map(|db| db.max_pieces()), Some(4));
        assert_eq!(analysis.exact, Some(Exact::Draw));
    }

    #[test]
    fn no_wait_for_a_database_that_cannot_answer() {
        // Six pieces where five are kept, and a side with no move: the
        // search's answer is the answer, given without waiting for the
        // database being built meanwhile (it would come within the time).
        let rules = Setup::STANDARD;
        let building = SharedEndgame::default();
        building.start_with(rules, 4);
        for (fen, half) in [("B:WK10:BK1,K3,K4,K5,K6", 0), ("W:W5:B1", 60_000)] {
            let pos = rules.parse_position(fen).unwrap();
            let times = (&Until::after_millis(half), &Until::after_millis(60_000));
            let (analysis, db, _) = analysed(&rules, pos, times, Some(&building), 5);
            assert!(db.is_none(), "{fen}");
            assert!(
                matches!(analysis.score, Score::Win(_) | Score::Loss(_)),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_disturbed_time_does_not_make_a_short_count_look_endless() {
        // Depth 12 from the start: 41.9 times as long as depth 11 on a busy
        // machine, for 4.5 times the paths.
        assert_eq!(growth(41.9, 4.5), 6.75);
        assert_eq!(growth(5.0, 4.5), 5.0);
        assert_eq!(growth(2.0, 4.5), 4.5);
        assert_eq!(growth(1.2, 4.5), 1.2);
        assert_eq!(growth(0.5, 4.5), 1.0);
        assert_eq!(estimate(1.0, 2.0, 3), 14.0);
    }

    #[test]
    fn a_line_of_moves_keeps_each_number_with_its_move() {
        let line = "5. 9-14 22-17 6. 12-16 24-19";
        assert_eq!(line_wrapped(line, 20), "5. 9-14 22-17\n6. 12-16 24-19");
        assert_eq!(line_wrapped(line, 80), line);
        assert_eq!(
            labelled("Exact:", "not exact: seven pieces on the board", 40),
            "Exact:      not exact: seven pieces on\n            the board"
        );
        assert_eq!(
            labelled("Exact:", "not exact: seven pieces", 24),
            "Exact:\n  not exact: seven\n  pieces"
        );
        // Nor a number apart from its unit.
        assert_eq!(
            labelled("Searched:", "depth 11, 5993 nodes in 0.28 s", 30),
            "Searched:\n  depth 11, 5993 nodes in\n  0.28 s"
        );
        assert_eq!(
            labelled(
                "Searched:",
                "no search: the endgame database decides it (0.13 s)",
                28
            ),
            "Searched:\n  no search: the endgame\n  database decides it\n  (0.13 s)"
        );
        assert!(move_number("5.") && move_number("12..."));
        assert!(!move_number(".") && !move_number("5") && !move_number("a."));
        assert_eq!(nodes_text(1), "1 node");
        assert_eq!(nodes_text(2), "2 nodes");
    }
}
