//! Being a well-behaved mail robot (RFC 3834 and common sense): which mails are never
//! answered (bounces, other robots, mailing lists, our own mail coming back), the same
//! mail delivered twice, and a per-sender limit against mail storms.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::mail::InboundMail;

use super::store::{Store, StoreError};

/// Why a mail is dropped without an answer, if it is.
///
/// `envelope_sender` is what the mail system passed (`--sender`), else the
/// Return-Path header; `loop_id` is our own `X-Loop` value.
pub fn drop_reason(
    mail: &InboundMail,
    envelope_sender: Option<&str>,
    loop_id: &str,
) -> Option<String> {
    let sender = envelope_sender
        .map(str::to_string)
        .or_else(|| mail.return_path.clone());
    if let Some(s) = &sender {
        let s = s.trim().trim_start_matches('<').trim_end_matches('>');
        if s.is_empty() {
            return Some("empty return path (a bounce)".into());
        }
        let local = s.split('@').next().unwrap_or("").to_ascii_lowercase();
        if local == "mailer-daemon" || local == "postmaster" && s.contains("mailer") {
            return Some(format!("return path {s} is a mailer daemon"));
        }
    }
    if let Some(a) = &mail.auto_submitted {
        let v = a.trim().to_ascii_lowercase();
        if !v.is_empty() && v != "no" && !v.starts_with("no;") && !v.starts_with("no ") {
            return Some(format!("Auto-Submitted: {}", a.trim()));
        }
    }
    if let Some(p) = &mail.precedence {
        let v = p.trim().to_ascii_lowercase();
        if matches!(v.as_str(), "bulk" | "list" | "junk") {
            return Some(format!("Precedence: {v}"));
        }
    }
    if mail
        .list_id
        .as_deref()
        .is_some_and(|l| !l.trim().is_empty())
    {
        return Some("List-Id present (mailing list traffic)".into());
    }
    if mail
        .x_loop
        .iter()
        .any(|x| x.trim().eq_ignore_ascii_case(loop_id))
    {
        return Some(format!("X-Loop: {loop_id} (our own mail came back)"));
    }
    if mail
        .from
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case(loop_id))
    {
        return Some("From is our own address".into());
    }
    None
}

/// A stable file name for a key from outside (a Message-ID, an address): FNV-1a 64,
/// hex. Not for secrets.
pub fn key_name(key: &str) -> String {
    format!(
        "{:016x}",
        super::store::fnv1a64(key.trim().to_ascii_lowercase().as_bytes())
    )
}

/// The record of mails already handled, by Message-ID: `<home>/seen/<hash>`.
pub struct Seen {
    dir: PathBuf,
}

impl Seen {
    /// The record in `<home>/seen/`.
    pub fn in_home(home: &Path) -> Seen {
        Seen {
            dir: home.join("seen"),
        }
    }

    fn path(&self, message_id: &str) -> PathBuf {
        self.dir.join(key_name(message_id))
    }

    /// Was a mail with this Message-ID handled already?
    pub fn contains(&self, message_id: &str) -> bool {
        std::fs::read_to_string(self.path(message_id)).is_ok_and(|t| t.trim() == message_id.trim())
    }

    /// Record that it was handled, through `store` (so inside a transaction the mark
    /// becomes durable together with the mail's other effects).
    pub fn insert(&self, store: &Store, message_id: &str) -> Result<(), StoreError> {
        store.write_file(
            &self.path(message_id),
            format!("{}\n", message_id.trim()).as_bytes(),
        )
    }
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

impl RateLimit {
    /// Count one mail from `sender` at `now` (`<home>/rate/<hash>.json`) and judge it.
    /// The count is written through `store` (inside a transaction it is part of the
    /// mail's journal, so a crashed attempt is not counted).
    pub fn check(&self, store: &Store, sender: &str, now: u64) -> Result<RateVerdict, StoreError> {
        let dir = store.home().join("rate");
        let path = dir.join(format!("{}.json", key_name(sender)));
        let mut w: Window = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        if now >= w.start.saturating_add(self.period) || now < w.start {
            w = Window {
                start: now,
                count: 0,
                notified: false,
            };
        }
        w.count = w.count.saturating_add(1);
        let verdict = if w.count <= self.max {
            RateVerdict::Allow
        } else if !w.notified {
            w.notified = true;
            RateVerdict::DropAndNotify
        } else {
            RateVerdict::Drop
        };
        let bytes = serde_json::to_vec(&w)
            .map_err(|e| StoreError::io("encode", &path, std::io::Error::other(e)))?;
        store.write_file(&path, &bytes)?;
        Ok(verdict)
    }
}
