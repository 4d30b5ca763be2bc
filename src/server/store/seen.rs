//! The record of mails already handled, by Message-ID, so that a mail the mail system
//! delivers twice is handled once (`<home>/seen/<day>/<key>`); the per-sender counts
//! of the storm limit (`<home>/rate/<key>.json`); and their expiry (with the
//! failed-login records of `<home>/logins/` whose hour is over). Marks and counts
//! are written through the store, so inside a transaction they become durable with
//! the mail's other effects.
//!
//! A key names a file by the SHA-256 of its text (hex), and the file holds the text
//! itself, compared on every lookup: no text can be made to take another's file. A
//! Message-ID is compared exactly as written (no case folding: a duplicate delivery
//! carries the same bytes, and folding would let a case variant stand for another
//! mail); a sender's address is lower-cased (a case variant is the same sender, so
//! the limit cannot be dodged by writing it differently).
//!
//! Marks live [`SEEN_DAYS`] days in one folder per day (UTC) and are removed a whole
//! folder at a time; count files are removed when their period is over. Both are done
//! by [`Store::expire`] at most once a day (the day of the last run is kept in
//! `<home>/seen/.expired-on`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::mail::Address;

use super::journal::fnv1a64;
use super::{Store, StoreError};

/// How many days a seen mark is kept: far longer than any mail system retries a
/// delivery (typically 5 days), so a mail delivered again is still recognised.
pub const SEEN_DAYS: u64 = 30;

const DAY: u64 = 86_400;

/// A file name for a key from outside (a Message-ID, an address, a mail's bytes):
/// SHA-256 of its exact bytes, 64 hex digits. Two texts get two names unless SHA-256 is broken.
///
/// ```
/// use yinsh_pbem::server::store::key_name;
/// assert_eq!(key_name("abc").len(), 64);
/// assert_ne!(key_name("A@x.org"), key_name("a@x.org"));
/// ```
pub fn key_name(key: impl AsRef<[u8]>) -> String {
    hex::encode(Sha256::digest(key.as_ref()))
}

/// The UTC date of the unix time `secs`, `YYYY-MM-DD` (civil from days, proleptic
/// Gregorian; H. Hinnant's algorithm): the name of a day's folder of seen marks, and
/// the date the mails write (`text::dates`).
///
/// ```
/// assert_eq!(yinsh_pbem::server::store::day_name(1_795_384_020), "2026-11-22");
/// ```
pub fn day_name(secs: u64) -> String {
    let days = (secs / DAY) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
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
    /// The sender (normalised) the window counts for; compared on reading.
    #[serde(default)]
    sender: String,
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
    DropAndNotify {
        /// When the period ends (unix seconds): mail is handled again from then.
        until: u64,
    },
    /// Over the limit, notice already sent: drop silently.
    Drop,
}

/// The one form of a sender's address the limit counts by: the mailbox it reaches
/// ([`Address::canonical`]: lower case, no `+tag`), so that no spelling of one
/// mailbox has a limit of its own.
fn sender_key(sender: &Address) -> String {
    sender.canonical()
}

impl Store {
    /// `<home>/seen`.
    fn seen_dir(&self) -> PathBuf {
        self.home().join("seen")
    }

    /// Was a mail with this Message-ID (compared exactly) handled already? Looks in
    /// each day's folder, and at the one-file-per-mail names of earlier versions.
    pub fn seen(&self, message_id: &str) -> bool {
        let name = key_name(message_id);
        let holds = |path: &Path| {
            std::fs::read_to_string(path).is_ok_and(|t| t.strip_suffix('\n') == Some(message_id))
        };
        let legacy = format!(
            "{:016x}",
            fnv1a64(message_id.trim().to_ascii_lowercase().as_bytes())
        );
        if holds(&self.seen_dir().join(legacy)) {
            return true;
        }
        std::fs::read_dir(self.seen_dir())
            .into_iter()
            .flatten()
            .flatten()
            .any(|day| holds(&day.path().join(&name)))
    }

    /// Record that the mail with this Message-ID was handled, at `now`
    /// (`<home>/seen/<UTC day of now>/<key_name>`).
    pub fn mark_seen(&self, message_id: &str, now: u64) -> Result<(), StoreError> {
        let path = self
            .seen_dir()
            .join(day_name(now))
            .join(key_name(message_id));
        self.write_file(&path, format!("{message_id}\n").as_bytes())
    }

    /// The window of `sender`'s mails at `now` (a new one when the stored one is
    /// over or unreadable), and where it is kept.
    fn window(&self, limit: &RateLimit, sender: &Address, now: u64) -> (Window, PathBuf) {
        let sender = sender_key(sender);
        let path = self
            .home()
            .join("rate")
            .join(format!("{}.json", key_name(&sender)));
        let w: Window = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .filter(|w: &Window| w.sender == sender)
            .filter(|w: &Window| now < w.start.saturating_add(limit.period) && now >= w.start)
            .unwrap_or(Window {
                sender,
                start: now,
                count: 0,
                notified: false,
            });
        (w, path)
    }

    /// Whether one more mail from `sender` at `now` would be over `limit` (nothing is
    /// counted: see [`Store::count_mail`]).
    pub fn over_limit(&self, limit: &RateLimit, sender: &Address, now: u64) -> bool {
        self.window(limit, sender, now).0.count >= limit.max
    }

