//! THE gate: every mail of every run passes here before it is committed (`run::txn`
//! calls [`pass`] on all the replies of a transaction, so no path can go round it).
//!
//! - A reply for the operator ([`Audience::Operator`]: the server's own notices of
//!   damaged files and of replies given up) goes only to the configured operator.
//! - When `[security] confirm_addresses` is on, a recipient address that no account has
//!   confirmed (a stranger's Reply-To included) gets no text another person chose (the
//!   reply's [`Foreign`] part is left out; a chat, message or broadcast is not sent at
//!   all), and at most `unconfirmed_mails_per_day` mails a day (the count is in
//!   `<home>/quota/`, inside the transaction); the rest are dropped with a log line.
//!
//! With fault injection compiled in, `YINSH_PBEM_FAULT=gate-closed` makes the gate let
//! nothing through (`durable::fault`): the test that every run's mail passes it.

use crate::durable::fault;
use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::reply::{Audience, Foreign, Reply};

/// The replies as they may be sent; `note` gets a line for each address left out.
pub fn pass(
    store: &Store,
    settings: &Settings,
    now: u64,
    replies: Vec<Reply>,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if fault::gate_closed() {
        for r in &replies {
            note(format!(
                "not sent to {} (the gate is closed): {}",
                crate::mail::address::list(&r.to),
                r.subject
            ));
        }
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(replies.len());
    for reply in replies {
        match reply.audience {
            Audience::Operator => out.extend(to_operator(settings, reply, note)),
            Audience::Players => out.extend(to_players(store, settings, now, reply, note)?),
        }
    }
    Ok(out)
}

/// An operator's notice, to the configured operator only.
fn to_operator(settings: &Settings, reply: Reply, note: &mut dyn FnMut(String)) -> Option<Reply> {
    let operator = settings.operator.as_ref();
    let (to, other): (Vec<Address>, Vec<Address>) = reply
        .to
        .iter()
        .cloned()
        .partition(|a| operator.is_some_and(|op| a.eq_ignore_ascii_case(op)));
    for a in other {
        note(format!(
            "not sent to {a} (not the operator): {}",
            reply.subject
        ));
    }
    (!to.is_empty()).then_some(Reply { to, ..reply })
}

/// A reply to players and senders: addresses nobody confirmed get the server's words
/// only, a few a day (when confirmation is on).
fn to_players(
    store: &Store,
    settings: &Settings,
    now: u64,
    reply: Reply,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if !settings.confirm_addresses {
        return Ok(vec![reply]);
    }
    let mut sure: Vec<Address> = Vec::new();
    let mut unsure: Vec<Address> = Vec::new();
    for a in &reply.to {
        if store.is_confirmed(a)? {
            sure.push(a.clone());
        } else if reply.foreign == Foreign::All {
            note(format!(
                "not sent to {a} (address not confirmed): {}",
                reply.subject
            ));
        } else if store.count_unconfirmed_mail(a, now, settings.unconfirmed_mails_per_day)? {
            unsure.push(a.clone());
        } else {
            note(format!(
                "not sent to {a}: over {} mails today to an unconfirmed address: {}",
                settings.unconfirmed_mails_per_day, reply.subject
            ));
        }
    }
    let mut out = Vec::new();
    if !unsure.is_empty() {
        let body = match &reply.foreign {
            Foreign::Part(without) => without.clone(),
            _ => reply.body.clone(),
        };
        out.push(Reply {
            to: unsure,
            subject: reply.subject.clone(),
            body,
            foreign: Foreign::Nothing,
            html: None,
            thread: reply.thread.clone(),
            audience: Audience::Players,
        });
    }
    if !sure.is_empty() {
        out.push(Reply { to: sure, ..reply });
    }
    Ok(out)
}
