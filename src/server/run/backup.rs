//! `yinsh-pbem backup FILE` and `yinsh-pbem restore FILE`: the whole store as one tar
//! archive (the `tar` crate's ustar/GNU format, readable by `tar -tf`), taken under
//! the store's lock after completing any journal a killed run left, so it is one
//! consistent moment of the store: accounts, games, `reply-key`, `seen/`, the spool
//! and the outbox, the indexes, the counters, the log. Only `lock`, `counters.lock` and the temp files
//! of an atomic write (`.NAME.PID.N.tmp`) are left out. The archive is written whole
//! beside FILE, mode 0600 (it holds password hashes and the reply key), then renamed.
//!
//! `restore` unpacks such an archive into a home that is missing or empty (it never
//! mixes two stores), after checking every entry: plain files and folders only, each
//! path inside the home, a `reply-key` among them. It unpacks into a folder beside
//! the home, then renames that folder into place.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Component, Path, PathBuf};

use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::txn::Locked;

/// Why a backup or a restore failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The store could not be opened, locked or recovered.
    #[error(transparent)]
    Store(#[from] InternalError),
    /// Reading or writing a file failed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// `backup` was given a home no run has made.
    #[error("{} holds no store (no reply-key): nothing to back up", home.display())]
    NoStore {
        /// The home.
        home: PathBuf,
    },
    /// `restore` was given a home that already holds files.
    #[error(
        "{} is not empty: restore only into a missing or empty home (move the old one away first)",
        home.display()
    )]
    NotEmpty {
        /// The home.
        home: PathBuf,
    },
    /// An entry of the archive is not one a backup writes.
    #[error("{} is not a yinsh-pbem backup: its entry {entry:?} is {what}", file.display())]
    BadEntry {
        /// The archive.
        file: PathBuf,
        /// The entry's name as written.
        entry: String,
        /// What is wrong with it.
        what: &'static str,
    },
    /// The archive holds no `reply-key`.
    #[error("{} is not a yinsh-pbem backup: it holds no reply-key", file.display())]
    NotABackup {
        /// The archive.
        file: PathBuf,
    },
}

/// What a backup or a restore did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Archived {
    /// The files written or unpacked.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
}

fn io_error<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> BackupError + 'a {
    move |source| BackupError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the store of `settings` into the archive `file`, under the store's lock.
