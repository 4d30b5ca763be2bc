//! The open seeks' clock, run by tick inside its transaction: a seek past its
//! expiry is removed and its owner mailed once (the mail of the seek's own removal,
//! so a second tick finds nothing to tell); a seek with a robot to fall back on that
//! nobody took within a day becomes the robot's game, as a challenge of the robot
//! would (its board mail to the owner; a robot to move plays after the transaction,
//! as the work owed). A robot that may not play the owner now (too many games
//! against the robots) leaves the seek open until it expires. Every mail goes
//! through tick's gate with the owner as its cause.

use crate::server::internal::InternalError;
use crate::server::model::UserId;
use crate::server::outgoing::board_mails::board_mails;
use crate::server::outgoing::{Cause, Reply};
use crate::server::store::{SeekColour, Store};
use crate::server::text::reply::Event;
use crate::server::text::seeks as text;
use crate::server::text::subjects;

use super::start::start;
use crate::server::exec::error::ExecError;
use crate::server::exec::robots;

/// Expires the seeks due at `now` and starts the robots' games due; returns the
/// mails and the log lines.
pub fn tick(store: &Store, now: u64) -> Result<(Vec<Reply>, Vec<String>), InternalError> {
    let mut seeks = store.seeks()?;
    let (mut replies, mut lines) = (Vec::new(), Vec::new());
    let mut changed = false;
    for seek in seeks.open.clone() {
        if now >= seek.expires {
            seeks.remove(seek.id);
            changed = true;
            lines.push(text::log_expired(seek.id, &seek.owner));
            if let Some(owner) = store.account(&seek.owner)? {
                replies.push(Reply {
                    to: owner.addresses.clone(),
                    subject: subjects::open_seeks(),
                    body: text::expired(&seek),
                    cause: Cause::Owner,
                    ..Reply::default()
                });
            }
            continue;
        }
        let (Some(level), Some(at)) = (seek.wish.robot, seek.robot_at()) else {
            continue;
        };
        if now < at {
            continue;
        }
        let Some(owner) = store.account(&seek.owner)? else {
            seeks.remove(seek.id);
            changed = true;
            continue;
        };
        let Ok(userid) = format!("robot{level}").parse::<UserId>() else {
            continue;
        };
        let Some(robot) = robots::account_or_robot(store, &userid, now)? else {
            continue;
        };
        if robots::refused_challenge(store, &owner, &robot)?.is_some() {
            continue;
        }
        seeks.remove(seek.id);
        changed = true;
        let starter = owner.userid.clone();
        let live = match start(store, now, &seek, (owner, robot), SeekColour::Any, starter) {
            Ok(live) => live,
            Err(ExecError::Internal(e)) => return Err(e),
            // Starting a game refuses nothing a player chose.
            Err(ExecError::Refused(_)) => continue,
        };
        lines.push(text::log_robot(seek.id, &seek.owner, live.board()));
        let mut mails = board_mails(store, &live, Event::NewGame, None)?;
        for m in &mut mails {
            m.cause = Cause::Owner;
        }
        replies.extend(mails);
    }
    if changed {
        store.put_seeks(&seeks)?;
    }
    Ok((replies, lines))
}
