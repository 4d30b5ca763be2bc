//! Atomic file writes and batched durability, for the mail spool and outbox and the
//! server's store; it depends on nothing else of this crate. A mail's effect is many
//! small files (a game file, a seen mark, replies); making each durable on its own
//! costs two flushes of the disk (the file, then its folder). Here they are written
//! without any ([`write_deferred`], still atomic for readers: temp file, then rename or
//! hard link), their folders recorded in a [`Pending`], and made durable together by
//! [`Pending::sync`]: one `syncfs` per file system on Linux, an fsync of every file and
//! folder elsewhere. [`write_durable`] is the same write made durable at once.
//!
//! Callers order their steps so that nothing depends on a deferred write before its
//! `sync` (the store's journal is made durable first, on its own; see
//! `server/store/journal/`).
//!
//! Every file written here is the server's user's alone (mode 0600, whatever the
//! umask: the store, the spool and the outbox hold reply tokens, verify codes and
//! addresses) unless its caller says it is [`Readers::Everyone`]'s (mode 0644 at most:
//! the web site's public pages); folders made by [`create_dir`] likewise (0700 or
//! 0755), issue 25 finding 14. [`fault`] holds the crash tests' fault injection,
//! compiled in only for debug builds and the `fault-injection` feature.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub mod fault;

/// Files written or removed without an fsync, waiting for [`Pending::sync`].
#[derive(Debug, Default)]
pub struct Pending {
    /// Files written (fsynced one by one where there is no `syncfs`).
    files: Vec<PathBuf>,
    /// Folders whose entries changed (a set: a build of many folders records each
    /// once without searching a list).
    dirs: BTreeSet<PathBuf>,
}

impl Pending {
    /// Records that `path` was written.
    pub fn wrote(&mut self, path: &Path) {
        self.files.push(path.to_path_buf());
        self.removed(path);
    }

    /// Records that `path` was removed (or renamed away): its folder changed.
    pub fn removed(&mut self, path: &Path) {
        let dir = folder_of(path);
        if !self.dirs.contains(dir) {
            self.dirs.insert(dir.to_path_buf());
        }
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// How many files wait (written since the last [`Pending::sync`]).
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Makes every recorded write and removal durable, then forgets them. On Linux:
    /// one `syncfs` for each file system the folders are on (the home, and an outbox
    /// elsewhere); on other systems, an fsync of each file, then of each folder.
    pub fn sync(&mut self) -> io::Result<()> {
        sync_all(&self.files, &self.dirs)?;
        self.files.clear();
        self.dirs.clear();
        Ok(())
    }
}

#[cfg(target_os = "linux")]
fn sync_all(_files: &[PathBuf], dirs: &BTreeSet<PathBuf>) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let mut done: Vec<u64> = Vec::new();
    for dir in dirs {
        let handle = File::open(dir)?;
        let dev = handle.metadata()?.dev();
        if !done.contains(&dev) {
            rustix::fs::syncfs(&handle)?;
            done.push(dev);
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn sync_all(files: &[PathBuf], dirs: &BTreeSet<PathBuf>) -> io::Result<()> {
    for f in files {
        match File::open(f) {
            Ok(file) => file.sync_all()?,
            // Written, then replaced or removed by a later step: its folder covers it.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    for d in dirs {
        sync_dir(d)?;
    }
    Ok(())
}

/// The folder holding `path` (`.` for a bare file name).
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes the folder's entries (new names, removals) durable.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    if cfg!(unix) {
        File::open(dir)?.sync_all()
    } else {
        Ok(())
    }
}

/// What a write does when its file is already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Replace it (the temp file is renamed over it).
    Replace,
    /// Keep it and write nothing (the temp file is hard-linked to the name, which
    /// fails on an existing name).
    Keep,
}

/// Who may read a file or folder the server writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readers {
    /// The server's user only: files 0600, folders 0700, whatever the umask.
    Owner,
    /// Anyone (the web site's pages): files 0644, folders 0755 at most (the umask may
    /// take more away, never add).
    Everyone,
}

