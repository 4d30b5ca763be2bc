//! `yinsh-pbem deliver` and `flush`: the mail-system side of the command line. Exit 0
//! when the mail was handled (player mistakes included: they are answered by mail),
//! 75 (EX_TEMPFAIL) for internal failures and panics, so the mail system keeps the
//! mail and retries. `deliver` writes nothing to stderr (mail systems bounce what it
//! prints); a failing `flush`, `tick` or `reindex` says why on stderr as well as in
//! the log, with a level (`<3>` where stderr is the journal's, else `error: `), so
//! `journalctl -u yinsh-pbem-flush` shows the reason. Each run adds to the counters
//! of `status` (`server::run::counters`).
//!
//! The binary runs them with the process's environment and a panic hook of its own
//! ([`Host::process`]); the integration tests run the same functions
//! ([`deliver_in`], [`flush_in`], `tick_in`) on their own threads, with their own
//! environment and no process-wide hook ([`Host`] with [`Panics::Caught`]).

use std::ffi::OsString;
use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::mail::Transport;
use crate::server::check;
use crate::server::config::{self, Env, Overrides};
use crate::server::exec::InternalError;
use crate::server::run::counters::{self, Counted, Outcome};
use crate::server::run::deliver as run_deliver;
use crate::server::run::dry_run::{Change, dry_run};
use crate::server::run::log::Log;
use crate::server::{Report, Settings};

/// EX_TEMPFAIL from sysexits.h.
pub const EX_TEMPFAIL: u8 = 75;

/// Why a run of `deliver`, `flush` or `tick` failed: logged, exit 75.
#[derive(Debug, thiserror::Error)]
pub enum RunFailure {
    /// The mail could not be read from stdin.
    #[error("reading stdin: {0}")]
    Stdin(#[source] std::io::Error),
    /// Disk, mail or a stored game that does not replay.
    #[error(transparent)]
    Internal(#[from] InternalError),
    /// The run panicked (the panic itself is in the log).
    #[error("internal error (panic); see the log")]
    Panic,
}

/// What a run of `deliver`, `flush` or `tick` takes from the process around it: the
/// environment variables it reads, and how its panics are logged.
///
/// ```
/// use std::ffi::OsString;
/// use yinsh_pbem::cli::{Host, Panics};
///
/// // A run at the clock 1000 that reads no other variable and installs no hook.
/// let env = |name: &str| (name == "YINSH_PBEM_NOW").then(|| OsString::from("1000"));
/// let _host = Host { env: &env, panics: Panics::Caught };
/// ```
pub struct Host<'a> {
    /// The environment variables (`config::resolve_with`).
    pub env: Env<'a>,
    /// How a panic is logged.
    pub panics: Panics,
}

impl Host<'static> {
    /// The process itself: its environment, and a panic hook installed for the run
    /// (the binary runs one command and exits).
    pub fn process() -> Host<'static> {
        Host {
            env: &|name| std::env::var_os(name),
            panics: Panics::Hook,
        }
    }
}

/// How a run's panic is logged before it exits 75.
#[derive(Debug, Clone, Copy)]
pub enum Panics {
    /// A panic hook, installed for the whole process, logs the message and where the
    /// panic happened (and nothing reaches stderr): a process that runs one command.
    Hook,
    /// The panic is caught and its message logged after unwinding; no process-wide
    /// hook is installed: a run among other work of its process (the tests' threads,
    /// whose own panics must reach the test harness).
    Caught,
}

/// Read the mail from `input` (stdin): keep at most `max + 1` bytes (enough to see
/// that it is too big), read and drop the rest so that the mail system's pipe is
/// drained, and return the kept bytes with the whole size.
fn read_mail(mut input: impl Read, max: usize) -> std::io::Result<(Vec<u8>, usize)> {
    let mut raw = Vec::new();
    (&mut input).take(max as u64 + 1).read_to_end(&mut raw)?;
    let rest = std::io::copy(&mut input, &mut std::io::sink())?;
    let total = raw.len() + rest as usize;
    Ok((raw, total))
}

