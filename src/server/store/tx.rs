//! Transactions: between [`Store::begin`] and [`Store::take_changes`] every write,
//! removal and board allocation made through a `Store` (or a clone) goes to an
//! in-memory overlay that later reads through the same `Store` see, and nothing
//! touches the disk. The caller then makes the changes durable all at once with a
//! [journal](super::journal), so that a crash leaves either nothing done or a journal
//! that the next run completes. Outside a transaction the same calls write through.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::fs::{each_json, read_text, remove, write_atomic};
use super::{Store, StoreError};
use crate::server::model::BoardId;

/// The buffered changes: path -> new content (`None`: removed).
pub(crate) type Overlay = Arc<Mutex<Option<BTreeMap<PathBuf, Option<Vec<u8>>>>>>;

/// One buffered change to a file of the home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file (absolute, or as the home was given).
    pub path: PathBuf,
    /// Its new content; `None` removes it.
    pub content: Option<Vec<u8>>,
}

impl Store {
    /// Starts buffering: until [`Store::take_changes`], writes through this store (and
    /// its clones) are kept in memory and seen by its reads. Hold the lock meanwhile.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use yinsh_pbem::server::store::Store;
    /// let dir = tempfile::tempdir()?;
    /// let store = Store::open(dir.path())?;
    /// let _lock = store.lock()?;
    /// store.begin();
    /// assert_eq!(store.allocate_board()?, 101);
    /// assert_eq!(store.allocate_board()?, 102);
    /// let changes = store.take_changes();
    /// assert_eq!(changes.len(), 1); // next-board, not yet on disk
    /// assert!(!store.counter_path().exists());
    /// # Ok(())
    /// # }
    /// ```
    pub fn begin(&self) {
        *self.overlay.lock().unwrap_or_else(PoisonError::into_inner) = Some(BTreeMap::new());
        *self
            .checked_next
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Ends buffering and returns the changes, sorted by path (empty when
    /// [`Store::begin`] was not called).
    pub fn take_changes(&self) -> Vec<Change> {
        self.overlay
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or_default()
            .into_iter()
            .map(|(path, content)| Change { path, content })
            .collect()
    }

    /// Whether a transaction is open on this store.
    pub fn in_transaction(&self) -> bool {
        self.overlay
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    /// The files the open transaction wrote so far (not those it removed).
    pub(crate) fn written_paths(&self) -> Vec<PathBuf> {
        self.overlay
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|o| {
                o.iter()
                    .filter(|(_, c)| c.is_some())
                    .map(|(p, _)| p.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The buffered state of `path`: `Some(Some(bytes))` written, `Some(None)`
    /// removed, `None` untouched (or no transaction).
    fn buffered(&self, path: &Path) -> Option<Option<Vec<u8>>> {
        self.overlay
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .and_then(|o| o.get(path).cloned())
    }

    /// Buffers the change if a transaction is open; `false` when there is none.
    fn buffer(&self, path: &Path, content: Option<Vec<u8>>) -> bool {
        let mut guard = self.overlay.lock().unwrap_or_else(PoisonError::into_inner);
        match guard.as_mut() {
            Some(o) => {
                o.insert(path.to_path_buf(), content);
                true
            }
            None => false,
        }
    }

    /// Reads `path` as text, through the overlay; `None` when it does not exist.
    pub(crate) fn read_text(&self, path: &Path) -> Result<Option<String>, StoreError> {
        match self.buffered(path) {
            Some(None) => Ok(None),
            Some(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|e| {
                StoreError::io(
                    "read",
                    path,
                    std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
                )
            }),
            None => read_text(path),
        }
    }

    /// Reads and parses the JSON file `path`, through the overlay.
    pub(crate) fn read_json<T: DeserializeOwned>(
        &self,
        path: &Path,
        what: &'static str,
    ) -> Result<Option<T>, StoreError> {
        parse_json(self.read_text(path)?, path, what)
    }

    /// Writes `bytes` to `path`: buffered in a transaction, atomically otherwise.
    pub fn write_file(&self, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        if self.buffer(path, Some(bytes.to_vec())) {
            Ok(())
        } else {
            write_atomic(path, bytes)
        }
    }

    /// Writes `value` as pretty JSON with a trailing newline (see [`Store::write_file`]).
    pub(crate) fn write_json<T: Serialize>(
        &self,
        path: &Path,
        what: &'static str,
        value: &T,
    ) -> Result<(), StoreError> {
        self.write_file(path, &super::fs::json_bytes(path, what, value)?)
    }

    /// Removes `path`: buffered in a transaction, at once otherwise.
    pub fn remove_file(&self, path: &Path) -> Result<(), StoreError> {
        if self.buffer(path, None) {
            Ok(())
        } else {
            remove(path)
        }
    }

    /// Whether this transaction has written or removed `path`.
    pub(crate) fn is_buffered(&self, path: &Path) -> bool {
        self.buffered(path).is_some()
    }

    /// Reads and parses the JSON file `path` as the disk holds it, before this
    /// transaction's changes.
    pub(crate) fn read_json_on_disk<T: DeserializeOwned>(
        &self,
        path: &Path,
        what: &'static str,
    ) -> Result<Option<T>, StoreError> {
        parse_json(read_text(path)?, path, what)
    }

    /// The paths this transaction has written or removed (none outside one).
    pub(crate) fn buffered_paths(&self) -> Vec<PathBuf> {
        self.overlay
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Calls `f` with the stem and path of each `*.json` file of `dir` as this
    /// transaction sees it (none when the folder does not exist): the folder's files
    /// the overlay has not touched, read a name at a time ([`each_json`]: a folder of
    /// a million games is never held as a million names), then the files the overlay
    /// has written there. `f` runs with the overlay's lock held, so it must not use
    /// the store.
    fn each_listed_json(
        &self,
        dir: &Path,
        mut f: impl FnMut(&str, &Path) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let guard = self.overlay.lock().unwrap_or_else(PoisonError::into_inner);
        let overlay = guard.as_ref();
        if dir.exists() {
            each_json(dir, |stem, path| {
                if overlay.is_some_and(|o| o.contains_key(&path)) {
                    return Ok(()); // the overlay's version is listed below
                }
                f(stem, &path)
            })?;
        }
        for (path, content) in overlay.into_iter().flatten() {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.parent() == Some(dir)
                && content.is_some()
                && !name.starts_with('.')
                && let Some(stem) = name.strip_suffix(".json")
            {
                f(stem, path)?;
            }
        }
        Ok(())
    }

    /// The boards of the `<board>.json` files of `dir` (`boards/`, `robot-turns/`,
    /// `reviews/owed/`), through the overlay, unsorted; any other `*.json` name is a
    /// stray file, a named error. Only the boards are kept.
    pub(crate) fn listed_boards(&self, dir: &Path) -> Result<Vec<BoardId>, StoreError> {
        let mut out = Vec::new();
        self.each_listed_json(dir, |stem, path| {
            let board = stem
                .parse::<BoardId>()
                .ok()
                .filter(|b| b.to_string() == stem)
                .ok_or_else(|| StoreError::StrayFile {
                    path: path.to_path_buf(),
                    expected: "<board number>.json, such as 101.json",
                })?;
            out.push(board);
            Ok(())
        })?;
        Ok(out)
    }

    /// The `*.json` files of `dir` as (stem, path), through the overlay, unsorted (none
    /// when the folder does not exist).
    pub(crate) fn list_json(&self, dir: &Path) -> Result<Vec<(String, PathBuf)>, StoreError> {
        let mut found = Vec::new();
        self.each_listed_json(dir, |stem, path| {
            found.push((stem.to_string(), path.to_path_buf()));
            Ok(())
        })?;
        Ok(found)
    }
}

/// Parses the text of the JSON file `path` (none when the file is missing); a text
/// that does not parse is the named error [`StoreError::Corrupt`].
fn parse_json<T: DeserializeOwned>(
    text: Option<String>,
    path: &Path,
    what: &'static str,
) -> Result<Option<T>, StoreError> {
    let Some(text) = text else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| StoreError::Corrupt {
            what,
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{UserId, Variant};
    use crate::server::store::GameFile;

    fn game(board: impl Into<crate::server::model::BoardId>) -> GameFile {
        let id = |s: &str| s.parse::<UserId>().expect("valid userid");
        GameFile::new(board, Variant::Normal, id("a"), id("b"), 1)
    }

    #[test]
    fn reads_and_listings_see_the_overlay_and_the_disk_only_after_apply() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store.put_game(&game(101)).expect("put");
        let _lock = store.lock().expect("lock");
        store.begin();
        let board = store.allocate_board().expect("allocate");
        assert_eq!(board, 102);
        store.put_game(&game(board)).expect("put");
        store.remove_file(&store.game_path(101)).expect("remove");
        assert_eq!(store.games().expect("games"), vec![102]);
        assert!(store.game(101).expect("read").is_none());
        assert!(store.game_path(101).exists() && !store.game_path(102).exists());
        let changes = store.take_changes();
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert!(!store.in_transaction());
        let journal = super::super::Journal::new(&store, "k", &changes, &[]);
        let outbox = crate::mail::Transport::Outbox(dir.path().join("outbox"));
        store.commit(&journal, &outbox).expect("apply");
        assert_eq!(store.games().expect("games"), vec![102]);
        store
            .commit(&journal, &outbox)
            .expect("applying twice is harmless");
        assert_eq!(store.allocate_board().expect("allocate"), 103);
    }
}
