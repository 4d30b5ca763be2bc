//! The record of mails already handled, by Message-ID (`<home>/seen/<hash>`), so that
//! a mail the mail system delivers twice is handled once; and the per-sender counts of
//! the storm limit (`<home>/rate/<hash>.json`). Both are written through the store, so
//! inside a transaction they become durable with the mail's other effects.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::journal::fnv1a64;
use super::{Store, StoreError};

/// A stable file name for a key from outside (a Message-ID, an address): FNV-1a 64,
/// hex. Not for secrets.
pub fn key_name(key: &str) -> String {
    format!(
        "{:016x}",
        fnv1a64(key.trim().to_ascii_lowercase().as_bytes())
    )
}

/// Per-sender limit: at most `max` mails per `period` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Mails allowed per period.
    pub max: u32,
    /// The period, seconds.
    pub period: u64,
}

#[derive(Serialize, Deserialize, Default)]
struct Window {
    start: u64,
    count: u32,
    notified: bool,
}

/// What the limit says about one more mail from a sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateVerdict {
    /// Under the limit: handle it.
    Allow,
    /// Just over the limit: drop it, and send the one short notice of this period.
    DropAndNotify,
    /// Over the limit, notice already sent: drop silently.
    Drop,
}

impl Store {
    /// `<home>/seen/<hash of the Message-ID>`.
    fn seen_path(&self, message_id: &str) -> PathBuf {
        self.home().join("seen").join(key_name(message_id))
    }

    /// Was a mail with this Message-ID handled already?
    pub fn seen(&self, message_id: &str) -> bool {
        std::fs::read_to_string(self.seen_path(message_id))
            .is_ok_and(|t| t.trim() == message_id.trim())
    }

    /// Record that the mail with this Message-ID was handled.
    pub fn mark_seen(&self, message_id: &str) -> Result<(), StoreError> {
        self.write_file(
            &self.seen_path(message_id),
            format!("{}\n", message_id.trim()).as_bytes(),
        )
    }

    /// Count one mail from `sender` at `now` against `limit` (`<home>/rate/<hash>.json`)
    /// and judge it. Inside a transaction the count is part of the mail's journal, so a
    /// crashed attempt is not counted.
    pub fn count_mail(
        &self,
        limit: &RateLimit,
        sender: &str,
        now: u64,
    ) -> Result<RateVerdict, StoreError> {
        let path = self
            .home()
            .join("rate")
            .join(format!("{}.json", key_name(sender)));
        let mut w: Window = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        if now >= w.start.saturating_add(limit.period) || now < w.start {
            w = Window {
                start: now,
                count: 0,
                notified: false,
            };
        }
        w.count = w.count.saturating_add(1);
        let verdict = if w.count <= limit.max {
            RateVerdict::Allow
        } else if !w.notified {
            w.notified = true;
            RateVerdict::DropAndNotify
        } else {
            RateVerdict::Drop
        };
        let bytes = serde_json::to_vec(&w)
            .map_err(|e| StoreError::io("encode", &path, std::io::Error::other(e)))?;
        self.write_file(&path, &bytes)?;
        Ok(verdict)
    }
}
