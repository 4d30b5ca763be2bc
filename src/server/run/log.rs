//! The server's log: one line per event, appended to `<home>/log/yinsh-pbem.log`
//! (never stderr: mail systems treat stderr as failure). Lines never hold a password:
//! callers pass command lines through `command::redact::loggable`.

use std::io::Write;
use std::path::{Path, PathBuf};

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

    /// Append one line `<unix time> [pid] <text>`; a failure to log is ignored (the
    /// mail is still handled).
    pub fn line(&self, now: u64, text: &str) {
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if let Ok(mut f) = std::fs::OpenOptions::new()
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

    /// Log `line` and add it to the report.
    pub fn note(&self, now: u64, report: &mut Report, line: String) {
        self.line(now, &line);
        report.lines.push(line);
    }
}
