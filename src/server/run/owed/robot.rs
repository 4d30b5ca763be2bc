//! The robots' turns, played by `deliver` and `tick` themselves (no daemon, no cron
//! job of their own). A turn that makes it a robot's move records the robot turn owed
//! in the same transaction ([`record`], `<home>/robot-turns/`, with who made it the
//! robot's turn: its cause); once that transaction
//! is committed, the lock released and the mail's own replies sent, the run thinks
//! with no lock held, then takes the lock again and plays the robot's turn in a
//! transaction of its own, if the game has not changed meanwhile (its number of
//! turns), and sends the board mails, which pass the gate with the turn's cause
//! ([`play_owed`], through the drain of all work owed, `owed::drain`). A run plays at most
//! `[robot] turns_per_run` robot turns: first those its own transaction recorded
//! (claimed for it), then any other that is free (never claimed, or claimed by a run
//! that died: its claim lapsed after twice the think time and 30 s). So a crash while
//! the robot thinks loses nothing: the next `deliver` or `tick` plays the turn.
//! All robots together think at most `[robot] think_seconds_per_hour` in one clock
//! hour (counted in `<home>/robot-time.json` by the transaction that plays each
//! turn): past it, the turns owed wait for a run in the next hour, with a log line.
//! Of that, at most `[robot] think_seconds_per_player_hour` is spent on one person's
//! games (issue 25: nobody can spend everyone's), a person being every account whose
//! first confirmed address is one mailbox (issue 45: one mailbox may confirm three
//! accounts; they share one share), and at most `[robot]
//! strangers_think_seconds_per_hour`, the least share, on the games of all accounts
//! without a confirmed address together ([`share_of`], [`Share`]); past its share,
//! the robot answers that person's (or the strangers') games at once with level 1's
//! search (30 playouts, a few milliseconds) until the next clock hour, and its comment
//! says so. One person playing robot5 by mail at any human pace stays within the
//! share: 300 s at 2 s a turn is 150 robot turns an hour, one every 24 seconds. With
//! the defaults one person, all strangers and all reviews take at most 300 + 60 + 120
//! s (and one turn or review past each share) of the hour's 1,200: every other
//! player's robot turns are played within the hour (`check-config` says when the
//! settings do not leave another person's whole share).

use std::time::{Duration, Instant};

use crate::ai::{Robot, ThinkSettings, level_budget};
use crate::notation::write_turn;
use crate::server::config::Settings;
use crate::server::exec::play::play_queued;
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::Reply;
use crate::server::outgoing::board_mails::board_mails;
use crate::server::store::{Answerable, OwedKind, RobotTurn, Store, fnv1a64, release_hash_memory};
use crate::server::text::owed;

use super::super::context::Ctx;
use super::super::thought::commit_thought;
use super::super::txn::{Started, Work, written_games};
use super::{Job, drain, review};

/// How long a run keeps a robot turn it is going to think about, in seconds.
pub fn lease(settings: &Settings) -> u64 {
    settings.robot_think.as_secs() * 2 + 30
}

/// Inside an open transaction: for every game it wrote (`written`,
/// `txn::written_games`), record the robot turn owed when a robot is to move, caused
/// as `cause` says (the first `[robot] turns_per_run` of them claimed for this run:
/// returned), and forget the record of a game where no robot is to move any more.
pub fn record(
    ctx: &Ctx<'_>,
    written: &[LiveGame],
    cause: &dyn Fn(&LiveGame) -> Answerable,
) -> Result<Vec<BoardId>, InternalError> {
    let (now, settings) = (ctx.now, ctx.settings);
    let claims = settings.robot_turns_per_run;
    record_claiming(
        ctx.store,
        written,
        now,
        now + lease(settings),
        claims,
        cause,
    )
}

/// [`record`], claiming at most `claims` turns until `until`.
fn record_claiming(
    store: &Store,
    written: &[LiveGame],
    now: u64,
    until: u64,
    claims: usize,
    cause: &dyn Fn(&LiveGame) -> Answerable,
) -> Result<Vec<BoardId>, InternalError> {
    let mut claimed = Vec::new();
    for live in written {
        let board = live.board();
        let owed = robot_to_move(live).is_some();
        let old = store.owed::<RobotTurn>(board)?;
        let turns = live.file().turns.len();
        if !owed {
            if old.is_some() {
                store.remove_owed(OwedKind::RobotTurn, board)?;
            }
            continue;
        }
        if old.is_some_and(|o| o.turns == turns) {
            continue;
        }
        let claim = claimed.len() < claims;
        store.put_owed(&RobotTurn {
            board,
            turns,
            since: now,
            claimed_until: if claim { until } else { 0 },
            cause: cause(live),
        })?;
        if claim {
            claimed.push(board);
        }
    }
    Ok(claimed)
}

