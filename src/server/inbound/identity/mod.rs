//! The ONE place that decides who a mail acts for ([`Actor`]: an account and its
//! [`Proof`]). Handlers (`exec`) never check a password, a reply token or a code:
//! they are given the actor this file proved.
//!
//! - A command with a userid and password ([`actor`]): the right password, while the
//!   account's logins are open (`store::logins`: past `MAX_FAILURES` wrong passwords or
//!   codes an hour they are paused); a wrong one is counted. A robot's userid is never
//!   logged into. A command built from a reply whose token proved its player
//!   (`Request::proven`) needs no password, and acts for that player only.
//! - `verify <userid> <code>`: the right code, even while logins are paused; wrong
//!   codes are counted on their own (`store::logins`).
//! - A reply to one of our mails ([`reply_token`]): a genuine reply token (made with
//!   the store's reply key) whose player has the mail's From among their addresses.
//! - A `yinsh move` with a play link's token in the password place (`play.rs`): a
//!   genuine play token of that board, move and player, from one of the account's
//!   confirmed addresses, plays that one move; a token whose move has passed gets
//!   "the game moved on" at the player's own addresses.
//! - Where the answers go ([`carry_out`]): the answers to a proven request go to the
//!   account's own confirmed addresses (the From or Reply-To when it is one of them,
//!   else the account's first), never to an address the mail merely names; a verify
//!   code's answer goes to the address it confirms. The replies of a request proven
//!   for an account with a confirmed address are [`Cause::Proven`]: honest play, which
//!   the gate (`outgoing::gate`) never budgets; every other reply to a mail is a
//!   stranger's, budgeted per mailbox.
//! - Defence in depth ([`from_checked`]): with `[security] trusted_authserv_id` set,
//!   a mail whose From fails the trusted mail system's checks (`Authentication-Results`,
//!   RFC 8601: DMARC failed, or DKIM and SPF failed with no pass) proves nothing: no
//!   password, reply token or code is accepted from it (`Refusal::SenderNotVerified`).
//! - The storm limit ([`proves_sender`]): anyone can forge 60 mails with
//!   `Reply-To: alice@...`, but not alice's password or a reply token minted for her. A
//!   mail that proves its sender as above is not counted, and is carried out over the
//!   limit (its answers go to the account's own addresses, so a player's password
//!   cannot aim a storm of replies at someone else's address).

use crate::mail::auth_results::FromAuth;
use crate::mail::{Address, InboundMail};
use crate::server::command::{Command, Credentials};
use crate::server::exec::{self, Actor, ExecError, Refusal, Request, logins_open};
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, Password, Proof, UserId};
use crate::server::outgoing::{Cause, Reply, threading};
use crate::server::store::{Account, MAX_FAILURES, ReplyToken, Store};

mod play;
use play::Played;

/// At most this many well-formed tokens of one mail are checked against the key.
const TOKENS_CHECKED: usize = 4;

