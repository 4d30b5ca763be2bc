//! Building every index from the game files alone: `yinsh-pbem reindex`, and what the
//! server does by itself when the index is missing, of another version, or damaged.
//! A game file that does not load is left out, and named in the result (the caller
//! logs it and tells the operator). Also [`snapshot`]: every index read back as one
//! value, so that a test (or `reindex --check`) can compare the indexes kept mail by
//! mail with the ones built from scratch.

use std::collections::BTreeMap;

use crate::server::game::ratings;
use crate::server::game::record::{LiveGame, LoadError};
use crate::server::game::vacation::Vacations;
use crate::server::model::{BoardId, Variant};
use crate::server::store::{
    DAY, DueEntry, Finished, HISTORY_PAGE, INDEX_VERSION, IdleEntry, IndexState, IndexWriter,
    PlayerIndex, Section, Standing, Standings, Store, StoreError, rank_key,
};

use super::rank::{idle_at, section};
use super::summary::{Summary, summary};

/// What a rebuild found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Game files indexed.
    pub games: usize,
    /// Of which finished.
    pub finished: u64,
    /// Game files left out, with why.
    pub damaged: Vec<(BoardId, String)>,
}

/// Every index, read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The state file.
    pub state: Option<IndexState>,
    /// The history, every page in order.
    pub history: Vec<Finished>,
    /// The ratings tables, normal then blitz.
    pub standings: [Standings; 2],
    /// Each player's boards, by key.
    pub players: BTreeMap<String, PlayerIndex>,
    /// The due files, by day.
    pub due: BTreeMap<u64, Vec<DueEntry>>,
    /// The standings in order, normal then blitz, each established, provisional,
    /// inactive (their lines, not how they are cut in chunks).
    pub rankings: [[Vec<Standing>; 3]; 2],
    /// Who turns inactive when, normal then blitz.
    pub idle: [Vec<IdleEntry>; 2],
}

/// The indexes as built in memory from the game files, before they are written.
#[derive(Default)]
struct Built {
    /// The finished games (in the history's order once [`Built::rate`] ran).
    finished: Vec<Finished>,
    /// Each player's boards, by key.
    players: BTreeMap<String, PlayerIndex>,
    /// The ratings tables, normal then blitz.
    tables: [Standings; 2],
    /// The due entries, by day.
    due: BTreeMap<u64, Vec<DueEntry>>,
}

/// Builds every index from the game files, replacing what was there, the standings'
/// sections as they are at `now`. Call it outside a transaction, holding the lock: the
/// files are written directly, made durable together, and the state file last.
pub fn rebuild(store: &Store, now: u64) -> Result<Rebuilt, StoreError> {
    store.clear_index()?;
    let mut out = Rebuilt::default();
    let mut built = Built::default();
    let vacations = Vacations::load(store)?;
    for board in store.games()? {
        let live = match store
            .game(board)
            .map_err(LoadError::from)
            .and_then(|f| f.map(LiveGame::load).transpose().map_err(LoadError::from))
        {
            Ok(Some(live)) => live,
            Ok(None) => continue,
            Err(e) => {
                out.damaged.push((board, e.to_string()));
                continue;
            }
        };
        out.games += 1;
        built.add(board, summary(&live, &vacations));
    }
    built.rate();
    out.finished = built.finished.len() as u64;
    built.write(store, now)?;
    Ok(out)
}

impl Built {
    /// Takes in the game on `board`: a game going on in its players' indexes, their
    /// count of active games and the due files; a finished one is kept for
    /// [`Built::rate`].
    fn add(&mut self, board: BoardId, summary: Summary) {
        match summary {
            Summary::Active {
                variant,
                players: ps,
                due: at,
            } => {
                for p in &ps {
                    self.players.entry(p.key()).or_default().active.push(board);
                    let table = &mut self.tables[slot(variant)];
                    let entry = table.entry(p.key()).or_insert_with(|| Standing {
                        name: p.clone(),
                        record: ratings::Record::default(),
                        active: 0,
                    });
                    entry.active += 1;
                }
                if let Some(at) = at {
                    self.due
                        .entry(at / DAY)
                        .or_default()
                        .push(DueEntry { at, board });
                }
            }
            Summary::Finished(f) => self.finished.push(f),
        }
    }

