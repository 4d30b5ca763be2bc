//! Failed logins per userid (`<home>/logins/<key>.json`), against password guessing:
//! whatever address a mail claims to come from, at most [`MAX_FAILURES`] wrong
//! passwords for one userid count in [`WINDOW`] seconds; past that, logins for that
//! userid are paused until the window ends, and every attempt (even with the right
//! password) gets the same answer, so a guess that is right does not stand out. The
//! owner is told once per pause. Wrong `verify` codes are counted apart
//! (`<home>/codes/<key>.json`, the same limit and window): they never pause the
//! password's logins, and a right code is accepted whatever the counts (it proves
//! the mailbox; `inbound::identity`). Written through the store: inside a transaction
//! the count is part of the mail's journal.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::UserId;

/// Wrong passwords for one userid that count in one window.
pub const MAX_FAILURES: u32 = 5;
/// The window, seconds (one hour).
pub const WINDOW: u64 = 3600;

/// The failures of one userid in its current window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failures {
    /// When the window started.
    pub start: u64,
    /// Wrong passwords in it.
    pub count: u32,
    /// Whether the owner was told of this window's pause.
    #[serde(default)]
    pub told: bool,
}

/// What a login attempt may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginGate {
    /// Check the password.
    Open,
    /// Logins are paused until this time (unix seconds); `tell_owner` the first time.
    Paused {
        /// When the pause ends.
        until: u64,
        /// This is the first refused attempt of the pause: tell the owner.
        tell_owner: bool,
    },
}

/// What is counted: wrong passwords, or wrong `verify` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attempt {
    /// Wrong passwords (`<home>/logins/`).
    Password,
    /// Wrong `verify` codes (`<home>/codes/`).
    Code,
}

impl Attempt {
    /// The folder of the counts, and what a file of it is called in errors.
    fn folder(self) -> (&'static str, &'static str) {
        match self {
            Attempt::Password => ("logins", "failed-logins"),
            Attempt::Code => ("codes", "wrong-codes"),
        }
    }
}

impl Store {
    fn attempts_path(&self, attempt: Attempt, userid: &UserId) -> PathBuf {
        self.home()
            .join(attempt.folder().0)
            .join(format!("{}.json", userid.key()))
    }

    /// The failures of `attempt` for `userid` in the window that holds `now`.
    fn failures(
        &self,
        attempt: Attempt,
        userid: &UserId,
        now: u64,
    ) -> Result<Failures, StoreError> {
        let f: Failures = self
            .read_json(&self.attempts_path(attempt, userid), attempt.folder().1)?
            .unwrap_or_default();
        if now >= f.start.saturating_add(WINDOW) || now < f.start {
            return Ok(Failures::default());
        }
        Ok(f)
    }

    /// The gate of `attempt` for `userid` at `now`, marking the owner as told.
    fn gate(&self, attempt: Attempt, userid: &UserId, now: u64) -> Result<LoginGate, StoreError> {
        let mut f = self.failures(attempt, userid, now)?;
        if f.count < MAX_FAILURES {
            return Ok(LoginGate::Open);
        }
        let tell_owner = !f.told;
        if tell_owner {
            f.told = true;
            let (path, what) = (self.attempts_path(attempt, userid), attempt.folder().1);
            self.write_json(&path, what, &f)?;
        }
        Ok(LoginGate::Paused {
            until: f.start + WINDOW,
            tell_owner,
        })
    }

    /// Counts one failure of `attempt` for `userid` at `now`.
    fn failed(&self, attempt: Attempt, userid: &UserId, now: u64) -> Result<(), StoreError> {
        let mut f = self.failures(attempt, userid, now)?;
        if f.count == 0 {
            f.start = now;
        }
        f.count = f.count.saturating_add(1);
        let (path, what) = (self.attempts_path(attempt, userid), attempt.folder().1);
        self.write_json(&path, what, &f)
    }

