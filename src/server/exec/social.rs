//! Commands about people rather than moves: chat on a board, watching a game
//! (`subscribe`/`unsubscribe`), private messages, the admins' `broadcast`, and
//! `vacation`. Admins are listed in `<home>/admins`, one userid per line (`#` starts
//! a comment).

use crate::server::command::{GameFilter, Said};
use crate::server::game::extra;
use crate::server::game::extra::MAX_WATCHERS;
use crate::server::game::strangers;
use crate::server::game::vacation::{MAX_DAYS, Vacations};
use crate::server::model::UserId;
use crate::server::outgoing::{Audience, Foreign, Reply};
use crate::server::store::{Account, Store};
use crate::server::text::reply::{BoardMail, Event};
use crate::server::text::social::{self as social_text, Answer, Watching};
use crate::server::text::subjects;

use super::context::{Actor, Asked, board_reply, load_board_of, to_sender};
use super::error::{ExecError, Refusal};
use super::listing::boards_of;
use crate::server::model::BoardId;
use crate::server::outgoing::thread::{GameRef, Thread};

/// `yinsh chat board userid password`: the comment goes to the other player and the
/// watchers (a player or a watcher may chat).
pub(super) fn chat(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
) -> Result<Vec<Reply>, ExecError> {
    let userid = &account.userid;
    let Some(file) = store.game(board)? else {
        let boards = store.player_index(&userid.key())?.active;
        return Err(Refusal::BoardNotFoundFor { board, boards }.into());
    };
    let game = GameRef {
        board,
        created: file.created,
    };
    let mut readers = vec![&file.white, &file.black];
    readers.extend(extra::subscribers(&file));
    if !readers.contains(&&account.userid) {
        return Err(Refusal::NotPlayingNorWatching { board }.into());
    }
    if req.comment.trim().is_empty() {
        return Err(Refusal::EmptyChat { board }.into());
    }
    let mut out = Vec::new();
    let mut told = Vec::new();
    for r in readers.into_iter().filter(|r| **r != account.userid) {
        if let Some(a) = store.account(r)?.filter(|a| !a.addresses.is_empty()) {
            told.push(r.clone());
            out.push(Reply {
                to: a.addresses.clone(),
                subject: subjects::chat(board, &account.userid),
                body: social_text::signed_answerable(
                    req.comment,
                    account.userid.as_str(),
                    Answer::Chat(board),
                ),
                foreign: Foreign::All,
                html: None,
                thread: Thread::chat(store, game, r)?,
                audience: Audience::Players,
                ..Reply::default()
            });
        }
    }
    out.push(to_sender(
        req,
        &subjects::chat_sent(board),
        social_text::chat_sent(board, &told),
    ));
    Ok(out)
}

/// `yinsh subscribe|unsubscribe board userid password`: a game has at most
/// [`MAX_WATCHERS`], each an account with a confirmed address.
pub(super) fn subscribe(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
    on: bool,
) -> Result<Vec<Reply>, ExecError> {
    let userid = &account.userid;
    let mut live = load_board_of(store, board, userid)?;
    if live.side(userid).is_some() {
        return Err(Refusal::SubscribeOwnGame { board }.into());
    }
    let mut subs = extra::subscribers(live.file()).to_vec();
    let had = subs.contains(&account.userid);
    // Throwaway accounts must not fill the places (issue 25): only an account with a
    // confirmed address takes one.
    if on && !had && !strangers::confirmed(account) {
        return Err(Refusal::WatcherUnconfirmed { board }.into());
    }
    if on && !had && subs.len() >= MAX_WATCHERS {
        return Err(Refusal::TooManyWatchers {
            board,
            max: MAX_WATCHERS,
        }
        .into());
    }
    let watching = match (on, had) {
        (true, true) => Watching::Already,
        (false, false) => Watching::Not,
        (true, false) => {
            subs.push(account.userid.clone());
            Watching::Now
        }
        (false, true) => {
            subs.retain(|s| *s != account.userid);
            Watching::NoLonger
        }
    };
    if on != had {
        extra::set_subscribers(live.extra_mut(), subs.clone());
        store.put_game(live.file())?;
    }
    let mail = BoardMail {
        event: Event::Note(social_text::watching(board, &account.userid, watching)),
        subscribers: &subs,
        vacations: Some(&Vacations::load(store)?),
        ..BoardMail::new(&live)
    };
    Ok(vec![board_reply(req, &mail, account.text_only)?])
}

