//! The one transaction runner of `deliver`, `tick` and `flush`: take the store's lock
//! (waiting a limited time), complete any journal a killed run left, carry out a
//! piece of work through the store's transaction, and commit its file changes and
//! replies through one journal, all under the same lock (`docs/reliability.md`). The
//! replies are sent once the lock is released ([`super::send`]). The indexes
//! follow the game files in the same transaction (`indexes.rs`).

use std::path::PathBuf;

use crate::durable::fault;
use crate::mail::{InboundMail, Spool, Transport};
use crate::server::config::Settings;
use crate::server::exec::tournament;
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::BoardId;
use crate::server::outgoing::{Cause, Reply, build, gate};
use crate::server::store::{Answerable, Journal, Recovered, Store, StoreLock};
use crate::server::text::log as log_text;

use super::context::Ctx;
use super::indexes;
use super::report::Report;
use super::site;

/// What the work of a transaction asks for: its replies, and the robot turns it
/// recorded and claimed for this run (`owed::record`).
#[derive(Debug, Default)]
pub struct Work {
    /// The replies, before the gate.
    pub replies: Vec<Reply>,
    /// The boards whose robot turn this run claimed.
    pub robot_turns: Vec<BoardId>,
}

impl From<Vec<Reply>> for Work {
    fn from(replies: Vec<Reply>) -> Work {
        Work {
            replies,
            robot_turns: Vec::new(),
        }
    }
}

/// What a transaction committed, for what the run does once the lock is released.
#[derive(Debug, Default)]
pub struct Committed {
    /// The replies as they passed the gate.
    pub replies: Vec<Reply>,
    /// The Message-IDs of the replies it spooled (none when they went to the outbox):
    /// sent once the store's lock is released.
    pub spooled: Vec<String>,
    /// The boards whose robot turn it claimed: played once the lock is released
    /// (`run::owed`).
    pub robot_turns: Vec<BoardId>,
    /// Every file of the store it wrote or removed (the indexes among them), as the
    /// store names them: what the in-process tests check a command changed.
    pub files_changed: Vec<PathBuf>,
}

impl Committed {
    /// The boards whose game files it wrote or removed (for the web site).
    pub fn boards_changed(&self, store: &Store) -> Vec<BoardId> {
        site::changed_boards(store, &self.files_changed)
    }
}

/// What a transaction is besides its work.
pub struct Txn<'a> {
    /// The journal's key.
    pub key: &'a str,
    /// What started it, as the gate judges its replies.
    pub started: Started<'a>,
    /// The Message-ID of each reply, by its place and the reply.
    pub seed: &'a dyn Fn(usize, &Reply) -> String,
    /// Where the gate's and the builder's lines go.
    pub notes: Notes,
}

/// What started a transaction.
#[derive(Debug)]
pub enum Started<'a> {
    /// One incoming mail (`deliver`): its replies answer it, each judged by its own
    /// `Cause`.
    Mail(&'a InboundMail),
    /// Work owed (a robot's turn, a review), made by the server's run on behalf of
    /// whoever is answerable for it.
    Owed(Answerable),
    /// The games' clock (`tick`: reminders, forfeits, games cancelled): the server
    /// itself.
    Clock,
    /// The server's own run otherwise (`reindex`, a claim): nobody outside asked.
    Server,
}

impl Started<'_> {
    /// The mail answered, if any.
    fn answering(&self) -> Option<&InboundMail> {
        match self {
            Started::Mail(mail) => Some(mail),
            _ => None,
        }
    }

    /// The gate's source for its replies.
    fn source(&self) -> gate::Source {
        match self {
            Started::Mail(_) => gate::Source::Mail,
            Started::Owed(Answerable::Person(_)) => gate::Source::Owed(Cause::Owner),
            Started::Owed(Answerable::Stranger) => gate::Source::Owed(Cause::Stranger),
            Started::Owed(Answerable::Server) | Started::Server => gate::Source::Server,
            Started::Clock => gate::Source::Clock,
        }
    }
}

/// Where a transaction's lines (a reply left out, one that cannot be built) go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notes {
    /// To the log and the report.
    Logged,
    /// To the report only (the run logs them itself).
    Reported,
}

/// The store held under its lock, with any leftover journal completed.
pub struct Locked<'a> {
    /// The store.
    pub store: &'a Store,
    _lock: StoreLock,
}

impl<'a> Locked<'a> {
    /// Take the lock (waiting at most the configured lock wait: then an error, and the
    /// run exits 75), then complete or discard a journal a killed run left. Returns
    /// the report line for what the recovery did, if anything.
    pub fn take(
        store: &'a Store,
        settings: &'a Settings,
    ) -> Result<(Locked<'a>, Option<String>), InternalError> {
        let lock = store.lock_within(settings.lock_wait)?;
        let line = recovered_line(store.recover(&settings.transport)?);
        Ok((Locked { store, _lock: lock }, line))
    }

