//! Bounces coming back (issue 30). A mail addressed to a VERP bounce address
//! (`mail::verp`, found in To, Delivered-To, X-Original-To or Envelope-To when
//! `inbound::incoming` reads the mail) is never a command: [`take`] checks its tag under the reply key (a forged or stale one is
//! dropped with a log line), reads it as a delivery status notification
//! (`mail::dsn`), and counts a hard bounce in the record of the exact address the
//! bounced mail was sent to, the one its VERP tag was made for
//! (`store::BounceRecord`, `store::exact_address`: `alice+0@corp.example` is not
//! `alice@corp.example`, so a stranger who has mail sent to a spelling that bounces
//! silences nobody), in a transaction of its own. After `[mail] hard_bounces` (3) of
//! them over at least a day that exact address is marked failing: the gate sends it
//! nothing more, and the operator is told, once, and so are the confirmed other
//! addresses of the accounts that confirmed this exact address (an account whose
//! address is another spelling of the mailbox is not told, nor touched): those
//! notices are the transaction's `Work`, so they pass the gate
//! and are spooled by the same journal that writes the record (a crash leaves
//! neither, or both). Their words are `text::delivery`'s. Its games go on (its clock
//! runs, as for a player who does not answer).
//! [`restore`]: a mail from the address that shows it works ([`shows_working`]: a
//! command proven by the account's password, reply token or code, answered at that
//! very address) removes its record, and mail goes to it again (the removal is part
//! of that mail's transaction). A From alone restores nothing, and neither does a
//! From the trusted mail system passed: a pass says the mail came through the
//! domain's servers, not that this mailbox takes mail (issue 45, attack 3).

use crate::mail::Address;
use crate::mail::dsn::{Dsn, read_dsn};
use crate::mail::verp::BounceTo;
use crate::server::config::Settings;
use crate::server::exec::Proven;
use crate::server::internal::InternalError;
use crate::server::outgoing::{Audience, Cause, Reply};
use crate::server::store::{BounceRecord, Store, exact_address};
use crate::server::text::delivery;

use super::context::Ctx;
use super::log::Log;
use super::report::Report;
use super::send::{Which, send};
use super::txn::{Locked, Notes, Started, Txn, Work};

/// Handles `raw`, which came to the bounce address `to` (as `inbound::incoming` read
/// it, `mail::verp::bounce_target`): its tag checked, read as a DSN, a hard bounce
/// counted, and the notices of an address it marks failing made, in one transaction:
/// its journal writes the record and spools the notices together, and they are sent
/// once the lock is released. It is never handled as an ordinary mail.
pub fn take(ctx: &mut Ctx<'_>, to: &BounceTo, raw: &[u8]) -> Result<(), InternalError> {
    let (store, settings, now) = (ctx.store, ctx.settings, ctx.now);
    let BounceTo { recipient, tag } = to;
    if !store.reply_key()?.check_bounce_tag(recipient, tag) {
        ctx.note(delivery::forged_bounce_tag(recipient));
        return Ok(());
    }
    let dsn = read_dsn(raw);
    let Some(dsn) = dsn.filter(|d| d.is_hard()) else {
        ctx.note(delivery::not_a_hard_bounce(recipient));
        return Ok(());
    };
    let Ok(address) = recipient.parse::<Address>() else {
        return Ok(());
    };
    let (locked, recovered) = Locked::take(store, settings)?;
    if let Some(line) = recovered {
        ctx.note(line);
    }
    let exact = exact_address(&address);
    let seed = |k: usize, _: &Reply| format!("failing-{now}-{k}-{exact}");
    let key = format!("bounce-{exact}-{}", dsn.id);
    let txn = Txn {
        key: &key,
        started: Started::Server,
        seed: &seed,
        notes: Notes::Logged,
    };
    let committed = locked.transaction(ctx, txn, |ctx| {
        let counted = count(
            ctx.store,
            ctx.settings,
            ctx.now,
            &address,
            &dsn,
            ctx.log,
            ctx.report,
        )?;
        let replies = match counted {
            Some(Marked::Failing) => notices(ctx.store, ctx.settings, &address)?,
            Some(Marked::Counted) | None => Vec::new(),
        };
        Ok(Work::from(replies))
    })?;
    drop(locked);
    send(ctx, Which::Own(&committed.spooled))?;
    Ok(())
}

/// What counting one hard bounce did to its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marked {
    /// Counted; the address is not newly failing.
    Counted,
    /// Counted, and the address is marked failing now.
    Failing,
}

/// Counts the hard bounce `dsn` of `address` through the open transaction: `None`
/// when that notification was counted already.
fn count(
    store: &Store,
    settings: &Settings,
    now: u64,
    address: &Address,
    dsn: &Dsn,
    log: &Log,
    report: &mut Report,
) -> Result<Option<Marked>, InternalError> {
    let recipient = exact_address(address);
    let mut record = store
        .bounce_record(address)?
        .unwrap_or_else(|| BounceRecord {
            address: recipient.clone(),
            ..BounceRecord::default()
        });
    if !record.add(now, &dsn.id) {
        log.note(now, report, delivery::counted_already(&recipient, &dsn.id));
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
        delivery::hard_bounce_counted(&recipient, dsn.shape, record.hard.len(), newly),
    );
    Ok(Some(if newly {
        Marked::Failing
    } else {
        Marked::Counted
    }))
}

/// Whether a mail from `from` whose commands were proved as `proofs` say
/// (`inbound::identity::prove`) shows that the address works: a command proved the
/// owner of an account (password, reply token or verify code: [`Cause::Owner`]) and
/// is answered at that exact address `from` ([`exact_address`]). A From the trusted
/// mail system passed is no such proof on its own (issue 45), even where it makes a
/// password-less mail its owner's ([`Proven::vouched`]: no actor is proved then).
pub fn shows_working(from: &Address, proofs: &[Proven]) -> bool {
    let exact = exact_address(from);
    proofs.iter().any(|p| {
        p.cause == Cause::Owner
            && p.actor.is_some()
            && p.answer_to
                .as_ref()
                .is_some_and(|a| exact_address(a) == exact)
    })
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
            log.note(now, report, delivery::no_longer_failing(from));
        }
    }
    Ok(())
}

/// The notices of the exact address `address` marked failing: to the operator, and
/// to the confirmed other addresses of the accounts that confirmed that exact
/// address (not another spelling of its mailbox); the `Work` of the transaction that
/// counted the bounce (the gate and the journal are its).
fn notices(
    store: &Store,
    settings: &Settings,
    address: &Address,
) -> Result<Vec<Reply>, InternalError> {
    let mut replies = Vec::new();
    let mut userids = Vec::new();
    for userid in store.address_owners_read_only(address)? {
        let Some(account) = store.account(&userid)? else {
            continue;
        };
        let exact = exact_address(address);
        let names_it = account.addresses.iter().any(|a| exact_address(a) == exact);
        if !(names_it && account.is_confirmed(address)) {
            continue;
        }
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
                subject: delivery::address_bounces_subject(address),
                body: delivery::address_bounces(address, &account.userid),
                audience: Audience::Players,
                ..Reply::default()
            });
        }
    }
    if let Some(operator) = &settings.operator {
        replies.push(Reply {
            to: vec![operator.clone()],
            subject: delivery::address_failing_subject(address),
            body: delivery::address_failing(address, settings.hard_bounces, &userids),
            audience: Audience::Operator,
            ..Reply::default()
        });
    }
    Ok(replies)
}
