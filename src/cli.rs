//! The command line, as clap reads it. Nothing here acts.
//!
//! Each command declares only the options that mean something to it, and
//! an option may come before or after its command: [`parse`] moves options
//! written before a command to after it, so clap checks them against that
//! command and refuses, naming it, an option that means nothing there.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::faces::draughts::cli::DraughtsCommand;
use crate::faces::fish::cli::FishCommand;
use crate::faces::fox::cli::{AnalyseArgs, ClassicArgs, FoxArgs, FoxLevels};
use crate::shell::console::{ColorChoice, Look};

/// Classic console board games: Fox and Hounds after a 1978 BASIC program
/// and a C school project.
///
/// With no command, plays Fox and Hounds' default flow: a menu, the players,
/// and a match in which the players swap sides every game.
#[derive(Parser, Debug)]
#[command(name = "tallyho", version, propagate_version = true)]
pub struct Cli {
    /// The game's setup (board, rules, fox start, first mover).
    #[command(flatten)]
    pub game: FoxArgs,

    /// Who plays.
    #[command(flatten)]
    pub play: PlayArgs,

    /// The computer's levels when it plays itself.
    #[command(flatten)]
    pub levels: FoxLevels,

    /// How the conversation looks.
    #[command(flatten)]
    pub look: LookArgs,

    /// Where finished games are kept.
    #[command(flatten)]
    pub log: LogArgs,

    /// What to do; without one, play.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Colour and screen.
#[derive(Args, Debug, Clone)]
pub struct LookArgs {
    /// Colour: auto colours a terminal and honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb.
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Never clear the screen before a board.
    #[arg(long)]
    pub no_clear: bool,
}

impl LookArgs {
    /// The look these options settle.
    pub fn look(&self) -> Look {
        Look {
            colour: self.color.decide(),
            no_clear: self.no_clear,
            ..Look::default()
        }
    }
}

/// Colour alone, for commands that never clear the screen.
#[derive(Args, Debug, Clone)]
pub struct ColorArgs {
    /// Colour: auto colours a terminal and honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb.
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorChoice,
}

/// The game log.
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    /// The game log file. Default: $TALLYHO_HISTORY, else history.jsonl in the
    /// user's data directory (~/.local/share/tallyho on Linux).
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,

    /// Keep no record of finished games.
    #[arg(long, conflicts_with = "history")]
    pub no_history: bool,
}

/// The game log to read, for `history` and `replay`.
#[derive(Args, Debug, Clone)]
pub struct LogFileArgs {
    /// The game log file. Default: $TALLYHO_HISTORY, else history.jsonl in the
    /// user's data directory (~/.local/share/tallyho on Linux).
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
}

impl LogFileArgs {
    /// As the options of a flow that keeps games.
    pub fn log(&self) -> LogArgs {
        LogArgs {
            history: self.history.clone(),
            no_history: false,
        }
    }
}

/// The longest pause before a computer move, in milliseconds.
pub const MAX_DELAY: u64 = 10_000;

/// Who plays and how many games: options that skip questions, for scripts.
/// Levels and sides are read by the game played.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayArgs {
    /// How many human players: 0 watches the computer play itself; skips the menu.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=2), value_name = "N")]
    pub players: Option<u8>,

    /// The players' names, Player 1 first: --names Ann,Bob.
    /// Against the computer, your name alone.
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub games: Option<u32>,

    /// Seed for the computer players' randomness: the same seed and input give the same
    /// session, but for players that think for a set time (--think).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// The computer's level (see the game's help for its levels).
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<String>,

    /// Against the computer: your side in the first game.
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,

    /// Pause before each computer move, in milliseconds (at most 10000).
    /// Default: 700 in a terminal, 0 in a script.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=MAX_DELAY))]
    pub delay: Option<u64>,
}

