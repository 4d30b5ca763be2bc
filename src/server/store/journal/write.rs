//! Committing a journal: written in place into `<home>/journal/pending` and made
//! durable (the commit: the only write of a mail that is fsynced on its own), then
//! applied, then emptied.
//!
//! The file is kept with its length and blocks, emptied after use by a blank line over
//! its header ([`EMPTY`]), so a mail neither creates a file nor frees or finds blocks
//! for it; what follows a body is an older journal's end, never read. The body is
//! streamed into the file behind a header of zeros, then the true header is written
//! over those, so no copy of the replies is held in memory. A crash during the write
//! leaves a body that does not match its header: a torn journal, never committed.
//!
//! Applying writes every file and reply without an fsync each (atomic for readers:
//! temp file, then rename or hard link; but the storm counts of `rate/`, read only
//! under the lock, are written over in place: [`IN_PLACE`]), then makes them durable
//! together ([`Pending::sync`]), and only then empties the journal. A folder the
//! journal makes is 0755, or 0700 for the folders of private records ([`PRIVATE`]).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::durable::{self, Pending, Readers, fault};
use crate::mail::transport::write_to_outbox;
use crate::mail::{Spool, Transport};

use super::super::fs::{create_dir, overwrite_deferred, remove_deferred, write_deferred};
use super::super::{Store, StoreError};
use super::format::{EMPTY, FNV_BASIS, Framing, Journal, header};

/// The folders whose files a journal writes over in place, not by a temp file and a
/// rename (`durable::overwrite_deferred`): the storm counts of `rate/`, one a sender,
/// written by each of its mails and read only under the lock (`Store::count_mail`).
/// A crash that tears one leaves the journal that writes it whole again, and the
/// next run completes the journal before it reads anything.
const IN_PLACE: &[&str] = &["rate"];

/// The folders of the home whose records only the server's user may list and read
/// (mode 0700 when the journal makes them): the hard bounces of `bounces/`, which
/// name an address in clear, and the challenges' messages of `held/`, a player's words. (`accounts/`, `logins/`, the spool and the outbox are
/// made so by `Store::open`.)
const PRIVATE: &[&str] = &["bounces", "held"];

/// A journal file longer than this is cut to nothing when emptied, not kept for the
/// next one (the journal of a `multiple` of many pictured replies).
pub(super) const KEEP_AT_MOST: u64 = 1 << 20;

/// The first folder of `rel` (relative to the home), when `rel` names a file in it.
fn top_folder(rel: &Path) -> Option<&str> {
    let mut parts = rel.components();
    let folder = parts.next().and_then(|c| c.as_os_str().to_str());
    folder.filter(|_| parts.next().is_some())
}

/// Whether the journal writes the file `rel` (relative to the home) in place.
pub(super) fn written_in_place(rel: &Path) -> bool {
    top_folder(rel).is_some_and(|f| IN_PLACE.contains(&f))
}

/// The mode of a folder the journal makes for the file `rel`.
pub(super) fn folder_mode(rel: &Path) -> u32 {
    if top_folder(rel).is_some_and(|f| PRIVATE.contains(&f)) {
        0o700
    } else {
        0o755
    }
}

/// Where a journal's replies go: straight into the outbox folder, or the spool (for
/// the transports that send, and may fail).
enum Sink<'a> {
    Outbox(&'a Path),
    Spool(Spool),
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
    pub(super) fn write_journal(&self, journal: &Journal<'_>) -> Result<(), StoreError> {
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
    pub(super) fn clear_journal(&self) -> Result<(), StoreError> {
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
    pub(super) fn apply_journal(
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
                        create_dir(dir, folder_mode(rel))?;
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
}
