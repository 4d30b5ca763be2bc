//! The static web site of the games (`yinsh-pbem site --out DIR`, and after every
//! mail that changes a game when `[site]` is configured): an index of the active and
//! finished games, one folder per game (`game_page`; a finished game's review from
//! the store under its board: `review`), the standings, the history and
//! a rules summary (`lists`), all in one frame (`page`). Every page works from a
//! plain file server. Only what is public goes on it: userids, moves, results, dates
//! and the server's own mail address (where moves and `help` are sent); never
//! passwords, players' addresses, comments, chat or messages.
//!
//! ```text
//! DIR/index.html  standings.html  history.html  history-<k>.html  rules.html
//! DIR/style.css  points.js  board.js  (the frame, the scripts that draw and play the board)
//! DIR/favicon.svg  favicon.ico  (the site's icon)
//! DIR/active.json  (the games going on, for the index)
//! DIR/games/<n>/index.html  p<k>-<hash>.png  board-<n>.txt  board-<n>.sgf  summary.json
//! ```

mod game_page;
pub mod legal;
mod lists;
mod page;
mod play;
mod review;
mod seeks;
pub mod settings;
mod tournament;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::durable::{Existing, Pending, Readers, create_dir, lock_within, write_public_deferred};
use crate::picture::{self, PictureError};
use crate::server::game::index;
use crate::server::game::record::{LiveGame, ReplayError};
use crate::server::game::vacation::Vacations;
use crate::server::internal::InternalError;
use crate::server::model::BoardId;
use crate::server::store::{KeptPictures, Store, StoreError};

pub use review::MisfitReview;
pub use settings::SiteSettings;

/// Why the site could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// A file or folder of the site cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The store cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A game does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The standings or the history cannot be computed.
    #[error(transparent)]
    Listing(#[from] InternalError),
    /// Another run kept the site's lock (`DIR/.lock`) too long.
    #[error("the site {} is being written by another run for too long; try again", path.display())]
    Busy {
        /// The site's folder.
        path: PathBuf,
    },
    /// A game's review does not fit the game.
    #[error(transparent)]
    Review(#[from] MisfitReview),
    /// The site's icon cannot be drawn.
    #[error("the site's icon (favicon.ico) cannot be drawn: {source}")]
    Icon {
        /// Why.
        source: PictureError,
    },
    /// A picture cannot be drawn.
    #[error("board {board}: the picture cannot be drawn: {source}")]
    Picture {
        /// The board.
        board: BoardId,
        /// Why.
        source: PictureError,
    },
}

/// A game's line of the index, kept beside its page (`summary.json`) so that the
/// index is written without replaying every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Summary {
    /// Serialized as a number, as when it was a bare `u32`.
    board: BoardId,
    white: String,
    black: String,
    blitz: bool,
    turns: usize,
    over: bool,
    status: String,
    updated: u64,
}

/// What a run wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    /// Game folders written.
    pub games: usize,
    /// Files written (pictures, pages, records).
    pub files: usize,
    /// Folders of games that are no more, removed.
    pub removed: usize,
}

/// Writes files of the site atomically (a reader never sees half a page) and keeps
/// count.
struct Files {
    pending: Pending,
    written: Written,
}

impl Files {
    fn new() -> Files {
        Files {
            pending: Pending::default(),
            written: Written::default(),
        }
    }

    fn make_dir(&mut self, dir: &Path) -> Result<(), SiteError> {
        create_dir(dir, Readers::Everyone).map_err(|source| SiteError::Write {
            path: dir.to_path_buf(),
            source,
        })
    }

    fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<(), SiteError> {
        if std::fs::read(path).is_ok_and(|old| old == bytes) {
            return Ok(());
        }
        write_public_deferred(path, bytes, Existing::Replace, &mut self.pending).map_err(
            |source| SiteError::Write {
                path: path.to_path_buf(),
                source,
            },
        )?;
        self.written.files += 1;
        if self.pending.len() >= SYNC_EVERY {
            self.settle(path)?;
        }
        Ok(())
    }

