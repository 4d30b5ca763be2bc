//! The journal that makes one mail's effect atomic: every file change of its command,
//! every reply (built, with its Message-ID fixed) and the mark that the mail was seen,
//! written as ONE file, `<home>/journal/pending`, and made durable before any of it is
//! applied. That is the commit: the only write of a mail that is fsynced on its own.
//!
//! The file is a header line `yinsh-pbem-journal <length> <FNV-1a 64 of the body>`
//! and a JSON body (file contents and replies as hex). It is written in place (the
//! file is kept, emptied after use, so a mail creates no journal file of its own): the
//! body is streamed into the file behind a header of zeros, then the true header (the
//! length zero-padded to 20 digits, so it has the same width) is written over those,
//! so no copy of the replies is held in memory. A crash during the write leaves a
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

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::durable::{self, Pending, Readers, fault};
use crate::mail::transport::write_to_outbox;
use crate::mail::{BuiltMail, Spool, Transport};

use super::fs::{create_dir, remove_deferred, write_deferred};
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
    fnv1a64_from(FNV_BASIS, bytes)
}

/// FNV-1a 64's offset basis.
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a 64 of `bytes` continued from `h` (the offset basis for a fresh one).
fn fnv1a64_from(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The header line of a body of `len` bytes whose FNV-1a 64 is `sum`; always the same
/// width (the length zero-padded), so that it is written in place once the body is.
fn header(len: u64, sum: u64) -> String {
    format!("{MAGIC} {len:020} {sum:016x}\n")
}

/// A journal file's bytes: the header line, then `body`.
#[cfg(test)]
fn framed(body: &[u8]) -> Vec<u8> {
    let mut bytes = header(body.len() as u64, fnv1a64(body)).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Passes the body on to the file, counting and hashing it for the header.
struct Framing<W> {
    inner: W,
    len: u64,
    sum: u64,
}

impl<W: Write> Write for Framing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.len += n as u64;
        self.sum = fnv1a64_from(self.sum, &buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Bytes written as lower-case hex, straight into the serializer's output (no
/// copy of them is made: a reply with its picture is some 60 kB).
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut buf = [0u8; 512];
        for chunk in self.0.chunks(buf.len() / 2) {
            for (k, &b) in chunk.iter().enumerate() {
                buf[2 * k] = DIGITS[usize::from(b >> 4)];
                buf[2 * k + 1] = DIGITS[usize::from(b & 0x0f)];
            }
            let text = std::str::from_utf8(&buf[..2 * chunk.len()]).map_err(|_| fmt::Error)?;
            f.write_str(text)?;
        }
        Ok(())
    }
}

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
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

/// One mail's effect as the commit writes it: the transaction's file changes and the
/// built replies, borrowed; their bytes go into the journal file as hex as it is
/// written, so that committing holds no copy of them (`docs/performance.md`).
pub struct Journal<'a> {
    /// The mail's key (its Message-ID, or a hash of its bytes).
    key: &'a str,
    /// Files to write or remove, relative to the home.
    files: Vec<FileOut<'a>>,
    /// Replies to spool.
    replies: &'a [BuiltMail],
}

/// A file change in a journal being written.
#[derive(Serialize)]
struct FileOut<'a> {
    path: String,
    content: Option<Hex<'a>>,
}

/// A built reply in a journal being written.
#[derive(Serialize)]
struct ReplyOut<'a> {
    id: &'a str,
    from: &'a str,
    to: &'a [String],
    bytes: Hex<'a>,
}

impl Serialize for Journal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Journal", 4)?;
        out.serialize_field("v", &2u32)?;
        out.serialize_field("key", self.key)?;
        out.serialize_field("files", &self.files)?;
        let replies: Vec<ReplyOut<'_>> = self
            .replies
            .iter()
            .map(|m| ReplyOut {
                id: &m.id,
                from: &m.envelope_from,
                to: &m.recipients,
                bytes: Hex(&m.bytes),
            })
            .collect();
        out.serialize_field("replies", &replies)?;
        out.end()
    }
}

/// A journal file as read back (format version 2): the bytes as hex.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredJournal {
    /// The format version (2).
    #[serde(rename = "v")]
    _v: u32,
    /// The mail's key.
    key: String,
    files: Vec<StoredFile>,
    replies: Vec<StoredReply>,
}

/// A file change in a journal read back.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredFile {
    /// The path relative to the home, e.g. `boards/101.json`.
    path: String,
    /// The new content as hex bytes; `None` removes the file.
    content: Option<String>,
}

