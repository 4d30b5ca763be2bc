//! `deliver`: one mail from the mail system, handled completely under the store's lock:
//! parsed, its command carried out, its changes and replies committed through one
//! journal (replies to the outbox, or the spool), then the spool flushed.
//! Player mistakes are answered by mail (success); only internal failures are errors,
//! which the caller turns into exit 75 so the mail system retries.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::durable::fault;
use crate::mail::{self, BuiltMail, InboundMail, MailSettings, OutgoingMail, Spool, Transport};

use super::command::{Command, CommandError};
use super::dispatch::{self, InternalError, Reply, Request};
use super::log::Log;
use super::redact;
use super::robot::{self, RateLimit};
use super::store::{Journal, Recovered, Store, fnv1a64};

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
    /// Mails larger than this many bytes get a short error and are not handled.
    pub max_message_bytes: usize,
    /// Mails one sender may send per period before being dropped.
    pub rate_limit: RateLimit,
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
            max_message_bytes: 1024 * 1024,
            rate_limit: RateLimit {
                max: 60,
                period: 3600,
            },
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

/// The headers of a raw mail, and at most 64 KiB of it: enough to answer a mail too
/// big to handle.
fn head_of(raw: &[u8]) -> &[u8] {
    let cut = raw.len().min(64 * 1024);
    let head = &raw[..cut];
    let end = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .or_else(|| head.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
        .unwrap_or(cut);
    &raw[..end]
}

/// Handle one raw mail. `total_size` is its whole size in bytes (`raw` may hold only
/// its beginning when it is larger than the limit).
pub fn deliver(
    raw: &[u8],
    total_size: usize,
    envelope_sender: Option<&str>,
    settings: &Settings,
) -> Result<Report, InternalError> {
    let now = settings.now();
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(&settings.home);
    let mut report = Report::default();
    let note = |report: &mut Report, line: String| {
        log.line(now, &line);
        report.lines.push(line);
    };
    let too_big = total_size > settings.max_message_bytes;
    let inbound = match mail::parse_inbound(if too_big { head_of(raw) } else { raw }) {
        Ok(m) => m,
        Err(e) => {
            note(&mut report, format!("dropped: not a mail ({e})"));
            return Ok(report);
        }
    };
    let id = inbound.message_id.as_deref().unwrap_or("(no id)");
    if let Some(why) = robot::drop_reason(&inbound, envelope_sender, &settings.address()) {
        note(&mut report, format!("dropped {id} without answer: {why}"));
        return Ok(report);
    }
    let reply_to = inbound
        .reply_to
        .clone()
        .or_else(|| inbound.from.clone())
        .or_else(|| envelope_sender.map(str::to_string))
        .filter(|a| !a.is_empty());
    let server_address = settings.address();
    note(
        &mut report,
        format!(
            "mail {id} from {} ({total_size} bytes): {}",
            reply_to.as_deref().unwrap_or("(nobody)"),
            redact::loggable(&inbound.subject)
        ),
    );
    let quoted = redact::quoted_original(
        inbound.from.as_deref(),
        &inbound.subject,
        None,
        if too_big { "" } else { &inbound.body },
    );
    let request = Request {
        reply_to: reply_to.clone(),
        comment: &inbound.comment,
        quoted: &quoted,
        now,
        server_address: &server_address,
    };
    let key = inbound
        .message_id
        .clone()
        .unwrap_or_else(|| format!("no-id-{}", raw_key(raw)));
    // The lock is held to the end: the flush below sends under it too.
    let lock = store.lock()?;
    let replies = {
        if let Some(line) = recovered_line(store.recover(&settings.transport)?) {
            note(&mut report, line);
        }
        fault::point("after-lock");
        let seen = robot::Seen::in_home(store.home());
        if seen.contains(&key) {
            note(
                &mut report,
                format!("dropped {key}: already handled (the same mail delivered again)"),
            );
            // A journal completed above may have spooled replies: send them now.
            flush_locked(&store, settings, &log, &mut report)?;
            return Ok(report);
        }
        // Everything the mail changes is buffered, then made durable in one journal.
        store.begin();
        let ctx = Context {
            store: &store,
            settings,
            request: &request,
            inbound: &inbound,
            too_big,
            total_size,
            log: &log,
            now,
        };
        let result = decide(&ctx, &mut report).and_then(|replies| {
            seen.insert(&store, &key)?;
            Ok(replies)
        });
        let changes = store.take_changes();
        let replies = result?;
        fault::point("after-command");
        let seed =
            |k: usize, _: &Reply| format!("{}-{k}", inbound.message_id.as_deref().unwrap_or(""));
        let built = build_replies(
            settings,
            Some(&inbound),
            &seed,
            &replies,
            now,
            &mut |line| note(&mut report, line),
        );
        let (spooled, written) = store.commit(
            &Journal::new(&store, &key, &changes, &built),
            &settings.transport,
        )?;
        report.spooled += spooled;
        report.sent += written;
        replies
    };
    for r in &replies {
        report
            .lines
            .push(format!("reply to {}: {}", r.to.join(", "), r.subject));
    }
    flush_locked(&store, settings, &log, &mut report)?;
    drop(lock);
    log.line(
        now,
        &format!(
            "handled: {} replies spooled, {} sent, {} left in the spool",
            report.spooled, report.sent, report.failed
        ),
    );
    Ok(report)
}

/// What `decide` needs about the mail being handled.
#[derive(Clone, Copy)]
struct Context<'a> {
    store: &'a Store,
    settings: &'a Settings,
    request: &'a Request<'a>,
    inbound: &'a InboundMail,
    too_big: bool,
    total_size: usize,
    log: &'a Log,
    now: u64,
}