    /// Makes the files written so far durable (one `syncfs`): at the end of a run,
    /// and every [`SYNC_EVERY`] files ([`Files::write`]), so that a whole build's
    /// memory stays flat however many games it writes. `path`: where, for the error.
    fn settle(&mut self, path: &Path) -> Result<(), SiteError> {
        self.pending.sync().map_err(|source| SiteError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Removes the pictures of `dir` that are not among `keep` (positions an undo
    /// took back).
    fn remove_others(&mut self, dir: &Path, keep: &[String]) -> Result<(), SiteError> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('p') && name.ends_with(".png") && !keep.contains(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }
}

impl Files {
    /// Removes the folder of a game that is no more.
    fn remove_game(&mut self, dir: &Path) -> Result<(), SiteError> {
        match std::fs::remove_dir_all(dir) {
            Ok(()) => {
                self.written.removed += 1;
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(SiteError::Write {
                path: dir.to_path_buf(),
                source,
            }),
        }
    }

    /// Removes the folders under `games` of the boards not among `boards` (sorted:
    /// each folder is looked up by halving, not by reading the list, which made a
    /// whole build over a built site of 1,000,000 games quadratic).
    fn remove_games_not_in(&mut self, games: &Path, boards: &[BoardId]) -> Result<(), SiteError> {
        debug_assert!(boards.is_sorted());
        let Ok(entries) = std::fs::read_dir(games) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let known = name
                .parse::<u32>()
                .is_ok_and(|n| boards.binary_search(&BoardId::from(n)).is_ok());
            if !known && entry.path().is_dir() {
                self.remove_game(&entry.path())?;
            }
        }
        Ok(())
    }
}

/// How many files a run writes before it makes them durable.
const SYNC_EVERY: usize = 4096;

/// How long a run waits for another one writing the site.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// The folder of board `board` under `out`.
fn game_dir(out: &Path, board: BoardId) -> PathBuf {
    out.join("games").join(board.to_string())
}

/// How much of the site a run writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Every page; the boards given are all the games there are, and the folders of
    /// any others are removed.
    Whole,
    /// The folders of the boards given, and the pages that list them.
    Changed,
}

/// Where the site is written and what its pages say of the server: the folder, and
/// the server's mail address (moves and `help` are sent there).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The site's folder.
    pub out: &'a Path,
    /// The server's bare mail address.
    pub address: &'a str,
}

/// Writes the whole site into `target.out`: every game's folder (its picture only
/// where missing), the index, standings, history and rules. `now` dates the standings.
pub fn build(store: &Store, target: Target<'_>, now: u64) -> Result<Written, SiteError> {
    let boards = store.games()?;
    let threads = build_threads(boards.len());
    write_site(store, target, now, &boards, Scope::Whole, threads)
}

/// [`build`] with the games' folders shared among `threads` threads (at least one),
/// whatever the cores: the same site as one thread writes.
pub fn build_in_threads(
    store: &Store,
    target: Target<'_>,
    now: u64,
    threads: usize,
) -> Result<Written, SiteError> {
    let boards = store.games()?;
    write_site(store, target, now, &boards, Scope::Whole, threads.max(1))
}

/// Rewrites the folders of `boards` (the games a mail changed) and the index; the
/// standings and history too when one of them is over, and the frame's files when
/// they are missing. The work is bounded by those games, not by all of them.
pub fn refresh(
    store: &Store,
    target: Target<'_>,
    now: u64,
    boards: &[BoardId],
) -> Result<Written, SiteError> {
    write_site(store, target, now, boards, Scope::Changed, 1)
}

fn write_site(
    store: &Store,
    target: Target<'_>,
    now: u64,
    boards: &[BoardId],
    scope: Scope,
    threads: usize,
) -> Result<Written, SiteError> {
    let out = target.out;
    let mut files = Files::new();
    files.make_dir(out)?;
    let _lock = lock_site(out)?;
    // The games going on, as the index lists them: kept in `active.json`, so that a
    // refresh reads one file, not every game's summary.
    let mut active = match scope {
        Scope::Whole => {
            files.remove_games_not_in(&out.join("games"), boards)?;
            Vec::new()
        }
        Scope::Changed => active_games(out),
    };
    let vacations = Vacations::load(store)?;
    let around = game_page::Around {
        address: target.address,
        vacations: &vacations,
        kept: KeptPictures::new(store.home()),
    };
    let ended = if threads > 1 {
        write_games_in_threads(
            &mut files,
            store,
            out,
            boards,
            &mut active,
            &around,
            threads,
        )?
    } else {
        write_games(&mut files, store, out, boards, &mut active, &around)?
    };
    active.sort_by_key(|s| s.board);
    let json = serde_json::to_vec_pretty(&active).unwrap_or_default();
    files.write(&out.join(ACTIVE), &json)?;
    write_lists(&mut files, store, target, now, scope, ended, &active)?;
    files.settle(out)?;
    Ok(files.written)
}

/// Takes the site's lock (`out/.lock`), held while the returned file is open. One
/// writer at a time: each reads the store as it is now, so the last one to finish
/// leaves the newest pages.
fn lock_site(out: &Path) -> Result<std::fs::File, SiteError> {
    let lock_path = out.join(".lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|source| SiteError::Write {
            path: lock_path.clone(),
            source,
        })?;
    let locked = lock_within(&lock, LOCK_WAIT).map_err(|source| SiteError::Write {
        path: lock_path,
        source,
    })?;
    if !locked {
        return Err(SiteError::Busy {
            path: out.to_path_buf(),
        });
    }
    Ok(lock)
}