/// A built reply in a journal read back.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredReply {
    /// Its Message-ID, without `<>`.
    id: String,
    /// The envelope sender.
    from: String,
    /// The envelope recipients.
    to: Vec<String>,
    /// The message bytes as hex.
    bytes: String,
}

#[cfg(test)]
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

/// Writes `journal` into `file` (from its start): a header of zeros, the body through
/// a buffer, then the header that names the body's length and checksum over the
/// zeros. The injected disk-full error cuts the body short halfway, as a real one does.
fn stream_journal(file: &mut File, journal: &Journal<'_>) -> io::Result<()> {
    let blank = header(0, 0);
    file.write_all(blank.as_bytes())?;
    let mut body = Framing {
        inner: BufWriter::with_capacity(64 * 1024, &*file),
        len: 0,
        sum: FNV_BASIS,
    };
    serde_json::to_writer(&mut body, journal).map_err(io::Error::from)?;
    body.write_all(b"\n")?;
    body.flush()?;
    let (len, sum) = (body.len, body.sum);
    drop(body);
    let whole = blank.len() as u64 + len;
    if let Err(e) = fault::write_error() {
        file.set_len(blank.len() as u64 + len / 2)?;
        return Err(e);
    }
    file.set_len(whole)?;
    file.seek(SeekFrom::Start(0))?;
    file.write_all(header(len, sum).as_bytes())
}

impl<'a> Journal<'a> {
    /// A journal for the mail `key` from a transaction's changes and the built replies.
    pub fn new(
        store: &Store,
        key: &'a str,
        changes: &'a [Change],
        replies: &'a [BuiltMail],
    ) -> Journal<'a> {
        let files = changes
            .iter()
            .map(|c| FileOut {
                path: c
                    .path
                    .strip_prefix(store.home())
                    .unwrap_or(&c.path)
                    .to_string_lossy()
                    .into_owned(),
                content: c.content.as_deref().map(Hex),
            })
            .collect();
        Journal {
            key,
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

    /// Writes the journal in place and makes it durable. The body is streamed into
    /// the file behind a header of zeros (a torn journal, should the run die), and the
    /// header is written over it once the body's length and checksum are known.
    fn write_journal(&self, journal: &Journal<'_>) -> Result<(), StoreError> {
        let dir = self.journal_dir();
        create_dir(&dir, 0o700)?;
        let path = self.journal_path();
        let io_err = |e| StoreError::io("write the journal", &path, e);
        let (mut file, created) = match Readers::Owner
            .options()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => (f, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => (
                OpenOptions::new().write(true).open(&path).map_err(io_err)?,
                false,
            ),
            Err(e) => return Err(io_err(e)),
        };
        if let Err(e) = stream_journal(&mut file, journal).and_then(|()| file.sync_data()) {
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
        journal: &Journal<'_>,
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
                Some(Hex(bytes)) => {
                    if let Some(dir) = target.parent() {
                        create_dir(dir, 0o755)?;
                    }
                    write_deferred(&target, bytes, &mut pending)?;
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
        for mail in journal.replies {
            match &sink {
                Sink::Spool(spool) => spool
                    .put_deferred(mail, &mut pending)
                    .map(|_| ())
                    .map_err(|e| mail_err("spool a reply of", e))?,
                Sink::Outbox(dir) => write_to_outbox(dir, mail, &mut pending)
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
        let mut contents = Vec::with_capacity(stored.files.len());
        for f in &stored.files {
            contents.push(match &f.content {
                Some(hex) => Some(unhex(hex, &path)?),
                None => None,
            });
        }
        let mut replies = Vec::with_capacity(stored.replies.len());
        for r in stored.replies {
            replies.push(BuiltMail {
                bytes: unhex(&r.bytes, &path)?,
                id: r.id,
                envelope_from: r.from,
                recipients: r.to,
            });
        }
        let journal = Journal {
            key: &stored.key,
            files: stored
                .files
                .iter()
                .zip(&contents)
                .map(|(f, c)| FileOut {
                    path: f.path.clone(),
                    content: c.as_deref().map(Hex),
                })
                .collect(),
            replies: &replies,
        };
        self.apply_journal(&journal, transport)?;
        // A kill while the journal was applied may have left temp copies of its files
        // and of its outbox mails (the outbox is written under the lock only, so any
        // there is a dead run's): each was just written whole.
        let named: Vec<PathBuf> = stored
            .files
            .iter()
            .filter_map(|f| Path::new(&f.path).parent().map(Path::to_path_buf))
            .collect();
        self.remove_leftover_temps(&named)?;
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
