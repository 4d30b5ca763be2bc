//! Who knows whom, for the games nobody asked for (issue 25): whether an account has
//! a confirmed address ([`confirmed`]), whether two players start a game as
//! [`strangers`] (they have never both moved in a game against each other), and the
//! games a player started that wait for the other player's first move
//! ([`waiting_for_others`]), of which an account may have at most [`MAX_WAITING`]
//! ([`MAX_WAITING_UNCONFIRMED`] without a confirmed address).
//!
//! A game started between strangers is marked so in its file (`extra::strangers`),
//! once, when it starts: while its player to move, who did not start it, has not
//! moved in it, it sends no
//! reminder and is cancelled, unrated, at its forfeit time (`extra::quiet`). Games
//! against the robots are never between strangers: the person chose the robot.

use crate::server::model::{BoardId, UserId};
use crate::server::store::{Account, Answerable, GameFile, Store, StoreError};

use super::extra;

/// Games an account with a confirmed address may have started that wait for the
/// other player's first move.
pub const MAX_WAITING: usize = 10;

/// ... and an account without one.
pub const MAX_WAITING_UNCONFIRMED: usize = 2;

/// Whether `account` has at least one confirmed address (every address counts as
/// confirmed while the server does not confirm addresses: none is then pending).
pub fn confirmed(account: &Account) -> bool {
    account.addresses.iter().any(|a| account.is_confirmed(a))
}

/// Who is answerable for the mail the games' clock makes in `f` on no one's mail (a
/// forfeit's review): who started it, when an account of theirs has a confirmed
/// address (the player who started it, or an account that names the address a game
/// for two others came from and confirmed it); a stranger otherwise (a throwaway
/// account's game, a game started from an address nobody confirmed); the server for
/// games that do not say who started them (made before it was kept).
pub fn starter_answerable(store: &Store, f: &GameFile) -> Result<Answerable, StoreError> {
    let (who, address) = match (&f.extra.started_by, &f.extra.challenger) {
        (Some(player), _) => (vec![player.clone()], None),
        (None, Some(c)) => (c.userids.clone(), c.address.as_ref()),
        (None, None) => return Ok(Answerable::Server),
    };
    for userid in who {
        let Some(account) = store.account(&userid)? else {
            continue;
        };
        let vouches = match address {
            Some(a) => account.is_confirmed(a),
            None => confirmed(&account),
        };
        if vouches {
            return Ok(Answerable::Person(account.userid));
        }
    }
    Ok(Answerable::Stranger)
}

/// The most games `account` may have started that wait for the other player's
/// first move.
pub fn max_waiting(account: &Account) -> usize {
    if confirmed(account) {
        MAX_WAITING
    } else {
        MAX_WAITING_UNCONFIRMED
    }
}

/// Whether `a` and `b` start a game as strangers: neither is a robot and they have
/// never both moved in a game against each other (the game files of the one with
/// fewer boards are read, newest first, without replaying them; a damaged one is
/// skipped).
pub fn strangers(store: &Store, a: &Account, b: &Account) -> Result<bool, StoreError> {
    if a.userid.robot_level().is_some() || b.userid.robot_level().is_some() {
        return Ok(false);
    }
    let boards = |u: &UserId| -> Result<Vec<BoardId>, StoreError> {
        let index = store.player_index(&u.key())?;
        let mut all = index.active;
        all.extend(index.finished.into_iter().map(|(_, b)| b));
        Ok(all)
    };
    let (ba, bb) = (boards(&a.userid)?, boards(&b.userid)?);
    let fewer = if ba.len() <= bb.len() { ba } else { bb };
    let mut pair = [a.userid.key(), b.userid.key()];
    pair.sort_unstable();
    // The newest first: players who know each other played lately, as a rule.
    for board in fewer.into_iter().rev() {
        let Some(f) = file_scanned(store, board)? else {
            continue;
        };
        let mut players = [f.white.key(), f.black.key()];
        players.sort_unstable();
        if players == pair && both_moved(&f) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The game file of `board`, read without replaying it; `None` when there is none or
/// it is damaged (noted for the operator, as `index::load_scanned` does).
fn file_scanned(store: &Store, board: BoardId) -> Result<Option<GameFile>, StoreError> {
    match store.game(board) {
        Ok(file) => Ok(file),
        Err(e @ (StoreError::Corrupt { .. } | StoreError::Mismatch { .. })) => {
            store.note_skipped(store.game_path(board), e.to_string());
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Whether both players of `f` have played a turn in it.
fn both_moved(f: &GameFile) -> bool {
    extra::first_move_of(f, &f.white).is_some() && extra::first_move_of(f, &f.black).is_some()
}

/// The games going on that `starter` started and in which the other player, a
/// person, has not moved yet, ascending: those of the index and those this
/// transaction wrote (a `multiple` of challenges counts each one).
pub fn waiting_for_others(store: &Store, starter: &UserId) -> Result<Vec<BoardId>, StoreError> {
    let mut boards = store.player_index(&starter.key())?.active;
    boards.extend(store.changed_games());
    boards.sort_unstable();
    boards.dedup();
    let mut out = Vec::new();
    for board in boards {
        let Some(f) = file_scanned(store, board)? else {
            continue;
        };
        let other = if f.white.key() == starter.key() {
            &f.black
        } else if f.black.key() == starter.key() {
            &f.white
        } else {
            continue;
        };
        let started = extra::started_by(&f).is_some_and(|s| s.key() == starter.key());
        if started
            && f.ended.is_none()
            && other.robot_level().is_none()
            && extra::first_move_of(&f, other).is_none()
        {
            out.push(board);
        }
    }
    Ok(out)
}