/// Writes the folders of `boards` (removes those of games that are gone) and keeps
/// `active` in step with them, in this thread; returns whether one of them is over.
fn write_games(
    files: &mut Files,
    store: &Store,
    out: &Path,
    boards: &[BoardId],
    active: &mut Vec<Summary>,
    around: &game_page::Around<'_>,
) -> Result<bool, SiteError> {
    let mut ended = false;
    for &board in boards {
        active.retain(|s| s.board != board);
        if let Some(summary) = write_one(files, store, out, board, around)? {
            ended |= summary.over;
            if !summary.over {
                active.push(summary);
            }
        }
    }
    Ok(ended)
}

/// How many games a thread of a whole build takes at least: fewer than this many
/// games in all are written in one thread.
const GAMES_PER_THREAD: usize = 64;

/// The threads a whole build of `games` games writes their folders with: one per core
/// (at most 8), and no more than one for every [`GAMES_PER_THREAD`] games.
fn build_threads(games: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.min(8).min(games / GAMES_PER_THREAD).max(1)
}

/// What one thread of a whole build did: its counts, whether a game it wrote is over,
/// and the lines of the games going on it wrote, each with its place in the boards.
type ThreadDone = (Written, bool, Vec<(usize, Summary)>);

/// [`write_games`] shared among `threads` threads: each takes the next board not
/// taken, writes its folder with its own [`Files`], and makes its files durable by
/// batches; the first error stops them all and is returned. `active` gets the games
/// going on, in the order of `boards` (only theirs are kept: a build's memory does not
/// grow with the finished games).
fn write_games_in_threads(
    files: &mut Files,
    store: &Store,
    out: &Path,
    boards: &[BoardId],
    active: &mut Vec<Summary>,
    around: &game_page::Around<'_>,
    threads: usize,
) -> Result<bool, SiteError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || -> Result<ThreadDone, SiteError> {
        let mut mine = Files::new();
        let mut ended = false;
        let mut going_on = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&board) = boards.get(k) else { break };
            let written = write_one(&mut mine, store, out, board, around)
                .inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
            match written {
                Some(summary) if summary.over => ended = true,
                Some(summary) => going_on.push((k, summary)),
                None => {}
            }
        }
        mine.settle(out)?;
        Ok((mine.written, ended, going_on))
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut going_on = Vec::new();
    let mut ended = false;
    for result in results {
        let (written, any_ended, mine) = result?;
        files.written.games += written.games;
        files.written.files += written.files;
        files.written.removed += written.removed;
        ended |= any_ended;
        going_on.extend(mine);
    }
    // A whole build starts from an empty list, and each board comes once.
    going_on.sort_by_key(|(k, _)| *k);
    active.extend(going_on.into_iter().map(|(_, summary)| summary));
    Ok(ended)
}