/// Run `f`, turning a panic into a logged internal failure.
pub(super) fn guarded(
    home: &std::path::Path,
    panics: Panics,
    f: impl FnOnce() -> Result<Report, RunFailure>,
) -> Result<Report, RunFailure> {
    let log = Log::in_home(home);
    if let Panics::Hook = panics {
        let hook_log = log.clone();
        std::panic::set_hook(Box::new(move |info| {
            hook_log.line(0, &format!("panic: {info}"));
        }));
    }
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            if let Panics::Caught = panics {
                let message = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("(no message)");
                log.line(0, &format!("panic: {message}"));
            }
            Err(RunFailure::Panic)
        }
    }
}

/// The entry point a run came in by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    Deliver,
    Flush,
    Tick,
    /// A command an operator runs (reindex, rotate-reply-key).
    Operator,
}

impl Entry {
    /// The counters it adds to.
    fn counted(self) -> Option<Counted> {
        match self {
            Entry::Deliver => Some(Counted::Deliver),
            Entry::Flush => Some(Counted::Flush),
            Entry::Tick => Some(Counted::Tick),
            Entry::Operator => None,
        }
    }

    /// Says a failure on stderr, at the level `error`: not `deliver` (its mail
    /// system would bounce the mail with what it printed).
    pub(super) fn say_failure(self, host: &Host<'_>, text: &str) {
        if self == Entry::Deliver {
            return;
        }
        // systemd sets JOURNAL_STREAM when stderr is the journal's, which reads a
        // syslog level from a leading `<3>`.
        let level = if (host.env)("JOURNAL_STREAM").is_some() {
            "<3>"
        } else {
            "error: "
        };
        eprintln!("{level}{text}");
    }
}