/// `message userid password to+`: the body goes to each named player.
pub(super) fn message(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    to: &[Said<UserId>],
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    if req.comment.trim().is_empty() {
        return Err(Refusal::EmptyMessage.into());
    }
    let mut out = Vec::new();
    for id in to {
        let Some(a) = store.account(id.as_written())? else {
            return Err(Refusal::NoSuchRecipient { userid: id.clone() }.into());
        };
        out.push(Reply {
            to: a.addresses.clone(),
            subject: subjects::message_from(&account.userid),
            body: social_text::signed_answerable(
                req.comment,
                account.userid.as_str(),
                Answer::Message,
            ),
            foreign: Foreign::All,
            html: None,
            thread: Thread::message(store, id.as_written(), &account.userid)?,
            audience: Audience::Players,
            ..Reply::default()
        });
    }
    // Each of them has an account: userids of accounts are public.
    let names: Vec<&UserId> = to.iter().map(Said::as_written).collect();
    out.push(to_sender(
        req,
        &subjects::message_sent(),
        social_text::message_sent(&names),
    ));
    Ok(out)
}

/// `broadcast userid password`: the body goes to every player (admins only).
pub(super) fn broadcast(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    let userid = &account.userid;
    if !store.admins()?.contains(&userid.key()) {
        return Err(Refusal::NotAdmin.into());
    }
    if req.comment.trim().is_empty() {
        return Err(Refusal::EmptyBroadcast.into());
    }
    let mut out = Vec::new();
    for acc in store.accounts()? {
        out.push(Reply {
            to: acc.addresses.clone(),
            subject: subjects::broadcast_from(&account.userid),
            body: social_text::signed(req.comment, account.userid.as_str()),
            foreign: Foreign::All,
            ..Reply::default()
        });
    }
    Ok(out)
}

/// `vacation userid password days`: stop the player's clocks for `days` days from
/// now (0 ends a vacation).
pub(super) fn vacation(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    days: u32,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    if days > MAX_DAYS {
        return Err(Refusal::VacationTooLong {
            days,
            max: MAX_DAYS,
        }
        .into());
    }
    let mut v = Vacations::load(store)?;
    v.set(&account.userid, req.now, days);
    v.save(store)?;
    let going = opponents_going_on(store, account)?;
    let boards: Vec<BoardId> = going.iter().map(|(b, _)| *b).collect();
    let until = v.current(&account.userid, req.now).map(|p| p.until);
    let body = match until {
        Some(until) => social_text::on_vacation(&account.userid, until, &boards),
        None => social_text::back_from_vacation(&account.userid, &boards),
    };
    let mut out = vec![Reply {
        to: account.addresses.clone(),
        subject: subjects::vacation_for(&account.userid),
        body,
        ..Reply::default()
    }];
    out.extend(tell_opponents(store, account, &going, until)?);
    Ok(out)
}

/// Every game of `account` going on (the player's index holds only these, never the
/// finished): its board, and the opponent.
fn opponents_going_on(
    store: &Store,
    account: &Account,
) -> Result<Vec<(BoardId, UserId)>, ExecError> {
    let (active, _) = boards_of(store, account, GameFilter::Active, usize::MAX)?;
    Ok(active
        .iter()
        .filter_map(|live| {
            let side = live.side(&account.userid)?;
            Some((live.board(), live.player(side.other()).clone()))
        })
        .collect())
}

/// The most opponents told of one vacation.
pub const OPPONENTS_TOLD: usize = 20;

/// One mail to each opponent of `account`'s unfinished games (`going`, at most
/// [`OPPONENTS_TOLD`] opponents): on vacation until `until`, or back (`None`).
fn tell_opponents(
    store: &Store,
    account: &Account,
    going: &[(BoardId, UserId)],
    until: Option<u64>,
) -> Result<Vec<Reply>, ExecError> {
    let mut boards: Vec<(&UserId, Vec<BoardId>)> = Vec::new();
    for (board, opponent) in going {
        if let Some((_, list)) = boards.iter_mut().find(|(o, _)| *o == opponent) {
            list.push(*board);
        } else if boards.len() < OPPONENTS_TOLD {
            boards.push((opponent, vec![*board]));
        }
    }
    let who = &account.userid;
    let mut out = Vec::new();
    for (opponent, list) in boards {
        let Some(a) = store.account(opponent)? else {
            continue;
        };
        let body = match until {
            Some(until) => social_text::opponent_on_vacation(who, until, &list),
            None => social_text::back_from_vacation(who, &list),
        };
        out.push(Reply {
            to: a.addresses.clone(),
            subject: subjects::vacation_for(who),
            body,
            ..Reply::default()
        });
    }
    Ok(out)
}
