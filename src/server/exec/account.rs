//! Account commands: `signup` (`add`), `change password`, `change address`, `signoff`
//! (`delete`).

use crate::mail::Address;
use crate::mail::address::list;
use crate::server::game::record::LiveGame;
use crate::server::store::{Account, Password, Store, UserId};

use super::context::{Reply, Request, authenticate};
use super::error::{ExecError, Refusal};

fn addresses_or_sender(req: &Request<'_>, given: &[Address]) -> Result<Vec<Address>, Refusal> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    match &req.reply_to {
        Some(a) => Ok(vec![a.clone()]),
        None => Err(Refusal::NoAddress),
    }
}

pub(super) fn signup(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
    addresses: &[Address],
) -> Result<Vec<Reply>, ExecError> {
    if store.account(userid)?.is_some() {
        return Err(Refusal::UseridTaken {
            userid: userid.to_string(),
        }
        .into());
    }
    let addresses = addresses_or_sender(req, addresses)?;
    let account = Account::new(userid, password, addresses.clone(), req.now)?;
    store.put_account(&account)?;
    let body = format!(
        "Welcome to YINSH by e-mail, {userid}.\n\n\
         Your userid {userid} is registered. Mail for it goes to: {}\n\
         Keep your password: every move needs it, and it is never mailed to you.\n\n\
         To start a game, send the Subject:\n    yinsh challenge {userid} <opponent's userid>\n\
         (you play White and move first). Send \"yinsh help\" for how to play.\n",
        list(&addresses)
    );
    let mut to = addresses;
    if let Some(s) = &req.reply_to
        && !to.iter().any(|a| a.eq_ignore_ascii_case(s))
    {
        to.push(s.clone());
    }
    Ok(vec![Reply {
        to,
        subject: format!("Signup for {userid}"),
        body,
    }])
}

pub(super) fn change_password(
    store: &Store,
    userid: &UserId,
    password: &Password,
    new_password: &Password,
) -> Result<Vec<Reply>, ExecError> {
    let mut account = authenticate(store, userid, password)?;
    account.set_password(new_password)?;
    store.put_account(&account)?;
    let body = format!(
        "The password of {} has been changed.\nIf you did not ask for this, reply at once.\n",
        account.userid
    );
    Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: format!("Password changed for {}", account.userid),
        body,
    }])
}

pub(super) fn change_address(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
    addresses: &[Address],
) -> Result<Vec<Reply>, ExecError> {
    let mut account = authenticate(store, userid, password)?;
    let new = addresses_or_sender(req, addresses)?;
    let old = std::mem::replace(&mut account.addresses, new.clone());
    store.put_account(&account)?;
    let body = format!(
        "The e-mail addresses of {} are now: {}\n(They were: {}.)\n",
        account.userid,
        list(&new),
        list(&old)
    );
    let mut to = new;
    for a in old {
        if !to.iter().any(|b| b.eq_ignore_ascii_case(&a)) {
            to.push(a);
        }
    }
    Ok(vec![Reply {
        to,
        subject: format!("Address changed for {}", account.userid),
        body,
    }])
}

pub(super) fn signoff(
    store: &Store,
    userid: &UserId,
    password: &Password,
) -> Result<Vec<Reply>, ExecError> {
    let account = authenticate(store, userid, password)?;
    let mut active = Vec::new();
    for &b in &account.games {
        if let Some(file) = store.game(b)?
            && !LiveGame::load(file)?.game.is_over()
        {
            active.push(b.get());
        }
    }
    if !active.is_empty() {
        return Err(Refusal::StillPlaying {
            userid: account.userid.to_string(),
            boards: active,
        }
        .into());
    }
    store.delete_account(userid)?;
    Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: format!("Signoff for {}", account.userid),
        body: format!(
            "The account {} has been removed. Thank you for playing.\n",
            account.userid
        ),
    }])
}
