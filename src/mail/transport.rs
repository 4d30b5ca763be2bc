//! Transports and the spool flush: [`flush`] hands spooled mails, oldest first, to a
//! [`Transport`] (an outbox folder, an SMTP server, or a sendmail program), each
//! DKIM-signed on the way when [`FlushOptions::dkim`] holds a key, and removes each
//! entry right after the transport accepted it.
//!
//! Delivery is at-least-once, never lost: an entry is removed (and the removal
//! made durable) only after a successful send (for the outbox: after the outbox
//! files of the flush are durable). The one window left is a crash (or a failed
//! removal) after the transport accepted a mail and before its entry is gone: the
//! next flush sends that mail again, with the same Message-ID, so mail programs can
//! recognise the copy; the outbox transport even rewrites the same file `<id>.eml`,
//! so there it leaves no copy at all. Flushes are serialised by a lock on
//! `<spool>/.lock`, so two processes never send the same entry at the same time.
//!
//! A failed send is one of three kinds. The relay cannot be reached (no connection,
//! TLS failure, SMTP 421): the mail is kept as it is and the rest of the flush is not
//! tried. The mail failed for now (SMTP 4xx, a sendmail failure that may pass, a
//! sendmail killed after the time limit): it is kept and waits, [`RETRY_FIRST`]
//! doubling per failure up to [`RETRY_MAX`], before it is tried again; after
//! [`GIVE_UP_AFTER`] in the spool it is dead. The mail is refused for good (SMTP
//! 5xx, sendmail `EX_DATAERR`/`EX_NOUSER`/`EX_NOHOST`, an envelope that cannot be
//! read): it is dead at once. A dead mail leaves the spool for `<spool>/failed/`
//! (same format, with the reason) and is listed in [`FlushReport::dead`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::address::Envelope;
use lettre::{Address, SmtpTransport, Transport as _};

use super::dkim::DkimKey;
use super::outbound::BuiltMail;
use super::sendmail;
use super::smtp::{self, Smtp, Verdict};
use super::spool::{Spool, SpoolEntry, SpoolError, file_stem};
use super::verp::Verp;
use crate::durable::{Existing, Pending, Readers, create_dir, write_deferred};

/// Where flushed mail goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A folder: each mail becomes `<id>.eml` (for tests and dry runs).
    Outbox(PathBuf),
    /// An SMTP server: a lettre URL (`smtp://host:25` plain,
    /// `smtp://host:587?tls=required` or `?tls=opportunistic` STARTTLS,
    /// `smtps://host:465` TLS, with `user:password@` for authentication) and an
    /// optional CA file ([`Smtp`]).
    Smtp(Smtp),
    /// A sendmail-compatible program, called as `prog -i -f <from> -- <to>...` with
    /// the message (LF line ends) on its standard input.
    Sendmail(PathBuf),
}

impl fmt::Display for Transport {
    /// Shows the transport without any SMTP password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::Outbox(dir) => write!(f, "outbox folder `{}`", dir.display()),
            Transport::Smtp(smtp) => write!(f, "SMTP server {smtp}"),
            Transport::Sendmail(prog) => write!(f, "sendmail program `{}`", prog.display()),
        }
    }
}

/// What a flush did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlushReport {
    /// How many mails the transport accepted (and were removed from the spool).
    pub sent: usize,
    /// The mails still spooled after a failed send: (Message-ID or file name, why).
    pub failed: Vec<(String, String)>,
    /// How many mails were not tried because they wait after an earlier failure.
    pub waiting: usize,
    /// The mails refused for good (or for too long), moved to `<spool>/failed/`.
    pub dead: Vec<DeadLetter>,
}

/// A mail that will never be sent, moved out of the spool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    /// Its Message-ID.
    pub id: String,
    /// Its envelope recipients.
    pub recipients: Vec<String>,
    /// Why it was given up.
    pub why: String,
    /// Its file in `<spool>/failed/`.
    pub path: PathBuf,
}

/// How long an SMTP connection or a sendmail run may take by default (the
/// `[limits] send_timeout_seconds` setting).
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// The wait after a mail's first temporary failure; it doubles with each failure.
pub const RETRY_FIRST: Duration = Duration::from_secs(60);

