//! `<home>/robot-time.json` ([`RobotTime`]) counts the robots' think
//! time in the current clock hour, so that `[robot] think_seconds_per_hour` bounds
//! the CPU all robots together may take, however many games people start; and the
//! part of it spent on each share's games (`by_player`, keyed by the share's name:
//! a person's mailbox, `Address::canonical` of their account's first confirmed
//! address, which `[robot] think_seconds_per_player_hour` bounds (issues 25 and 45);
//! or `(unconfirmed)`, all accounts without a confirmed address together, which
//! `[robot] strangers_think_seconds_per_hour` bounds), and the part spent on reviews
//! (`review_ms`), which `[robot] review_seconds_per_hour` bounds. Files written before
//! issue 45 keyed a person's share by lower-case userid: they are read as they are
//! (such a key names no share of the new kind, and the next hour starts without it).
//!
//! ```text
//! {"hour": 498717, "think_ms": 41200,
//!  "by_player": {"alice@example.org": 30100, "(unconfirmed)": 11100}}
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};

/// The robots' think time in one clock hour.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotTime {
    /// The hour counted: Unix seconds / 3600.
    pub hour: u64,
    /// Milliseconds of thinking in that hour.
    pub think_ms: u64,
    /// Milliseconds of it spent on each share's games (absent in files written
    /// before it was kept).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_player: BTreeMap<String, u64>,
    /// Milliseconds of it spent on reviews of finished games (issue 28; absent when
    /// none), which `[robot] review_seconds_per_hour` bounds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub review_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl RobotTime {
    /// The think time spent in the hour of `now`, in milliseconds.
    pub fn spent(&self, now: u64) -> u64 {
        if self.hour == now / 3600 {
            self.think_ms
        } else {
            0
        }
    }

    /// The think time spent on the games of the share `key` in the hour of `now`.
    pub fn spent_by(&self, now: u64, key: &str) -> u64 {
        if self.hour == now / 3600 {
            self.by_player.get(key).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// This count with `ms` more thought at `now`, on the games of the share `key`
    /// when there is one (a new hour starts from zero).
    pub fn add(&self, now: u64, key: Option<&str>, ms: u64) -> RobotTime {
        let mut by_player = if self.hour == now / 3600 {
            self.by_player.clone()
        } else {
            BTreeMap::new()
        };
        if let Some(key) = key {
            let spent = by_player.entry(key.to_string()).or_insert(0);
            *spent = spent.saturating_add(ms);
        }
        RobotTime {
            hour: now / 3600,
            think_ms: self.spent(now).saturating_add(ms),
            by_player,
            review_ms: self.reviewed(now),
        }
    }

    /// The think time spent on reviews in the hour of `now`, in milliseconds.
    pub fn reviewed(&self, now: u64) -> u64 {
        if self.hour == now / 3600 {
            self.review_ms
        } else {
            0
        }
    }

    /// This count with `ms` more thought on a review at `now` (counted in the robots'
    /// think time too: reviews take a share of it).
    pub fn add_review(&self, now: u64, ms: u64) -> RobotTime {
        let mut out = self.add(now, None, ms);
        out.review_ms = out.review_ms.saturating_add(ms);
        out
    }
}

impl Store {
    fn robot_time_path(&self) -> PathBuf {
        self.home.join("robot-time.json")
    }

    /// The robots' think time counted so far (zero when never counted).
    pub fn robot_time(&self) -> Result<RobotTime, StoreError> {
        Ok(self
            .read_json(&self.robot_time_path(), "robot think time")?
            .unwrap_or_default())
    }

    /// Record the robots' think time.
    pub fn put_robot_time(&self, time: &RobotTime) -> Result<(), StoreError> {
        self.write_json(&self.robot_time_path(), "robot think time", time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_time_counts_one_clock_hour_and_starts_again_in_the_next() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        assert_eq!(store.robot_time().expect("read"), RobotTime::default());
        let at = 3600 * 500 + 10;
        let t = RobotTime::default()
            .add(at, Some("alice"), 1500)
            .add(at + 3000, None, 700);
        assert_eq!(t.spent(at + 3589), 2200);
        assert_eq!(t.spent_by(at + 3589, "alice"), 1500);
        assert_eq!(t.spent_by(at + 3589, "bob"), 0);
        assert_eq!(t.spent(at + 3590), 0, "the next hour");
        assert_eq!(t.spent_by(at + 3590, "alice"), 0, "the next hour");
        let next = t.add(at + 3600, Some("bob"), 5);
        assert_eq!(next.spent(at + 3600), 5);
        assert_eq!(next.by_player.len(), 1, "alice's share starts again");
        let reviewed = t.add_review(at + 10, 900).add_review(at + 20, 100);
        assert_eq!(reviewed.reviewed(at + 30), 1000);
        assert_eq!(
            reviewed.spent(at + 30),
            3200,
            "counted in the robots' time too"
        );
        assert_eq!(reviewed.spent_by(at + 30, "alice"), 1500);
        assert_eq!(reviewed.add(at + 40, None, 5).reviewed(at + 40), 1000);
        assert_eq!(reviewed.reviewed(at + 3600), 0, "the next hour");
        assert_eq!(reviewed.add_review(at + 3600, 7).reviewed(at + 3600), 7);
        store.put_robot_time(&t).expect("put");
        assert_eq!(store.robot_time().expect("read"), t);
    }

    /// A file written before shares were by mailbox (issue 45) is read as it is: its
    /// userid keys name no person's share of the new kind.
    #[test]
    fn a_file_of_shares_by_userid_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        std::fs::write(
            dir.path().join("robot-time.json"),
            br#"{"hour": 498717, "think_ms": 41200, "by_player": {"alice": 30100, "(unconfirmed)": 11100}}"#,
        )
        .expect("old file");
        let t = store.robot_time().expect("read");
        let now = 498_717 * 3600 + 5;
        assert_eq!(t.spent(now), 41200);
        assert_eq!(t.spent_by(now, "(unconfirmed)"), 11100);
        assert_eq!(t.spent_by(now, "alice@example.org"), 0);
        let t = t.add(now, Some("alice@example.org"), 100);
        assert_eq!(t.spent_by(now, "alice@example.org"), 100);
        assert_eq!(t.spent(now), 41300);
    }
}