/// The robot to move in `live` and its level, if a robot is to move.
fn robot_to_move(live: &LiveGame) -> Option<(UserId, u8)> {
    let player = live.player_to_move()?;
    Some((player.clone(), player.robot_level()?))
}

/// After a run's transaction, with the lock released: play the robot turns it
/// `claimed`, then free ones, at most `[robot] turns_per_run` in all (`owed::drain`).
/// Returns the boards whose game files the turns changed (for the web site).
pub fn play_owed(ctx: &mut Ctx<'_>, claimed: Vec<BoardId>) -> Vec<BoardId> {
    // The mail's password checks are done: their 7 MiB go before the robot's tree
    // comes (at most 7 MB, `ai::MAX_NODES`), so a run stays within 20 MB.
    release_hash_memory();
    let max = ctx.settings.robot_turns_per_run;
    drain::<RobotTurns>(ctx, claimed, max)
}

/// The robots' turns, as the drain of work owed does them.
pub struct RobotTurns;

impl Job for RobotTurns {
    type Item = RobotTurn;
    const LEFT: &'static str = owed::ROBOT_TURN_LEFT;

    fn lease(settings: &Settings) -> u64 {
        lease(settings)
    }

    fn claim_key(turn: &RobotTurn, now: u64) -> String {
        format!("robot-claim-{}-{}-{now}", turn.board, turn.turns)
    }

    /// The robots' think time for this hour is spent (a robot turn may start while
    /// any is left, so one turn may go past it).
    fn out_of_time(ctx: &Ctx<'_>) -> Result<Option<String>, InternalError> {
        let (store, settings, now) = (ctx.store, ctx.settings, ctx.now);
        let spent = store.robot_time()?.spent(now);
        let cap = settings.robot_think_per_hour.as_millis();
        if u128::from(spent) < cap || store.all_owed::<RobotTurn>()?.is_empty() {
            return Ok(None);
        }
        Ok(Some(owed::robots_time_spent(
            u128::from(spent / 1000),
            cap / 1000,
        )))
    }

    fn make(ctx: &mut Ctx<'_>, turn: RobotTurn) -> Result<Vec<BoardId>, InternalError> {
        play_one(ctx, turn)
    }
}

/// Think about `owed` with no lock held, then play it under the lock if the game is
/// as it was, and send the board mails. Returns the boards whose game files changed.
fn play_one(ctx: &mut Ctx<'_>, owed: RobotTurn) -> Result<Vec<BoardId>, InternalError> {
    let (store, settings) = (ctx.store, ctx.settings);
    let board = owed.board;
    let started = Instant::now();
    let mut share = None;
    let thought = match store.game(board)? {
        Some(file) => {
            let live = LiveGame::load(file)?;
            share = share_of(store, &live)?;
            let brief = brief(store, settings, share.as_ref())?;
            if brief == Brief::Yes {
                ctx.log
                    .note(settings.now(), ctx.report, owed::share_spent(board));
            }
            think(live, &owed, settings.robot_think, brief)
        }
        None => None,
    };
    let thought_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    // The turn is played when the robot has thought: at a later time than the run's.
    let turns = owed.turns;
    let started = Started::Owed(owed.cause.clone());
    let committed = commit_thought(
        ctx,
        |_| format!("robot-{board}-{turns}"),
        started,
        |ctx| {
            let (store, now) = (ctx.store, ctx.now);
            let time = store
                .robot_time()?
                .add(now, share.as_ref().map(Share::key), thought_ms);
            store.put_robot_time(&time)?;
            apply(ctx, owed, thought.as_ref()).map(Work::from)
        },
    )?;
    Ok(committed.boards_changed(store))
}

/// What the robot chose: the turn's text and its comment.
struct Thought {
    text: String,
    comment: String,
}

/// The name all accounts without a confirmed address share their share under (no
/// mailbox and no userid has parentheses).
pub const UNCONFIRMED_SHARE: &str = "(unconfirmed)";

/// Whose share of the robots' think time a turn spends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Share {
    /// A person: every account whose first confirmed address is this mailbox
    /// (`Address::canonical`), together. One mailbox may confirm several accounts;
    /// they are one person's.
    Person(String),
    /// Every account without a confirmed address, together: strangers.
    Strangers,
}

impl Share {
    /// The share's name in `robot-time.json`: the mailbox, or [`UNCONFIRMED_SHARE`].
    pub fn key(&self) -> &str {
        match self {
            Share::Person(mailbox) => mailbox,
            Share::Strangers => UNCONFIRMED_SHARE,
        }
    }

    /// Its think time in one clock hour, at most: `[robot]
    /// think_seconds_per_player_hour` for a person, `[robot]
    /// strangers_think_seconds_per_hour` (the least) for all strangers together.
    pub fn cap(&self, settings: &Settings) -> Duration {
        match self {
            Share::Person(_) => settings.robot_think_per_player_hour,
            Share::Strangers => settings.robot_think_strangers_per_hour,
        }
    }
}

