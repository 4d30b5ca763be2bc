//! Carrying out one command: the router. Who asks was proved before (the [`Actor`]
//! of `inbound::identity`: password, reply token or code; the From address alone
//! authorises nothing); a player's mistake becomes an error reply; only internal failures come back as `Err`. A comment is cut to
//! `text::cut::MAX_COMMENT_CHARS` here, before any handler keeps or sends it. One
//! file per command family: [`account`], [`play`] (and `decline`; a password-less challenge's message held, `held`), [`offer`], [`review`], [`social`], [`listing`], [`seeks`]; `old_password` asks the owner of a password set before
//! `command::could_show` refused such ones to change it; what they share is in
//! [`context`] and [`error`].

pub mod account;
mod all_games;
pub mod context;
pub mod decline;
pub mod error;
mod for_others;
mod held;
pub mod listing;
mod mailboxes;
pub mod offer;
mod old_password;
pub mod plain;
pub mod play;
pub mod review;
pub mod robots;
pub mod seeks;
pub mod social;
pub mod tournament;
pub mod unconfirmed;

use crate::server::command::{BoardAction, Command, Said, SeekCommand};
use crate::server::model::{BoardId, UserId};
use crate::server::store::Store;
use std::borrow::Cow;

use crate::server::text::{cut, help, subjects};

pub use crate::server::outgoing::Reply;
pub use context::{Actor, Asked, Proven, Request, codes_open, logins_open};
pub use error::{ExecError, InternalError, Refusal};

use context::{error_reply, owner_notice, to_sender};

/// Carry out `cmd` as `req` asks it, for the actor its proof names
/// (`inbound::identity::prove` decided it from the command's credentials; `None` for a
/// command that carries none) and return the replies to send.
pub fn execute(store: &Store, req: &Asked<'_>, cmd: &Command) -> Result<Vec<Reply>, InternalError> {
    carried(store, req, |req| route(store, req, req.actor(), cmd))
}

/// What a reply token's player asks by replying (`inbound::by_reply`): written as no
/// command, so it carries no credentials; the token proved the player.
pub enum ByReply<'a> {
    /// A turn, an answer, a chat... on one board.
    Board {
        /// The board.
        board: BoardId,
        /// What is done on it.
        action: &'a BoardAction,
    },
    /// A message back to the sender of the message answered.
    Message {
        /// Its recipient.
        to: &'a [Said<UserId>],
    },
    /// The challenge's message held on this board passed on (issue 45): the reply
    /// answers the challenger's answer that said it is held.
    Held {
        /// The board the challenge started.
        board: BoardId,
    },
}

/// Carry out what a reply token's player asks by replying (`by_reply`), as
/// [`execute`] carries out a command.
pub fn execute_reply(
    store: &Store,
    req: &Asked<'_>,
    asked: &ByReply<'_>,
) -> Result<Vec<Reply>, InternalError> {
    carried(store, req, |req| {
        let actor = proved(req.actor())?;
        match asked {
            ByReply::Board { board, action } => on_board(store, req, *board, actor, action),
            ByReply::Message { to } => social::message(store, req, actor, to),
            ByReply::Held { board } => held::by_reply(store, req, *board, actor),
        }
    })
}

