//! Fox and Hounds on the command line: its own options, the setup they
//! make, and `analyse`, which prints what the solver says.

use std::io::{self, BufRead, Read, Write};
use std::time::Instant;

use clap::Args;

use super::{render, text};
use crate::cli::MAX_DELAY;
use crate::games::fox::players::Level;
use crate::games::fox::solver;
use crate::games::fox::{Board, Position, Rules, Setup, Side};
use crate::shell::safe;

/// Fox and Hounds' setup.
#[derive(Args, Debug, Clone)]
pub struct FoxArgs {
    /// Board size WIDTHxHEIGHT: width and height 4-8. On an odd width A1 is
    /// dark and there is one more hound. Default: 8x8; 7x8 for capture.
    #[arg(long, value_name = "WxH")]
    pub board: Option<Board>,

    /// Ending rules: standard, coursework (adds the early escape win), escape
    /// (the escape win replaces row 1) or capture (the Python project's game:
    /// the fox and the hounds take each other). Default: coursework; standard
    /// for classic.
    #[arg(long, value_name = "RULES")]
    pub rules: Option<Rules>,

    /// Where the fox starts: a dark square of the top row, or "choose" to ask the
    /// fox's player. Default: the leftmost dark square of the top row on an even
    /// width (A8 on 8x8), the middle one on an odd width (D8 on 7x8).
    #[arg(long, value_name = "SQUARE|choose")]
    pub fox_start: Option<String>,

    /// Who moves first: fox or hounds. Default: fox; hounds for classic.
    #[arg(long, value_name = "SIDE")]
    pub first: Option<Side>,
}

/// The levels of the computer's two players when it plays itself.
#[derive(Args, Debug, Clone, Default)]
pub struct FoxLevels {
    /// When the computer plays itself: the first game's fox level.
    #[arg(long, value_name = "LEVEL")]
    pub fox_level: Option<Level>,

    /// When the computer plays itself: the first game's hounds level.
    #[arg(long, value_name = "LEVEL")]
    pub hounds_level: Option<Level>,
}

impl FoxLevels {
    /// The options' names, if either was given, for the shell's checks.
    pub fn watch(&self) -> Option<&'static str> {
        (self.fox_level.is_some() || self.hounds_level.is_some())
            .then_some("--fox-level and --hounds-level")
    }
}

/// Options of `tallyho classic`.
#[derive(Args, Debug, Clone, Default)]
pub struct ClassicArgs {
    /// The computer fox's level: rubbish, classic (default), cunning or overpowered.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<Level>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub games: Option<u32>,

    /// Seed for the computer fox's randomness.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Pause before the fox's answer, in milliseconds (at most 10000).
    /// Default: 700 in a terminal, 0 in a script.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=MAX_DELAY))]
    pub delay: Option<u64>,

    /// Print as a 1978 teletype would: paper scrolls (no clearing), no colour
    /// or bold, lines of at most 72 columns. Always so when the output is not
    /// a terminal.
    #[arg(long)]
    pub teletype: bool,

    /// Pace the output as a teletype on a line of this speed: 110, 300 or
    /// 1200 baud (a tenth as many characters a second).
    #[arg(long, value_name = "BAUD", value_parser = ["110", "300", "1200"])]
    pub baud: Option<String>,
}

/// A flow's own defaults for the setup options.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    /// The board.
    pub board: Board,
    /// The rules.
    pub rules: Rules,
    /// Who moves first.
    pub first: Side,
}

impl Defaults {
    /// The coursework's default flow and `analyse`: 8x8, coursework, fox first.
    pub const DEFAULT: Defaults = Defaults {
        board: Board::STANDARD,
        rules: Rules::Coursework,
        first: Side::Fox,
    };

    /// The 1978 program: 8x8, standard rules, the hounds first.
    pub const CLASSIC: Defaults = Defaults {
        board: Board::STANDARD,
        rules: Rules::Standard,
        first: Side::Hounds,
    };

    /// The Python project: 7x8, captures, the fox first.
    pub fn capture() -> Defaults {
        Defaults {
            board: Board::new(7, 8).unwrap_or(Board::STANDARD),
            rules: Rules::Capture,
            first: Side::Fox,
        }
    }
}

/// The setup the options ask for, with the flow's own defaults. The error
/// names the option.
pub fn setup(args: &FoxArgs, defaults: Defaults) -> Result<Setup, String> {
    let board = args.board.unwrap_or(defaults.board);
    let mut setup = Setup {
        board,
        rules: args.rules.unwrap_or(defaults.rules),
        fox_start: Some(board.default_fox_start()),
        first: args.first.unwrap_or(defaults.first),
    };
    match args.fox_start.as_deref().map(str::trim) {
        None => {}
        Some(choose) if choose.eq_ignore_ascii_case("choose") => setup.fox_start = None,
        Some(text) => {
            let usage = |e: String| format!("--fox-start: {e}");
            let sq = board.parse_square(text).map_err(|e| usage(e.to_string()))?;
            setup.fox_start = Some(setup.check_fox_start(sq).map_err(usage)?);
        }
    }
    Ok(setup)
}

/// Options of `tallyho analyse`.
#[derive(Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// A position such as E8/B1,D1,F1,H1/fox (fox/hounds/side to move; x for a
    /// taken fox), or - to read positions from standard input, one a line, and
    /// write one JSON object a line. Default: the start of the board and rules.
    pub position: Option<String>,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The longest line `analyse -` reads.
