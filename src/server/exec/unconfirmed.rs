//! Accounts that never confirmed an address (`store::unconfirmed`): after 7 days
//! (`UNCONFIRMED_SECONDS`) `tick` removes them with their codes ([`expire`]), and a
//! signup naming a mailbox that `PENDING_PER_ADDRESS` such accounts name makes room
//! by removing the oldest (`mailboxes.rs`). An account with a game going on is kept
//! until its games end (a stranger's games then end as any game does, by play,
//! resignation, decline or forfeit). One without any game is deleted and its userid
//! freed; one whose games all ended is retired, as a signed-off account is, since
//! those games keep its name.

use crate::server::game::vacation::Vacations;
use crate::server::model::BoardId;
use crate::server::store::{Account, Store, UNCONFIRMED_SECONDS};
use crate::server::text::account as account_text;

use super::context::games_going_on;
use super::error::InternalError;

/// What became of an account that never confirmed an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// Deleted; its userid is free again.
    Deleted,
    /// Retired: its games (all ended) keep its userid.
    Retired,
    /// Kept: it plays these boards still.
    Kept(Vec<BoardId>),
}

/// Removes `account` (which never confirmed an address) unless it plays a game going
/// on: from the address index, the list of unconfirmed accounts, the look-alike
/// index when its userid is freed; a vacation of it ends.
pub fn remove(store: &Store, now: u64, account: &Account) -> Result<Removal, InternalError> {
    let going_on = games_going_on(store, account)?;
    if !going_on.is_empty() {
        return Ok(Removal::Kept(going_on));
    }
    let userid = &account.userid;
    store.reindex(Some(account), None)?;
    store.unmark_unconfirmed(userid)?;
    let mut vacations = Vacations::load(store)?;
    if vacations.current(userid, now).is_some() {
        vacations.set(userid, now, 0);
        vacations.save(store)?;
    }
    if account.games.is_empty() {
        store.delete_account(userid)?;
        store.remove_skeleton(userid)?;
        Ok(Removal::Deleted)
    } else {
        store.retire_account(account)?;
        Ok(Removal::Retired)
    }
}

/// `tick`'s expiry: every account that has confirmed no address 7 days after it was
/// made is removed ([`remove`]); returns a line to log for each one removed.
pub fn expire(store: &Store, now: u64) -> Result<Vec<String>, InternalError> {
    let mut lines = Vec::new();
    for userid in store.unconfirmed_due(now)? {
        let account = match store.account(&userid)? {
            Some(a) if a.confirmed_none() => a,
            // Gone, or it confirmed an address since: no longer listed.
            _ => {
                store.unmark_unconfirmed(&userid)?;
                continue;
            }
        };
        let days = UNCONFIRMED_SECONDS / 86_400;
        match remove(store, now, &account)? {
            Removal::Deleted => lines.push(account_text::expired_deleted(&userid, days)),
            Removal::Retired => lines.push(account_text::expired_retired(&userid, days)),
            Removal::Kept(_) => {}
        }
    }
    Ok(lines)
}
