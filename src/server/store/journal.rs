//! The journal that makes one mail's effect atomic: every file change of its command,
//! every reply (built, with its Message-ID fixed) and the mark that the mail was seen,
//! written as ONE file `<home>/journal/<key>.json` (atomically) before any of it is
//! applied, and removed after. A crash before the journal exists leaves nothing done
//! (the mail system delivers the mail again); a crash after leaves a journal that the
//! next `deliver` or `flush` completes ([`recover`]) before doing anything else, under
//! the lock. Applying is idempotent (same files written again; the spool keeps one
//! entry per Message-ID), so completing a journal twice does no harm.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::mail::{BuiltMail, Spool};

use super::fault;
use super::fs::{create_dir, list_json, read_json, remove, write_json};
use super::tx::{Change, apply_changes};
use super::{Store, StoreError};

/// One mail's effect, as written to the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journal {
    /// The format version (1).
    pub v: u32,
    /// The mail's key (its Message-ID, or a hash of its bytes).
    pub key: String,
    /// Files to write (`content` as text) or remove (`content` null), relative to the home.
    pub files: Vec<JournalFile>,
    /// Replies to spool.
    pub replies: Vec<JournalReply>,
}

/// A file change in a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalFile {
    /// The path relative to the home, e.g. `boards/101.json`.
    pub path: String,
    /// The new content as hex bytes; `None` removes the file.
    pub content: Option<String>,
}

/// A built reply in a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalReply {
    /// Its Message-ID, without `<>`.
    pub id: String,
    /// The envelope sender.
    pub from: String,
    /// The envelope recipients.
    pub to: Vec<String>,
    /// The message bytes as hex.
    pub bytes: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str, path: &Path) -> Result<Vec<u8>, StoreError> {
    let bad = || {
        StoreError::io(
            "decode",
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not hex"),
        )
    };
    if !s.len().is_multiple_of(2) {
        return Err(bad());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(bad)
        })
        .collect()
}

impl Journal {
    /// A journal for the mail `key` from a transaction's changes and the built replies.
    pub fn new(store: &Store, key: &str, changes: &[Change], replies: &[BuiltMail]) -> Journal {
        let files = changes
            .iter()
            .map(|c| JournalFile {
                path: c
                    .path
                    .strip_prefix(store.home())
                    .unwrap_or(&c.path)
                    .to_string_lossy()
                    .into_owned(),
                content: c.content.as_deref().map(hex),
            })
            .collect();
        let replies = replies
            .iter()
            .map(|m| JournalReply {
                id: m.id.clone(),
                from: m.envelope_from.clone(),
                to: m.recipients.clone(),
                bytes: hex(&m.bytes),
            })
            .collect();
        Journal {
            v: 1,
            key: key.to_string(),
            files,
            replies,
        }
    }
}

impl Store {
    /// `<home>/journal`.
    pub fn journal_dir(&self) -> PathBuf {
        self.home().join("journal")
    }

    /// The journal file of the mail `key`.
    pub fn journal_path(&self, key: &str) -> PathBuf {
        self.journal_dir()
            .join(format!("{}.json", crate::server::robot::key_name(key)))
    }

    /// Writes the journal (atomically), applies it, and removes it. Hold the lock.
    pub fn commit(&self, journal: &Journal) -> Result<(), StoreError> {
        create_dir(&self.journal_dir(), 0o700)?;
        let path = self.journal_path(&journal.key);
        write_json(&path, "journal", journal)?;
        fault::point("after-journal");
        self.apply_journal(journal, &path)
    }

    /// Applies a journal written at `path`, then removes it.
    fn apply_journal(&self, journal: &Journal, path: &Path) -> Result<(), StoreError> {
        let mut changes = Vec::with_capacity(journal.files.len());
        for f in &journal.files {
            let rel = Path::new(&f.path);
            let safe = rel
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !safe {
                return Err(StoreError::StrayFile {
                    path: path.to_path_buf(),
                    expected: "a journal whose paths stay inside the home",
                });
            }
            changes.push(Change {
                path: self.home().join(rel),
                content: f.content.as_deref().map(|h| unhex(h, path)).transpose()?,
            });
        }
        apply_changes(&changes)?;
        fault::point("after-apply");
        let spool = Spool::open(&self.spool_dir()).map_err(|e| {
            StoreError::io(
                "open the spool",
                &self.spool_dir(),
                std::io::Error::other(e.to_string()),
            )
        })?;
        for r in &journal.replies {
            let mail = BuiltMail {
                id: r.id.clone(),
                envelope_from: r.from.clone(),
                recipients: r.to.clone(),
                bytes: unhex(&r.bytes, path)?,
            };
            spool.put(&mail).map_err(|e| {
                StoreError::io(
                    "spool a reply of",
                    path,
                    std::io::Error::other(e.to_string()),
                )
            })?;
            fault::point("after-spool");
        }
        fault::point("before-journal-delete");
        remove(path)?;
        fault::point("after-journal-delete");
        Ok(())
    }

    /// Completes every journal a crash left behind; returns how many. Hold the lock.
    pub fn recover(&self) -> Result<usize, StoreError> {
        let dir = self.journal_dir();
        if !dir.exists() {
            return Ok(0);
        }
        // Writers hold the lock, so a temp file here is a crashed write: remove it.
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().starts_with('.') {
                    remove(&e.path())?;
                }
            }
        }
        let mut files = list_json(&dir)?;
        files.sort();
        for (_, path) in &files {
            if let Some(journal) = read_json::<Journal>(path, "journal")? {
                self.apply_journal(&journal, path)?;
            }
        }
        Ok(files.len())
    }
}
