//! The journal that makes one mail's effect atomic: every file change of its command,
//! every reply (built, with its Message-ID fixed) and the mark that the mail was seen,
//! written as ONE file, `<home>/journal/pending`, and made durable before any of it is
//! applied. That is the commit: the only write of a mail that is fsynced on its own.
//!
//! The file is a header line `yinsh-pbem-journal <length> <FNV-1a 64 of the body>`
//! and a JSON body. It is written in place (the file is kept, emptied after use, so a
//! mail creates no journal file of its own), so a crash during the write leaves a
//! body that does not match its header: such a torn journal was never committed (no
//! effect of it had been applied, and the mail had not been acknowledged, so the mail
//! system delivers it again) and is discarded.
//!
//! Applying writes every file and reply without an fsync each (atomic for readers:
//! temp file, then rename or hard link), then makes them durable together
//! ([`Pending::sync`]), and only then empties the journal. A crash while applying
//! leaves a whole journal that the next `deliver` or `flush` completes ([`Store::recover`])
//! before doing anything else, under the lock. Applying is idempotent (same files
//! written again; the spool and the outbox keep one file per Message-ID), so completing
//! a journal twice does no harm.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::durable::{self, Pending, fault};
use crate::mail::transport::write_to_outbox;
use crate::mail::{BuiltMail, Spool, Transport};

use super::fs::{create_dir, json_bytes, remove_deferred, write_deferred};
use super::tx::Change;
use super::{Store, StoreError};

/// The first word of a journal's header line.
const MAGIC: &str = "yinsh-pbem-journal";

/// Where a journal's replies go: straight into the outbox folder, or the spool (for
/// the transports that send, and may fail).
enum Sink<'a> {
    Outbox(&'a Path),
    Spool(Spool),
}

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

/// FNV-1a, 64 bits: a checksum that tells a whole journal from a torn one (and the
/// name of the seen marks of earlier versions). Not a key for text from outside: it
/// can be collided on purpose (`seen.rs` uses SHA-256).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A journal file's bytes: the header line, then `body`.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("{MAGIC} {} {:016x}\n", body.len(), fnv1a64(body)).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// The body of a journal file, if its header is ours and matches the body.
fn body_of(bytes: &[u8]) -> Option<&[u8]> {
    let newline = bytes.iter().position(|&b| b == b'\n')?;
    let header = std::str::from_utf8(&bytes[..newline]).ok()?;
    let mut words = header.split(' ');
    let (magic, len, sum) = (words.next()?, words.next()?, words.next()?);
    let body = &bytes[newline + 1..];
    let whole = magic == MAGIC
        && words.next().is_none()
        && len.parse::<usize>().ok()? == body.len()
        && u64::from_str_radix(sum, 16).ok()? == fnv1a64(body);
    whole.then_some(body)
}

/// One mail's effect, as written to the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journal {
    /// The format version (2).
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
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

