//! The journal that makes one mail's effect atomic: every file change of its command,
//! every reply (built, with its Message-ID fixed) and the mark that the mail was seen,
//! written as ONE file, `<home>/journal/pending`, and made durable before any of it is
//! applied. That is the commit: the only write of a mail that is fsynced on its own.
//!
//! The file is a header line `yinsh-pbem-journal <length> <FNV-1a 64 of the body>`
//! and a JSON body (file contents and replies as JSON strings when they are UTF-8, as
//! they nearly always are, else as hex; a journal of format 2, all hex, left by an
//! older version, is read too). It is written in place (the file is kept with its
//! length and blocks, emptied after use by a blank line over its header, so a mail
//! neither creates a file nor frees or finds blocks for it; what follows a body is an
//! older journal's end, never read): the body is streamed into the file behind a
//! header of zeros, then the true header (the length zero-padded to 20 digits, so it
//! has the same width) is written over those, so no copy of the replies is held in
//! memory. A crash during the write leaves a
//! body that does not match its header: such a torn journal was never committed (no
//! effect of it had been applied, and the mail had not been acknowledged, so the mail
//! system delivers it again) and is discarded.
//!
//! Applying writes every file and reply without an fsync each (atomic for readers:
//! temp file, then rename or hard link; but the storm counts of `rate/`, read only
//! under the lock, are written over in place: [`IN_PLACE`]), then makes them durable together
//! ([`Pending::sync`]), and only then empties the journal. A crash while applying
//! leaves a whole journal that the next `deliver` or `flush` completes ([`Store::recover`])
//! before doing anything else, under the lock. Applying is idempotent (same files
//! written again; the spool and the outbox keep one file per Message-ID), so completing
//! a journal twice does no harm.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::durable::{self, Pending, Readers, fault};
use crate::mail::transport::write_to_outbox;
use crate::mail::{BuiltMail, Spool, Transport};

use super::fs::{create_dir, overwrite_deferred, remove_deferred, write_deferred};
use super::tx::Change;
use super::{Store, StoreError};

/// The first word of a journal's header line.
const MAGIC: &str = "yinsh-pbem-journal";

/// The folders whose files a journal writes over in place, not by a temp file and a
/// rename (`durable::overwrite_deferred`): the storm counts of `rate/`, one a sender,
/// written by each of its mails and read only under the lock (`Store::count_mail`).
/// A crash that tears one leaves the journal that writes it whole again, and the
/// next run completes the journal before it reads anything.
const IN_PLACE: &[&str] = &["rate"];

/// Whether the journal writes the file `rel` (relative to the home) in place.
fn written_in_place(rel: &Path) -> bool {
    let mut parts = rel.components();
    let folder = parts.next().and_then(|c| c.as_os_str().to_str());
    folder.is_some_and(|f| IN_PLACE.contains(&f)) && parts.next().is_some()
}

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

/// Writes `bytes` as a JSON string of lower-case hex, a few kB at a time (hex needs
/// no escaping, so serde's character-by-character check is skipped: it and the
/// formatting machinery were most of a commit's work).
fn write_hex_string(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 4096];
    out.write_all(b"\"")?;
    for chunk in bytes.chunks(buf.len() / 2) {
        for (pair, &b) in buf.chunks_exact_mut(2).zip(chunk) {
            pair[0] = DIGITS[usize::from(b >> 4)];
            pair[1] = DIGITS[usize::from(b & 0x0f)];
        }
        out.write_all(&buf[..2 * chunk.len()])?;
    }
    out.write_all(b"\"")
}

/// Writes the field `"text"` with `bytes` as a JSON string when they are UTF-8 (a
/// mail, a record: half the size of hex, so half the journal to write and flush), or
/// else the field `hex_field` with them in hex; each preceded by a comma.
fn write_content(out: &mut impl Write, hex_field: &str, bytes: &[u8]) -> io::Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            out.write_all(b",\"text\":")?;
            write_json(out, text)
        }
        Err(_) => {
            write!(out, ",\"{hex_field}\":")?;
            write_hex_string(out, bytes)
        }
    }
}

/// Writes `value` as JSON (the short strings of a journal: its key, paths, ids and
/// addresses, escaped by serde).
fn write_json(out: &mut impl Write, value: &(impl Serialize + ?Sized)) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
}

