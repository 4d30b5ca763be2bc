//! What `deliver` and `tick` do once the store's lock is released: send the replies
//! their transaction spooled, do the work owed (`owed`: the robot turns, then the
//! reviews), and refresh the web site for the boards that changed.

use crate::server::internal::InternalError;

use super::context::Ctx;
use super::owed::{review, robot};
use super::send::{Which, send};
use super::site;
use super::txn::Committed;

/// Send `which`, play the robot turns `committed` claimed (then free ones), make at
/// most `reviews` reviews owed, refresh the site for the boards `committed`, the
/// robots' turns and the reviews changed.
pub fn finish(
    ctx: &mut Ctx<'_>,
    which: Which<'_>,
    committed: Committed,
    reviews: usize,
) -> Result<(), InternalError> {
    // Sent with the store's lock released: a slow or failing relay holds no one up.
    send(ctx, which)?;
    let mut boards = committed.boards_changed(ctx.store);
    let index = site::index_changes(ctx.store, &committed.files_changed);
    boards.extend(robot::play_owed(ctx, committed.robot_turns));
    boards.extend(review::make_owed(ctx, reviews));
    site::refresh(ctx, boards, index);
    Ok(())
}
