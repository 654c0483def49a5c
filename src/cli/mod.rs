//! The command line, as clap reads it. Nothing here acts.
//!
//! One subcommand a game (`fox`, `draughts`, `fish`) plus the log's
//! (`history`, `replay`); `tallyho` alone, `classic`, `capture` and `analyse`
//! are the fox's commands, as before. Every option is clap-global, so it may
//! come before or after its command; [`parse`] then refuses, naming it, an
//! option the chosen command has no use for.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use tallyho::shell::console::{ColorChoice, Look};

pub mod draughts;
pub mod fish;
pub mod fox;

use draughts::{DraughtsArgs, DraughtsTool};
use fish::{FishArgs, FishTool};
use fox::{FoxArgs, FoxCommand};

/// Classic console board games: Fox and Hounds, English draughts and
/// "Hey, That's My Fish!".
///
/// Fox and Hounds after a 1978 BASIC program, a C school project and a Python
/// project; English draughts after a C project; the penguin game after a C
/// assignment. With no command, plays Fox and Hounds' default flow: a menu,
/// the players, and a match in which the players swap sides every game.
#[derive(Parser, Debug)]
#[command(
    name = "tallyho",
    version,
    propagate_version = true,
    max_term_width = 80
)]
pub struct Cli {
    /// Every option, each for the commands it names.
    #[command(flatten)]
    pub options: Options,

    /// What to do; without one, play Fox and Hounds.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Every option of every command: clap-global, so each may stand before or
/// after its command. Which command may use which is [`allowed`]'s to say.
#[derive(Args, Debug, Clone, Default)]
pub struct Options {
    /// The board, for the games played on a board of a chosen size.
    #[command(flatten, next_help_heading = "Fox and Hounds, and fish")]
    pub board: BoardArgs,

    /// Fox and Hounds' setup and flows.
    #[command(flatten, next_help_heading = "Fox and Hounds")]
    pub fox: FoxArgs,

    /// Draughts' rules, start and board.
    #[command(flatten, next_help_heading = "Draughts")]
    pub draughts: DraughtsArgs,

    /// Fish's tiles and penguins.
    #[command(flatten, next_help_heading = "Fish")]
    pub fish: FishArgs,

    /// Who plays.
    #[command(flatten, next_help_heading = "Players")]
    pub play: PlayArgs,

    /// How the conversation looks, and what tools print.
    #[command(flatten, next_help_heading = "Look and output")]
    pub look: LookArgs,

    /// Where finished games are kept.
    #[command(flatten, next_help_heading = "Game log")]
    pub log: LogArgs,
}

/// The size of the board, for Fox and Hounds and fish.
#[derive(Args, Debug, Clone, Default)]
pub struct BoardArgs {
    /// Board size WIDTHxHEIGHT, 4x4 to 8x8, for Fox and Hounds and fish. Fox
    /// and Hounds: on an odd width A1 is dark and there are ceil(width/2)
    /// hounds; default 8x8, 7x8 for capture. Fish: default 6x6.
    #[arg(long, global = true, value_name = "WxH")]
    pub board: Option<String>,
}

/// Colour, screen and the tools' output.
#[derive(Args, Debug, Clone, Default)]
pub struct LookArgs {
    /// Colour: auto colours a terminal and honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb.
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Never clear the screen before a board.
    #[arg(long, global = true)]
    pub no_clear: bool,

    /// analyse, history: print JSON instead of text.
    #[arg(long, global = true, conflicts_with = "pdn")]
    pub json: bool,

    /// history: write the draughts games as PDN (`history --pdn N`: game N alone).
    #[arg(long, global = true)]
    pub pdn: bool,

    /// replay: wait between moves (the default in a terminal): Enter or n
    /// goes on, b goes back, a number jumps to that move, q stops.
    #[arg(long, global = true)]
    pub step: bool,
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

/// The game log.
#[derive(Args, Debug, Clone, Default)]
pub struct LogArgs {
    /// The game log file. Default: $TALLYHO_HISTORY, else history.jsonl in the
    /// user's data directory (~/.local/share/tallyho on Linux).
    #[arg(long, global = true, value_name = "FILE")]
    pub history: Option<PathBuf>,

