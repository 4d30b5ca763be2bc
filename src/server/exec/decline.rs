//! `yinsh decline board userid password` (or `decline` as the first line of a reply
//! to a board mail): any game is declined by either of its players before their own
//! first move, whoever started it (issue 25: a game nobody asked for is cheap to
//! refuse; a game started for two others, `store::Challenger`, was the only one
//! before). The game is removed as if it had never been made: no rating change, no
//! history entry, the board number not given again; the indexes follow the removed
//! file (`game::index::maintain`) and so does the web site (a gone game loses its
//! page). Both players, the watchers and the challenger are told, one mail each.
//!
//! [`cancel_unanswered`] removes a game the same way for `tick`: a quiet game
//! (`game::extra::quiet`: started between strangers, the player to move, who did not
//! start it, never moved in it) at its forfeit time, with one short mail to the other player when they
//! moved in it or started it, and none to the absent player or the watchers.

use crate::mail::Address;
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::model::UserId;
use crate::server::outgoing::{Audience, Foreign, Reply};
use crate::server::store::{OwedKind, RobotTurn, Store};

use crate::server::text::decline::{self as decline_text, StartedBy};
use crate::server::text::subjects;

use super::context::{Asked, load_for_player};
use super::error::{ExecError, InternalError, Refusal};
use crate::server::model::BoardId;
use crate::server::outgoing::thread::Thread;
use crate::server::store::Account;

/// `yinsh decline board userid password`
pub(super) fn decline(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
) -> Result<Vec<Reply>, ExecError> {
    let (live, _side) = load_for_player(store, board, account)?;
    if let Some(t) = &live.file().extra.tournament {
        let name = t.name.clone();
        return Err(super::error::TournamentRefusal::NoDecline { board, name }.into());
    }
    if let Some(moved) = extra::first_move_of(live.file(), &account.userid) {
        return Err(Refusal::DeclineAfterMove { board, moved }.into());
    }
    remove(store, &live)?;
    mails(store, req, &live, &account.userid)
}

/// The game removed from the store: its file, its place in its players' lists, the
/// robot turn owed in it.
fn remove(store: &Store, live: &LiveGame) -> Result<(), InternalError> {
    store.remove_game(live.board())?;
    for player in [&live.file().white, &live.file().black] {
        if let Some(mut a) = store.account(player)? {
            a.games.retain(|b| *b != live.board());
            store.put_account(&a)?;
        }
    }
    if store.owed::<RobotTurn>(live.board())?.is_some() {
        store.remove_owed(OwedKind::RobotTurn, live.board())?;
    }
    Ok(())
}

/// For `tick`: cancel `live`, a quiet game whose player to move, `absent`, has not
/// moved in it for `days` days: removed as a declined game is, unrated, with one
/// mail to the other player when they moved in it or started it (none to `absent`,
/// none to the watchers).
pub fn cancel_unanswered(
    store: &Store,
    live: &LiveGame,
    absent: &UserId,
    days: u32,
) -> Result<Vec<Reply>, InternalError> {
    remove(store, live)?;
    let f = live.file();
    let other = if f.white == *absent {
        &f.black
    } else {
        &f.white
    };
    let concerned = extra::first_move_of(f, other).is_some()
        || extra::started_by(f).is_some_and(|s| s == other);
    let Some(account) = store.account(other)?.filter(|_| concerned) else {
        return Ok(Vec::new());
    };
    let board = live.board();
    Ok(vec![Reply {
        to: account.addresses,
        subject: subjects::cancelled(board),
        body: decline_text::cancelled(board, absent, days),
        foreign: Foreign::Nothing,
        html: None,
        thread: Thread::game(live),
        audience: Audience::Players,
        ..Reply::default()
    }])
}

/// The one mail each of the players, the watchers and the challenger get.
fn mails(
    store: &Store,
    req: &Asked<'_>,
    live: &LiveGame,
    by: &UserId,
) -> Result<Vec<Reply>, ExecError> {
    let f = live.file();
    let board = live.board();
    let challenger = extra::challenger(f);
    let started = |words| match (challenger, extra::started_by(f)) {
        (Some(_), _) => StartedBy::Challenger(words),
        (None, Some(starter)) => StartedBy::Player(starter),
        (None, None) => StartedBy::Unknown,
    };
    let head = |started| decline_text::declined(by, board, &f.white, &f.black, started);
    let words = challenger.map(extra::challenger_words);
    let body = decline_text::with_comment(head(started(words.as_deref())), by, req.comment.trim());
    // An unconfirmed address reads neither the challenger's address nor the comment.
    let plain = head(started(None));
    let foreign = Foreign::Part(plain);
    let subject = subjects::declined(board);
    let mut told: Vec<Address> = Vec::new();
    let mut out = Vec::new();
    let readers = [&f.white, &f.black]
        .into_iter()
        .chain(extra::subscribers(f).iter());
    let mut lists: Vec<Vec<Address>> = Vec::new();
    for reader in readers {
        if let Some(a) = store.account(reader)? {
            lists.push(a.addresses);
        }
    }
    lists.extend(challenger.and_then(|c| c.address.clone()).map(|a| vec![a]));
    for list in lists {
        let to: Vec<Address> = list
            .into_iter()
            .filter(|a| !told.iter().any(|t| t.eq_ignore_ascii_case(a)))
            .collect();
        if to.is_empty() {
            continue;
        }
        told.extend(to.iter().cloned());
        out.push(Reply {
            to,
            subject: subject.clone(),
            body: body.clone(),
            foreign: foreign.clone(),
            html: None,
            thread: Thread::game(live),
            audience: Audience::Players,
            ..Reply::default()
        });
    }
    Ok(out)
}
