//! Vacations: periods when a player's clocks stop (no reminders, no forfeits, and the
//! time does not count against them). Kept in `<home>/vacations.json`:
//! `{"alice": [{"from": 1795384020, "until": 1796000000}]}`, keyed by lower-case
//! userid, written through the store (so a mail's change is part of its journal).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::server::store::{Store, StoreError};

/// The longest vacation one command may ask for, in days.
pub const MAX_DAYS: u32 = 90;

/// One period of vacation, in unix seconds, `from` inclusive, `until` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// When it starts.
    pub from: u64,
    /// When it ends.
    pub until: u64,
}

/// Every player's vacations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Vacations(pub BTreeMap<String, Vec<Period>>);

impl Vacations {
    /// Read `<home>/vacations.json` through the store (none when missing).
    pub fn load(store: &Store) -> Result<Vacations, StoreError> {
        Ok(store
            .read_json(&store.vacations_path(), "vacations")?
            .unwrap_or_default())
    }

    /// Write `<home>/vacations.json` through the store: part of the mail's journal
    /// inside a transaction, atomically otherwise.
    pub fn save(&self, store: &Store) -> Result<(), StoreError> {
        store.write_json(&store.vacations_path(), "vacations", self)
    }

    /// The vacation `userid` is on at `now`, if any.
    pub fn current(&self, userid: impl AsRef<str>, now: u64) -> Option<Period> {
        self.0
            .get(&userid.as_ref().to_ascii_lowercase())?
            .iter()
            .copied()
            .find(|p| p.from <= now && now < p.until)
    }

    /// `<home>/vacations.json` as the disk holds it, before the open transaction's
    /// changes.
    pub fn on_disk(store: &Store) -> Result<Vacations, StoreError> {
        Ok(store
            .read_json_on_disk(&store.vacations_path(), "vacations")?
            .unwrap_or_default())
    }

    /// The lower-case userids whose vacations the open transaction changed (none when
    /// it did not write `vacations.json`), with the vacations before and after.
    pub fn changed(
        store: &Store,
    ) -> Result<Option<(Vec<String>, Vacations, Vacations)>, StoreError> {
        if !store.is_buffered(&store.vacations_path()) {
            return Ok(None);
        }
        let (before, after) = (Vacations::on_disk(store)?, Vacations::load(store)?);
        let mut keys: Vec<String> = before.0.keys().chain(after.0.keys()).cloned().collect();
        keys.sort_unstable();
        keys.dedup();
        keys.retain(|k| before.0.get(k) != after.0.get(k));
        Ok(Some((keys, before, after)))
    }

    /// The first time at or after `since` when `userid` has been idle for `idle`
    /// seconds, the time on vacation not counting, and is not on vacation: when tick
    /// acts on a clock started at `since` (`tick::due`).
    ///
    /// ```
    /// use yinsh_pbem::server::game::vacation::Vacations;
    /// let mut v = Vacations::default();
    /// v.set("alice", 100, 1); // 100 .. 86,500
    /// assert_eq!(v.idle_reached("bob", 0, 500), 500);
    /// assert_eq!(v.idle_reached("alice", 0, 50), 50);
    /// assert_eq!(v.idle_reached("Alice", 0, 500), 86_500 + 400);
    /// assert_eq!(v.idle_reached("alice", 0, 100), 86_500); // reached as it starts
    /// ```
    pub fn idle_reached(&self, userid: impl AsRef<str>, since: u64, idle: u64) -> u64 {
        let key = userid.as_ref().to_ascii_lowercase();
        let mut periods: Vec<Period> = self
            .0
            .get(&key)
            .map(|l| l.iter().copied().filter(|p| p.until > since).collect())
            .unwrap_or_default();
        periods.sort_by_key(|p| p.from);
        let (mut t, mut need) = (since, idle);
        for p in periods {
            let gap = p.from.saturating_sub(t);
            if gap > need {
                break;
            }
            need -= gap;
            t = t.max(p.until);
        }
        t.saturating_add(need)
    }

    /// Start a vacation of `days` days at `now` (ending any current one first);
    /// `days == 0` only ends the current one.
    pub fn set(&mut self, userid: impl AsRef<str>, now: u64, days: u32) {
        let list = self
            .0
            .entry(userid.as_ref().to_ascii_lowercase())
            .or_default();
        for p in list.iter_mut() {
            if p.from <= now && now < p.until {
                p.until = now;
            }
        }
        list.retain(|p| p.until > p.from);
        if days > 0 {
            list.push(Period {
                from: now,
                until: now + u64::from(days) * 86_400,
            });
        }
    }

    /// The end of the last of `userid`'s vacations that stops a clock started at
    /// `since` (one ending after it), if any: why its deadlines are later.
    ///
    /// ```
    /// use yinsh_pbem::server::game::vacation::Vacations;
    /// let mut v = Vacations::default();
    /// v.set("alice", 100, 1);
    /// assert_eq!(v.last_until("Alice", 0), Some(86_500));
    /// assert_eq!(v.last_until("alice", 86_500), None);
    /// ```
    pub fn last_until(&self, userid: impl AsRef<str>, since: u64) -> Option<u64> {
        let key = userid.as_ref().to_ascii_lowercase();
        self.0
            .get(&key)?
            .iter()
            .filter(|p| p.until > since)
            .map(|p| p.until)
            .max()
    }

    /// How many seconds of `[from, to)` `userid` spent on vacation.
    ///
    /// ```
    /// use yinsh_pbem::server::game::vacation::Vacations;
    /// let mut v = Vacations::default();
    /// v.set("alice", 100, 1);
    /// assert_eq!(v.paused("Alice", 0, 1000), 900);
    /// assert_eq!(v.paused("bob", 0, 1000), 0);
    /// ```
    pub fn paused(&self, userid: impl AsRef<str>, from: u64, to: u64) -> u64 {
        let key = userid.as_ref().to_ascii_lowercase();
        self.0.get(&key).map_or(0, |list| {
            list.iter()
                .map(|p| to.min(p.until).saturating_sub(from.max(p.from)))
                .sum()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ending_early_and_overlaps() {
        let mut v = Vacations::default();
        v.set("a", 1000, 2);
        assert!(v.current("A", 1000).is_some());
        v.set("a", 2000, 0);
        assert_eq!(v.current("a", 2000), None);
        assert_eq!(v.paused("a", 0, 10_000), 1000);
        assert_eq!(v.paused("a", 1500, 10_000), 500);
        assert_eq!(v.paused("a", 3000, 10_000), 0);
    }
}
