//! The temp files (`.NAME.PID.N.tmp`, see [`crate::durable`]) a killed run left in
//! the store's folders, removed under the lock: the folders a recovered journal names
//! and a fixed list of the folders the store writes into under its lock (the home
//! itself, and each listed folder with the folders directly inside it, such as
//! `seen/<day>/` and `index/players/`). Not `spool/` (a sender works there after the
//! lock is released, under the spool's own locks) nor `log/` (appended, never
//! replaced). Run on recovering a journal and with the daily expiry, so a temp file
//! of a run killed outside a journal is gone within a day.

use std::path::{Component, Path, PathBuf};

use super::{Store, StoreError};
use crate::durable;

/// The folders under the home the store writes into only under its lock (`daily.rs`'s
/// folders among them).
pub const FOLDERS: &[&str] = &[
    "accounts",
    "addresses",
    "boards",
    "challenges",
    "codes",
    "held",
    "index",
    "logins",
    "messages",
    "own",
    "pictures",
    "quota",
    "rate",
    "reviews",
    "robot-turns",
    "seen",
    "skeletons",
    "strangers",
    "unconfirmed",
];

/// Folders whose files are written by other processes without the store's lock.
const NOT_OURS: &[&str] = &["spool", "log"];

impl Store {
    /// Removes the leftover temp files of the home, of `FOLDERS` (and the folders
    /// directly inside them) and of the folders `named` (relative to the home, as a
    /// journal names its files' folders; any under `NOT_OURS` is skipped). Returns
    /// how many were removed. Hold the lock.
    pub fn remove_leftover_temps(&self, named: &[PathBuf]) -> Result<usize, StoreError> {
        let mut dirs: Vec<PathBuf> = vec![self.home().to_path_buf()];
        for folder in FOLDERS {
            let dir = self.home().join(folder);
            for e in read_dir(&dir)? {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    dirs.push(e.path());
                }
            }
            dirs.push(dir);
        }
        for rel in named {
            let inside = rel.components().all(|c| matches!(c, Component::Normal(_)));
            let first = rel.components().next().map(|c| c.as_os_str());
            if inside && !first.is_some_and(|f| NOT_OURS.iter().any(|n| f == *n)) {
                let dir = self.home().join(rel);
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
        }
        let mut removed = 0;
        for dir in &dirs {
            removed += sweep(self.home(), dir)?;
        }
        Ok(removed)
    }
}

/// Removes the temp files of `dir`, but in the home itself not the reply key's (the
/// reply key is made by [`Store::open`], before the lock is taken).
fn sweep(home: &Path, dir: &Path) -> Result<usize, StoreError> {
    if dir == home {
        let mut removed = 0;
        for e in read_dir(dir)? {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.')
                && name.ends_with(".tmp")
                && !name.starts_with(".reply-key.")
                && e.file_type().is_ok_and(|t| t.is_file())
            {
                super::fs::remove(&e.path())?;
                removed += 1;
            }
        }
        return Ok(removed);
    }
    durable::remove_leftover_temps(dir)
        .map_err(|e| StoreError::io("clean the temp files of", dir, e))
}

/// The entries of `dir` (none when it does not exist).
fn read_dir(dir: &Path) -> Result<Vec<std::fs::DirEntry>, StoreError> {
    match std::fs::read_dir(dir) {
        Ok(d) => Ok(d.flatten().collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(StoreError::io("list", dir, e)),
    }
}
