//! The work the server owes, done off the mail path: the robots' turns
//! ([`robot`]) and the reviews of finished games ([`review`]), the two kinds of
//! the store's one queue (`store::owed`). A transaction that makes work owed
//! records it in the same transaction ([`record`]), with who is answerable for it
//! (the person whose proven mail made it owed, a stranger, or the server: its
//! cause). Once the lock is released, one drain ([`drain`]) does it: up to a number
//! of items a run, each claimed under the lock for a lease (first those the run's
//! own transaction claimed, then any that is free: never claimed, or claimed by a run
//! that died), thought about with no lock held, then made in a transaction of its own
//! (`thought.rs`) whose mails pass the gate with the item's cause. Each kind says
//! when the hour's think time is spent ([`Job::out_of_time`]) and how one item is
//! thought and made ([`Job::make`]). A failure is logged, never the run's: the work
//! stays owed for the next run.

pub mod review;
pub mod robot;

use crate::server::config::Settings;
use crate::server::exec::Proven;
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::Cause;
use crate::server::store::{Answerable, Owed};

use super::context::Ctx;
use super::txn::claim;

/// One kind of work owed, as the drain does it.
pub trait Job {
    /// Its records.
    type Item: Owed;

    /// The start of the log line when an item is left for the next run.
    const LEFT: &'static str;

    /// How long a run keeps an item it is going to think about, in seconds.
    fn lease(settings: &Settings) -> u64;

    /// The journal key of the claim of `item` at `now`.
    fn claim_key(item: &Self::Item, now: u64) -> String;

