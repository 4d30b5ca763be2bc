//! The gate itself ([`pass`]): each reply of a transaction judged by its audience: an
//! operator's notice to the configured operator only, a reply to players without
//! the addresses marked failing and then recipient by recipient (`players.rs`).

use crate::durable::fault;
use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::reply::{Audience, Reply};
use crate::server::store::Store;

use super::failing::without_failing;
use super::players::Judge;
use super::verdict::{Held, HeldBack, Source};

/// The replies as they may be sent; `note` gets a [`HeldBack`] for each recipient
/// left out (with the gate closed, one for each reply).
pub fn pass(
    store: &Store,
    settings: &Settings,
    now: u64,
    source: Source,
    replies: Vec<Reply>,
    note: &mut dyn FnMut(HeldBack),
) -> Result<Vec<Reply>, InternalError> {
    if fault::gate_closed() {
        for r in &replies {
            note(HeldBack::new(
                Held::GateClosed,
                format!(
                    "not sent to {} (the gate is closed): {}",
                    crate::mail::address::list(&r.to),
                    r.described()
                ),
            ));
        }
        return Ok(Vec::new());
    }
    let judge = Judge {
        store,
        settings,
        now,
        source,
    };
    let mut out = Vec::with_capacity(replies.len());
    for reply in replies {
        match reply.audience {
            Audience::Operator => out.extend(to_operator(settings, reply, note)),
            Audience::Players => {
                if let Some(reply) = without_failing(store, reply, note)? {
                    out.extend(judge.to_players(reply, note)?);
                }
            }
        }
    }
    Ok(out)
}

/// An operator's notice, to the configured operator only.
fn to_operator(settings: &Settings, reply: Reply, note: &mut dyn FnMut(HeldBack)) -> Option<Reply> {
    let operator = settings.operator.as_ref();
    let (to, other): (Vec<Address>, Vec<Address>) = reply
        .to
        .iter()
        .cloned()
        .partition(|a| operator.is_some_and(|op| a.same_mailbox(op)));
    for a in other {
        note(HeldBack::new(
            Held::NotOperator,
            format!("not sent to {a} (not the operator): {}", reply.described()),
        ));
    }
    (!to.is_empty()).then_some(Reply { to, ..reply })
}
