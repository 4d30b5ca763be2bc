//! The typed per-game data later features keep in a game file's `extra` object:
//! watchers, a pending draw offer or take-back request, queued and submitted moves,
//! and the reminder clock. It is decoded with the game file, so a bad value is a
//! corrupt file (named, loud), never a silently dropped offer; keys this program does
//! not know are kept in [`Extra::other`] and written back unchanged.
//!
//! ```text
//! "subscribers": ["carol"]                              userids watching the game
//! "offer": {"kind": "draw"|"undo", "by": "alice", "turns": 12}
//! "queued": {"bob": {"text": "e5-e9", "moveno": 14}}    keyed by lower-case userid
//! "submitted": {"alice": {"text": "e5-e9", "turns": 12}}
//! "nagtime": 7, "forfeittime": 21                       days
//! "last_nag": {"turns": 12, "period": 1}
//! "challenger": {"address": "carol@example.org", "userids": ["carol"]}
//!                                  who started it for two other players (decline)
//! "started_by": "alice"            the player who started it (the cap of games
//!                                  waiting for others' first moves)
//! "strangers": true                its players had never both moved in a game
//!                                  against each other when it started
//! "unrated": true                  it changes no rating (an open seek's -unrated)
//! "seek": 3                        the open seek it began with
//! "tournament": {"name": "Spring", "round": 2}
//!                                  the tournament and round it was started for
//! ```
//!
//! The object is written with its keys sorted, known and unknown alike, exactly as the
//! untyped map it replaces wrote it.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Error as _};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::seeks::SeekId;
use crate::mail::Address;
use crate::server::model::{OfferKind, UserId};

/// Who started a game for two other players (`yinsh challenge` from an address of
/// neither): the players may decline it before their first move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenger {
    /// The address the challenge came from (its reply address), when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// The accounts that name that address.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub userids: Vec<UserId>,
}

/// A pending draw offer or take-back request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// What it asks.
    pub kind: OfferKind,
    /// Who asked.
    pub by: UserId,
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

/// The tournament and round a game was started for (issue 49).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InTournament {
    /// The tournament.
    pub name: super::TournamentName,
    /// The round.
    pub round: u32,
}

/// The last reminder sent for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastNag {
    /// How many turns the game had then.
    pub turns: usize,
    /// Which nag period (1 = after one nag time) it was for.
    pub period: u64,
}

/// The `extra` object of a game file, typed. Empty collections and `None` are not
/// written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra {
    /// The watchers.
    pub subscribers: Vec<UserId>,
    /// The pending offer (valid only while the game has `turns` turns).
    pub offer: Option<Offer>,
    /// Queued moves, by lower-case userid.
    pub queued: BTreeMap<String, Stored>,
    /// Submitted moves waiting for confirm, by lower-case userid.
    pub submitted: BTreeMap<String, Stored>,
    /// Days without a move before a reminder, if not the default.
    pub nagtime: Option<u32>,
    /// Days without a move before a forfeit, if not the default.
    pub forfeittime: Option<u32>,
    /// The last reminder sent.
    pub last_nag: Option<LastNag>,
    /// Who started the game for its two players, when neither did.
    pub challenger: Option<Challenger>,
    /// The player who started the game, when one of them did (absent in games made
    /// before it was kept).
    pub started_by: Option<UserId>,
    /// Whether its players had never both moved in a game against each other when it
    /// started (absent, false, in games made before it was kept).
    pub strangers: bool,
    /// Whether it changes no rating (an open seek's `-unrated`; absent, rated, in
    /// every other game).
    pub unrated: bool,
    /// The open seek it began with.
    pub seek: Option<SeekId>,
    /// The tournament it was started for (none in other games and older ones).
    pub tournament: Option<InTournament>,
    /// Keys this program does not know, kept as they were.
    pub other: Map<String, Value>,
}

impl Extra {
    /// Whether there is nothing to write.
    pub fn is_empty(&self) -> bool {
        *self == Extra::default()
    }

