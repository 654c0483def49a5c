//! `tallyho serve`: runs the game server in the foreground until Ctrl-C,
//! SIGTERM, SIGHUP or SIGQUIT; a second signal ends it at once.

use std::io::{IsTerminal, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use super::{AppError, Ending};
use crate::cli::ServeArgs;
use tallyho::server::{self, Config, limits::Limits};
use tallyho::shell::{console::error_line, log::warn, safe};

/// Runs the server.
pub fn run(args: &ServeArgs) -> Result<Ending, AppError> {
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => directories::ProjectDirs::from("", "", "tallyho")
            .map(|d| d.data_dir().join("serve"))
            .ok_or_else(|| {
                AppError::Failed("no home directory is known: give --data DIR".into())
            })?,
    };
    let config = Config {
        bind: args.bind,
        ssh_port: args.ssh_port.0,
        line_port: args.line_port.0,
        data,
        limits: Limits::default(),
        rules: server::Rules {
            grace: Duration::from_secs(args.grace),
            ..server::Rules::default()
        },
    };
    if config.ssh_port.is_none() && config.line_port.is_none() {
        return Err(AppError::Usage(
            "both doors are off: give --ssh-port or --line-port a port".into(),
        ));
    }
    warn_if_open(&config.data);
    // Caught from before the doors open: a signal sent as soon as a door
    // answers is queued here, not taken by its default action, which would
    // kill the server without adjourning a game. A hang-up (the terminal the
    // server ran in has gone) and Ctrl-\ stop it as SIGTERM does.
    let signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGQUIT,
    ]);
    let running = server::start(config)
        .map_err(|e| AppError::Failed(format!("cannot start the server: {e}")))?;
    let mut out = tallyho::shell::console::stdout();
    if let Some(addr) = running.ssh {
        writeln!(out, "ssh {addr}")?;
    }
    if let Some(addr) = running.lines {
        writeln!(out, "lines {addr}")?;
    }
    out.flush()?;
    if let Some(report) = running.server().recovered().report() {
        error_line(&format!("tallyho serve: {report}."));
    }
    let stop = running.server().shutdown().clone();
    if let Ok(mut signals) = signals {
        std::thread::spawn(move || {
            let mut signals = signals.forever();
            // Ctrl-C's `^C` (or Ctrl-\'s `^\`) is on the operator's line:
            // the words go below it.
            let below_the_key = |signal| {
                let keyed = [signal_hook::consts::SIGINT, signal_hook::consts::SIGQUIT];
                if keyed.contains(&signal) && std::io::stderr().is_terminal() {
                    let _ = writeln!(std::io::stderr());
                }
            };
            if let Some(signal) = signals.next() {
                below_the_key(signal);
                stop.cancel();
            }
            // A second signal does not wait for the players' farewells. Every
            // move is on disk already: the games come back adjourned at the
            // next start, as after a crash.
            if let Some(signal) = signals.next() {
                below_the_key(signal);
                error_line(
                    "tallyho serve: stopped at once by a second signal; the games in progress are brought back at the next start, as after a crash.",
                );
                std::process::exit(128 + signal);
            }
        });
    }
    let adjourned = running.wait();
    error_line(&format!("tallyho serve: shutting down: {adjourned}."));
    Ok(Ending::Clean)
}

/// Warns when others may write in the data folder: they could replace the
/// database, the host key or the log. The folder is used all the same.
fn warn_if_open(data: &Path) {
    let Ok(meta) = std::fs::metadata(data) else {
        return;
    };
    let mode = meta.permissions().mode() & 0o7777;
    if meta.is_dir() && mode & 0o002 != 0 {
        let shown = safe::text(&data.display().to_string());
        warn(&format!(
            "anyone may write in the data folder {shown} (mode {mode:o}), and so replace its accounts, games and host key; run: chmod 700 {shown}"
        ));
    }
}
