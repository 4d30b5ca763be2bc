//! Work a run thought about with no lock held (a robot's turn, `opponent.rs`; a
//! review, `reviews.rs`), then made: under the store's lock, in a transaction of its
//! own (a journal a crash left is completed first), its lines written to the report
//! and the log, then its replies sent once the lock is released.

use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::log::Log;
use super::report::Report;
use super::send::{Which, send};
use super::txn::{Committed, Locked, Work};

/// Takes the lock and runs `work` in a transaction named by `key(now)` (`now`: the
/// time when the thinking is done, later than the run's), logs every line it noted,
/// releases the lock and sends the replies it committed. Returns what it committed.
pub fn commit_thought(
    store: &Store,
    settings: &Settings,
    log: &Log,
    report: &mut Report,
    key: impl FnOnce(u64) -> String,
    work: impl FnOnce(&Store, u64, &mut Report) -> Result<Work, InternalError>,
) -> Result<Committed, InternalError> {
    let (locked, recovered) = Locked::take(store, settings)?;
    let now = settings.now();
    if let Some(line) = recovered {
        log.note(now, report, line);
    }
    let key = key(now);
    // Every line goes to the report, and to the log below.
    let mut note = |report: &mut Report, line: String| report.lines.push(line);
    let before = report.lines.len();
    let committed = locked.transaction(
        &key,
        now,
        None,
        &|k, _| format!("{key}-{k}"),
        report,
        &mut note,
        |store, report| work(store, now, report),
    )?;
    for line in &report.lines[before..] {
        log.line(now, line);
    }
    drop(locked);
    send(
        store,
        settings,
        now,
        Which::Own(&committed.spooled),
        log,
        report,
    )?;
    Ok(committed)
}
