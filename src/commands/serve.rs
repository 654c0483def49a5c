//! `tallyho serve`: runs the game server in the foreground until Ctrl-C or
//! SIGTERM.

use std::io::Write;
use std::time::Duration;

use super::{AppError, Ending};
use crate::cli::ServeArgs;
use tallyho::server::{self, Config, limits::Limits};

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
    let running = server::start(config)
        .map_err(|e| AppError::Failed(format!("cannot start the server: {e}")))?;
    let mut out = std::io::stdout().lock();
    if let Some(addr) = running.ssh {
        writeln!(out, "ssh {addr}")?;
    }
    if let Some(addr) = running.lines {
        writeln!(out, "lines {addr}")?;
    }
    out.flush()?;
    drop(out);
    let stop = running.server().shutdown().clone();
    let signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ]);
    if let Ok(mut signals) = signals {
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                stop.cancel();
            }
        });
    }
    running.wait();
    Ok(Ending::Clean)
}
