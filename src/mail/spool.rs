//! The outgoing spool: a folder where built mails wait, durably, until
//! [`flush`](super::transport::flush) has handed them to a transport.
//!
//! Storage format (one file per mail): the file `<name>.msg`, where `<name>` is the
//! Message-ID with every byte outside `A-Z a-z 0-9 @ . _ + -` (and a leading `.`)
//! written as `%XX`. Its first line is a JSON object ended by `\n`:
//! `{"v":1,"id":"<Message-ID without <>>","from":"<envelope sender>",
//! "to":["<recipient>",...],"queued_ns":<unix time in nanoseconds>}`, with after a
//! failed send also `"tries"`, `"next_try"` (unix seconds) and `"error"`
//! ([`Spool::defer`]); every byte after that line is the raw message exactly as built
//! (CRLF line ends). Files whose name starts with `.` are not entries: `.*.tmp` are
//! writes in progress (or left by a crash: harmless, removed by [`Spool::open`] after
//! a day) and `.lock` serialises flushes. The folder `failed/` holds the dead letters
//! ([`Spool::bury`]): same format, with `"error"` and `"failed_at"`.
//!
//! Writes are atomic: the file is written under a temporary name in the same folder,
//! fsynced, hard-linked to its final name (which fails if an entry with that id
//! already exists, so a second [`Spool::put`] of the same id leaves the first as
//! is), then the temporary name is removed and the folder fsynced. A reader therefore
//! sees a whole entry or none. [`Spool::put_deferred`] does the same without the two
//! fsyncs, for a caller that makes a batch durable at once
//! ([`Pending::sync`](crate::durable::Pending::sync)).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::outbound::BuiltMail;
use crate::durable::{
    Existing, Pending, Readers, create_dir, remove_deferred, write_deferred, write_durable,
};

/// The spool folder.
#[derive(Debug, Clone)]
pub struct Spool {
    dir: PathBuf,
}

/// One mail waiting in the spool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpoolEntry {
    /// The entry's file.
    pub path: PathBuf,
    /// When it was queued, unix time in nanoseconds.
    pub queued_ns: u64,
    /// How many sends failed for a reason of this mail (0 for a new entry).
    pub tries: u32,
    /// Not to be tried before this unix time, seconds (0: at once).
    pub next_try: u64,
    /// The mail with its envelope.
    pub mail: BuiltMail,
}

/// What went wrong with the spool.
#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    /// A file operation failed.
    #[error("could not {action} `{path}`: {source}; check that the folder exists and is writable")]
    Io {
        /// What was being done, e.g. "create the spool folder".
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A spool file does not hold an entry in the format of this module.
    #[error(
        "the spool file `{path}` is damaged: {reason}; inspect it, then move it out of \
         the spool (it is never removed automatically)"
    )]
    BadEntry {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A mail id that cannot name a file.
    #[error("the message id `{id}` cannot name a spool file: {reason}")]
    BadId {
        /// The id.
        id: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Another process held the spool's lock for longer than we wait.
    #[error(
        "the spool `{path}` stayed locked for {waited_seconds} s (another flush is sending); \
         the mails wait for the next flush"
    )]
    Busy {
        /// The spool folder.
        path: PathBuf,
        /// How long we waited.
        waited_seconds: u64,
    },
    /// The transport could not be set up (nothing was sent).
    #[error("the transport {transport} cannot be used: {reason}")]
    Transport {
        /// The transport, as configured.
        transport: String,
        /// Why it cannot be used.
        reason: String,
    },
}

/// What the spool holds, in figures ([`Spool::summary`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpoolSummary {
    /// Mails waiting (every `.msg` file, damaged or not).
    pub waiting: usize,
    /// Mails given up (`failed/`).
    pub failed: usize,
    /// When the oldest waiting mail was queued, Unix seconds (from each header that
    /// reads).
    pub oldest: Option<u64>,
}

/// Of a spool file's header, when it was queued (all `summary` reads).
#[derive(Deserialize)]
struct Queued {
    queued_ns: u64,
}

/// The first line of a spool file.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    v: u32,
    id: String,
    from: String,
    to: Vec<String>,
    queued_ns: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    tries: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    next_try: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    failed_at: u64,
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// The version written in [`Header::v`].
const FORMAT_VERSION: u32 = 1;