impl Readers {
    /// The mode of a new file.
    pub fn file_mode(self) -> u32 {
        match self {
            Readers::Owner => 0o600,
            Readers::Everyone => 0o644,
        }
    }

    /// The mode of a new folder.
    pub fn dir_mode(self) -> u32 {
        match self {
            Readers::Owner => 0o700,
            Readers::Everyone => 0o755,
        }
    }

    /// Options that create a file with [`file_mode`](Readers::file_mode) (on Unix; the
    /// caller adds what it opens the file for).
    ///
    /// ```
    /// # fn main() -> std::io::Result<()> {
    /// use yinsh_pbem::durable::Readers;
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("secret");
    /// Readers::Owner.options().write(true).create_new(true).open(&path)?;
    /// # #[cfg(unix)]
    /// # {
    /// use std::os::unix::fs::PermissionsExt;
    /// assert_eq!(std::fs::metadata(&path)?.permissions().mode() & 0o777, 0o600);
    /// # }
    /// # Ok(())
    /// # }
    /// ```
    pub fn options(self) -> OpenOptions {
        let mut options = OpenOptions::new();
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, self.file_mode());
        options
    }
}

/// Creates `dir` and its missing parents, each new one with `readers`'
/// [`dir_mode`](Readers::dir_mode) (on Unix); an existing folder is left as it is.
pub fn create_dir(dir: &Path, readers: Readers) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, readers.dir_mode());
    #[cfg(not(unix))]
    let _ = readers;
    builder.create(dir)
}

/// When the bytes of a write reach the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flush {
    /// The temp file is fsynced before it takes the name.
    Now,
    /// Left to a later [`Pending::sync`].
    Later,
}

/// Writes `bytes` to `path` atomically for readers (a temp file `.NAME.PID.N.tmp` in
/// the same folder, then a rename for [`Existing::Replace`], else a hard link that
/// keeps an existing file), without making it durable: `pending` records it for a
/// later [`Pending::sync`]. With [`Existing::Keep`], an existing file is kept and
/// nothing is recorded. The file is the server's user's alone ([`Readers::Owner`]);
/// [`write_public_deferred`] writes one for everyone.
///
/// ```
/// # fn main() -> std::io::Result<()> {
/// use yinsh_pbem::durable::{Existing, Pending, write_deferred};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("a.txt");
/// let mut pending = Pending::default();
/// write_deferred(&path, b"one", Existing::Keep, &mut pending)?;
/// write_deferred(&path, b"two", Existing::Keep, &mut pending)?; // kept
/// assert_eq!(std::fs::read(&path)?, b"one");
/// pending.sync()?;
/// assert!(pending.is_empty());
/// # Ok(())
/// # }
/// ```
pub fn write_deferred(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    pending: &mut Pending,
) -> io::Result<()> {
    if place(path, bytes, existing, Readers::Owner, Flush::Later, |_| {
        Ok(())
    })? {
        pending.wrote(path);
    }
    Ok(())
}

/// [`write_deferred`] of a file everyone may read ([`Readers::Everyone`]): the web
/// site's pages, and nothing else.
pub fn write_public_deferred(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    pending: &mut Pending,
) -> io::Result<()> {
    if place(
        path,
        bytes,
        existing,
        Readers::Everyone,
        Flush::Later,
        |_| Ok(()),
    )? {
        pending.wrote(path);
    }
    Ok(())
}

