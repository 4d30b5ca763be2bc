//! `yinsh-pbem reindex`: under the store's lock, every index built again from the
//! game files (after an operator edited or restored game files by hand); the damaged
//! files left out are logged and told to the operator, as any scan's are.

use crate::server::config::Settings;
use crate::server::game::index::{self, Rebuilt};
use crate::server::internal::InternalError;
use crate::server::outgoing::Reply;
use crate::server::store::Store;

use super::indexes::log_rebuilt;
use super::log::Log;
use super::report::Report;
use super::send::{Which, send};
use super::txn::{Locked, Work};

/// `yinsh-pbem reindex`: under the lock, every index built again from the game files;
/// damaged files are logged and told to the operator.
pub fn reindex(settings: &Settings) -> Result<Report, InternalError> {
    let store = Store::open(&settings.home)?;
    let mut report = Report::default();
    let (locked, recovered) = Locked::take(&store, settings)?;
    report.lines.extend(recovered);
    let now = settings.now();
    let rebuilt = index::rebuild(&store, now)?;
    log_rebuilt(&store, now, "yinsh-pbem reindex", &rebuilt);
    report.lines.push(summary(&rebuilt));
    let seed = |k: usize, r: &Reply| format!("reindex-{now}-{k}-{}", r.subject);
    locked.transaction(
        &format!("reindex-{now}"),
        now,
        None,
        &seed,
        &mut report,
        &mut |report, line| report.lines.push(line),
        |_, _| Ok(Work::default()),
    )?;
    let ids = locked.spooled_ids()?;
    drop(locked);
    let log = Log::in_home(store.home());
    send(
        &store,
        settings,
        now,
        Which::Spooled(&ids),
        &log,
        &mut report,
    )?;
    Ok(report)
}

/// The line `reindex` prints.
fn summary(rebuilt: &Rebuilt) -> String {
    let mut line = format!(
        "rebuilt the index: {} games ({} finished)",
        rebuilt.games, rebuilt.finished
    );
    for (board, why) in &rebuilt.damaged {
        line.push_str(&format!("\nleft out the damaged board {board}: {why}"));
    }
    line
}
