//! Sending what is spooled, always after the store's lock is released: a `deliver`
//! sends its own replies, `flush` and `tick` every reply spooled before they let the
//! lock go (all of them from complete journals: sending one whose journal a killed
//! run left half applied could send it twice). The spool has its own lock, taken with
//! a time limit. A reply given up (refused for good, or failing for too long) is
//! moved to `<home>/spool/failed/` with a log line, and the operator, when one is
//! configured, gets a short notice naming it (`docs/operations.md`): the `Work` of a
//! transaction of its own (the store's lock taken again for it), so it passes the
//! gate and is spooled by that transaction's journal like every other mail. The
//! words are `text::delivery`'s.

use crate::durable::fault;
use crate::mail::verp::Verp;
use crate::mail::{self, DeadLetter, DkimKey, FlushOptions, Spool, SpoolError};
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::{Audience, Reply};
use crate::server::text::{delivery, subjects};

use super::context::Ctx;
use super::txn::{Locked, Notes, Started, Txn, Work};

/// Which spooled replies a run sends.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// These Message-IDs (a `deliver`'s own replies), waiting at most the send time
    /// limit for the spool's lock.
    Own(&'a [String]),
    /// These Message-IDs (everything spooled while the store was locked), waiting at
    /// most the lock wait for the spool's lock.
    Spooled(&'a [String]),
}

/// Send the replies `which` names through the configured transport. Mails that fail
/// stay spooled (with their wait) and are logged; mails given up are logged and
/// told to the operator (a notice committed in a transaction of its own). A spool
/// locked by another flush for longer than we wait is no failure: the replies stay
/// for the next flush.
pub fn send(ctx: &mut Ctx<'_>, which: Which<'_>) -> Result<(), InternalError> {
    let (store, settings, now, log) = (ctx.store, ctx.settings, ctx.now, ctx.log);
    let report = &mut *ctx.report;
    fault::point("before-flush");
    let (ids, lock_wait) = match which {
        Which::Own(ids) => (ids, settings.send_timeout),
        Which::Spooled(ids) => (ids, settings.lock_wait),
    };
    if ids.is_empty() {
        fault::point("after-flush");
        return Ok(());
    }
    let spool = Spool::open(&store.spool_dir())?;
    let dkim = match dkim_key(settings) {
        Ok(key) => key,
        Err(e) => {
            let line = delivery::kept_in_the_spool(&e);
            log.line(now, &line);
            report.lines.push(line);
            return Ok(());
        }
    };
    let key = store.reply_key()?;
    let tag = |recipient: &str| key.bounce_tag(recipient);
    let verp = Verp {
        server: settings.address(),
        tag: &tag,
    };
    let opts = FlushOptions {
        now,
        timeout: settings.send_timeout,
        lock_wait,
        only: Some(ids),
        dkim: dkim.as_ref(),
        verp: settings.verp.then_some(&verp),
    };
    let r = match mail::flush(&spool, &settings.transport, &opts) {
        Ok(r) => r,
        Err(e @ SpoolError::Busy { .. }) => {
            let line = delivery::not_sent_now(&e);
            log.line(now, &line);
            report.lines.push(line);
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    fault::point("after-flush");
    report.sent += r.sent;
    report.failed += r.failed.len();
    report.dead += r.dead.len();
    for (id, why) in &r.failed {
        log.note(now, report, delivery::send_failed(id, why));
    }
    if r.waiting > 0 {
        report.lines.push(delivery::replies_wait(r.waiting));
    }
    for dead in &r.dead {
        log.note(
            now,
            report,
            delivery::given_up(&dead.id, &dead.recipients, &dead.why, &dead.path),
        );
    }
    let notices: Vec<Reply> = r
        .dead
        .iter()
        .filter_map(|dead| given_up_notice(settings, dead))
        .collect();
    if notices.is_empty() {
        return Ok(());
    }
    let ids = match commit_notices(ctx, &r.dead, notices) {
        Ok(ids) => ids,
        Err(e) => {
            // The replies given up are in spool/failed/ and logged: only the notice
            // is lost, and the run's sending stands.
            ctx.note(delivery::notice_not_spooled(&e));
            return Ok(());
        }
    };
    let report = &mut *ctx.report;
    if !ids.is_empty() {
        // Sent at once where possible; a notice that fails waits like any reply.
        let opts = FlushOptions {
            only: Some(&ids),
            ..opts
        };
        if let Ok(r) = mail::flush(&spool, &settings.transport, &opts) {
            report.sent += r.sent;
        }
    }
    Ok(())
}

/// The `[dkim]` key, loaded. A key that cannot be used keeps every reply in the
/// spool (as a relay that cannot be reached does) rather than sending it unsigned:
/// the log and `check-config` say what is wrong.
fn dkim_key(settings: &Settings) -> Result<Option<DkimKey>, mail::DkimError> {
    settings
        .dkim
        .as_ref()
        .map(|d| DkimKey::load(&d.domain, &d.selector, &d.key_file))
        .transpose()
}

/// The operator's notice of `dead` (an operator's notice: the gate lets it reach
/// the configured operator only), unless there is no operator or the dead mail was
/// for the operator.
fn given_up_notice(settings: &Settings, dead: &DeadLetter) -> Option<Reply> {
    let operator = settings.operator.as_ref()?;
    if dead
        .recipients
        .iter()
        .any(|r| r.eq_ignore_ascii_case(operator.as_str()))
    {
        return None;
    }
    Some(Reply {
        to: vec![operator.clone()],
        subject: subjects::reply_given_up(&dead.id),
        body: delivery::reply_given_up(&dead.id, &dead.recipients, &dead.why, &dead.path),
        audience: Audience::Operator,
        ..Reply::default()
    })
}

/// Commits `notices` (of the replies `dead` given up) as the `Work` of a transaction
/// of their own, under the store's lock (taken again, for that only): through the
/// gate, spooled by its journal. Returns the Message-IDs spooled, sent once the lock
/// is released.
fn commit_notices(
    ctx: &mut Ctx<'_>,
    dead: &[DeadLetter],
    notices: Vec<Reply>,
) -> Result<Vec<String>, InternalError> {
    let now = ctx.now;
    let (locked, recovered) = Locked::take(ctx.store, ctx.settings)?;
    if let Some(line) = recovered {
        ctx.note(line);
    }
    // Each notice's Message-ID is named after the reply it tells of.
    let seed = |k: usize, r: &Reply| {
        dead.iter()
            .find(|d| subjects::reply_given_up(&d.id) == r.subject)
            .map_or_else(
                || format!("given-up-{now}-{k}"),
                |d| format!("given-up-{}", d.id),
            )
    };
    let key = format!(
        "given-up-{now}-{}",
        dead.first().map_or("", |d| d.id.as_str())
    );
    let txn = Txn {
        key: &key,
        started: Started::Server,
        seed: &seed,
        notes: Notes::Logged,
    };
    let committed = locked.transaction(ctx, txn, |_| Ok(Work::from(notices)))?;
    Ok(committed.spooled)
}
