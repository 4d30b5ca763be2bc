//! Addresses marked failing after hard bounces (issue 30, `run::bounces`): the gate
//! leaves them out of every reply to players. A bounce record that does not read is
//! the store's named error, and the run fails with it (exit 75) rather than mail an
//! address it cannot judge.

use crate::mail::Address;
use crate::server::internal::InternalError;
use crate::server::outgoing::reply::Reply;
use crate::server::store::Store;

use super::verdict::{Held, HeldBack};

/// `reply` without the recipients marked failing after hard bounces, each left out
/// with a [`HeldBack`]; `None` when none is left.
pub(super) fn without_failing(
    store: &Store,
    reply: Reply,
    note: &mut dyn FnMut(HeldBack),
) -> Result<Option<Reply>, InternalError> {
    let mut to = Vec::with_capacity(reply.to.len());
    let mut failing: Vec<Address> = Vec::new();
    for a in &reply.to {
        if store.is_failing(a)? {
            failing.push(a.clone());
        } else {
            to.push(a.clone());
        }
    }
    for a in failing {
        note(HeldBack::new(
            Held::Failing,
            format!(
                "not sent to {a} (marked failing after hard bounces): {}",
                reply.described()
            ),
        ));
    }
    Ok((!to.is_empty()).then_some(Reply { to, ..reply }))
}
