//! `yinsh-pbem flush`: send what is spooled and due, then make the reviews owed
//! (`reviews.rs`: off the mail path, within the hour's share).

use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::log::Log;
use super::report::Report;
use super::reviews::{REVIEWS_PER_FLUSH, make_owed};
use super::send::{Which, send};
use super::site;
use super::status::{Run, mark_run};
use super::txn::Locked;

/// `yinsh-pbem flush`: send what is spooled and due. The spool's contents are read
/// under the store's lock, after completing a journal a crash left (whose replies may
/// not all be spooled yet); they are sent after it is released. A journal completed
/// while its replies are being sent would queue them twice: mails spooled after the
/// lock was released are left for the next flush. Then at most [`REVIEWS_PER_FLUSH`]
/// reviews owed are made and mailed (`reviews::make_owed`), and the web site is
/// refreshed for their games.
pub fn flush(settings: &Settings, report: &mut Report) -> Result<(), InternalError> {
    let now = settings.now();
    let store = Store::open(&settings.home)?;
    let (locked, recovered) = Locked::take(&store, settings)?;
    let log = Log::in_home(store.home());
    if let Some(line) = recovered {
        log.note(now, report, line);
    }
    let ids = locked.spooled_ids()?;
    drop(locked);
    send(&store, settings, now, Which::Spooled(&ids), &log, report)?;
    let reviewed = make_owed(&store, settings, now, &log, report, REVIEWS_PER_FLUSH);
    site::refresh(&store, settings, now, &log, report, reviewed);
    mark_run(store.home(), Run::Flush, now);
    Ok(())
}