/// The extension of spool entries.
const ENTRY_EXT: &str = "msg";

/// The dead-letter folder inside the spool.
const FAILED_DIR: &str = "failed";

/// Temporary files older than this are left-overs of a crash.
const STALE_TMP: Duration = Duration::from_secs(24 * 3600);

impl Spool {
    /// Opens the spool in `dir`, creating the folder if needed and removing temporary
    /// files a crash left more than a day ago.
    pub fn open(dir: &Path) -> Result<Spool, SpoolError> {
        create_dir(dir, Readers::Owner).map_err(|source| SpoolError::Io {
            action: "create the spool folder",
            path: dir.to_path_buf(),
            source,
        })?;
        let spool = Spool {
            dir: dir.to_path_buf(),
        };
        for entry in read_dir(dir)? {
            let name = entry.file_name();
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE_TMP);
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") && old {
                let _ = fs::remove_file(entry.path());
            }
        }
        Ok(spool)
    }

    /// The spool folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What the spool in `dir` holds, read without opening it (no folder is made,
    /// nothing removed) and without its lock: each file as it is. Only the first
    /// line of each waiting mail is read (at most 64 KiB of it).
    pub fn summary(dir: &Path) -> SpoolSummary {
        let mut out = SpoolSummary {
            failed: entry_files(&dir.join(FAILED_DIR)).len(),
            ..SpoolSummary::default()
        };
        for path in entry_files(dir) {
            out.waiting += 1;
            if let Some(t) = queued_at(&path) {
                out.oldest = Some(out.oldest.map_or(t, |o| o.min(t)));
            }
        }
        out
    }

    /// Queues a mail durably; an entry with the same id is left as it is (the call
    /// is idempotent). Returns the entry's path.
    pub fn put(&self, mail: &BuiltMail) -> Result<PathBuf, SpoolError> {
        let (path, bytes) = self.entry(mail)?;
        write_durable(&path, &bytes, Existing::Keep).map_err(|source| SpoolError::Io {
            action: "write the spool entry",
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }

    /// [`Spool::put`] without making the entry durable: it is recorded in `pending`,
    /// and durable after [`Pending::sync`]. For a caller that holds the mail durably
    /// elsewhere until then (the store's journal).
    pub fn put_deferred(
        &self,
        mail: &BuiltMail,
        pending: &mut Pending,
    ) -> Result<PathBuf, SpoolError> {
        let (path, bytes) = self.entry(mail)?;
        write_deferred(&path, &bytes, Existing::Keep, pending).map_err(|source| {
            SpoolError::Io {
                action: "write the spool entry",
                path: path.clone(),
                source,
            }
        })?;
        Ok(path)
    }

    /// The file and bytes of `mail`'s entry.
    fn entry(&self, mail: &BuiltMail) -> Result<(PathBuf, Vec<u8>), SpoolError> {
        let path = self
            .dir
            .join(format!("{}.{ENTRY_EXT}", file_stem(&mail.id)?));
        let header = Header {
            v: FORMAT_VERSION,
            id: mail.id.clone(),
            from: mail.envelope_from.clone(),
            to: mail.recipients.clone(),
            queued_ns: unix_nanos(SystemTime::now()),
            tries: 0,
            next_try: 0,
            error: None,
            failed_at: 0,
        };
        let bytes = entry_bytes(&path, &header, &mail.bytes)?;
        Ok((path, bytes))
    }

    /// `<spool>/failed`: the dead letters, mails that will never be sent.
    pub fn failed_dir(&self) -> PathBuf {
        self.dir.join(FAILED_DIR)
    }

    /// Records a failed send of `entry` that may succeed later: its try count goes up
    /// and it waits until `next_try` (unix seconds); `why` is kept in the entry.
    /// The entry is rewritten atomically and durably.
    pub fn defer(&self, entry: &SpoolEntry, next_try: u64, why: &str) -> Result<(), SpoolError> {
        let header = Header {
            tries: entry.tries.saturating_add(1),
            next_try,
            error: Some(why.to_string()),
            ..header_of(entry)
        };
        let bytes = entry_bytes(&entry.path, &header, &entry.mail.bytes)?;
        write_durable(&entry.path, &bytes, Existing::Replace).map_err(|source| SpoolError::Io {
            action: "rewrite the spool entry",
            path: entry.path.clone(),
            source,
        })
    }

    /// Moves `entry` to the dead letters (`<spool>/failed/`, same file name and
    /// format, with `why` and the time `now` in its header), durably, and out of the
    /// spool. Returns the dead letter's path.
    pub fn bury(&self, entry: &SpoolEntry, why: &str, now: u64) -> Result<PathBuf, SpoolError> {
        let dir = self.failed_dir();
        let io = |action, path: &Path| {
            let path = path.to_path_buf();
            move |source| SpoolError::Io {
                action,
                path,
                source,
            }
        };
        create_dir(&dir, Readers::Owner).map_err(io("create the dead-letter folder", &dir))?;
        let name = entry.path.file_name().unwrap_or_default();
        let dead = dir.join(name);
        let header = Header {
            error: Some(why.to_string()),
            failed_at: now,
            ..header_of(entry)
        };
        let bytes = entry_bytes(&dead, &header, &entry.mail.bytes)?;
        write_durable(&dead, &bytes, Existing::Replace)
            .map_err(io("write the dead letter", &dead))?;
        let mut removed = Pending::default();
        self.remove_deferred(entry, &mut removed)?;
        removed
            .sync()
            .map_err(io("remove the dead letter from", &self.dir))?;
        Ok(dead)
    }

    /// The entries, oldest first; a file that is not a valid entry is an error.
    pub fn entries(&self) -> Result<Vec<SpoolEntry>, SpoolError> {
        let (entries, mut damaged) = self.scan()?;
        match damaged.pop() {
            Some(err) => Err(err),
            None => Ok(entries),
        }
    }

    /// The valid entries, oldest first, and an error for every damaged file.
    pub fn scan(&self) -> Result<(Vec<SpoolEntry>, Vec<SpoolError>), SpoolError> {
        let mut entries = Vec::new();
        let mut damaged = Vec::new();
        for dir_entry in read_dir(&self.dir)? {
            let path = dir_entry.path();
            let name = dir_entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || !name.ends_with(&format!(".{ENTRY_EXT}")) {
                continue;
            }
            match read_entry(&path) {
                Ok(entry) => entries.push(entry),
                Err(err) => damaged.push(err),
            }
        }
        entries.sort_by(|a, b| (a.queued_ns, &a.path).cmp(&(b.queued_ns, &b.path)));
        Ok((entries, damaged))
    }

    /// Removes a sent entry (one already gone is not an error); the removal is made
    /// durable by a later [`Pending::sync`].
    pub fn remove_deferred(
        &self,
        entry: &SpoolEntry,
        pending: &mut Pending,
    ) -> Result<(), SpoolError> {
        remove_deferred(&entry.path, pending).map_err(|source| SpoolError::Io {
            action: "remove the sent spool entry",
            path: entry.path.clone(),
            source,
        })
    }

    /// Takes the spool's flush lock, waiting at most `wait` for another flush to
    /// finish ([`SpoolError::Busy`] then); released when the file is dropped.
    pub(crate) fn lock(&self, wait: Duration) -> Result<File, SpoolError> {
        let path = self.dir.join(".lock");
        let err = |source| SpoolError::Io {
            action: "lock the spool",
            path: path.clone(),
            source,
        };
        let file = Readers::Owner
            .options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(err)?;
        if crate::durable::lock_within(&file, wait).map_err(err)? {
            Ok(file)
        } else {
            Err(SpoolError::Busy {
                path: self.dir.clone(),
                waited_seconds: wait.as_secs(),
            })
        }
    }
}

/// The entry files of `dir` (`*.msg`, not starting with a dot); none when it cannot
/// be read.
fn entry_files(dir: &Path) -> Vec<PathBuf> {
    let suffix = format!(".{ENTRY_EXT}");
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && name.ends_with(&suffix)
        })
        .map(|e| e.path())
        .collect()
}

