//! The derived indexes under `<home>/index/`: what a mail or `tick` needs without
//! reading every game file. They are typed records like the rest of the store, written
//! through the same transaction overlay (so one mail's game files and index changes
//! go into one journal), and derived only: the game files stay the source of truth,
//! and `yinsh-pbem reindex` (`game::index`) rebuilds every index from them.
//!
//! ```text
//! <home>/index/state.json           IndexState: the format version, finished games so far
//! <home>/index/history/<k>.json     finished games number k*100 .. k*100+99, in order of ending
//! <home>/index/ratings-<variant>/<xx>.json  players' rating records and active games,
//!                                   in 64 shards by a hash of the userid (normal, blitz)
//! <home>/index/players/<key>.json   one player's active boards and finished boards
//! <home>/index/due/<day>.json       active games by the time tick will act on them
//! <home>/index/ranking-*/, idle-*/   the standings in order, who turns inactive when
//!                                   (`ranking.rs`)
//! <home>/damaged.json               damaged game files and the day the operator was last told
//! ```
//! A file that does not decode is a [`StoreError::Corrupt`] whose `what` is
//! `"index"` ([`StoreError::is_index_damage`]): the caller rebuilds, never guesses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::durable::Pending;
use crate::server::model::{BoardId, UserId, Variant, variant_serde};

use super::fs::{create_dir, json_bytes, read_text, write_deferred};
use super::games::GameFile;
use super::{Store, StoreError};

/// The format of the index files; an index of another version is rebuilt.
pub const INDEX_VERSION: u32 = 2;
/// Finished games per history page file.
pub const HISTORY_PAGE: u64 = 100;

/// What [`StoreError::Corrupt`] names an index file.
const INDEX: &str = "index";

/// `<home>/index/state.json`: written last by a rebuild, so a missing one means the
/// index is missing (or a rebuild was cut short) and must be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexState {
    /// [`INDEX_VERSION`] when written.
    pub version: u32,
    /// How many finished games the history pages hold.
    pub finished: u64,
}

/// A player's record in one variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The rating.
    pub rating: i32,
    /// Rated games won.
    pub won: u32,
    /// Rated games lost.
    pub lost: u32,
    /// Rated games tied.
    pub ties: u32,
    /// When their last rated game ended.
    pub last: u64,
}

/// One finished game, as the history and the ratings see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finished {
    /// The board.
    pub board: BoardId,
    /// Normal or blitz.
    #[serde(with = "variant_serde")]
    pub variant: Variant,
    /// White's and Black's userids.
    pub players: [UserId; 2],
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// When it ended.
    pub ended: u64,
    /// Whether it counts.
    pub rated: bool,
    /// Why it ended, in words.
    pub how: String,
}

impl Finished {
    /// The order of the history and of the ratings: by time of ending, then board.
    pub fn order(&self) -> (u64, BoardId) {
        (self.ended, self.board)
    }
}

/// One player's line in a variant's ratings table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// The userid as the player wrote it.
    pub name: UserId,
    /// The rating record (the starting one before any rated game).
    pub record: Record,
    /// Games of this variant going on.
    pub active: u32,
}

/// A variant's ratings table, by lower-case userid.
pub type Standings = BTreeMap<String, Standing>;

/// `<home>/index/players/<key>.json`: one player's boards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerIndex {
    /// Boards going on, ascending.
    pub active: Vec<BoardId>,
    /// Finished boards as (ended, board), in order of ending.
    pub finished: Vec<(u64, BoardId)>,
}

impl PlayerIndex {
    /// Whether it holds nothing (its file is then removed).
    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.finished.is_empty()
    }
}

/// A game going on, filed under the earliest time `tick` may have work for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DueEntry {
    /// Unix seconds.
    pub at: u64,
    /// The board.
    pub board: BoardId,
}

/// Seconds in a day: the due files hold one day each.
pub const DAY: u64 = 86_400;

/// Damaged files skipped by a scan: (path, why), taken by the transaction runner.
pub(crate) type Skipped = std::sync::Arc<std::sync::Mutex<Vec<(PathBuf, String)>>>;

/// Writes many index files at once outside a transaction (a rebuild), made durable
/// together by [`IndexWriter::finish`].
pub struct IndexWriter {
    pending: Pending,
}

