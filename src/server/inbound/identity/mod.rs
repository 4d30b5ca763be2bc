//! Who a mail acts for, decided once per command by [`prove`]: it turns the mail
//! (`exec::Request`) and what the command offers as proof ([`Offered`]: its
//! credentials, or the reply tokens of a reply to one of our mails) into the
//! [`Proven`] everything after it uses: the storm limit ([`proves_sender`]), the
//! handlers (`exec`, given the [`Actor`]: they never check a password, a reply token
//! or a code), the old password's notice (`Proven::showable_password`) and the bounce
//! restore (`run::bounces::shows_working`).
//!
//! - A command with a userid and password: the right password, while the account's
//!   logins are open (`store::logins`: past `MAX_FAILURES` wrong passwords or codes
//!   an hour they are paused); a wrong one is counted. A robot's userid is never
//!   logged into. Every password is read the same way (`password_of`, the one
//!   check of a password): as written, or, written `<password>` as the syntax lines
//!   show its place, inside the brackets.
//! - `verify <userid> <code>`: the right code, even while logins are paused; wrong
//!   codes are counted on their own (`store::logins`).
//! - A reply to one of our mails ([`Offered::Reply`], [`reply_token`]): a genuine
//!   reply token (made with the store's reply key) whose player has the mail's From
//!   among their addresses; what it allows is the proof's `scope`.
//! - A `yinsh move` with a play link's token in the password place (`play.rs`): a
//!   genuine play token of that board, move and player, from one of the account's
//!   confirmed addresses, plays that one move; a token whose move has passed gets
//!   "the game moved on" at the player's own addresses.
//! - Where the answers go ([`answering`]): the answers to a proven command go to the
//!   account's own confirmed addresses (the mail's reply address when it is one of
//!   them, else the account's first), never to an address the mail merely names; a
//!   verify code's answer goes to the address it confirms. A command proven for an
//!   account with a confirmed address makes replies of [`Cause::Owner`]: honest play,
//!   which the gate (`outgoing::gate`) never budgets. So does a mail that proves its
//!   owner without a password (`own.rs`: a trusted confirmed From, a reply token
//!   whatever the first line says), at that mailbox only, up to
//!   [`OWN_MAILS_PER_DAY`]; every other reply to a mail is a stranger's
//!   ([`Cause::Stranger`]), budgeted per mailbox.
//! - Defence in depth ([`from_checked`]): with `[security] trusted_authserv_id` set,
//!   a mail whose From fails the trusted mail system's checks (`Authentication-Results`,
//!   RFC 8601: DMARC failed, or DKIM and SPF failed with no pass) proves nothing: no
//!   password, reply token or code is accepted from it (`Refusal::SenderNotVerified`);
//!   nor from a mail whose From headers name several mailboxes, with or without the
//!   setting; with `[security] require_dmarc_pass`, a reply or play token needs a From
//!   the trusted checks passed (`mail::auth_results::FromAuth::admits`).
//! - The storm limit ([`proves_sender`]): anyone can forge 60 mails with
//!   `Reply-To: alice@...`, but not alice's password or her reply token. A mail that
//!   proves an owner (above) is not counted, and is carried out over the limit (its
//!   answers go to the owner's own addresses, never someone else's).

use crate::mail::Address;
use crate::mail::auth_results::Evidence;
use crate::server::command::{Command, Credentials, could_show};
use crate::server::exec::{
    self, Actor, Asked, ByReply, ExecError, Proven, Refusal, Request, logins_open,
};
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, Password, Proof, UserId};
use crate::server::outgoing::{Cause, Reply};
use crate::server::store::{Account, ReplyToken, Store};

mod addresses;
mod own;
mod play;
use addresses::own_addresses;
pub use addresses::{answering, owns, sent_by};
pub use own::{OWN_MAILS_PER_DAY, answered_as, count_own, unproved, vouched_by_reply};
use play::Played;

/// At most this many well-formed tokens of one mail are checked against the key.
const TOKENS_CHECKED: usize = 4;

