//! The robot's reviews of finished games (issue 28), made off the mail path by `flush`
//! and `tick`, as the robots' turns are (`robot.rs`), by the same drain
//! (`owed::drain`). A transaction that ends a
//! game (any ending: rows, resignation, forfeit, agreed draw; a robot's winning turn)
//! records the review owed in the same transaction ([`record`],
//! `<home>/reviews/owed/`, with who is answerable for it: the person whose mail ended
//! the game, a stranger, the server when its clock did), unless no person moved in the game
//! (`game::review::worth_reviewing`), and so does a `review` request (`exec::review`).
//! The `deliver` that ends a game makes none ([`REVIEWS_PER_DELIVER`]): its mails go
//! out without waiting. Once a `flush` or `tick` has sent what is spooled and
//! released the lock, it takes up the first review owed that nobody holds, in the
//! queue's order (`store::OwedReview`: those a stranger is answerable for after all
//! the others; within each, the players' own games, then accounts' requests of other
//! games, strangers' requests last, oldest first), ([`make_owed`]: at most
//! [`REVIEWS_PER_FLUSH`] in a `flush`, [`REVIEWS_PER_TICK`] in a `tick`): claims it
//! under the lock for [`LEASE`] seconds, thinks with no lock held (`ai::review` over
//! the game's turns at `[robot] review_playouts` a position), then in a transaction
//! of its own keeps the review (`reviews/<board>.json`), forgets the owed entry,
//! counts the think time in `robot-time.json` (`review_ms`, and the robots'
//! `think_ms`), and sends the review mails, which pass the gate with its cause: one
//! to each human player (robots get none) and to each account that asked
//! (`requesters`). A game whose review exists is
//! never thought again. Reviews take at most `[robot] review_seconds_per_hour` of the
//! robots' think time in a clock hour (and nothing once all the robots' time is
//! spent), a review strangers are answerable for only while less than half of that is
//! spent ([`STRANGERS_PART`]): past it they wait for a run in the next hour, with a
//! log line. A review
//! may start while any of the share is left, so one review may go past it. A run
//! killed while thinking loses nothing: its claim lapses and the next run makes the
//! review.

use std::time::Instant;

use crate::server::config::Settings;
use crate::server::game::record::LiveGame;
use crate::server::game::review::{self, stored, worth_reviewing};
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::thread::Thread;
use crate::server::outgoing::{Audience, HtmlPart, Reply};
use crate::server::store::{Answerable, GameFile, GameReview, Owed, OwedKind, OwedReview, Store};
use crate::server::text::review::ReviewMail;
use crate::server::text::{owed, subjects};

use super::super::context::Ctx;
use super::super::thought::commit_thought;
use super::super::txn::{Started, Work};
use super::{Job, drain};

/// Reviews one `deliver` makes: none, so that the mail that ends a game (the
/// largest and slowest a review made) goes out without waiting; `flush`, every 5
/// minutes under the package's timers, makes it.
pub const REVIEWS_PER_DELIVER: usize = 0;

/// Reviews one `flush` makes at most, after sending what is spooled.
pub const REVIEWS_PER_FLUSH: usize = 2;

/// Reviews one `tick` makes at most.
pub const REVIEWS_PER_TICK: usize = 3;

/// Reviews strangers are answerable for start only while less than this part of the
/// reviews' share of the hour is spent (one half): the rest is kept for the reviews of
/// persons' games, which come first in the queue anyway.
pub const STRANGERS_PART: u128 = 2;

/// How long a run keeps a review it is going to think about, in seconds: far more
/// than a long game's review takes at the most playouts `check-config` allows.
pub const LEASE: u64 = 900;

/// When `file`'s game ended: the recorded ending's time, else its last turn's.
fn ended_at(live: &LiveGame) -> Option<u64> {
    live.game().is_over().then_some(())?;
    let f = live.file();
    f.ended
        .as_ref()
        .map(|e| e.at)
        .or_else(|| f.turns.last().map(|t| t.at))
}