/// The longest wait between two tries of one mail.
pub const RETRY_MAX: Duration = Duration::from_secs(3600);

/// A mail still failing this long after it was spooled is given up (as an MTA
/// gives up after its queue lifetime).
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(5 * 24 * 3600);

/// The wait before the next try of a mail that failed `tries` times (1 or more).
pub fn retry_delay(tries: u32) -> Duration {
    let doublings = tries.saturating_sub(1).min(16);
    (RETRY_FIRST * (1u32 << doublings)).min(RETRY_MAX)
}

/// How a flush runs.
#[derive(Debug, Clone, Copy)]
pub struct FlushOptions<'a> {
    /// The time now, unix seconds (for the waits after failures).
    pub now: u64,
    /// The time limit of one SMTP connection or sendmail run.
    pub timeout: Duration,
    /// How long to wait for another flush holding the spool's lock.
    pub lock_wait: Duration,
    /// Send only these Message-IDs (the rest stays for a later flush); `None`: all.
    pub only: Option<&'a [String]>,
    /// The key that signs each mail as it leaves (`[dkim]`); `None`: unsigned. (With
    /// the outbox transport the store writes replies to the outbox at commit, without
    /// the spool: those stay unsigned.)
    pub dkim: Option<&'a DkimKey>,
    /// Gives a mail to one recipient its VERP bounce address as envelope sender
    /// ([`super::verp`]); `None`: the spooled envelope sender.
    pub verp: Option<&'a Verp<'a>>,
}

impl FlushOptions<'_> {
    /// Every mail that is due at `now`, with the default time limits.
    pub fn at(now: u64) -> FlushOptions<'static> {
        FlushOptions {
            now,
            timeout: SMTP_TIMEOUT,
            lock_wait: Duration::from_secs(120),
            only: None,
            dkim: None,
            verp: None,
        }
    }
}

/// Sends the spooled mails that are due (see the module's text for failures),
/// oldest first, removing each right after it was accepted. `Err` only when the
/// spool cannot be read or locked, the transport cannot be set up, or an entry
/// cannot be removed, rewritten or moved.
pub fn flush(
    spool: &Spool,
    transport: &Transport,
    opts: &FlushOptions<'_>,
) -> Result<FlushReport, SpoolError> {
    let _lock = spool.lock(opts.lock_wait)?;
    let sender = Sender::new(transport, opts.timeout)?;
    let (entries, damaged) = spool.scan()?;
    let mut report = FlushReport::default();
    report.failed.extend(damaged.iter().map(damaged_line));
    let mut down: Option<String> = None;
    // Outbox files are made durable together, then the sent entries are removed
    // (their removals made durable together): an entry never goes before its copy.
    let mut written = Pending::default();
    let mut sent = Vec::new();
    for entry in entries {
        if opts.only.is_some_and(|ids| !ids.contains(&entry.mail.id)) {
            continue;
        }
        if entry.next_try > opts.now {
            report.waiting += 1;
            continue;
        }
        if let Some(why) = &down {
            report.failed.push((
                entry.mail.id.clone(),
                format!("not tried, the transport is unreachable: {why}"),
            ));
            continue;
        }
        match sender.send(&entry, opts, &mut written) {
            Ok(()) => sent.push(entry),
            Err(failure) => down = after_failure(spool, &entry, failure, opts.now, &mut report)?,
        }
    }
    remove_sent(spool, &sent, written, &mut report)?;
    Ok(report)
}

/// The line of [`FlushReport::failed`] for a spool entry that cannot be read.
fn damaged_line(err: &SpoolError) -> (String, String) {
    let name = match err {
        SpoolError::BadEntry { path, .. } | SpoolError::Io { path, .. } => {
            path.file_name().map(|n| n.to_string_lossy().into_owned())
        }
        _ => None,
    };
    (name.unwrap_or_default(), err.to_string())
}

