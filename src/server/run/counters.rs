//! The server's counters since its store was made (`<home>/counters.json`), which
//! `status --prometheus` writes as `yinsh_pbem_*_total`: mails handled, runs failed
//! (deliver, flush, tick), mails left unanswered on purpose, replies spooled, sent,
//! given up and refused by the gate (by why), bounce reports read.
//! Each run adds what its report says once it has ended, under the counters' own lock
//! (`counters.lock`: concurrent `deliver`s never lose a count, and a run that failed
//! waiting for the store's lock still counts its failure). A failure to count only loses the
//! figure: the run's own result stands.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::durable::{Existing, write_durable};
use crate::server::config::Settings;
use crate::server::store::Store;

use super::report::{Refused, Report};

/// A run that counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// `yinsh-pbem deliver`.
    Deliver,
    /// `yinsh-pbem flush`.
    Flush,
    /// `yinsh-pbem tick`.
    Tick,
}

impl Counted {
    /// The name of the run, as its subcommand and its label in the Prometheus file.
    pub fn name(self) -> &'static str {
        match self {
            Counted::Deliver => "deliver",
            Counted::Flush => "flush",
            Counted::Tick => "tick",
        }
    }
}

/// The counts of `<home>/counters.json` (absent: all zero).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Counters {
    /// Mails `deliver` handled (exit 0): answered, dropped or bounces read.
    pub mails: u64,
    /// Runs of `deliver` that exited 75.
    pub deliver_failed: u64,
    /// Runs of `flush` that exited 75.
    pub flush_failed: u64,
    /// Runs of `tick` that exited 75.
    pub tick_failed: u64,
    /// Replies put in the spool.
    pub replies_spooled: u64,
    /// Replies sent (or written to the outbox).
    pub replies_sent: u64,
    /// Replies given up (moved to `spool/failed/`).
    pub replies_given_up: u64,
    /// Mails to a bounce address (delivery reports) read.
    pub bounces: u64,
    /// Mails left unanswered on purpose (robots, lists, loops, duplicates).
    pub unanswered: u64,
    /// Recipients the gate left out of replies, by why (`"refused"`; absent in the
    /// files of older versions: all zero).
    pub refused: Refused,
}

impl Counters {
    /// The failed runs of `run`.
    pub fn failed(&self, run: Counted) -> u64 {
        match run {
            Counted::Deliver => self.deliver_failed,
            Counted::Flush => self.flush_failed,
            Counted::Tick => self.tick_failed,
        }
    }
}

/// How a run ended, as the counters see it.
#[derive(Debug, Clone, Copy)]
pub enum Outcome<'a> {
    /// It did what its report says (exit 0).
    Done(&'a Report),
    /// It failed (exit 75).
    Failed,
}

/// `<home>/counters.json`.
pub fn counters_file(home: &Path) -> PathBuf {
    home.join("counters.json")
}

/// The counts kept in `home` (zero where the file is missing or unreadable).
pub fn read(home: &Path) -> Counters {
    std::fs::read(counters_file(home))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Adds what the run `run` did to the counts.
pub fn add(settings: &Settings, run: Counted, outcome: Outcome<'_>) {
    // The lock is held only to read and write one small file.
    let wait = Duration::from_secs(30);
    if !settings.home.join("reply-key").is_file() {
        return;
    }
    let Ok(store) = Store::open(&settings.home) else {
        return;
    };
    let Ok(_lock) = store.lock_counters(wait) else {
        return;
    };
    let mut c = read(&settings.home);
    let n = |v: usize| v as u64;
    match outcome {
        Outcome::Done(report) => {
            if run == Counted::Deliver {
                c.mails += 1;
            }
            c.replies_spooled += n(report.spooled);
            c.replies_sent += n(report.sent);
            c.replies_given_up += n(report.dead);
            c.bounces += n(report.bounces);
            c.unanswered += n(report.unanswered);
            c.refused.add_all(&report.refused);
        }
        Outcome::Failed => match run {
            Counted::Deliver => c.deliver_failed += 1,
            Counted::Flush => c.flush_failed += 1,
            Counted::Tick => c.tick_failed += 1,
        },
    }
    if let Ok(bytes) = serde_json::to_vec(&c) {
        let _ = write_durable(&counters_file(&settings.home), &bytes, Existing::Replace);
    }
}