    /// Run `work` inside a transaction of the store at `ctx.now`, pass all its
    /// replies (and the indexes' notices to the operator) through the gate
    /// (`outgoing::gate`, as `txn.started` caused them), build them (their
    /// Message-IDs named by `txn.seed`) and commit the changes and replies through
    /// one journal keyed `txn.key` (nothing is committed when there is neither). A
    /// recipient the gate left out is counted in the report (`Report::refused`); it
    /// and a reply that cannot be built are told as `txn.notes` says. When `work` fails, nothing it did is kept.
    pub fn transaction(
        &self,
        ctx: &mut Ctx<'_>,
        txn: Txn<'_>,
        work: impl FnOnce(&mut Ctx<'_>) -> Result<Work, InternalError>,
    ) -> Result<Committed, InternalError> {
        let (store, settings, now) = (ctx.store, ctx.settings, ctx.now);
        debug_assert!(std::ptr::eq(store, self.store), "the store locked");
        let Txn {
            key,
            started,
            seed,
            notes,
        } = txn;
        let note = |ctx: &mut Ctx<'_>, line: String| match notes {
            Notes::Logged => ctx.note(line),
            Notes::Reported => ctx.report.lines.push(line),
        };
        let answering = started.answering();
        indexes::prepare(store, now)?;
        store.begin();
        let result = indexes::before_work(store, now)
            .and_then(|()| work(ctx))
            .and_then(|mut work| {
                // The tournament games the work ended, recorded (issue 49): their
                // mails caused as the work's were (a proven owner's, else a stranger's).
                let cause = if work.replies.iter().any(|r| r.cause == Cause::Owner) {
                    Cause::Owner
                } else {
                    Cause::Stranger
                };
                work.replies
                    .extend(tournament::ended_games(store, now, cause)?);
                work.replies
                    .extend(indexes::after_work(store, settings, now)?);
                let replies = std::mem::take(&mut work.replies);
                work.replies = gate::pass(
                    store,
                    settings,
                    now,
                    started.source(),
                    replies,
                    &mut |held| {
                        ctx.report.refused.count(held.why);
                        note(ctx, held.line)
                    },
                )?;
                Ok(work)
            });
        let changes = store.take_changes();
        if let Err(e) = &result {
            indexes::after_failure(store, now, e);
        }
        let Work {
            replies,
            robot_turns,
        } = result?;
        let files_changed = changes.iter().map(|c| c.path.clone()).collect();
        fault::point("after-command");
        let built = build::replies(settings, answering, seed, &replies, now, &mut |line| {
            note(ctx, line)
        });
        let mut spooled = Vec::new();
        if !changes.is_empty() || !built.is_empty() {
            let journal = Journal::new(store, key, &changes, &built);
            let (n_spooled, written) = store.commit(&journal, &settings.transport)?;
            ctx.report.spooled += n_spooled;
            ctx.report.sent += written;
            if !matches!(settings.transport, Transport::Outbox(_)) {
                spooled.extend(built.iter().map(|m| m.id.clone()));
            }
        }
        Ok(Committed {
            replies,
            spooled,
            robot_turns,
            files_changed,
        })
    }

    /// The Message-IDs of every mail in the spool now. Under the lock every journal
    /// is complete, so each of them may be sent once the lock is released.
    pub fn spooled_ids(&self) -> Result<Vec<String>, InternalError> {
        let spool = Spool::open(&self.store.spool_dir())?;
        let (entries, _damaged) = spool.scan()?;
        Ok(entries.into_iter().map(|e| e.mail.id).collect())
    }
}

/// Inside an open transaction: the games whose files it wrote, each loaded (replayed)
/// once for all that records what they now owe (`owed::record`).
pub fn written_games(store: &Store) -> Result<Vec<LiveGame>, InternalError> {
    let mut out = Vec::new();
    for board in store.boards_written() {
        if let Some(file) = store.game(board)? {
            out.push(LiveGame::load(file)?);
        }
    }
    Ok(out)
}

/// Take the lock and run `work` in a transaction of its own that sends no mail: a
/// claim of work owed (a robot turn, a review) before the run thinks about it with
/// the lock released; what it notes is not kept. What `work` returns (`None`:
/// nothing claimed) comes back.
pub fn claim<T>(
    ctx: &Ctx<'_>,
    key: &str,
    work: impl FnOnce(&Store) -> Result<Option<T>, InternalError>,
) -> Result<Option<T>, InternalError> {
    let (locked, _) = Locked::take(ctx.store, ctx.settings)?;
    let mut claimed = None;
    let mut report = Report::default();
    let mut scratch = Ctx {
        report: &mut report,
        ..*ctx
    };
    locked.transaction(
        &mut scratch,
        Txn {
            key,
            started: Started::Server,
            seed: &|k, _| format!("{key}-{k}"),
            notes: Notes::Reported,
        },
        |ctx| {
            claimed = work(ctx.store)?;
            Ok(Work::default())
        },
    )?;
    Ok(claimed)
}

/// The report line for what [`Store::recover`] found, if anything.
fn recovered_line(r: Recovered) -> Option<String> {
    match r {
        Recovered::Nothing => None,
        Recovered::Completed => Some(log_text::RECOVERY_COMPLETED.to_string()),
        Recovered::Discarded => Some(log_text::RECOVERY_DISCARDED.to_string()),
    }
}
