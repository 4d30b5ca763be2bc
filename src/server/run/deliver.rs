//! `deliver`: one mail from the mail system, handled under the store's lock: parsed,
//! its command carried out, its changes and replies committed through one journal
//! (replies to the outbox, or the spool); then, with the lock released, its own
//! replies sent (the rest of the spool is `flush`'s and `tick`'s).
//! Player mistakes are answered by mail (success); only internal failures are errors,
//! which the caller turns into exit 75 so the mail system retries.

use crate::durable::fault;
use crate::mail::{self, InboundMail};
use crate::server::command::{Command, CommandError};
use crate::server::config::Settings;
use crate::server::exec::context::Foreign;
use crate::server::exec::{self, InternalError, Reply, Request};
use crate::server::store::{RateVerdict, Store, key_name};
use crate::server::text::{redact, reply};

use super::guard::guard;
use super::log::Log;
use super::report::Report;
use super::robot;
use super::send::{Which, send};
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
    let too_big = total_size > settings.max_message_bytes;
    let inbound = match mail::parse_inbound(if too_big { head_of(raw) } else { raw }) {
        Ok(m) => m,
        Err(e) => {
            log.note(now, &mut report, format!("dropped: not a mail ({e})"));
            return Ok(report);
        }
    };
    let id = inbound.message_id.as_deref().unwrap_or("(no id)");
    if let Some(why) = robot::drop_reason(&inbound, envelope_sender, &settings.address()) {
        log.note(
            now,
            &mut report,
            format!("dropped {id} without answer: {why}"),
        );
        return Ok(report);
    }
    for refused in &inbound.refused {
        log.note(now, &mut report, format!("mail {id}: {refused}"));
    }
    let reply_to = inbound
        .reply_to
        .clone()
        .or_else(|| inbound.from.clone())
        .or_else(|| envelope_sender.and_then(|s| mail::strip_angles(s).parse().ok()));
    let server_address = settings.address();
    log.note(
        now,
        &mut report,
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
    let request = Request {
        reply_to: reply_to.clone(),
        comment: &inbound.comment,
        quoted: &quoted,
        now,
        server_address: &server_address,
        confirm_addresses: settings.confirm_addresses,
    };
    let key = inbound
        .message_id
        .clone()
        .unwrap_or_else(|| format!("no-id-{}", raw_key(raw)));
    let (locked, recovered) = Locked::take(&store, settings)?;
    let recovered = recovered.is_some_and(|line| {
        log.note(now, &mut report, line);
        true
    });
    fault::point("after-lock");
    if store.seen(&key) {
        log.note(
            now,
            &mut report,
            format!("dropped {key}: already handled (the same mail delivered again)"),
        );
        // A journal completed above may have spooled replies: send them too.
        let ids = if recovered {
            locked.spooled_ids()?
        } else {
            Vec::new()
        };
        drop(locked);
        send(&store, settings, Which::Own(&ids), &log, &mut report)?;
        return Ok(report);
    }
    // Everything the mail changes is buffered, then made durable in one journal.
    let ctx = Context {
        settings,
        request: &request,
        inbound: &inbound,
        too_big,
        total_size,
        log: &log,
        now,
    };
    let seed = |k: usize, _: &Reply| format!("{}-{k}", inbound.message_id.as_deref().unwrap_or(""));
    let replies = locked.transaction(
        &key,
        Some(&inbound),
        &seed,
        &mut report,
        &mut |report, line| log.note(now, report, line),
        |store, report| {
            let replies = decide(store, &ctx, report)?;
            let replies = guard(store, settings, now, replies, &mut |line| {
                log.note(now, report, line)
            })?;
            store.mark_seen(&key, now)?;
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
    // Old seen marks and storm counts, once a day; a failure here is the mail's no more.
    match store.expire(now, settings.rate_limit.period) {
        Ok(0) => {}
        Ok(n) => log.note(
            now,
            &mut report,
            format!("expired {n} old seen marks and storm counts"),
        ),
        Err(e) => log.note(
            now,
            &mut report,
            format!("expiring old seen marks failed: {e}"),
        ),
    }
    // Sent with the store's lock released: a slow or failing relay holds no one up.
    let ids = if recovered {
        locked.spooled_ids()?
    } else {
        std::mem::take(&mut report.spooled_ids)
    };
    drop(locked);
    send(&store, settings, Which::Own(&ids), &log, &mut report)?;
    log.line(
        now,
        &format!(
            "handled: {} replies spooled, {} sent, {} left in the spool, {} given up",
            report.spooled, report.sent, report.failed, report.dead
        ),
    );
    Ok(report)
}

/// What `decide` needs about the mail being handled.
#[derive(Clone, Copy)]
struct Context<'a> {
    settings: &'a Settings,
    request: &'a Request<'a>,
    inbound: &'a InboundMail,
    too_big: bool,
    total_size: usize,
    log: &'a Log,
    now: u64,
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

/// Judge the mail (storm limit, size) and carry its commands out, through the store's
/// open transaction; returns the replies.
fn decide(
    store: &Store,
    ctx: &Context<'_>,
    report: &mut Report,
) -> Result<Vec<Reply>, InternalError> {
    let Context {
        settings,
        request,
        inbound,
        too_big,
        total_size,
        log,
        now,
    } = *ctx;
    let id = inbound.message_id.as_deref().unwrap_or("(no id)");
    let note = |report: &mut Report, line: String| log.note(now, report, line);
    let verdict = match &request.reply_to {
        Some(sender) => store.count_mail(&settings.rate_limit, sender, now)?,
        None => RateVerdict::Allow,
    };
    Ok(match verdict {
        RateVerdict::Drop | RateVerdict::DropAndNotify => {
            let notify = verdict == RateVerdict::DropAndNotify;
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
        RateVerdict::Allow if too_big => {
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
        RateVerdict::Allow => run_commands(store, settings, request, inbound)?,
    })
}

/// A stable key for a mail without Message-ID: SHA-256 of its bytes, hex.
fn raw_key(raw: &[u8]) -> String {
    key_name(raw)
}

/// A short notice to the sender (no quote of the original).
fn notice(req: &Request<'_>, text: String) -> Vec<Reply> {
    req.reply_to
        .iter()
        .map(|to| Reply {
            to: vec![to.clone()],
            subject: "Yinsh error".to_string(),
            body: format!("{text}\n"),
            foreign: Foreign::Nothing,
        })
        .collect()
}

/// Challenges one mail may carry: each one mails two players, who need not be the
/// sender.
pub const CHALLENGES_PER_MAIL: usize = 3;

/// Parse the Subject (and for `multiple`, each body line) and carry the commands out,
/// within the per-mail bounds: at most `commands_per_mail` lines of a `multiple`,
/// [`CHALLENGES_PER_MAIL`] challenges, and `replies_per_mail` replies (the commands
/// stop there, and the sender is told what was not done); an admin's `broadcast`
/// alone in its mail reaches every player.
fn run_commands(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    inbound: &InboundMail,
) -> Result<Vec<Reply>, InternalError> {
    let max_replies = settings.replies_per_mail;
    let mut out = match Command::parse(&inbound.subject) {
        Ok(Command::Multiple) => {
            let mut out = Vec::new();
            let sub = Request {
                comment: "",
                reply_to: req.reply_to.clone(),
                ..*req
            };
            let lines: Vec<&str> = inbound
                .body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .take_while(|l| *l != "--" && !l.starts_with("-- "))
                .collect();
            let (mut done, mut challenges) = (0, 0);
            for line in &lines {
                if done == settings.commands_per_mail || out.len() >= max_replies - 1 {
                    break;
                }
                done += 1;
                match Command::parse(line) {
                    Ok(Command::Challenge { .. }) if challenges == CHALLENGES_PER_MAIL => {
                        out.extend(notice(
                            &sub,
                            format!(
                                "In the line \"{}\":\nOne mail may start at most {CHALLENGES_PER_MAIL} games: this challenge was not made. Send it in another mail.",
                                redact::loggable(line)
                            ),
                        ));
                    }
                    Ok(cmd) => {
                        challenges += usize::from(matches!(cmd, Command::Challenge { .. }));
                        out.extend(exec::execute(store, &sub, &cmd)?);
                    }
                    Err(e) => out.extend(syntax_reply(&sub, &e, Some(line))),
                }
            }
            if done < lines.len() {
                out.truncate(max_replies - 1);
                out.extend(notice(
                    req,
                    format!(
                        "Only the first {done} of the {} commands of your multiple mail were carried out (at most {} commands and {max_replies} replies a mail). The rest were not: send them in another mail.",
                        lines.len(),
                        settings.commands_per_mail
                    ),
                ));
            }
            if out.is_empty() {
                out.extend(syntax_reply(
                    req,
                    &CommandError::Empty,
                    Some("multiple: the body holds no command"),
                ));
            }
            out
        }
        // An admin's broadcast goes to every player: it is the one mail meant for all.
        Ok(cmd @ Command::Broadcast { .. }) => return exec::execute(store, req, &cmd),
        Ok(cmd) => exec::execute(store, req, &cmd)?,
        Err(e) => syntax_reply(req, &e, None).into_iter().collect(),
    };
    if out.len() > max_replies {
        let all = out.len();
        out.truncate(max_replies - 1);
        out.extend(notice(
            req,
            format!(
                "Your mail asked for {all} mails; only the first {} were sent (at most {max_replies} a mail). Ask for fewer at a time.",
                max_replies - 1
            ),
        ));
    }
    Ok(out)
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
        body: reply::error_body(&message, None, req.quoted),
        foreign: Foreign::Part(reply::error_body(&message, None, "")),
    })
}
