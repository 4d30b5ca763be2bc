//! An open seek's game: whether two seeks fit each other ([`could_fit`],
//! [`in_ranges`]), a player's rating as a seek's range reads it ([`rating`],
//! [`ratings`]), and the game started for a seek
//! and the player (or robot) who takes it ([`start`]): colours by the owner's wish,
//! else the taker's, else the taker plays White (the one at the keyboard now moves
//! first); the seek's clock times; unrated when it asked so; never a quiet game
//! (both players asked for it).

use crate::server::game::extra;
use crate::server::game::ratings::START;
use crate::server::game::record::LiveGame;
use crate::server::model::{UserId, Variant};
use crate::server::store::{Account, Seek, SeekColour, SeekWish, Store};

use crate::server::exec::error::{ExecError, InternalError};
use crate::server::exec::for_others::Starter;
use crate::server::exec::play::start_game;

/// `userid`'s rating in `variant` (the starting rating before any rated game).
pub(super) fn rating(
    store: &Store,
    userid: &UserId,
    variant: Variant,
) -> Result<i32, InternalError> {
    Ok(ratings(store, &[(userid, variant)])?[0])
}

/// The rating of each player in its variant, read once per variant.
pub(super) fn ratings(
    store: &Store,
    players: &[(&UserId, Variant)],
) -> Result<Vec<i32>, InternalError> {
    let mut out = vec![START; players.len()];
    for variant in [Variant::Normal, Variant::Blitz] {
        let keys: Vec<String> = players
            .iter()
            .filter(|(_, v)| *v == variant)
            .map(|(u, _)| u.key())
            .collect();
        if keys.is_empty() {
            continue;
        }
        let table = store.standings_of(variant, &keys)?;
        for (k, (u, v)) in players.iter().enumerate() {
            if *v == variant
                && let Some(s) = table.get(&u.key())
            {
                out[k] = s.record.rating;
            }
        }
    }
    Ok(out)
}

/// Whether two colour wishes can both be met.
fn colours_fit(a: SeekColour, b: SeekColour) -> bool {
    !matches!(
        (a, b),
        (SeekColour::White, SeekColour::White) | (SeekColour::Black, SeekColour::Black)
    )
}

/// Whether the open seek `open` and a new one (`wish` of `owner`) could fit each
/// other, ratings aside: not the same player, the same variant, both rated or both
/// unrated, and colours both can have.
pub(super) fn could_fit(open: &Seek, wish: &SeekWish, owner: &UserId) -> bool {
    open.owner.key() != owner.key()
        && open.wish.variant == wish.variant
        && open.wish.rated == wish.rated
        && colours_fit(open.wish.colour, wish.colour)
}

/// Whether each player is inside the other's range: the open seek's owner, rated
/// `open_rating`, and the new seek's (`wish`), rated `rating`.
pub(super) fn in_ranges(
    (open, open_rating): (&Seek, i32),
    (wish, rating): (&SeekWish, i32),
) -> bool {
    open.wish.range.is_none_or(|r| r.holds(rating))
        && wish.range.is_none_or(|r| r.holds(open_rating))
}

/// The game of `seek` between its `owner` and `taker` (who wishes `taker_colour`),
/// started by `starter` (the one whose mail or seek made it now), stored and added
/// to both accounts.
pub(super) fn start(
    store: &Store,
    now: u64,
    seek: &Seek,
    (owner, taker): (Account, Account),
    taker_colour: SeekColour,
    starter: UserId,
) -> Result<LiveGame, ExecError> {
    let owner_white = match (seek.wish.colour, taker_colour) {
        (SeekColour::White, _) => true,
        (SeekColour::Black, _) => false,
        (SeekColour::Any, SeekColour::Black) => true,
        (SeekColour::Any, _) => false,
    };
    let players = if owner_white {
        (owner, taker)
    } else {
        (taker, owner)
    };
    let times = (seek.wish.nag_days, seek.wish.forfeit_days);
    let variant = seek.wish.variant;
    let mut live = start_game(
        store,
        now,
        players,
        variant,
        times,
        Starter::Player(starter),
    )?;
    let e = live.extra_mut();
    extra::set_strangers(e, false);
    e.unrated = !seek.wish.rated;
    e.seek = Some(seek.id);
    store.put_game(live.file())?;
    Ok(live)
}
