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

use crate::server::text::identity::{SENDER_HAS_STARTED, player_put_in};

use super::context::Asked;
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
    req: &Asked<'_>,
    white: &Account,
    black: &Account,
) -> Result<Result<Starter, InvalidChallenge>, ExecError> {
    // Nothing proved who sent it: the sender is the address its proof answers (the
    // mail's reply address), counted as its mailbox (`Address::canonical`), so no
    // spelling of one address counts apart.
    let answer_to = req.answer_to();
    let sender = answer_to.map(|a| a.canonical());
    if let Some(from) = answer_to
        && let Some(player) = [white, black]
            .into_iter()
            .find(|p| p.addresses.iter().any(|a| a.same_mailbox(from)))
    {
        return Ok(Ok(Starter::Player(player.userid.clone())));
    }
    if req.settings.challenges_for_others_per_day == 0 {
        return Ok(Err(InvalidChallenge::ForOthersOff));
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut owners = Vec::new();
    if let (Some(s), Some(address)) = (&sender, answer_to) {
        keys.push((SENDER_HAS_STARTED.to_string(), format!("sender {s}")));
        if store.index_built()? {
            owners = store.address_owners(address)?;
            for owner in &owners {
                keys.push((
                    SENDER_HAS_STARTED.to_string(),
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
            player_put_in(&p.userid),
            format!("player {}", p.userid.key()),
        ));
    }
    let max = req.settings.challenges_for_others_per_day;
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
        address: answer_to.cloned(),
        userids: owners,
    })))
}
