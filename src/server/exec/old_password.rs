//! Passwords set before the rule of `command::could_show` (no new password may read
//! as a move, a number, an address, a board or a listing word) are still accepted,
//! but a mistyped line could show one where such words are shown. Nobody can see
//! which passwords those are without the password itself, so the owner is told when
//! they use it: after a command that logged in with such a password, one short mail
//! to the account's addresses asks them to change it, at most once every
//! [`TELL_EVERY`] seconds (the time of the last one is kept in the account,
//! `Account::old_password_told`). Masking a word because it is the right password
//! would tell a guesser when a guess is right, so the server never does that.
use crate::server::outgoing::Reply;

use crate::server::text::subjects;

use super::context::Request;
use super::error::InternalError;
use crate::server::command::{Command, could_show};
use crate::server::store::{Password, Store};

/// The least time between two of these mails for one account: a week.
pub const TELL_EVERY: u64 = 7 * 24 * 3600;

/// The mail that asks the owner to change a password that could be shown, after
/// `cmd` was carried out for them; `None` when its password is not such a one,
/// was not the account's (the command did not log in), or the owner was told less
/// than [`TELL_EVERY`] ago. Notes the telling in the account.
pub(super) fn notice(
    store: &Store,
    req: &Request<'_>,
    cmd: &Command,
) -> Result<Option<Reply>, InternalError> {
    // A reply token proves the player without a password.
    if req.proven.is_some() {
        return Ok(None);
    }
    // `change password` sets a new one, checked as any new password.
    let Some(auth) = cmd
        .credentials()
        .filter(|_| !matches!(cmd, Command::ChangePassword { .. }))
    else {
        return Ok(None);
    };
    // `<pw>` is read as `pw` (`context::bracketed`).
    let word: Password = auth
        .password
        .unbracketed()
        .unwrap_or_else(|| auth.password.clone());
    if !could_show(word.expose()) {
        return Ok(None);
    }
    let Some(mut account) = store.account(&auth.userid)? else {
        return Ok(None);
    };
    let told_lately = account
        .old_password_told
        .is_some_and(|t| req.now < t.saturating_add(TELL_EVERY));
    if told_lately || !account.check_password(&word) {
        return Ok(None);
    }
    account.old_password_told = Some(req.now);
    store.put_account(&account)?;
    let userid = &account.userid;
    Ok(Some(Reply {
        to: account.addresses.clone(),
        subject: subjects::change_password_of(userid),
        body: format!(
            "The password of {userid} was set before passwords that read as a move, a number,\n\
             an e-mail address, a board number or a listing word were refused. It still\n\
             works, but if a command is mistyped so that the password lands where such a\n\
             word goes, the answer and the server's log could show it there.\n\n\
             Please change it (the new one with a letter from l to z other than x, or a\n\
             sign such as ! or _):\n\n\
             \x20   change password {userid} <current-password> <new-password>\n\n\
             This mail comes at most once a week while the password is unchanged.\n"
        ),
        ..Reply::default()
    }))
}
