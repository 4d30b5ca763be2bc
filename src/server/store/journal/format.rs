//! The journal file's format: a header line `yinsh-pbem-journal <length> <FNV-1a 64
//! of the body>` (the length zero-padded to 20 digits, so the header has one width
//! and is written in place over a header of zeros once the body is streamed), then a
//! JSON body of format version 3:
//!
//! ```text
//! {"v":3,"key":…,"files":[{"path":…,"text":…} or {"path":…,"content":"<hex>"} or
//! {"path":…,"content":null}…],"replies":[{"id":…,"from":…,"to":[…],"text":…} or
//! {…,"bytes":"<hex>"}…]}
//! ```
//!
//! A content is a JSON string as it is when it is UTF-8 (as records and mails nearly
//! always are), else lower-case hex; `null` removes the file. The body is written by
//! serde ([`Journal`]'s `Serialize`, streamed: no copy of the replies is made) and
//! read by serde ([`StoredJournal`]); format 2 (every content in hex), left by older
//! versions, is read too. A body is believed only when the header's length and
//! checksum match it ([`body_of`]): what a crash cut short was never committed.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::mail::BuiltMail;

use super::super::tx::Change;
use super::super::{Store, StoreError};

/// The first word of a journal's header line.
pub(super) const MAGIC: &str = "yinsh-pbem-journal";

/// What an emptied journal file starts with: a blank line where a header would be.
/// The file keeps its length and its blocks, and the next journal is written over
/// them (freeing them and finding them again cost more than the flush of the journal
/// itself, on ext4 with online discard); what follows the mark is never read.
pub(super) const EMPTY: u8 = b'\n';

/// FNV-1a, 64 bits: a checksum that tells a whole journal from a torn one (and the
/// name of the seen marks of earlier versions). Not a key for text from outside: it
/// can be collided on purpose (`seen.rs` uses SHA-256).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_from(FNV_BASIS, bytes)
}

/// FNV-1a 64's offset basis.
pub(super) const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

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
pub(super) fn header(len: u64, sum: u64) -> String {
    format!("{MAGIC} {len:020} {sum:016x}\n")
}

/// A journal file's bytes: the header line, then `body`.
#[cfg(test)]
pub(super) fn framed(body: &[u8]) -> Vec<u8> {
    let mut bytes = header(body.len() as u64, fnv1a64(body)).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Passes the body on to the file, counting and hashing it for the header.
pub(super) struct Framing<W> {
    pub(super) inner: W,
    pub(super) len: u64,
    pub(super) sum: u64,
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

/// The body of a journal file, if its header is ours and matches the body (the
/// header's length of bytes after it; what follows them is an older journal's).
pub(super) fn body_of(bytes: &[u8]) -> Option<&[u8]> {
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

/// One mail's effect as the commit writes it: the transaction's file changes and the
/// built replies, borrowed; their bytes go into the journal file (as text, or hex) as
/// it is written, so that committing holds no copy of them (`docs/performance.md`).
pub struct Journal<'a> {
    /// The mail's key (its Message-ID, or a hash of its bytes).
    pub(super) key: &'a str,
    /// Files to write or remove, relative to the home.
    pub(super) files: Vec<FileOut<'a>>,
    /// Replies to spool.
    pub(super) replies: &'a [BuiltMail],
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

/// A file change in a journal being written.
pub(super) struct FileOut<'a> {
    /// The path relative to the home, e.g. `boards/101.json`.
    pub(super) path: String,
    /// The new bytes, borrowed (written into the file as text or hex, no copy made:
    /// [`Content`]); `None` removes the file.
    pub(super) content: Option<&'a [u8]>,
}

/// Bytes as a journal holds them: the field `"text"` when they are UTF-8, else the
/// hex field the entry names.
#[derive(Clone, Copy)]
enum Content<'a> {
    Text(&'a str),
    Hex(&'a [u8]),
}

impl<'a> Content<'a> {
    fn of(bytes: &'a [u8]) -> Content<'a> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(_) => Content::Hex(bytes),
        }
    }

    /// Serializes this content as the field `text`, or as `hex_field` in hex.
    fn field<S: SerializeStruct>(self, s: &mut S, hex_field: &'static str) -> Result<(), S::Error> {
        match self {
            Content::Text(text) => s.serialize_field("text", text),
            Content::Hex(bytes) => s.serialize_field(hex_field, &Hex(bytes)),
        }
    }
}

/// Bytes as a string of lower-case hex, streamed a few kB at a time.
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut buf = [0u8; 4096];
        for chunk in self.0.chunks(buf.len() / 2) {
            for (pair, &b) in buf.chunks_exact_mut(2).zip(chunk) {
                pair[0] = DIGITS[usize::from(b >> 4)];
                pair[1] = DIGITS[usize::from(b & 0x0f)];
            }
            // Hex digits are ASCII.
            f.write_str(std::str::from_utf8(&buf[..2 * chunk.len()]).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for FileOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("File", 2)?;
        st.serialize_field("path", &self.path)?;
        match self.content {
            Some(bytes) => Content::of(bytes).field(&mut st, "content")?,
            None => st.serialize_field("content", &None::<&str>)?,
        }
        st.end()
    }
}

/// A built reply as the journal writes it.
struct ReplyOut<'a>(&'a BuiltMail);

impl Serialize for ReplyOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut st = s.serialize_struct("Reply", 4)?;
        st.serialize_field("id", &m.id)?;
        st.serialize_field("from", &m.envelope_from)?;
        st.serialize_field("to", &m.recipients)?;
        Content::of(&m.bytes).field(&mut st, "bytes")?;
        st.end()
    }
}