/// The replies of `run` (a handler called with `req`, its comment cut to
/// `text::cut::MAX_COMMENT_CHARS` once, here, for every handler): a refusal becomes
/// its error mail; the old password's notice follows when the proof asks for it.
fn carried(
    store: &Store,
    req: &Asked<'_>,
    run: impl FnOnce(&Asked<'_>) -> Result<Vec<Reply>, ExecError>,
) -> Result<Vec<Reply>, InternalError> {
    let comment = cut::comment(req.comment);
    let capped;
    let req = match &comment {
        Cow::Borrowed(_) => req,
        Cow::Owned(text) => {
            capped = req.with_comment(text);
            &capped
        }
    };
    match run(req) {
        Ok(mut replies) => {
            replies.extend(old_password::notice(store, req)?);
            Ok(replies)
        }
        Err(ExecError::Refused(refusal)) => refused(store, req, &refusal),
        Err(ExecError::Internal(e)) => Err(e),
    }
}

/// The actor of a command that carries credentials: `inbound::identity` proves one
/// for every such command, so a missing one is refused as an unknown userid.
fn proved(actor: Option<&Actor>) -> Result<&Actor, ExecError> {
    actor.ok_or_else(|| Refusal::UnknownUserid.into())
}

/// The handler of `cmd`.
fn route(
    store: &Store,
    req: &Asked<'_>,
    actor: Option<&Actor>,
    cmd: &Command,
) -> Result<Vec<Reply>, ExecError> {
    match cmd {
        // `help yinsh`: the YINSH help, as `yinsh help`.
        Command::Help { topics } if topics.iter().any(|t| t == "yinsh") => Ok(vec![to_sender(
            req,
            &subjects::yinsh_help(),
            help::yinsh_help(),
        )]),
        Command::Help { .. } => Ok(vec![to_sender(
            req,
            &subjects::help(),
            help::general_help(&req.settings.address()),
        )]),
        Command::List => Ok(vec![to_sender(req, &subjects::list(), help::list_text())]),
        Command::YinshHelp => Ok(vec![to_sender(
            req,
            &subjects::yinsh_help(),
            help::yinsh_help(),
        )]),
        Command::Multiple => Err(Refusal::NestedMultiple.into()),
        Command::Signup {
            userid,
            password,
            addresses,
        } => account::signup(store, req, actor, userid, password, addresses),
        Command::ChangePassword { new_password, .. } => {
            account::change_password(store, proved(actor)?, new_password)
        }
        Command::ChangeAddress { addresses, .. } => {
            account::change_address(store, req, proved(actor)?, addresses)
        }
        Command::Signoff { .. } => account::signoff(store, req, proved(actor)?),
        Command::Challenge {
            blitz,
            nag_days,
            forfeit_days,
            white,
            black,
            ..
        } => play::challenge(
            store,
            req,
            actor,
            *blitz,
            (*nag_days, *forfeit_days),
            [white, black],
        ),
        Command::Board { board, action, .. } => {
            on_board(store, req, *board, proved(actor)?, action)
        }
        Command::Review { board } => review::review(store, req, *board, None),
        Command::Show { boards } => listing::show(store, req, boards),
        Command::Games {
            userids,
            filter,
            page,
        } if userids.is_empty() => all_games::games(store, req, *filter, *page),
        Command::Games {
            userids,
            filter,
            page,
        } => listing::games(store, req, userids, *filter, *page),
        Command::Preview { at, moves } => play::preview(store, req, *at, moves),
        Command::ShowAs { boards, filter, .. } => {
            listing::show_as(store, req, proved(actor)?, boards, *filter)
        }
        Command::ShowPlayers { userids, filter } => {
            listing::show_players(store, req, userids, *filter)
        }
        Command::Standings { page } => listing::standings_page(store, req.now, *page)
            .map(|body| vec![to_sender(req, &subjects::standings(), body)])
            .map_err(ExecError::from),
        Command::History { player, page } => listing::history_page(store, player.as_ref(), *page)
            .map(|body| vec![to_sender(req, &subjects::history(), body)])
            .map_err(ExecError::from),
        Command::Message { to, .. } => social::message(store, req, proved(actor)?, to),
        Command::Broadcast { .. } => social::broadcast(store, req, proved(actor)?),
        Command::Verify { .. } => account::verify(store, proved(actor)?),
        Command::Settings { choice, .. } => account::settings(store, req, proved(actor)?, *choice),
        Command::Vacation { days, .. } => social::vacation(store, req, proved(actor)?, *days),
        Command::Seek(SeekCommand::List) => seeks::list(store, req),
        Command::Seek(cmd) => seeks::act(store, req, proved(actor)?, cmd),
        Command::Tournament { name, action, .. } => {
            tournament::tournament(store, req, actor, name, action)
        }
        Command::Tournaments => tournament::list(store, req),
    }
}

/// The replies to a refused command: the error mail to the sender (with the board
/// when the refusal names one) and, when logins were paused, the owner's notice.
pub fn refused(
    store: &Store,
    req: &Asked<'_>,
    refusal: &Refusal,
) -> Result<Vec<Reply>, InternalError> {
    let mut out: Vec<Reply> = error_reply(store, req, refusal)?.into_iter().collect();
    out.extend(owner_notice(refusal));
    Ok(out)
}

/// Carry out what `actor`'s player does on one board.
fn on_board(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    actor: &Actor,
    action: &BoardAction,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    match action {
        BoardAction::Move { text, moveno } => {
            play::play_move(store, req, board, account, text, *moveno)
        }
        BoardAction::Resign => play::resign(store, req, board, account),
        BoardAction::Offer(offer) => offer::offer(store, req, board, account, *offer),
        BoardAction::Queue { text, moveno } => {
            play::queue(store, req, board, account, text, *moveno)
        }
        BoardAction::Submit { text, moveno } => {
            play::submit(store, req, board, account, text, *moveno)
        }
        BoardAction::Confirm => play::confirm(store, req, board, account),
        BoardAction::Decline => decline::decline(store, req, board, account),
        BoardAction::Chat => social::chat(store, req, board, account),
        BoardAction::Subscribe { on } => social::subscribe(store, req, board, account, *on),
        BoardAction::Review => review::review(store, req, board, Some(account)),
    }
}
