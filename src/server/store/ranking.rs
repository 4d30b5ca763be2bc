//! The standings kept in order (issue 18): for each variant and section (established,
//! provisional, inactive) the players' lines best first, in chunk files of at most
//! 200 lines found through a small directory file, so that a page of `yinsh standings`
//! reads the directory and the chunks holding its ranks, and a game's end rewrites a
//! chunk and the directory per player. Also the idle schedule: the players who will
//! turn inactive (no game going on, none ended in 180 days), filed by the day they will.
//!
//! ```text
//! <home>/index/ranking-<variant>-<section>/dir.json   RankDir: each chunk's id, size, last line
//! <home>/index/ranking-<variant>-<section>/<id>.json  [Standing], best first
//! <home>/index/idle-<variant>/<day>.json              [IdleEntry]: who turns inactive that day
//! ```
//! Which line goes where is `game::index`'s; this file only keeps the order.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::server::model::Variant;

use super::index::{IndexWriter, Standing, variant_name};
use super::{Store, StoreError};

/// The three lists of the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Twenty rated games or more, and not inactive.
    Established,
    /// Fewer rated games, and not inactive.
    Provisional,
    /// No game going on and none ended in the last 180 days.
    Inactive,
}

impl Section {
    /// In the order the standings print them.
    pub const ALL: [Section; 3] = [
        Section::Established,
        Section::Provisional,
        Section::Inactive,
    ];

    /// The folder's word.
    fn name(self) -> &'static str {
        match self {
            Section::Established => "established",
            Section::Provisional => "provisional",
            Section::Inactive => "inactive",
        }
    }
}

/// The order of a ranking: the higher rating first, then by lower-case userid.
pub type RankKey = (i64, String);

/// A line's place in its ranking.
pub fn rank_key(s: &Standing) -> RankKey {
    (-i64::from(s.record.rating), s.name.key())
}

/// Lines a rebuild puts in each chunk; a chunk is split above twice as many and
/// merged with the next below a quarter.
pub const CHUNK: usize = 100;

/// `dir.json` of a ranking: its chunks in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankDir {
    /// The id the next new chunk gets.
    pub next: u64,
    /// The chunks, best lines first.
    pub chunks: Vec<ChunkRef>,
}

/// One chunk of a ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChunkRef {
    /// Its file's name.
    pub id: u64,
    /// Its lines.
    pub count: usize,
    /// The place of its last line.
    pub last: RankKey,
}

/// A player who turns inactive at `at` unless a game starts or ends first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdleEntry {
    /// Unix seconds: the first second they are inactive.
    pub at: u64,
    /// Their lower-case userid.
    pub key: String,
}

impl Store {
    fn ranking_dir(&self, variant: Variant, section: Section) -> PathBuf {
        self.index_dir().join(format!(
            "ranking-{}-{}",
            variant_name(variant),
            section.name()
        ))
    }

    fn rank_dir_path(&self, variant: Variant, section: Section) -> PathBuf {
        self.ranking_dir(variant, section).join("dir.json")
    }

    fn chunk_path(&self, variant: Variant, section: Section, id: u64) -> PathBuf {
        self.ranking_dir(variant, section)
            .join(format!("{id}.json"))
    }

    fn idle_dir(&self, variant: Variant) -> PathBuf {
        self.index_dir()
            .join(format!("idle-{}", variant_name(variant)))
    }

    fn idle_path(&self, variant: Variant, day: u64) -> PathBuf {
        self.idle_dir(variant).join(format!("{day}.json"))
    }

    /// The folders a new index starts with.
    pub(super) fn ranking_folders(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for variant in [Variant::Normal, Variant::Blitz] {
            out.push(self.idle_dir(variant));
            for section in Section::ALL {
                out.push(self.ranking_dir(variant, section));
            }
        }
        out
    }

    fn rank_dir(&self, variant: Variant, section: Section) -> Result<RankDir, StoreError> {
        self.read_index(&self.rank_dir_path(variant, section))
    }

    fn chunk(
        &self,
        variant: Variant,
        section: Section,
        id: u64,
    ) -> Result<Vec<Standing>, StoreError> {
        self.read_index(&self.chunk_path(variant, section, id))
    }

    /// Ranks `skip + 1` to `skip + take` of a ranking, and how many lines it holds:
    /// reads its directory and the chunks holding those ranks only.
    pub fn ranks(
        &self,
        variant: Variant,
        section: Section,
        skip: usize,
        take: usize,
    ) -> Result<(Vec<Standing>, usize), StoreError> {
        let dir = self.rank_dir(variant, section)?;
        let total = dir.chunks.iter().map(|c| c.count).sum();
        let mut out = Vec::new();
        let mut first = 0;
        for c in &dir.chunks {
            let end = first + c.count;
            if end > skip && first < skip + take {
                let lines = self.chunk(variant, section, c.id)?;
                let from = skip.saturating_sub(first);
                let want = skip + take - first.max(skip);
                out.extend(lines.into_iter().skip(from).take(want));
            }
            first = end;
            if first >= skip + take {
                break;
            }
        }
        Ok((out, total))
    }

    /// A whole ranking, best first.
    pub fn ranking(&self, variant: Variant, section: Section) -> Result<Vec<Standing>, StoreError> {
        let mut out = Vec::new();
        for c in self.rank_dir(variant, section)?.chunks {
            out.extend(self.chunk(variant, section, c.id)?);
        }
        Ok(out)
    }

