//! Account commands: `signup` (`add`), `change password`, `change address`, `signoff`
//! (`delete`), and `yinsh settings` (text-only or HTML board mails). A new password
//! must not read as a move, a number, an address or a board (`command::could_show`);
//! a signed-off userid is retired, and only its former owner takes it back (proved
//! by its last password in `inbound::identity`, the actor `signup` is given).

use crate::mail::Address;
use crate::server::command::could_show;
use crate::server::game::vacation::Vacations;
use crate::server::model::{ROBOT_PREFIX, is_role_name, skeleton};
use crate::server::store::{Account, Password, Store, Token, UserId};

use crate::server::command::{MailChoice, SettingChoice};
use crate::server::model::Proof;
use crate::server::outgoing::Reply;

use crate::server::text::account as account_text;
use crate::server::text::subjects;

use super::context::{Actor, Asked, games_going_on, to_sender};
use super::error::{ExecError, Refusal};
use super::mailboxes::{crowded, not_local};

fn addresses_or_sender(req: &Asked<'_>, given: &[Address]) -> Result<Vec<Address>, Refusal> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    match req.reply_to {
        Some(a) => Ok(vec![a.clone()]),
        None => Err(Refusal::NoAddress),
    }
}

/// `signup`: a new account, or a retired userid taken back by its former owner
/// (`returning`: the actor `inbound::identity` proved with its last password).
pub(super) fn signup(
    store: &Store,
    req: &Asked<'_>,
    returning: Option<&Actor>,
    userid: &UserId,
    password: &Password,
    addresses: &[Address],
) -> Result<Vec<Reply>, ExecError> {
    if store.account(userid)?.is_some() {
        return Err(Refusal::UseridTaken {
            userid: userid.clone(),
        }
        .into());
    }
    // A name the operator lists as an admin is never taken by mail: admin rights go
    // only to an account that existed when the operator named it.
    if userid.looks_like_robot() || skeleton(userid.as_str()).starts_with(ROBOT_PREFIX) {
        return Err(Refusal::RobotName {
            userid: userid.clone(),
        }
        .into());
    }
    if store.admins()?.contains(&userid.key()) {
        return Err(Refusal::ReservedUserid {
            userid: userid.clone(),
        }
        .into());
    }
    if could_show(password.expose()) {
        return Err(Refusal::PasswordCouldShow.into());
    }
    let returning = returning.map(|actor| &actor.account);
    // A retired userid's owner takes it back whatever it looks like.
    if returning.is_none() {
        new_userid(store, userid)?;
    }
    let addresses = addresses_or_sender(req, addresses)?;
    not_local(&addresses)?;
    crowded(store, req, &addresses, None)?;
    let mut account = Account::new(userid, password, addresses.clone(), req.now)?;
    if let Some(old) = returning {
        account.games = old.games.clone();
        account.created = old.created;
        store.unretire(userid)?;
    }
    let tokens = pending(&mut account, &addresses, req)?;
    store.reindex(None, Some(&account))?;
    store.put_account(&account)?;
    store.add_skeleton(userid)?;
    if !tokens.is_empty() {
        store.mark_unconfirmed(userid, req.now)?;
    }
    let body = account_text::welcome(userid, &addresses);
    let mut to = addresses;
    if let Some(s) = req.answer_to()
        && !to.iter().any(|a| a.eq_ignore_ascii_case(s))
    {
        to.push(s.clone());
    }
    if tokens.is_empty() {
        return Ok(vec![Reply {
            to,
            subject: subjects::signup_for(userid),
            body,
            ..Reply::default()
        }]);
    }
    Ok(verify_mails(&account, tokens, &body))
}

/// Refuses a new userid that reads as a web address, as a role of the server or the
/// mail system, or like a taken (or retired) userid (the same `model::skeleton`, found
/// through the store's look-alike index). Userids that clashed before stay.
fn new_userid(store: &Store, userid: &UserId) -> Result<(), ExecError> {
    if userid.reads_as_web_address() {
        return Err(Refusal::UseridLikeWebAddress {
            userid: userid.clone(),
        }
        .into());
    }
    if is_role_name(userid.as_str()) {
        return Err(Refusal::RoleUserid {
            userid: userid.clone(),
        }
        .into());
    }
    if let Some(like) = store.look_alikes(userid)?.into_iter().next() {
        return Err(Refusal::LookAlikeUserid {
            userid: userid.clone(),
            like,
        }
        .into());
    }
    Ok(())
}

