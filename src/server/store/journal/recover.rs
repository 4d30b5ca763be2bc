//! Recovering after a crash: the journal a killed run left in `<home>/journal/pending`
//! is completed when whole (it was committed: applying it again is idempotent, the
//! same files written, the spool and the outbox keeping one file per Message-ID), or
//! discarded when torn (its write was cut short: nothing of it was applied, and its
//! mail was not acknowledged, so the mail system delivers it again). The next
//! `deliver`, `flush` or `tick` does this first, under the lock.

use std::io;
use std::path::{Path, PathBuf};

use crate::durable;
use crate::mail::{BuiltMail, Transport};

use super::super::{Store, StoreError};
use super::format::{FileOut, Journal, StoredJournal, body_of, stored_bytes};

/// What [`Store::recover`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovered {
    /// No journal was pending.
    Nothing,
    /// A committed journal that a crash left half applied was completed.
    Completed,
    /// A journal whose write a crash cut short was discarded (it was never committed).
    Discarded,
}

impl Store {
    /// Completes the journal a crash left behind, or discards it when its write was
    /// cut short. Hold the lock.
    pub fn recover(&self, transport: &Transport) -> Result<Recovered, StoreError> {
        if !self.journal_waits()? {
            return Ok(Recovered::Nothing);
        }
        let path = self.journal_path();
        let bytes = std::fs::read(&path).map_err(|e| StoreError::io("read", &path, e))?;
        let Some(body) = body_of(&bytes) else {
            self.clear_journal()?;
            self.remove_leftover_temps(&[])?;
            return Ok(Recovered::Discarded);
        };
        let stored: StoredJournal =
            serde_json::from_slice(body).map_err(|source| StoreError::Corrupt {
                what: "journal",
                path: path.clone(),
                source,
            })?;
        drop(bytes);
        let mut paths = Vec::with_capacity(stored.files.len());
        let mut contents = Vec::with_capacity(stored.files.len());
        for f in stored.files {
            contents.push(stored_bytes(f.content, f.text, &path)?);
            paths.push(f.path);
        }
        let mut replies = Vec::with_capacity(stored.replies.len());
        for r in stored.replies {
            let no_bytes = || {
                StoreError::io(
                    "decode",
                    &path,
                    io::Error::new(io::ErrorKind::InvalidData, "a reply without its bytes"),
                )
            };
            replies.push(BuiltMail {
                bytes: stored_bytes(r.bytes, r.text, &path)?.ok_or_else(no_bytes)?,
                id: r.id,
                envelope_from: r.from,
                recipients: r.to,
            });
        }
        let journal = Journal {
            key: &stored.key,
            files: paths
                .iter()
                .zip(&contents)
                .map(|(p, c)| FileOut {
                    path: p.clone(),
                    content: c.as_deref(),
                })
                .collect(),
            replies: &replies,
        };
        self.apply_journal(&journal, transport)?;
        // A kill while the journal was applied may have left temp copies of its files
        // and of its outbox mails (the outbox is written under the lock only, so any
        // there is a dead run's): each was just written whole.
        let named: Vec<PathBuf> = paths
            .iter()
            .filter_map(|p| Path::new(p).parent().map(Path::to_path_buf))
            .collect();
        self.remove_leftover_temps(&named)?;
        if let Transport::Outbox(dir) = transport {
            durable::remove_leftover_temps(dir)
                .map_err(|e| StoreError::io("clean the temp files of", dir, e))?;
        }
        Ok(Recovered::Completed)
    }
}
