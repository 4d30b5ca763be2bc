//! The ONE place that decides who a mail acts for ([`Actor`]: an account and its
//! [`Proof`]). Handlers (`exec`) never check a password, a reply token or a code:
//! they are given the actor this file proved.
//!
//! - A command with a userid and password ([`actor`]): the right password, while the
//!   account's logins are open (`store::logins`: past `MAX_FAILURES` wrong passwords or
//!   codes an hour they are paused); a wrong one is counted. A robot's userid is never
//!   logged into. A command built from a reply whose token proved its player
//!   (`Request::proven`) needs no password, and acts for that player only.
//! - `verify <userid> <code>`: the right code, counted like a password when wrong.
//! - A reply to one of our mails ([`reply_token`]): a genuine reply token (made with
//!   the store's reply key) whose player has the mail's From among their addresses.
//! - The storm limit ([`proves_sender`]): anyone can forge 60 mails with
//!   `Reply-To: alice@...`, but not alice's password or a reply token minted for her. A
//!   mail over the limit is still carried out when it proves its sender as above, and
//!   only when its reply address is one of that account's own, so that a player's
//!   password cannot aim a storm of replies at someone else's address either.

use crate::mail::{Address, InboundMail};
use crate::server::command::{Command, Credentials};
use crate::server::exec::{self, Actor, ExecError, Refusal, Request, logins_open};
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, Proof};
use crate::server::outgoing::{Reply, threading};
use crate::server::store::{Account, MAX_FAILURES, ReplyToken, Store};

/// At most this many well-formed tokens of one mail are checked against the key.
const TOKENS_CHECKED: usize = 4;

/// Carry out `cmd` for whom it proves ([`actor`]); a proof refused (unknown userid,
/// wrong password or code, logins paused) is answered as any refusal is.
pub fn act(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Vec<Reply>, InternalError> {
    match actor(store, req, cmd) {
        Ok(actor) => exec::execute(store, req, actor.as_ref(), cmd),
        Err(ExecError::Refused(refusal)) => exec::refused(store, req, &refusal),
        Err(ExecError::Internal(e)) => Err(e),
    }
}

/// Whether `from` (a mail's From) is one of `account`'s addresses.
pub fn sent_by(account: &Account, from: Option<&Address>) -> bool {
    from.is_some_and(|from| {
        account
            .addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(from))
    })
}

/// Who `cmd` acts for: `None` for a command that names no account of the sender's
/// (a challenge, a listing, a signup...); else the account its credentials (or the
/// reply token of `req`) prove, or the refusal (unknown userid, wrong password or
/// code, logins paused, a robot's userid).
pub fn actor(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Option<Actor>, ExecError> {
    if let Command::Verify { userid, token } = cmd {
        return verified(store, req, userid, token).map(Some);
    }
    let Some(auth) = cmd.credentials() else {
        return Ok(None);
    };
    let proven = authenticate(store, req, auth);
    match cmd {
        Command::Board { board, .. } => proven.map_err(|e| on_board_named(e, *board)),
        _ => proven,
    }
    .map(Some)
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

/// `verify <userid> <code>`: the account with the address the code confirms (not yet
/// stored: the handler stores it). A code is guessed like a password: wrong ones count
/// against the same hourly limit of the userid, and past it no code is even checked.
fn verified(
    store: &Store,
    req: &Request<'_>,
    userid: &crate::server::model::UserId,
    code: &crate::server::model::Password,
) -> Result<Actor, ExecError> {
    let Some(mut account) = store.account(userid)? else {
        return Err(Refusal::WrongCode.into());
    };
    logins_open(store, req.now, &account)?;
    let Some(address) = account.confirm(code.expose(), req.now) else {
        store.login_failed(userid, req.now)?;
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
/// address is wrong); at most [`TOKENS_CHECKED`] are checked. `note` gets log lines.
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

/// Whether `inbound`, answered at `reply_to`, proves its sender (see the module
/// text); `now` for the login gate.
pub fn proves_sender(
    store: &Store,
    inbound: &InboundMail,
    reply_to: &Address,
    now: u64,
) -> Result<bool, InternalError> {
    let account = match reply_token(store, inbound, &mut |_| {})? {
        TokenProof::Proven { account, .. } => Some(account),
        _ => match Command::parse(&inbound.subject) {
            Ok(cmd) => match cmd.credentials() {
                Some(auth) => password_right(store, auth, now)?,
                None => None,
            },
            Err(_) => None,
        },
    };
    Ok(account.is_some_and(|a| sent_by(&a, Some(reply_to))))
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
