//! Carrying out one command: the router. Who asks is checked by userid and password
//! (the From address alone authorises nothing); a player's mistake becomes an error
//! reply; only internal failures come back as `Err`. A comment is cut to
//! `text::cut::MAX_COMMENT_CHARS` here, before any handler keeps or sends it. One
//! file per command family: [`account`], [`play`] (and `decline`), [`offer`], [`social`], [`listing`]; `old_password` asks the owner of a password set before
//! `command::could_show` refused such ones to change it; what they share is in
//! [`context`] and [`error`].

pub mod account;
mod all_games;
pub mod context;
mod decline;
pub mod error;
mod for_others;
pub mod listing;
pub mod offer;
mod old_password;
pub mod plain;
pub mod play;
pub mod robots;
pub mod social;

use crate::server::command::{BoardAction, Command, Credentials};
use crate::server::store::Store;
use std::borrow::Cow;

use crate::server::text::{cut, help, subjects};

pub use crate::server::outgoing::Reply;
pub use context::Request;
pub use error::{ExecError, InternalError, Refusal};

use context::{error_reply, owner_notice, to_sender};

/// Carry out `cmd` and return the replies to send.
pub fn execute(
    store: &Store,
    req: &Request<'_>,
    cmd: &Command,
) -> Result<Vec<Reply>, InternalError> {
    // A comment over the bound is cut once, here, for every handler.
    let comment = cut::comment(req.comment);
    let capped;
    let req = match &comment {
        Cow::Borrowed(_) => req,
        Cow::Owned(text) => {
            capped = Request {
                comment: text,
                reply_to: req.reply_to.clone(),
                ..*req
            };
            &capped
        }
    };
    let outcome = match cmd {
        // `help yinsh`: the YINSH help, as `yinsh help`.
        Command::Help { topics } if topics.iter().any(|t| t == "yinsh") => Ok(vec![to_sender(
            req,
            &subjects::yinsh_help(),
            help::yinsh_help(),
        )]),
        Command::Help { .. } => Ok(vec![to_sender(
            req,
            &subjects::help(),
            help::general_help(req.server_address),
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
        } => account::signup(store, req, userid, password, addresses),
        Command::ChangePassword { auth, new_password } => {
            account::change_password(store, req, &auth.userid, &auth.password, new_password)
        }
        Command::ChangeAddress { auth, addresses } => {
            account::change_address(store, req, &auth.userid, &auth.password, addresses)
        }
        Command::Signoff { auth } => account::signoff(store, req, &auth.userid, &auth.password),
        Command::Challenge {
            blitz,
            nag_days,
            forfeit_days,
            white,
            black,
        } => play::challenge(store, req, *blitz, (*nag_days, *forfeit_days), white, black),
        Command::Board {
            board,
            auth,
            action,
        } => on_board(store, req, *board, auth, action),
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
        Command::ShowAs {
            auth,
            boards,
            filter,
        } => listing::show_as(store, req, &auth.userid, &auth.password, boards, *filter),
        Command::ShowPlayers { userids, filter } => {
            listing::show_players(store, req, userids, *filter)
        }
        Command::Standings { page } => listing::standings_page(store, req.now, *page)
            .map(|body| vec![to_sender(req, &subjects::standings(), body)])
            .map_err(ExecError::from),
        Command::History { player, page } => listing::history_page(store, player.as_ref(), *page)
            .map(|body| vec![to_sender(req, &subjects::history(), body)])
            .map_err(ExecError::from),
        Command::Message { auth, to } => {
            social::message(store, req, &auth.userid, &auth.password, to)
        }
        Command::Broadcast { auth } => social::broadcast(store, req, &auth.userid, &auth.password),
        Command::Verify { userid, token } => account::verify(store, req, userid, token),
        Command::Settings { auth, mail } => {
            account::settings(store, req, &auth.userid, &auth.password, *mail)
        }
        Command::Vacation { auth, days } => {
            social::vacation(store, req, &auth.userid, &auth.password, *days)
        }
    };
    match outcome {
        Ok(mut replies) => {
            replies.extend(old_password::notice(store, req, cmd)?);
            Ok(replies)
        }
        Err(ExecError::Refused(refusal)) => refused(store, req, &refusal),
        Err(ExecError::Internal(e)) => Err(e),
    }
}

/// The replies to a refused command: the error mail to the sender (with the board
/// when the refusal names one) and, when logins were paused, the owner's notice.
pub fn refused(
    store: &Store,
    req: &Request<'_>,
    refusal: &Refusal,
) -> Result<Vec<Reply>, InternalError> {
    let mut out: Vec<Reply> = error_reply(store, req, refusal)?.into_iter().collect();
    out.extend(owner_notice(refusal));
    Ok(out)
}

/// Carry out what a player does on one board.
fn on_board(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    auth: &Credentials,
    action: &BoardAction,
) -> Result<Vec<Reply>, ExecError> {
    let Credentials { userid, password } = auth;
    match action {
        BoardAction::Move { text, moveno } => {
            play::play_move(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Resign => play::resign(store, req, board, userid, password),
        BoardAction::Offer(offer) => offer::offer(store, req, board, userid, password, *offer),
        BoardAction::Queue { text, moveno } => {
            play::queue(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Submit { text, moveno } => {
            play::submit(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Confirm => play::confirm(store, req, board, userid, password),
        BoardAction::Decline => decline::decline(store, req, board, userid, password),
        BoardAction::Chat => social::chat(store, req, board, userid, password),
        BoardAction::Subscribe { on } => {
            social::subscribe(store, req, board, userid, password, *on)
        }
    }
}
