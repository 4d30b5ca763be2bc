//! Hard bounces per exact address: `<home>/bounces/<hash>.json`, hash = SHA-256 of
//! the address the bounced mail was sent to, as its VERP tag was made for it
//! ([`exact_address`]: the `+tag` kept, in lower case), so that
//! `alice+0@corp.example` and `alice@corp.example` are two records:
//! `{"address", "hard": [unix seconds...], "ids": [DSN Message-IDs...],
//! "failing_since": unix seconds}`. `run::bounces` adds a hard bounce when a
//! delivery status notification comes back to an address's VERP bounce address, and
//! marks the address failing after `[mail] hard_bounces` of them over at least a
//! day; the gate then sends that exact address nothing. A proven mail from the
//! address removes its record.
//!
//! Records written before issue 45 sit under the hash of `Address::canonical` (every
//! spelling of a mailbox one file) and name the spelling they counted in `address`.
//! Such a record is read as the record of that exact spelling only: at its own key
//! when the spelling is the canonical one, else found through the canonical key
//! ([`Store::bounce_record`]); it is never taken for the record of another spelling
//! whose key it occupies, it moves to its own key when that key is written, and it
//! leaves with its address's record. Nothing of it is lost, and a file that does not
//! parse is still the named error.
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

/// The address exactly as mail was sent to it, the one form a bounce record is kept
/// and looked up in: the whole local part, a `+tag` kept (a mailbox that takes
/// `alice@` may refuse `alice+0@`), in lower case like the domain. Not
/// `Address::canonical`, which drops the `+tag`. Case is folded because the VERP
/// address and its tag (`mail::verp`) carry the recipient in lower case, as MTAs
/// write `Delivered-To`: a bounce cannot tell `Alice@` from `alice@`.
///
/// ```
/// use yinsh_pbem::server::store::exact_address;
/// let a = "Alice+0@Corp.Example".parse().unwrap();
/// assert_eq!(exact_address(&a), "alice+0@corp.example");
/// ```
pub fn exact_address(address: &Address) -> String {
    exact_text(address.as_str())
}

impl BounceRecord {
    /// Whether this record is the record of the exact address `exact` (its
    /// [`exact_address`]): a record written under the canonical key before issue 45
    /// may name another spelling of the mailbox.
    fn is_of(&self, exact: &str) -> bool {
        exact_text(&self.address) == exact
    }
}

/// [`exact_address`] of an address as a record writes it.
fn exact_text(address: &str) -> String {
    address.trim().to_ascii_lowercase()
}

impl Store {
    /// `<home>/bounces`.
    fn bounces_dir(&self) -> PathBuf {
        self.home().join("bounces")
    }

    /// The file of the record kept under `key` (an exact address, or a canonical
    /// one for the records written before issue 45).
    fn bounce_path(&self, key: &str) -> PathBuf {
        self.bounces_dir().join(format!("{}.json", key_name(key)))
    }

    /// The record at `key`'s file if it is the record of `exact`.
    fn bounce_record_at(&self, key: &str, exact: &str) -> Result<Option<BounceRecord>, StoreError> {
        let record: Option<BounceRecord> =
            self.read_json(&self.bounce_path(key), "bounce record")?;
        Ok(record.filter(|r| r.is_of(exact)))
    }

    /// Where the record of `address` was written before issue 45 (its canonical
    /// key), when that is not its own key.
    fn old_key(address: &Address) -> Option<String> {
        let canonical = address.canonical();
        (canonical != exact_address(address)).then_some(canonical)
    }

    /// The bounce record of the exact address `address` ([`exact_address`]), if any,
    /// through the open transaction: at its own key, or (written before issue 45) at
    /// its canonical key naming this very spelling. A file that is not a bounce
    /// record is [`StoreError::Corrupt`].
    pub fn bounce_record(&self, address: &Address) -> Result<Option<BounceRecord>, StoreError> {
        let exact = exact_address(address);
        if let Some(r) = self.bounce_record_at(&exact, &exact)? {
            return Ok(Some(r));
        }
        match Self::old_key(address) {
            Some(old) => self.bounce_record_at(&old, &exact),
            None => Ok(None),
        }
    }

    /// Writes the bounce record of the exact address `address`: buffered in the open
    /// transaction, so that its journal writes it (in `bounces/`, made 0700: the
    /// records name addresses in clear); outside one, at once. A record of another
    /// spelling written before issue 45 under this key moves to its own key first
    /// (unless one is there already); one of this spelling under its old key leaves.
    pub fn put_bounce_record(
        &self,
        address: &Address,
        record: &BounceRecord,
    ) -> Result<(), StoreError> {
        if !self.in_transaction() {
            create_dir(&self.bounces_dir(), 0o700)?;
        }
        let exact = exact_address(address);
        let path = self.bounce_path(&exact);
        let there: Option<BounceRecord> = self.read_json(&path, "bounce record")?;
        if let Some(other) = there.filter(|r| !r.is_of(&exact)) {
            self.move_old_record(other)?;
        }
        self.remove_old_record(address)?;
        self.write_json(&path, "bounce record", record)
    }

