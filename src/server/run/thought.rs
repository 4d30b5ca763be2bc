//! Work a run thought about with no lock held (a robot's turn, `owed/robot.rs`; a
//! review, `owed/review.rs`), then made: under the store's lock, in a transaction of
//! its own (a journal a crash left is completed first) whose replies pass the gate
//! as what started the work caused them, its lines written to the report and the
//! log, then its replies sent once the lock is released.

use crate::server::internal::InternalError;

use super::context::Ctx;
use super::send::{Which, send};
use super::txn::{Committed, Locked, Notes, Started, Txn, Work};

/// Takes the lock and runs `work` in a transaction named by `key(now)` and started
/// by `started` (`now`: the time when the thinking is done, later than the run's),
/// logs every line it noted, releases the lock and sends the replies it committed.
/// Returns what it committed.
pub fn commit_thought(
    ctx: &mut Ctx<'_>,
    key: impl FnOnce(u64) -> String,
    started: Started<'_>,
    work: impl FnOnce(&mut Ctx<'_>) -> Result<Work, InternalError>,
) -> Result<Committed, InternalError> {
    let (locked, recovered) = Locked::take(ctx.store, ctx.settings)?;
    let mut ctx = ctx.later();
    if let Some(line) = recovered {
        ctx.note(line);
    }
    let key = key(ctx.now);
    // Every line goes to the report, and to the log below.
    let before = ctx.report.lines.len();
    let committed = locked.transaction(
        &mut ctx,
        Txn {
            key: &key,
            started,
            seed: &|k, _| format!("{key}-{k}"),
            notes: Notes::Reported,
        },
        work,
    )?;
    for line in &ctx.report.lines[before..] {
        ctx.log.line(ctx.now, line);
    }
    drop(locked);
    send(&mut ctx, Which::Own(&committed.spooled))?;
    Ok(committed)
}