/// Carry out `cmd` for whom it proves ([`actor`]); a proof refused (unknown userid,
/// wrong password or code, logins paused) is answered as any refusal is.
pub fn act(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Vec<Reply>, InternalError> {
    match proved(store, req, cmd) {
        Ok(None) => carry_out(store, req, None, cmd),
        Ok(Some(Played::Proven(actor))) => match play::claimed(cmd) {
            // The page writes the command as the mail's first line too: the comment
            // the opponent reads is the rest.
            Some(claim) if actor.proof == Proof::PlayToken => {
                let comment = play::without_token(req.comment, &claim.token);
                let sub = Request {
                    reply_to: req.reply_to.clone(),
                    comment: &comment,
                    ..*req
                };
                carry_out(store, &sub, Some(&actor), cmd)
            }
            _ => carry_out(store, req, Some(&actor), cmd),
        },
        Ok(Some(Played::MovedOn(actor, refusal))) => {
            // The board as it is now, with the player's fresh tokens (and play link
            // when it is their turn), at their own addresses.
            let proven = Request {
                reply_to: req.reply_to.clone(),
                proven: Some(&actor.account.userid),
                ..*req
            };
            refused_for(store, &proven, &actor, &refusal)
        }
        Err(ExecError::Refused(refusal)) => exec::refused(store, req, &refusal),
        Err(ExecError::Internal(e)) => Err(e),
    }
}

/// Carry out `cmd` for `actor` (proved by [`actor`] or by a reply token): its answers
/// go where [`answering`] says, and are [`Cause::Proven`] when [`owns`] says so.
pub fn carry_out(
    store: &Store,
    req: &Request<'_>,
    actor: Option<&Actor>,
    cmd: &Command,
) -> Result<Vec<Reply>, InternalError> {
    let answered = answering(req, actor);
    let out = exec::execute(store, &answered, actor, cmd)?;
    Ok(caused(out, req, actor))
}

/// A refusal of what a reply token's player asked (a stale turn, an old mail's
/// answer): answered at the player's own address as [`carry_out`] answers, but as a
/// stranger's ([`Cause::Unproven`]): a token already used proves only that someone
/// holds a copy of an old mail, so such refusals are budgeted.
pub fn refused_for(
    store: &Store,
    req: &Request<'_>,
    actor: &Actor,
    refusal: &Refusal,
) -> Result<Vec<Reply>, InternalError> {
    exec::refused(store, &answering(req, Some(actor)), refusal)
}

/// `out`, marked [`Cause::Proven`] when `actor` [`owns`] its account.
fn caused(mut out: Vec<Reply>, req: &Request<'_>, actor: Option<&Actor>) -> Vec<Reply> {
    if actor.is_some_and(|a| owns(a, req.confirm_addresses)) {
        for r in &mut out {
            r.cause = Cause::Proven;
        }
    }
    out
}

/// `req` with its answers sent to `actor`'s own addresses: the reply address when it
/// is one of the account's confirmed addresses, else the account's first confirmed
/// address; for a verify code, the address it confirms. Without an actor, or for
/// an account with no confirmed address, `req` as it is (such answers are a
/// stranger's, budgeted by the gate).
pub fn answering<'a>(req: &Request<'a>, actor: Option<&Actor>) -> Request<'a> {
    let Some(actor) = actor else {
        return Request {
            reply_to: req.reply_to.clone(),
            ..*req
        };
    };
    if let Proof::VerifyCode(address) = &actor.proof {
        return Request {
            reply_to: Some(address.clone()),
            ..*req
        };
    }
    let own = own_addresses(&actor.account, req.confirm_addresses);
    let reply_to = match &req.reply_to {
        Some(r) if own.iter().any(|a| a.same_mailbox(r)) => Some(r.clone()),
        _ => own.first().map(|a| (*a).clone()).or(req.reply_to.clone()),
    };
    Request { reply_to, ..*req }
}