    /// Puts the finished games in order, in their players' indexes, and rates the
    /// rated ones in that order.
    fn rate(&mut self) {
        self.finished.sort_by_key(Finished::order);
        for f in &self.finished {
            for p in &f.players {
                self.players
                    .entry(p.key())
                    .or_default()
                    .finished
                    .push(f.order());
            }
            if f.rated {
                ratings::rate_table(&mut self.tables[slot(f.variant)], f);
            }
        }
    }

    /// Writes every index file, made durable together, the state file last.
    fn write(self, store: &Store, now: u64) -> Result<(), StoreError> {
        let mut writer = store.index_writer();
        let size = usize::try_from(HISTORY_PAGE).unwrap_or(100);
        for (k, chunk) in self.finished.chunks(size).enumerate() {
            writer.history_page(store, k as u64, chunk)?;
        }
        for (variant, table) in [Variant::Normal, Variant::Blitz]
            .into_iter()
            .zip(&self.tables)
        {
            write_variant_standings(&mut writer, store, variant, table, now)?;
        }
        for (key, index) in &self.players {
            writer.player(store, key, index)?;
        }
        for (day, mut entries) in self.due {
            entries.sort_unstable();
            writer.due_on(store, day, &entries)?;
        }
        writer.finish(
            store,
            &IndexState {
                version: INDEX_VERSION,
                finished: self.finished.len() as u64,
            },
        )
    }
}

/// Writes `variant`'s ratings table, its standings in order by section at `now`, and
/// who turns inactive when.
fn write_variant_standings(
    writer: &mut IndexWriter,
    store: &Store,
    variant: Variant,
    table: &Standings,
    now: u64,
) -> Result<(), StoreError> {
    writer.standings(store, variant, table)?;
    let mut lists: [Vec<Standing>; 3] = Default::default();
    let mut idle: BTreeMap<u64, Vec<IdleEntry>> = BTreeMap::new();
    for s in table.values() {
        if let Some(sec) = section(s, now) {
            lists[sec as usize].push(s.clone());
        }
        if let Some(at) = idle_at(s, now) {
            idle.entry(at / DAY).or_default().push(IdleEntry {
                at,
                key: s.name.key(),
            });
        }
    }
    for (sec, mut list) in Section::ALL.into_iter().zip(lists) {
        list.sort_by_key(rank_key);
        writer.ranking(store, variant, sec, &list)?;
    }
    for (day, mut entries) in idle {
        entries.sort_unstable();
        writer.idle_on(store, variant, day, &entries)?;
    }
    Ok(())
}

fn slot(v: Variant) -> usize {
    match v {
        Variant::Normal => 0,
        Variant::Blitz => 1,
    }
}

/// Rebuilds when there is no index or one of another version; `None` when the index
/// was there. Outside a transaction, holding the lock.
pub fn ensure(store: &Store, now: u64) -> Result<Option<Rebuilt>, StoreError> {
    match store.index_state() {
        Ok(Some(s)) if s.version == INDEX_VERSION => Ok(None),
        Ok(_) => rebuild(store, now).map(Some),
        Err(e) if e.is_index_damage() => rebuild(store, now).map(Some),
        Err(e) => Err(e),
    }
}

/// Every index file read back (through the store, so inside a transaction too).
pub fn snapshot(store: &Store) -> Result<Snapshot, StoreError> {
    let state = store.index_state()?;
    let mut history = Vec::new();
    let pages = state.map_or(0, |s| s.finished.div_ceil(HISTORY_PAGE));
    for page in 0..pages {
        history.extend(store.history_page(page)?);
    }
    let mut players = BTreeMap::new();
    for key in store.player_keys()? {
        players.insert(key.clone(), store.player_index(&key)?);
    }
    let mut due = BTreeMap::new();
    for day in store.due_days()? {
        due.insert(day, store.due_on(day)?);
    }
    let mut rankings: [[Vec<Standing>; 3]; 2] = Default::default();
    let mut idle: [Vec<IdleEntry>; 2] = Default::default();
    for (k, variant) in [Variant::Normal, Variant::Blitz].into_iter().enumerate() {
        for sec in Section::ALL {
            rankings[k][sec as usize] = store.ranking(variant, sec)?;
        }
        for day in store.idle_days(variant)? {
            idle[k].extend(store.idle_on(variant, day)?);
        }
    }
    Ok(Snapshot {
        state,
        rankings,
        idle,
        history,
        standings: [
            store.standings(Variant::Normal)?,
            store.standings(Variant::Blitz)?,
        ],
        players,
        due,
    })
}
