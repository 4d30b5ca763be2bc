//! The web site kept up to date by the runs that change games (`deliver`, `tick`) or
//! write their reviews: which boards the files a transaction changed name (a game's
//! file, or its review: the page shows it), and once the store's lock is released, the
//! refresh of those games' pages and the index (`server::site::refresh`), when
//! `[site]` is configured. A refresh that fails is logged; the mail was handled.

use std::path::PathBuf;

use crate::server::model::BoardId;
use crate::server::site;
use crate::server::store::Store;
use crate::server::text::log as log_text;

use super::context::Ctx;

/// The boards whose game files or reviews `changes` write or remove (a removed game's
/// pages are taken off the site; a review written is shown on its game's page).
pub fn changed_boards(store: &Store, changes: &[PathBuf]) -> Vec<BoardId> {
    let dirs = [store.boards_dir(), store.reviews_dir()];
    changes
        .iter()
        .filter(|path| path.parent().is_some_and(|p| dirs.iter().any(|d| d == p)))
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            name.strip_suffix(".json")?.parse::<u32>().ok()
        })
        .map(BoardId::from)
        .collect()
}

/// Whether the index lists something a transaction changed besides its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Index {
    /// It wrote the open seeks (`store::seeks`): the index shows them.
    Changed,
    /// Nothing else the index shows.
    Same,
}

/// Whether `changes` wrote the open seeks, which the index shows.
pub fn index_changes(store: &Store, changes: &[PathBuf]) -> Index {
    let seeks = store.seeks_path();
    if changes.contains(&seeks) {
        Index::Changed
    } else {
        Index::Same
    }
}

/// Refreshes the site for the boards the run changed (the index alone when only
/// what it lists besides changed, `index`), if there is a site.
pub fn refresh(ctx: &mut Ctx<'_>, mut boards: Vec<BoardId>, index: Index) {
    let (store, settings, now) = (ctx.store, ctx.settings, ctx.now);
    let Some(config) = &settings.site else {
        return;
    };
    boards.sort();
    boards.dedup();
    if boards.is_empty() && index == Index::Same {
        return;
    }
    let target = site::Target {
        out: &config.out,
        address: &settings.address(),
    };
    match site::refresh(store, target, now, &boards) {
        Ok(w) => ctx.note(log_text::site_refreshed(w.games, w.files)),
        Err(e) => ctx.note(log_text::site_not_refreshed(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_game_file_is_a_changed_board() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        // A write and a removal both name the file changed.
        let changes = ["101.json", "102.json", "counter"].map(|name| store.boards_dir().join(name));
        assert_eq!(
            changed_boards(&store, &changes),
            [BoardId::from(101), BoardId::from(102)]
        );
    }

    /// Issue 28: a review written names its board (the page shows it); a review owed
    /// (`reviews/owed/<n>.json`) does not.
    #[test]
    fn a_review_written_is_a_changed_board() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let changes = [
            store.reviews_dir().join("103.json"),
            store.reviews_dir().join("owed").join("104.json"),
        ];
        assert_eq!(changed_boards(&store, &changes), [BoardId::from(103)]);
    }
}
