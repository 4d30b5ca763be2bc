//! Passwords set before the rule of `command::could_show` (no new password may read
//! as a move, a number, an address, a board or a listing word) are still accepted,
//! but a mistyped line could show one where such words are shown. Nobody can see
//! which passwords those are without the password itself, so the owner is told when
//! they use it: after a command that logged in with such a password (the proof
//! records it, `Proven::showable_password`: the password is never checked twice),
//! one short mail to the account's addresses asks them to change it, at most once
//! every [`TELL_EVERY`] seconds (the time of the last one is kept in the account,
//! `Account::old_password_told`). Masking a word because it is the right password
//! would tell a guesser when a guess is right, so the server never does that.
use crate::server::outgoing::Reply;

use crate::server::text::{identity, subjects};

use super::context::Asked;
use super::error::InternalError;
use crate::server::store::Store;

/// The least time between two of these mails for one account: a week.
pub const TELL_EVERY: u64 = 7 * 24 * 3600;

/// The mail that asks the owner to change a password that could be shown, after a
/// command was carried out as `req` asks it; `None` when its proof logged in with no
/// such password, the account is gone (signed off by the command), or the owner was
/// told less than [`TELL_EVERY`] ago. Notes the telling in the account.
pub(super) fn notice(store: &Store, req: &Asked<'_>) -> Result<Option<Reply>, InternalError> {
    let Some(actor) = req.actor().filter(|_| req.proven.showable_password) else {
        return Ok(None);
    };
    // Read again: the command may have changed the account.
    let Some(mut account) = store.account(&actor.account.userid)? else {
        return Ok(None);
    };
    let told_lately = account
        .old_password_told
        .is_some_and(|t| req.now < t.saturating_add(TELL_EVERY));
    if told_lately {
        return Ok(None);
    }
    account.old_password_told = Some(req.now);
    store.put_account(&account)?;
    let userid = &account.userid;
    Ok(Some(Reply {
        to: account.addresses.clone(),
        subject: subjects::change_password_of(userid),
        body: identity::change_old_password(userid),
        ..Reply::default()
    }))
}
