//! `deliver`: one mail from the mail system, handled under the store's lock: parsed,
//! its command carried out, its changes and replies committed through one journal
//! (replies to the outbox, or the spool); then, with the lock released, its own
//! replies sent (the rest of the spool is `flush`'s and `tick`'s).
//! Player mistakes are answered by mail (success); only internal failures are errors,
//! which the caller turns into exit 75 so the mail system retries.

use crate::durable::fault;
use crate::mail::{self, Address, InboundMail};
use crate::server::config::Settings;
use crate::server::exec::{InternalError, Reply, Request};
use crate::server::store::{Store, key_name};
use crate::server::text::redact;

use super::commands::{Context, decide};
use super::guard::{expire, guard};
use super::log::Log;
use super::opponent;
use super::report::Report;
use super::robot;
use super::send::{Which, send};
use super::site;
use super::txn::Locked;

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
    let Some(mail) = Incoming::read(
        raw,
        total_size,
        envelope_sender,
        settings,
        &log,
        &mut report,
    ) else {
        return Ok(report);
    };
    let ids = handle(&store, settings, &mail, &log, &mut report)?;
    // Sent with the store's lock released: a slow or failing relay holds no one up.
    send(&store, settings, Which::Own(&ids), &log, &mut report)?;
    opponent::play_owed(&store, settings, &log, &mut report);
    site::refresh(&store, settings, &log, &mut report);
    log.line(
        now,
        &format!(
            "handled: {} replies spooled, {} sent, {} left in the spool, {} given up",
            report.spooled, report.sent, report.failed, report.dead
        ),
    );
    Ok(report)
}

/// A mail worth handling: parsed, with the address its replies go to.
struct Incoming {
    inbound: InboundMail,
    reply_to: Option<Address>,
    /// Over the size limit: only its headers were parsed.
    too_big: bool,
    total_size: usize,
    /// Its duplicate key: the Message-ID, or a hash of its bytes.
    key: String,
    /// The original as error mails quote it (passwords masked).
    quoted: String,
}

impl Incoming {
    /// Parse a raw mail; `None` (told to the log) when it is not a mail or is one
    /// never answered (bounces, robots, lists, our own).
    fn read(
        raw: &[u8],
        total_size: usize,
        envelope_sender: Option<&str>,
        settings: &Settings,
        log: &Log,
        report: &mut Report,
    ) -> Option<Incoming> {
        let now = settings.now();
        let too_big = total_size > settings.max_message_bytes;
        let inbound = match mail::parse_inbound(if too_big { head_of(raw) } else { raw }) {
            Ok(m) => m,
            Err(e) => {
                log.note(now, report, format!("dropped: not a mail ({e})"));
                return None;
            }
        };
        let id = inbound.message_id.as_deref().unwrap_or("(no id)");
        if let Some(why) = robot::drop_reason(&inbound, envelope_sender, &settings.address()) {
            log.note(now, report, format!("dropped {id} without answer: {why}"));
            return None;
        }
        for refused in &inbound.refused {
            log.note(now, report, format!("mail {id}: {refused}"));
        }
        let reply_to = inbound
            .reply_to
            .clone()
            .or_else(|| inbound.from.clone())
            .or_else(|| envelope_sender.and_then(|s| mail::strip_angles(s).parse().ok()));
        log.note(
            now,
            report,
            format!(
                "mail {id} from {} ({total_size} bytes): {}",
                senders(inbound.from.as_deref(), reply_to.as_deref()),
                redact::loggable(&inbound.subject)
            ),
        );
        let quoted = redact::quoted_original(
            inbound.from.as_deref(),
            &inbound.subject,
            None,
            if too_big { "" } else { &inbound.body },
        );
        let key = inbound
            .message_id
            .clone()
            .unwrap_or_else(|| format!("no-id-{}", raw_key(raw)));
        Some(Incoming {
            inbound,
            reply_to,
            too_big,
            total_size,
            key,
            quoted,
        })
    }
}