    /// `other`, a record written before issue 45 under the canonical key of another
    /// spelling, written under its own key unless that key holds its record already
    /// (then the one at its own key is the newer).
    fn move_old_record(&self, other: BounceRecord) -> Result<(), StoreError> {
        let exact = exact_text(&other.address);
        if self.bounce_record_at(&exact, &exact)?.is_none() {
            self.write_json(&self.bounce_path(&exact), "bounce record", &other)?;
        }
        Ok(())
    }

    /// Removes the record of the exact address `address` written before issue 45
    /// under its canonical key, if there is one.
    fn remove_old_record(&self, address: &Address) -> Result<(), StoreError> {
        let exact = exact_address(address);
        if let Some(old) = Self::old_key(address)
            && self.bounce_record_at(&old, &exact)?.is_some()
        {
            self.remove_file(&self.bounce_path(&old))?;
        }
        Ok(())
    }

    /// Removes the bounce record of the exact address `address` (none is fine), at
    /// its own key and at its old one, through the open transaction like any other
    /// change; a record of another spelling is left where it is.
    pub fn remove_bounce_record(&self, address: &Address) -> Result<(), StoreError> {
        let exact = exact_address(address);
        if self.bounce_record_at(&exact, &exact)?.is_some() {
            self.remove_file(&self.bounce_path(&exact))?;
        }
        self.remove_old_record(address)
    }

    /// Whether the exact address `address` is marked failing. A record that does not
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

    fn address(text: &str) -> Address {
        text.parse().expect("an address")
    }

    fn failing(address: &str) -> BounceRecord {
        BounceRecord {
            address: address.into(),
            hard: vec![1000, 2000, 90_000],
            ids: vec!["a".into(), "b".into(), "c".into()],
            failing_since: Some(90_000),
        }
    }

    /// Issue 45, attack 1: a bounce record is the exact address's: another `+tag` (or
    /// none) is another address; case is not (the VERP address carries none).
    #[test]
    fn a_record_is_kept_for_the_exact_address_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store
            .put_bounce_record(
                &address("alice+0@corp.example"),
                &failing("alice+0@corp.example"),
            )
            .expect("put");
        for same in ["alice+0@Corp.EXAMPLE", "Alice+0@corp.example"] {
            assert!(store.is_failing(&address(same)).expect("read"), "{same}");
        }
        for other in [
            "alice@corp.example",
            "alice+1@corp.example",
            "alice+00@corp.example",
        ] {
            assert!(!store.is_failing(&address(other)).expect("read"), "{other}");
        }
        store
            .remove_bounce_record(&address("alice@corp.example"))
            .expect("remove none");
        assert!(
            store
                .is_failing(&address("alice+0@corp.example"))
                .expect("read")
        );
        store
            .remove_bounce_record(&address("alice+0@corp.example"))
            .expect("remove");
        assert!(
            !store
                .is_failing(&address("alice+0@corp.example"))
                .expect("read")
        );
    }

    /// Issue 45, attack 1: a record written before it, under the canonical key of
    /// another spelling, is that spelling's: never the canonical address's, moved to
    /// its own key when the canonical address gets a record of its own, removed with
    /// its address's record; a spoiled one is still the named error.
    #[test]
    fn a_record_under_the_old_canonical_key_stays_its_own_spellings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let old = store.bounce_path("alice@corp.example");
        std::fs::create_dir_all(old.parent().expect("folder")).expect("mkdir");
        let text = serde_json::to_string(&failing("alice+2@corp.example")).expect("json");
        std::fs::write(&old, text).expect("old record");
        let (plain, plus) = (
            address("alice@corp.example"),
            address("alice+2@corp.example"),
        );
        assert!(
            !store.is_failing(&plain).expect("read"),
            "not the plain address's"
        );
        assert!(store.is_failing(&plus).expect("read"), "its own spelling's");
        // The plain address's own record takes the key: the old one moves, whole.
        let own = BounceRecord {
            address: "alice@corp.example".into(),
            hard: vec![5000],
            ids: vec!["z".into()],
            failing_since: None,
        };
        store.put_bounce_record(&plain, &own).expect("put");
        assert_eq!(store.bounce_record(&plain).expect("read"), Some(own));
        assert_eq!(
            store.bounce_record(&plus).expect("read"),
            Some(failing("alice+2@corp.example"))
        );
        store.remove_bounce_record(&plus).expect("remove");
        assert!(!store.is_failing(&plus).expect("read"));
        assert!(store.bounce_record(&plain).expect("read").is_some());
        // An old record of this spelling leaves with it.
        std::fs::remove_file(&old).expect("rm");
        std::fs::write(
            &old,
            serde_json::to_string(&failing("alice+3@corp.example")).expect("json"),
        )
        .expect("old record");
        let three = address("alice+3@corp.example");
        assert!(store.is_failing(&three).expect("read"));
        store.remove_bounce_record(&three).expect("remove");
        assert!(!old.exists(), "the old record left with its address's");
        // Spoiled: the named error, for every spelling that reads it.
        std::fs::write(&old, "{").expect("spoil");
        for a in [&plain, &plus] {
            assert!(
                matches!(store.is_failing(a), Err(StoreError::Corrupt { .. })),
                "{a}"
            );
        }
    }
}