/// Whose share of the robots' think time a turn in `live` spends: the person playing
/// the robot (the canonical mailbox of their account's first confirmed address), or
/// [`Share::Strangers`] when their account has no confirmed address; `None` when
/// there is no such account.
pub fn share_of(store: &Store, live: &LiveGame) -> Result<Option<Share>, InternalError> {
    let f = live.file();
    let Some(person) = [&f.white, &f.black]
        .into_iter()
        .find(|p| p.robot_level().is_none())
    else {
        return Ok(None);
    };
    Ok(store
        .account(person)?
        .map(|a| match a.addresses.iter().find(|x| a.is_confirmed(x)) {
            Some(mailbox) => Share::Person(mailbox.canonical()),
            None => Share::Strangers,
        }))
}

/// How the robot thinks: as its level does, or briefly (level 1's search) because
/// the person's share of the hour is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Brief {
    /// As its level does.
    No,
    /// Level 1's search.
    Yes,
}

/// [`Brief::Yes`] when `share` has spent its think time of this hour.
fn brief(
    store: &Store,
    settings: &Settings,
    share: Option<&Share>,
) -> Result<Brief, InternalError> {
    let Some(share) = share else {
        return Ok(Brief::No);
    };
    let spent = store.robot_time()?.spent_by(settings.now(), share.key());
    Ok(if u128::from(spent) >= share.cap(settings).as_millis() {
        Brief::Yes
    } else {
        Brief::No
    })
}

/// The robot's turn in `live`, when it is still the one `owed` is about.
fn think(live: LiveGame, owed: &RobotTurn, think_time: Duration, brief: Brief) -> Option<Thought> {
    if live.file().turns.len() != owed.turns {
        return None;
    }
    let (_, level) = robot_to_move(&live)?;
    let budget = match brief {
        Brief::No => level_budget(level, think_time)?,
        Brief::Yes => level_budget(1, think_time)?,
    };
    let seed = fnv1a64(format!("{}-{}", owed.board, owed.turns).as_bytes());
    let turn = Robot::new(ThinkSettings::new(budget, seed))
        .think(live.game())
        .ok()?;
    let mut comment = turn.comment();
    if brief == Brief::Yes && level > 1 {
        comment.push_str(owed::THOUGHT_BRIEFLY);
    }
    Some(Thought {
        text: write_turn(&turn.actions),
        comment,
    })
}

/// Under the lock, in a transaction: play `thought` when the game still has the
/// turns `owed` counted and the record is still there; forget the record in any case
/// (a new one is written when it is a robot's move again). Returns the board mails.
fn apply(
    ctx: &mut Ctx<'_>,
    owed: RobotTurn,
    thought: Option<&Thought>,
) -> Result<Vec<Reply>, InternalError> {
    let (store, now, report) = (ctx.store, ctx.now, &mut *ctx.report);
    let board = owed.board;
    let current = store.owed::<RobotTurn>(board)?;
    if current.is_none_or(|c| c.turns != owed.turns) {
        report.lines.push(owed::robot_turn_played_already(board));
        return Ok(Vec::new());
    }
    store.remove_owed(OwedKind::RobotTurn, board)?;
    let (Some(file), Some(thought)) = (store.game(board)?, thought) else {
        report.lines.push(owed::robot_turn_not_owed(board));
        return Ok(Vec::new());
    };
    let mut live = LiveGame::load(file)?;
    let Some((robot, _)) = robot_to_move(&live).filter(|_| live.file().turns.len() == owed.turns)
    else {
        report.lines.push(owed::robot_turn_dropped(board));
        return Ok(Vec::new());
    };
    let number = live.next_turn_number();
    if let Err(e) = live.play(&thought.text, now) {
        report
            .lines
            .push(owed::robot_turn_refused(board, &thought.text, &e));
        return Ok(Vec::new());
    }
    live.add_comment(number, &robot, now, &thought.comment);
    let (event, notices) = play_queued(store, &mut live, now)?;
    store.put_game(live.file())?;
    let written = written_games(store)?;
    // Unclaimed: the next run (or this one, if it may play more) takes it; caused
    // by whoever caused this one.
    let cause = |_: &LiveGame| owed.cause.clone();
    record_claiming(store, &written, now, 0, 0, &cause)?;
    // A robot's winning turn ends the game: its review is owed.
    review::record(store, now, &written, &cause)?;
    report
        .lines
        .push(owed::robot_played(board, &robot, &thought.text, number));
    let mut out = board_mails(
        store,
        &live,
        event,
        Some((robot.as_str(), thought.comment.as_str())),
    )?;
    out.extend(notices);
    Ok(out)
}