    /// Why no item of this kind may be thought now, if so (the line to log).
    fn out_of_time(ctx: &Ctx<'_>) -> Result<Option<String>, InternalError>;

    /// Think about `item` with no lock held, then make it under the lock in a
    /// transaction of its own and send its mails; the boards whose files changed.
    fn make(ctx: &mut Ctx<'_>, item: Self::Item) -> Result<Vec<BoardId>, InternalError>;
}

/// After a run's own work, with the lock released: do at most `max` items of `J`'s
/// kind, first those the run `claimed`, then free ones, each while the hour's think
/// time allows. Returns the boards whose files changed (for the web site).
pub fn drain<J: Job>(ctx: &mut Ctx<'_>, claimed: Vec<BoardId>, max: usize) -> Vec<BoardId> {
    let mut changed = Vec::new();
    let mut mine = claimed.into_iter();
    for _ in 0..max {
        match J::out_of_time(ctx) {
            Ok(None) => {}
            Ok(Some(line)) => {
                ctx.note(line);
                break;
            }
            Err(e) => {
                ctx.note(format!("{}: {e}", J::LEFT));
                break;
            }
        }
        let next = match mine.next() {
            Some(board) => ctx
                .store
                .owed::<J::Item>(board)
                .map_err(InternalError::from),
            None => claim_free::<J>(ctx),
        };
        let result = next.and_then(|owed| match owed {
            Some(owed) => J::make(ctx, owed).map(Some),
            None => Ok(None),
        });
        match result {
            Ok(Some(boards)) => changed.extend(boards),
            Ok(None) if mine.len() > 0 => {}
            Ok(None) => break,
            Err(e) => {
                ctx.note(format!("{}: {e}", J::LEFT));
                break;
            }
        }
    }
    changed
}

/// Under the lock, claim the first item of `J`'s kind nobody holds, in its queue's
/// order, if any.
fn claim_free<J: Job>(ctx: &Ctx<'_>) -> Result<Option<J::Item>, InternalError> {
    let now = ctx.now;
    let all = ctx.store.all_owed::<J::Item>()?;
    let Some(free) = all.into_iter().find(|o| o.is_free(now)) else {
        return Ok(None);
    };
    let until = now + J::lease(ctx.settings);
    claim(ctx, &J::claim_key(&free, now), |store| {
        // Read again under the lock: another run may have taken it meanwhile.
        let Some(o) = store
            .owed::<J::Item>(free.board())?
            .filter(|o| o.is_free(now))
        else {
            return Ok(None);
        };
        let o = o.claimed(until);
        store.put_owed(&o)?;
        Ok(Some(o))
    })
}

/// Inside a mail's transaction: for every game it wrote (`written`,
/// `txn::written_games`), the robot turn and the review now owed recorded, each
/// caused as [`cause_of`] says from the proofs of the mail's commands (`proofs`,
/// `inbound::Answered::proofs`); the first `[robot] turns_per_run` robot turns
/// claimed for this run are returned.
pub fn record(
    ctx: &Ctx<'_>,
    written: &[LiveGame],
    proofs: &[Proven],
) -> Result<Vec<BoardId>, InternalError> {
    let cause = |live: &LiveGame| cause_of(live, proofs);
    let claimed = robot::record(ctx, written, &cause)?;
    review::record(ctx.store, ctx.now, written, &cause)?;
    Ok(claimed)
}

/// Who is answerable for the work a mail made owed in `live`, decided once, when it
/// is made owed, from the proofs of the mail's commands (`proofs`, each made by
/// `inbound::identity::prove`): the first actor proven for an account with a
/// confirmed address, nothing refused (`Cause::Owner`), who takes part in the game
/// (one of its players, or the person who started a game of robots); else a
/// stranger: nobody the mail proved with a confirmed address takes part in it.
pub fn cause_of(live: &LiveGame, proofs: &[Proven]) -> Answerable {
    proofs
        .iter()
        .filter(|p| p.cause == Cause::Owner && p.refusal.is_none())
        .filter_map(|p| p.actor.as_ref())
        .map(|actor| &actor.account.userid)
        .find(|who| takes_part(live, who))
        .map_or(Answerable::Stranger, |who| Answerable::Person(who.clone()))
}

/// Whether `who` plays in `live`, or started it for two robots.
fn takes_part(live: &LiveGame, who: &UserId) -> bool {
    let f = live.file();
    let key = who.key();
    [&f.white, &f.black]
        .into_iter()
        .chain(f.extra.started_by.as_ref())
        .any(|p| p.key() == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::exec::Actor;
    use crate::server::model::{Proof, Variant};
    use crate::server::store::{Account, GameFile};

    fn id(s: &str) -> UserId {
        s.parse().expect("userid")
    }

    /// The proof of a command of `who`'s, caused as `cause` says.
    fn proof(who: &str, cause: Cause) -> Proven {
        let password = "a-long-password".parse().expect("password");
        let account = Account::new(&id(who), &password, Vec::new(), 0).expect("account");
        Proven {
            actor: Some(Actor {
                account,
                proof: Proof::Password,
            }),
            cause,
            ..Proven::default()
        }
    }

    #[test]
    fn work_a_mail_made_owed_is_the_proven_persons_who_take_part_else_a_strangers() {
        let file = GameFile::new(101, Variant::Normal, id("alice"), id("robot1"), 1);
        let live = LiveGame::load(file).expect("replays");
        let alice = Answerable::Person(id("alice"));
        assert_eq!(cause_of(&live, &[proof("alice", Cause::Owner)]), alice);
        assert_eq!(
            cause_of(&live, &[proof("Alice", Cause::Owner)]),
            Answerable::Person(id("Alice"))
        );
        assert_eq!(
            cause_of(&live, &[proof("alice", Cause::Stranger)]),
            Answerable::Stranger,
            "an account without a confirmed address is a stranger"
        );
        assert_eq!(
            cause_of(&live, &[proof("carol", Cause::Owner)]),
            Answerable::Stranger,
            "a person who takes no part in the game is answerable for nothing in it"
        );
        assert_eq!(
            cause_of(
                &live,
                &[proof("carol", Cause::Owner), proof("alice", Cause::Owner)]
            ),
            alice,
            "the one of the mail's proofs who takes part"
        );
        let mut refused = proof("alice", Cause::Owner);
        refused.refusal = Some(crate::server::exec::Refusal::BoardNotFound { board: 9.into() });
        assert_eq!(cause_of(&live, &[refused]), Answerable::Stranger);
        assert_eq!(cause_of(&live, &[]), Answerable::Stranger);
        // A game of two robots started for them by a person.
        let mut robots = GameFile::new(102, Variant::Normal, id("robot1"), id("robot2"), 1);
        robots.extra.started_by = Some(id("carol"));
        let live = LiveGame::load(robots).expect("replays");
        assert_eq!(
            cause_of(&live, &[proof("carol", Cause::Owner)]),
            Answerable::Person(id("carol"))
        );
    }
}
