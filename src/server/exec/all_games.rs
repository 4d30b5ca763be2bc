//! `yinsh games` without a userid: the server's games going on, from the players'
//! indexes (no game file is read but the page's), the most recent first, a page of
//! [`GAMES_PER_MAIL`] at a time like `yinsh history`; the games that have ended are
//! `yinsh history`'s.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::server::command::GameFilter;
use crate::server::game::index;
use crate::server::outgoing::Reply;
use crate::server::store::Store;

use crate::server::text::subjects;

use super::context::{Asked, to_sender};
use super::error::ExecError;
use super::listing::{GAMES_PER_MAIL, game_line, games_header, paging};

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
    let mut body = format!("Games going on at this server ({total}):\n");
    let mut shown = 0;
    for b in boards {
        if let Some(live) = index::load_scanned(store, b)? {
            if shown == 0 {
                let _ = writeln!(body, "{}", games_header());
            }
            let _ = writeln!(body, "{}", game_line(&live));
            shown += 1;
        }
    }
    if total > GAMES_PER_MAIL || page > 1 {
        let next = format!("yinsh games page {}", page + 1);
        let _ = writeln!(body, "{}", paging(skipped, shown, total, "", &next));
    }
    body.push_str("\nThe games that have ended: send \"yinsh history\".\n");
    if filter != GameFilter::Active {
        body.push_str(
            "The games of one player, with all, inactive or next: \"yinsh games <userid> all\".\n",
        );
    }
    Ok(vec![to_sender(req, &subjects::games(), body)])
}
