//! The play token as a proof (issue 27): the "Play your move on the board" link of a
//! board mail carries a [`PlayToken`] (`store::play_token`), and the game's page
//! composes `yinsh move <board> <userid> <token> <turn>#<k>` with it in the password
//! place. Such a command ([`claimed`]: a password that reads as a play token) is
//! proven here, never by the password check:
//!
//! - a genuine token (made with the current reply key for this board and userid),
//!   in a mail whose From is one of the account's confirmed addresses (any of its
//!   addresses when confirmation is off), acts for the player ([`Proof::PlayToken`])
//!   and plays the move, answered at the account's own addresses like any proven
//!   request; it plays a move only (`BoardAction::Move`), nothing else;
//! - a genuine token whose move has passed (already played, or the game moved on)
//!   plays nothing: "the game moved on", with the board as it is now, answered at the
//!   player's own addresses ([`Played::MovedOn`]);
//! - a genuine token from another address plays nothing and is answered at the mail's
//!   address as any refusal is, in the server's words only;
//! - a token that is not genuine (another board, another player, altered, or mailed
//!   before `rotate-reply-key`) is checked as a password after all (a password may
//!   have the token's shape; read as every password is, `super::password_of`),
//!   counted as a wrong one when it is not, and refused as a play link that does not
//!   play here.
//!
//! No answer repeats the token: it stands where a password does, so every echo of the
//! command masks it (`command::redact`); the lines of the comment that hold it (the
//! page writes the command as the mail's first line too) are left out of the comment
//! the opponent reads ([`without_token`]).

use crate::mail::Address;
use crate::server::command::{BoardAction, Command, Credentials};
use crate::server::exec::error::PlayLinkRefusal;
use crate::server::exec::{Actor, ExecError, Refusal, Request, logins_open};
use crate::server::game::record::LiveGame;
use crate::server::model::{BoardId, Password, PlayToken, Proof};
use crate::server::store::{Account, Store};

/// A command that offers a play token for a board: what it names.
pub struct Claim<'a> {
    /// The board the command names.
    pub board: BoardId,
    /// The userid and the password place, where the token stands.
    pub auth: &'a Credentials,
    /// The token read from the password place.
    pub token: PlayToken,
    /// Whether the command is a move (the one thing a token may do).
    pub kind: Kind,
}

/// What a command carrying a play token asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A move (`yinsh move ... <turn>`, a pass included).
    Move,
    /// Anything else on the board (resign, an offer, a queued move, chat...).
    Other,
}

/// What a play token proves.
#[derive(Debug)]
pub enum Played {
    /// The player, by a genuine token: the move is played.
    Plays(Actor),
    /// The player, by the password a token that is not genuine turned out to be
    /// (`word`: as it matched).
    Password(Actor, Password),
    /// The player, proven, but the token's move has passed: refused with the board as
    /// it is now, answered at the player's own addresses.
    MovedOn(Actor, Refusal),
}

/// The play token `cmd` offers: a command on a board whose password reads as a
/// [`PlayToken`]; `None` for any other command (its password is checked as always).
pub fn claimed(cmd: &Command) -> Option<Claim<'_>> {
    let Command::Board {
        board,
        auth,
        action,
    } = cmd
    else {
        return None;
    };
    let token = auth.password.expose().parse::<PlayToken>().ok()?;
    let kind = match action {
        BoardAction::Move { .. } => Kind::Move,
        _ => Kind::Other,
    };
    Some(Claim {
        board: *board,
        auth,
        token,
        kind,
    })
}

/// Who `claim` proves (see the module text); a refusal is answered at the mail's
/// address, as any refusal of a command is. The caller has checked the From
/// (`identity::from_checked`); a genuine token is checked as one here
/// (`identity::token_checked`).
pub fn prove(store: &Store, req: &Request<'_>, claim: &Claim<'_>) -> Result<Played, ExecError> {
    let Claim { board, auth, .. } = claim;
    let userid = &auth.userid;
    if userid.robot_level().is_some() {
        return Err(Refusal::RobotAccount {
            userid: userid.lowercased(),
        }
        .into());
    }
    let Some(account) = store.account(userid)? else {
        return Err(Refusal::UnknownUseridOn { board: *board }.into());
    };
    if !store
        .reply_key()?
        .check_play(&claim.token, *board, &account.userid)
    {
        return as_password(store, req, claim, account);
    }
    super::token_checked(req)?;
    if claim.kind != Kind::Move {
        return Err(refused(PlayLinkRefusal::MovesOnly { board: *board }));
    }
    if !from_player(&account, req.from, req.settings.confirm_addresses) {
        return Err(refused(PlayLinkRefusal::NotFromPlayer { board: *board }));
    }
    let actor = Actor {
        account,
        proof: Proof::PlayToken,
    };
    let Some(file) = store.game(*board)? else {
        return Err(Refusal::BoardNotFound { board: *board }.into());
    };
    let number = LiveGame::load(file)?.next_turn_number();
    let marked = claim.token.moveno();
    if marked != number {
        let refusal = PlayLinkRefusal::MovedOn {
            board: *board,
            number,
            marked,
        };
        return Ok(Played::MovedOn(actor, refusal.into()));
    }
    Ok(Played::Plays(actor))
}

/// A token that is not genuine, checked as the password it may be (while the
/// account's logins are open); a wrong one counts as a wrong password and is refused
/// as a play link that does not play here.
fn as_password(
    store: &Store,
    req: &Request<'_>,
    claim: &Claim<'_>,
    account: Account,
) -> Result<Played, ExecError> {
    logins_open(store, req.now, &account)?;
    if let Some(word) = super::password_of(&account, &claim.auth.password) {
        let actor = Actor {
            account,
            proof: Proof::Password,
        };
        return Ok(Played::Password(actor, word));
    }
    store.login_failed(&account.userid, req.now)?;
    Err(refused(PlayLinkRefusal::NotValid { board: claim.board }))
}

/// Whether `from` is one of `account`'s confirmed addresses (any of its addresses
/// when `confirm_addresses` is off).
fn from_player(account: &Account, from: Option<&Address>, confirm_addresses: bool) -> bool {
    from.is_some_and(|from| {
        account
            .addresses
            .iter()
            .any(|a| a.same_mailbox(from) && (!confirm_addresses || account.is_confirmed(a)))
    })
}

/// `comment` (a move's, sent on to the opponent and the watchers) without the lines
/// that hold `token`: the game's page writes the command as the mail's first line,
/// and a token is its player's alone.
///
/// ```text
/// "yinsh move 101 alice play-1-<tag> e5#1\n\nGood luck!" -> "Good luck!"
/// ```
pub fn without_token(comment: &str, token: &PlayToken) -> String {
    let token = token.to_string();
    let kept: Vec<&str> = comment
        .lines()
        .filter(|line| !line.split_whitespace().any(|w| w == token))
        .collect();
    kept.join("\n").trim().to_string()
}

/// `refusal` as the error of a proof.
fn refused(refusal: PlayLinkRefusal) -> ExecError {
    Refusal::PlayLink(refusal).into()
}