/// The replies of a journal, each as [`ReplyOut`].
struct RepliesOut<'a>(&'a [BuiltMail]);

impl Serialize for RepliesOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(ReplyOut))
    }
}

impl Serialize for Journal<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Journal", 4)?;
        st.serialize_field("v", &3)?;
        st.serialize_field("key", self.key)?;
        st.serialize_field("files", &self.files)?;
        st.serialize_field("replies", &RepliesOut(self.replies))?;
        st.end()
    }
}

impl Journal<'_> {
    /// Writes the journal's body (format version 3, compact JSON), the JSON that
    /// [`StoredJournal`] reads.
    pub(super) fn write_body(&self, out: &mut impl Write) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }
}

/// A journal file as read back: format version 3, or 2 (every content in hex) as an
/// older version of the program left it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StoredJournal {
    /// The format version (3, or 2).
    #[serde(rename = "v")]
    _v: u32,
    /// The mail's key.
    pub(super) key: String,
    pub(super) files: Vec<StoredFile>,
    pub(super) replies: Vec<StoredReply>,
}

/// A file change in a journal read back.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StoredFile {
    /// The path relative to the home, e.g. `boards/101.json`.
    pub(super) path: String,
    /// The new content as hex bytes; `None` (and no `text`) removes the file.
    #[serde(default)]
    pub(super) content: Option<String>,
    /// The new content as it is, when it is UTF-8 (version 3).
    #[serde(default)]
    pub(super) text: Option<String>,
}

/// A built reply in a journal read back.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StoredReply {
    /// Its Message-ID, without `<>`.
    pub(super) id: String,
    /// The envelope sender.
    pub(super) from: String,
    /// The envelope recipients.
    pub(super) to: Vec<String>,
    /// The message bytes as hex (when they are not UTF-8, and in version 2).
    #[serde(default)]
    pub(super) bytes: Option<String>,
    /// The message as it is, when it is UTF-8 (version 3).
    #[serde(default)]
    pub(super) text: Option<String>,
}

/// The bytes a stored content names: as hex, as text, or none; both is a broken journal.
pub(super) fn stored_bytes(
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

pub(super) fn unhex(s: &str, path: &Path) -> Result<Vec<u8>, StoreError> {
    hex::decode(s).map_err(|_| {
        StoreError::io(
            "decode",
            path,
            io::Error::new(io::ErrorKind::InvalidData, "not hex"),
        )
    })
}