    /// Keep no record of finished games.
    #[arg(long, global = true, conflicts_with = "history")]
    pub no_history: bool,
}

/// The longest pause before a computer move, in milliseconds.
pub const MAX_DELAY: u64 = 10_000;

/// The longest thinking time, in milliseconds: ten minutes.
pub const MAX_THINK: u64 = 600_000;

/// Who plays and how many games: options that skip questions, for scripts.
/// Levels and sides are read by the game played.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayArgs {
    /// How many human players: 0 watches the computer play itself; skips the menu.
    #[arg(long, global = true, value_parser = number::<u8>(0, Some(2)), value_name = "N",
          allow_negative_numbers = true)]
    pub players: Option<u8>,

    /// The players' names, Player 1 first: --names Ann,Bob.
    /// Against the computer, your name alone.
    #[arg(long, global = true, value_name = "A,B", allow_negative_numbers = true)]
    pub names: Option<String>,

    /// Stop after N games instead of asking to play again.
    #[arg(long, global = true, value_parser = number::<u32>(1, None), value_name = "N",
          allow_negative_numbers = true)]
    pub games: Option<u32>,

    /// Seed for the computer players' randomness: the same seed and input give the same
    /// session, but for players that think for a set time (--think).
    #[arg(long, global = true, value_name = "N", value_parser = number::<u64>(0, None),
          allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// The computer's level (see the game's help for its levels).
    #[arg(long, global = true, value_name = "LEVEL")]
    pub level: Option<String>,

    /// Watching the computer play itself: the first game's levels of the
    /// first side and the second, like --levels cunning,overpowered (the
    /// fox's --fox-level and --hounds-level say the same).
    #[arg(long, global = true, value_name = "A,B", allow_negative_numbers = true)]
    pub levels: Option<String>,

    /// Against the computer: your side in the first game.
    #[arg(long, global = true, value_name = "SIDE")]
    pub side: Option<String>,

    /// Pause before each computer move, in milliseconds (at most 10000).
    /// Default: 700 in a terminal, 0 in a script.
    #[arg(long, global = true, value_name = "MS", value_parser = number::<u64>(0, Some(MAX_DELAY)),
          allow_negative_numbers = true)]
    pub delay: Option<u64>,

    /// Draughts and fish: how long the computer may think about a move, in
    /// milliseconds (also for analyse and hints).
    #[arg(long, global = true, value_name = "MS", default_value_t = 1000,
          value_parser = number::<u64>(1, Some(MAX_THINK)), allow_negative_numbers = true)]
    pub think: u64,
}

/// The commands besides playing Fox and Hounds' default flow.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Fox and Hounds: the coursework's flow (the default), and its other
    /// flows and tools.
    Fox {
        /// A flow or a tool; without one, the coursework's flow.
        #[command(subcommand)]
        flow: Option<FoxCommand>,
    },
    /// English draughts, after a C project: menu, names, a numbered game log;
    /// and its tools.
    #[command(after_help = draughts::AFTER_HELP)]
    Draughts {
        /// A tool instead of a game.
        #[command(subcommand)]
        tool: Option<DraughtsTool>,
    },
    /// "Hey, That's My Fish!", after a C assignment: one penguin each on 6x6.
    #[command(after_help = fish::AFTER_HELP)]
    Fish {
        /// A tool instead of a game.
        #[command(subcommand)]
        tool: Option<FishTool>,
    },
    /// List the finished games of every game, oldest first.
    History {
        /// With --pdn: the number of the one game to write.
        #[arg(value_name = "N",
              value_parser = number::<u64>(1, None), allow_negative_numbers = true)]
        number: Option<u64>,
    },
    /// Replay a finished game from the log, move by move.
    Replay {
        /// The game's number, as `tallyho history` lists it.
        #[arg(value_parser = number::<u64>(1, None), allow_negative_numbers = true)]
        number: u64,
    },
    /// Run a game server in the foreground: two people on two terminals,
    /// over ssh and a plain line port. Prints one line a door: `ssh ADDR`,
    /// `lines ADDR`.
    Serve(ServeArgs),
    /// Join a game server: `tallyho join HOST[:PORT]` through its line door
    /// (port 2323 unless given), or `tallyho join USER@HOST[:PORT]` through
    /// its ssh door (port 2222 unless given) with the system's ssh.
    Join {
        /// The server: [USER@]HOST[:PORT].
        #[arg(value_name = "[USER@]HOST[:PORT]")]
        target: String,
        /// From a script: how long to wait for the other player's move
        /// before leaving (exit status 6), or for the server's first word
        /// (status 1); default 600.
        #[arg(long, value_name = "SECONDS", value_parser = number::<u64>(1, None))]
        wait: Option<u64>,
    },
    /// The fox's flows and tools, also written without `fox`.
    #[command(flatten)]
    FoxForm(FoxCommand),
}