impl StoreError {
    /// Whether this is an index file that does not decode (rebuild it).
    pub fn is_index_damage(&self) -> bool {
        matches!(self, StoreError::Corrupt { what, .. } if *what == INDEX)
    }
}

pub(super) fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Normal => "normal",
        Variant::Blitz => "blitz",
    }
}

impl Store {
    /// `<home>/index`.
    pub fn index_dir(&self) -> PathBuf {
        self.home().join("index")
    }

    fn state_path(&self) -> PathBuf {
        self.index_dir().join("state.json")
    }

    fn history_path(&self, page: u64) -> PathBuf {
        self.index_dir()
            .join("history")
            .join(format!("{page}.json"))
    }

    fn standings_dir(&self, variant: Variant) -> PathBuf {
        self.index_dir()
            .join(format!("ratings-{}", variant_name(variant)))
    }

    fn standings_path(&self, variant: Variant, shard: u64) -> PathBuf {
        self.standings_dir(variant)
            .join(format!("{shard:02x}.json"))
    }

    fn player_index_path(&self, key: &str) -> PathBuf {
        self.index_dir().join("players").join(format!("{key}.json"))
    }

    fn due_dir(&self) -> PathBuf {
        self.index_dir().join("due")
    }

    fn due_path(&self, day: u64) -> PathBuf {
        self.due_dir().join(format!("{day}.json"))
    }

    /// `<home>/damaged.json`.
    pub fn damaged_path(&self) -> PathBuf {
        self.home().join("damaged.json")
    }

    /// The index's state; `None` when there is no index (or a rebuild was cut short).
    pub fn index_state(&self) -> Result<Option<IndexState>, StoreError> {
        self.read_json(&self.state_path(), INDEX)
    }

    /// Writes the index's state.
    pub fn put_index_state(&self, state: &IndexState) -> Result<(), StoreError> {
        self.write_index(&self.state_path(), state)
    }

    /// History page `page` (empty when missing).
    pub fn history_page(&self, page: u64) -> Result<Vec<Finished>, StoreError> {
        self.read_index(&self.history_path(page))
    }

    /// Writes history page `page`; an empty page removes its file.
    pub fn put_history_page(&self, page: u64, games: &[Finished]) -> Result<(), StoreError> {
        self.put_list(&self.history_path(page), games)
    }

    /// The whole ratings table of `variant` (every shard; empty when missing).
    pub fn standings(&self, variant: Variant) -> Result<Standings, StoreError> {
        let mut table = Standings::new();
        for (_, path) in self.list_json(&self.standings_dir(variant))? {
            table.append(&mut self.read_index(&path)?);
        }
        Ok(table)
    }

    /// The entries of the players `keys` in the ratings table of `variant` (those that
    /// have one), reading only their shards.
    pub fn standings_of(&self, variant: Variant, keys: &[String]) -> Result<Standings, StoreError> {
        let mut shards: Vec<u64> = keys.iter().map(|k| shard_of(k)).collect();
        shards.sort_unstable();
        shards.dedup();
        let mut table = Standings::new();
        for shard in shards {
            let mut all: Standings = self.read_index(&self.standings_path(variant, shard))?;
            all.retain(|k, _| keys.contains(k));
            table.append(&mut all);
        }
        Ok(table)
    }

    /// Writes the entries of `changed` and removes those of `removed` in the ratings
    /// table of `variant`, rewriting only their shards.
    pub fn update_standings(
        &self,
        variant: Variant,
        changed: &Standings,
        removed: &[String],
    ) -> Result<(), StoreError> {
        let mut shards: Vec<u64> = changed.keys().chain(removed).map(|k| shard_of(k)).collect();
        shards.sort_unstable();
        shards.dedup();
        for shard in shards {
            let path = self.standings_path(variant, shard);
            let mut all: Standings = self.read_index(&path)?;
            for key in removed.iter().filter(|k| shard_of(k) == shard) {
                all.remove(key);
            }
            for (key, s) in changed.iter().filter(|(k, _)| shard_of(k) == shard) {
                all.insert(key.clone(), s.clone());
            }
            self.put_shard(&path, &all)?;
        }
        Ok(())
    }

    /// Replaces the whole ratings table of `variant`.
    pub fn put_standings(&self, variant: Variant, table: &Standings) -> Result<(), StoreError> {
        let mut shards = sharded(table);
        for (stem, _) in self.list_json(&self.standings_dir(variant))? {
            if let Ok(shard) = u64::from_str_radix(&stem, 16) {
                shards.entry(shard).or_default();
            }
        }
        for (shard, part) in shards {
            self.put_shard(&self.standings_path(variant, shard), &part)?;
        }
        Ok(())
    }