/// Keeps `entry` for a later try or buries it, as its `failure` says. Returns why the
/// transport is unreachable, when it is (the rest of the flush is then not tried).
fn after_failure(
    spool: &Spool,
    entry: &SpoolEntry,
    failure: Failure,
    now: u64,
    report: &mut FlushReport,
) -> Result<Option<String>, SpoolError> {
    let age = now.saturating_sub(entry.queued_ns / 1_000_000_000);
    let why = failure.why;
    match failure.kind {
        Kind::Unreachable { wait } => {
            if wait {
                defer(spool, entry, now, &why, report)?;
            } else {
                report.failed.push((entry.mail.id.clone(), why.clone()));
            }
            return Ok(Some(why));
        }
        Kind::Later if age < GIVE_UP_AFTER.as_secs() => {
            defer(spool, entry, now, &why, report)?;
        }
        Kind::Later => {
            let why = format!(
                "{why} (still failing {} days after it was spooled: given up)",
                age / 86_400
            );
            report.dead.push(bury(spool, entry, why, now)?);
        }
        Kind::Never => report.dead.push(bury(spool, entry, why, now)?),
    }
    Ok(None)
}

/// Makes the outbox files `written` durable, then removes the `sent` entries (their
/// removals made durable together).
fn remove_sent(
    spool: &Spool,
    sent: &[SpoolEntry],
    mut written: Pending,
    report: &mut FlushReport,
) -> Result<(), SpoolError> {
    let sync_err = |source| SpoolError::Io {
        action: "make the sent mails durable in",
        path: spool.dir().to_path_buf(),
        source,
    };
    written.sync().map_err(sync_err)?;
    let mut removed = Pending::default();
    for entry in sent {
        spool.remove_deferred(entry, &mut removed)?;
        report.sent += 1;
    }
    removed.sync().map_err(sync_err)
}

/// Keeps `entry` for a later try, after the wait its failures earned.
fn defer(
    spool: &Spool,
    entry: &SpoolEntry,
    now: u64,
    why: &str,
    report: &mut FlushReport,
) -> Result<(), SpoolError> {
    let wait = retry_delay(entry.tries.saturating_add(1)).as_secs();
    spool.defer(entry, now.saturating_add(wait), why)?;
    report.failed.push((
        entry.mail.id.clone(),
        format!("{why} (try {}, next in {wait} s)", entry.tries + 1),
    ));
    Ok(())
}

/// Moves `entry` to the dead letters.
fn bury(
    spool: &Spool,
    entry: &SpoolEntry,
    why: String,
    now: u64,
) -> Result<DeadLetter, SpoolError> {
    let path = spool.bury(entry, &why, now)?;
    Ok(DeadLetter {
        id: entry.mail.id.clone(),
        recipients: entry.mail.recipients.clone(),
        why,
        path,
    })
}

/// The outbox file of the mail `id`: `<dir>/<escaped id>.eml`.
pub fn outbox_path(dir: &Path, id: &str) -> Result<PathBuf, SpoolError> {
    Ok(dir.join(format!("{}.eml", file_stem(id)?)))
}

/// Writes `mail` into the outbox folder `dir` (replacing a copy of the same id), made
/// durable by a later [`Pending::sync`].
pub fn write_to_outbox(
    dir: &Path,
    mail: &BuiltMail,
    pending: &mut Pending,
) -> Result<(), SpoolError> {
    let path = outbox_path(dir, &mail.id)?;
    write_deferred(&path, &mail.bytes, Existing::Replace, pending).map_err(|source| {
        SpoolError::Io {
            action: "write the outbox file",
            path,
            source,
        }
    })
}