/// `tallyho serve`'s options.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The address to listen on. Anything but loopback opens the server to
    /// the network: the operator's explicit choice.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The ssh door's port; 0 lets the system choose; off closes it.
    #[arg(long, value_name = "N", default_value = "2222", value_parser = door_port,
          allow_negative_numbers = true)]
    pub ssh_port: Door,
    /// The line door's port; 0 lets the system choose; off closes it.
    #[arg(long, value_name = "N", default_value = "2323", value_parser = door_port,
          allow_negative_numbers = true)]
    pub line_port: Door,
    /// Where the server keeps its data [default: serve/ in the user's data
    /// directory].
    #[arg(long, value_name = "DIR")]
    pub data: Option<std::path::PathBuf>,
    /// Seconds a player who dropped may take to come back before the
    /// opponent may claim the win or adjourn.
    #[arg(long, value_name = "SECONDS", default_value = "120",
          value_parser = number::<u64>(1, Some(86_400)), allow_negative_numbers = true)]
    pub grace: u64,
}

/// A door's port, or closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Door(pub Option<u16>);

fn door_port(text: &str) -> Result<Door, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(Door(None));
    }
    text.parse::<u16>()
        .map(|p| Door(Some(p)))
        .map_err(|_| "a port is a number from 0 to 65535, or off".to_string())
}

impl Command {
    /// The fox's command, if this is one (`tallyho classic` or `tallyho fox classic`).
    pub fn fox(&self) -> Option<Option<&FoxCommand>> {
        match self {
            Command::Fox { flow } => Some(flow.as_ref()),
            Command::FoxForm(flow) => Some(Some(flow)),
            _ => None,
        }
    }
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
    let mut command = command();
    let matches = match command.try_get_matches_from_mut(args.iter()) {
        Ok(matches) => matches,
        Err(e) => {
            return Err(misplaced_number(&command, &args, &e)
                .or_else(|| stray_with_a_bad_value(&command, &args, &e))
                .unwrap_or_else(|| refusal(e)));
        }
    };
    let (path, leaf) = leaf(&matches);
    let globals = global_ids();
    let stray =
        given(leaf).find(|id| globals.iter().any(|g| g == id) && !allowed(&path).contains(id));
    if let Some(id) = stray {
        let shown = command_line(&path);
        let name = long_name(&command, id);
        // The chosen command's own usage line goes with the refusal.
        let e = subcommand(&command, &path).clone().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("{name} means nothing to `{shown}`; see `{shown} --help`"),
        );
        return Err(refusal(e));
    }
    let given_ids: Vec<&str> = given(leaf).collect();
    if let Some((id, needed, why)) = NEEDS
        .iter()
        .find(|(id, needed, _)| given_ids.contains(id) && !given_ids.contains(needed))
    {
        let e = subcommand(&command, &path).clone().error(
            clap::error::ErrorKind::MissingRequiredArgument,
            format!(
                "{} needs {}: {why}",
                long_name(&command, id),
                long_name(&command, needed)
            ),
        );
        return Err(refusal(e));
    }
    Cli::from_arg_matches(&matches).map_err(refusal)
}

/// Options that mean something only beside another (by clap id), and why.
/// Checked here rather than with clap's `requires`, which clap waives
/// whenever an option that conflicts with the needed one is given
/// (`--game 2 --opening 5`: --opening conflicts with --load).
const NEEDS: &[(&str, &str, &str)] = &[(
    "game",
    "load",
    "it picks which game of that PDN file to go on from",
)];

/// The command at `path`, for its own usage line.
fn subcommand<'a>(command: &'a clap::Command, path: &[&str]) -> &'a clap::Command {
    let mut here = command;
    for word in path {
        match here.find_subcommand(word) {
            Some(sub) => here = sub,
            None => break,
        }
    }
    here
}

