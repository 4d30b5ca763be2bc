//! Whose addresses a proof answers at: where a proven command's answers go
//! ([`answering`]: the account's own confirmed addresses), whether an actor owns an
//! account with a confirmed address ([`owns`]), whether a From is one of an
//! account's addresses ([`sent_by`]).

use crate::mail::Address;
use crate::server::exec::{Actor, Request};
use crate::server::model::Proof;
use crate::server::store::Account;

/// Where the answers of `actor`'s command go: the mail's reply address when it is
/// one of the account's confirmed addresses, else the account's first confirmed
/// address; for a verify code, the address it confirms. Without an actor, or for an
/// account with no confirmed address, the mail's reply address (such answers are a
/// stranger's, budgeted by the gate).
pub fn answering(req: &Request<'_>, actor: Option<&Actor>) -> Option<Address> {
    let Some(actor) = actor else {
        return req.reply_to.cloned();
    };
    if let Proof::VerifyCode(address) = &actor.proof {
        return Some(address.clone());
    }
    let own = own_addresses(&actor.account, req.settings.confirm_addresses);
    match req.reply_to {
        Some(r) if own.iter().any(|a| a.same_mailbox(r)) => Some(r.clone()),
        _ => own.first().map(|a| (*a).clone()).or(req.reply_to.cloned()),
    }
}

/// `account`'s addresses that its owner confirmed (all of them when confirmation is
/// off).
pub(super) fn own_addresses(account: &Account, confirm_addresses: bool) -> Vec<&Address> {
    account
        .addresses
        .iter()
        .filter(|a| !confirm_addresses || account.is_confirmed(a))
        .collect()
}

/// Whether `actor` is the owner of an account with a confirmed address: its request
/// is honest play, answered at that account's own addresses.
pub fn owns(actor: &Actor, confirm_addresses: bool) -> bool {
    matches!(actor.proof, Proof::VerifyCode(_))
        || !own_addresses(&actor.account, confirm_addresses).is_empty()
}

/// Whether `from` (a mail's From) reaches one of `account`'s addresses' mailboxes.
pub fn sent_by(account: &Account, from: Option<&Address>) -> bool {
    from.is_some_and(|from| account.addresses.iter().any(|a| a.same_mailbox(from)))
}
