//! Counts per day, one small file per key: `<home>/<folder>/<sha256 of the key>.json`
//! holding the day (days since 1970) and the count; a count of an earlier day is no
//! count. The folders ([`FOLDERS`]): `quota/`, mails to an address nobody confirmed
//! (`confirm.rs`), and `challenges/`, games a sender started for two other players
//! (by the reply address, and by the userid owning it), and `strangers/`, mails a
//! mail that proved no sender caused to one mailbox, and `messages/`, chats and
//! messages to one mailbox (both `outgoing::gate`), and `own/`, the mails of its owner
//! that only the mail proved (`inbound::identity::OWN_MAILS_PER_DAY`). Written through the store's
//! transaction; the files of past days are removed by [`Store::expire`] once a day.

use serde::{Deserialize, Serialize};

use super::seen::{key_name, read_dir, remove_file};
use super::{Store, StoreError};

/// Seconds in a day.
const DAY: u64 = 86_400;

/// The folders of daily counts under the home.
pub const FOLDERS: &[&str] = &["quota", "challenges", "strangers", "messages", "own"];

/// One key's count on one day.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Daily {
    day: u64,
    count: u32,
}

impl Store {
    fn daily_path(&self, folder: &str, key: &str) -> std::path::PathBuf {
        self.home()
            .join(folder)
            .join(format!("{}.json", key_name(key)))
    }

    /// How many were counted for `key` in `folder` on the day of `now`.
    pub fn counted_today(
        &self,
        folder: &'static str,
        key: &str,
        now: u64,
    ) -> Result<u32, StoreError> {
        let d: Daily = self
            .read_json(&self.daily_path(folder, key), folder)?
            .unwrap_or_default();
        Ok(if d.day == now / DAY { d.count } else { 0 })
    }

    /// Counts one more for `key` in `folder` on the day of `now`.
    pub fn count_today(&self, folder: &'static str, key: &str, now: u64) -> Result<(), StoreError> {
        let count = self.counted_today(folder, key, now)?.saturating_add(1);
        let d = Daily {
            day: now / DAY,
            count,
        };
        self.write_json(&self.daily_path(folder, key), folder, &d)
    }

    /// Removes the daily counts of days before the day of `now` (and files that do
    /// not read as one); returns how many. Outside any transaction.
    pub(super) fn expire_daily(&self, now: u64) -> Result<usize, StoreError> {
        let mut removed = 0;
        for folder in FOLDERS {
            for e in read_dir(&self.home().join(folder))? {
                let old = std::fs::read(e.path())
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Daily>(&b).ok())
                    .is_none_or(|d| d.day < now / DAY);
                if old && remove_file(&e.path())? {
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_lasts_its_day_and_is_removed_after_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        // (A transaction's journal makes the folders; this test writes directly.)
        for f in FOLDERS {
            std::fs::create_dir_all(dir.path().join(f)).expect("mkdir");
        }
        let t = 20_000 * DAY + 100;
        store
            .count_today("challenges", "a@x.org", t)
            .expect("count");
        store
            .count_today("challenges", "a@x.org", t + 60)
            .expect("count");
        assert_eq!(
            store
                .counted_today("challenges", "a@x.org", t + 120)
                .expect("read"),
            2
        );
        assert_eq!(
            store
                .counted_today("challenges", "b@x.org", t)
                .expect("read"),
            0
        );
        assert_eq!(
            store
                .counted_today("challenges", "a@x.org", t + DAY)
                .expect("read"),
            0
        );
        assert_eq!(store.expire_daily(t).expect("expire"), 0);
        std::fs::write(dir.path().join("quota/junk.json"), "{").expect("junk");
        assert_eq!(store.expire_daily(t + DAY).expect("expire"), 2);
        assert_eq!(
            std::fs::read_dir(dir.path().join("challenges"))
                .expect("dir")
                .count(),
            0
        );
    }
}