pub fn backup(settings: &Settings, file: &Path) -> Result<Archived, BackupError> {
    let home = &settings.home;
    if !home.join("reply-key").is_file() {
        return Err(BackupError::NoStore { home: home.clone() });
    }
    let store = Store::open(home).map_err(InternalError::from)?;
    let (_locked, _recovered) = Locked::take(&store, settings)?;
    let name = file
        .file_name()
        .map_or("backup".into(), |n| n.to_string_lossy().into_owned());
    let tmp = file.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = write_archive(home, &tmp).and_then(|done| {
        std::fs::rename(&tmp, file).map_err(io_error("rename the archive to", file))?;
        Ok(done)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The archive of `home`, written into the new file `to` (mode 0600) and synced.
fn write_archive(home: &Path, to: &Path) -> Result<Archived, BackupError> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)
        .map_err(io_error("create", to))?;
    let mut tar = tar::Builder::new(BufWriter::new(out));
    tar.follow_symlinks(false);
    let mut done = Archived { files: 0, bytes: 0 };
    add_folder(&mut tar, home, Path::new(""), &mut done)?;
    let out = tar
        .into_inner()
        .map_err(io_error("write", to))?
        .into_inner()
        .map_err(|e| BackupError::Io {
            action: "write",
            path: to.to_path_buf(),
            source: e.into_error(),
        })?;
    out.sync_all().map_err(io_error("sync", to))?;
    Ok(done)
}

/// Adds the entries of the folder `home/rel` (sorted by name), then recurses.
fn add_folder(
    tar: &mut tar::Builder<BufWriter<File>>,
    home: &Path,
    rel: &Path,
    done: &mut Archived,
) -> Result<(), BackupError> {
    let dir = home.join(rel);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .map_err(io_error("list", &dir))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(io_error("list", &dir))?;
    names.sort();
    for name in names {
        let text = name.to_string_lossy();
        let temp = text.starts_with('.') && text.ends_with(".tmp");
        if temp || (rel.as_os_str().is_empty() && matches!(&*text, "lock" | "counters.lock")) {
            continue;
        }
        let path = dir.join(&name);
        let entry = rel.join(&name);
        let meta = std::fs::symlink_metadata(&path).map_err(io_error("read", &path))?;
        if meta.is_dir() {
            tar.append_dir(&entry, &path)
                .map_err(io_error("archive", &path))?;
            add_folder(tar, home, &entry, done)?;
        } else if meta.is_file() {
            let mut f = File::open(&path).map_err(io_error("read", &path))?;
            tar.append_file(&entry, &mut f)
                .map_err(io_error("archive", &path))?;
            done.files += 1;
            done.bytes += meta.len();
        }
    }
    Ok(())
}

/// Unpacks the archive `file` into `home`, which must be missing or empty.
pub fn restore(home: &Path, file: &Path) -> Result<Archived, BackupError> {
    if let Ok(mut entries) = std::fs::read_dir(home)
        && entries.next().is_some()
    {
        return Err(BackupError::NotEmpty {
            home: home.to_path_buf(),
        });
    }
    let done = check(file)?;
    let name = home
        .file_name()
        .map_or("home".into(), |n| n.to_string_lossy().into_owned());
    let staging = home.with_file_name(format!(".{name}.restoring.{}", std::process::id()));
    let unpacked = (|| {
        std::fs::create_dir(&staging).map_err(io_error("create", &staging))?;
        let f = File::open(file).map_err(io_error("read", file))?;
        let mut archive = tar::Archive::new(io::BufReader::new(f));
        archive.set_preserve_permissions(true);
        archive.set_preserve_mtime(true);
        archive
            .unpack(&staging)
            .map_err(io_error("unpack the archive into", &staging))?;
        sync_tree(&staging)?;
        // An empty home is replaced by the rename; a missing one is made by it.
        std::fs::rename(&staging, home).map_err(io_error("rename the restored store to", home))
    })();
    if unpacked.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    unpacked.map(|()| done)
}

/// Reads every entry of the archive `file` without unpacking it: plain files and
/// folders only, relative paths that stay inside the home, a `reply-key` among them.
fn check(file: &Path) -> Result<Archived, BackupError> {
    let f = File::open(file).map_err(io_error("read", file))?;
    let mut archive = tar::Archive::new(io::BufReader::new(f));
    let mut done = Archived { files: 0, bytes: 0 };
    let mut has_key = false;
    let bad = |entry: &str, what| BackupError::BadEntry {
        file: file.to_path_buf(),
        entry: entry.to_string(),
        what,
    };
    for entry in archive.entries().map_err(io_error("read", file))? {
        let entry = entry.map_err(io_error("read", file))?;
        let path = entry.path().map_err(io_error("read", file))?.into_owned();
        let shown = path.to_string_lossy().into_owned();
        if !path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(bad(&shown, "a path outside the home"));
        }
        match entry.header().entry_type() {
            tar::EntryType::Regular => {
                done.files += 1;
                done.bytes += entry.size();
                has_key |= path == Path::new("reply-key");
            }
            tar::EntryType::Directory => {}
            _ => return Err(bad(&shown, "neither a file nor a folder")),
        }
    }
    if !has_key {
        return Err(BackupError::NotABackup {
            file: file.to_path_buf(),
        });
    }
    Ok(done)
}

/// Syncs every file and folder under `dir`, so the restored store is on the disk
/// before it is renamed into place.
fn sync_tree(dir: &Path) -> Result<(), BackupError> {
    for entry in std::fs::read_dir(dir).map_err(io_error("list", dir))? {
        let path = entry.map_err(io_error("list", dir))?.path();
        if path.is_dir() {
            sync_tree(&path)?;
        } else {
            File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(io_error("sync", &path))?;
        }
    }
    File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(io_error("sync", dir))?;
    Ok(())
}
