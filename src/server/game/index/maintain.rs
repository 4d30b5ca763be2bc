//! Keeping the indexes up to date inside a transaction: for each game file the
//! transaction changed, the game's summary before (as the disk holds it) and after (as
//! the transaction leaves it), and only the index files that differ are written, so
//! they go into the same journal as the game files. A finished game appended at the
//! end of the history moves its two players' ratings by one game; anything else that
//! changes the order of the rated games (a game ending in the same second as a later
//! board with a common player, a finished game reopened by hand) recomputes that
//! variant's ratings from the history pages. Each changed line of the ratings table
//! moves in the standings kept in order (`rank.rs`), at the transaction's time.

use crate::server::game::ratings;
use crate::server::game::record::{LiveGame, LoadError};
use crate::server::game::vacation::Vacations;
use crate::server::model::{BoardId, UserId, Variant};
use crate::server::store::{DAY, DueEntry, Finished, HISTORY_PAGE, IndexState, Store, StoreError};

use super::rank::{reposition, settle, write_standings};
use super::summary::{Summary, summary};

/// Brings the indexes up to date with the game files this transaction changed (and
/// the due times of the games of players whose vacations it changed). Does
/// nothing when the store has no index yet (the next run builds it). Returns the game
/// files that could not be read before the change (they are left out of the index).
pub fn update(store: &Store, now: u64) -> Result<Vec<(BoardId, String)>, LoadError> {
    let Some(mut state) = store.index_state()? else {
        return Ok(Vec::new());
    };
    settle(store, now)?;
    let before = state;
    let mut unreadable = Vec::new();
    let mut recompute = Vec::new();
    let mut boards = store.changed_games();
    // A vacation started or ended moves the due times of that player's games.
    let (vacations_before, vacations) = match Vacations::changed(store)? {
        Some((players, before, after)) => {
            for key in players {
                boards.extend(store.player_index(&key)?.active);
            }
            boards.sort_unstable();
            boards.dedup();
            (before, after)
        }
        None if boards.is_empty() => return Ok(Vec::new()),
        None => {
            let v = Vacations::load(store)?;
            (v.clone(), v)
        }
    };
    for board in boards {
        let old = match store.game_on_disk(board) {
            Ok(None) => None,
            Ok(Some(file)) => match LiveGame::load(file) {
                Ok(live) => Some(summary(&live, &vacations_before)),
                Err(e) => {
                    unreadable.push((board, e.to_string()));
                    None
                }
            },
            Err(e) if e.is_index_damage() => return Err(e.into()),
            Err(e) => {
                unreadable.push((board, e.to_string()));
                None
            }
        };
        let new = match store.game(board)? {
            Some(file) => Some(summary(&LiveGame::load(file)?, &vacations)),
            None => None,
        };
        if old != new {
            apply(
                store,
                &mut state,
                board,
                (old.as_ref(), new.as_ref()),
                &mut recompute,
                now,
            )?;
        }
    }
    for variant in recompute {
        recompute_ratings(store, &state, variant, now)?;
    }
    if state != before {
        store.put_index_state(&state)?;
    }
    Ok(unreadable)
}

/// Changes the indexes from `old` to `new` for `board`.
fn apply(
    store: &Store,
    state: &mut IndexState,
    board: BoardId,
    (old, new): (Option<&Summary>, Option<&Summary>),
    recompute: &mut Vec<Variant>,
    now: u64,
) -> Result<(), StoreError> {
    players(store, board, old, new)?;
    due(store, board, (old, new))?;
    let mut touched = Vec::new();
    for s in old.iter().chain(new.iter()) {
        if !touched.contains(&s.variant()) {
            touched.push(s.variant());
        }
    }
    history(store, state, (old, new), recompute, now)?;
    for variant in touched {
        active_counts(store, variant, (old, new), now)?;
    }
    Ok(())
}

/// The board in the due files: out of the day it was due, into the day it is due.
fn due(
    store: &Store,
    board: BoardId,
    (old, new): (Option<&Summary>, Option<&Summary>),
) -> Result<(), StoreError> {
    let (old_due, new_due) = (old.and_then(Summary::due), new.and_then(Summary::due));
    if old_due == new_due {
        return Ok(());
    }
    if let Some(at) = old_due {
        unfile_due(store, DueEntry { at, board })?;
    }
    if let Some(at) = new_due {
        file_due(store, DueEntry { at, board })?;
    }
    Ok(())
}

