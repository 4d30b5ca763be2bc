//! `yinsh-pbem tick`, run from cron or a systemd timer: reminders and forfeits
//! (pbmserv-reference.md §5). For every game going on (found through the due index,
//! so a tick costs what the games due cost), the player to move has been
//! idle since the last turn (or the start), not counting their vacations. After the
//! game's nag time (7 days unless the challenge said `--nagtime=N`) they get a
//! `Nag: Yinsh Board %s %s` mail, once per nag period however often tick runs; at the
//! forfeit time (21 days, `--forfeittime=N`) they lose the game (`ended` reason
//! `"forfeit"`) and everyone gets the final board mail. A player on vacation now is
//! left alone. A quiet game (`game::extra::quiet`: its players started it as
//! strangers and the player to move, who did not start it, has not moved in it;
//! issue 25) gets no reminder, and at the forfeit time it is cancelled instead:
//! removed, unrated, with one short mail to the other player if they moved in it or
//! started it (`exec::decline::cancel_unanswered`). Under the store's lock, the game
//! changes and the mails are committed through one journal, as a mail's are (`docs/reliability.md`), after passing the
//! same gate as a mail's replies (`outgoing::gate`: the daily quota of unconfirmed
//! addresses); accounts that confirmed no address in 7 days are removed in the same
//! transaction (`exec::unconfirmed`, a log line each); old seen marks and counts are
//! expired as `deliver` does; the open seeks expire, and a robot takes those that
//! asked for one after a day (`exec::seeks::tick`); then everything spooled is sent
//! with the lock released.

use std::collections::BTreeMap;

use crate::server::config::Settings;
use crate::server::exec::decline::cancel_unanswered;
use crate::server::exec::seeks;
use crate::server::exec::unconfirmed;
use crate::server::game::extra::{self, LastNag};
use crate::server::game::index;
use crate::server::game::record::LiveGame;
use crate::server::game::strangers::starter_answerable;
use crate::server::game::vacation::Vacations;
use crate::server::internal::InternalError;
use crate::server::model::{EndReason, UserId};
use crate::server::outgoing::board_mails::{board_mails, html_part};
use crate::server::outgoing::thread::Thread;
use crate::server::outgoing::{Audience, Foreign, HtmlPart, Reply};
use crate::server::store::{RobotTurn, Store, SubjectStyle};
use crate::server::text::log as log_text;
use crate::server::text::reply::{BoardMail, Event};
use crate::server::text::{notices, subjects};

use super::context::Ctx;
use super::expire::expire;
use super::log::Log;
use super::owed::{review, robot};
use super::released;
use super::report::Report;
use super::send::Which;
use super::txn::{Locked, Notes, Started, Txn, Work, written_games};
use crate::server::store::{LastRun, mark_run};

const DAY: u64 = 86_400;

/// What tick would do to one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Nothing.
    Nothing,
    /// A reminder for this nag period.
    Nag(u64),
    /// The player to move forfeits.
    Forfeit,
    /// The game is cancelled: a quiet game (`extra::quiet`) at its forfeit time.
    Cancel,
}

/// Decide for one game at `now`.
pub fn due(live: &LiveGame, vacations: &Vacations, now: u64) -> Due {
    let Some(player) = live.player_to_move() else {
        return Due::Nothing;
    };
    if vacations.current(player, now).is_some() || player.robot_level().is_some() {
        return Due::Nothing;
    }
    let f = live.file();
    let since = f.turns.last().map_or(f.created, |t| t.at);
    let idle = now
        .saturating_sub(since)
        .saturating_sub(vacations.paused(player, since, now));
    let nag = u64::from(extra::nag_days(f)) * DAY;
    let forfeit = u64::from(extra::forfeit_days(f)) * DAY;
    let quiet = extra::quiet(f, player);
    match (idle >= forfeit, quiet) {
        (true, true) => return Due::Cancel,
        (true, false) => return Due::Forfeit,
        (false, true) => return Due::Nothing,
        (false, false) => {}
    }
    if nag == 0 || idle < nag {
        return Due::Nothing;
    }
    let period = idle / nag;
    match extra::last_nag(f) {
        Some(l) if l.turns == f.turns.len() && l.period >= period => Due::Nothing,
        _ => Due::Nag(period),
    }
}

