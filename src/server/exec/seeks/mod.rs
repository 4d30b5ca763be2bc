//! The open seeks (issue 49): `yinsh seek` posts one (or, when an open seek fits it,
//! starts that game at once), `yinsh take` starts a seek's game, `yinsh withdraw`
//! (`unseek`) removes one, `yinsh seeks` lists them; tick expires them and starts the
//! robot's game of a seek nobody took in a day (`clock.rs`). Posting and taking need
//! a proven account (its password, as every command with credentials:
//! `inbound::identity`) with a confirmed address; the limits are the store's
//! (`store::seeks`: 3 a player, 200 in all). A refusal is a normal reply in the
//! server's words and numbers only (`SeekRefusal`); the games' mails are a
//! challenge's (`board_mails`), so every mail passes the gate with the proof's cause.

mod clock;
mod start;

pub use clock::tick;

use crate::server::command::SeekCommand;
use crate::server::game::extra;
use crate::server::game::robots::MAX_ROBOT_GAMES;
use crate::server::game::strangers;
use crate::server::model::UserId;
use crate::server::outgoing::Reply;
use crate::server::outgoing::board_mails::board_mails;
use crate::server::store::{
    Account, MAX_OPEN, MAX_PER_PLAYER, SEEK_SECONDS, Seek, SeekColour, SeekId, SeekWish, Store,
};
use crate::server::text::reply::Event;
use crate::server::text::seeks::{self as text, Listed};
use crate::server::text::subjects;

use super::context::{Actor, Asked, to_sender};
use super::error::{ExecError, InternalError, SeekRefusal};
use super::robots;
use start::{could_fit, in_ranges, rating, ratings, start};

/// Every open seek, oldest first, with its owner's rating in its variant: what
/// `yinsh seeks` and the site's index list.
pub fn open_seeks(store: &Store) -> Result<Vec<(Seek, i32)>, InternalError> {
    let open = store.seeks()?.open;
    let players: Vec<_> = open.iter().map(|s| (&s.owner, s.wish.variant)).collect();
    let ratings = ratings(store, &players)?;
    Ok(open.into_iter().zip(ratings).collect())
}

/// `yinsh seeks`: every open seek, for anyone.
pub(super) fn list(store: &Store, req: &Asked<'_>) -> Result<Vec<Reply>, ExecError> {
    let open = open_seeks(store)?;
    let listed: Vec<Listed<'_>> = open
        .iter()
        .map(|(seek, rating)| Listed {
            seek,
            rating: *rating,
        })
        .collect();
    // Userids of accounts, as the standings show them to anyone.
    Ok(vec![to_sender(
        req,
        &subjects::open_seeks(),
        text::list(&listed),
    )])
}

/// A seek command of `actor`'s (proven by `inbound::identity`).
pub(super) fn act(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    cmd: &SeekCommand,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    match cmd {
        SeekCommand::List => list(store, req),
        SeekCommand::Post { wish, .. } => post(store, req, account, wish),
        SeekCommand::Take { seek, .. } => take(store, req, account, *seek),
        SeekCommand::Withdraw { seek, .. } => withdraw(store, req, account, *seek),
    }
}

/// The answer to a seek command refused: why, in a normal reply.
fn refused(req: &Asked<'_>, why: SeekRefusal) -> Result<Vec<Reply>, ExecError> {
    Ok(vec![to_sender(
        req,
        &subjects::open_seeks(),
        why.to_string(),
    )])
}

/// Whether `account` may post or take a seek: it has a confirmed address (or the
/// server confirms none).
fn confirmed(req: &Asked<'_>, account: &Account) -> bool {
    !req.settings.confirm_addresses || strangers::confirmed(account)
}