/// The body of a journal file, if its header is ours and matches the body (the
/// header's length of bytes after it; what follows them is an older journal's).
fn body_of(bytes: &[u8]) -> Option<&[u8]> {
    let newline = bytes.iter().position(|&b| b == b'\n')?;
    let header = std::str::from_utf8(&bytes[..newline]).ok()?;
    let mut words = header.split(' ');
    let (magic, len, sum) = (words.next()?, words.next()?, words.next()?);
    if magic != MAGIC || words.next().is_some() {
        return None;
    }
    let body = bytes
        .get(newline + 1..)?
        .get(..len.parse::<usize>().ok()?)?;
    (u64::from_str_radix(sum, 16).ok()? == fnv1a64(body)).then_some(body)
}

/// What an emptied journal file starts with: a blank line where a header would be.
/// The file keeps its length and its blocks, and the next journal is written over
/// them (freeing them and finding them again cost more than the flush of the journal
/// itself, on ext4 with online discard); what follows the mark is never read.
const EMPTY: u8 = b'\n';

/// A journal file longer than this is cut to nothing when emptied, not kept for the
/// next one (the journal of a `multiple` of many pictured replies).
const KEEP_AT_MOST: u64 = 1 << 20;

/// One mail's effect as the commit writes it: the transaction's file changes and the
/// built replies, borrowed; their bytes go into the journal file (as text, or hex) as
/// it is written, so that committing holds no copy of them (`docs/performance.md`).
pub struct Journal<'a> {
    /// The mail's key (its Message-ID, or a hash of its bytes).
    key: &'a str,
    /// Files to write or remove, relative to the home.
    files: Vec<FileOut<'a>>,
    /// Replies to spool.
    replies: &'a [BuiltMail],
}

/// A file change in a journal being written.
struct FileOut<'a> {
    path: String,
    /// The new bytes, borrowed (written into the file as text or hex, no copy made:
    /// [`write_content`]); `None` removes the file.
    content: Option<&'a [u8]>,
}

impl Journal<'_> {
    /// Writes the journal's body, the JSON that [`StoredJournal`] reads (format
    /// version 3): `{"v":3,"key":…,"files":[{"path":…,"text":… or "content":hex or
    /// null}…],"replies":[{"id":…,"from":…,"to":[…],"text":… or "bytes":hex}…]}`.
    fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(b"{\"v\":3,\"key\":")?;
        write_json(out, self.key)?;
        out.write_all(b",\"files\":[")?;
        for (k, f) in self.files.iter().enumerate() {
            out.write_all(if k == 0 {
                b"{\"path\":"
            } else {
                b",{\"path\":"
            })?;
            write_json(out, &f.path)?;
            match &f.content {
                Some(bytes) => write_content(out, "content", bytes)?,
                None => out.write_all(b",\"content\":null")?,
            }
            out.write_all(b"}")?;
        }
        out.write_all(b"],\"replies\":[")?;
        for (k, m) in self.replies.iter().enumerate() {
            out.write_all(if k == 0 { b"{\"id\":" } else { b",{\"id\":" })?;
            write_json(out, &m.id)?;
            out.write_all(b",\"from\":")?;
            write_json(out, &m.envelope_from)?;
            out.write_all(b",\"to\":")?;
            write_json(out, &m.recipients)?;
            write_content(out, "bytes", &m.bytes)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]}")
    }
}

/// A journal file as read back: format version 3, or 2 (every content in hex) as an
/// older version of the program left it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredJournal {
    /// The format version (3, or 2).
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
    /// The new content as hex bytes; `None` (and no `text`) removes the file.
    #[serde(default)]
    content: Option<String>,
    /// The new content as it is, when it is UTF-8 (version 3).
    #[serde(default)]
    text: Option<String>,
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
    /// The message bytes as hex (when they are not UTF-8, and in version 2).
    #[serde(default)]
    bytes: Option<String>,
    /// The message as it is, when it is UTF-8 (version 3).
    #[serde(default)]
    text: Option<String>,
}

/// The bytes a stored content names: as hex, as text, or none; both is a broken journal.
fn stored_bytes(
    hex: Option<String>,
    text: Option<String>,
    path: &Path,
) -> Result<Option<Vec<u8>>, StoreError> {
    match (hex, text) {
        (Some(hex), None) => unhex(&hex, path).map(Some),
        (None, Some(text)) => Ok(Some(text.into_bytes())),
        (None, None) => Ok(None),
        (Some(_), Some(_)) => Err(StoreError::io(
            "decode",
            path,
            io::Error::new(
                io::ErrorKind::InvalidData,
                "an entry both in hex and as text",
            ),
        )),
    }
}