    /// The object as written: known keys and unknown ones, sorted.
    fn to_map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        let mut m = self.other.clone();
        let mut put = |key: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(key.to_string(), v);
            }
        };
        put("subscribers", value_if(&self.subscribers, Vec::is_empty)?);
        put("offer", self.offer.as_ref().map(to_value).transpose()?);
        put("queued", value_if(&self.queued, BTreeMap::is_empty)?);
        put("submitted", value_if(&self.submitted, BTreeMap::is_empty)?);
        put("nagtime", self.nagtime.map(Value::from));
        put("forfeittime", self.forfeittime.map(Value::from));
        put(
            "last_nag",
            self.last_nag.as_ref().map(to_value).transpose()?,
        );
        put(
            "challenger",
            self.challenger.as_ref().map(to_value).transpose()?,
        );
        put(
            "started_by",
            self.started_by.as_ref().map(to_value).transpose()?,
        );
        put("strangers", self.strangers.then_some(Value::Bool(true)));
        put("unrated", self.unrated.then_some(Value::Bool(true)));
        put("seek", self.seek.map(|s| Value::from(s.0)));
        put(
            "tournament",
            self.tournament.as_ref().map(to_value).transpose()?,
        );
        Ok(m)
    }

    /// Decodes the object, each known key to its type; the error names the key.
    fn from_map(mut m: Map<String, Value>) -> Result<Extra, String> {
        Ok(Extra {
            subscribers: take(&mut m, "subscribers")?.unwrap_or_default(),
            offer: take(&mut m, "offer")?,
            queued: take(&mut m, "queued")?.unwrap_or_default(),
            submitted: take(&mut m, "submitted")?.unwrap_or_default(),
            nagtime: take(&mut m, "nagtime")?,
            forfeittime: take(&mut m, "forfeittime")?,
            last_nag: take(&mut m, "last_nag")?,
            challenger: take(&mut m, "challenger")?,
            started_by: take(&mut m, "started_by")?,
            strangers: take(&mut m, "strangers")?.unwrap_or_default(),
            unrated: take(&mut m, "unrated")?.unwrap_or_default(),
            seek: take(&mut m, "seek")?,
            tournament: take(&mut m, "tournament")?,
            other: m,
        })
    }
}

fn to_value<T: Serialize>(v: &T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(v)
}

fn value_if<T: Serialize>(
    v: &T,
    empty: fn(&T) -> bool,
) -> Result<Option<Value>, serde_json::Error> {
    if empty(v) {
        Ok(None)
    } else {
        to_value(v).map(Some)
    }
}

fn take<T: DeserializeOwned>(m: &mut Map<String, Value>, key: &str) -> Result<Option<T>, String> {
    match m.remove(key) {
        None => Ok(None),
        Some(v) => serde_json::from_value(v)
            .map(Some)
            .map_err(|e| format!("extra \"{key}\": {e}")),
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_map().map_err(S::Error::custom)?.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Extra, D::Error> {
        Extra::from_map(Map::deserialize(d)?).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_known_key_round_trips_with_unknown_ones_in_sorted_order() {
        let raw = json!({
            "forfeittime": 21, "last_nag": {"period": 1, "turns": 12}, "nagtime": 7,
            "offer": {"by": "Alice", "kind": "undo", "turns": 12},
            "queued": {"bob": {"moveno": 14, "text": "e5-e9", "turns": 3}},
            "submitted": {"alice": {"text": "e5-e9", "turns": 12}},
            "subscribers": ["carol"], "zz_future": [1, "two"], "aa": null,
            "challenger": {"address": "dave@example.org", "userids": ["dave"]},
            "started_by": "Alice", "strangers": true, "unrated": true, "seek": 3
        });
        let extra: Extra = serde_json::from_value(raw.clone()).expect("decode");
        assert_eq!(extra.offer.as_ref().map(|o| o.kind), Some(OfferKind::Undo));
        assert_eq!(extra.nagtime, Some(7));
        assert_eq!(extra.other.len(), 2);
        assert!(extra.strangers && extra.unrated);
        assert_eq!(extra.seek, Some(SeekId(3)));
        assert_eq!(
            extra.started_by.as_ref().map(UserId::key),
            Some("alice".into())
        );
        let text = serde_json::to_string(&extra).expect("encode");
        assert_eq!(text, serde_json::to_string(&raw).expect("encode raw"));
    }

    #[test]
    fn a_bad_value_names_its_key() {
        for (raw, key) in [
            (
                json!({"offer": {"kind": "truce", "by": "a", "turns": 1}}),
                "offer",
            ),
            (json!({"subscribers": ["../x"]}), "subscribers"),
            (json!({"nagtime": "seven"}), "nagtime"),
            (
                json!({"challenger": {"address": "no address"}}),
                "challenger",
            ),
            (json!({"queued": {"bob": {"moveno": 3}}}), "queued"),
        ] {
            let err = serde_json::from_value::<Extra>(raw).expect_err(key);
            assert!(
                err.to_string().contains(&format!("extra \"{key}\"")),
                "{err}"
            );
        }
    }
}