/// `tallyho draughts --fox-level greedy`: clap checks the value before
/// tallyho can say that the option means nothing to the command. Say that,
/// whatever the value.
fn stray_with_a_bad_value(
    command: &clap::Command,
    args: &[OsString],
    e: &clap::Error,
) -> Option<Refusal> {
    use clap::error::ErrorKind::{InvalidValue, ValueValidation};
    if !matches!(e.kind(), InvalidValue | ValueValidation) {
        return None;
    }
    let Some(clap::error::ContextValue::String(arg)) = e.get(clap::error::ContextKind::InvalidArg)
    else {
        return None;
    };
    let long = arg.split_whitespace().next()?.strip_prefix("--")?;
    let id = command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))?
        .get_id()
        .to_string();
    // The command's words, as clap would have found them.
    let mut path = Vec::new();
    let mut here = command;
    for word in args.iter().skip(1).filter_map(|a| a.to_str()) {
        if let Some(sub) = here.find_subcommand(word) {
            path.push(sub.get_name());
            here = sub;
        }
    }
    if !global_ids().contains(&id) || allowed(&path).contains(&id.as_str()) {
        return None;
    }
    let shown = command_line(&path);
    let e = subcommand(command, &path).clone().error(
        clap::error::ErrorKind::ArgumentConflict,
        format!("--{long} means nothing to `{shown}`; see `{shown} --help`"),
    );
    Some(refusal(e))
}

/// `tallyho --pdn 3 history`: clap takes the 3 for a command. The number
/// belongs to `history`, after it; say so instead of "unrecognized
/// subcommand '3'".
fn misplaced_number(
    command: &clap::Command,
    args: &[OsString],
    e: &clap::Error,
) -> Option<Refusal> {
    if e.kind() != clap::error::ErrorKind::InvalidSubcommand {
        return None;
    }
    let Some(clap::error::ContextValue::String(word)) =
        e.get(clap::error::ContextKind::InvalidSubcommand)
    else {
        return None;
    };
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let at = args.iter().position(|a| a.to_str() == Some(word))?;
    let named = args[at + 1..]
        .iter()
        .find_map(|a| a.to_str().filter(|a| command.find_subcommand(a).is_some()))?;
    let before: Vec<&str> = args[1..at].iter().filter_map(|a| a.to_str()).collect();
    let put = [named]
        .into_iter()
        .chain(before)
        .chain([word.as_str()])
        .collect::<Vec<_>>()
        .join(" ");
    let e = command.clone().error(
        clap::error::ErrorKind::InvalidSubcommand,
        format!("a number goes after its command: `tallyho {put}`"),
    );
    Some(refusal(e))
}

/// The command clap parses with: every subcommand's help shows only the
/// options that command uses, though every option is global.
fn command() -> clap::Command {
    let mut command = Cli::command();
    command.build();
    hide_unused(&mut command, &mut Vec::new());
    command
}

fn hide_unused(command: &mut clap::Command, path: &mut Vec<String>) {
    let globals = global_ids();
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        path.push(name.clone());
        let shown: Vec<&str> = path.iter().map(String::as_str).collect();
        let keep = allowed(&shown);
        if let Some(sub) = command.find_subcommand_mut(&name) {
            // In place: a built command must keep its arguments' order.
            *sub = std::mem::take(sub).mut_args(|arg| {
                let id = arg.get_id().as_str();
                if globals.contains(&id.to_string()) && !keep.contains(&id) {
                    arg.hide(true)
                } else {
                    arg
                }
            });
            hide_unused(sub, path);
        }
        path.pop();
    }
}

/// The ids of the options, which are all global.
fn global_ids() -> Vec<String> {
    Cli::command()
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().to_string())
        .collect()
}

/// The chosen command's words (`["draughts", "perft"]`) and its matches.
fn leaf(matches: &ArgMatches) -> (Vec<&str>, &ArgMatches) {
    let mut path = Vec::new();
    let mut here = matches;
    while let Some((name, sub)) = here.subcommand() {
        path.push(name);
        here = sub;
    }
    (path, here)
}

/// The options given on the command line.
fn given(matches: &ArgMatches) -> impl Iterator<Item = &str> {
    matches
        .ids()
        .map(|id| id.as_str())
        .filter(|id| matches.value_source(id) == Some(ValueSource::CommandLine))
}