/// Inside an open transaction: for every game it wrote (`written`,
/// `txn::written_games`) that ended at `now` (in this transaction), that a person
/// moved in and that has neither a review nor one owed, record the review owed,
/// caused as `cause` says. Returns the boards recorded.
pub fn record(
    store: &Store,
    now: u64,
    written: &[LiveGame],
    cause: &dyn Fn(&LiveGame) -> Answerable,
) -> Result<Vec<BoardId>, InternalError> {
    let mut out = Vec::new();
    for live in written {
        let board = live.board();
        if ended_at(live) != Some(now)
            || !worth_reviewing(live)
            || store.review(board)?.is_some()
            || store.owed::<OwedReview>(board)?.is_some()
        {
            continue;
        }
        store.put_owed(&OwedReview::new(board, now, cause(live)))?;
        out.push(board);
    }
    Ok(out)
}

/// After a run's own work, with the lock released: make at most `max` reviews owed,
/// each within the hour's share (`owed::drain`). Returns the boards reviewed (for
/// the web site).
pub fn make_owed(ctx: &mut Ctx<'_>, max: usize) -> Vec<BoardId> {
    drain::<Reviews>(ctx, Vec::new(), max)
}

/// The reviews, as the drain of work owed makes them: the first review owed that
/// nobody holds, in the queue's order (strangers' last, then the players' own games
/// first, oldest first).
pub struct Reviews;

impl Job for Reviews {
    type Item = OwedReview;
    const LEFT: &'static str = owed::REVIEW_LEFT;

    fn lease(_: &Settings) -> u64 {
        LEASE
    }

    fn claim_key(owed: &OwedReview, now: u64) -> String {
        format!("review-claim-{}-{now}", owed.board)
    }

    /// The reviews' share of this hour, or all the robots' think time, is spent
    /// while reviews are owed; or the next review is a stranger's (none of anyone
    /// else's is free: they come first) and half the reviews' share is spent.
    fn out_of_time(ctx: &Ctx<'_>) -> Result<Option<String>, InternalError> {
        let (store, settings, now) = (ctx.store, ctx.settings, ctx.now);
        let time = store.robot_time()?;
        let (reviewed, cap) = (time.reviewed(now), settings.review_per_hour.as_millis());
        let all_spent = u128::from(time.spent(now)) >= settings.robot_think_per_hour.as_millis();
        let owed = store.all_owed::<OwedReview>()?;
        let next_strangers =
            (owed.iter().find(|o| o.is_free(now))).is_some_and(|o| o.cause == Answerable::Stranger);
        if next_strangers && !all_spent && u128::from(reviewed) >= cap / STRANGERS_PART {
            return Ok(Some(owed::strangers_reviews_spent(
                u128::from(reviewed / 1000),
                cap / STRANGERS_PART / 1000,
            )));
        }
        if (u128::from(reviewed) < cap && !all_spent) || owed.is_empty() {
            return Ok(None);
        }
        Ok(Some(owed::reviews_spent(
            u128::from(reviewed / 1000),
            cap / 1000,
            all_spent,
        )))
    }

    fn make(ctx: &mut Ctx<'_>, owed: OwedReview) -> Result<Vec<BoardId>, InternalError> {
        make_one(ctx, owed).map(|board| vec![board])
    }
}

/// What thinking about one review came to.
enum Thought {
    /// The review, as it is kept.
    Made(GameReview),
    /// Nothing to think: the game is gone, its review exists already, or no person
    /// moved in it.
    Nothing,
    /// The game does not replay: the review is dropped, with this line.
    Damaged(String),
}

