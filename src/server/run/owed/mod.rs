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
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::{Cause, Reply};
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
/// caused as [`mail_cause`] says (the first `[robot] turns_per_run` robot turns
/// claimed for this run: returned).
pub fn record(
    ctx: &Ctx<'_>,
    written: &[LiveGame],
    replies: &[Reply],
) -> Result<Vec<BoardId>, InternalError> {
    let cause = |live: &LiveGame| mail_cause(live, replies);
    let claimed = robot::record(ctx, written, &cause)?;
    review::record(ctx.store, ctx.now, written, &cause)?;
    Ok(claimed)
}

/// Who is answerable for the work a mail made owed in `live`: the person who acted
/// in the game (`person_in`) when the mail's replies about the game are honest
/// play (`Cause::Owner`: proven for an account with a confirmed address), else a
/// stranger.
pub fn mail_cause(live: &LiveGame, replies: &[Reply]) -> Answerable {
    let board = live.board();
    let proven = replies
        .iter()
        .any(|r| r.cause == Cause::Owner && r.thread.game.is_some_and(|g| g.board == board));
    match person_in(live) {
        Some(person) if proven => Answerable::Person(person.clone()),
        _ => Answerable::Stranger,
    }
}

/// The person who acts in `live`: its one person when it has one (a robot game),
/// else the one who ended it or made its last turn; for a game of robots, who
/// started it for them.
fn person_in(live: &LiveGame) -> Option<&UserId> {
    let f = live.file();
    let person = |p: &&UserId| p.robot_level().is_none();
    let mut people = [&f.white, &f.black].into_iter().filter(person);
    match (people.next(), people.next()) {
        (Some(one), None) => Some(one),
        (Some(_), Some(_)) => (f.ended.as_ref().map(|e| &e.by))
            .filter(person)
            .or_else(|| f.turns.iter().rev().find(|t| !t.auto).map(|t| &t.by)),
        (None, _) => f.extra.started_by.as_ref().or_else(|| {
            let challenger = f.extra.challenger.as_ref()?;
            challenger.userids.first()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::Variant;
    use crate::server::outgoing::thread::{GameRef, Thread};
    use crate::server::store::GameFile;

    fn id(s: &str) -> UserId {
        s.parse().expect("userid")
    }

    /// A reply about `board` caused as `cause` says.
    fn about(board: u32, cause: Cause) -> Reply {
        Reply {
            thread: Thread {
                game: Some(GameRef {
                    board: board.into(),
                    created: 1,
                }),
                ..Thread::default()
            },
            cause,
            ..Reply::default()
        }
    }

    #[test]
    fn work_a_mail_made_owed_is_the_proven_persons_else_a_strangers() {
        let file = GameFile::new(101, Variant::Normal, id("alice"), id("robot1"), 1);
        let live = LiveGame::load(file).expect("replays");
        let alice = Answerable::Person(id("alice"));
        assert_eq!(mail_cause(&live, &[about(101, Cause::Owner)]), alice);
        assert_eq!(
            mail_cause(&live, &[about(101, Cause::Stranger)]),
            Answerable::Stranger
        );
        assert_eq!(
            mail_cause(&live, &[about(102, Cause::Owner)]),
            Answerable::Stranger,
            "honest play in another game proves nothing of this one"
        );
        assert_eq!(mail_cause(&live, &[]), Answerable::Stranger);
        // A game of two robots started for them by a person.
        let mut robots = GameFile::new(102, Variant::Normal, id("robot1"), id("robot2"), 1);
        robots.extra.started_by = Some(id("carol"));
        let live = LiveGame::load(robots).expect("replays");
        assert_eq!(
            mail_cause(&live, &[about(102, Cause::Owner)]),
            Answerable::Person(id("carol"))
        );
    }
}
