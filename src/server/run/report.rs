//! What a run of `deliver`, `flush` or `tick` did: lines for the log and `--verbose`,
//! and the counts of replies; nothing a run still has to do (that is
//! `txn::Committed`).

/// What `deliver`, `flush` or `tick` did, for the log and `--verbose`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Lines describing what happened.
    pub lines: Vec<String>,
    /// What the run looked at, for `--verbose` only (not logged): `tick`'s games
    /// due, robot turns owed and the next time a game is due.
    pub checked: Vec<String>,
    /// Replies spooled.
    pub spooled: usize,
    /// Replies sent by the flush (or written to the outbox).
    pub sent: usize,
    /// Replies left in the spool because sending failed.
    pub failed: usize,
    /// Replies given up (moved to `<home>/spool/failed/`).
    pub dead: usize,
    /// Mails to a bounce address read (delivery reports).
    pub bounces: usize,
    /// Mails left unanswered on purpose: not a mail, or one never answered (robots,
    /// lists, loops, our own), or a mail already handled.
    pub unanswered: usize,
}