/// Marks `new` addresses of `account` unconfirmed (when the server wants
/// confirmation) and returns each with its token.
fn pending(
    account: &mut Account,
    new: &[Address],
    req: &Asked<'_>,
) -> Result<Vec<(Address, Token)>, ExecError> {
    if !req.settings.confirm_addresses {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for a in new {
        out.push((a.clone(), account.add_pending(a, req.now)?));
    }
    Ok(out)
}

/// One mail to each new address, its Subject the `verify` command that confirms it.
fn verify_mails(account: &Account, tokens: Vec<(Address, Token)>, text: &str) -> Vec<Reply> {
    tokens
        .into_iter()
        .map(|(a, token)| Reply {
            to: vec![a.clone()],
            subject: subjects::verify(&account.userid, token.reveal()),
            body: account_text::confirm_address(text, &a),
            ..Reply::default()
        })
        .collect()
}

/// `verify userid token`: the token mailed to an address proves it reached it
/// (`inbound::identity` checked the code: `actor`'s account holds the address it
/// confirmed).
pub(super) fn verify(store: &Store, actor: &Actor) -> Result<Vec<Reply>, ExecError> {
    let Proof::VerifyCode(address) = &actor.proof else {
        return Err(Refusal::WrongCode.into());
    };
    let account = &actor.account;
    store.put_account(account)?;
    store.unmark_unconfirmed(&account.userid)?;
    Ok(vec![Reply {
        to: vec![address.clone()],
        subject: subjects::address_confirmed_for(&account.userid),
        body: account_text::address_confirmed(address, &account.userid),
        ..Reply::default()
    }])
}

/// `yinsh settings userid password [text-only | html | subject stable|moving |
/// own-turn skip|send]`: choose how board mails come; without a choice, tell how
/// they come now.
pub(super) fn settings(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    choice: Option<SettingChoice>,
) -> Result<Vec<Reply>, ExecError> {
    let mut account = actor.account.clone();
    let before = (account.text_only, account.prefs);
    match choice {
        None => {}
        Some(SettingChoice::Mail(m)) => account.text_only = m == MailChoice::TextOnly,
        Some(SettingChoice::Subject(style)) => account.prefs.subject = style,
        Some(SettingChoice::OwnTurn(own)) => account.prefs.own_turn = own,
    }
    if (account.text_only, account.prefs) != before {
        store.put_account(&account)?;
    }
    Ok(vec![to_sender(
        req,
        &subjects::settings_of(&account.userid),
        account_text::settings(&account),
    )])
}

pub(super) fn change_password(
    store: &Store,
    actor: &Actor,
    new_password: &Password,
) -> Result<Vec<Reply>, ExecError> {
    if could_show(new_password.expose()) {
        return Err(Refusal::PasswordCouldShow.into());
    }
    let mut account = actor.account.clone();
    account.set_password(new_password)?;
    store.put_account(&account)?;
    let body = account_text::password_changed(&account.userid);
    Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: subjects::password_changed_for(&account.userid),
        body,
        ..Reply::default()
    }])
}

pub(super) fn change_address(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    addresses: &[Address],
) -> Result<Vec<Reply>, ExecError> {
    let mut account = actor.account.clone();
    let new = addresses_or_sender(req, addresses)?;
    not_local(&new)?;
    crowded(store, req, &new, Some(&actor.account.userid))?;
    let before = account.clone();
    let old = std::mem::replace(&mut account.addresses, new.clone());
    account
        .unconfirmed
        .retain(|p| new.iter().any(|a| a.same_mailbox(&p.address)));
    let fresh: Vec<Address> = new
        .iter()
        .filter(|a| !old.iter().any(|o| o.same_mailbox(a)))
        .cloned()
        .collect();
    let tokens = if fresh.is_empty() {
        Vec::new()
    } else {
        pending(&mut account, &fresh, req)?
    };
    store.reindex(Some(&before), Some(&account))?;
    store.put_account(&account)?;
    let body = account_text::addresses_changed(&account.userid, &new, &old);
    let mut to = new;
    for a in old {
        if !to.iter().any(|b| b.eq_ignore_ascii_case(&a)) {
            to.push(a);
        }
    }
    let mut out = verify_mails(&account, tokens, &body);
    to.retain(|a| !out.iter().any(|r| r.to.contains(a)));
    if !to.is_empty() {
        out.push(Reply {
            to,
            subject: subjects::address_changed_for(&account.userid),
            body,
            ..Reply::default()
        });
    }
    Ok(out)
}

pub(super) fn signoff(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    let userid = &account.userid;
    let active = games_going_on(store, account)?;
    if !active.is_empty() {
        return Err(Refusal::StillPlaying {
            userid: account.userid.clone(),
            boards: active,
        }
        .into());
    }
    store.reindex(Some(account), None)?;
    store.unmark_unconfirmed(userid)?;
    // The userid is retired, not freed: its games keep the name (`store::retired`).
    store.retire_account(account)?;
    // A vacation going on ends with the account, so a later account of the same
    // name does not inherit it.
    let mut vacations = Vacations::load(store)?;
    if vacations.current(userid, req.now).is_some() {
        vacations.set(userid, req.now, 0);
        vacations.save(store)?;
    }
    Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: subjects::signoff_for(&account.userid),
        body: account_text::signed_off(&account.userid),
        ..Reply::default()
    }])
}