fn command_line(path: &[&str]) -> String {
    std::iter::once("tallyho")
        .chain(path.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

fn long_name(command: &clap::Command, id: &str) -> String {
    command
        .get_arguments()
        .find(|a| a.get_id() == id)
        .and_then(|a| a.get_long())
        .map_or_else(|| id.to_string(), |long| format!("--{long}"))
}

const LOOK: &[&str] = &["color", "no_clear"];
const LOG: &[&str] = &["history", "no_history"];
const PLAY: &[&str] = &[
    "players", "names", "games", "seed", "level", "levels", "side", "delay",
];
const FOX: &[&str] = &["board", "rules", "fox_start", "first"];
const WATCH: &[&str] = &["fox_level", "hounds_level"];

/// The options the command at `path` uses, by clap id.
fn allowed(path: &[&str]) -> Vec<&'static str> {
    let parts: &[&[&str]] = match path {
        [] | ["fox"] | ["capture"] | ["fox", "capture"] => &[FOX, WATCH, PLAY, LOOK, LOG],
        ["classic"] | ["fox", "classic"] => &[
            FOX,
            &["level", "games", "seed", "delay", "teletype", "baud"],
            LOOK,
            LOG,
        ],
        ["analyse"] | ["fox", "analyse"] => &[FOX, &["json", "color"]],
        ["draughts"] => &[
            &[
                "captures", "opening", "load", "game", "ascii", "flip", "think", "threads",
            ],
            PLAY,
            LOOK,
            LOG,
        ],
        ["draughts", "perft"] => &[&["captures"]],
        ["draughts", "analyse"] => &[&["captures", "think", "json", "ascii", "threads"]],
        ["draughts", "engine"] => &[&["captures", "threads", "seed", "no_book"]],
        ["draughts", "build-db"] => &[&["captures", "pieces"]],
        ["fish"] => &[&["board", "tiles", "penguins", "think"], PLAY, LOOK, LOG],
        ["fish", "analyse"] => &[&["think", "json", "color", "all"]],
        ["history"] => &[&["json", "pdn", "history"]],
        ["replay"] => &[&["step", "history"], LOOK],
        ["serve"] => &[],
        ["join"] => &[&["color"]],
        _ => &[],
    };
    parts.concat()
}

/// A whole number from `min` to `max` (no bound above for `None`), for an
/// option's value: refused in the words every value is, `write a number
/// from 1 to 4`.
pub(crate) fn number<T>(
    min: u64,
    max: Option<u64>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        let text = text.trim();
        let largest = max.unwrap_or(u64::MAX).min(largest::<T>());
        text.parse::<u64>()
            .ok()
            .filter(|n| (min..=largest).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| {
                // Digits past the largest value say so, not "1 or more"
                // (digits below the least do not: `0` for 1 or more).
                let too_large = !text.is_empty()
                    && text.bytes().all(|b| b.is_ascii_digit())
                    && text.parse::<u64>().map_or(true, |n| n > largest);
                if max.is_some() || too_large {
                    format!("write a number from {min} to {largest}")
                } else {
                    format!("write a whole number, {min} or more")
                }
            })
    }
}

/// The largest number a `T` holds (a `u64` at most).
fn largest<T: TryFrom<u64>>() -> u64 {
    if T::try_from(u64::MAX).is_ok() {
        return u64::MAX;
    }
    // `T` holds 0 and not u64::MAX: halve the gap between them.
    let (mut held, mut not) = (0u64, u64::MAX);
    while not - held > 1 {
        let mid = held + (not - held) / 2;
        if T::try_from(mid).is_ok() {
            held = mid;
        } else {
            not = mid;
        }
    }
    held
}