    fn put_shard(&self, path: &Path, part: &Standings) -> Result<(), StoreError> {
        if part.is_empty() {
            return self.remove_file(path);
        }
        self.write_index(path, part)
    }

    /// The boards of the player whose lower-case userid is `key` (empty when none).
    pub fn player_index(&self, key: &str) -> Result<PlayerIndex, StoreError> {
        self.read_index(&self.player_index_path(key))
    }

    /// Writes a player's boards; an empty index removes the file.
    pub fn put_player_index(&self, key: &str, index: &PlayerIndex) -> Result<(), StoreError> {
        let path = self.player_index_path(key);
        if index.is_empty() {
            return self.remove_file(&path);
        }
        self.write_index(&path, index)
    }

    /// The keys of the players that have an index file, sorted.
    pub fn player_keys(&self) -> Result<Vec<String>, StoreError> {
        let mut keys: Vec<String> = self
            .list_json(&self.index_dir().join("players"))?
            .into_iter()
            .map(|(stem, _)| stem)
            .collect();
        keys.sort_unstable();
        Ok(keys)
    }

    /// The days that have a due file, ascending.
    pub fn due_days(&self) -> Result<Vec<u64>, StoreError> {
        self.day_files(&self.due_dir())
    }

    /// The days named by the `<day number>.json` files of `dir`, ascending; any other
    /// JSON file there is a stray file.
    pub(super) fn day_files(&self, dir: &std::path::Path) -> Result<Vec<u64>, StoreError> {
        let mut days = Vec::new();
        for (stem, path) in self.list_json(dir)? {
            match stem.parse::<u64>() {
                Ok(d) if d.to_string() == stem => days.push(d),
                _ => {
                    return Err(StoreError::StrayFile {
                        path,
                        expected: "<day number>.json, such as 20780.json",
                    });
                }
            }
        }
        days.sort_unstable();
        Ok(days)
    }

    /// The games filed under `day` (empty when none), sorted.
    pub fn due_on(&self, day: u64) -> Result<Vec<DueEntry>, StoreError> {
        self.read_index(&self.due_path(day))
    }

    /// Writes the games filed under `day`; none removes the file.
    pub fn put_due_on(&self, day: u64, entries: &[DueEntry]) -> Result<(), StoreError> {
        self.put_list(&self.due_path(day), entries)
    }

    /// The damaged files the operator was told of, with the day they were told.
    pub fn damaged(&self) -> Result<BTreeMap<String, u64>, StoreError> {
        Ok(self
            .read_json(&self.damaged_path(), "damaged-files")?
            .unwrap_or_default())
    }

    /// Writes the damaged files told of.
    pub fn put_damaged(&self, told: &BTreeMap<String, u64>) -> Result<(), StoreError> {
        self.write_json(&self.damaged_path(), "damaged-files", told)
    }

    /// Notes that a scan skipped the damaged file `path` (the transaction runner logs
    /// it and tells the operator).
    pub fn note_skipped(&self, path: PathBuf, why: String) {
        self.skipped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((path, why));
    }

