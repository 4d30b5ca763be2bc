//! Sending what is spooled, always after the store's lock is released: a `deliver`
//! sends its own replies, `flush` and `tick` every reply spooled before they let the
//! lock go (all of them from complete journals: sending one whose journal a killed
//! run left half applied could send it twice). The spool has its own lock, taken with
//! a time limit. A reply given up (refused for good, or failing for too long) is
//! moved to `<home>/spool/failed/` with a log line, and the operator, when one is
//! configured, gets a short bounce naming it (`docs/operations.md`).

use crate::durable::fault;
use crate::mail::verp::Verp;
use crate::mail::{self, DeadLetter, DkimKey, FlushOptions, Spool, SpoolError};
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::{Audience, Reply, build, gate};
use crate::server::store::Store;
use crate::server::text::subjects;

use super::context::Ctx;
use super::log::Log;
use super::report::Report;

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
/// bounced to the operator. A spool locked by another flush for longer than we wait
/// is no failure: the replies stay for the next flush.
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
            let line = format!("not sent now, kept in the spool: {e}");
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
            let line = format!("not sent now: {e}");
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
        log.note(
            now,
            report,
            format!("send failed, kept in the spool: {id}: {why}"),
        );
    }
    if r.waiting > 0 {
        report
            .lines
            .push(format!("{} replies wait after earlier failures", r.waiting));
    }
    let mut bounces = Vec::new();
    for dead in &r.dead {
        log.note(
            now,
            report,
            format!(
                "reply given up, moved to {}: {} to {}: {}",
                dead.path.display(),
                dead.id,
                dead.recipients.join(", "),
                dead.why
            ),
        );
        bounces.extend(bounce(store, &spool, settings, dead, now, log, report));
    }
    if !bounces.is_empty() {
        // Sent at once where possible; a bounce that fails waits like any reply.
        let opts = FlushOptions {
            only: Some(&bounces),
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

/// Spools the operator's bounce for `dead`, once it passed the gate (an operator's
/// notice: to the configured operator only), unless there is no operator or the dead
/// mail was for the operator. Returns its Message-ID.
fn bounce(
    store: &Store,
    spool: &Spool,
    settings: &Settings,
    dead: &DeadLetter,
    now: u64,
    log: &Log,
    report: &mut Report,
) -> Option<String> {
    let operator = settings.operator.as_ref()?;
    if dead
        .recipients
        .iter()
        .any(|r| r.eq_ignore_ascii_case(operator.as_str()))
    {
        return None;
    }
    let notice = Reply {
        to: vec![operator.clone()],
        subject: subjects::reply_given_up(&dead.id),
        body: format!(
            "A reply of the YINSH server could not be delivered and was given up.\n\n\
             Message-ID: {}\nTo: {}\nWhy: {}\nKept in: {}\n\n\
             Nothing else is sent about it. Move the file back into the spool folder to \
             try it again.\n",
            dead.id,
            dead.recipients.join(", "),
            dead.why,
            dead.path.display()
        ),
        audience: Audience::Operator,
        ..Reply::default()
    };
    let mut lines = Vec::new();
    let passed = gate::pass(
        store,
        settings,
        now,
        gate::Source::Server,
        vec![notice],
        &mut |l| lines.push(l),
    );
    let seed = |_: usize, _: &Reply| format!("given-up-{}", dead.id);
    let put = passed.map_err(|e| e.to_string()).and_then(|passed| {
        let built = build::replies(settings, None, &seed, &passed, now, &mut |l| lines.push(l));
        match built.into_iter().next() {
            Some(m) => spool.put(&m).map(|_| Some(m.id)).map_err(|e| e.to_string()),
            None => Ok(None),
        }
    });
    for line in lines {
        log.note(now, report, line);
    }
    match put {
        Ok(id) => id,
        Err(e) => {
            log.note(
                now,
                report,
                format!("bounce to the operator not spooled: {e}"),
            );
            None
        }
    }
}