/// The game in the history when it finished (out of it when it no longer is), and
/// its players' ratings: moved by this one game when it is the last rated game of
/// its players, else its variant goes in `recompute`.
fn history(
    store: &Store,
    state: &mut IndexState,
    (old, new): (Option<&Summary>, Option<&Summary>),
    recompute: &mut Vec<Variant>,
    now: u64,
) -> Result<(), StoreError> {
    let (old_end, new_end) = (
        old.and_then(Summary::finished),
        new.and_then(Summary::finished),
    );
    if old_end == new_end {
        return Ok(());
    }
    if let Some(f) = old_end {
        remove_history(store, state, f.order())?;
        if !recompute.contains(&f.variant) {
            recompute.push(f.variant);
        }
    }
    if let Some(f) = new_end {
        let later = insert_history(store, state, f)?;
        let shares = |g: &Finished| g.variant == f.variant && g.rated && shares_player(f, g);
        if later.iter().any(shares) {
            if !recompute.contains(&f.variant) {
                recompute.push(f.variant);
            }
        } else if f.rated && !recompute.contains(&f.variant) {
            rate(store, f, now)?;
        }
    }
    Ok(())
}

/// The count of active games in `variant`'s standings of the players of `old` and
/// `new` (a player with no game left, active or rated, leaves the standings).
fn active_counts(
    store: &Store,
    variant: Variant,
    (old, new): (Option<&Summary>, Option<&Summary>),
    now: u64,
) -> Result<(), StoreError> {
    let count = |s: Option<&Summary>| match s {
        Some(Summary::Active { variant: v, .. }) if *v == variant => 1i64,
        _ => 0,
    };
    let delta = count(new) - count(old);
    let renamed = old
        .zip(new)
        .is_some_and(|(o, n)| o.players() != n.players());
    if delta == 0 && !renamed {
        return Ok(());
    }
    let keys: Vec<String> = old
        .iter()
        .chain(new.iter())
        .flat_map(|s| s.players().iter().map(UserId::key))
        .collect();
    let mut table = store.standings_of(variant, &keys)?;
    let before = table.clone();
    for (summary, sign) in [(old, -1i64), (new, 1)] {
        let Some(s) = summary.filter(|s| count(Some(s)) == 1) else {
            continue;
        };
        for p in s.players() {
            let entry = table.entry(p.key()).or_insert_with(|| standing(p));
            entry.active = u32::try_from(i64::from(entry.active) + sign).unwrap_or(0);
        }
    }
    let removed: Vec<String> = table
        .iter()
        .filter(|(_, s)| s.active == 0 && s.record.games() == 0)
        .map(|(k, _)| k.clone())
        .collect();
    table.retain(|k, _| !removed.contains(k));
    write_standings(store, variant, &before, &table, &removed, now)
}

fn standing(p: &UserId) -> crate::server::store::Standing {
    crate::server::store::Standing {
        name: p.clone(),
        record: ratings::Record::default(),
        active: 0,
    }
}

fn shares_player(a: &Finished, b: &Finished) -> bool {
    a.players.iter().any(|p| b.players.contains(p))
}

/// Moves one game's players' records by the game, at the end of their history.
fn rate(store: &Store, f: &Finished, now: u64) -> Result<(), StoreError> {
    let keys = f.players.clone().map(|p| p.key());
    let mut table = store.standings_of(f.variant, &keys)?;
    let before = table.clone();
    ratings::rate_table(&mut table, f);
    write_standings(store, f.variant, &before, &table, &[], now)
}

/// Every record of `variant` computed again from the history, in order.
fn recompute_ratings(
    store: &Store,
    state: &IndexState,
    variant: Variant,
    now: u64,
) -> Result<(), StoreError> {
    let before = store.standings(variant)?;
    let mut table = before.clone();
    for s in table.values_mut() {
        s.record = ratings::Record::default();
    }
    for page in 0..state.finished.div_ceil(HISTORY_PAGE) {
        for f in store.history_page(page)? {
            if f.variant == variant && f.rated {
                ratings::rate_table(&mut table, &f);
            }
        }
    }
    table.retain(|_, s| s.active > 0 || s.record.games() > 0);
    store.put_standings(variant, &table)?;
    let keys: std::collections::BTreeSet<&String> = before.keys().chain(table.keys()).collect();
    for key in keys {
        reposition(store, variant, before.get(key), table.get(key), now)?;
    }
    Ok(())
}

