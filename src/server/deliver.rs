//! `deliver`: one mail from the mail system, handled completely: parsed, its command
//! carried out under the store's lock, every reply spooled, then the spool flushed.
//! Player mistakes are answered by mail (success); only internal failures are errors,
//! which the caller turns into exit 75 so the mail system retries.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::mail::{self, InboundMail, MailSettings, OutgoingMail, Spool, Transport};

use super::command::{Command, CommandError};
use super::dispatch::{self, InternalError, Reply, Request};
use super::log::Log;
use super::redact;
use super::store::Store;

/// How the server runs: where its data lives and how mail leaves.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The home folder (`./games` by default).
    pub home: PathBuf,
    /// The From of every reply, e.g. `YINSH PBeM <yinsh@localhost>`.
    pub from: String,
    /// How replies are sent.
    pub transport: Transport,
    /// The clock: unix seconds; `None` for the system clock.
    pub now: Option<u64>,
}

impl Settings {
    /// The embedded defaults: home `./games`, From `yinsh@localhost`, replies written
    /// to `<home>/outbox/`.
    pub fn defaults(home: PathBuf) -> Settings {
        let outbox = home.join("outbox");
        Settings {
            home,
            from: "YINSH PBeM <yinsh@localhost>".to_string(),
            transport: Transport::Outbox(outbox),
            now: None,
        }
    }

    /// The server's bare address, taken from `from`.
    pub fn address(&self) -> String {
        bare_address(&self.from)
    }

    /// The time now, unix seconds.
    pub fn now(&self) -> u64 {
        self.now.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
    }
}

/// The address inside `Name <addr>`, or the text itself.
pub fn bare_address(s: &str) -> String {
    match (s.rfind('<'), s.rfind('>')) {
        (Some(a), Some(b)) if a < b => s[a + 1..b].trim().to_string(),
        _ => s.trim().to_string(),
    }
}

/// What `deliver` did with a mail, for the log and `--verbose`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Lines describing what happened.
    pub lines: Vec<String>,
    /// Replies spooled.
    pub spooled: usize,
    /// Replies sent by the flush.
    pub sent: usize,
    /// Replies left in the spool because sending failed.
    pub failed: usize,
}

/// Handle one raw mail.
pub fn deliver(raw: &[u8], envelope_sender: Option<&str>, settings: &Settings) -> Result<Report, InternalError> {
    let now = settings.now();
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(&settings.home);
    let mut report = Report::default();
    let inbound = match mail::parse_inbound(raw) {
        Ok(m) => m,
        Err(e) => {
            log.line(now, &format!("dropped: not a mail ({e})"));
            report.lines.push(format!("dropped: not a mail ({e})"));
            return Ok(report);
        }
    };
    let reply_to = inbound
        .reply_to
        .clone()
        .or_else(|| inbound.from.clone())
        .or_else(|| envelope_sender.map(str::to_string))
        .filter(|a| !a.is_empty());
    let quoted = redact::quoted_original(inbound.from.as_deref(), &inbound.subject, None, &inbound.body);
    let server_address = settings.address();
    let request = Request {
        reply_to: reply_to.clone(),
        comment: &inbound.comment,
        quoted: &quoted,
        now,
        server_address: &server_address,
    };
    log.line(
        now,
        &format!(
            "mail {} from {}: {}",
            inbound.message_id.as_deref().unwrap_or("(no id)"),
            reply_to.as_deref().unwrap_or("(nobody)"),
            redact::loggable(&inbound.subject)
        ),
    );
    let replies = {
        let _lock = store.lock()?;
        let replies = run_commands(&store, &request, &inbound)?;
        spool_replies(&store, settings, &inbound, &replies, now, &mut report)?;
        replies
    };
    for r in &replies {
        report.lines.push(format!("reply to {}: {}", r.to.join(", "), r.subject));
    }
    flush(settings, &mut report)?;
    log.line(now, &format!("handled: {} replies spooled, {} sent, {} left in the spool", report.spooled, report.sent, report.failed));
    Ok(report)
}

