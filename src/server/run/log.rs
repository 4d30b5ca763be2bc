//! The server's log: one line per event, appended to `<home>/log/yinsh-pbem.log`
//! (never stderr: mail systems treat stderr as failure). Lines never hold a password:
//! callers pass command lines through `command::redact::loggable`. Every line is
//! written through `mail::hidden::log_line`: whatever a mail put in it (a
//! Message-ID, an address, a word of a Subject) is escaped (`\u{202e}`) and cut after
//! 200 characters with a mark, wherever the caller placed it.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::durable::{Readers, create_dir};
use crate::mail::hidden::log_line;
use crate::server::store::log_file;
use crate::server::text::dates::format_date;

use super::report::Report;

/// An append-only log file.
#[derive(Debug, Clone)]
pub struct Log {
    path: PathBuf,
}

impl Log {
    /// The log in `<home>/log/`.
    pub fn in_home(home: &Path) -> Log {
        Log {
            path: log_file(home),
        }
    }

    /// Append one line `<unix time> [pid] <text>`, `text` escaped and cut by
    /// `log_line`; a failure to log is ignored (the mail is still handled).
    pub fn line(&self, now: u64, text: &str) {
        if let Some(dir) = self.path.parent() {
            let _ = create_dir(dir, Readers::Everyone);
        }
        let clean = log_line(text);
        // The log names addresses and message ids: the server's user's alone.
        if let Ok(mut f) = Readers::Owner
            .options()
            .create(true)
            .append(true)
            .open(&self.path)
        {
            // One write per line: appends of concurrent processes never interleave.
            let line = format!(
                "{} {} [{}] {}\n",
                now,
                format_date(now),
                std::process::id(),
                clean
            );
            let _ = f.write_all(line.as_bytes());
        }
    }

    /// Log `line` and add it to the report (which `--verbose` prints escaped and cut
    /// the same way).
    pub fn note(&self, now: u64, report: &mut Report, line: String) {
        self.line(now, &line);
        report.lines.push(line);
    }
}