/// `yinsh seek`: the game of the first open seek that fits, else the seek posted.
fn post(
    store: &Store,
    req: &Asked<'_>,
    account: &Account,
    wish: &SeekWish,
) -> Result<Vec<Reply>, ExecError> {
    if !confirmed(req, account) {
        return refused(req, SeekRefusal::Unconfirmed);
    }
    let nag = wish.nag_days.unwrap_or(extra::NAG_DAYS);
    let forfeit = wish.forfeit_days.unwrap_or(extra::FORFEIT_DAYS);
    if nag >= forfeit {
        return refused(req, SeekRefusal::Times { nag, forfeit });
    }
    let mut seeks = store.seeks()?;
    let mine = seeks.of(&account.userid);
    if mine.len() >= MAX_PER_PLAYER {
        return refused(
            req,
            SeekRefusal::TooMany {
                open: mine,
                max: MAX_PER_PLAYER,
            },
        );
    }
    if let Some(level) = wish.robot
        && let Some(robot) = robot_account(store, level, req.now)?
        && robots::refused_challenge(store, account, &robot)?.is_some()
    {
        return refused(
            req,
            SeekRefusal::TooManyRobotGames {
                max: MAX_ROBOT_GAMES,
            },
        );
    }
    let mine_rating = rating(store, &account.userid, wish.variant)?;
    let mut paired = None;
    for open in &seeks.open {
        if !could_fit(open, wish, &account.userid) {
            continue;
        }
        let theirs = rating(store, &open.owner, open.wish.variant)?;
        if in_ranges((open, theirs), (wish, mine_rating))
            && let Some(owner) = store.account(&open.owner)?
        {
            paired = Some((open.clone(), owner));
            break;
        }
    }
    if let Some((open, owner)) = paired {
        seeks.remove(open.id);
        store.put_seeks(&seeks)?;
        let me = account.userid.clone();
        let live = start(
            store,
            req.now,
            &open,
            (owner, account.clone()),
            wish.colour,
            me,
        )?;
        return Ok(board_mails(store, &live, Event::NewGame, None)?);
    }
    if seeks.open.len() >= MAX_OPEN {
        return refused(req, SeekRefusal::Full { max: MAX_OPEN });
    }
    let seek = Seek {
        id: seeks.number(),
        owner: account.userid.clone(),
        posted: req.now,
        expires: req.now.saturating_add(SEEK_SECONDS),
        wish: *wish,
    };
    let body = text::posted(&seek);
    seeks.open.push(seek);
    store.put_seeks(&seeks)?;
    Ok(vec![to_sender(req, &subjects::open_seeks(), body)])
}

/// The account of the robot of `level` (made at its first game, as a challenge
/// makes it).
fn robot_account(store: &Store, level: u8, now: u64) -> Result<Option<Account>, ExecError> {
    let Ok(userid) = format!("robot{level}").parse::<UserId>() else {
        return Ok(None);
    };
    Ok(robots::account_or_robot(store, &userid, now)?)
}

/// `yinsh take`: the seek's game started, its mails to both players.
fn take(
    store: &Store,
    req: &Asked<'_>,
    account: &Account,
    id: SeekId,
) -> Result<Vec<Reply>, ExecError> {
    if !confirmed(req, account) {
        return refused(req, SeekRefusal::Unconfirmed);
    }
    let mut seeks = store.seeks()?;
    let Some(seek) = seeks.get(id).cloned() else {
        return refused(req, SeekRefusal::NoSuchSeek { seek: id });
    };
    if seek.owner.key() == account.userid.key() {
        return refused(req, SeekRefusal::OwnSeek { seek: id });
    }
    let mine = rating(store, &account.userid, seek.wish.variant)?;
    if let Some(range) = seek.wish.range
        && !range.holds(mine)
    {
        return refused(
            req,
            SeekRefusal::OutOfRange {
                seek: id,
                range,
                rating: mine,
            },
        );
    }
    seeks.remove(id);
    store.put_seeks(&seeks)?;
    // An owner who signed off since: the seek goes with the account.
    let Some(owner) = store.account(&seek.owner)? else {
        return refused(req, SeekRefusal::NoSuchSeek { seek: id });
    };
    let me = account.userid.clone();
    let live = start(
        store,
        req.now,
        &seek,
        (owner, account.clone()),
        SeekColour::Any,
        me,
    )?;
    Ok(board_mails(store, &live, Event::NewGame, None)?)
}

/// `yinsh withdraw`: the owner's seek removed.
fn withdraw(
    store: &Store,
    req: &Asked<'_>,
    account: &Account,
    id: SeekId,
) -> Result<Vec<Reply>, ExecError> {
    let mut seeks = store.seeks()?;
    let Some(seek) = seeks.get(id) else {
        return refused(req, SeekRefusal::NoSuchSeek { seek: id });
    };
    if seek.owner.key() != account.userid.key() {
        return refused(req, SeekRefusal::NotYours { seek: id });
    }
    seeks.remove(id);
    store.put_seeks(&seeks)?;
    Ok(vec![to_sender(
        req,
        &subjects::open_seeks(),
        text::withdrawn(id),
    )])
}