/// Judge the mail (storm limit, size) and carry its commands out, through the store's
/// open transaction; returns the replies.
fn decide(ctx: &Context<'_>, report: &mut Report) -> Result<Vec<Reply>, InternalError> {
    let Context {
        store,
        settings,
        request,
        inbound,
        too_big,
        total_size,
        log,
        now,
    } = *ctx;
    let id = inbound.message_id.as_deref().unwrap_or("(no id)");
    let note = |report: &mut Report, line: String| {
        log.line(now, &line);
        report.lines.push(line);
    };
    let verdict = match &request.reply_to {
        Some(sender) => settings.rate_limit.check(store, sender, now)?,
        None => robot::RateVerdict::Allow,
    };
    Ok(match verdict {
        robot::RateVerdict::Drop | robot::RateVerdict::DropAndNotify => {
            let notify = verdict == robot::RateVerdict::DropAndNotify;
            note(
                report,
                format!(
                    "dropped {id}: over the limit of {} mails in {} s{}",
                    settings.rate_limit.max,
                    settings.rate_limit.period,
                    if notify { " (notice sent)" } else { "" }
                ),
            );
            if !notify {
                return Ok(Vec::new());
            }
            notice(
                request,
                format!(
                    "You have sent more than {} mails in {} minutes. Mail from you is not handled until the\nperiod ends; this notice is sent once per period. Nothing from the dropped mails was done.",
                    settings.rate_limit.max,
                    settings.rate_limit.period / 60
                ),
            )
        }
        robot::RateVerdict::Allow if too_big => {
            note(
                report,
                format!(
                    "refused {id}: {total_size} bytes is over the limit of {}",
                    settings.max_message_bytes
                ),
            );
            notice(
                request,
                format!(
                    "Your mail of {total_size} bytes is larger than the limit of {} bytes, so it was not handled\nand nothing in it was stored. Send the command again without attachments.",
                    settings.max_message_bytes
                ),
            )
        }
        robot::RateVerdict::Allow => run_commands(store, request, inbound)?,
    })
}

/// A stable key for a mail without Message-ID: FNV-1a 64 of its bytes, hex.
fn raw_key(raw: &[u8]) -> String {
    format!("{:016x}", fnv1a64(raw))
}

/// The report line for what [`Store::recover`] found, if anything.
pub(super) fn recovered_line(r: Recovered) -> Option<String> {
    match r {
        Recovered::Nothing => None,
        Recovered::Completed => Some("completed a mail a crash had left half done".to_string()),
        Recovered::Discarded => Some(
            "discarded a journal whose write a crash cut short (its mail was not \
             acknowledged and comes again)"
                .to_string(),
        ),
    }
}