fn unhex(s: &str, path: &Path) -> Result<Vec<u8>, StoreError> {
    let bad = || {
        StoreError::io(
            "decode",
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not hex"),
        )
    };
    let digit = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
    s.as_bytes()
        .chunks(2)
        .map(|pair| match pair {
            [hi, lo] => Some((digit(*hi)? << 4) | digit(*lo)?),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)
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
            v: 2,
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

    /// The journal file, `<home>/journal/pending` (empty when nothing is pending).
    pub fn journal_path(&self) -> PathBuf {
        self.journal_dir().join("pending")
    }

    /// Commits the journal (written and made durable), then applies it: its files
    /// written, its replies written to the outbox (with `Transport::Outbox`) or put
    /// in the spool, all made durable at once, and the journal emptied. Returns the
    /// number of replies spooled and the number written to the outbox. Hold the lock.
    pub fn commit(
        &self,
        journal: &Journal,
        transport: &Transport,
    ) -> Result<(usize, usize), StoreError> {
        self.write_journal(journal)?;
        fault::point("after-journal");
        self.apply_journal(journal, transport)
    }

    /// Writes the journal in place and makes it durable.
    fn write_journal(&self, journal: &Journal) -> Result<(), StoreError> {
        let dir = self.journal_dir();
        create_dir(&dir, 0o700)?;
        let path = self.journal_path();
        let bytes = framed(&json_bytes(&path, "journal", journal)?);
        let io_err = |e| StoreError::io("write the journal", &path, e);
        let (mut file, created) = match OpenOptions::new().write(true).create_new(true).open(&path)
        {
            Ok(f) => (f, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => (
                OpenOptions::new().write(true).open(&path).map_err(io_err)?,
                false,
            ),
            Err(e) => return Err(io_err(e)),
        };
        // The injected disk-full error cuts the write short halfway, as a real one does.
        let written = match fault::write_error() {
            Ok(()) => file.write_all(&bytes),
            Err(e) => file.write_all(&bytes[..bytes.len() / 2]).and(Err(e)),
        };
        if let Err(e) = written
            .and_then(|()| file.set_len(bytes.len() as u64))
            .and_then(|()| file.sync_data())
        {
            // A journal that filled the disk must not keep it full until the next
            // mail: empty it now (what is left was never committed).
            let _ = file.set_len(0);
            return Err(io_err(e));
        }
        if created {
            durable::sync_dir(&dir).map_err(|e| StoreError::io("sync the folder", &dir, e))?;
        }
        Ok(())
    }

    /// Empties the journal file. Not fsynced: should a crash undo it, the journal is
    /// applied once more, which changes nothing but may send its replies again.
    fn clear_journal(&self) -> Result<(), StoreError> {
        let path = self.journal_path();
        match OpenOptions::new().write(true).open(&path) {
            Ok(f) => f
                .set_len(0)
                .map_err(|e| StoreError::io("empty the journal", &path, e)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StoreError::io("empty the journal", &path, e)),
        }
    }

    /// Applies a committed journal, makes it durable, then empties the journal file.
    fn apply_journal(
        &self,
        journal: &Journal,
        transport: &Transport,
    ) -> Result<(usize, usize), StoreError> {
        let path = self.journal_path();
        let mut pending = Pending::default();
        for f in &journal.files {
            let rel = Path::new(&f.path);
            let safe = rel
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !safe {
                return Err(StoreError::StrayFile {
                    path: path.clone(),
                    expected: "a journal whose paths stay inside the home",
                });
            }
            let target = self.home().join(rel);
            match &f.content {
                Some(hex) => {
                    if let Some(dir) = target.parent() {
                        create_dir(dir, 0o755)?;
                    }
                    write_deferred(&target, &unhex(hex, &path)?, &mut pending)?;
                }
                None => remove_deferred(&target, &mut pending)?,
            }
            fault::point("apply-file");
        }
        fault::point("after-apply");
        let mail_err = |what: &'static str, e: crate::mail::SpoolError| {
            StoreError::io(what, &path, io::Error::other(e.to_string()))
        };
        let sink = match transport {
            Transport::Outbox(dir) => {
                create_dir(dir, 0o755)?;
                Sink::Outbox(dir)
            }
            _ => Sink::Spool(
                Spool::open(&self.spool_dir()).map_err(|e| mail_err("open the spool for", e))?,
            ),
        };
        for r in &journal.replies {
            let mail = BuiltMail {
                id: r.id.clone(),
                envelope_from: r.from.clone(),
                recipients: r.to.clone(),
                bytes: unhex(&r.bytes, &path)?,
            };
            match &sink {
                Sink::Spool(spool) => spool
                    .put_deferred(&mail, &mut pending)
                    .map(|_| ())
                    .map_err(|e| mail_err("spool a reply of", e))?,
                Sink::Outbox(dir) => write_to_outbox(dir, &mail, &mut pending)
                    .map_err(|e| mail_err("write to the outbox a reply of", e))?,
            }
            fault::point("after-spool");
        }
        pending
            .sync()
            .map_err(|e| StoreError::io("make durable the effect of", &path, e))?;
        fault::point("before-journal-delete");
        self.clear_journal()?;
        fault::point("after-journal-delete");
        let n = journal.replies.len();
        Ok(match sink {
            Sink::Spool(_) => (n, 0),
            Sink::Outbox(_) => (0, n),
        })
    }

    /// Completes the journal a crash left behind, or discards it when its write was
    /// cut short. Hold the lock.
    pub fn recover(&self, transport: &Transport) -> Result<Recovered, StoreError> {
        let path = self.journal_path();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Recovered::Nothing),
            Err(e) => return Err(StoreError::io("read", &path, e)),
        };
        if bytes.is_empty() {
            return Ok(Recovered::Nothing);
        }
        let Some(body) = body_of(&bytes) else {
            self.clear_journal()?;
            return Ok(Recovered::Discarded);
        };
        let journal: Journal =
            serde_json::from_slice(body).map_err(|source| StoreError::Corrupt {
                what: "journal",
                path: path.clone(),
                source,
            })?;
        self.apply_journal(&journal, transport)?;
        // A kill while the journal was applied may have left an outbox file's temp
        // copy (the outbox is written under the lock only, so any there is a dead
        // run's): the mail itself was just written whole.
        if let Transport::Outbox(dir) = transport {
            durable::remove_leftover_temps(dir)
                .map_err(|e| StoreError::io("clean the temp files of", dir, e))?;
        }
        Ok(Recovered::Completed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_journal_has_a_body() {
        let body = br#"{"v":2,"key":"k","files":[],"replies":[]}"#;
        let whole = framed(body);
        assert_eq!(body_of(&whole), Some(&body[..]));
        // Cut short anywhere, one byte changed, or a header not ours: no body.
        for cut in 0..whole.len() {
            assert_eq!(body_of(&whole[..cut]), None, "cut at {cut}");
        }
        let mut flipped = whole.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert_eq!(body_of(&flipped), None);
        let mut longer = whole.clone();
        longer.push(b' ');
        assert_eq!(body_of(&longer), None);
        let other = [b"journal ".as_slice(), &whole[MAGIC.len() + 1..]].concat();
        assert_eq!(body_of(&other), None);
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        let all: Vec<u8> = (0..=255).collect();
        let text = hex(&all);
        assert_eq!(&text[..6], "000102");
        assert_eq!(&text[text.len() - 2..], "ff");
        let path = Path::new("journal");
        assert_eq!(unhex(&text, path).expect("hex"), all);
        assert_eq!(unhex("0A", path).expect("upper case"), vec![10]);
        for bad in ["0", "zz", "0g", "+1", "\u{e9}0"] {
            assert!(unhex(bad, path).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_journal_whose_path_leaves_the_home_is_refused_and_writes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let body =
            br#"{"v":2,"key":"k","files":[{"path":"../evil","content":"6869"}],"replies":[]}"#;
        std::fs::create_dir_all(store.journal_dir()).expect("mkdir");
        std::fs::write(store.journal_path(), framed(body)).expect("write");
        let outbox = Transport::Outbox(store.home().join("outbox"));
        let err = store.recover(&outbox).expect_err("refused");
        assert!(matches!(err, StoreError::StrayFile { .. }), "{err}");
        assert!(!dir.path().join("evil").exists());
        // It stays for the operator: every later run refuses it the same way.
        assert!(store.recover(&outbox).is_err());
    }

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