enum Sender<'t> {
    Outbox(&'t Path),
    Smtp(SmtpTransport),
    Sendmail(&'t Path, Duration),
}

/// Why one mail was not sent.
struct Failure {
    why: String,
    kind: Kind,
}

/// What a failure means for the mail and the ones after it.
enum Kind {
    /// The relay cannot be reached: the rest of the flush is not tried; `wait`:
    /// this mail waits before its next try too (a sendmail that hung).
    Unreachable { wait: bool },
    /// This mail failed for now: it waits, then is tried again.
    Later,
    /// This mail is refused for good.
    Never,
}

impl<'t> Sender<'t> {
    fn new(transport: &'t Transport, timeout: Duration) -> Result<Sender<'t>, SpoolError> {
        Ok(match transport {
            Transport::Outbox(dir) => {
                create_dir(dir, Readers::Owner).map_err(|source| SpoolError::Io {
                    action: "create the outbox folder",
                    path: dir.clone(),
                    source,
                })?;
                Sender::Outbox(dir)
            }
            Transport::Smtp(target) => {
                Sender::Smtp(smtp::transport(target, timeout).map_err(|e| {
                    SpoolError::Transport {
                        transport: transport.to_string(),
                        reason: e.to_string(),
                    }
                })?)
            }
            Transport::Sendmail(prog) => Sender::Sendmail(prog, timeout),
        })
    }

    fn send(
        &self,
        entry: &SpoolEntry,
        opts: &FlushOptions<'_>,
        written: &mut Pending,
    ) -> Result<(), Failure> {
        let never = |why| Failure {
            why,
            kind: Kind::Never,
        };
        let from = opts
            .verp
            .and_then(|v| v.envelope_from(&entry.mail.recipients));
        let signed;
        let mail = match opts.dkim {
            Some(key) => {
                signed = BuiltMail {
                    bytes: key
                        .sign(&entry.mail.bytes, opts.now)
                        .map_err(|e| never(e.to_string()))?,
                    ..entry.mail.clone()
                };
                &signed
            }
            None => &entry.mail,
        };
        match self {
            Sender::Outbox(dir) => write_to_outbox(dir, mail, written).map_err(|e| Failure {
                why: e.to_string(),
                kind: Kind::Later,
            }),
            Sender::Smtp(smtp) => {
                let envelope = envelope_of(entry, from.as_deref()).map_err(never)?;
                // lettre ends the DATA with `\r\n.\r\n` itself: without the message's
                // own last line end the server receives exactly the built bytes.
                let bytes = mail.bytes.strip_suffix(b"\r\n").unwrap_or(&mail.bytes);
                smtp.send_raw(&envelope, bytes).map(|_| ()).map_err(|e| {
                    let (verdict, why) = smtp::judge(&e);
                    let kind = match verdict {
                        Verdict::Unreachable => Kind::Unreachable { wait: false },
                        Verdict::Later => Kind::Later,
                        Verdict::Never => Kind::Never,
                    };
                    Failure { why, kind }
                })
            }
            Sender::Sendmail(prog, timeout) => {
                let envelope = envelope_of(entry, from.as_deref()).map_err(never)?;
                let from = envelope.from().map_or("", |a| a.as_ref());
                let to: Vec<String> = envelope.to().iter().map(ToString::to_string).collect();
                // Local submission uses the system's line ends.
                let lf = crlf_to_lf(&mail.bytes);
                sendmail::send(prog, from, &to, &lf, *timeout).map_err(|e| {
                    // A program that cannot start is the set-up's problem, not the
                    // mail's; one that hung will likely hang for the next mail too.
                    let kind = match &e {
                        _ if e.is_permanent() => Kind::Never,
                        sendmail::SendmailError::Spawn { .. } => Kind::Unreachable { wait: false },
                        sendmail::SendmailError::TimedOut { .. } => {
                            Kind::Unreachable { wait: true }
                        }
                        sendmail::SendmailError::Failed { .. } => Kind::Later,
                    };
                    Failure {
                        why: format!("sendmail: {e}"),
                        kind,
                    }
                })
            }
        }
    }
}

/// The lettre envelope of an entry; `from`, when given, is its sender instead of the
/// spooled one.
fn envelope_of(entry: &SpoolEntry, from: Option<&str>) -> Result<Envelope, String> {
    let mail = &entry.mail;
    let sender = from.unwrap_or(&mail.envelope_from);
    let parse = |a: &str| {
        a.parse::<Address>()
            .map_err(|e| format!("the spooled address `{a}` is not valid: {e}"))
    };
    let from = if sender.is_empty() {
        None
    } else {
        Some(parse(sender)?)
    };
    let to = mail
        .recipients
        .iter()
        .map(|a| parse(a))
        .collect::<Result<Vec<_>, _>>()?;
    Envelope::new(from, to).map_err(|e| format!("the spooled envelope is not valid: {e}"))
}

/// `\r\n` to `\n`.
fn crlf_to_lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_becomes_lf_and_lone_cr_stays() {
        assert_eq!(crlf_to_lf(b"a\r\nb\rc\r\n\r\n"), b"a\nb\rc\n\n");
    }
}
