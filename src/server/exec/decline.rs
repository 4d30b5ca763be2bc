//! `yinsh decline board userid password` (or `decline` as the first line of a reply
//! to a board mail): a game someone else started for two players
//! (`store::Challenger`) is declined by either of them before their own first move.
//! The game is removed as if it had never been made: no rating change, no history
//! entry, the board number not given again; the indexes follow the removed file
//! (`game::index::maintain`) and so does the web site (a gone game loses its page).
//! Both players, the watchers and the challenger are told, one mail each.

use crate::mail::Address;
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::model::UserId;
use crate::server::outgoing::{Audience, Foreign, Reply};
use crate::server::store::{Challenger, Store};

use crate::server::text::subjects;

use super::context::{Request, load_for_player};
use super::error::{ExecError, Refusal};
use crate::server::model::BoardId;
use crate::server::outgoing::thread::Thread;
use crate::server::store::Account;

/// `yinsh decline board userid password`
pub(super) fn decline(
    store: &Store,
    req: &Request<'_>,
    board: BoardId,
    account: &Account,
) -> Result<Vec<Reply>, ExecError> {
    let (live, _side) = load_for_player(store, board, account)?;
    let Some(challenger) = extra::challenger(live.file()).cloned() else {
        return Err(Refusal::NotDeclinable { board }.into());
    };
    if let Some(moved) = extra::first_move_of(live.file(), &account.userid) {
        return Err(Refusal::DeclineAfterMove { board, moved }.into());
    }
    store.remove_game(live.board())?;
    for player in [&live.file().white, &live.file().black] {
        if let Some(mut a) = store.account(player)? {
            a.games.retain(|b| *b != live.board());
            store.put_account(&a)?;
        }
    }
    if store.robot_turn(live.board())?.is_some() {
        store.remove_robot_turn(live.board())?;
    }
    mails(store, req, &live, &account.userid, &challenger)
}

/// The one mail each of the players, the watchers and the challenger get.
fn mails(
    store: &Store,
    req: &Request<'_>,
    live: &LiveGame,
    by: &UserId,
    challenger: &Challenger,
) -> Result<Vec<Reply>, ExecError> {
    let f = live.file();
    let board = live.board();
    let head = |who: &str| {
        format!(
            "{by} declined board {board}, the game {who} started for {} (White) and {} (Black).\nThe game is removed: it is not rated and the history does not list it.\n",
            f.white, f.black
        )
    };
    let comment = req.comment.trim();
    let with_comment = |text: String| {
        if comment.is_empty() {
            text
        } else {
            format!("{text}\n{by} writes:\n{comment}\n")
        }
    };
    let body = with_comment(head(&extra::challenger_words(challenger)));
    // An unconfirmed address reads neither the challenger's address nor the comment.
    let plain = head("someone else");
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
    lists.extend(challenger.address.clone().map(|a| vec![a]));
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
