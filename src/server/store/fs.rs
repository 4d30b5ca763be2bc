//! The file-system discipline of the store: atomic writes (temp file in the same
//! folder, fsync, rename, fsync the folder), JSON reads that name the file on every
//! failure, folder listings that skip our own temp files, and the one exclusive lock
//! on `<home>/lock`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, ThreadId};

use serde::Serialize;

use super::StoreError;
use crate::mail::durable::{self, Pending, folder_of};

/// Makes every temp file name unique within this process (the pid makes it unique
/// between processes).
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: readers see the old content or the new, never
/// a mix, and a crash leaves at worst a `.NAME.PID.N.tmp` file beside the target.
///
/// The bytes go to a new temp file in the target's folder, which is fsynced and then
/// renamed over the target; the folder is fsynced last so the rename survives a power
/// cut. On any failure before the rename the temp file is removed and the old file
/// is left as it was.
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
    write_atomic_with(path, bytes, |_| Ok(()), None)
}

/// [`write_atomic`] without the fsyncs: readers see the old content or the new, and
/// `pending` records the file so that a later [`Pending::sync`] makes it durable.
pub(crate) fn write_deferred(
    path: &Path,
    bytes: &[u8],
    pending: &mut Pending,
) -> Result<(), StoreError> {
    write_atomic_with(path, bytes, |_| Ok(()), Some(pending))
}

/// [`write_atomic`] with a hook run on the finished temp file just before the rename;
/// the tests use it to simulate a failure at the last moment. With `deferred`, no
/// fsync: the file is recorded there instead.
fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&Path) -> io::Result<()>,
    deferred: Option<&mut Pending>,
) -> Result<(), StoreError> {
    let Some(name) = path.file_name() else {
        return Err(StoreError::io(
            "write",
            path,
            io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"),
        ));
    };
    super::fault::write_error().map_err(|e| StoreError::io("write", path, e))?;
    let dir = folder_of(path);
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| StoreError::io("create the temp file", &tmp, e))?;
    let written = file
        .write_all(bytes)
        .map_err(|e| StoreError::io("write", &tmp, e))
        .and_then(|()| match deferred {
            Some(_) => Ok(()),
            None => file.sync_all().map_err(|e| StoreError::io("sync", &tmp, e)),
        });
    drop(file);
    let renamed = written
        .and_then(|()| before_rename(&tmp).map_err(|e| StoreError::io("finish", &tmp, e)))
        .and_then(|()| {
            fs::rename(&tmp, path).map_err(|e| StoreError::io("rename the temp file onto", path, e))
        });
    if let Err(e) = renamed {
        // Best effort: the error that matters is the one already in hand.
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    match deferred {
        Some(pending) => {
            pending.wrote(path);
            Ok(())
        }
        None => sync_dir(dir),
    }
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
    match fs::remove_file(path) {
        Ok(()) => {
            pending.removed(path);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StoreError::io("remove", path, e)),
    }
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

/// The `*.json` files of `dir` as (file stem, path), unsorted. Names starting with a
/// dot (our temp files) and names not ending in `.json` are not ours and are skipped;
/// a `.json` name that is not UTF-8 is an error naming it.
pub(crate) fn list_json(dir: &Path) -> Result<Vec<(String, PathBuf)>, StoreError> {
    let entries = fs::read_dir(dir).map_err(|e| StoreError::io("list", dir, e))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| StoreError::io("list", dir, e))?;
        let path = entry.path();
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            if name.to_string_lossy().ends_with(".json") {
                return Err(StoreError::StrayFile {
                    path,
                    expected: "a file name in UTF-8",
                });
            }
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        if let Some(stem) = name.strip_suffix(".json") {
            found.push((stem.to_string(), path));
        }
    }
    Ok(found)
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
    /// Opens `path` (creating it) and blocks until the exclusive lock is ours.
    pub(crate) fn acquire(path: &Path, holders: &Holders) -> Result<StoreLock, StoreError> {
        let thread = thread::current().id();
        if holds(holders) {
            return Err(StoreError::AlreadyLocked {
                path: path.to_path_buf(),
            });
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| StoreError::io("open the lock file", path, e))?;
        file.lock().map_err(|e| StoreError::io("lock", path, e))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_files(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn failure_just_before_the_rename_keeps_the_old_file_and_removes_the_temp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.json");
        write_atomic(&path, b"old\n").expect("first write");
        let mut seen = None;
        let err = write_atomic_with(
            &path,
            b"new\n",
            |tmp| {
                // The temp file is complete and beside the target when the hook runs.
                seen = Some((tmp.to_path_buf(), fs::read(tmp)?));
                Err(io::Error::other("simulated failure"))
            },
            None,
        )
        .expect_err("the hook fails the write");
        let (tmp, content) = seen.expect("the hook ran");
        assert_eq!(tmp.parent(), Some(dir.path()));
        assert_eq!(content, b"new\n");
        assert!(err.to_string().contains("simulated failure"), "{err}");
        assert_eq!(fs::read(&path).expect("read"), b"old\n");
        assert_eq!(temp_files(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn temp_names_are_hidden_and_carry_the_pid() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("7.json");
        let mut name = String::new();
        write_atomic_with(
            &path,
            b"x",
            |tmp| {
                name = tmp
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Ok(())
            },
            None,
        )
        .expect("write");
        let pid = std::process::id().to_string();
        assert!(name.starts_with(".7.json."), "{name}");
        assert!(name.ends_with(".tmp"), "{name}");
        assert!(name.contains(&pid), "{name}");
        assert_eq!(fs::read(&path).expect("read"), b"x");
    }

    #[test]
    fn a_second_lock_on_the_same_thread_is_an_error_not_a_deadlock() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("lock");
        let holders = Holders::default();
        let first = StoreLock::acquire(&path, &holders).expect("first lock");
        assert!(holds(&holders));
        let err = StoreLock::acquire(&path, &holders).expect_err("second lock");
        assert!(matches!(err, StoreError::AlreadyLocked { .. }), "{err}");
        drop(first);
        assert!(!holds(&holders));
        let _again = StoreLock::acquire(&path, &holders).expect("lock after release");
    }
}
