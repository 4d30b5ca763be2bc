//! Bounces coming back (issue 30). A mail addressed to a VERP bounce address
//! (`mail::verp`, found in To, Delivered-To, X-Original-To or Envelope-To) is never a
//! command: [`take`] checks its tag under the reply key (a forged or stale one is
//! dropped with a log line), reads it as a delivery status notification
//! (`mail::dsn`), and counts a hard bounce in the address's record
//! (`store::BounceRecord`, under the store's lock). After `[mail] hard_bounces` (3) of
//! them over at least a day the address is marked failing: the gate sends it nothing
//! more, and the operator and the confirmed other addresses of its accounts are told,
//! once. Its games go on (its clock runs, as for a player who does not answer).
//! [`restore`]: a mail from the address that shows it works ([`shows_working`]: a
//! move, `verify`, anything proven by the account's password, reply token or code, or
//! a From the trusted mail system passed) removes its record, and mail goes to it
//! again. A From alone restores nothing: anyone can write it.

use crate::mail::auth_results::FromAuth;
use crate::mail::dsn::{Dsn, read_dsn};
use crate::mail::verp::read_bounce_address;
use crate::mail::{Address, Spool};
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::{Audience, Cause, Reply, build, gate};
use crate::server::store::{BounceRecord, Store};

use super::context::Ctx;
use super::log::Log;
use super::report::Report;
use super::send::{Which, send};
use super::txn::Locked;

/// The headers a bounce address may be found in.
const TO_HEADERS: [&str; 4] = ["to", "delivered-to", "x-original-to", "envelope-to"];

/// Handles `raw` when it came to a bounce address; `false` when it did not (it is
/// then an ordinary mail).
pub fn take(ctx: &mut Ctx<'_>, raw: &[u8]) -> Result<bool, InternalError> {
    let (store, settings, now, log) = (ctx.store, ctx.settings, ctx.now, ctx.log);
    let report = &mut *ctx.report;
    let server = settings.address();
    let Some((recipient, tag)) = bounce_target(raw, &server) else {
        return Ok(false);
    };
    if !store.reply_key()?.check_bounce_tag(&recipient, &tag) {
        log.note(
            now,
            report,
            format!(
                "dropped a mail to the bounce address of {recipient}: its tag is not ours \
                 (forged, or made before `rotate-reply-key`)"
            ),
        );
        return Ok(true);
    }
    let dsn = read_dsn(raw);
    let Some(dsn) = dsn.filter(|d| d.is_hard()) else {
        log.note(
            now,
            report,
            format!("a mail to the bounce address of {recipient} is no hard bounce: not counted"),
        );
        return Ok(true);
    };
    let Ok(address) = recipient.parse::<Address>() else {
        return Ok(true);
    };
    let (locked, recovered) = Locked::take(store, settings)?;
    if let Some(line) = recovered {
        log.note(now, report, line);
    }
    let Some(newly) = count(store, settings, now, &address, &dsn, log, report)? else {
        return Ok(true);
    };
    let ids = if newly {
        tell(store, settings, &address, now, log, report)?
    } else {
        Vec::new()
    };
    drop(locked);
    send(ctx, Which::Own(&ids))?;
    Ok(true)
}

/// Counts the hard bounce `dsn` of `address` (hold the store's lock): `None` when
/// that notification was counted already, else whether it made the address failing.
fn count(
    store: &Store,
    settings: &Settings,
    now: u64,
    address: &Address,
    dsn: &Dsn,
    log: &Log,
    report: &mut Report,
) -> Result<Option<bool>, InternalError> {
    let recipient = address.to_string();
    let mut record = store
        .bounce_record(address)?
        .unwrap_or_else(|| BounceRecord {
            address: recipient.clone(),
            ..BounceRecord::default()
        });
    if !record.add(now, &dsn.id) {
        log.note(
            now,
            report,
            format!("bounce for {recipient} counted already: {}", dsn.id),
        );
        return Ok(None);
    }
    let newly = record.failing_since.is_none() && record.enough_to_fail(settings.hard_bounces);
    if newly {
        record.failing_since = Some(now);
    }
    store.put_bounce_record(address, &record)?;
    log.note(
        now,
        report,
        format!(
            "hard bounce for {recipient} ({}, {} counted){}",
            dsn.shape,
            record.hard.len(),
            if newly {
                ": marked failing, no more mail goes to it"
            } else {
                ""
            }
        ),
    );
    Ok(Some(newly))
}