const MAX_LINE: u64 = 1024;

/// Why `analyse` could not answer: a usage error (status 2) or a failed write.
#[derive(Debug)]
pub enum AnalyseError {
    /// What was wrong with the options or a position.
    Usage(String),
    /// The output went away.
    Io(io::Error),
}

impl From<io::Error> for AnalyseError {
    fn from(e: io::Error) -> AnalyseError {
        AnalyseError::Io(e)
    }
}

/// `tallyho analyse`: solve a position and report it, or each position of
/// standard input with `-`.
pub fn analyse(game: &FoxArgs, args: &AnalyseArgs, colour: bool) -> Result<(), AnalyseError> {
    let setup = setup(game, Defaults::DEFAULT).map_err(AnalyseError::Usage)?;
    if setup.fox_start.is_none() {
        return Err(AnalyseError::Usage(
            "--fox-start: analyse needs a square, not choose".into(),
        ));
    }
    if args.position.as_deref() == Some("-") {
        if game.first.is_some() || game.fox_start.is_some() {
            return Err(AnalyseError::Usage(
                "--first and --fox-start set up a start position; the positions read give their own".into(),
            ));
        }
        return analyse_lines(&setup);
    }
    let pos = match &args.position {
        None => setup.default_start(),
        Some(_) if game.first.is_some() || game.fox_start.is_some() => {
            return Err(AnalyseError::Usage(
                "--first and --fox-start set up a start position; a POSITION gives its own".into(),
            ));
        }
        Some(text) => position(&setup, text).map_err(AnalyseError::Usage)?,
    };
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json(&setup, &pos))?;
        return Ok(());
    }
    let started = Instant::now();
    let analysis = solver::analyse(&pos, setup.rules);
    let elapsed = started.elapsed();
    let best: Vec<String> = analysis.best.iter().map(ToString::to_string).collect();
    write!(out, "{}", render::board(&pos, colour))?;
    writeln!(
        out,
        "Position:    {pos} ({} board, {} rules)",
        setup.board, setup.rules
    )?;
    writeln!(
        out,
        "Verdict:     {} ({})",
        text::verdict(analysis.value.winner, analysis.value.plies),
        text::plies_split(analysis.value.plies, pos.to_move())
    )?;
    writeln!(out, "Best moves:  {}", best.join(", "))?;
    writeln!(out, "Reachable:   {} positions", analysis.reachable)?;
    writeln!(
        out,
        "Games:       {} possible games",
        analysis.possible_games
    )?;
    writeln!(out, "Solved in:   {:.1} ms", elapsed.as_secs_f64() * 1000.0)?;
    Ok(())
}

/// A position to analyse: it reads, and the game is not over.
fn position(setup: &Setup, text: &str) -> Result<Position, String> {
    let pos = Position::parse_under(text, setup.board, setup.rules).map_err(|e| e.to_string())?;
    if let Some(ending) = pos.ending(setup.rules) {
        return Err(format!(
            "{pos} is already over under {} rules: {}",
            setup.rules,
            text::why(ending).to_lowercase()
        ));
    }
    Ok(pos)
}

/// What the solver says of a position, as one JSON object.
fn json(setup: &Setup, pos: &Position) -> serde_json::Value {
    let analysis = solver::analyse(pos, setup.rules);
    let best: Vec<String> = analysis.best.iter().map(ToString::to_string).collect();
    serde_json::json!({
        "winner": analysis.value.winner.name(),
        "plies": analysis.value.plies,
        "best": best,
        "reachable": analysis.reachable,
        "possible_games": analysis.possible_games.to_string(),
        "board": setup.board.to_string(),
        "rules": setup.rules.name(),
        "position": pos.notation(),
    })
}

/// `analyse -`: a JSON object for each line of standard input, an `error`
/// object for a line that is no position. Blank lines are skipped. A bad
/// line makes the exit status 2 once every line is answered.
fn analyse_lines(setup: &Setup) -> Result<(), AnalyseError> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut failed = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = Read::take(&mut input, MAX_LINE + 1).read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        let too_long = line.len() as u64 > MAX_LINE && !line.ends_with(b"\n");
        if too_long {
            // Skip the rest of that line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let n = Read::take(&mut input, 64 * 1024).read_until(b'\n', &mut rest)?;
                if n == 0 || rest.ends_with(b"\n") {
                    break;
                }
            }
        }
        let text = String::from_utf8_lossy(&line).to_string();
        // A lone CR ends a line too (old Macintosh files), and a byte order
        // mark may open the input.
        for text in text.split('\r') {
            let text = text.trim_start_matches('\u{feff}').trim().to_string();
            if text.is_empty() && !too_long {
                continue;
            }
            let answer = if too_long {
                Err(format!("the line is longer than {MAX_LINE} bytes"))
            } else {
                position(setup, &text).map(|pos| json(setup, &pos))
            };
            let object = answer.unwrap_or_else(|why| {
                failed += 1;
                let shown: String = text.chars().take(80).collect();
                serde_json::json!({ "input": shown, "error": why })
            });
            // Whatever was read is written back escaped.
            writeln!(out, "{}", safe::json(&object.to_string()))?;
        }
        out.flush()?;
    }
    if failed > 0 {
        return Err(AnalyseError::Usage(format!(
            "{failed} line{} of standard input {} no position to analyse",
            if failed == 1 { "" } else { "s" },
            if failed == 1 { "was" } else { "were" }
        )));
    }
    Ok(())
}
