//! Accounts that never confirmed an address: `<home>/unconfirmed/<key>.json`
//! (`{"since": <unix seconds>}`), written by a signup whose codes were mailed and
//! removed when the account confirms one of its addresses, is signed off or is
//! removed, so that the daily expiry ([`Store::unconfirmed_due`]) finds them without
//! reading every account. Built once from every account (marker `unconfirmed/built`):
//! an account of an older home is listed when none of its addresses is confirmed and
//! it is in no game (one in a game may have been a player's whose new addresses wait
//! for their codes, and is left alone). Through the store's transaction.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::confirm::TOKEN_SECONDS;
use super::{Store, StoreError, UserId};

/// How long an account may wait for its first confirmation before it expires, in
/// seconds: as long as its codes are valid (7 days).
pub const UNCONFIRMED_SECONDS: u64 = TOKEN_SECONDS;

/// One entry: when the account was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Since {
    since: u64,
}

impl Store {
    fn unconfirmed_dir(&self) -> PathBuf {
        self.home().join("unconfirmed")
    }

    fn unconfirmed_path(&self, userid: &UserId) -> PathBuf {
        self.unconfirmed_dir()
            .join(format!("{}.json", userid.key()))
    }

    /// Lists the accounts of a home made before this index, once.
    fn ensure_unconfirmed(&self) -> Result<(), StoreError> {
        let marker = self.unconfirmed_dir().join("built");
        if self.read_text(&marker)?.is_some() {
            return Ok(());
        }
        for a in self.accounts()? {
            if a.confirmed_none() && !a.addresses.is_empty() && a.games.is_empty() {
                self.write_since(&a.userid, a.created)?;
            }
        }
        self.write_file(&marker, b"1\n")
    }

    fn write_since(&self, userid: &UserId, since: u64) -> Result<(), StoreError> {
        self.write_json(
            &self.unconfirmed_path(userid),
            "unconfirmed account",
            &Since { since },
        )
    }

    /// Lists `userid` as an account that has confirmed nothing yet, made at `since`.
    pub fn mark_unconfirmed(&self, userid: &UserId, since: u64) -> Result<(), StoreError> {
        self.ensure_unconfirmed()?;
        self.write_since(userid, since)
    }

    /// Takes `userid` off the list (it confirmed an address, or is gone).
    pub fn unmark_unconfirmed(&self, userid: &UserId) -> Result<(), StoreError> {
        self.ensure_unconfirmed()?;
        let path = self.unconfirmed_path(userid);
        if self.read_text(&path)?.is_some() {
            self.remove_file(&path)?;
        }
        Ok(())
    }

    /// Whether `userid` is listed as having confirmed nothing yet, and since when.
    pub fn unconfirmed_since(&self, userid: &UserId) -> Result<Option<u64>, StoreError> {
        self.ensure_unconfirmed()?;
        let entry: Option<Since> =
            self.read_json(&self.unconfirmed_path(userid), "unconfirmed account")?;
        Ok(entry.map(|e| e.since))
    }

    /// The listed accounts made [`UNCONFIRMED_SECONDS`] or more before `now`, oldest
    /// first.
    pub fn unconfirmed_due(&self, now: u64) -> Result<Vec<UserId>, StoreError> {
        self.ensure_unconfirmed()?;
        let mut due = Vec::new();
        for (stem, path) in self.list_json(&self.unconfirmed_dir())? {
            let Ok(userid) = stem.parse::<UserId>() else {
                continue;
            };
            let entry: Option<Since> = self.read_json(&path, "unconfirmed account")?;
            if let Some(e) = entry
                && e.since.saturating_add(UNCONFIRMED_SECONDS) <= now
            {
                due.push((e.since, userid));
            }
        }
        due.sort();
        Ok(due.into_iter().map(|(_, u)| u).collect())
    }
}