/// Whether a mail from `from` that was answered with `replies` shows that the address
/// works: the trusted mail system passed its From (`Authentication-Results`), or it
/// proved an account (password, reply token or verify code) and is answered at that
/// account's own addresses, `from` among them.
pub fn shows_working(from: &Address, from_auth: FromAuth, replies: &[Reply]) -> bool {
    from_auth == FromAuth::Pass
        || replies
            .iter()
            .any(|r| r.cause == Cause::Proven && r.to.iter().any(|a| a.same_mailbox(from)))
}

/// A mail that [`shows_working`] came from `from`: its bounce record, if any, is
/// removed (hold the store's lock).
pub fn restore(
    store: &Store,
    from: &Address,
    now: u64,
    log: &Log,
    report: &mut Report,
) -> Result<(), InternalError> {
    if let Some(r) = store.bounce_record(from)? {
        store.remove_bounce_record(from)?;
        if r.failing_since.is_some() {
            log.note(
                now,
                report,
                format!("{from} is no longer failing: a mail came from it"),
            );
        }
    }
    Ok(())
}

/// The notices of `address` marked failing: to the operator, and to the confirmed
/// other addresses of the accounts naming it; spooled, their Message-IDs returned.
fn tell(
    store: &Store,
    settings: &Settings,
    address: &Address,
    now: u64,
    log: &Log,
    report: &mut Report,
) -> Result<Vec<String>, InternalError> {
    let mut replies = Vec::new();
    let mut userids = Vec::new();
    for userid in store.address_owners_read_only(address)? {
        let Some(account) = store.account(&userid)? else {
            continue;
        };
        let others: Vec<Address> = account
            .addresses
            .iter()
            .filter(|a| !a.same_mailbox(address) && account.is_confirmed(a))
            .cloned()
            .collect();
        userids.push(account.userid.to_string());
        if !others.is_empty() {
            replies.push(Reply {
                to: others,
                subject: format!("Yinsh: mail to {address} bounces"),
                body: format!(
                    "Mail from the YINSH server to {address}, an address of your account {}, \
                     came back undelivered several times over more than a day, so the server \
                     sends nothing more there.\n\nYour games go on, and their clocks run. To \
                     get mail at {address} again, send any mail from it (`help` will \
                     do), or change your address.\n",
                    account.userid
                ),
                audience: Audience::Players,
                ..Reply::default()
            });
        }
    }
    if let Some(operator) = &settings.operator {
        replies.push(Reply {
            to: vec![operator.clone()],
            subject: format!("yinsh-pbem: {address} marked failing"),
            body: format!(
                "Mail to {address} bounced for good {} times over more than a day: no more \
                 mail goes to it (accounts: {}). A mail from the address restores it; \
                 <home>/bounces/ holds the record.\n",
                settings.hard_bounces,
                if userids.is_empty() {
                    "none".to_string()
                } else {
                    userids.join(", ")
                }
            ),
            audience: Audience::Operator,
            ..Reply::default()
        });
    }
    let mut lines = Vec::new();
    let passed = gate::pass(
        store,
        settings,
        now,
        gate::Source::Server,
        replies,
        &mut |l| lines.push(l),
    )?;
    let seed = |k: usize, _: &Reply| format!("failing-{now}-{k}-{}", address.canonical());
    let built = build::replies(settings, None, &seed, &passed, now, &mut |l| lines.push(l));
    let spool = Spool::open(&store.spool_dir())?;
    let mut ids = Vec::new();
    for mail in built {
        spool.put(&mail)?;
        ids.push(mail.id);
    }
    for line in lines {
        log.note(now, report, line);
    }
    Ok(ids)
}

/// The (recipient, tag) of the first bounce address of `server` among the
/// addresses of `raw`'s To, Delivered-To, X-Original-To and Envelope-To headers.
fn bounce_target(raw: &[u8], server: &str) -> Option<(String, String)> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .unwrap_or(raw.len())
        .min(256 * 1024);
    let head = String::from_utf8_lossy(&raw[..head_end]).replace("\r\n", "\n");
    let unfolded = head.replace("\n ", " ").replace("\n\t", " ");
    unfolded.lines().take(500).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if !TO_HEADERS.contains(&name.trim().to_ascii_lowercase().as_str()) {
            return None;
        }
        value
            .split([',', '<', '>', ' ', '\t', ';'])
            .take(100)
            .find_map(|word| read_bounce_address(word, server))
    })
}