    /// The damaged files noted since the last call.
    pub fn take_skipped(&self) -> Vec<(PathBuf, String)> {
        std::mem::take(
            &mut *self
                .skipped
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// The game on `board` as the disk holds it, before this transaction's changes.
    pub fn game_on_disk(&self, board: BoardId) -> Result<Option<GameFile>, StoreError> {
        let path = self.game_path(board);
        let Some(text) = read_text(&path)? else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| StoreError::Corrupt {
                what: "game",
                path,
                source,
            })
    }

    /// The boards whose game file this transaction has written or removed, sorted.
    pub fn changed_games(&self) -> Vec<BoardId> {
        let dir = self.boards_dir();
        let mut boards: Vec<BoardId> = self
            .buffered_paths()
            .iter()
            .filter(|p| p.parent() == Some(dir.as_path()))
            .filter_map(|p| p.file_stem()?.to_str()?.parse::<BoardId>().ok())
            .collect();
        boards.sort_unstable();
        boards.dedup();
        boards
    }

    /// Removes the whole index (outside a transaction), its state first, so that a
    /// crash before the rebuild ends leaves no state and the next run rebuilds; then
    /// makes its empty folders.
    pub fn clear_index(&self) -> Result<(), StoreError> {
        super::fs::remove(&self.state_path())?;
        let dir = self.index_dir();
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::io("remove the folder", &dir, e)),
        }
        for sub in [
            "history",
            "players",
            "due",
            "ratings-normal",
            "ratings-blitz",
        ] {
            create_dir(&dir.join(sub), 0o755)?;
        }
        for sub in self.ranking_folders() {
            create_dir(&sub, 0o755)?;
        }
        Ok(())
    }

    /// A writer for many index files outside a transaction.
    pub fn index_writer(&self) -> IndexWriter {
        IndexWriter {
            pending: Pending::default(),
        }
    }

    /// An index file through the overlay; the empty value when it is missing.
    pub(super) fn read_index<T: Default + DeserializeOwned>(
        &self,
        path: &Path,
    ) -> Result<T, StoreError> {
        Ok(self.read_json(path, INDEX)?.unwrap_or_default())
    }

    /// Writes a list index file; an empty list removes it.
    pub(super) fn put_list<T: Serialize>(&self, path: &Path, list: &[T]) -> Result<(), StoreError> {
        if list.is_empty() {
            return self.remove_file(path);
        }
        self.write_index(path, &list)
    }

    pub(super) fn write_index<T: Serialize>(
        &self,
        path: &Path,
        value: &T,
    ) -> Result<(), StoreError> {
        self.write_file(path, &index_bytes(path, value)?)
    }
}

/// Ratings-table shards: a player's entry lives in shard `fnv1a64(key) % 64`, so that
/// a game's end rewrites two small files, never every player's.
const SHARDS: u64 = 64;

fn shard_of(key: &str) -> u64 {
    super::journal::fnv1a64(key.as_bytes()) % SHARDS
}

fn sharded(table: &Standings) -> BTreeMap<u64, Standings> {
    let mut shards: BTreeMap<u64, Standings> = BTreeMap::new();
    for (key, s) in table {
        shards
            .entry(shard_of(key))
            .or_default()
            .insert(key.clone(), s.clone());
    }
    shards
}

/// An index file's bytes: compact JSON (read often, never by hand).
fn index_bytes<T: Serialize>(path: &Path, value: &T) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value).map_err(|source| StoreError::Encode {
        what: INDEX,
        path: path.to_path_buf(),
        source,
    })
}

impl IndexWriter {
    /// Writes one index file of `store` (history page, table, player, due day).
    pub(super) fn put<T: Serialize>(&mut self, path: &Path, value: &T) -> Result<(), StoreError> {
        if let Some(dir) = path.parent() {
            create_dir(dir, 0o755)?;
        }
        write_deferred(path, &index_bytes(path, value)?, &mut self.pending)
    }

    /// Writes history page `page`.
    pub fn history_page(
        &mut self,
        store: &Store,
        page: u64,
        games: &[Finished],
    ) -> Result<(), StoreError> {
        self.put(&store.history_path(page), &games)
    }

    /// Writes the ratings table of `variant`.
    pub fn standings(
        &mut self,
        store: &Store,
        variant: Variant,
        table: &Standings,
    ) -> Result<(), StoreError> {
        for (shard, part) in sharded(table) {
            self.put(&store.standings_path(variant, shard), &part)?;
        }
        Ok(())
    }

    /// Writes a player's boards.
    pub fn player(
        &mut self,
        store: &Store,
        key: &str,
        index: &PlayerIndex,
    ) -> Result<(), StoreError> {
        self.put(&store.player_index_path(key), index)
    }

    /// Writes the games filed under `day`.
    pub fn due_on(
        &mut self,
        store: &Store,
        day: u64,
        entries: &[DueEntry],
    ) -> Result<(), StoreError> {
        self.put(&store.due_path(day), &entries)
    }

    /// Makes everything written durable, then writes the state (durably): the index
    /// is complete from here on.
    pub fn finish(mut self, store: &Store, state: &IndexState) -> Result<(), StoreError> {
        let path = store.state_path();
        self.pending
            .sync()
            .map_err(|e| StoreError::io("make durable the index in", &path, e))?;
        super::fs::write_atomic(&path, &json_bytes(&path, INDEX, state)?)
    }
}
