//! Hard bounces per address: `<home>/bounces/<hash>.json`, hash = SHA-256 of
//! `Address::canonical` (every spelling of one mailbox is one record):
//! `{"address", "hard": [unix seconds...], "ids": [DSN Message-IDs...],
//! "failing_since": unix seconds}`. `run::bounces` adds a hard bounce when a
//! delivery status notification comes back to an address's VERP bounce address, and
//! marks the address failing after `[mail] hard_bounces` of them over at least a
//! day; the gate then sends it nothing. A mail from the address removes its record.
//!
//! The records are read and written through the store's transaction like every other
//! file of the home (the count and the notices it causes commit in one journal;
//! a record removed by a mail is part of that mail's journal). A record that does
//! not parse is the named error `StoreError::Corrupt`, never taken for no record.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::fs::create_dir;
use super::seen::key_name;
use super::{Store, StoreError};
use crate::mail::Address;

/// The most bounce times (and DSN ids) one record keeps: the latest.
const KEEP: usize = 20;

/// The hard bounces of one mailbox.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BounceRecord {
    /// The address as the bounce named it.
    pub address: String,
    /// When each hard bounce came back, oldest first.
    pub hard: Vec<u64>,
    /// The Message-IDs of the notifications counted (a copy counts once).
    #[serde(default)]
    pub ids: Vec<String>,
    /// Since when the address is failing (no mail goes to it), if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_since: Option<u64>,
}

impl BounceRecord {
    /// This record with one more hard bounce at `now` from the notification `id`;
    /// `false` when that notification was counted already.
    pub fn add(&mut self, now: u64, id: &str) -> bool {
        if !id.is_empty() && self.ids.iter().any(|i| i == id) {
            return false;
        }
        self.hard.push(now);
        if !id.is_empty() {
            self.ids.push(id.to_string());
        }
        let extra = self.hard.len().saturating_sub(KEEP);
        self.hard.drain(..extra);
        let extra = self.ids.len().saturating_sub(KEEP);
        self.ids.drain(..extra);
        true
    }

    /// Whether `n` hard bounces or more came back, the first of the last `n` at
    /// least a day before the last (with `n` = 1, the first bounce is enough).
    pub fn enough_to_fail(&self, n: u32) -> bool {
        let n = n.max(1) as usize;
        let len = self.hard.len();
        len >= n && (n == 1 || self.hard[len - 1].saturating_sub(self.hard[len - n]) >= 86_400)
    }
}

impl Store {
    /// `<home>/bounces`.
    fn bounces_dir(&self) -> PathBuf {
        self.home().join("bounces")
    }

    fn bounce_path(&self, address: &Address) -> PathBuf {
        self.bounces_dir()
            .join(format!("{}.json", key_name(address.canonical())))
    }

    /// The bounce record of the mailbox of `address`, if any, through the open
    /// transaction; a file that is not a bounce record is [`StoreError::Corrupt`].
    pub fn bounce_record(&self, address: &Address) -> Result<Option<BounceRecord>, StoreError> {
        self.read_json(&self.bounce_path(address), "bounce record")
    }

    /// Writes the bounce record of the mailbox of `address`: buffered in the open
    /// transaction, so that its journal writes it (in `bounces/`, made 0700: the
    /// records name addresses in clear); outside one, at once.
    pub fn put_bounce_record(
        &self,
        address: &Address,
        record: &BounceRecord,
    ) -> Result<(), StoreError> {
        if !self.in_transaction() {
            create_dir(&self.bounces_dir(), 0o700)?;
        }
        self.write_json(&self.bounce_path(address), "bounce record", record)
    }

    /// Removes the bounce record of the mailbox of `address` (none is fine), through
    /// the open transaction like any other change.
    pub fn remove_bounce_record(&self, address: &Address) -> Result<(), StoreError> {
        self.remove_file(&self.bounce_path(address))
    }

    /// Whether the mailbox of `address` is marked failing. A record that does not
    /// read is the named error [`StoreError::Corrupt`]: repaired or removed by the
    /// operator, it is not taken for an address that works.
    pub fn is_failing(&self, address: &Address) -> Result<bool, StoreError> {
        Ok(self
            .bounce_record(address)?
            .is_some_and(|r| r.failing_since.is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 30, bounces: three hard bounces over a day fail; three in an hour or
    /// the same notification three times do not.
    #[test]
    fn three_hard_bounces_over_a_day_fail() {
        let mut r = BounceRecord::default();
        assert!(r.add(1000, "a"));
        assert!(!r.add(1100, "a"), "a copy counts once");
        assert!(r.add(2000, "b"));
        assert!(r.add(3000, "c"));
        assert!(!r.enough_to_fail(3), "within an hour");
        assert!(r.add(1000 + 86_400 + 2000, "d"));
        assert!(r.enough_to_fail(3));
        assert!(!r.enough_to_fail(5));
        assert!(r.enough_to_fail(1), "one is enough when the setting says 1");
    }
}