    /// Puts `line` in its place in a ranking (through the transaction).
    pub fn rank_insert(
        &self,
        variant: Variant,
        section: Section,
        line: &Standing,
    ) -> Result<(), StoreError> {
        let key = rank_key(line);
        let mut dir = self.rank_dir(variant, section)?;
        if dir.chunks.is_empty() {
            let id = dir.next;
            dir.next += 1;
            dir.chunks.push(ChunkRef {
                id,
                count: 0,
                last: key.clone(),
            });
        }
        let i = dir
            .chunks
            .partition_point(|c| c.last < key)
            .min(dir.chunks.len() - 1);
        let id = dir.chunks[i].id;
        let mut lines = self.chunk(variant, section, id)?;
        let at = lines.partition_point(|l| rank_key(l) < key);
        lines.insert(at, line.clone());
        if lines.len() > 2 * CHUNK {
            let second = lines.split_off(lines.len() / 2);
            let new_id = dir.next;
            dir.next += 1;
            self.put_chunk(variant, section, &mut dir, i, lines)?;
            dir.chunks.insert(
                i + 1,
                ChunkRef {
                    id: new_id,
                    count: 0,
                    last: key,
                },
            );
            self.put_chunk(variant, section, &mut dir, i + 1, second)?;
        } else {
            self.put_chunk(variant, section, &mut dir, i, lines)?;
        }
        self.write_index(&self.rank_dir_path(variant, section), &dir)
    }

    /// Takes the line at the place of `line` out of a ranking, if it is there.
    pub fn rank_remove(
        &self,
        variant: Variant,
        section: Section,
        line: &Standing,
    ) -> Result<(), StoreError> {
        let key = rank_key(line);
        let mut dir = self.rank_dir(variant, section)?;
        let i = dir.chunks.partition_point(|c| c.last < key);
        if i == dir.chunks.len() {
            return Ok(());
        }
        let mut lines = self.chunk(variant, section, dir.chunks[i].id)?;
        let before = lines.len();
        lines.retain(|l| rank_key(l) != key);
        if lines.len() == before {
            return Ok(());
        }
        if lines.len() < CHUNK / 4
            && let Some(next) = dir.chunks.get(i + 1)
            && lines.len() + next.count <= 2 * CHUNK
        {
            let next_id = next.id;
            lines.extend(self.chunk(variant, section, next_id)?);
            self.remove_file(&self.chunk_path(variant, section, next_id))?;
            dir.chunks.remove(i + 1);
        }
        if lines.is_empty() {
            self.remove_file(&self.chunk_path(variant, section, dir.chunks[i].id))?;
            dir.chunks.remove(i);
        } else {
            self.put_chunk(variant, section, &mut dir, i, lines)?;
        }
        let path = self.rank_dir_path(variant, section);
        if dir.chunks.is_empty() {
            return self.remove_file(&path);
        }
        self.write_index(&path, &dir)
    }

    /// Writes chunk `i` of `dir` with `lines` (not empty), and its entry.
    fn put_chunk(
        &self,
        variant: Variant,
        section: Section,
        dir: &mut RankDir,
        i: usize,
        lines: Vec<Standing>,
    ) -> Result<(), StoreError> {
        let c = &mut dir.chunks[i];
        c.count = lines.len();
        if let Some(last) = lines.last() {
            c.last = rank_key(last);
        }
        self.write_index(&self.chunk_path(variant, section, c.id), &lines)
    }

    /// The days that have an idle file, ascending.
    pub fn idle_days(&self, variant: Variant) -> Result<Vec<u64>, StoreError> {
        self.day_files(&self.idle_dir(variant))
    }

    /// The players filed under `day` in the idle schedule of `variant`, sorted.
    pub fn idle_on(&self, variant: Variant, day: u64) -> Result<Vec<IdleEntry>, StoreError> {
        self.read_index(&self.idle_path(variant, day))
    }

    /// Writes the players filed under `day`; none removes the file.
    pub fn put_idle_on(
        &self,
        variant: Variant,
        day: u64,
        entries: &[IdleEntry],
    ) -> Result<(), StoreError> {
        self.put_list(&self.idle_path(variant, day), entries)
    }
}

impl IndexWriter {
    /// Writes a whole ranking (best first) in chunks of [`CHUNK`] lines.
    pub fn ranking(
        &mut self,
        store: &Store,
        variant: Variant,
        section: Section,
        lines: &[Standing],
    ) -> Result<(), StoreError> {
        let mut dir = RankDir::default();
        for part in lines.chunks(CHUNK) {
            let id = dir.next;
            dir.next += 1;
            self.put(&store.chunk_path(variant, section, id), &part)?;
            dir.chunks.push(ChunkRef {
                id,
                count: part.len(),
                last: part.last().map(rank_key).unwrap_or_default(),
            });
        }
        if dir.chunks.is_empty() {
            return Ok(());
        }
        self.put(&store.rank_dir_path(variant, section), &dir)
    }

    /// Writes the players filed under `day` in the idle schedule of `variant`.
    pub fn idle_on(
        &mut self,
        store: &Store,
        variant: Variant,
        day: u64,
        entries: &[IdleEntry],
    ) -> Result<(), StoreError> {
        self.put(&store.idle_path(variant, day), &entries)
    }
}