/// Writes `bytes` over `path` in place (creating it if missing, the server's user's
/// alone), without making it durable: `pending` records it for a later
/// [`Pending::sync`]. No temp file, so no new inode is found and no old one freed
/// with its blocks (on ext4 without a journal and with online discard, where a home
/// may well be, the two cost ten times the write). Not atomic: a reader meanwhile,
/// or a crash, may find it torn, so it is only for a file read under the lock its
/// writers hold and written from a committed journal, which a crash has written
/// again before anyone reads it.
///
/// ```
/// # fn main() -> std::io::Result<()> {
/// use yinsh_pbem::durable::{Pending, overwrite_deferred};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("count.json");
/// let mut pending = Pending::default();
/// overwrite_deferred(&path, b"{\"count\":10}", &mut pending)?;
/// overwrite_deferred(&path, b"{\"count\":9}", &mut pending)?;
/// assert_eq!(std::fs::read(&path)?, b"{\"count\":9}");
/// pending.sync()?;
/// # Ok(())
/// # }
/// ```
pub fn overwrite_deferred(path: &Path, bytes: &[u8], pending: &mut Pending) -> io::Result<()> {
    let file = overwrite_in_place(path, bytes)?;
    let len = bytes.len() as u64;
    if file.metadata()?.len() != len {
        // Within the file's last block when a count shrinks: no block is freed.
        file.set_len(len)?;
    }
    pending.wrote(path);
    Ok(())
}

/// Writes `bytes` at the start of `path` (creating it if missing, the server's user's
/// alone), neither cutting it nor making it durable, and returns the open file: what
/// an older, longer content left after them stays, for the caller to cut or to tell
/// from its own bytes ([`overwrite_deferred`]; the kept pictures).
pub fn overwrite_in_place(path: &Path, bytes: &[u8]) -> io::Result<File> {
    let mut file = Readers::Owner
        .options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    file.write_all(bytes)?;
    Ok(file)
}

/// [`write_deferred`] made durable at once: the temp file is fsynced before it takes
/// the name, the folder after. The file is the server's user's alone.
pub fn write_durable(path: &Path, bytes: &[u8], existing: Existing) -> io::Result<()> {
    place(
        path,
        bytes,
        existing,
        Readers::Owner,
        Flush::Now,
        |_| Ok(()),
    )?;
    sync_dir(folder_of(path))
}