/// Parse the Subject (and for `multiple`, each body line) and carry the commands out.
fn run_commands(store: &Store, req: &Request<'_>, inbound: &InboundMail) -> Result<Vec<Reply>, InternalError> {
    match Command::parse(&inbound.subject) {
        Ok(Command::Multiple) => {
            let mut out = Vec::new();
            let sub = Request { comment: "", reply_to: req.reply_to.clone(), ..*req };
            for line in inbound.body.lines().map(str::trim).filter(|l| !l.is_empty()) {
                if line == "--" || line.starts_with("-- ") {
                    break; // a signature
                }
                match Command::parse(line) {
                    Ok(cmd) => out.extend(dispatch::execute(store, &sub, &cmd)?),
                    Err(e) => out.extend(syntax_reply(&sub, &e, Some(line))),
                }
            }
            if out.is_empty() {
                out.extend(syntax_reply(req, &CommandError::Empty, Some("multiple: the body holds no command")));
            }
            Ok(out)
        }
        Ok(cmd) => dispatch::execute(store, req, &cmd),
        Err(e) => Ok(syntax_reply(req, &e, None).into_iter().collect()),
    }
}

fn syntax_reply(req: &Request<'_>, e: &CommandError, line: Option<&str>) -> Option<Reply> {
    let to = req.reply_to.clone()?;
    let mut message = e.to_string();
    if let Some(l) = line {
        message = format!("In the line \"{}\":\n{message}", redact::loggable(l));
    }
    message.push_str("\nSend \"help\" or \"yinsh help\" for the commands and their syntax.");
    Some(Reply {
        to: vec![to],
        subject: "Yinsh error".to_string(),
        body: super::reply::error_body(&message, None, req.quoted),
    })
}

fn mail_settings(settings: &Settings) -> MailSettings {
    MailSettings {
        from: settings.from.clone(),
        loop_id: settings.address(),
    }
}

fn spool_replies(
    store: &Store,
    settings: &Settings,
    inbound: &InboundMail,
    replies: &[Reply],
    now: u64,
    report: &mut Report,
) -> Result<(), InternalError> {
    let spool = Spool::open(&store.spool_dir()).map_err(|e| InternalError::Mail(e.to_string()))?;
    let ms = mail_settings(settings);
    let domain = settings.address().rsplit_once('@').map_or("localhost".to_string(), |(_, d)| d.to_string());
    let mut references = inbound.references.clone();
    if let Some(id) = &inbound.message_id {
        references.push(id.clone());
    }
    let when = UNIX_EPOCH + Duration::from_secs(now);
    for (k, r) in replies.iter().enumerate() {
        if r.to.is_empty() {
            continue;
        }
        let out = OutgoingMail {
            to: r.to.clone(),
            subject: r.subject.clone(),
            body: r.body.clone(),
            in_reply_to: inbound.message_id.clone(),
            references: references.clone(),
        };
        let seed = format!("{}-{k}", inbound.message_id.as_deref().unwrap_or(""));
        let id = mail::new_message_id(&domain, &seed);
        match mail::build(&out, &ms, when, &id) {
            Ok(built) => {
                spool.put(&built).map_err(|e| InternalError::Mail(e.to_string()))?;
                report.spooled += 1;
            }
            Err(e) => {
                // A bad registered address must not stop the other replies.
                Log::in_home(store.home()).line(now, &format!("reply not built: {e}"));
                report.lines.push(format!("reply not built: {e}"));
            }
        }
    }
    Ok(())
}

/// Send what is spooled (the spool's own lock keeps two flushes from sending the same
/// mail); a failed send stays spooled for the next `flush`.
pub fn flush(settings: &Settings, report: &mut Report) -> Result<(), InternalError> {
    let store = Store::open(&settings.home)?;
    let spool = Spool::open(&store.spool_dir()).map_err(|e| InternalError::Mail(e.to_string()))?;
    let r = mail::flush(&spool, &settings.transport).map_err(|e| InternalError::Mail(e.to_string()))?;
    report.sent += r.sent;
    report.failed += r.failed.len();
    let log = Log::in_home(store.home());
    for (id, why) in &r.failed {
        log.line(settings.now(), &format!("send failed, kept in the spool: {id}: {why}"));
        report.lines.push(format!("send failed, kept in the spool: {id}: {why}"));
    }
    Ok(())
}
