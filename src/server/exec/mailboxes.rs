//! What `signup`, `add` and `change address` check of the addresses they are given,
//! each compared as the mailbox it reaches (`Address::canonical`: any case, any
//! `+tag`): no address of this machine or a private network ([`Address::is_local`]);
//! when addresses must be confirmed, at most `ACCOUNTS_PER_ADDRESS` accounts that
//! confirmed the mailbox, and at most `PENDING_PER_ADDRESS` that wait for its code
//! (past that the oldest account that never confirmed anything and plays no game is
//! removed to make room, so forged signups cannot lock a mailbox out).

use crate::mail::Address;
use crate::server::store::{
    ACCOUNTS_PER_ADDRESS, Account, PENDING_PER_ADDRESS, Store, UNCONFIRMED_SECONDS, UserId,
};

use super::context::Asked;
use super::error::{ExecError, Refusal};
use super::unconfirmed::{Removal, remove};

/// Refuses an address of this machine or a private network among `addresses`.
pub(super) fn not_local(addresses: &[Address]) -> Result<(), Refusal> {
    match addresses.iter().find(|a| a.is_local()) {
        Some(a) => Err(Refusal::LocalAddress { address: a.clone() }),
        None => Ok(()),
    }
}

/// Refuses addresses whose mailbox [`ACCOUNTS_PER_ADDRESS`] accounts (other than
/// `except`) confirmed already, and makes room among those waiting for its code
/// (see the module text); only when confirmation is on (a closed community has no
/// cap). Call it last, after every other check: the room it makes is kept.
pub(super) fn crowded(
    store: &Store,
    req: &Asked<'_>,
    addresses: &[Address],
    except: Option<&UserId>,
) -> Result<(), ExecError> {
    if !req.settings.confirm_addresses {
        return Ok(());
    }
    for a in addresses {
        let (confirmed, pending) = store.address_accounts(a)?;
        let others = |accounts: Vec<Account>| -> Vec<Account> {
            accounts
                .into_iter()
                .filter(|x| Some(&x.userid) != except)
                .collect()
        };
        if others(confirmed).len() >= ACCOUNTS_PER_ADDRESS {
            return Err(Refusal::AddressCrowded {
                address: a.to_string(),
                max: ACCOUNTS_PER_ADDRESS,
            }
            .into());
        }
        let pending = others(pending);
        if pending.len() >= PENDING_PER_ADDRESS {
            make_room(store, req.now, a, pending)?;
        }
    }
    Ok(())
}

/// Removes the oldest of `pending` (the accounts waiting for `address`'s code) that
/// never confirmed anything and plays no game; refused when none may go.
fn make_room(
    store: &Store,
    now: u64,
    address: &Address,
    pending: Vec<Account>,
) -> Result<(), ExecError> {
    let mut never: Vec<(u64, Account)> = Vec::new();
    for account in pending {
        if let Some(since) = store.unconfirmed_since(&account.userid)?
            && account.confirmed_none()
        {
            never.push((since, account));
        }
    }
    never.sort_by_key(|(since, _)| *since);
    for (_, account) in &never {
        if !matches!(remove(store, now, account)?, Removal::Kept(_)) {
            return Ok(());
        }
    }
    let oldest = never.first().map_or(now, |(since, _)| *since);
    Err(Refusal::AddressBusy {
        address: address.clone(),
        max: PENDING_PER_ADDRESS,
        until: oldest.saturating_add(UNCONFIRMED_SECONDS),
    }
    .into())
}
