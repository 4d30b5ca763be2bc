//! Where a player's line of the standings sits (`store::ranking` keeps the order):
//! its [`section`] at a time, the time it turns inactive ([`idle_at`]), moving it when
//! it changes ([`write_standings`]: a game ended or reopened, a game started), and
//! [`settle`]: the players whose 180 days ran out since the last transaction moved to
//! the inactive list, before any mail reads the standings. Every transaction settles
//! at its own time first, so the rankings always hold each line in its section at
//! that time, as a rebuild at that time would.

use std::collections::BTreeSet;

use crate::server::game::ratings::INACTIVE_DAYS;
use crate::server::model::Variant;
use crate::server::store::{DAY, IdleEntry, Section, Standing, Standings, Store, StoreError};

/// The list `s` is printed in at `now`; none before a rated game.
pub fn section(s: &Standing, now: u64) -> Option<Section> {
    let r = &s.record;
    if r.games() == 0 {
        None
    } else if s.active == 0 && now.saturating_sub(r.last) > INACTIVE_DAYS * DAY {
        Some(Section::Inactive)
    } else if r.provisional() {
        Some(Section::Provisional)
    } else {
        Some(Section::Established)
    }
}

/// When `s`, not inactive at `now` and with no game going on, turns inactive.
pub fn idle_at(s: &Standing, now: u64) -> Option<u64> {
    match section(s, now)? {
        Section::Inactive => None,
        _ if s.active > 0 => None,
        _ => Some(s.record.last + INACTIVE_DAYS * DAY + 1),
    }
}

/// Moves one player's line from `old` to `new` (either missing) in the rankings and
/// the idle schedule of `variant`, at `now`.
pub fn reposition(
    store: &Store,
    variant: Variant,
    old: Option<&Standing>,
    new: Option<&Standing>,
    now: u64,
) -> Result<(), StoreError> {
    if old == new {
        return Ok(());
    }
    if let Some(s) = old
        && let Some(sec) = section(s, now)
    {
        store.rank_remove(variant, sec, s)?;
    }
    if let Some(s) = new
        && let Some(sec) = section(s, now)
    {
        store.rank_insert(variant, sec, s)?;
    }
    let entry = |s: Option<&Standing>| {
        s.and_then(|s| {
            idle_at(s, now).map(|at| IdleEntry {
                at,
                key: s.name.key(),
            })
        })
    };
    let (was, will) = (entry(old), entry(new));
    if was != will {
        if let Some(e) = was {
            let day = e.at / DAY;
            let mut list = store.idle_on(variant, day)?;
            list.retain(|x| *x != e);
            store.put_idle_on(variant, day, &list)?;
        }
        if let Some(e) = will {
            let day = e.at / DAY;
            let mut list = store.idle_on(variant, day)?;
            let at = list.partition_point(|x| *x < e);
            list.insert(at, e);
            store.put_idle_on(variant, day, &list)?;
        }
    }
    Ok(())
}

/// Writes the lines of `variant` that changed from `before` (the entries read) to
/// `after` (`removed` gone): the ratings table's shards, then the rankings.
pub fn write_standings(
    store: &Store,
    variant: Variant,
    before: &Standings,
    after: &Standings,
    removed: &[String],
    now: u64,
) -> Result<(), StoreError> {
    let changed: Standings = after
        .iter()
        .filter(|(k, s)| before.get(*k) != Some(*s))
        .map(|(k, s)| (k.clone(), s.clone()))
        .collect();
    store.update_standings(variant, &changed, removed)?;
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let new = after.get(key).filter(|_| !removed.contains(key));
        reposition(store, variant, before.get(key), new, now)?;
    }
    Ok(())
}

/// Moves to the inactive list every player whose time came by `now` (read from the
/// idle files of the days up to today only). Does nothing without an index.
pub fn settle(store: &Store, now: u64) -> Result<(), StoreError> {
    if store.index_state()?.is_none() {
        return Ok(());
    }
    for variant in [Variant::Normal, Variant::Blitz] {
        for day in store.idle_days(variant)? {
            if day > now / DAY {
                break;
            }
            let (due, rest): (Vec<IdleEntry>, Vec<IdleEntry>) = store
                .idle_on(variant, day)?
                .into_iter()
                .partition(|e| e.at <= now);
            if due.is_empty() {
                continue;
            }
            let keys: Vec<String> = due.iter().map(|e| e.key.clone()).collect();
            for s in store.standings_of(variant, &keys)?.values() {
                let was = if s.record.provisional() {
                    Section::Provisional
                } else {
                    Section::Established
                };
                store.rank_remove(variant, was, s)?;
                store.rank_insert(variant, Section::Inactive, s)?;
            }
            store.put_idle_on(variant, day, &rest)?;
        }
    }
    Ok(())
}