/// What a command offers as the proof of who sends it.
#[derive(Clone, Copy)]
pub enum Offered<'a> {
    /// A command as written: its credentials (a password, a verify code, a play
    /// token in the password place), or none.
    Command(&'a Command),
    /// A reply to one of our mails: the reply tokens it names (read once,
    /// `Incoming::tokens`).
    Reply(&'a [ReplyToken]),
}

/// What a command's credentials prove, before it is told where the answers go.
enum Credited {
    /// Nobody: the command names no account of the sender's.
    Nobody,
    /// The account, by a verify code, a reply token or a play token.
    Acts(Actor),
    /// The account, by its password: `word` is the password as it matched (as
    /// written, or inside `<>`).
    LoggedIn(Actor, Password),
    /// The account, proven, but what it asks is refused (a play link whose move has
    /// passed): answered at the account's own addresses.
    Refused(Actor, Refusal),
}

/// THE proof of one command of a mail: who `offered` proves (see the module text),
/// where the answers go, who answers for them, and whether its password could be
/// shown. A proof refused (unknown userid, wrong password or code, logins paused, a
/// forged From, a token from another address) comes back as [`Proven::refusal`].
/// `note` gets the log lines.
pub fn prove(
    store: &Store,
    req: &Request<'_>,
    offered: Offered<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Proven, InternalError> {
    let credited = match offered {
        Offered::Command(cmd) => match by_command(store, req, cmd) {
            Ok(credited) => credited,
            Err(ExecError::Refused(refusal)) => return Ok(refused(req, refusal)),
            Err(ExecError::Internal(e)) => return Err(e),
        },
        Offered::Reply(tokens) => return by_reply_token(store, req, tokens, note),
    };
    let showable = match (&credited, offered) {
        (Credited::LoggedIn(_, word), Offered::Command(cmd)) => {
            // `change password` sets a new one, checked as any new password.
            cmd.credentials().is_some()
                && !matches!(cmd, Command::ChangePassword { .. })
                && could_show(word.expose())
        }
        _ => false,
    };
    let (actor, refusal) = match credited {
        Credited::Nobody => (None, None),
        Credited::Acts(actor) | Credited::LoggedIn(actor, _) => (Some(actor), None),
        Credited::Refused(actor, refusal) => (Some(actor), Some(refusal)),
    };
    let mut proven = proven_for(req, actor, refusal);
    proven.showable_password = showable;
    if let Some(from) = own::trusted_own_from(store, req, &proven)? {
        own::vouch(store, req, from, &mut proven, note)?;
    }
    Ok(proven)
}

/// The proof of `actor` (or of nobody), refused with `refusal` or not: its answers
/// where [`answering`] says, of [`Cause::Owner`] when the actor [`owns`] its account
/// and nothing was refused.
fn proven_for(req: &Request<'_>, actor: Option<Actor>, refusal: Option<Refusal>) -> Proven {
    let confirm = req.settings.confirm_addresses;
    let cause = match &actor {
        Some(a) if refusal.is_none() && owns(a, confirm) => Cause::Owner,
        _ => Cause::Stranger,
    };
    Proven {
        answer_to: answering(req, actor.as_ref()),
        actor,
        refusal,
        cause,
        ..Proven::default()
    }
}

/// A proof refused before any account was proved: answered at the mail's reply
/// address, as a stranger's.
fn refused(req: &Request<'_>, refusal: Refusal) -> Proven {
    proven_for(req, None, Some(refusal))
}

/// Whether `proven` proves the mail's sender for the storm limit: it names the
/// owner of an account with a confirmed address (a refusal of what they asked
/// included), or the mail proves its owner ([`Proven::vouched`]).
pub fn proves_sender(proven: &Proven, req: &Request<'_>) -> bool {
    let confirm = req.settings.confirm_addresses;
    let owner = |a: &Actor| !own_addresses(&a.account, confirm).is_empty();
    proven.vouched.is_some() || proven.actor.as_ref().is_some_and(owner)
}

/// Carry out `cmd` as its proof `proven` says, with `comment`: a refused proof is
/// answered with its refusal (at the actor's own addresses when one was proved); a
/// play token's command without its token's lines.
pub fn act(
    store: &Store,
    req: &Request<'_>,
    proven: &Proven,
    cmd: &Command,
    comment: &str,
) -> Result<Vec<Reply>, InternalError> {
    let asked = Asked {
        mail: req,
        proven,
        comment,
    };
    if let Some(refusal) = &proven.refusal {
        return exec::refused(store, &asked, refusal);
    }
    match play::claimed(cmd) {
        // The page writes the command as the mail's first line too: the comment the
        // opponent reads is the rest.
        Some(claim) if asked.actor().is_some_and(|a| a.proof == Proof::PlayToken) => {
            let comment = play::without_token(comment, &claim.token);
            let sub = asked.with_comment(&comment);
            carry_out(&sub, |asked| exec::execute(store, asked, cmd))
        }
        _ => carry_out(&asked, |asked| exec::execute(store, asked, cmd)),
    }
}

/// Carry out what a reply token's player asks by replying (`by_reply`), proven by
/// `asked`'s reply token.
pub fn act_by_reply(
    store: &Store,
    asked: &Asked<'_>,
    what: &ByReply<'_>,
) -> Result<Vec<Reply>, InternalError> {
    carry_out(asked, |asked| exec::execute_reply(store, asked, what))
}

/// The replies of `run` (exec), marked with the proof's cause; of a proof the mail
/// alone vouched for ([`Proven::vouched`]), only the replies to the owner's own
/// mailbox are the owner's (a password-less challenge's board mail to the opponent
/// stays a stranger's).
fn carry_out(
    asked: &Asked<'_>,
    run: impl FnOnce(&Asked<'_>) -> Result<Vec<Reply>, InternalError>,
) -> Result<Vec<Reply>, InternalError> {
    let mut out = run(asked)?;
    let proven = asked.proven;
    for r in &mut out {
        r.cause = match &proven.vouched {
            Some(own) if !r.to.iter().all(|a| a.same_mailbox(own)) => Cause::Stranger,
            _ => proven.cause,
        };
    }
    Ok(out)
}

/// A refusal of what a reply token's player asked (no move, an old mail, words
/// after the game): the player's, at their own address, counted in the mailbox's
/// [`OWN_MAILS_PER_DAY`] (an auto-responder is refused so); with the proof used.
pub fn refused_for(
    store: &Store,
    asked: &Asked<'_>,
    refusal: &Refusal,
    note: &mut dyn FnMut(String),
) -> Result<(Vec<Reply>, Proven), InternalError> {
    let mut proven = asked.proven.clone();
    if proven.cause == Cause::Owner
        && let Some(own) = proven.answer_to.clone()
    {
        own::vouch(store, asked.mail, own, &mut proven, note)?;
    }
    let sub = Asked {
        proven: &proven,
        ..*asked
    };
    let replies = carry_out(&sub, |asked| exec::refused(store, asked, refusal))?;
    Ok((replies, proven))
}

/// What `cmd`'s credentials prove: nobody, its player, or, for a play link's token
/// whose move has passed, its player and the refusal to answer them with.
fn by_command(store: &Store, req: &Request<'_>, cmd: &Command) -> Result<Credited, ExecError> {
    if let Some(claim) = play::claimed(cmd) {
        from_checked(req)?;
        return Ok(match play::prove(store, req, &claim)? {
            Played::Plays(actor) => Credited::Acts(actor),
            Played::Password(actor, word) => Credited::LoggedIn(actor, word),
            Played::MovedOn(actor, refusal) => Credited::Refused(actor, refusal),
        });
    }
    if let Command::Verify { userid, token } = cmd {
        from_checked(req)?;
        return verified(store, req, userid, token).map(Credited::Acts);
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
        let players = [white.as_written(), black.as_written()];
        return challenger(store, req, password, players);
    }
    let Some(auth) = cmd.credentials() else {
        return Ok(Credited::Nobody);
    };
    from_checked(req)?;
    let proven = authenticate(store, req, auth);
    match cmd {
        Command::Board { board, .. } => proven.map_err(|e| on_board_named(e, *board)),
        _ => proven,
    }
}

/// The proof of a reply to one of our mails by its `tokens` (see [`reply_token`]):
/// the token's player, at their own addresses, with what the token allows; refused
/// when the From failed the trusted checks or is not the player's; nobody when no
/// genuine token of an account names the mail (it gets `by_reply`'s short answer).
fn by_reply_token(
    store: &Store,
    req: &Request<'_>,
    tokens: &[ReplyToken],
    note: &mut dyn FnMut(String),
) -> Result<Proven, InternalError> {
    // A From the trusted mail system failed proves nothing, a reply token included.
    if let Err(doubt) = req
        .from_auth
        .admits(Evidence::Token, req.settings.token_rule)
    {
        note(format!("reply token not read: {doubt}"));
        return Ok(refused(req, Refusal::SenderNotVerified(doubt)));
    }
    Ok(match reply_token(store, req.from, tokens, note)? {
        TokenProof::Nothing => proven_for(req, None, None),
        TokenProof::NoAccount(token) => {
            note(format!(
                "reply token of {}: no such account now",
                token.scope.userid()
            ));
            proven_for(req, None, None)
        }
        TokenProof::NotTheirs(token) => {
            let userid = token.scope.userid();
            let from = req.from.map_or("(no From)", |a| &**a).to_string();
            note(format!(
                "reply token of {userid} refused: {from} is not one of their addresses"
            ));
            refused(
                req,
                Refusal::ReplyNotYours {
                    userid: userid.clone(),
                    from,
                },
            )
        }
        TokenProof::Theirs { token, account } => {
            note(format!(
                "reply token of {} accepted: {:?}",
                account.userid, token.scope
            ));
            let actor = Actor {
                account,
                proof: Proof::ReplyToken,
            };
            Proven {
                scope: Some(token.scope),
                ..proven_for(req, Some(actor), None)
            }
        }
    })
}

/// The word of `written` that is `account`'s password, read as the syntax lines show
/// a password's place: as written, or, written `<password>`, inside the brackets.
/// THE one check of a password against its argon2 hash.
fn password_of(account: &Account, written: &Password) -> Option<Password> {
    [Some(written.clone()), written.unbracketed()]
        .into_iter()
        .flatten()
        .find(|word| account.check_password(word))
}

/// Refuses every proof of a mail whose From failed the trusted mail system's sender
/// checks or names several mailboxes (`Request::from_auth`; see the module text).
pub fn from_checked(req: &Request<'_>) -> Result<(), Refusal> {
    proof_checked(req, Evidence::Secret)
}

/// [`from_checked`] for a token (reply token, play token), which under `[security]
/// require_dmarc_pass` also needs a From the trusted checks passed
/// (`FromAuth::admits`).
pub fn token_checked(req: &Request<'_>) -> Result<(), Refusal> {
    proof_checked(req, Evidence::Token)
}

fn proof_checked(req: &Request<'_>, evidence: Evidence) -> Result<(), Refusal> {
    req.from_auth
        .admits(evidence, req.settings.token_rule)
        .map_err(Refusal::SenderNotVerified)
}

/// The account of `auth` if its password is right; else the refusal pbmserv gave.
fn authenticate(
    store: &Store,
    req: &Request<'_>,
    auth: &Credentials,
) -> Result<Credited, ExecError> {
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
    logins_open(store, req.now, &account)?;
    let Some(word) = password_of(&account, password) else {
        store.login_failed(userid, req.now)?;
        return Err(Refusal::WrongPassword.into());
    };
    Ok(Credited::LoggedIn(
        Actor {
            account,
            proof: Proof::Password,
        },
        word,
    ))
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
) -> Result<Credited, ExecError> {
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
        if let Some(word) = password_of(&account, password) {
            let actor = Actor {
                account,
                proof: Proof::Password,
            };
            return Ok(Credited::LoggedIn(actor, word));
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
) -> Result<Credited, ExecError> {
    let Some(old) = store.retired(userid)? else {
        return Ok(Credited::Nobody);
    };
    from_checked(req)?;
    logins_open(store, req.now, &old)?;
    let Some(word) = password_of(&old, password) else {
        store.login_failed(userid, req.now)?;
        return Err(Refusal::UseridRetired {
            userid: userid.clone(),
        }
        .into());
    };
    let actor = Actor {
        account: old,
        proof: Proof::Password,
    };
    Ok(Credited::LoggedIn(actor, word))
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
    Theirs {
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

/// What the reply tokens `tokens` of a mail from `from` prove: the first genuine
/// token whose player has the From address, else the first genuine one (so that the
/// sender is told the address is wrong); at most `TOKENS_CHECKED` (4) are checked.
/// `note` gets log lines.
pub fn reply_token(
    store: &Store,
    from: Option<&Address>,
    tokens: &[ReplyToken],
    note: &mut dyn FnMut(String),
) -> Result<TokenProof, InternalError> {
    if tokens.is_empty() {
        return Ok(TokenProof::Nothing);
    }
    let key = store.reply_key()?;
    let mut first = TokenProof::Nothing;
    for token in tokens.iter().take(TOKENS_CHECKED) {
        if !key.check(token) {
            note(format!(
                "reply token refused (not made with the current key): {token:?}"
            ));
            continue;
        }
        match store.account(token.scope.userid())? {
            Some(account) if sent_by(&account, from) => {
                return Ok(TokenProof::Theirs {
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

#[cfg(test)]
mod tests;
