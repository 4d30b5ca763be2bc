//! The indexes around every transaction (`txn.rs` calls these): built when missing
//! before the work, brought up to date with the changed game files after it (inside
//! the transaction, so into the same journal), rebuilt when a damaged index file made
//! the work fail; and damaged game files that a scan skipped: a loud log line each
//! time, and a mail to the configured operator at most once a day per file
//! (`<home>/damaged.json` remembers the day).

use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::game::index::{self, Rebuilt};
use crate::server::internal::InternalError;
use crate::server::outgoing::{Audience, Reply};
use crate::server::store::{DAY, Store};
use crate::server::text::log as log_text;
use crate::server::text::subjects;

use super::log::Log;

/// Before a transaction: build the index when there is none (or of another version).
pub(super) fn prepare(store: &Store, now: u64) -> Result<(), InternalError> {
    if let Some(rebuilt) = index::ensure(store, now)? {
        log_rebuilt(store, now, log_text::INDEX_MISSING, &rebuilt);
    }
    Ok(())
}

/// Before the work, inside the transaction: the players whose time ran out move to
/// the inactive list of the standings (so that a `standings` mail reads them there).
pub(super) fn before_work(store: &Store, now: u64) -> Result<(), InternalError> {
    Ok(index::settle(store, now)?)
}

/// After the work, inside the transaction: the indexes follow the changed game files,
/// and the damaged files noted are logged and told to the operator.
pub(super) fn after_work(
    store: &Store,
    settings: &Settings,
    now: u64,
) -> Result<Vec<Reply>, InternalError> {
    for (board, why) in index::update(store, now)? {
        store.note_skipped(store.game_path(board), why);
    }
    tell_damage(store, settings, now)
}

/// After a failed work: a damaged index file is rebuilt from the game files (the work
/// failed, and runs again when the mail system retries).
pub(super) fn after_failure(store: &Store, now: u64, err: &InternalError) {
    if !matches!(err, InternalError::Store(e) if e.is_index_damage()) {
        return;
    }
    let log = Log::in_home(store.home());
    match index::rebuild(store, now) {
        Ok(rebuilt) => log_rebuilt(store, now, &log_text::index_damaged(err), &rebuilt),
        Err(e) => log.line(now, &log_text::index_rebuild_failed(&e)),
    }
}

/// Logs a rebuild and notes the game files it left out.
pub(super) fn log_rebuilt(store: &Store, now: u64, why: &str, rebuilt: &Rebuilt) {
    let log = Log::in_home(store.home());
    log.line(
        now,
        &log_text::index_rebuilt(why, rebuilt.games, rebuilt.finished, rebuilt.damaged.len()),
    );
    for (board, why) in &rebuilt.damaged {
        store.note_skipped(store.game_path(*board), why.clone());
    }
}

/// Logs every damaged file noted, and mails the operator about each one not told
/// today (remembered in `<home>/damaged.json`, through the transaction).
fn tell_damage(store: &Store, settings: &Settings, now: u64) -> Result<Vec<Reply>, InternalError> {
    let skipped = store.take_skipped();
    if skipped.is_empty() {
        return Ok(Vec::new());
    }
    let log = Log::in_home(store.home());
    let mut told = store.damaged()?;
    let mut replies = Vec::new();
    for (path, why) in skipped {
        let name = path
            .strip_prefix(store.home())
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        log.line(now, &log_text::damaged_file_skipped(&name, &why));
        if told.get(&name).is_some_and(|day| *day == now / DAY) {
            continue;
        }
        let Some(operator) = &settings.operator else {
            continue;
        };
        told.insert(name.clone(), now / DAY);
        replies.push(notice(operator, &name, &why));
    }
    if !replies.is_empty() {
        store.put_damaged(&told)?;
    }
    Ok(replies)
}

fn notice(operator: &Address, name: &str, why: &str) -> Reply {
    Reply {
        to: vec![operator.clone()],
        subject: subjects::damaged_game_file(name),
        body: log_text::damaged_file_notice(name, why),
        audience: Audience::Operator,
        ..Reply::default()
    }
}
