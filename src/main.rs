use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use tallyho::app::{self, AppError};
use tallyho::cli::Cli;

fn main() -> ExitCode {
    match app::run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`tallyho history | head -1`): nothing left to say.
        Err(AppError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "tallyho: {e}");
            ExitCode::from(match e {
                AppError::Usage(_) => 2,
                AppError::Io(_) => 1,
            })
        }
    }
}
