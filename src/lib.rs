//! tallyho: classic console board games in one cabinet, after a 1978 BASIC
//! program and a handful of school projects.
//!
//! A pure core with a thin shell:
//! - [`games`]: each game's rules, notation and computer players, one
//!   folder per game, and the seams ([`games::Rules`], [`games::Computer`])
//!   every game offers. Nothing there prints, reads or looks at the clock.
//! - [`faces`]: what each game says and draws: boards, sentences, help.
//! - [`shell`]: everything between a person and a game, knowing no rules:
//!   the line reader, questions, matches, the game log, replays, signals.
//! - [`cli`] and [`app`]: the command line and what it runs.

pub mod app;
pub mod cli;
pub mod faces;
pub mod games;
pub mod shell;
