//! `yinsh-pbem reindex`: under the store's lock, every index built again from the
//! game files (after an operator edited or restored game files by hand); the damaged
//! files left out are logged and told to the operator, as any scan's are.

use crate::server::config::Settings;
use crate::server::game::index::{self, Rebuilt};
use crate::server::internal::InternalError;
use crate::server::outgoing::Reply;
use crate::server::store::Store;
use crate::server::text::log as log_text;

use super::context::Ctx;
use super::indexes::log_rebuilt;
use super::log::Log;
use super::report::Report;
use super::send::{Which, send};
use super::txn::{Locked, Notes, Started, Txn, Work};

/// `yinsh-pbem reindex`: under the lock, every index built again from the game files;
/// damaged files are logged and told to the operator.
pub fn reindex(settings: &Settings) -> Result<Report, InternalError> {
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(store.home());
    let mut report = Report::default();
    let (locked, recovered) = Locked::take(&store, settings)?;
    let mut ctx = Ctx::new(&store, settings, &log, &mut report);
    let now = ctx.now;
    ctx.report.lines.extend(recovered);
    let rebuilt = index::rebuild(&store, now)?;
    log_rebuilt(&store, now, "yinsh-pbem reindex", &rebuilt);
    ctx.report.lines.push(summary(&rebuilt));
    let seed = |k: usize, r: &Reply| format!("reindex-{now}-{k}-{}", r.subject);
    let txn = Txn {
        key: &format!("reindex-{now}"),
        started: Started::Server,
        seed: &seed,
        notes: Notes::Reported,
    };
    locked.transaction(&mut ctx, txn, |_| Ok(Work::default()))?;
    let ids = locked.spooled_ids()?;
    drop(locked);
    send(&mut ctx, Which::Spooled(&ids))?;
    Ok(report)
}

/// The line `reindex` prints.
fn summary(rebuilt: &Rebuilt) -> String {
    log_text::reindexed(rebuilt.games, rebuilt.finished, &rebuilt.damaged)
}