/// Writes the folder of `board` and its `summary.json`, and returns its line of the
/// index; removes the folder of a game that is gone (`None`).
fn write_one(
    files: &mut Files,
    store: &Store,
    out: &Path,
    board: BoardId,
    around: &game_page::Around<'_>,
) -> Result<Option<Summary>, SiteError> {
    let Some(file) = store.game(board)? else {
        // The game is gone (deleted, declined): so is its page.
        files.remove_game(&game_dir(out, board))?;
        return Ok(None);
    };
    let live = LiveGame::load(file)?;
    // Only a finished game is reviewed.
    let review = if live.game().is_over() {
        store.review(board)?
    } else {
        None
    };
    let summary =
        game_page::write_game(files, &game_dir(out, board), &live, around, review.as_ref())?;
    let json = serde_json::to_vec_pretty(&summary).unwrap_or_default();
    files.write(&game_dir(out, board).join("summary.json"), &json)?;
    files.written.games += 1;
    Ok(Some(summary))
}

/// The pages around the games: style, scripts, icon and rules (when missing), standings and
/// history (when a game `ended`, or all of them for the whole site or a new one),
/// and the index of `active` and the newest finished games.
fn write_lists(
    files: &mut Files,
    store: &Store,
    target: Target<'_>,
    now: u64,
    scope: Scope,
    ended: bool,
    active: &[Summary],
) -> Result<(), SiteError> {
    let out = target.out;
    let all = scope == Scope::Whole;
    let fresh = !out.join("standings.html").exists();
    files.write(&out.join("style.css"), page::STYLE.as_bytes())?;
    files.write(&out.join("points.js"), POINTS_JS.as_bytes())?;
    files.write(&out.join("board.js"), BOARD_JS.as_bytes())?;
    files.write(&out.join("favicon.svg"), picture::ICON_SVG.as_bytes())?;
    if all || !out.join("favicon.ico").exists() {
        let ico = picture::icon_ico().map_err(|source| SiteError::Icon { source })?;
        files.write(&out.join("favicon.ico"), &ico)?;
    }
    if all || fresh || !out.join("rules.html").exists() {
        files.write(&out.join("rules.html"), lists::rules().as_bytes())?;
    }
    if all || fresh || ended {
        files.write(
            &out.join("standings.html"),
            lists::standings(store, now)?.as_bytes(),
        )?;
    }
    if all || fresh || ended {
        // Only the newest history files change when games end (`lists::history`).
        lists::history(store, out, all || fresh, &mut |name, html| {
            files.write(&out.join(name), html.as_bytes())
        })?;
    }
    // The tournaments' pages (issue 49), small: all of them each time.
    files.make_dir(&out.join("tournaments"))?;
    for (name, html) in tournament::pages(store)? {
        files.write(&out.join(name), html.as_bytes())?;
    }
    // The finished games from the store's history index: the newest, two files at most.
    let (finished, total) = index::history_page(store, 1, lists::INDEX_FINISHED)?;
    files.write(
        &out.join("index.html"),
        lists::index(
            active,
            &finished,
            total,
            target.address,
            &seeks::section(store)?,
        )
        .as_bytes(),
    )?;
    Ok(())
}

/// The script of every game page (`DIR/board.js`): draws the positions from the
/// page's data, steps through them, and is the play mode.
const BOARD_JS: &str = include_str!("board.js");

/// The script `board.js` stands on (`DIR/points.js`, loaded first): the board's
/// points and lines, the actions read and put down, why a click is not taken.
const POINTS_JS: &str = include_str!("points.js");

/// The site's list of the games going on (`DIR/active.json`).
const ACTIVE: &str = "active.json";

/// The games going on as the site last wrote them; from the games' own summaries
/// when the list is missing or damaged (a site written before it existed).
fn active_games(out: &Path) -> Vec<Summary> {
    if let Some(list) = std::fs::read(out.join(ACTIVE))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
    {
        return list;
    }
    std::fs::read_dir(out.join("games"))
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read(e.path().join("summary.json")).ok())
                .filter_map(|bytes| serde_json::from_slice::<Summary>(&bytes).ok())
                .filter(|s| !s.over)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// issue 24 item 4: `Summary` holds a `BoardId`, and `summary.json` still has the
    /// board as a bare number, so a site written before reads back.
    #[test]
    fn a_summary_keeps_its_board_a_number_in_json() {
        let s = Summary {
            board: 101.into(),
            white: "alice".to_string(),
            black: "bob".to_string(),
            blitz: false,
            turns: 3,
            over: false,
            status: "bob to move".to_string(),
            updated: 7,
        };
        let json = serde_json::to_string(&s).expect("json");
        assert!(json.starts_with("{\"board\":101,"), "{json}");
        let back: Summary = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, s);
    }
}
