//! The `tallyho` binary: reads the command line, runs the command, and maps
//! the outcome to an exit status. The command line (`cli`) and what each
//! command does (`commands`) live here, not in the library.

use std::io::{self, Write};
use std::process::ExitCode;

mod cli;
mod commands;
#[cfg(test)]
#[path = "scratch.rs"]
mod scratch;

use commands::AppError;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(refusal) if refusal.informational => {
            // Help nobody can read is a failure: `--help >/dev/full`.
            let mut out = tallyho::shell::console::stdout();
            return match out
                .write_all(refusal.message.as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = writeln!(io::stderr(), "error: {}", cli::shorten(&e.to_string()));
                    ExitCode::from(1)
                }
            };
        }
        Err(refusal) => {
            let _ = io::stderr().write_all(refusal.message.as_bytes());
            return ExitCode::from(2);
        }
    };
    let result = commands::run(cli);
    // A signal that arrived meanwhile ends the process with its own status.
    tallyho::shell::signals::hold_if_leaving();
    match result {
        Ok(ending) => ExitCode::from(ending.status()),
        // The reader went away (`tallyho history | head -1`): nothing left to say.
        Err(AppError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // One style for every error, clap's: `error: …`. The message may
            // quote an argument: escaped, and long words cut.
            tallyho::shell::console::error_line(&format!(
                "error: {}",
                cli::shorten(&e.to_string())
            ));
            ExitCode::from(e.status())
        }
    }
}
