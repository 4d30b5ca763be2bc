//! Whether a mail proves who sent it, so that the per-address storm limit cannot be
//! turned against a player: anyone can forge 60 mails with `Reply-To: alice@...`, but
//! not alice's password or a reply token minted for her. A mail over the storm limit
//! is still carried out when its Subject's command carries a userid and the right
//! password (the login gate open: past `MAX_FAILURES` wrong passwords an hour it
//! proves nothing, and a wrong one counts against it as any wrong password does, so
//! the storm-dropped path is no way around the guessing limit), or when it is a reply
//! with a genuine reply token from its player's address; in both cases only when its
//! reply address is one of that account's own, so that a player's password cannot
//! aim a storm of replies at someone else's address either.

use crate::mail::{Address, InboundMail};
use crate::server::command::{Command, Credentials};
use crate::server::internal::InternalError;
use crate::server::store::{Account, MAX_FAILURES, Store};

use super::by_reply;

/// Whether `inbound`, answered at `reply_to`, proves its sender (see the module
/// text); `now` for the login gate.
pub fn proves_sender(
    store: &Store,
    inbound: &InboundMail,
    reply_to: &Address,
    now: u64,
) -> Result<bool, InternalError> {
    let account = match by_reply::proven_account(store, inbound)? {
        Some(account) => Some(account),
        None => match Command::parse(&inbound.subject) {
            Ok(cmd) => match cmd.credentials() {
                Some(auth) => password_right(store, auth, now)?,
                None => None,
            },
            Err(_) => None,
        },
    };
    Ok(account.is_some_and(|a| a.addresses.iter().any(|x| x.eq_ignore_ascii_case(reply_to))))
}

/// The account of `auth` if its password is right and its logins open; a wrong
/// password is counted.
fn password_right(
    store: &Store,
    auth: &Credentials,
    now: u64,
) -> Result<Option<Account>, InternalError> {
    if auth.userid.robot_level().is_some() {
        return Ok(None);
    }
    let Some(account) = store.account(&auth.userid)? else {
        return Ok(None);
    };
    if store.login_failures(&account.userid, now)?.count >= MAX_FAILURES {
        return Ok(None);
    }
    if account.check_password(&auth.password) {
        return Ok(Some(account));
    }
    store.login_failed(&account.userid, now)?;
    Ok(None)
}