fn refusal(e: clap::Error) -> Refusal {
    let informational = !e.use_stderr();
    // One style for every refusal: the reason, without clap's pointer to
    // --help, which tallyho's own refusals do not carry either.
    let message = e
        .render()
        .to_string()
        .replace("\n\nFor more information, try '--help'.\n", "\n");
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
                    let safe = tallyho::shell::safe::text(word);
                    if safe.chars().count() > 80 {
                        // The sentence's own mark after the word stays:
                        // `aaaa…: File name too long`.
                        let body = safe.trim_end_matches([':', ',', ';', '.', ')', '"']);
                        let mark = &safe[body.len()..];
                        let kept: String = body.chars().take(60).collect();
                        format!("{kept}…{mark}")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_word_cut_keeps_the_mark_after_it() {
        let long = "a".repeat(300);
        let said = shorten(&format!("{long}: File name too long"));
        assert_eq!(said, format!("{}…: File name too long", "a".repeat(60)));
    }

    fn parsed(args: &[&str]) -> String {
        match parse(args.iter().map(OsString::from)) {
            Ok(cli) => format!("{cli:?}"),
            Err(r) => panic!("{args:?} was refused: {}", r.message),
        }
    }

    /// The message a command line is refused with.
    fn refused(args: &[&str]) -> String {
        match parse(args.iter().map(OsString::from)) {
            Ok(_) => panic!("{args:?} was accepted"),
            Err(r) => r.message,
        }
    }

    #[test]
    fn an_option_reads_the_same_before_or_after_its_command() {
        let pairs: [(&[&str], &[&str]); 5] = [
            (
                &["tallyho", "--board", "6x6", "analyse", "--json"],
                &["tallyho", "analyse", "--board", "6x6", "--json"],
            ),
            (
                &["tallyho", "--baud", "300", "classic"],
                &["tallyho", "classic", "--baud", "300"],
            ),
            (
                &[
                    "tallyho", "--think", "500", "draughts", "analyse", "B:W21:B1",
                ],
                &[
                    "tallyho", "draughts", "analyse", "--think", "500", "B:W21:B1",
                ],
            ),
            (
                &["tallyho", "--pdn", "history"],
                &["tallyho", "history", "--pdn"],
            ),
            (
                &["tallyho", "--json", "history"],
                &["tallyho", "history", "--json"],
            ),
        ];
        for (before, after) in pairs {
            assert_eq!(parsed(before), parsed(after), "{before:?}");
        }
        assert!(
            parsed(&["tallyho", "--names", "history", "--players", "2"]).contains("\"history\"")
        );
        assert!(
            parsed(&["tallyho", "--level", "classic", "--players", "0"]).contains("\"classic\"")
        );
        assert_eq!(
            parsed(&["tallyho", "--pdn", "history", "3"]),
            parsed(&["tallyho", "history", "--pdn", "3"])
        );
    }

    #[test]
    fn the_fox_commands_keep_their_old_forms() {
        assert_eq!(
            parsed(&["tallyho", "classic"]).replace("FoxForm(Classic)", "X"),
            parsed(&["tallyho", "fox", "classic"]).replace("Fox { flow: Some(Classic) }", "X")
        );
    }

    #[test]
    fn an_option_where_it_means_nothing_is_refused_by_name() {
        assert!(refused(&["tallyho", "--players", "2", "history"]).contains("--players"));
        assert!(
            refused(&["tallyho", "--pdn", "1", "history"])
                .contains("a number goes after its command: `tallyho history --pdn 1`")
        );
        assert!(refused(&["tallyho", "--pdn", "1"]).contains("unrecognized subcommand '1'"));
        assert!(refused(&["tallyho", "analyse", "--history", "x"]).contains("--history"));
        assert!(refused(&["tallyho", "fish", "--rules", "capture"]).contains("--rules"));
        assert!(parse(["tallyho", "--board", "6x6", "analyse"].map(OsString::from)).is_ok());
        let long = "x".repeat(100_000);
        let message = refused(&["tallyho", "--board", &long]);
        assert!(message.len() < 400, "{message}");
    }

    #[test]
    fn a_number_too_large_or_below_zero_is_refused_with_its_range() {
        let huge = "99999999999999999999";
        for (args, said) in [
            (
                vec!["tallyho", "--games", huge],
                "write a number from 1 to 4294967295",
            ),
            (vec!["tallyho", "replay", huge], "write a number from 1 to"),
            (
                vec!["tallyho", "--seed", "18446744073709551616"],
                "write a number from 0 to 18446744073709551615",
            ),
            (
                vec!["tallyho", "--seed", "-5"],
                "write a whole number, 0 or more",
            ),
            (
                vec!["tallyho", "--players", "-1"],
                "write a number from 0 to 2",
            ),
            (
                vec!["tallyho", "--delay", "-1"],
                "write a number from 0 to 10000",
            ),
            (
                vec!["tallyho", "fish", "--think", "-1"],
                "write a number from 1 to 600000",
            ),
            (
                vec!["tallyho", "--games", "x"],
                "write a whole number, 1 or more",
            ),
        ] {
            let message = refused(&args);
            assert!(message.contains(said), "{args:?}: {message}");
        }
        assert!(
            parsed(&["tallyho", "--seed", "18446744073709551615"]).contains("18446744073709551615")
        );
        assert_eq!(super::largest::<u8>(), 255);
        assert_eq!(super::largest::<u32>(), u64::from(u32::MAX));
        assert_eq!(super::largest::<u64>(), u64::MAX);
    }

    #[test]
    fn help_names_every_game_and_hides_what_a_command_does_not_use() {
        let help = command().render_help().to_string();
        // The first paragraph, wrapped to the width help is shown at.
        let first = help
            .lines()
            .take_while(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        for game in ["Fox and Hounds", "draughts", "Fish"] {
            assert!(first.contains(game), "{first}");
        }
        let fish = command()
            .find_subcommand_mut("fish")
            .map(|c| c.render_help().to_string())
            .unwrap_or_default();
        assert!(fish.contains("--penguins"), "{fish}");
        assert!(!fish.contains("--fox-start"), "{fish}");
    }
}
