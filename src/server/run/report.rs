//! What a run of `deliver`, `flush` or `tick` did: lines for the log and `--verbose`,
//! and the counts of replies.

use crate::server::model::BoardId;

/// What `deliver`, `flush` or `tick` did, for the log and `--verbose`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Lines describing what happened.
    pub lines: Vec<String>,
    /// Replies spooled.
    pub spooled: usize,
    /// Replies sent by the flush (or written to the outbox).
    pub sent: usize,
    /// Replies left in the spool because sending failed.
    pub failed: usize,
    /// Replies given up (moved to `<home>/spool/failed/`).
    pub dead: usize,
    /// The Message-IDs of the replies this run spooled: sent once the store's lock
    /// is released.
    pub spooled_ids: Vec<String>,
    /// The boards whose robot turns owed this run recorded and claimed: played
    /// once the lock is released (`run::opponent`).
    pub robot_turns: Vec<BoardId>,
    /// The boards whose game files this run changed (for the web site).
    pub boards_changed: Vec<BoardId>,
}
