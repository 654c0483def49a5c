//! tallyho: classic console board games in one cabinet, after a 1978 BASIC
//! program and a handful of school projects.
//!
//! A pure core with a thin shell:
//! - [`games`]: each game's rules, notation and computer players, one
//!   folder per game, and the seams ([`games::Rules`], [`games::Computer`])
//!   every game offers. Nothing there prints, reads or looks at the clock.
//! - [`engines`]: the computer players as a process runs them: databases
//!   shared between players and built on threads of their own, kept on
//!   disk, and the line protocol other programs speak to an engine.
//! - [`faces`]: what each game says and draws: boards, sentences, help.
//! - [`flows`]: a conversation a game brings whole (the 1978 program's).
//! - [`shell`]: everything between a person and a game, knowing no rules:
//!   the line reader, questions, matches, the game log, replays, signals.
//! - [`server`]: `tallyho serve`, the shell over the network: doors, lobby,
//!   games in progress, the store.
//!
//! The command line and what each command does live in the binary
//! (`src/cli/`, `src/commands/`): they are not library API.

pub mod cabinet;
pub mod engines;
pub mod faces;
pub mod flows;
pub mod games;
#[cfg(test)]
mod scratch;
pub mod server;
pub mod shell;
