//! `yinsh-pbem backup FILE` and `yinsh-pbem restore FILE` (`server::run::backup`):
//! exit 0 with one line on stdout, or 1 with the reason on stderr.

use std::path::Path;
use std::process::ExitCode;

use crate::server::config::{self, Overrides};
use crate::server::run::backup::{self, Archived, BackupError};

/// `yinsh-pbem backup FILE`: the store, under its lock, into the archive FILE.
pub fn backup(opts: Overrides, file: &Path) -> ExitCode {
    run(&opts, |settings| {
        let done = backup::backup(settings, file)?;
        Ok(format!(
            "backed up {} into {}: {}",
            settings.home.display(),
            file.display(),
            counts(done)
        ))
    })
}

/// `yinsh-pbem restore FILE`: the archive FILE unpacked into the (missing or empty)
/// home.
pub fn restore(opts: Overrides, file: &Path) -> ExitCode {
    run(&opts, |settings| {
        let done = backup::restore(&settings.home, file)?;
        Ok(format!(
            "restored {} from {}: {}",
            settings.home.display(),
            file.display(),
            counts(done)
        ))
    })
}

fn counts(done: Archived) -> String {
    format!("{} files, {} bytes", done.files, done.bytes)
}

fn run(
    opts: &Overrides,
    work: impl FnOnce(&crate::server::Settings) -> Result<String, BackupError>,
) -> ExitCode {
    let settings = match config::resolve(opts) {
        Ok(r) => r.settings,
        Err(e) => {
            eprintln!("error: configuration: {e}");
            return ExitCode::from(1);
        }
    };
    match work(&settings) {
        Ok(line) => {
            outln!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