/// `account`'s addresses that its owner confirmed (all of them when confirmation is
/// off).
fn own_addresses(account: &Account, confirm_addresses: bool) -> Vec<&Address> {
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

/// Whether `from` (a mail's From) reaches the same mailbox as one of `account`'s
/// addresses.
pub fn sent_by(account: &Account, from: Option<&Address>) -> bool {
    from.is_some_and(|from| account.addresses.iter().any(|a| a.same_mailbox(from)))
}

/// Who `cmd` acts for: `None` for a command that names no account of the sender's
/// (a challenge, a listing, a new account's signup...); else the account its credentials (or the
/// reply token of `req`) prove, or the refusal (unknown userid, wrong password or
/// code, logins paused, a robot's userid).
pub fn actor(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Option<Actor>, ExecError> {
    match proved(store, req, cmd)? {
        None => Ok(None),
        Some(Played::Proven(actor)) => Ok(Some(actor)),
        Some(Played::MovedOn(_, refusal)) => Err(refusal.into()),
    }
}

/// What `cmd` proves: nobody (`None`), its player, or, for a play link's token whose
/// move has passed, its player and the refusal to answer them with (`play.rs`).
fn proved(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Option<Played>, ExecError> {
    if let Some(claim) = play::claimed(cmd) {
        from_checked(req)?;
        return play::prove(store, req, &claim).map(Some);
    }
    Ok(by_credentials(store, req, cmd)?.map(Played::Proven))
}

/// Who `cmd` acts for by its credentials (a password, a verify code, a reply token's
/// proof): [`actor`] for every command without a play token.
fn by_credentials(
    store: &Store,
    req: &Request<'_>,
    cmd: &Command,
) -> Result<Option<Actor>, ExecError> {
    if let Command::Verify { userid, token } = cmd {
        from_checked(req)?;
        return verified(store, req, userid, token).map(Some);
    }
    if let Command::Signup {
        userid, password, ..
    } = cmd
    {
        return returning(store, req, userid, password);
    }
    if let Command::Challenge {
        password: Some(password),
        white,
        black,
        ..
    } = cmd
    {
        from_checked(req)?;
        return challenger(
            store,
            req,
            password,
            [white.as_written(), black.as_written()],
        )
        .map(Some);
    }
    let Some(auth) = cmd.credentials() else {
        return Ok(None);
    };
    from_checked(req)?;
    let proven = authenticate(store, req, auth);
    match cmd {
        Command::Board { board, .. } => proven.map_err(|e| on_board_named(e, *board)),
        _ => proven,
    }
    .map(Some)
}

/// Refuses every proof of a mail whose From failed the trusted mail system's sender
/// checks (`Request::from_auth`; see the module text).
pub fn from_checked(req: &Request<'_>) -> Result<(), Refusal> {
    match req.from_auth {
        FromAuth::Fail => Err(Refusal::SenderNotVerified),
        FromAuth::Pass | FromAuth::Unknown => Ok(()),
    }
}

/// The account of `auth` if its password is right (or `req`'s reply token proved its
/// player); else the refusal pbmserv gave.
fn authenticate(store: &Store, req: &Request<'_>, auth: &Credentials) -> Result<Actor, ExecError> {
    let Credentials { userid, password } = auth;
    if userid.robot_level().is_some() {
        return Err(Refusal::RobotAccount {
            userid: userid.lowercased(),
        }
        .into());
    }
    let Some(account) = store.account(userid)? else {
        return Err(Refusal::UnknownUserid.into());
    };
    if let Some(proven) = req.proven {
        return if proven == userid {
            Ok(Actor {
                account,
                proof: Proof::ReplyToken,
            })
        } else {
            Err(Refusal::WrongPassword.into())
        };
    }
    logins_open(store, req.now, &account)?;
    // `<password>`, as the syntax lines show it, is read as the password itself.
    let right = account.check_password(password)
        || password
            .unbracketed()
            .is_some_and(|inner| account.check_password(&inner));
    if !right {
        store.login_failed(userid, req.now)?;
        return Err(Refusal::WrongPassword.into());
    }
    Ok(Actor {
        account,
        proof: Proof::Password,
    })
}

/// The player of a challenge whose password `password` is (`yinsh challenge
/// -password <pw> alice bob`: one of the two, tried in that order; robots and
/// userids without an account are skipped, as are accounts whose logins are paused).
/// A password neither's counts as a wrong one against each player tried.
fn challenger(
    store: &Store,
    req: &Request<'_>,
    password: &Password,
    players: [&UserId; 2],
) -> Result<Actor, ExecError> {
    let mut tried = Vec::new();
    let mut paused = None;
    for userid in players {
        if userid.robot_level().is_some() {
            continue;
        }
        let Some(account) = store.account(userid)? else {
            continue;
        };
        match logins_open(store, req.now, &account) {
            Ok(()) => {}
            Err(ExecError::Refused(r)) => {
                paused.get_or_insert(r);
                continue;
            }
            Err(e) => return Err(e),
        }
        if account.check_password(password) {
            return Ok(Actor {
                account,
                proof: Proof::Password,
            });
        }
        tried.push(account.userid);
    }
    for userid in &tried {
        store.login_failed(userid, req.now)?;
    }
    match paused {
        Some(r) if tried.is_empty() => Err(r.into()),
        _ => Err(Refusal::WrongPassword.into()),
    }
}

/// `signup` of a userid that was signed off: its former owner, proved by the
/// account's last password, takes it back (the actor is the retired account); anyone
/// else is refused, a wrong password counting against the userid's limit as a login
/// does. `None` for a userid never signed off: a new account, nobody to prove.
fn returning(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
) -> Result<Option<Actor>, ExecError> {
    let Some(old) = store.retired(userid)? else {
        return Ok(None);
    };
    from_checked(req)?;
    logins_open(store, req.now, &old)?;
    if !old.check_password(password) {
        store.login_failed(userid, req.now)?;
        return Err(Refusal::UseridRetired {
            userid: userid.clone(),
        }
        .into());
    }
    Ok(Some(Actor {
        account: old,
        proof: Proof::Password,
    }))
}

/// `verify <userid> <code>`: the account with the address the code confirms (not yet
/// stored: the handler stores it). A right code is accepted whatever was sent before
/// (it proves the mailbox; a pause of the password's logins does not stop it); wrong
/// ones count on their own hourly limit of the userid (`exec::codes_open`), never
/// against its password.
fn verified(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    code: &Password,
) -> Result<Actor, ExecError> {
    let Some(mut account) = store.account(userid)? else {
        return Err(Refusal::WrongCode.into());
    };
    let Some(address) = account.confirm(code.expose(), req.now) else {
        exec::codes_open(store, req.now, &account)?;
        store.code_failed(userid, req.now)?;
        return Err(Refusal::WrongCode.into());
    };
    Ok(Actor {
        account,
        proof: Proof::VerifyCode(address),
    })
}

/// A login refusal of a command on `board`, naming the board.
pub fn on_board_named(e: ExecError, board: BoardId) -> ExecError {
    match e {
        ExecError::Refused(Refusal::UnknownUserid) => Refusal::UnknownUseridOn { board }.into(),
        ExecError::Refused(Refusal::WrongPassword) => Refusal::WrongPasswordOn { board }.into(),
        e => e,
    }
}

/// What the reply tokens of a mail prove.
#[derive(Debug)]
pub enum TokenProof {
    /// No genuine token (none named, or none made with the current key).
    Nothing,
    /// A genuine token whose player has the mail's From among their addresses.
    Proven {
        /// The token.
        token: ReplyToken,
        /// Its player's account.
        account: Account,
    },
    /// A genuine token whose player has no account now.
    NoAccount(ReplyToken),
    /// A genuine token, but the mail's From is not one of its player's addresses.
    NotTheirs(ReplyToken),
}

/// What the reply tokens `inbound` names prove: the first genuine token whose player
/// has the From address, else the first genuine one (so that the sender is told the
/// address is wrong); at most `TOKENS_CHECKED` (4) are checked. `note` gets log lines.
pub fn reply_token(
    store: &Store,
    inbound: &InboundMail,
    note: &mut dyn FnMut(String),
) -> Result<TokenProof, InternalError> {
    let named = threading::tokens_named(inbound);
    if named.is_empty() {
        return Ok(TokenProof::Nothing);
    }
    let key = store.reply_key()?;
    let mut first = TokenProof::Nothing;
    for token in named.iter().take(TOKENS_CHECKED) {
        if !key.check(token) {
            note(format!(
                "reply token refused (not made with the current key): {token:?}"
            ));
            continue;
        }
        match store.account(token.scope.userid())? {
            Some(account) if sent_by(&account, inbound.from.as_ref()) => {
                return Ok(TokenProof::Proven {
                    token: token.clone(),
                    account,
                });
            }
            Some(_) if matches!(first, TokenProof::Nothing) => {
                first = TokenProof::NotTheirs(token.clone());
            }
            None if matches!(first, TokenProof::Nothing) => {
                first = TokenProof::NoAccount(token.clone());
            }
            _ => {}
        }
    }
    Ok(first)
}

/// Whether `inbound` proves its sender (see the module text): a genuine reply token
/// of its From's player, a genuine play token from a confirmed address of its player,
/// or the right password of the Subject's command, for an account with a confirmed
/// address. `now` for the login gate.
pub fn proves_sender(
    store: &Store,
    inbound: &InboundMail,
    req: &Request<'_>,
) -> Result<bool, InternalError> {
    let (confirm_addresses, now) = (req.confirm_addresses, req.now);
    if from_checked(req).is_err() {
        return Ok(false);
    }
    let account = match reply_token(store, inbound, &mut |_| {})? {
        TokenProof::Proven { account, .. } => Some(account),
        _ => match Command::parse(&inbound.subject) {
            Ok(cmd) => match (play::claimed(&cmd), cmd.credentials()) {
                (Some(claim), _) => return play::proves(store, req, &claim),
                (None, Some(auth)) => password_right(store, auth, now)?,
                (None, None) => None,
            },
            Err(_) => None,
        },
    };
    Ok(account.is_some_and(|a| !own_addresses(&a, confirm_addresses).is_empty()))
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

#[cfg(test)]
mod tests;
