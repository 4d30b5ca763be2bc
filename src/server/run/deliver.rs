//! `deliver`: one mail from the mail system, handled under the store's lock: read
//! (`inbound::incoming`), its commands carried out (`inbound::commands`), its changes
//! and replies committed through one journal (replies to the outbox, or the spool);
//! then, with the lock released, its own replies sent (the rest of the spool is
//! `flush`'s and `tick`'s), the robot turns it made owed played, and the site
//! refreshed. The clock is read once, here, for the whole mail.
//! Player mistakes are answered by mail (success); only internal failures are errors,
//! which the caller turns into exit 75 so the mail system retries.

use crate::durable::fault;
use crate::mail;
use crate::server::config::Settings;
use crate::server::exec::Request;
use crate::server::inbound::commands::decide;
use crate::server::inbound::incoming::Incoming;
use crate::server::internal::InternalError;
use crate::server::model::UserId;
use crate::server::outgoing::Reply;
use crate::server::store::Store;
use crate::server::text::log as log_text;

use super::bounces;
use super::context::Ctx;
use super::expire::expire;
use super::log::Log;
use super::owed::{self, review};
use super::released;
use super::report::Report;
use super::send::Which;
use super::txn::{Committed, Locked, Notes, Started, Txn, Work, written_games};

/// Handle one raw mail. `total_size` is its whole size in bytes (`raw` may hold only
/// its beginning when it is larger than the limit).
pub fn deliver(
    raw: &[u8],
    total_size: usize,
    envelope_sender: Option<&str>,
    settings: &Settings,
) -> Result<Report, InternalError> {
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(&settings.home);
    let mut report = Report::default();
    let mut ctx = Ctx::new(&store, settings, &log, &mut report);
    // Userids are public: the log shows those a Subject names (read, not locked).
    let named = |w: &str| {
        w.parse::<UserId>()
            .is_ok_and(|u| store.account(&u).is_ok_and(|a| a.is_some()))
    };
    let read = Incoming::read(
        raw,
        total_size,
        envelope_sender,
        settings,
        &named,
        &mut |line| ctx.note(line),
    );
    let Some(mail) = read else {
        ctx.report.unanswered += 1;
        return Ok(report);
    };
    // A mail to one of our bounce addresses is a delivery report, never a command.
    if let Some(to) = &mail.bounce {
        bounces::take(&mut ctx, to, raw)?;
        ctx.report.bounces += 1;
        return Ok(report);
    }
    let mut committed = handle(&mut ctx, &mail)?;
    let own = std::mem::take(&mut committed.spooled);
    released::finish(
        &mut ctx,
        Which::Own(&own),
        committed,
        review::REVIEWS_PER_DELIVER,
    )?;
    let r = &ctx.report;
    let line = log_text::handled(r.spooled, r.sent, r.failed, r.dead);
    ctx.log.line(ctx.now, &line);
    Ok(report)
}

/// The mail's work under the store's lock: complete a leftover journal, drop a mail
/// already handled, else decide and commit its replies in one transaction (their
/// gate is the transaction's), and expire old marks. What it committed names the
/// spooled replies it may send once the lock is released.
fn handle(ctx: &mut Ctx<'_>, mail: &Incoming) -> Result<Committed, InternalError> {
    let (locked, recovered) = Locked::take(ctx.store, ctx.settings)?;
    let recovered = recovered.is_some_and(|line| {
        ctx.note(line);
        true
    });
    fault::point("after-lock");
    let key = &mail.key;
    if ctx.store.seen(key) {
        ctx.note(log_text::already_handled(key));
        ctx.report.unanswered += 1;
        // A journal completed above may have spooled replies: send them too.
        let spooled = if recovered {
            locked.spooled_ids()?
        } else {
            Vec::new()
        };
        return Ok(Committed {
            spooled,
            ..Committed::default()
        });
    }
    let mut committed = carry_out(&locked, ctx, mail)?;
    for r in &committed.replies {
        ctx.report.lines.push(log_text::reply_to(
            &mail::address::list(&r.to),
            &r.described(),
        ));
    }
    if let Some(line) = expire(ctx.store, ctx.settings, ctx.now) {
        ctx.note(line);
    }
    if recovered {
        committed.spooled = locked.spooled_ids()?;
    }
    Ok(committed)
}

/// The mail's commands carried out in one transaction of `locked`: decided
/// (`inbound::commands`), the work they made owed recorded (`owed::record`), the
/// mail marked seen; the transaction gates, builds and commits the replies.
fn carry_out(
    locked: &Locked<'_>,
    ctx: &mut Ctx<'_>,
    mail: &Incoming,
) -> Result<Committed, InternalError> {
    let (settings, now) = (ctx.settings, ctx.now);
    // The mail as every command of it sees it, built once.
    let request = Request {
        from: mail.inbound.from.as_ref(),
        reply_to: mail.reply_to.as_ref(),
        quoted: &mail.quoted,
        now,
        settings,
        from_auth: mail
            .inbound
            .from_verdict(settings.trusted_authserv_id.as_deref()),
    };
    let message_id = mail.inbound.message_id.as_deref().unwrap_or("");
    let seed = |k: usize, _: &Reply| format!("{message_id}-{k}");
    // Everything the mail changes is buffered, then made durable in one journal.
    let txn = Txn {
        key: &mail.key,
        started: Started::Mail(&mail.inbound),
        seed: &seed,
        notes: Notes::Logged,
    };
    locked.transaction(ctx, txn, |ctx| {
        let store = ctx.store;
        let answered = decide(store, mail, &request, &mut |line| ctx.note(line))?;
        // Before the gate, which leaves a failing address out.
        if let Some(from) = &mail.inbound.from
            && bounces::shows_working(from, &answered.proofs)
        {
            bounces::restore(store, from, now, ctx.log, ctx.report)?;
        }
        let written = written_games(store)?;
        let robot_turns = owed::record(ctx, &written, &answered.proofs)?;
        store.mark_seen(&mail.key, now)?;
        Ok(Work {
            replies: answered.replies,
            robot_turns,
        })
    })
}
