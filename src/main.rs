use std::io::{self, Write};
use std::process::ExitCode;

use tallyho::app::{self, AppError};
use tallyho::cli;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(refusal) if refusal.informational => {
            // Help nobody can read is a failure: `--help >/dev/full`.
            let mut out = io::stdout().lock();
            return match out
                .write_all(refusal.message.as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    // The message may quote an argument: escaped, and long words cut.
                    let _ = writeln!(io::stderr(), "tallyho: {}", cli::shorten(&e.to_string()));
                    ExitCode::from(1)
                }
            };
        }
        Err(refusal) => {
            let _ = io::stderr().write_all(refusal.message.as_bytes());
            return ExitCode::from(2);
        }
    };
    match app::run(cli) {
        Ok(ending) => ExitCode::from(ending.status()),
        // The reader went away (`tallyho history | head -1`): nothing left to say.
        Err(AppError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // The message may quote an argument: escaped, and long words cut.
            let _ = writeln!(io::stderr(), "tallyho: {}", cli::shorten(&e.to_string()));
            ExitCode::from(match e {
                AppError::Usage(_) => 2,
                AppError::Io(_) | AppError::Failed(_) => 1,
            })
        }
    }
}
