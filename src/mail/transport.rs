//! Transports and the spool flush: [`flush`] hands every spooled mail, oldest first,
//! to a [`Transport`] (an outbox folder, an SMTP server, or a sendmail program) and
//! removes the entry right after the transport accepted it.
//!
//! Delivery is at-least-once, never lost: an entry is removed (and the removal
//! made durable) only after a successful send (for the outbox: after the outbox
//! files of the flush are durable), and a failed send leaves it spooled for the next
//! flush. The one window left is a crash (or a failed removal) after the
//! transport accepted a mail and before its entry is gone: the next flush sends that
//! mail again, with the same Message-ID, so mail programs can recognise the copy; the
//! outbox transport even rewrites the same file `<id>.eml`, so there it leaves no
//! copy at all. Flushes are serialised by a lock on `<spool>/.lock`, so two
//! processes never send the same entry at the same time.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::address::Envelope;
use lettre::{Address, SendmailTransport, SmtpTransport, Transport as _};

use super::outbound::BuiltMail;
use super::spool::{Spool, SpoolEntry, SpoolError, file_stem};
use crate::durable::{Pending, write_deferred};

/// Where flushed mail goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A folder: each mail becomes `<id>.eml` (for tests and dry runs).
    Outbox(PathBuf),
    /// An SMTP server, as a lettre URL: `smtp://host:25` (plain),
    /// `smtp://host:587?tls=required` or `?tls=opportunistic` (STARTTLS),
    /// `smtps://host:465` (TLS), with `user:password@` for authentication.
    Smtp(String),
    /// A sendmail-compatible program, called as `prog -i -f <from> -- <to>...` with
    /// the message (LF line ends) on its standard input.
    Sendmail(PathBuf),
}

impl fmt::Display for Transport {
    /// Shows the transport without any SMTP password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::Outbox(dir) => write!(f, "outbox folder `{}`", dir.display()),
            Transport::Smtp(url) => write!(f, "SMTP server `{}`", redact_url(url)),
            Transport::Sendmail(prog) => write!(f, "sendmail program `{}`", prog.display()),
        }
    }
}

/// What a flush did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlushReport {
    /// How many mails the transport accepted (and were removed from the spool).
    pub sent: usize,
    /// The mails still spooled: (Message-ID or file name, why).
    pub failed: Vec<(String, String)>,
}

/// How long an SMTP connection may stay silent before the send fails.
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

/// Sends every spooled mail through `transport`, oldest first, removing each right
/// after it was accepted. A failed mail stays spooled and is listed in the report;
/// when an SMTP server cannot be reached at all, the remaining mails are not tried
/// and are listed too. `Err` only when the spool cannot be read or locked, the
/// transport cannot be set up, or a sent entry cannot be removed.
pub fn flush(spool: &Spool, transport: &Transport) -> Result<FlushReport, SpoolError> {
    let _lock = spool.lock()?;
    let sender = Sender::new(transport)?;
    let (entries, damaged) = spool.scan()?;
    let mut report = FlushReport::default();
    for err in damaged {
        let name = match &err {
            SpoolError::BadEntry { path, .. } | SpoolError::Io { path, .. } => {
                path.file_name().map(|n| n.to_string_lossy().into_owned())
            }
            _ => None,
        };
        report
            .failed
            .push((name.unwrap_or_default(), err.to_string()));
    }
    let mut down: Option<String> = None;
    // Outbox files are made durable together, then the sent entries are removed
    // (their removals made durable together): an entry never goes before its copy.
    let mut written = Pending::default();
    let mut sent = Vec::new();
    for entry in entries {
        if let Some(why) = &down {
            report.failed.push((
                entry.mail.id.clone(),
                format!("not tried, the transport is unreachable: {why}"),
            ));
            continue;
        }
        match sender.send(&entry, &mut written) {
            Ok(()) => sent.push(entry),
            Err(failure) => {
                if failure.unreachable {
                    down = Some(failure.why.clone());
                }
                report.failed.push((entry.mail.id.clone(), failure.why));
            }
        }
    }
    let sync_err = |source| SpoolError::Io {
        action: "make the sent mails durable in",
        path: spool.dir().to_path_buf(),
        source,
    };
    written.sync().map_err(sync_err)?;
    let mut removed = Pending::default();
    for entry in &sent {
        spool.remove_deferred(entry, &mut removed)?;
        report.sent += 1;
    }
    removed.sync().map_err(sync_err)?;
    Ok(report)
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
    write_deferred(&path, &mail.bytes, true, pending).map_err(|source| SpoolError::Io {
        action: "write the outbox file",
        path,
        source,
    })
}