/// A short notice to the sender (no quote of the original).
fn notice(req: &Request<'_>, text: String) -> Vec<Reply> {
    req.reply_to
        .iter()
        .map(|to| Reply {
            to: vec![to.clone()],
            subject: "Yinsh error".to_string(),
            body: format!("{text}\n"),
        })
        .collect()
}

/// Parse the Subject (and for `multiple`, each body line) and carry the commands out.
fn run_commands(
    store: &Store,
    req: &Request<'_>,
    inbound: &InboundMail,
) -> Result<Vec<Reply>, InternalError> {
    match Command::parse(&inbound.subject) {
        Ok(Command::Multiple) => {
            let mut out = Vec::new();
            let sub = Request {
                comment: "",
                reply_to: req.reply_to.clone(),
                ..*req
            };
            for line in inbound
                .body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
            {
                if line == "--" || line.starts_with("-- ") {
                    break; // a signature
                }
                match Command::parse(line) {
                    Ok(cmd) => out.extend(dispatch::execute(store, &sub, &cmd)?),
                    Err(e) => out.extend(syntax_reply(&sub, &e, Some(line))),
                }
            }
            if out.is_empty() {
                out.extend(syntax_reply(
                    req,
                    &CommandError::Empty,
                    Some("multiple: the body holds no command"),
                ));
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

/// Build the reply mails; their Message-IDs are fixed from here on (the journal keeps
/// them), so a reply spooled twice is one mail. `answering` is the mail they answer
/// (In-Reply-To, References), `seed` names each reply's Message-ID. A reply that
/// cannot be built (a bad registered address) is skipped and told to `note`.
pub(super) fn build_replies(
    settings: &Settings,
    answering: Option<&InboundMail>,
    seed: &dyn Fn(usize, &Reply) -> String,
    replies: &[Reply],
    now: u64,
    note: &mut dyn FnMut(String),
) -> Vec<BuiltMail> {
    let ms = mail_settings(settings);
    let in_reply_to = answering.and_then(|m| m.message_id.clone());
    let mut references = answering.map(|m| m.references.clone()).unwrap_or_default();
    references.extend(in_reply_to.clone());
    let when = UNIX_EPOCH + Duration::from_secs(now);
    let mut built = Vec::new();
    for (k, r) in replies.iter().enumerate() {
        if r.to.is_empty() {
            continue;
        }
        let out = OutgoingMail {
            to: r.to.clone(),
            subject: r.subject.clone(),
            body: r.body.clone(),
            in_reply_to: in_reply_to.clone(),
            references: references.clone(),
        };
        let id = mail::new_message_id(&settings.address(), &seed(k, r));
        match mail::build(&out, &ms, when, &id) {
            Ok(mail) => built.push(mail),
            Err(e) => note(format!("reply not built: {e}")),
        }
    }
    built
}

/// Send what is spooled (the spool's own lock keeps two flushes from sending the same
/// mail); a failed send stays spooled for the next `flush`.
pub fn flush(settings: &Settings, report: &mut Report) -> Result<(), InternalError> {
    let store = Store::open(&settings.home)?;
    // Under the store's lock: a crash may have left a journal whose replies are not
    // all spooled yet; complete it first, and keep a journal from being completed
    // while its replies are being sent (which would queue them twice).
    let _lock = store.lock()?;
    let log = Log::in_home(store.home());
    if let Some(line) = recovered_line(store.recover(&settings.transport)?) {
        log.line(settings.now(), &line);
        report.lines.push(line);
    }
    flush_locked(&store, settings, &log, report)
}

/// [`flush`] for a caller that holds the store's lock and has completed any journal.
fn flush_locked(
    store: &Store,
    settings: &Settings,
    log: &Log,
    report: &mut Report,
) -> Result<(), InternalError> {
    fault::point("before-flush");
    let spool = Spool::open(&store.spool_dir()).map_err(|e| InternalError::Mail(e.to_string()))?;
    let r =
        mail::flush(&spool, &settings.transport).map_err(|e| InternalError::Mail(e.to_string()))?;
    fault::point("after-flush");
    report.sent += r.sent;
    report.failed += r.failed.len();
    for (id, why) in &r.failed {
        log.line(
            settings.now(),
            &format!("send failed, kept in the spool: {id}: {why}"),
        );
        report
            .lines
            .push(format!("send failed, kept in the spool: {id}: {why}"));
    }
    Ok(())
}
