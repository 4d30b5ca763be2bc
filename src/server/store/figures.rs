//! What `status` reads of the store, typed ([`Figures`], `Store::figures`), and the
//! two files the runs leave for it: `<home>/last-tick` and `<home>/last-flush`
//! ([`mark_run`]: the time a run ended, in Unix seconds and a newline). Bounded work
//! whatever the size of the store: no game or account file is read; the games come
//! from the due index, the work owed from its folders' listings, the boards from
//! `next-board`, the failing addresses from `bounces/`.

use std::path::{Path, PathBuf};

use crate::durable::{Existing, write_durable};

use super::{BounceRecord, FIRST_BOARD, OwedKind, RobotTime, Store, StoreError};

/// A run whose end `status` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastRun {
    /// `yinsh-pbem tick`.
    Tick,
    /// `yinsh-pbem flush`.
    Flush,
}

impl LastRun {
    fn file(self, home: &Path) -> PathBuf {
        home.join(match self {
            LastRun::Tick => "last-tick",
            LastRun::Flush => "last-flush",
        })
    }
}

/// Notes that `run` ended at `now` (`<home>/last-tick` or `last-flush`). A failure
/// only loses the figure: it is not reported.
pub fn mark_run(home: &Path, run: LastRun, now: u64) {
    let _ = write_durable(
        &run.file(home),
        format!("{now}\n").as_bytes(),
        Existing::Replace,
    );
}

/// The store's figures at one time; times are Unix seconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// The end of the last `tick`.
    pub last_tick: Option<u64>,
    /// The end of the last `flush`.
    pub last_flush: Option<u64>,
    /// The last time a mail was handled (the last change of the newest day folder of
    /// `seen/`).
    pub last_mail: Option<u64>,
    /// Addresses marked failing after hard bounces (`bounces/`).
    pub failing_addresses: usize,
    /// Accounts with no confirmed address yet (`unconfirmed/`).
    pub unconfirmed_accounts: usize,
    /// The robots' think time counted (`robot-time.json`).
    pub robot_time: RobotTime,
    /// Reviews owed.
    pub reviews_owed: usize,
    /// Robot turns owed.
    pub robot_turns_owed: usize,
    /// Boards started so far (finished ones included).
    pub boards: u64,
    /// Games going on with a person to move (the due index).
    pub games_going_on: usize,
    /// Of those, the games whose reminder or forfeit is due at the time asked.
    pub games_due: usize,
}

impl Store {
    /// The figures of the store at `now`, read without its lock (each as it is).
    pub fn figures(&self, now: u64) -> Result<Figures, StoreError> {
        let home = self.home();
        let mut f = Figures {
            last_tick: read_number(&LastRun::Tick.file(home)),
            last_flush: read_number(&LastRun::Flush.file(home)),
            last_mail: last_mail(&home.join("seen")),
            failing_addresses: failing(&home.join("bounces")),
            unconfirmed_accounts: count(&home.join("unconfirmed"), ".json"),
            robot_time: self.robot_time()?,
            reviews_owed: count(&self.owed_dir(OwedKind::Review), ".json"),
            robot_turns_owed: count(&self.owed_dir(OwedKind::RobotTurn), ".json"),
            boards: read_number(&self.counter_path())
                .map_or(0, |n| n.saturating_sub(u64::from(FIRST_BOARD))),
            ..Figures::default()
        };
        for day in self.due_days()? {
            for entry in self.due_on(day)? {
                f.games_going_on += 1;
                if entry.at <= now {
                    f.games_due += 1;
                }
            }
        }
        Ok(f)
    }
}

/// The files of `dir` whose names end in `suffix` (not starting with a dot).
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    !name.starts_with('.') && name.ends_with(suffix)
                })
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// How many files of `dir` end in `suffix`.
fn count(dir: &Path, suffix: &str) -> usize {
    files(dir, suffix).len()
}

/// A number alone in a file.
fn read_number(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The last change of the newest day folder of `seen/` (`<home>/seen/YYYY-MM-DD/`):
/// the last mail handled.
fn last_mail(seen: &Path) -> Option<u64> {
    let newest = std::fs::read_dir(seen)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            is_day_name(&name).then(|| (name, e.path()))
        })
        .max()?;
    let modified = std::fs::metadata(newest.1).ok()?.modified().ok()?;
    modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// Is `name` a day folder's name of `seen/` (`YYYY-MM-DD`, as `day_name` writes
/// it)? Such names sort by date.
fn is_day_name(name: &str) -> bool {
    name.len() == 10
        && name.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// The addresses marked failing in `bounces/`: the records read with a
/// `failing_since` (a record that does not read is not counted: `status` shows what
/// it can).
fn failing(dir: &Path) -> usize {
    files(dir, ".json")
        .iter()
        .filter(|p| {
            std::fs::read(p)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<BounceRecord>(&bytes).ok())
                .is_some_and(|r| r.failing_since.is_some())
        })
        .count()
}
