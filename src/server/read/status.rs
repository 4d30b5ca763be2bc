//! `yinsh-pbem status`: how the server is doing, for its operator, as text or in the
//! Prometheus text format a node_exporter's textfile collector reads. The figures:
//! the spool (waiting, given up, the oldest waiting: `mail::Spool::summary`), the
//! last `tick` and `flush`, the last mail handled, addresses marked failing after
//! bounces, accounts with no confirmed address, the robots' think time this hour,
//! games going on and due, robot turns and reviews owed, the boards so far (all
//! `store::Figures`), the disk's free space, and the runs' counters
//! (`run::counters`; the replies the gate refused, by reason, in the text too).
//!
//! Bounded work whatever the size of the store: no game or account file is read
//! (`Store::figures` says what it reads), and of the spool only the first line of
//! each waiting mail.

use std::fmt::Write as _;
use std::path::Path;

use crate::mail::Spool;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::gate::Held;
use crate::server::run::counters::{self, Counted, Counters};
use crate::server::store::Store;

/// The figures `status` shows; times are Unix seconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    /// The time the figures were taken.
    pub now: u64,
    /// Replies waiting in the spool.
    pub spool_waiting: usize,
    /// Replies given up, in `spool/failed/`.
    pub spool_failed: usize,
    /// When the oldest waiting reply was spooled.
    pub spool_oldest: Option<u64>,
    /// The end of the last `tick`.
    pub last_tick: Option<u64>,
    /// The end of the last `flush`.
    pub last_flush: Option<u64>,
    /// The last time a mail was handled (to the minute of its day folder).
    pub last_mail: Option<u64>,
    /// Addresses marked failing after hard bounces (`bounces/`).
    pub failing_addresses: usize,
    /// Accounts with no confirmed address yet.
    pub unconfirmed_accounts: usize,
    /// The robots' think time in this clock hour, milliseconds.
    pub robot_think_ms: u64,
    /// The robots' think time allowed in one clock hour, milliseconds.
    pub robot_think_limit_ms: u64,
    /// Of the robots' think time this hour, the milliseconds spent on reviews of
    /// finished games (issue 28).
    pub review_ms: u64,
    /// The reviews' share of the robots' hour, milliseconds.
    pub review_limit_ms: u64,
    /// Reviews owed: games finished or asked about whose review is not made yet.
    pub reviews_owed: usize,
    /// Games going on with a person to move.
    pub games_going_on: usize,
    /// Of those, the games whose reminder or forfeit is due now.
    pub games_due: usize,
    /// Robot turns owed (games going on with a robot to move).
    pub robot_turns_owed: usize,
    /// Boards started so far (finished ones included).
    pub boards: u64,
    /// Free bytes on the home's file system, when known.
    pub disk_free_bytes: Option<u64>,
    /// What the runs counted so far (`counters.json`).
    pub counters: Counters,
}

/// Takes the figures of the server whose settings are `settings`, without its lock
/// (each figure is read as it is; none is changed). A home that no run has made yet
/// (no `reply-key`) is a healthy empty server: zeros. `status` never makes a store
/// (the package's status unit runs it as root, and a store made by root would be
/// closed to the server).
pub fn status(settings: &Settings) -> Result<Status, InternalError> {
    let now = settings.now();
    let limits = Status {
        now,
        review_limit_ms: u64::try_from(settings.review_per_hour.as_millis()).unwrap_or(u64::MAX),
        robot_think_limit_ms: u64::try_from(settings.robot_think_per_hour.as_millis())
            .unwrap_or(u64::MAX),
        ..Status::default()
    };
    if !settings.home.join("reply-key").is_file() {
        let mut fresh = limits;
        fresh.disk_free_bytes = settings
            .home
            .ancestors()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .find(|p| p.is_dir())
            .and_then(disk_free);
        return Ok(fresh);
    }
    let store = Store::open(&settings.home)?;
    let home = store.home();
    let spool = Spool::summary(&store.spool_dir());
    let f = store.figures(now)?;
    Ok(Status {
        spool_waiting: spool.waiting,
        spool_oldest: spool.oldest,
        spool_failed: spool.failed,
        last_tick: f.last_tick,
        last_flush: f.last_flush,
        last_mail: f.last_mail,
        failing_addresses: f.failing_addresses,
        unconfirmed_accounts: f.unconfirmed_accounts,
        robot_think_ms: f.robot_time.spent(now),
        review_ms: f.robot_time.reviewed(now),
        reviews_owed: f.reviews_owed,
        robot_turns_owed: f.robot_turns_owed,
        boards: f.boards,
        games_going_on: f.games_going_on,
        games_due: f.games_due,
        disk_free_bytes: disk_free(home),
        counters: counters::read(home),
        ..limits
    })
}