/// Run one tick: nag and forfeit where due, commit the changes and mails through one
/// journal (like a mail's), flush.
pub fn tick(settings: &Settings) -> Result<Report, InternalError> {
    let store = Store::open(&settings.home)?;
    let log = Log::in_home(&settings.home);
    let mut report = Report::default();
    let mut ctx = Ctx::new(&store, settings, &log, &mut report);
    let now = ctx.now;
    let (locked, recovered) = Locked::take(&store, settings)?;
    ctx.report.lines.extend(recovered);
    let seed = |k: usize, r: &Reply| format!("tick-{now}-{k}-{}", r.subject);
    let txn = Txn {
        key: &format!("tick-{now}"),
        // Reminders and forfeits: the games' clock, the server itself.
        started: Started::Clock,
        seed: &seed,
        notes: Notes::Reported,
    };
    let committed = locked.transaction(&mut ctx, txn, |ctx| {
        let store = ctx.store;
        let mut replies = due_games(store, now, ctx.report)?;
        let (seek_mails, seek_lines) = seeks::tick(store, now)?;
        replies.extend(seek_mails);
        ctx.report.lines.extend(seek_lines);
        // A forfeit ends a game: its review is owed, answerable to whoever started
        // the game (a stranger's counts in its readers' budgets).
        let written = written_games(store)?;
        let mut answerable = BTreeMap::new();
        for live in &written {
            answerable.insert(live.board(), starter_answerable(store, live.file())?);
        }
        let cause = |live: &LiveGame| answerable[&live.board()].clone();
        review::record(store, now, &written, &cause)?;
        // An open seek's robot game started to move first: its turn owed.
        let robot_turns = robot::record(ctx, &written, &cause)?;
        ctx.report.lines.extend(unconfirmed::expire(store, now)?);
        Ok(Work {
            replies,
            robot_turns,
        })
    })?;
    ctx.report.lines.extend(expire(&store, settings, now));
    for l in &ctx.report.lines {
        log.line(now, &log_text::tick_line(l));
    }
    let ids = locked.spooled_ids()?;
    drop(locked);
    // The robot turns claimed (an open seek's robot game) are played first.
    released::finish(
        &mut ctx,
        Which::Spooled(&ids),
        committed,
        review::REVIEWS_PER_TICK,
    )?;
    mark_run(store.home(), LastRun::Tick, now);
    Ok(report)
}

/// Nag and forfeit where due, through the store's open transaction; returns the mails.
fn due_games(store: &Store, now: u64, report: &mut Report) -> Result<Vec<Reply>, InternalError> {
    let vacations = Vacations::load(store)?;
    // The tournaments whose start date has come (issue 49).
    let mut replies = crate::server::exec::tournament::start_due(store, now)?;
    // Only the games whose due time has come (`game::index`), not every game; a
    // damaged game file is skipped, logged and told to the operator.
    let due_boards = index::due_boards(store, now)?;
    checked(store, now, due_boards.len(), report)?;
    for b in due_boards {
        let Some(mut live) = index::load_scanned(store, b)? else {
            continue;
        };
        let Some(side) = live.game().to_act() else {
            continue;
        };
        let player = live.player(side).clone();
        match due(&live, &vacations, now) {
            Due::Nothing => {}
            Due::Nag(period) => {
                let n_turns = live.file().turns.len();
                extra::set_last_nag(
                    live.extra_mut(),
                    LastNag {
                        turns: n_turns,
                        period,
                    },
                );
                store.put_game(live.file())?;
                // Built after the reminder is recorded: it tells the next one.
                replies.extend(nag_mail(store, &live, &player, now, &vacations)?);
                report.lines.push(log_text::nagged(b, &player));
            }
            Due::Cancel => {
                let days = extra::forfeit_days(live.file());
                replies.extend(cancel_unanswered(store, &live, &player, days)?);
                report.lines.push(log_text::cancelled(b, &player));
            }
            Due::Forfeit => {
                if live.end(EndReason::Forfeit, side, now).is_err() {
                    continue;
                }
                store.put_game(live.file())?;
                let days = extra::forfeit_days(live.file());
                replies.extend(board_mails(
                    store,
                    &live,
                    Event::Forfeited(player.clone(), days),
                    None,
                )?);
                report.lines.push(log_text::forfeited(b, &player));
            }
        }
    }
    Ok(replies)
}

/// What `--verbose` tells of a tick however little it did (issue 26): the games due
/// now, the robot turns owed (played after the transaction), and the next game due.
fn checked(store: &Store, now: u64, due: usize, report: &mut Report) -> Result<(), InternalError> {
    let owed = store.all_owed::<RobotTurn>()?.len();
    let next = index::next_due(store, now)?;
    report
        .checked
        .extend(log_text::tick_checked(due, owed, next));
    Ok(())
}

fn nag_mail(
    store: &Store,
    live: &LiveGame,
    player: &UserId,
    now: u64,
    vacations: &Vacations,
) -> Result<Option<Reply>, InternalError> {
    let Some(account) = store.account(player)? else {
        return Ok(None);
    };
    let f = live.file();
    let since = f.turns.last().map_or(f.created, |t| t.at);
    // The days counted: the player's vacations stop the clock.
    let days = now
        .saturating_sub(since)
        .saturating_sub(vacations.paused(player, since, now))
        / DAY;
    let mail = BoardMail {
        event: Event::Note(notices::not_moved(
            live.board(),
            player,
            days,
            extra::forfeit_days(f),
        )),
        reader: Some(player),
        vacations: Some(vacations),
        ..BoardMail::new(live)
    };
    let body = mail.body()?;
    let html = html_part(&mail, &body, account.text_only)?;
    Ok(Some(Reply {
        to: account.addresses.clone(),
        subject: match account.prefs.subject {
            SubjectStyle::Moving => subjects::nag(live.board(), player),
            SubjectStyle::Stable => subjects::stable(live),
        },
        body,
        foreign: Foreign::Nothing,
        html: html.map(HtmlPart::Board),
        thread: Thread::board(store, live, player)?,
        audience: Audience::Players,
        ..Reply::default()
    }))
}
