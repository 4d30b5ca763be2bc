//! Challenges made for two other players (`yinsh challenge alice bob` from an address
//! that is neither alice's nor bob's): each day at most `[limits]
//! challenges_for_others_per_day` of them per sender (its reply address, and each
//! account naming that address once the address index is built) and per player put
//! in such a game, counted in `<home>/challenges/` (`store::daily`). A challenge has
//! no password, so the sender is known only by address: the per-player count is what
//! holds when an attacker changes addresses. A player's own challenges never count.
//! A limit of 0 turns such challenges off, and the refusal says so.
//! Such a game records who started it ([`Challenger`]): its players may decline it.

use crate::server::model::UserId;
use crate::server::store::{Account, Challenger, Store};

use super::context::Request;
use super::error::{ExecError, InvalidChallenge};

/// The folder of the counts.
const FOLDER: &str = "challenges";

/// Who started a game: one of its players (the challenge came from one of their
/// addresses; White's when both name it), or someone else.
pub(super) enum Starter {
    /// One of the players.
    Player(UserId),
    /// Someone else, recorded in the game so its players may decline it.
    Other(Challenger),
}

/// Counts a challenge between `white` and `black` against the limits when the sender
/// is neither of them, and returns who sent it; refuses it (nothing counted) when a
/// limit is reached.
pub(super) fn count(
    store: &Store,
    req: &Request<'_>,
    white: &Account,
    black: &Account,
) -> Result<Result<Starter, InvalidChallenge>, ExecError> {
    // The sender's mailbox (`Address::canonical`): no spelling of one address counts
    // apart.
    let sender = req.reply_to.as_ref().map(|a| a.canonical());
    if let Some(from) = &req.reply_to
        && let Some(player) = [white, black]
            .into_iter()
            .find(|p| p.addresses.iter().any(|a| a.same_mailbox(from)))
    {
        return Ok(Ok(Starter::Player(player.userid.clone())));
    }
    if req.challenges_for_others == 0 {
        return Ok(Err(InvalidChallenge::ForOthersOff));
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut owners = Vec::new();
    if let (Some(s), Some(address)) = (&sender, &req.reply_to) {
        keys.push(("You have started".to_string(), format!("sender {s}")));
        if store.index_built()? {
            owners = store.address_owners(address)?;
            for owner in &owners {
                keys.push((
                    "You have started".to_string(),
                    format!("userid {}", owner.key()),
                ));
            }
        } else {
            // Only to name the challenger in the game's mails (a home whose address
            // index is not built yet: no account has changed since it was made).
            owners = store.address_owners_read_only(address)?;
        }
    }
    for p in [white, black] {
        keys.push((
            format!("{} has been put in", p.userid),
            format!("player {}", p.userid.key()),
        ));
    }
    let max = req.challenges_for_others;
    for (who, key) in &keys {
        let counted = store.counted_today(FOLDER, key, req.now)?;
        if counted >= max {
            return Ok(Err(InvalidChallenge::ForOthers {
                who: who.clone(),
                counted,
                max,
            }));
        }
    }
    for (_, key) in &keys {
        store.count_today(FOLDER, key, req.now)?;
    }
    Ok(Ok(Starter::Other(Challenger {
        address: req.reply_to.clone(),
        userids: owners,
    })))
}
