//! The operator's log lines (and the damaged file's notice) of the runs that keep the
//! store (issue 44 item 7): the daily expiry (`run/expire.rs`), the indexes built,
//! rebuilt and their damaged game files (`run/indexes.rs`, `run/reindex.rs`), the
//! site refreshed (`run/site.rs`), what a tick did and checked (`run/tick.rs`), what
//! a deliver did (`run/deliver.rs`) and what recovery found (`run/txn.rs`).
//! The runs decide; these write, byte for byte as the log has always read (tests
//! and operators' scripts grep them).

use std::fmt::Display;

use crate::server::model::{BoardId, UserId};

use super::dates::format_date;

/// The daily expiry removed `n` old records.
pub fn expired(n: usize) -> String {
    format!("expired {n} old seen marks and storm counts (and past days' counts)")
}

/// The daily expiry failed with `e`.
pub fn expiry_failed(e: &dyn Display) -> String {
    format!("expiring old seen marks failed: {e}")
}

/// Why the index was built before a run's work: there was none of this version.
pub const INDEX_MISSING: &str = "the index was missing or of another version";

/// Why the index was rebuilt after a run's work failed: a damaged index file.
pub fn index_damaged(err: &dyn Display) -> String {
    format!("damaged index ({err})")
}

/// Rebuilding a damaged index failed with `e`.
pub fn index_rebuild_failed(e: &dyn Display) -> String {
    format!("index: rebuild failed: {e}")
}

/// The index rebuilt from the game files (`why`): `games` of them, `finished` over,
/// `damaged` left out.
pub fn index_rebuilt(why: &str, games: usize, finished: u64, damaged: usize) -> String {
    format!(
        "index: rebuilt from the game files ({why}): {games} games, {finished} finished, {damaged} damaged file(s) left out"
    )
}

/// The line `yinsh-pbem reindex` prints: the games indexed, and each damaged board
/// left out with why.
pub fn reindexed(games: usize, finished: u64, damaged: &[(BoardId, String)]) -> String {
    let mut line = format!("rebuilt the index: {games} games ({finished} finished)");
    for (board, why) in damaged {
        line.push_str(&format!("\nleft out the damaged board {board}: {why}"));
    }
    line
}

/// The loud line of a damaged game file `name` a scan skipped.
pub fn damaged_file_skipped(name: &str, why: &str) -> String {
    format!(
        "DAMAGED game file {name} skipped: {why}; repair or restore it, then run yinsh-pbem reindex"
    )
}

/// The operator's notice of the damaged game file `name` (at most once a day).
pub fn damaged_file_notice(name: &str, why: &str) -> String {
    format!(
        "The game file {name} in the server's home cannot be read:\n\n  {why}\n\n\
         Listings, standings, history and tick leave it out and go on; the players of\n\
         that board get an error when they use it. Repair the file or restore it from a\n\
         backup, then run: yinsh-pbem reindex\n\
         (You are told at most once a day per file.)\n"
    )
}

/// The site refreshed: `games` game pages, `files` files written.
pub fn site_refreshed(games: usize, files: usize) -> String {
    format!(
        "site: {games} game page{} refreshed, {files} files written",
        if games == 1 { "" } else { "s" }
    )
}

/// The site not refreshed, for `e`.
pub fn site_not_refreshed(e: &dyn Display) -> String {
    format!("site not refreshed: {e}")
}

/// A tick's report line `l` as the log writes it.
pub fn tick_line(l: &str) -> String {
    format!("tick: {l}")
}

/// A tick nagged `player` on `board`.
pub fn nagged(board: BoardId, player: &UserId) -> String {
    format!("board {board}: nagged {player}")
}

/// A tick cancelled `board`, whose `player` never moved.
pub fn cancelled(board: BoardId, player: &UserId) -> String {
    format!("board {board}: cancelled, {player} never moved")
}

/// `player` forfeited `board` at a tick.
pub fn forfeited(board: BoardId, player: &UserId) -> String {
    format!("board {board}: {player} forfeited")
}

/// What `tick --verbose` tells however little a tick did: the games due now, the
/// robot turns owed, and the next game due (`at`, unix seconds), if any.
pub fn tick_checked(due: usize, owed: usize, next: Option<(u64, BoardId)>) -> [String; 3] {
    let next = match next {
        Some((at, board)) => format!("board {board} at {}", format_date(at)),
        None => "no game going on has a deadline".to_string(),
    };
    [
        format!("games due now: {due}"),
        format!("robot turns owed: {owed}"),
        format!("next due: {next}"),
    ]
}

/// What a `deliver` did, its last log line.
pub fn handled(spooled: usize, sent: usize, failed: usize, dead: usize) -> String {
    format!(
        "handled: {spooled} replies spooled, {sent} sent, {failed} left in the spool, {dead} given up"
    )
}

/// A mail dropped because the mail of its `key` was handled already.
pub fn already_handled(key: &str) -> String {
    format!("dropped {key}: already handled (the same mail delivered again)")
}

/// The report line of one reply: its recipients and what it is (never a secret).
pub fn reply_to(recipients: &str, described: &dyn Display) -> String {
    format!("reply to {recipients}: {described}")
}

/// Recovery completed the journal a killed run left.
pub const RECOVERY_COMPLETED: &str = "completed a mail a crash had left half done";

/// Recovery discarded a torn journal.
pub const RECOVERY_DISCARDED: &str = "discarded a journal whose write a crash cut short (its mail was not acknowledged and comes again)";
