//! `yinsh games` without a userid: the server's games going on, from the players'
//! indexes (no game file is read but the page's), the most recent first, a page of
//! [`GAMES_PER_MAIL`] at a time like `yinsh history`; the games that have ended are
//! `yinsh history`'s.

use std::collections::BTreeSet;

use crate::server::command::GameFilter;
use crate::server::game::index;
use crate::server::outgoing::Reply;
use crate::server::store::Store;

use crate::server::text::listing::{self as listing_text, Page};
use crate::server::text::subjects;

use super::context::{Asked, to_sender};
use super::error::ExecError;
use super::listing::GAMES_PER_MAIL;

/// The server's games going on, page `page` (`filter` other than `active` is told to
/// go to `yinsh history` or to name a player).
pub(super) fn games(
    store: &Store,
    req: &Asked<'_>,
    filter: GameFilter,
    page: u32,
) -> Result<Vec<Reply>, ExecError> {
    let mut going_on = BTreeSet::new();
    for key in store.player_keys()? {
        going_on.extend(store.player_index(&key)?.active);
    }
    let total = going_on.len();
    let skipped = (page as usize - 1).saturating_mul(GAMES_PER_MAIL);
    let boards: Vec<_> = going_on
        .into_iter()
        .rev()
        .skip(skipped)
        .take(GAMES_PER_MAIL)
        .collect();
    let mut shown = Vec::new();
    for b in boards {
        shown.extend(index::load_scanned(store, b)?);
    }
    let at = Page {
        number: page,
        per_page: GAMES_PER_MAIL,
        shown: shown.len(),
        total,
    };
    let mut body = listing_text::server_games(&at, &shown);
    if filter != GameFilter::Active {
        body.push_str(listing_text::ONE_PLAYER_GAMES);
    }
    Ok(vec![to_sender(req, &subjects::games(), body)])
}