/// The commands besides playing the default flow.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The 1978 BASIC program's game: you are the hounds, the computer the fox.
    Classic {
        /// The game's setup.
        #[command(flatten)]
        game: FoxArgs,

        /// The fox's level (default classic), games and seed.
        #[command(flatten)]
        play: ClassicArgs,

        /// How the conversation looks.
        #[command(flatten)]
        look: LookArgs,

        /// Where finished games are kept.
        #[command(flatten)]
        log: LogArgs,
    },
    /// The Python project's game: 7 columns by 8 rows, the fox and the hounds
    /// take each other, numbered hounds; rows then columns from 0.
    Capture {
        /// The game's setup (default 7x8, capture rules, fox on D8, fox first).
        #[command(flatten)]
        game: FoxArgs,

        /// Who plays.
        #[command(flatten)]
        play: PlayArgs,

        /// The computer's levels when it plays itself.
        #[command(flatten)]
        levels: FoxLevels,

        /// How the conversation looks.
        #[command(flatten)]
        look: LookArgs,

        /// Where finished games are kept.
        #[command(flatten)]
        log: LogArgs,
    },
    /// English draughts, after a C project: menu, names, a numbered game log;
    /// and its tools.
    Draughts(DraughtsCommand),
    /// "Hey, That's My Fish!", after a C assignment: one penguin each on 6x6.
    Fish(FishCommand),
    /// Solve a Fox and Hounds position: who wins with best play, the best moves, and counts.
    #[command(alias = "analyze")]
    Analyse {
        /// The board and rules (and the start position's fox square and first mover).
        #[command(flatten)]
        game: FoxArgs,

        /// The position and the output.
        #[command(flatten)]
        args: AnalyseArgs,

        /// Colour of the board.
        #[command(flatten)]
        look: ColorArgs,
    },
    /// List the finished games of every game, oldest first.
    History {
        /// Print the records as JSON, one array.
        #[arg(long, conflicts_with = "pdn")]
        json: bool,

        /// Write the draughts games as PDN, or game N alone.
        #[arg(long, value_name = "N", num_args = 0..=1,
              value_parser = clap::value_parser!(u64).range(1..))]
        pdn: Option<Option<u64>>,

        /// The game log.
        #[command(flatten)]
        log: LogFileArgs,
    },
    /// Replay a finished game from the log, move by move.
    Replay {
        /// The game's number, as `tallyho history` lists it.
        number: u64,

        /// Wait between moves (the default in a terminal): Enter or n goes on,
        /// b goes back, a number jumps to that move, q stops.
        #[arg(long)]
        step: bool,

        /// How the conversation looks.
        #[command(flatten)]
        look: LookArgs,

        /// The game log.
        #[command(flatten)]
        log: LogFileArgs,
    },
}

/// The longest argument read; a longer one is refused without being echoed.
pub const MAX_ARG: usize = 4096;

/// Why the command line was not read: the message, and whether it is a
/// request for help or the version (exit status 0) rather than a mistake (2).
pub struct Refusal {
    /// What to print, safe for a terminal.
    pub message: String,
    /// Help or version, printed on standard output.
    pub informational: bool,
}

/// Reads the command line: arguments before a command are moved after it,
/// and long or odd arguments are never echoed whole.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, Refusal> {
    let args: Vec<OsString> = args.into_iter().collect();
    if let Some((i, arg)) = args.iter().enumerate().find(|(_, a)| a.len() > MAX_ARG) {
        return Err(Refusal {
            message: format!(
                "error: argument {i} is {} bytes long; no argument may be longer than {MAX_ARG}\n",
                arg.len()
            ),
            informational: false,
        });
    }
    let command = Cli::command();
    let mut ordered: Vec<OsString> = args.iter().take(1).cloned().collect();
    ordered.extend(reorder(&command, args.get(1..).unwrap_or_default()));
    let matches = command.try_get_matches_from(ordered).map_err(refusal)?;
    Cli::from_arg_matches(&matches).map_err(refusal)
}

fn refusal(e: clap::Error) -> Refusal {
    let informational = !e.use_stderr();
    let message = e.render().to_string();
    Refusal {
        message: if informational {
            message
        } else {
            shorten(&message)
        },
        informational,
    }
}