    /// The failures of `userid` in the window that holds `now` (none when the window
    /// has ended).
    pub fn login_failures(&self, userid: &UserId, now: u64) -> Result<Failures, StoreError> {
        self.failures(Attempt::Password, userid, now)
    }

    /// Whether `userid` may try a password at `now`; marks the owner as told when the
    /// answer says to tell them.
    pub fn login_gate(&self, userid: &UserId, now: u64) -> Result<LoginGate, StoreError> {
        self.gate(Attempt::Password, userid, now)
    }

    /// Count one wrong password for `userid` at `now`.
    pub fn login_failed(&self, userid: &UserId, now: u64) -> Result<(), StoreError> {
        self.failed(Attempt::Password, userid, now)
    }

    /// The wrong `verify` codes for `userid` in the window that holds `now`.
    pub fn code_failures(&self, userid: &UserId, now: u64) -> Result<Failures, StoreError> {
        self.failures(Attempt::Code, userid, now)
    }

    /// Whether a wrong `verify` code for `userid` at `now` is one too many (its own
    /// count, apart from the passwords'); `tell_owner` is true once a pause.
    pub fn code_gate(&self, userid: &UserId, now: u64) -> Result<LoginGate, StoreError> {
        self.gate(Attempt::Code, userid, now)
    }

    /// Count one wrong `verify` code for `userid` at `now`.
    pub fn code_failed(&self, userid: &UserId, now: u64) -> Result<(), StoreError> {
        self.failed(Attempt::Code, userid, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_pause_logins_for_the_rest_of_the_hour_and_the_owner_is_told_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let alice: UserId = "Alice".parse().expect("userid");
        let t0 = 1_000_000;
        for k in 0..MAX_FAILURES {
            assert_eq!(
                store.login_gate(&alice, t0 + u64::from(k)).expect("gate"),
                LoginGate::Open
            );
            store
                .login_failed(&alice, t0 + u64::from(k))
                .expect("count");
        }
        let until = t0 + WINDOW;
        assert_eq!(
            store
                .login_gate(&"alice".parse().expect("id"), t0 + 10)
                .expect("gate"),
            LoginGate::Paused {
                until,
                tell_owner: true
            }
        );
        assert_eq!(
            store.login_gate(&alice, t0 + 11).expect("gate"),
            LoginGate::Paused {
                until,
                tell_owner: false
            }
        );
        // Another userid is not concerned; the window's end opens logins again.
        assert_eq!(
            store
                .login_gate(&"bob".parse().expect("id"), t0)
                .expect("gate"),
            LoginGate::Open
        );
        assert_eq!(
            store.login_gate(&alice, until).expect("gate"),
            LoginGate::Open
        );
        // A damaged record is a loud error naming the file, not a silent reset.
        std::fs::write(store.attempts_path(Attempt::Password, &alice), "{").expect("write");
        let e = store.login_gate(&alice, until).expect_err("corrupt");
        assert!(e.to_string().contains("logins/alice.json"), "{e}");
    }

    /// Issue 25 finding 7: wrong codes have their own count, which leaves the
    /// passwords' logins open.
    #[test]
    fn wrong_codes_are_counted_apart_from_wrong_passwords() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        std::fs::create_dir_all(dir.path().join("codes")).expect("mkdir");
        let alice: UserId = "alice".parse().expect("userid");
        let t0 = 1_000_000;
        for k in 0..MAX_FAILURES {
            store.code_failed(&alice, t0 + u64::from(k)).expect("count");
        }
        assert_eq!(
            store.login_gate(&alice, t0 + 10).expect("gate"),
            LoginGate::Open
        );
        assert_eq!(
            store.login_failures(&alice, t0 + 10).expect("read").count,
            0
        );
        assert_eq!(
            store.code_failures(&alice, t0 + 10).expect("read").count,
            MAX_FAILURES
        );
        assert!(matches!(
            store.code_gate(&alice, t0 + 10).expect("gate"),
            LoginGate::Paused { until, .. } if until == t0 + WINDOW
        ));
    }
}