/// When the spool file `path` was queued, Unix seconds, from its header line.
fn queued_at(path: &Path) -> Option<u64> {
    use io::{BufRead as _, Read as _};
    let file = File::open(path).ok()?;
    let mut line = String::new();
    io::BufReader::new(file.take(64 * 1024))
        .read_line(&mut line)
        .ok()?;
    let queued: Queued = serde_json::from_str(line.trim()).ok()?;
    Some(queued.queued_ns / 1_000_000_000)
}

/// Reads a folder's entries, as a list.
fn read_dir(dir: &Path) -> Result<Vec<fs::DirEntry>, SpoolError> {
    let err = |source| SpoolError::Io {
        action: "read the folder",
        path: dir.to_path_buf(),
        source,
    };
    fs::read_dir(dir)
        .map_err(err)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)
}

/// Reads one spool file.
fn read_entry(path: &Path) -> Result<SpoolEntry, SpoolError> {
    let bytes = fs::read(path).map_err(|source| SpoolError::Io {
        action: "read the spool entry",
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |reason: String| SpoolError::BadEntry {
        path: path.to_path_buf(),
        reason,
    };
    let Some(newline) = bytes.iter().position(|&b| b == b'\n') else {
        return Err(bad("it has no header line".into()));
    };
    let header: Header = serde_json::from_slice(&bytes[..newline])
        .map_err(|e| bad(format!("its first line is not the JSON header: {e}")))?;
    if header.v != FORMAT_VERSION {
        return Err(bad(format!(
            "its format version is {}, this program reads version {FORMAT_VERSION}",
            header.v
        )));
    }
    if header.to.is_empty() {
        return Err(bad("its envelope has no recipient".into()));
    }
    Ok(SpoolEntry {
        path: path.to_path_buf(),
        queued_ns: header.queued_ns,
        tries: header.tries,
        next_try: header.next_try,
        mail: BuiltMail {
            id: header.id,
            envelope_from: header.from,
            recipients: header.to,
            bytes: bytes[newline + 1..].to_vec(),
        },
    })
}

/// The header that describes `entry` as it is.
fn header_of(entry: &SpoolEntry) -> Header {
    Header {
        v: FORMAT_VERSION,
        id: entry.mail.id.clone(),
        from: entry.mail.envelope_from.clone(),
        to: entry.mail.recipients.clone(),
        queued_ns: entry.queued_ns,
        tries: entry.tries,
        next_try: entry.next_try,
        error: None,
        failed_at: 0,
    }
}

/// A spool file's bytes: the header line, then the message.
fn entry_bytes(path: &Path, header: &Header, message: &[u8]) -> Result<Vec<u8>, SpoolError> {
    let mut bytes = serde_json::to_vec(header).map_err(|e| SpoolError::BadEntry {
        path: path.to_path_buf(),
        reason: format!("its header cannot be written as JSON: {e}"),
    })?;
    bytes.push(b'\n');
    bytes.extend_from_slice(message);
    Ok(bytes)
}

/// The longest file stem made from an id.
const MAX_STEM: usize = 240;

/// A file name stem for a message id: safe bytes kept, others (and a leading `.`)
/// as `%XX`.
pub(crate) fn file_stem(id: &str) -> Result<String, SpoolError> {
    if id.is_empty() {
        return Err(SpoolError::BadId {
            id: id.to_string(),
            reason: "it is empty",
        });
    }
    let mut stem = String::with_capacity(id.len());
    for (i, b) in id.bytes().enumerate() {
        let safe = b.is_ascii_alphanumeric() || b"@._+-".contains(&b);
        if safe && !(i == 0 && b == b'.') {
            stem.push(char::from(b));
        } else {
            stem.push_str(&format!("%{b:02X}"));
        }
    }
    if stem.len() > MAX_STEM {
        return Err(SpoolError::BadId {
            id: id.to_string(),
            reason: "it is too long for a file name (more than 240 bytes once escaped)",
        });
    }
    Ok(stem)
}

/// Nanoseconds since the unix epoch (0 before it, saturating far after).
fn unix_nanos(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_escape_unsafe_bytes() {
        assert_eq!(file_stem("a.1@b-c").ok(), Some("a.1@b-c".to_string()));
        assert_eq!(file_stem(".x/y z").ok(), Some("%2Ex%2Fy%20z".to_string()));
        assert_eq!(file_stem("..").ok(), Some("%2E.".to_string()));
        assert!(file_stem("").is_err());
        assert!(file_stem(&"/".repeat(100)).is_err());
    }
}
