//! What `deliver` and `tick` do once the store's lock is released: send the replies
//! their transaction spooled, play the robot turns owed (`opponent`), make the
//! reviews owed (`reviews`), and refresh the web site for the boards that changed.

use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::log::Log;
use super::opponent;
use super::report::Report;
use super::reviews;
use super::send::{Which, send};
use super::site;
use super::txn::Committed;

/// Send `which`, play the robot turns `committed` claimed (then free ones), make at
/// most `reviews` reviews owed, refresh the site for the boards `committed`, the
/// robots' turns and the reviews changed.
#[allow(clippy::too_many_arguments)]
pub fn finish(
    store: &Store,
    settings: &Settings,
    now: u64,
    log: &Log,
    report: &mut Report,
    which: Which<'_>,
    committed: Committed,
    reviews: usize,
) -> Result<(), InternalError> {
    // Sent with the store's lock released: a slow or failing relay holds no one up.
    send(store, settings, now, which, log, report)?;
    let mut boards = committed.boards_changed(store);
    boards.extend(opponent::play_owed(
        store,
        settings,
        now,
        log,
        report,
        committed.robot_turns,
    ));
    boards.extend(reviews::make_owed(
        store, settings, now, log, report, reviews,
    ));
    site::refresh(store, settings, now, log, report, boards);
    Ok(())
}