/// An error message with control characters escaped and any word longer
/// than 80 characters cut: clap quotes the argument it refuses.
pub fn shorten(message: &str) -> String {
    message
        .split('\n')
        .map(|line| {
            line.split(' ')
                .map(|word| {
                    let safe = crate::shell::safe::text(word);
                    if safe.chars().count() > 80 {
                        let kept: String = safe.chars().take(60).collect();
                        format!("{kept}…")
                    } else {
                        safe
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Moves the options written before each command to after it, at every
/// level, so that clap checks each option against the command it is for.
/// `args` are the words after the command's own name.
fn reorder(command: &clap::Command, args: &[OsString]) -> Vec<OsString> {
    let mut before = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].to_string_lossy();
        if arg == "--" {
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            before.push(args[i].clone());
            let takes_value = !long.contains('=') && takes_value(command, long);
            if takes_value && let Some(value) = args.get(i + 1) {
                before.push(value.clone());
                i += 1;
            }
            i += 1;
            continue;
        }
        if arg.starts_with('-') && arg.len() > 1 {
            before.push(args[i].clone());
            i += 1;
            continue;
        }
        let sub = command
            .get_subcommands()
            .find(|s| s.get_name() == arg || s.get_all_aliases().any(|a| a == arg));
        if let Some(sub) = sub {
            let mut inner = before;
            inner.extend(args[i + 1..].iter().cloned());
            let mut out = vec![args[i].clone()];
            out.extend(reorder(sub, &inner));
            return out;
        }
        break;
    }
    args.to_vec()
}

/// Whether the option `--long` takes a value: as this command defines it,
/// or else as a command below it does (`tallyho --baud 300 classic`).
fn takes_value(command: &clap::Command, long: &str) -> bool {
    match command.get_arguments().find(|a| a.get_long() == Some(long)) {
        Some(arg) => arg.get_action().takes_values(),
        None => command.get_subcommands().any(|sub| takes_value(sub, long)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<String> {
        let command = Cli::command();
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        std::iter::once(args[0].clone())
            .chain(reorder(&command, &args[1..]))
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn options_before_a_command_go_after_it() {
        assert_eq!(
            words(&["tallyho", "--board", "6x6", "analyse", "--json"]),
            ["tallyho", "analyse", "--board", "6x6", "--json"]
        );
        assert_eq!(
            words(&["tallyho", "--players", "2", "--names", "A,B"]),
            ["tallyho", "--players", "2", "--names", "A,B"]
        );
        assert_eq!(
            words(&["tallyho", "--names", "history", "history"]),
            ["tallyho", "history", "--names", "history"]
        );
        assert_eq!(
            words(&["tallyho", "--baud", "300", "classic"]),
            ["tallyho", "classic", "--baud", "300"]
        );
        assert_eq!(
            words(&[
                "tallyho", "--think", "500", "draughts", "analyse", "B:W21:B1"
            ]),
            [
                "tallyho", "draughts", "analyse", "--think", "500", "B:W21:B1"
            ]
        );
    }

    #[test]
    fn an_option_where_it_means_nothing_is_refused_by_name() {
        let refused = |args: &[&str]| match parse(args.iter().map(OsString::from)) {
            Ok(_) => panic!("{args:?} was accepted"),
            Err(r) => r.message,
        };
        assert!(refused(&["tallyho", "--players", "2", "history"]).contains("--players"));
        assert!(refused(&["tallyho", "analyse", "--history", "x"]).contains("--history"));
        assert!(parse(["tallyho", "--board", "6x6", "analyse"].map(OsString::from)).is_ok());
        let long = "x".repeat(100_000);
        let message = refused(&["tallyho", "--board", &long]);
        assert!(message.len() < 400, "{message}");
        let message = refused(&["tallyho", "--board", &"y".repeat(1000)]);
        assert!(message.len() < 400, "{message}");
    }
}
