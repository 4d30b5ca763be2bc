//! Addresses marked failing after hard bounces (issue 30, `run::bounces`): the gate
//! leaves them out of every reply to players.

use crate::mail::Address;
use crate::server::store::Store;

use super::reply::Reply;

/// `reply` without the recipients marked failing after hard bounces (issue 30,
/// `run::bounces`), each left out with a log line; `None` when none is left.
pub(super) fn without_failing(
    store: &Store,
    reply: Reply,
    note: &mut dyn FnMut(String),
) -> Option<Reply> {
    let (failing, to): (Vec<Address>, Vec<Address>) =
        reply.to.iter().cloned().partition(|a| store.is_failing(a));
    for a in failing {
        note(format!(
            "not sent to {a} (marked failing after hard bounces): {}",
            reply.subject
        ));
    }
    (!to.is_empty()).then_some(Reply { to, ..reply })
}