/// The mail's work under the store's lock: complete a leftover journal, drop a mail
/// already handled, else decide, gate and commit its replies in one transaction, and
/// expire old marks. Returns the Message-IDs of the spooled replies it may send once
/// the lock is released.
fn handle(
    store: &Store,
    settings: &Settings,
    mail: &Incoming,
    log: &Log,
    report: &mut Report,
) -> Result<Vec<String>, InternalError> {
    let now = settings.now();
    let (locked, recovered) = Locked::take(store, settings)?;
    let recovered = recovered.is_some_and(|line| {
        log.note(now, report, line);
        true
    });
    fault::point("after-lock");
    let key = &mail.key;
    if store.seen(key) {
        log.note(
            now,
            report,
            format!("dropped {key}: already handled (the same mail delivered again)"),
        );
        // A journal completed above may have spooled replies: send them too.
        return if recovered {
            locked.spooled_ids()
        } else {
            Ok(Vec::new())
        };
    }
    let server_address = settings.address();
    let request = Request {
        reply_to: mail.reply_to.clone(),
        comment: &mail.inbound.comment,
        quoted: &mail.quoted,
        now,
        server_address: &server_address,
        confirm_addresses: settings.confirm_addresses,
        challenges_for_others: settings.challenges_for_others_per_day,
        proven: None,
    };
    // Everything the mail changes is buffered, then made durable in one journal.
    let ctx = Context {
        settings,
        request: &request,
        inbound: &mail.inbound,
        too_big: mail.too_big,
        total_size: mail.total_size,
        log,
        now,
    };
    let message_id = mail.inbound.message_id.as_deref().unwrap_or("");
    let seed = |k: usize, _: &Reply| format!("{message_id}-{k}");
    let replies = locked.transaction(
        key,
        Some(&mail.inbound),
        &seed,
        report,
        &mut |report, line| log.note(now, report, line),
        |store, report| {
            let replies = decide(store, &ctx, report)?;
            opponent::record(store, settings, now, report)?;
            let replies = guard(store, settings, now, replies, &mut |line| {
                log.note(now, report, line)
            })?;
            store.mark_seen(key, now)?;
            Ok(replies)
        },
    )?;
    for r in &replies {
        report.lines.push(format!(
            "reply to {}: {}",
            mail::address::list(&r.to),
            r.subject
        ));
    }
    if let Some(line) = expire(store, settings, now) {
        log.note(now, report, line);
    }
    if recovered {
        locked.spooled_ids()
    } else {
        Ok(std::mem::take(&mut report.spooled_ids))
    }
}

/// `yinsh-pbem flush`: send what is spooled and due. The spool's contents are read
/// under the store's lock, after completing a journal a crash left (whose replies may
/// not all be spooled yet); they are sent after it is released. A journal completed
/// while its replies are being sent would queue them twice: mails spooled after the
/// lock was released are left for the next flush.
pub fn flush(settings: &Settings, report: &mut Report) -> Result<(), InternalError> {
    let store = Store::open(&settings.home)?;
    let (locked, recovered) = Locked::take(&store, settings)?;
    let log = Log::in_home(store.home());
    if let Some(line) = recovered {
        log.note(settings.now(), report, line);
    }
    let ids = locked.spooled_ids()?;
    drop(locked);
    send(&store, settings, Which::Spooled(&ids), &log, report)
}

/// Who sent a mail, for the log: the From, and the address replies go to when it
/// differs (a Reply-To, or the envelope sender when there is no From).
fn senders(from: Option<&str>, reply_to: Option<&str>) -> String {
    match (from, reply_to) {
        (Some(f), Some(r)) if !f.eq_ignore_ascii_case(r) => format!("{f} (replies to {r})"),
        (Some(f), _) => f.to_string(),
        (None, Some(r)) => format!("(no From; replies to {r})"),
        (None, None) => "(nobody)".to_string(),
    }
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

/// A stable key for a mail without Message-ID: SHA-256 of its bytes, hex.
fn raw_key(raw: &[u8]) -> String {
    key_name(raw)
}