/// Free bytes for an unprivileged user on the file system of `home`.
#[cfg(target_os = "linux")]
fn disk_free(home: &Path) -> Option<u64> {
    let st = rustix::fs::statvfs(home).ok()?;
    Some(st.f_bavail.saturating_mul(st.f_frsize))
}

#[cfg(not(target_os = "linux"))]
fn disk_free(_home: &Path) -> Option<u64> {
    None
}

impl Status {
    /// The figures for a person, one a line.
    pub fn text(&self) -> String {
        let ago = |t: Option<u64>| match t {
            Some(t) => format!("{} ({} ago)", utc(t), span(self.now.saturating_sub(t))),
            None => "never".to_string(),
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "spool:                {} waiting{}, {} given up (spool/failed/)",
            self.spool_waiting,
            self.spool_oldest.map_or(String::new(), |t| format!(
                ", the oldest spooled {}",
                ago(Some(t))
            )),
            self.spool_failed
        );
        let _ = writeln!(out, "last tick:            {}", ago(self.last_tick));
        let _ = writeln!(out, "last flush:           {}", ago(self.last_flush));
        let _ = writeln!(out, "last mail handled:    {}", ago(self.last_mail));
        let _ = writeln!(
            out,
            "failing addresses:    {} (no mail goes to them: bounced)",
            self.failing_addresses
        );
        let _ = writeln!(out, "unconfirmed accounts: {}", self.unconfirmed_accounts);
        let refused = &self.counters.refused;
        let _ = writeln!(
            out,
            "replies refused:      {} by the gate ({})",
            refused.total(),
            Held::ALL
                .iter()
                .map(|&w| format!("{} {}", w.label().replace('_', " "), refused.get(w)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(
            out,
            "robots' think time:   {} s this hour (of {} s)",
            self.robot_think_ms / 1000,
            self.robot_think_limit_ms / 1000
        );
        let _ = writeln!(
            out,
            "reviews:              {} s of it on reviews (of {} s); reviews owed: {}",
            self.review_ms / 1000,
            self.review_limit_ms / 1000,
            self.reviews_owed
        );
        let _ = writeln!(
            out,
            "games going on:       {} with a person to move ({} due for a reminder or \
             forfeit); robot turns owed: {}",
            self.games_going_on, self.games_due, self.robot_turns_owed
        );
        let _ = writeln!(
            out,
            "store:                {} boards so far; {} free on its disk",
            self.boards,
            self.disk_free_bytes
                .map_or("unknown".to_string(), |b| format!("{} MB", b / 1_000_000))
        );
        out
    }

    /// The figures in the Prometheus text format: `yinsh_pbem_*` gauges and
    /// `*_total` counters, every one always present (a time never seen is 0), and
    /// `yinsh_pbem_build_info{version}`.
    pub fn prometheus(&self) -> String {
        let n = |v: usize| v as u64;
        let c = &self.counters;
        let age = self.spool_oldest.map_or(0, |t| self.now.saturating_sub(t));
        let gauges: [(&str, &str, u64); 19] = [
            (
                "spool_waiting",
                "Replies waiting in the spool.",
                n(self.spool_waiting),
            ),
            (
                "spool_failed",
                "Replies given up (spool/failed/).",
                n(self.spool_failed),
            ),
            (
                "spool_oldest_age_seconds",
                "How long the oldest waiting reply has waited (0: none waits).",
                age,
            ),
            (
                "last_tick_timestamp_seconds",
                "The end of the last tick (0: never).",
                self.last_tick.unwrap_or(0),
            ),
            (
                "last_flush_timestamp_seconds",
                "The end of the last flush (0: never).",
                self.last_flush.unwrap_or(0),
            ),
            (
                "last_mail_timestamp_seconds",
                "The last mail handled (0: never).",
                self.last_mail.unwrap_or(0),
            ),
            (
                "failing_addresses",
                "Addresses marked failing after hard bounces.",
                n(self.failing_addresses),
            ),
            (
                "unconfirmed_accounts",
                "Accounts with no confirmed address.",
                n(self.unconfirmed_accounts),
            ),
            (
                "robot_think_seconds",
                "The robots' think time this clock hour.",
                self.robot_think_ms / 1000,
            ),
            (
                "robot_think_limit_seconds",
                "The robots' think time allowed in one clock hour.",
                self.robot_think_limit_ms / 1000,
            ),
            (
                "review_think_seconds",
                "Of the robots' think time this clock hour, the part spent on reviews.",
                self.review_ms / 1000,
            ),
            (
                "review_think_limit_seconds",
                "The reviews' share of the robots' clock hour.",
                self.review_limit_ms / 1000,
            ),
            (
                "reviews_owed",
                "Reviews of finished games not made yet.",
                n(self.reviews_owed),
            ),
            (
                "games_going_on",
                "Games going on with a person to move.",
                n(self.games_going_on),
            ),
            (
                "games_due",
                "Games whose reminder or forfeit is due.",
                n(self.games_due),
            ),
            (
                "robot_turns_owed",
                "Robot turns owed.",
                n(self.robot_turns_owed),
            ),
            (
                "disk_free_bytes",
                "Free bytes on the file system of the home (0: unknown).",
                self.disk_free_bytes.unwrap_or(0),
            ),
            (
                "status_timestamp_seconds",
                "When these figures were taken.",
                self.now,
            ),
            ("up", "1: the figures could be taken.", 1),
        ];
        let totals: [(&str, &str, u64); 7] = [
            ("boards_total", "Boards started.", self.boards),
            ("mails_total", "Mails deliver handled (exit 0).", c.mails),
            (
                "mails_unanswered_total",
                "Of those, mails left unanswered on purpose (robots, lists, loops, duplicates).",
                c.unanswered,
            ),
            (
                "replies_spooled_total",
                "Replies put in the spool.",
                c.replies_spooled,
            ),
            (
                "replies_sent_total",
                "Replies sent (or written to the outbox).",
                c.replies_sent,
            ),
            (
                "replies_given_up_total",
                "Replies given up (moved to spool/failed/).",
                c.replies_given_up,
            ),
            (
                "bounces_total",
                "Delivery reports read at the bounce address.",
                c.bounces,
            ),
        ];
        let mut out = String::new();
        family(
            &mut out,
            "build_info",
            "gauge",
            "The server's version (always 1).",
        );
        let _ = writeln!(
            out,
            "yinsh_pbem_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        );
        for (name, help, v) in gauges {
            family(&mut out, name, "gauge", help);
            let _ = writeln!(out, "yinsh_pbem_{name} {v}");
        }
        for (name, help, v) in totals {
            family(&mut out, name, "counter", help);
            let _ = writeln!(out, "yinsh_pbem_{name} {v}");
        }
        let help = "Recipients the gate left out of replies, by reason.";
        family(&mut out, "replies_refused_total", "counter", help);
        for why in Held::ALL {
            let _ = writeln!(
                out,
                "yinsh_pbem_replies_refused_total{{reason=\"{}\"}} {}",
                why.label(),
                c.refused.get(why)
            );
        }
        let help = "Runs that exited 75 (internal failure), by run.";
        family(&mut out, "run_failures_total", "counter", help);
        for run in [Counted::Deliver, Counted::Flush, Counted::Tick] {
            let _ = writeln!(
                out,
                "yinsh_pbem_run_failures_total{{run=\"{}\"}} {}",
                run.name(),
                c.failed(run)
            );
        }
        out
    }
}

/// The `# HELP` and `# TYPE` lines of the metric `yinsh_pbem_{name}`.
fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = write!(
        out,
        "# HELP yinsh_pbem_{name} {help}\n# TYPE yinsh_pbem_{name} {kind}\n"
    );
}

/// `2026-11-26 14:00 UTC` (the mails' own dates, `text::dates`).
fn utc(t: u64) -> String {
    crate::server::text::dates::format_date(t)
}

/// `3 min`, `2 h`, `4 days`.
fn span(secs: u64) -> String {
    match secs {
        0..120 => format!("{secs} s"),
        120..7200 => format!("{} min", secs / 60),
        7200..172_800 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_795_384_020), "2026-11-22 21:47 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
    }
}
