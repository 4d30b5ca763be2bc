//! `yinsh-pbem flush`: send what is spooled and due, then make the reviews owed
//! (`reviews.rs`: off the mail path, within the hour's share).

use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::context::Ctx;
use super::log::Log;
use super::owed::review::{REVIEWS_PER_FLUSH, make_owed};
use super::report::Report;
use super::send::{Which, send};
use super::site;
use super::txn::Locked;
use crate::server::store::{LastRun, mark_run};

/// `yinsh-pbem flush`: send what is spooled and due. The spool's contents are read
/// under the store's lock, after completing a journal a crash left (whose replies may
/// not all be spooled yet); they are sent after it is released. A journal completed
/// while its replies are being sent would queue them twice: mails spooled after the
/// lock was released are left for the next flush. Then at most [`REVIEWS_PER_FLUSH`]
/// reviews owed are made and mailed (`owed::review::make_owed`), and the web site is
/// refreshed for their games.
pub fn flush(settings: &Settings, report: &mut Report) -> Result<(), InternalError> {
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(store.home());
    let mut ctx = Ctx::new(&store, settings, &log, report);
    let (locked, recovered) = Locked::take(&store, settings)?;
    if let Some(line) = recovered {
        ctx.note(line);
    }
    let ids = locked.spooled_ids()?;
    drop(locked);
    send(&mut ctx, Which::Spooled(&ids))?;
    let reviewed = make_owed(&mut ctx, REVIEWS_PER_FLUSH);
    site::refresh(&mut ctx, reviewed, site::Index::Same);
    mark_run(store.home(), LastRun::Flush, ctx.now);
    Ok(())
}
