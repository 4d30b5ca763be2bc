//! `yinsh-pbem deliver` and `flush`: the mail-system side of the command line. Exit 0
//! when the mail was handled (player mistakes included: they are answered by mail),
//! 75 (EX_TEMPFAIL) for internal failures and panics, so the mail system keeps the
//! mail and retries. Nothing is written to stderr: mail systems treat it as failure.

use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::mail::Transport;
use crate::server::deliver::{self, Report, Settings};
use crate::server::log::Log;

/// EX_TEMPFAIL from sysexits.h.
pub const EX_TEMPFAIL: u8 = 75;

/// Read the mail on stdin: keep at most `max + 1` bytes (enough to see that it is too
/// big), read and drop the rest so that the mail system's pipe is drained, and return
/// the kept bytes with the whole size.
fn read_mail(max: usize) -> std::io::Result<(Vec<u8>, usize)> {
    let mut stdin = std::io::stdin().lock();
    let mut raw = Vec::new();
    (&mut stdin).take(max as u64 + 1).read_to_end(&mut raw)?;
    let rest = std::io::copy(&mut stdin, &mut std::io::sink())?;
    let total = raw.len() + rest as usize;
    Ok((raw, total))
}

/// Server options from the command line and environment.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Home folder.
    pub home: PathBuf,
    /// From of replies.
    pub from: String,
    /// SMTP URL.
    pub smtp: Option<String>,
    /// sendmail program.
    pub sendmail: Option<PathBuf>,
    /// Outbox folder.
    pub outbox: Option<PathBuf>,
}

impl ServerOptions {
    /// The settings these options give. `YINSH_PBEM_NOW` (unix seconds) fixes the
    /// clock, for tests.
    pub fn settings(&self) -> Settings {
        let mut s = Settings::defaults(self.home.clone());
        s.from = self.from.clone();
        if let Some(url) = &self.smtp {
            s.transport = Transport::Smtp(url.clone());
        } else if let Some(path) = &self.sendmail {
            s.transport = Transport::Sendmail(path.clone());
        } else if let Some(dir) = &self.outbox {
            s.transport = Transport::Outbox(dir.clone());
        }
        s.now = std::env::var("YINSH_PBEM_NOW").ok().and_then(|v| v.parse().ok());
        s
    }
}

/// Run `f`, turning a panic into a logged internal failure.
fn guarded(home: &std::path::Path, f: impl FnOnce() -> Result<Report, String>) -> Result<Report, String> {
    let log = Log::in_home(home);
    let hook_log = log.clone();
    std::panic::set_hook(Box::new(move |info| {
        hook_log.line(0, &format!("panic: {info}"));
    }));
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err("internal error (panic); see the log".to_string()),
    }
}

fn finish(settings: &Settings, result: Result<Report, String>, verbose: bool) -> ExitCode {
    match result {
        Ok(report) => {
            if verbose {
                for l in &report.lines {
                    println!("{l}");
                }
                match &settings.transport {
                    Transport::Outbox(dir) => println!(
                        "{} replies spooled, {} written to {}",
                        report.spooled,
                        report.sent,
                        dir.display()
                    ),
                    _ => println!("{} replies spooled, {} sent, {} left in the spool", report.spooled, report.sent, report.failed),
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            Log::in_home(&settings.home).line(settings.now(), &format!("internal failure, exit 75: {e}"));
            if verbose {
                println!("internal failure: {e}");
            }
            ExitCode::from(EX_TEMPFAIL)
        }
    }
}

/// `yinsh-pbem deliver`: read one mail on stdin and handle it.
pub fn deliver(opts: ServerOptions, sender: Option<&str>, verbose: bool) -> ExitCode {
    let settings = opts.settings();
    let result = guarded(&settings.home, || {
        let (raw, total) = read_mail(settings.max_message_bytes).map_err(|e| format!("reading stdin: {e}"))?;
        deliver::deliver(&raw, total, sender, &settings).map_err(|e| e.to_string())
    });
    finish(&settings, result, verbose)
}

/// `yinsh-pbem flush`: send what waits in the spool.
pub fn flush(opts: ServerOptions, verbose: bool) -> ExitCode {
    let settings = opts.settings();
    let result = guarded(&settings.home, || {
        let mut report = Report::default();
        deliver::flush(&settings, &mut report).map_err(|e| e.to_string())?;
        Ok(report)
    });
    finish(&settings, result, verbose)
}