#[cfg(test)]
fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

fn unhex(s: &str, path: &Path) -> Result<Vec<u8>, StoreError> {
    let bad = || {
        StoreError::io(
            "decode",
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not hex"),
        )
    };
    hex::decode(s).map_err(|_| bad())
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
    journal.write_body(&mut body)?;
    body.write_all(b"\n")?;
    body.flush()?;
    let (len, sum) = (body.len, body.sum);
    drop(body);
    if let Err(e) = fault::write_error() {
        file.set_len(blank.len() as u64 + len / 2)?;
        return Err(e);
    }
    // Not cut to its length: what an older, longer journal left after it is not read.
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
                content: c.content.as_deref(),
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

    /// The journal file, `<home>/journal/pending` (empty, or starting with a blank
    /// line, when nothing is pending: [`Store::journal_waits`]).
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

    /// Empties the journal file: a blank line written over its header ([`EMPTY`]),
    /// or, past [`KEEP_AT_MOST`], the file cut to nothing. Not fsynced: should a crash
    /// undo it, the journal is applied once more, which changes nothing but may send
    /// its replies again.
    fn clear_journal(&self) -> Result<(), StoreError> {
        let path = self.journal_path();
        let io_err = |e| StoreError::io("empty the journal", &path, e);
        let mut file = match OpenOptions::new().write(true).open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io_err(e)),
        };
        let len = file.metadata().map_err(io_err)?.len();
        if len > KEEP_AT_MOST {
            file.set_len(0).map_err(io_err)
        } else if len > 0 {
            file.write_all(&[EMPTY]).map_err(io_err)
        } else {
            Ok(())
        }
    }

    /// Whether a journal waits in `<home>/journal/pending`, whole or torn: the file
    /// is there and neither empty nor emptied. [`Store::recover`] completes or
    /// discards it; nothing else is done before that.
    pub fn journal_waits(&self) -> Result<bool, StoreError> {
        let path = self.journal_path();
        let mut first = [0u8; 1];
        match File::open(&path).and_then(|mut f| f.read(&mut first)) {
            Ok(n) => Ok(n == 1 && first[0] != EMPTY),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(StoreError::io("read", &path, e)),
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
                Some(bytes) => {
                    if let Some(dir) = target.parent() {
                        create_dir(dir, 0o755)?;
                    }
                    if written_in_place(rel) {
                        overwrite_deferred(&target, bytes, &mut pending)?;
                    } else {
                        write_deferred(&target, bytes, &mut pending)?;
                    }
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A journal of the mail `key` writing each file (removing it, for `None`) and
    /// sending `replies`.
    fn journal_of<'a>(
        key: &'a str,
        files: &[(&str, Option<&'a [u8]>)],
        replies: &'a [BuiltMail],
    ) -> Journal<'a> {
        let files = files
            .iter()
            .map(|&(path, content)| FileOut {
                path: path.to_string(),
                content,
            })
            .collect();
        Journal {
            key,
            files,
            replies,
        }
    }

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
        // What follows the body is an older, longer journal's end, not read.
        let mut longer = whole.clone();
        longer.extend_from_slice(b"older journal");
        assert_eq!(body_of(&longer), Some(&body[..]));
        let other = [b"journal ".as_slice(), &whole[MAGIC.len() + 1..]].concat();
        assert_eq!(body_of(&other), None);
    }

    #[test]
    fn the_body_written_is_the_json_the_reader_reads_every_string_escaped() {
        let empty = journal_of("k", &[], &[]);
        let mut body = Vec::new();
        empty.write_body(&mut body).expect("write");
        assert_eq!(body, br#"{"v":3,"key":"k","files":[],"replies":[]}"#);
        // Bytes of every value (not UTF-8: in hex), longer than one chunk of the hex
        // writer; and UTF-8 text needing every kind of escape (as it is).
        let content: Vec<u8> = (0..5000u32).map(|k| (k % 256) as u8).collect();
        let record = "{\"n\":\"\u{e9}\\\"\n\r\t\u{1}\"}\n"
            .repeat(300)
            .into_bytes();
        let binary = BuiltMail {
            bytes: (0..=255).collect(),
            id: "a\"b\\c@x".to_string(),
            envelope_from: "s\u{1}@x".to_string(),
            recipients: vec!["\u{e9}@x".to_string(), "q\n@x".to_string()],
        };
        let mail = BuiltMail {
            bytes: b"Subject: a\r\n\r\n\xc3\xa9 \"quoted\" \\ end\r\n".to_vec(),
            id: "m@x".to_string(),
            envelope_from: "f@x".to_string(),
            recipients: vec!["t@x".to_string()],
        };
        let replies = [binary.clone(), mail.clone()];
        let journal = journal_of(
            "k\"ey\u{7f}",
            &[
                ("boards/1\".json", Some(&content)),
                ("gone", None),
                ("boards/2.json", Some(&record)),
            ],
            &replies,
        );
        let mut body = Vec::new();
        journal.write_body(&mut body).expect("write");
        let value: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
        assert_eq!(
            value,
            serde_json::json!({
                "v": 3,
                "key": "k\"ey\u{7f}",
                "files": [
                    {"path": "boards/1\".json", "content": hex(&content)},
                    {"path": "gone", "content": null},
                    {"path": "boards/2.json", "text": text(&record)},
                ],
                "replies": [{
                    "id": "a\"b\\c@x",
                    "from": "s\u{1}@x",
                    "to": ["\u{e9}@x", "q\n@x"],
                    "bytes": hex(&binary.bytes),
                }, {
                    "id": "m@x",
                    "from": "f@x",
                    "to": ["t@x"],
                    "text": text(&mail.bytes),
                }],
            })
        );
        // Read back, every content is the bytes written.
        let stored: StoredJournal = serde_json::from_slice(&body).expect("read back");
        let path = Path::new("journal");
        let read: Vec<Option<Vec<u8>>> = stored
            .files
            .into_iter()
            .map(|f| stored_bytes(f.content, f.text, path).expect("content"))
            .collect();
        assert_eq!(read, [Some(content), None, Some(record)]);
        let read: Vec<Option<Vec<u8>>> = stored
            .replies
            .into_iter()
            .map(|r| stored_bytes(r.bytes, r.text, path).expect("reply"))
            .collect();
        assert_eq!(read, [Some(binary.bytes), Some(mail.bytes)]);
        // Both at once is a broken journal.
        let both = stored_bytes(Some("00".into()), Some("x".into()), path);
        assert!(both.is_err());
    }

    /// Contents of either kind: any bytes (mostly not UTF-8), or any text.
    fn contents() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..300),
            any::<String>().prop_map(String::into_bytes),
        ]
    }

    proptest! {
        #[test]
        fn whatever_a_journal_holds_is_read_back_as_written(
            files in prop::collection::vec(
                (any::<String>(), prop::option::of(contents())), 0..4),
            replies in prop::collection::vec(
                (any::<String>(), any::<String>(), prop::collection::vec(any::<String>(), 0..3),
                 contents()), 0..3),
            key in any::<String>(),
        ) {
            let built: Vec<BuiltMail> = replies
                .iter()
                .map(|(id, from, to, bytes)| BuiltMail {
                    bytes: bytes.clone(),
                    id: id.clone(),
                    envelope_from: from.clone(),
                    recipients: to.clone(),
                })
                .collect();
            let named: Vec<(&str, Option<&[u8]>)> =
                files.iter().map(|(p, c)| (p.as_str(), c.as_deref())).collect();
            let journal = journal_of(&key, &named, &built);
            let mut body = Vec::new();
            journal.write_body(&mut body).expect("write");
            let stored: StoredJournal = serde_json::from_slice(&body).expect("JSON");
            let path = Path::new("journal");
            prop_assert_eq!(&stored.key, &key);
            prop_assert_eq!(stored.files.len(), files.len());
            for (f, (p, content)) in stored.files.into_iter().zip(&files) {
                prop_assert_eq!(&f.path, p);
                prop_assert_eq!(&stored_bytes(f.content, f.text, path).expect("file"), content);
            }
            prop_assert_eq!(stored.replies.len(), built.len());
            for (r, m) in stored.replies.into_iter().zip(&built) {
                prop_assert_eq!((&r.id, &r.from, &r.to), (&m.id, &m.envelope_from, &m.recipients));
                let bytes = stored_bytes(r.bytes, r.text, path).expect("reply");
                prop_assert_eq!(bytes.as_ref(), Some(&m.bytes));
            }
        }
    }

    #[test]
    fn a_journal_an_older_version_left_in_hex_is_completed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let mail = b"Subject: old\r\n\r\nbody\r\n";
        let body = format!(
            r#"{{"v":2,"key":"k","files":[{{"path":"boards/1.json","content":"{}"}}],"replies":[{{"id":"old@x","from":"f@x","to":["t@x"],"bytes":"{}"}}]}}"#,
            hex(b"{}"),
            hex(mail)
        );
        std::fs::create_dir_all(store.journal_dir()).expect("mkdir");
        std::fs::write(store.journal_path(), framed(body.as_bytes())).expect("write");
        let outbox = store.home().join("outbox");
        let transport = Transport::Outbox(outbox.clone());
        assert_eq!(
            store.recover(&transport).expect("completed"),
            Recovered::Completed
        );
        assert_eq!(
            std::fs::read(store.home().join("boards/1.json")).expect("board"),
            b"{}"
        );
        let sent: Vec<_> = std::fs::read_dir(&outbox).expect("outbox").collect();
        assert_eq!(sent.len(), 1);
        assert!(!store.journal_waits().expect("emptied"));
    }

    #[cfg(unix)]
    #[test]
    fn a_storm_count_is_written_in_place_and_any_other_file_anew() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let rate = store.home().join("rate/k.json");
        let board = store.home().join("boards/1.json");
        for path in [&rate, &board] {
            std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
            std::fs::write(path, br#"{"count":10,"longer":true}"#).expect("write");
        }
        let inode = |path: &Path| std::fs::metadata(path).expect("metadata").ino();
        let (rate_inode, board_inode) = (inode(&rate), inode(&board));
        let (count, game) = (br#"{"count":9}"#.to_vec(), b"{}".to_vec());
        let journal = journal_of(
            "k",
            &[
                ("rate/k.json", Some(&count)),
                ("boards/1.json", Some(&game)),
            ],
            &[],
        );
        let outbox = Transport::Outbox(store.home().join("outbox"));
        store.commit(&journal, &outbox).expect("commit");
        assert_eq!(std::fs::read(&rate).expect("rate"), count);
        assert_eq!(std::fs::read(&board).expect("board"), game);
        assert_eq!(inode(&rate), rate_inode, "the count written over in place");
        assert_ne!(inode(&board), board_inode, "the game file replaced whole");
        // Only files inside `rate/` are.
        for (rel, in_place) in [
            ("rate/x.json", true),
            ("rate", false),
            ("rates/x.json", false),
            ("boards/rate", false),
        ] {
            assert_eq!(written_in_place(Path::new(rel)), in_place, "{rel}");
        }
    }

    #[test]
    fn an_emptied_journal_keeps_its_blocks_and_waits_no_more() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let outbox = Transport::Outbox(store.home().join("outbox"));
        assert!(!store.journal_waits().expect("none yet"));
        let (long, short) = (vec![7u8; 3000], b"{}".to_vec());
        let commit = |content: &[u8]| {
            let journal = journal_of("k", &[("boards/1.json", Some(content))], &[]);
            store.write_journal(&journal).expect("write");
            assert!(store.journal_waits().expect("waits"));
            let len = std::fs::metadata(store.journal_path())
                .expect("journal")
                .len();
            store.apply_journal(&journal, &outbox).expect("apply");
            len
        };
        let long_len = commit(&long);
        let path = store.journal_path();
        let emptied = std::fs::read(&path).expect("journal");
        assert_eq!(emptied.len() as u64, long_len, "the file keeps its length");
        assert_eq!(emptied[0], EMPTY);
        assert!(!store.journal_waits().expect("emptied"));
        assert_eq!(store.recover(&outbox).expect("nothing"), Recovered::Nothing);
        // A shorter journal written over the longer one is whole, and what the
        // longer left after it is not part of it.
        let journal = journal_of("k", &[("boards/1.json", Some(&short))], &[]);
        store.write_journal(&journal).expect("write");
        assert_eq!(std::fs::metadata(&path).expect("journal").len(), long_len);
        assert_eq!(
            store.recover(&outbox).expect("completed"),
            Recovered::Completed
        );
        assert_eq!(
            std::fs::read(store.home().join("boards/1.json")).expect("board"),
            short
        );
        assert!(!store.journal_waits().expect("emptied"));
        // A journal past the size kept is cut to nothing when emptied.
        commit(&vec![1u8; KEEP_AT_MOST as usize]);
        assert_eq!(std::fs::metadata(&path).expect("journal").len(), 0);
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