pub(super) fn finish(
    host: &Host<'_>,
    entry: Entry,
    settings: &Settings,
    result: Result<Report, RunFailure>,
    verbose: bool,
) -> ExitCode {
    if let Some(run) = entry.counted() {
        let outcome = match &result {
            Ok(report) => Outcome::Done(report),
            Err(_) => Outcome::Failed,
        };
        counters::add(settings, run, outcome);
    }
    match result {
        Ok(report) => {
            if verbose {
                for l in report.lines.iter().chain(&report.checked) {
                    outln!("{}", crate::mail::hidden::log_line(l));
                }
                match &settings.transport {
                    Transport::Outbox(dir) => outln!(
                        "{} replies spooled, {} written to {}",
                        report.spooled,
                        report.sent,
                        dir.display()
                    ),
                    _ => outln!(
                        "{} replies spooled, {} sent, {} left in the spool",
                        report.spooled,
                        report.sent,
                        report.failed
                    ),
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let line = format!("internal failure, exit 75: {e}");
            Log::in_home(&settings.home).line(settings.now(), &line);
            entry.say_failure(host, &line);
            if verbose {
                outln!("internal failure: {e}");
            }
            ExitCode::from(EX_TEMPFAIL)
        }
    }
}

/// `yinsh-pbem deliver`: read one mail on stdin and handle it.
pub fn deliver(opts: Overrides, sender: Option<&str>, verbose: bool) -> ExitCode {
    deliver_in(
        &Host::process(),
        &opts,
        std::io::stdin().lock(),
        sender,
        verbose,
    )
}

/// [`deliver`] in `host`, the mail read from `input`.
pub fn deliver_in(
    host: &Host<'_>,
    opts: &Overrides,
    input: impl Read,
    sender: Option<&str>,
    verbose: bool,
) -> ExitCode {
    let Some(settings) = settings_or_log(host, Entry::Deliver, opts, verbose) else {
        return ExitCode::from(EX_TEMPFAIL);
    };
    let result = guarded(&settings.home, host.panics, || {
        let (raw, total) =
            read_mail(input, settings.max_message_bytes).map_err(RunFailure::Stdin)?;
        Ok(run_deliver::deliver(&raw, total, sender, &settings)?)
    });
    finish(host, Entry::Deliver, &settings, result, verbose)
}

/// `yinsh-pbem deliver --dry-run`: what the mail on stdin would be answered and
/// would change, printed on stdout; nothing written (`server::run::dry_run`). Exit
/// 0, or 75 when the dry run itself failed (the reason on stderr).
pub fn deliver_dry_run(opts: Overrides, sender: Option<&str>) -> ExitCode {
    let host = Host::process();
    let settings = match config::resolve_with(&opts, host.env) {
        Ok(r) => r.settings,
        Err(e) => {
            eprintln!("error: configuration: {e}");
            return ExitCode::from(EX_TEMPFAIL);
        }
    };
    let ran = read_mail(std::io::stdin().lock(), settings.max_message_bytes)
        .map_err(|e| e.to_string())
        .and_then(|(raw, total)| {
            dry_run(&raw, total, sender, &settings).map_err(|e| e.to_string())
        });
    let done = match ran {
        Ok(done) => done,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EX_TEMPFAIL);
        }
    };
    let mut out = format!(
        "dry run: nothing was written to {}\n",
        settings.home.display()
    );
    for l in &done.report.lines {
        out.push_str(&format!("{}\n", crate::mail::hidden::log_line(l)));
    }
    for r in &done.replies {
        out.push_str(&format!("would send to {}: {}\n", r.to, r.subject));
        for l in r.body.lines() {
            out.push_str(&format!("    | {l}\n"));
        }
    }
    for c in &done.changes {
        let (what, path) = match c {
            Change::Added(p) => ("add", p),
            Change::Changed(p) => ("change", p),
            Change::Removed(p) => ("remove", p),
        };
        out.push_str(&format!("would {what}: {}\n", path.display()));
    }
    out!("{out}");
    ExitCode::SUCCESS
}

/// Whether the command line runs `deliver` (its first argument after the program).
pub fn is_deliver(mut args: impl Iterator<Item = OsString>) -> bool {
    args.nth(1).is_some_and(|a| a == "deliver")
}

/// A usage error in `deliver`'s own arguments (the mail system's pipe line is wrong):
/// on stderr, and logged in the home named by `--home` (else `YINSH_PBEM_HOME`, else
/// the `home` of the config file named by `--config` or `YINSH_PBEM_CONFIG`) when
/// that folder exists; exit 75 so that the mail system keeps the mail until the
/// operator fixes the line (any other code bounces it to the player). No file or
/// folder is made: a wrong line run in any folder leaves it as it was.
pub fn deliver_usage_error(args: impl Iterator<Item = OsString>, message: &str) -> ExitCode {
    let args: Vec<OsString> = args.collect();
    let env = |name: &str| std::env::var_os(name).map(PathBuf::from);
    let config_home = || {
        let file = named_arg(&args, "--config").or_else(|| env("YINSH_PBEM_CONFIG"))?;
        config::read_config(&file).ok()?.home
    };
    let home = named_arg(&args, "--home")
        .or_else(|| env("YINSH_PBEM_HOME"))
        .or_else(config_home);
    if let Some(home) = home.filter(|h| h.is_dir()) {
        let first = message.lines().next().unwrap_or("").trim();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Log::in_home(&home).line(
            now,
            &format!(
                "deliver's arguments are wrong, exit 75 (fix the mail system's pipe line): {first}"
            ),
        );
    }
    eprint!("{message}");
    ExitCode::from(EX_TEMPFAIL)
}

