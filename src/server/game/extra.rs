//! Typed access to the per-game data later features keep in `GameFile.extra` (a JSON
//! object the store writes back unchanged): watchers, a pending draw offer or
//! take-back request, queued and submitted moves, and the reminder clock.
//!
//! ```text
//! "subscribers": ["carol"]                              userids watching the game
//! "offer": {"kind": "draw"|"undo", "by": "alice", "turns": 12}
//! "queued": {"bob": {"text": "e5-e9", "moveno": 14}}    keyed by lower-case userid
//! "submitted": {"alice": {"text": "e5-e9", "turns": 12}}
//! "nagtime": 7, "forfeittime": 21                       days
//! "last_nag": {"turns": 12, "period": 1}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::server::store::GameFile;

/// Default days without a move before a reminder.
pub const NAG_DAYS: u32 = 7;
/// Default days without a move before the game is forfeited.
pub const FORFEIT_DAYS: u32 = 21;

/// A pending draw offer or take-back request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// `"draw"` or `"undo"`.
    pub kind: String,
    /// Who asked.
    pub by: String,
    /// How many turns the game had when it was asked (any new turn cancels it).
    pub turns: usize,
}

/// A move stored for later: queued (played when it becomes the player's turn) or
/// submitted (played on confirm).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The turn as written.
    pub text: String,
    /// The turn number it must get, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moveno: Option<u32>,
    /// How many turns the game had when it was stored.
    #[serde(default)]
    pub turns: usize,
}

/// The last reminder sent for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastNag {
    /// How many turns the game had then.
    pub turns: usize,
    /// Which nag period (1 = after one nag time) it was for.
    pub period: u64,
}

fn get<T: for<'de> Deserialize<'de>>(file: &GameFile, key: &str) -> Option<T> {
    file.extra
        .get(key)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

fn set<T: Serialize>(file: &mut GameFile, key: &str, value: Option<T>) {
    match value.and_then(|v| serde_json::to_value(v).ok()) {
        Some(v) => {
            file.extra.insert(key.to_string(), v);
        }
        None => {
            file.extra.remove(key);
        }
    }
}

/// The watchers of a game.
pub fn subscribers(file: &GameFile) -> Vec<String> {
    get(file, "subscribers").unwrap_or_default()
}

/// Replace the watchers of a game.
pub fn set_subscribers(file: &mut GameFile, list: Vec<String>) {
    set(file, "subscribers", (!list.is_empty()).then_some(list));
}

/// The pending offer, if still valid (no turn played since).
pub fn offer(file: &GameFile) -> Option<Offer> {
    get::<Offer>(file, "offer").filter(|o| o.turns == file.turns.len())
}

/// Record or clear the pending offer.
pub fn set_offer(file: &mut GameFile, offer: Option<Offer>) {
    set(file, "offer", offer);
}

fn stored_map(file: &GameFile, key: &str) -> serde_json::Map<String, Value> {
    match file.extra.get(key) {
        Some(Value::Object(m)) => m.clone(),
        _ => serde_json::Map::new(),
    }
}

fn stored(file: &GameFile, key: &str, userid: &str) -> Option<Stored> {
    stored_map(file, key)
        .get(&userid.to_ascii_lowercase())
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

fn set_stored(file: &mut GameFile, key: &str, userid: &str, value: Option<Stored>) {
    let mut m = stored_map(file, key);
    match value.and_then(|v| serde_json::to_value(v).ok()) {
        Some(v) => {
            m.insert(userid.to_ascii_lowercase(), v);
        }
        None => {
            m.remove(&userid.to_ascii_lowercase());
        }
    }
    set(file, key, (!m.is_empty()).then_some(Value::Object(m)));
}

/// The move `userid` queued, if any.
pub fn queued(file: &GameFile, userid: &str) -> Option<Stored> {
    stored(file, "queued", userid)
}

/// Record or clear the move `userid` queued.
pub fn set_queued(file: &mut GameFile, userid: &str, value: Option<Stored>) {
    set_stored(file, "queued", userid, value);
}

/// The move `userid` submitted for confirmation, if still valid.
pub fn submitted(file: &GameFile, userid: &str) -> Option<Stored> {
    stored(file, "submitted", userid).filter(|s| s.turns == file.turns.len())
}

/// Record or clear the move `userid` submitted.
pub fn set_submitted(file: &mut GameFile, userid: &str, value: Option<Stored>) {
    set_stored(file, "submitted", userid, value);
}

/// Days without a move before a reminder.
pub fn nag_days(file: &GameFile) -> u32 {
    get(file, "nagtime").unwrap_or(NAG_DAYS)
}

/// Days without a move before the game is forfeited.
pub fn forfeit_days(file: &GameFile) -> u32 {
    get(file, "forfeittime").unwrap_or(FORFEIT_DAYS)
}

/// Set the reminder and forfeit times (days) of a new game.
pub fn set_times(file: &mut GameFile, nag: Option<u32>, forfeit: Option<u32>) {
    set(file, "nagtime", nag);
    set(file, "forfeittime", forfeit);
}

/// The last reminder sent.
pub fn last_nag(file: &GameFile) -> Option<LastNag> {
    get(file, "last_nag")
}

/// Record the last reminder sent.
pub fn set_last_nag(file: &mut GameFile, nag: LastNag) {
    set(file, "last_nag", Some(nag));
}