/// The board in each player's own index: active, finished, or neither.
fn players(
    store: &Store,
    board: BoardId,
    old: Option<&Summary>,
    new: Option<&Summary>,
) -> Result<(), StoreError> {
    let mut keys: Vec<String> = Vec::new();
    for s in old.iter().chain(new.iter()) {
        for p in s.players() {
            if !keys.contains(&p.key()) {
                keys.push(p.key());
            }
        }
    }
    for key in keys {
        let mut index = store.player_index(&key)?;
        let before = index.clone();
        index.active.retain(|b| *b != board);
        index.finished.retain(|(_, b)| *b != board);
        if let Some(s) = new.filter(|s| s.players().iter().any(|p| p.key() == key)) {
            match s {
                Summary::Active { .. } => {
                    let at = index.active.partition_point(|b| *b < board);
                    index.active.insert(at, board);
                }
                Summary::Finished(f) => {
                    let at = index.finished.partition_point(|e| *e < f.order());
                    index.finished.insert(at, f.order());
                }
            }
        }
        if index != before {
            store.put_player_index(&key, &index)?;
        }
    }
    Ok(())
}

/// Files one game in the due file of its day, in order.
fn file_due(store: &Store, entry: DueEntry) -> Result<(), StoreError> {
    edit_due(store, entry, |entries| {
        let at = entries.partition_point(|e| *e < entry);
        entries.insert(at, entry);
    })
}

/// Takes one game out of the due file of its day.
fn unfile_due(store: &Store, entry: DueEntry) -> Result<(), StoreError> {
    edit_due(store, entry, |entries| entries.retain(|e| *e != entry))
}

/// Rewrites the due file of `entry`'s day as `edit` changes it.
fn edit_due(
    store: &Store,
    entry: DueEntry,
    edit: impl FnOnce(&mut Vec<DueEntry>),
) -> Result<(), StoreError> {
    let day = entry.at / DAY;
    let mut entries = store.due_on(day)?;
    edit(&mut entries);
    store.put_due_on(day, &entries)
}

/// Inserts `f` in the history at its place; returns the games after it.
fn insert_history(
    store: &Store,
    state: &mut IndexState,
    f: &Finished,
) -> Result<Vec<Finished>, StoreError> {
    let (first, mut tail) = tail_from(store, state, f.order())?;
    let at = tail.partition_point(|g| g.order() < f.order());
    tail.insert(at, f.clone());
    let later = tail[at + 1..].to_vec();
    state.finished += 1;
    write_tail(store, first, &tail)?;
    Ok(later)
}

/// Removes the game ordered `key` from the history, if it is there.
fn remove_history(
    store: &Store,
    state: &mut IndexState,
    key: (u64, BoardId),
) -> Result<(), StoreError> {
    let (first, mut tail) = tail_from(store, state, key)?;
    let before = tail.len();
    tail.retain(|g| g.order() != key);
    if tail.len() == before {
        return Ok(());
    }
    state.finished -= 1;
    write_tail(store, first, &tail)?;
    // The last page lost one game: it may now be empty.
    if state.finished.is_multiple_of(HISTORY_PAGE) {
        store.put_history_page(state.finished / HISTORY_PAGE, &[])?;
    }
    Ok(())
}

/// The history from the page holding the place of `key` to the end: that page's
/// number and its games and every later one. Walks back from the last page, so a
/// game ending now costs one page.
fn tail_from(
    store: &Store,
    state: &IndexState,
    key: (u64, BoardId),
) -> Result<(u64, Vec<Finished>), StoreError> {
    let pages = state.finished.div_ceil(HISTORY_PAGE);
    let mut page = pages.saturating_sub(1);
    let mut tail = store.history_page(page)?;
    while page > 0 && tail.first().is_some_and(|g| g.order() > key) {
        page -= 1;
        let mut earlier = store.history_page(page)?;
        earlier.append(&mut tail);
        tail = earlier;
    }
    Ok((page, tail))
}

/// Writes `tail` as the pages from `first` on.
fn write_tail(store: &Store, first: u64, tail: &[Finished]) -> Result<(), StoreError> {
    let size = usize::try_from(HISTORY_PAGE).unwrap_or(100);
    for (k, chunk) in tail.chunks(size).enumerate() {
        store.put_history_page(first + k as u64, chunk)?;
    }
    Ok(())
}