/// The value of `--name VALUE` or `--name=VALUE` in `args`.
fn named_arg(args: &[OsString], name: &str) -> Option<PathBuf> {
    args.iter().enumerate().find_map(|(i, a)| {
        let a = a.to_str()?;
        match a.strip_prefix(name)?.strip_prefix('=') {
            Some(v) => Some(PathBuf::from(v)),
            None if a == name => args.get(i + 1).map(PathBuf::from),
            None => None,
        }
    })
}

/// Why `--smtp URL` is refused (the URL itself is not repeated).
#[derive(Debug, thiserror::Error)]
#[error(
    "--smtp: the URL holds a password, which every user of this machine can read on the \
     command line (ps): write smtp://{user}@host... and put the password in a file named \
     by --smtp-password-file, or the whole URL in the config file's [transport] url"
)]
pub struct SmtpArgError {
    /// The URL's user.
    user: String,
}

/// clap's parser of `--smtp`: the URL as given, refused when it holds a password
/// (with an error that does not quote the URL, unlike clap's "invalid value").
#[derive(Debug, Clone, Copy)]
pub struct SmtpUrlArgument;

impl clap::builder::TypedValueParser for SmtpUrlArgument {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let text = value.to_str().ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidUtf8,
                "--smtp: the URL is not UTF-8\n",
            )
        })?;
        match url::Url::parse(text) {
            Ok(u) if u.password().is_some() => {
                let e = SmtpArgError {
                    user: u.username().to_string(),
                };
                Err(clap::Error::raw(
                    clap::error::ErrorKind::ValueValidation,
                    format!("{e}\n"),
                ))
            }
            _ => Ok(text.to_string()),
        }
    }
}

/// `yinsh-pbem flush`: send what waits in the spool.
pub fn flush(opts: Overrides, verbose: bool) -> ExitCode {
    flush_in(&Host::process(), &opts, verbose)
}

/// [`flush`] in `host`.
pub fn flush_in(host: &Host<'_>, opts: &Overrides, verbose: bool) -> ExitCode {
    let Some(settings) = settings_or_log(host, Entry::Flush, opts, verbose) else {
        return ExitCode::from(EX_TEMPFAIL);
    };
    let result = guarded(&settings.home, host.panics, || {
        let mut report = Report::default();
        crate::server::run::flush(&settings, &mut report)?;
        Ok(report)
    });
    finish(host, Entry::Flush, &settings, result, verbose)
}

/// The settings, or `None` after logging why the configuration is unusable (the mail
/// is then kept by the mail system: exit 75).
pub(super) fn settings_or_log(
    host: &Host<'_>,
    entry: Entry,
    opts: &Overrides,
    verbose: bool,
) -> Option<Settings> {
    match config::resolve_with(opts, host.env) {
        Ok(r) => Some(r.settings),
        Err(e) => {
            let home = opts.home.clone().unwrap_or_else(|| "games".into());
            let line = format!("configuration error, exit 75: {e}");
            Log::in_home(&home).line(0, &line);
            entry.say_failure(host, &line);
            if verbose {
                outln!("configuration error: {e}");
            }
            None
        }
    }
}

/// `yinsh-pbem check-config`: print the settings in use and every problem (with
/// `test_smtp`, a failed login to the SMTP relay too); exit 0 when there is none, 1
/// otherwise.
pub fn check_config(opts: Overrides, test_smtp: bool) -> ExitCode {
    match config::resolve(&opts) {
        Ok(r) => {
            out!("{}", check::describe(&r));
            let mut problems = check::problems(&r.settings);
            if test_smtp {
                match check::test_smtp_login(&r.settings) {
                    Ok(done) => outln!("smtp login test:    {done}"),
                    Err(e) => problems.push(format!("smtp login test: {e}")),
                }
            }
            if problems.is_empty() {
                outln!("no problems found");
                ExitCode::SUCCESS
            } else {
                for p in &problems {
                    outln!("problem: {p}");
                }
                ExitCode::from(1)
            }
        }
        Err(e) => {
            outln!("problem: {e}");
            ExitCode::from(1)
        }
    }
}