/// Think about `owed` with no lock held, then keep it and mail it under the lock in a
/// transaction of its own. Returns the board.
fn make_one(ctx: &mut Ctx<'_>, owed: OwedReview) -> Result<BoardId, InternalError> {
    let (store, settings) = (ctx.store, ctx.settings);
    let board = owed.board;
    let started = Instant::now();
    let thought = match (store.review(board)?, store.game(board)?) {
        (None, Some(file)) => think(board, file, settings),
        _ => Thought::Nothing,
    };
    let thought_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    commit_thought(
        ctx,
        |now| format!("review-{board}-{now}"),
        Started::Owed(owed.cause),
        |ctx| keep(ctx, thought_ms, board, thought).map(Work::from),
    )?;
    Ok(board)
}

/// The review of `board`'s game `file`, thought with no lock held.
fn think(board: BoardId, file: GameFile, settings: &Settings) -> Thought {
    let live = match LiveGame::load(file) {
        Ok(live) => live,
        Err(e) => return Thought::Damaged(e.to_string()),
    };
    if !worth_reviewing(&live) {
        return Thought::Nothing;
    }
    match review::think(&live, settings.review_playouts) {
        Ok(Some(r)) => Thought::Made(stored(board, &r, settings.now())),
        Ok(None) => Thought::Damaged(owed::TURN_DOES_NOT_REPLAY.to_string()),
        Err(e) => Thought::Damaged(e.to_string()),
    }
}

/// Under the lock, in a transaction: count the think time, forget the review owed,
/// and keep the review made (unless one exists already); returns its mails.
fn keep(
    ctx: &mut Ctx<'_>,
    thought_ms: u64,
    board: BoardId,
    thought: Thought,
) -> Result<Vec<Reply>, InternalError> {
    let (store, now, report) = (ctx.store, ctx.now, &mut *ctx.report);
    let time = store.robot_time()?.add_review(now, thought_ms);
    store.put_robot_time(&time)?;
    let owed = store.owed::<OwedReview>(board)?;
    store.remove_owed(OwedKind::Review, board)?;
    let review = match thought {
        Thought::Made(review) => review,
        Thought::Nothing => {
            report.lines.push(owed::nothing_to_review(board));
            return Ok(Vec::new());
        }
        Thought::Damaged(why) => {
            report.lines.push(owed::not_reviewed(board, &why));
            return Ok(Vec::new());
        }
    };
    let (Some(file), None) = (store.game(board)?, store.review(board)?) else {
        report.lines.push(owed::review_made_already(board));
        return Ok(Vec::new());
    };
    store.put_review(&review)?;
    let live = LiveGame::load(file)?;
    let requesters = owed.map(|o| o.requesters).unwrap_or_default();
    let mails = review_mails(store, &live, &review, &requesters)?;
    report.lines.push(owed::reviewed(
        board,
        thought_ms,
        review.points.len(),
        mails.len(),
    ));
    Ok(mails)
}

/// The review mails of `live`: one to each human player, and to each account of
/// `requesters` that is no player; each at the account's own addresses, with the
/// HTML part unless its owner chose text only (the gate judges the addresses).
fn review_mails(
    store: &Store,
    live: &LiveGame,
    review: &GameReview,
    requesters: &[UserId],
) -> Result<Vec<Reply>, InternalError> {
    let mail = ReviewMail { live, review };
    let (body, html) = (mail.body(), mail.html());
    let f = live.file();
    let players = [&f.white, &f.black];
    let mut out = Vec::new();
    let readers = players
        .into_iter()
        .filter(|p| p.robot_level().is_none())
        .chain(
            requesters
                .iter()
                .filter(|r| players.iter().all(|p| p.key() != r.key())),
        );
    for reader in readers {
        let Some(account) = store.account(reader)? else {
            continue;
        };
        let is_player = players.iter().any(|p| p.key() == reader.key());
        out.push(Reply {
            to: account.addresses.clone(),
            subject: subjects::review(live.board()),
            body: body.clone(),
            html: (!account.text_only).then(|| HtmlPart::Review(html.clone())),
            thread: if is_player {
                Thread::board(store, live, reader)?
            } else {
                Thread::game(live)
            },
            audience: Audience::Players,
            ..Reply::default()
        });
    }
    Ok(out)
}