/// Removes `path`, its removal made durable by a later [`Pending::sync`]; a file
/// already gone is fine.
pub fn remove_deferred(path: &Path, pending: &mut Pending) -> io::Result<()> {
    match fs::remove_file(path) {
        Ok(()) => {
            pending.removed(path);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Removes the temp files (`.NAME.PID.N.tmp`, see [`write`]) a killed process left in
/// `dir`; returns how many. Only for a folder no other process writes meanwhile (the
/// caller holds the lock its writers take). A missing folder holds none.
pub fn remove_leftover_temps(dir: &Path) -> io::Result<usize> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.ends_with(".tmp") {
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(removed)
}

/// The temp file name for `path`: `.NAME.PID.N.tmp` beside it (`N` counts within the
/// process, the pid makes it unique between processes; the leading dot keeps it out
/// of every listing of records).
fn temp_for(path: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let Some(name) = path.file_name() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        ));
    };
    Ok(folder_of(path).join(format!(
        ".{}.{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )))
}

/// The shared steps of an atomic write; `before_place` runs on the finished temp file
/// just before it takes the name (the tests use it to fail at the last moment). On
/// any failure the temp file is removed and the target left as it was. Returns whether
/// the file was created or replaced (false: it existed and was kept).
fn place(
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    readers: Readers,
    flush: Flush,
    before_place: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<bool> {
    if existing == Existing::Keep && path.exists() {
        return Ok(false);
    }
    let tmp = temp_for(path)?;
    let result = write_tmp_then_place(&tmp, path, bytes, existing, readers, flush, before_place);
    if result.is_err() || existing == Existing::Keep {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The steps of [`place`] that need clean-up of `tmp` on failure.
fn write_tmp_then_place(
    tmp: &Path,
    path: &Path,
    bytes: &[u8],
    existing: Existing,
    readers: Readers,
    flush: Flush,
    before_place: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<bool> {
    let mut file = readers.options().write(true).create_new(true).open(tmp)?;
    file.write_all(bytes)?;
    if flush == Flush::Now {
        file.sync_all()?;
    }
    drop(file);
    before_place(tmp)?;
    if existing == Existing::Replace {
        fs::rename(tmp, path)?;
        return Ok(true);
    }
    match fs::hard_link(tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links: check, then rename (a tiny race with a
        // concurrent put of the same id, which would write the same mail).
        Err(_) if !path.exists() => {
            fs::rename(tmp, path)?;
            Ok(true)
        }
        Err(_) => Ok(false),
    }
}

/// Takes the exclusive `flock` on `file`, waiting at most `wait` for its holder (it
/// polls: a blocked `flock` cannot time out). `Ok(false)` when the wait ran out.
pub fn lock_within(file: &File, wait: std::time::Duration) -> io::Result<bool> {
    let deadline = std::time::Instant::now() + wait;
    let mut pause = std::time::Duration::from_millis(5);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(fs::TryLockError::WouldBlock) => {}
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        let now = std::time::Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(std::time::Duration::from_millis(200));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftover_temps_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mail = dir.path().join("m1.eml");
        let temp = temp_for(&mail).expect("temp name");
        fs::write(&temp, b"half a mail").expect("temp");
        fs::write(&mail, b"a whole mail").expect("mail");
        fs::write(dir.path().join("notes.tmp"), b"not ours").expect("other");
        assert_eq!(remove_leftover_temps(dir.path()).expect("sweep"), 1);
        assert!(!temp.exists() && mail.exists() && dir.path().join("notes.tmp").exists());
        assert_eq!(
            remove_leftover_temps(&dir.path().join("none")).expect("none"),
            0
        );
    }

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
        write_durable(&path, b"old\n", Existing::Replace).expect("first write");
        let mut seen = None;
        let err = place(
            &path,
            b"new\n",
            Existing::Replace,
            Readers::Owner,
            Flush::Now,
            |tmp| {
                // The temp file is complete and beside the target when the hook runs.
                seen = Some((tmp.to_path_buf(), fs::read(tmp)?));
                Err(io::Error::other("simulated failure"))
            },
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
        place(
            &path,
            b"x",
            Existing::Replace,
            Readers::Owner,
            Flush::Later,
            |tmp| {
                name = tmp
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Ok(())
            },
        )
        .expect("write");
        let pid = std::process::id().to_string();
        assert!(name.starts_with(".7.json."), "{name}");
        assert!(name.ends_with(".tmp"), "{name}");
        assert!(name.contains(&pid), "{name}");
        assert_eq!(fs::read(&path).expect("read"), b"x");
    }

    #[test]
    fn a_durable_write_without_overwrite_keeps_the_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("entry.msg");
        write_durable(&path, b"first", Existing::Keep).expect("create");
        write_durable(&path, b"second", Existing::Keep).expect("an existing file is not an error");
        assert_eq!(fs::read(&path).expect("read"), b"first");
        assert!(
            !place(
                &path,
                b"third",
                Existing::Keep,
                Readers::Owner,
                Flush::Now,
                |_| Ok(())
            )
            .expect("place")
        );
        write_durable(&path, b"fourth", Existing::Replace).expect("overwrite");
        assert_eq!(fs::read(&path).expect("read"), b"fourth");
        assert_eq!(temp_files(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn deferred_writes_are_visible_at_once_and_synced_together() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut pending = Pending::default();
        assert!(pending.is_empty());
        let a = dir.path().join("a");
        let b = dir.path().join("sub").join("b");
        fs::create_dir(dir.path().join("sub")).expect("mkdir");
        write_deferred(&a, b"one", Existing::Replace, &mut pending).expect("write a");
        write_deferred(&b, b"two", Existing::Keep, &mut pending).expect("write b");
        assert_eq!(
            pending.files,
            [a.clone(), b.clone()],
            "both writes are recorded"
        );
        // A second put without overwrite keeps the first, and records nothing.
        write_deferred(&b, b"other", Existing::Keep, &mut pending).expect("again");
        assert_eq!(pending.files, [a.clone(), b.clone()], "{pending:?}");
        assert_eq!(fs::read(&a).expect("read a"), b"one");
        assert_eq!(fs::read(&b).expect("read b"), b"two");
        assert_eq!(pending.dirs.len(), 2, "{pending:?}");
        pending.sync().expect("sync");
        assert!(pending.is_empty());
        let left: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left.len(), 2, "no temp file is left: {left:?}");
    }
}
