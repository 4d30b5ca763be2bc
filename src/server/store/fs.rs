//! The file-system discipline of the store: atomic writes (temp file in the same
//! folder, fsync, rename, fsync the folder; [`crate::durable`] does the file work), JSON
//! reads that name the file on every failure, folder listings that skip our own temp
//! files, and the one exclusive lock on `<home>/lock`.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, ThreadId};

use serde::Serialize;

use super::StoreError;
use crate::durable::{self, Existing, Pending, Readers, fault, folder_of};

/// Writes `bytes` to `path` atomically: readers see the old content or the new, never
/// a mix, and a crash leaves at worst a `.NAME.PID.N.tmp` file beside the target.
///
/// The bytes go to a new temp file in the target's folder, which is fsynced and then
/// renamed over the target; the folder is fsynced last so the rename survives a power
/// cut. On any failure before the rename the temp file is removed and the old file
/// is left as it was ([`crate::durable`] does the file work).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("note.txt");
/// yinsh_pbem::server::store::write_atomic(&path, b"hello\n")?;
/// assert_eq!(std::fs::read(&path)?, b"hello\n");
/// # Ok(())
/// # }
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    fault::write_error()
        .and_then(|()| durable::write_durable(path, bytes, Existing::Replace))
        .map_err(|e| StoreError::io("write", path, e))
}

/// [`write_atomic`] without the fsyncs: readers see the old content or the new, and
/// `pending` records the file so that a later [`Pending::sync`] makes it durable.
pub(crate) fn write_deferred(
    path: &Path,
    bytes: &[u8],
    pending: &mut Pending,
) -> Result<(), StoreError> {
    fault::write_error()
        .and_then(|()| durable::write_deferred(path, bytes, Existing::Replace, pending))
        .map_err(|e| StoreError::io("write", path, e))
}

/// [`durable::overwrite_deferred`]: `bytes` over `path` in place, for a file read
/// only under the lock and written from a committed journal (see there).
pub(crate) fn overwrite_deferred(
    path: &Path,
    bytes: &[u8],
    pending: &mut Pending,
) -> Result<(), StoreError> {
    fault::write_error()
        .and_then(|()| durable::overwrite_deferred(path, bytes, pending))
        .map_err(|e| StoreError::io("write", path, e))
}

/// Removes `path` and fsyncs its folder; a file that is already gone is fine.
pub(crate) fn remove(path: &Path) -> Result<(), StoreError> {
    let mut pending = Pending::default();
    remove_deferred(path, &mut pending)?;
    if pending.is_empty() {
        return Ok(());
    }
    sync_dir(folder_of(path))
}

/// [`remove`], made durable by a later [`Pending::sync`].
pub(crate) fn remove_deferred(path: &Path, pending: &mut Pending) -> Result<(), StoreError> {
    durable::remove_deferred(path, pending).map_err(|e| StoreError::io("remove", path, e))
}

/// Makes a rename or removal in `dir` durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    durable::sync_dir(dir).map_err(|e| StoreError::io("sync the folder", dir, e))
}

/// Creates `dir` (and its parents) if missing; on Unix a new `dir` gets `mode`.
pub(crate) fn create_dir(dir: &Path, mode: u32) -> Result<(), StoreError> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
    #[cfg(not(unix))]
    let _ = mode;
    builder
        .create(dir)
        .map_err(|e| StoreError::io("create the folder", dir, e))
}

/// Reads `path` as text; `None` when it does not exist.
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, StoreError> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|e| {
            StoreError::io(
                "read",
                path,
                io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
            )
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError::io("read", path, e)),
    }
}

/// `value` as the pretty JSON, with a trailing newline, that the store writes to `path`.
pub(crate) fn json_bytes<T: Serialize>(
    path: &Path,
    what: &'static str,
    value: &T,
) -> Result<Vec<u8>, StoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|source| StoreError::Encode {
        what,
        path: path.to_path_buf(),
        source,
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Calls `f` with the stem and path of each `*.json` file of `dir`, in the folder's
/// order, one at a time: a folder of a million games is read without holding a
/// million names (about 176 MiB at 1,000,000 games). Names starting with a dot (our
/// temp files) and names not ending in `.json` are not ours and are skipped; a
/// `.json` name that is not UTF-8 is an error naming it.
pub(crate) fn each_json(
    dir: &Path,
    mut f: impl FnMut(&str, PathBuf) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let entries = fs::read_dir(dir).map_err(|e| StoreError::io("list", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| StoreError::io("list", dir, e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            if name.to_string_lossy().ends_with(".json") {
                return Err(StoreError::StrayFile {
                    path: entry.path(),
                    expected: "a file name in UTF-8",
                });
            }
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        if let Some(stem) = name.strip_suffix(".json") {
            f(stem, entry.path())?;
        }
    }
    Ok(())
}

/// Which threads hold a [`StoreLock`] taken through one [`Store`](super::Store) (and
/// its clones), so a second `lock()` on the same thread fails instead of deadlocking.
pub(crate) type Holders = Arc<Mutex<Vec<ThreadId>>>;

/// The exclusive lock on `<home>/lock`, held until this value is dropped.
///
/// It is an advisory `flock` on the file: every process and every thread that opens
/// the file separately and locks it waits for the holder.
#[derive(Debug)]
#[must_use = "the lock is released as soon as this value is dropped"]
pub struct StoreLock {
    file: File,
    holders: Holders,
    thread: ThreadId,
}

impl StoreLock {
    /// Opens `path` (creating it) and blocks until the exclusive lock is ours, or
    /// for at most `wait` when one is given ([`StoreError::LockTimeout`] then).
    pub(crate) fn acquire(
        path: &Path,
        holders: &Holders,
        wait: Option<std::time::Duration>,
    ) -> Result<StoreLock, StoreError> {
        let thread = thread::current().id();
        if holds(holders) {
            return Err(StoreError::AlreadyLocked {
                path: path.to_path_buf(),
            });
        }
        let file = Readers::Owner
            .options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| StoreError::io("open the lock file", path, e))?;
        match wait {
            None => file.lock().map_err(|e| StoreError::io("lock", path, e))?,
            Some(wait) => {
                if !durable::lock_within(&file, wait)
                    .map_err(|e| StoreError::io("lock", path, e))?
                {
                    return Err(StoreError::LockTimeout {
                        path: path.to_path_buf(),
                        seconds: wait.as_secs(),
                    });
                }
            }
        }
        holders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(thread);
        Ok(StoreLock {
            file,
            holders: Arc::clone(holders),
            thread,
        })
    }
}

/// Whether the current thread holds a lock taken through these holders.
pub(crate) fn holds(holders: &Holders) -> bool {
    let me = thread::current().id();
    holders
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(&me)
}

impl Drop for StoreLock {
    fn drop(&mut self) {
        let mut holders = self.holders.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = holders.iter().position(|t| *t == self.thread) {
            holders.swap_remove(i);
        }
        drop(holders);
        // Closing the file would release the lock too; unlocking first is explicit.
        let _ = self.file.unlock();
    }
}