    /// Count one mail from `sender` at `now` against `limit` (`<home>/rate/<key>.json`,
    /// keyed by the mailbox, [`Address::canonical`]) and judge it. Inside a
    /// transaction the count is part of the mail's journal, so a crashed attempt is
    /// not counted.
    pub fn count_mail(
        &self,
        limit: &RateLimit,
        sender: &Address,
        now: u64,
    ) -> Result<RateVerdict, StoreError> {
        let (mut w, path) = self.window(limit, sender, now);
        w.count = w.count.saturating_add(1);
        let verdict = if w.count <= limit.max {
            RateVerdict::Allow
        } else if !w.notified {
            w.notified = true;
            RateVerdict::DropAndNotify {
                until: w.start.saturating_add(limit.period),
            }
        } else {
            RateVerdict::Drop
        };
        let bytes = serde_json::to_vec(&w)
            .map_err(|e| StoreError::io("encode", &path, std::io::Error::other(e)))?;
        self.write_file(&path, &bytes)?;
        Ok(verdict)
    }

    /// Remove, at most once per UTC day, the seen marks older than [`SEEN_DAYS`] days
    /// (whole day folders, and the single files of earlier versions by their age) and
    /// the count files whose `period` is over (or that do not read as one), the
    /// daily counts of earlier days (`daily.rs`), the challenges' held messages that
    /// expired (`held.rs`) and the temp files killed runs left
    /// (`leftovers.rs`). Returns how many folders and files were removed (0 when already done today).
    /// Hold the lock; outside a transaction (removing old records changes no verdict,
    /// and a run cut short is finished by the next).
    pub fn expire(&self, now: u64, period: u64) -> Result<usize, StoreError> {
        let dir = self.seen_dir();
        let stamp = dir.join(".expired-on");
        let today = day_name(now);
        if std::fs::read_to_string(&stamp).is_ok_and(|t| t.trim() == today) {
            return Ok(0);
        }
        let oldest = day_name(now.saturating_sub(SEEN_DAYS * DAY));
        let mut removed = 0;
        let age = |meta: &std::fs::Metadata| {
            meta.modified()
                .ok()
                .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |m| now.saturating_sub(m.as_secs()))
        };
        for e in read_dir(&dir)? {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            let Ok(meta) = e.metadata() else { continue };
            let gone = if meta.is_dir() {
                // Day names sort as dates.
                name.len() == 10 && name < oldest && remove_folder(&path)?
            } else {
                !name.starts_with('.') && age(&meta) > SEEN_DAYS * DAY && remove_file(&path)?
            };
            removed += usize::from(gone);
        }
        for e in read_dir(&self.home().join("rate"))? {
            let over = std::fs::read(e.path())
                .ok()
                .and_then(|b| serde_json::from_slice::<Window>(&b).ok())
                .is_none_or(|w| now >= w.start.saturating_add(period) || now < w.start);
            if over && remove_file(&e.path())? {
                removed += 1;
            }
        }
        // Failed-login and wrong-code records whose hour is over (or that do not read)
        // count nothing.
        let logins = read_dir(&self.home().join("logins"))?;
        for e in logins
            .into_iter()
            .chain(read_dir(&self.home().join("codes"))?)
        {
            let over = std::fs::read(e.path())
                .ok()
                .and_then(|b| serde_json::from_slice::<super::Failures>(&b).ok())
                .is_none_or(|f| now >= f.start.saturating_add(super::WINDOW) || now < f.start);
            if over && remove_file(&e.path())? {
                removed += 1;
            }
        }
        removed += self.expire_daily(now)?;
        removed += self.expire_held(now)?;
        removed += self.remove_leftover_temps(&[])?;
        super::fs::create_dir(&dir, 0o755)?;
        super::write_atomic(&stamp, format!("{today}\n").as_bytes())?;
        Ok(removed)
    }
}

/// The entries of `dir` (none when it does not exist).
pub(super) fn read_dir(dir: &Path) -> Result<Vec<std::fs::DirEntry>, StoreError> {
    match std::fs::read_dir(dir) {
        Ok(d) => Ok(d.flatten().collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(StoreError::io("list", dir, e)),
    }
}

/// Removes a file; `false` when it was already gone.
pub(super) fn remove_file(path: &Path) -> Result<bool, StoreError> {
    was_removed(std::fs::remove_file(path), path)
}

/// Removes a whole folder; `false` when it was already gone.
fn remove_folder(path: &Path) -> Result<bool, StoreError> {
    was_removed(std::fs::remove_dir_all(path), path)
}

/// Whether a removal of `path` removed something; a missing `path` is no error.
fn was_removed(result: std::io::Result<()>, path: &Path) -> Result<bool, StoreError> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(StoreError::io("remove", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_names_are_utc_dates() {
        assert_eq!(day_name(0), "1970-01-01");
        assert_eq!(day_name(951_782_400), "2000-02-29");
        assert_eq!(day_name(1_795_384_020), "2026-11-22");
        assert_eq!(day_name(1_795_384_020 - 30 * DAY), "2026-10-23");
        assert_eq!(day_name(4_102_444_799), "2099-12-31");
    }

    #[test]
    fn key_names_are_sha256() {
        assert_eq!(
            key_name("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