enum Sender<'t> {
    Outbox(&'t Path),
    Smtp(SmtpTransport),
    Sendmail(SendmailTransport),
}

/// Why one mail was not sent.
struct Failure {
    why: String,
    /// The server could not be reached at all: no point trying the next mail.
    unreachable: bool,
}

impl Failure {
    fn of_mail(why: String) -> Failure {
        Failure {
            why,
            unreachable: false,
        }
    }
}

impl<'t> Sender<'t> {
    fn new(transport: &'t Transport) -> Result<Sender<'t>, SpoolError> {
        Ok(match transport {
            Transport::Outbox(dir) => {
                std::fs::create_dir_all(dir).map_err(|source| SpoolError::Io {
                    action: "create the outbox folder",
                    path: dir.clone(),
                    source,
                })?;
                Sender::Outbox(dir)
            }
            Transport::Smtp(url) => {
                let builder = SmtpTransport::from_url(url).map_err(|e| SpoolError::Transport {
                    transport: transport.to_string(),
                    reason: format!(
                        "{e}; write it like smtp://host:25, smtp://user:pass@host:587?tls=required \
                         or smtps://host:465"
                    ),
                })?;
                Sender::Smtp(builder.timeout(Some(SMTP_TIMEOUT)).build())
            }
            Transport::Sendmail(prog) => {
                Sender::Sendmail(SendmailTransport::new_with_command(prog))
            }
        })
    }

    fn send(&self, entry: &SpoolEntry, written: &mut Pending) -> Result<(), Failure> {
        let mail = &entry.mail;
        match self {
            Sender::Outbox(dir) => {
                write_to_outbox(dir, mail, written).map_err(|e| Failure::of_mail(e.to_string()))
            }
            Sender::Smtp(smtp) => {
                let envelope = envelope_of(entry).map_err(Failure::of_mail)?;
                // lettre ends the DATA with `\r\n.\r\n` itself: without the message's
                // own last line end the server receives exactly the built bytes.
                let bytes = mail.bytes.strip_suffix(b"\r\n").unwrap_or(&mail.bytes);
                smtp.send_raw(&envelope, bytes).map(|_| ()).map_err(|e| {
                    // No SMTP reply code (connection, TLS, time-out) or 421 (service not
                    // available): the server is unreachable, not this mail refused.
                    let unreachable = match e.status() {
                        None => !e.is_client(),
                        Some(code) => code.to_string() == "421",
                    };
                    Failure {
                        why: format!("SMTP: {e}"),
                        unreachable,
                    }
                })
            }
            Sender::Sendmail(sendmail) => {
                let envelope = envelope_of(entry).map_err(Failure::of_mail)?;
                // Local submission uses the system's line ends.
                let lf = crlf_to_lf(&mail.bytes);
                sendmail.send_raw(&envelope, &lf).map_err(|e| {
                    let detail = e.to_string();
                    Failure::of_mail(format!("sendmail: {}", detail.trim()))
                })
            }
        }
    }
}

/// The lettre envelope of an entry.
fn envelope_of(entry: &SpoolEntry) -> Result<Envelope, String> {
    let mail = &entry.mail;
    let parse = |a: &str| {
        a.parse::<Address>()
            .map_err(|e| format!("the spooled address `{a}` is not valid: {e}"))
    };
    let from = if mail.envelope_from.is_empty() {
        None
    } else {
        Some(parse(&mail.envelope_from)?)
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

/// An SMTP URL with the password replaced by `***`.
fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_shown_without_password() {
        assert_eq!(
            redact_url("smtp://al:s3cret@mail.example.org:587?tls=required"),
            "smtp://al:***@mail.example.org:587?tls=required"
        );
        assert_eq!(redact_url("smtp://localhost:25"), "smtp://localhost:25");
        assert_eq!(redact_url("not a url"), "not a url");
    }

    #[test]
    fn crlf_becomes_lf_and_lone_cr_stays() {
        assert_eq!(crlf_to_lf(b"a\r\nb\rc\r\n\r\n"), b"a\nb\rc\n\n");
    }
}
