//! The open seeks (issue 49): `<home>/seeks.json`, one [`Seeks`] file holding the
//! next seek number and every seek still open, each a [`Seek`]: its owner, what they
//! ask for ([`SeekWish`]: normal or blitz, rated or not, a [`RatingRange`], a robot
//! to fall back on, a colour, clock times), when it was posted and when it expires.
//! Written through the store's transaction like every other record (so in the
//! journal of the mail or tick that changed it); a file that does not read as one is
//! a corrupt file, named. Bounded: [`MAX_PER_PLAYER`] a player, [`MAX_OPEN`] in all
//! (`exec::seeks` refuses more), so the file stays small.
//!
//! ```text
//! {"next": 4, "open": [{"id": 3, "owner": "alice", "posted": 1795384020,
//!   "expires": 1795643220, "wish": {"variant": "normal", "rated": true,
//!   "range": "1400-1800", "robot": 3, "colour": "any"}}]}
//! ```

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::{UserId, Variant, variant_serde};

/// Open seeks one player may have at once.
pub const MAX_PER_PLAYER: usize = 3;
/// Open seeks the server keeps at once.
pub const MAX_OPEN: usize = 200;
/// How long a seek stays open, in seconds (three days).
pub const SEEK_SECONDS: u64 = 3 * 86_400;
/// How long a seek with a robot to fall back on waits for a person, in seconds.
pub const ROBOT_AFTER_SECONDS: u64 = 86_400;
/// The highest rating a range may name.
pub const MAX_RATING: u32 = 4000;

/// A seek's number, as `yinsh seeks` lists it and `yinsh take` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeekId(pub u32);

impl fmt::Display for SeekId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A word that is no seek number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a seek number like 7")]
pub struct InvalidSeekId;

/// A seek number: digits only, 1 or more, as `yinsh seeks` prints it.
///
/// ```
/// use yinsh_pbem::server::store::SeekId;
/// assert_eq!("7".parse::<SeekId>(), Ok(SeekId(7)));
/// assert!("0".parse::<SeekId>().is_err() && "#7".parse::<SeekId>().is_err());
/// assert_eq!(SeekId(12).to_string().parse(), Ok(SeekId(12)));
/// ```
impl FromStr for SeekId {
    type Err = InvalidSeekId;

    fn from_str(s: &str) -> Result<SeekId, InvalidSeekId> {
        if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InvalidSeekId);
        }
        match s.parse::<u32>() {
            Ok(n) if n > 0 => Ok(SeekId(n)),
            _ => Err(InvalidSeekId),
        }
    }
}

/// The ratings a seek accepts its opponent within, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingRange {
    min: u32,
    max: u32,
}

impl RatingRange {
    /// The range `min`-`max`, when `min <= max <= MAX_RATING`.
    pub fn new(min: u32, max: u32) -> Option<RatingRange> {
        (min <= max && max <= MAX_RATING).then_some(RatingRange { min, max })
    }

    /// Whether `rating` lies inside it.
    pub fn holds(self, rating: i32) -> bool {
        i64::from(self.min) <= i64::from(rating) && i64::from(rating) <= i64::from(self.max)
    }
}

/// A rating range written wrong: what `-rating=` takes instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a rating range is two whole numbers from 0 to {MAX_RATING}, the lower first, like 1400-1800"
)]
pub struct InvalidRange;

/// `MIN-MAX`, digits only, `MIN <= MAX <= 4000`.
///
/// ```
/// use yinsh_pbem::server::store::RatingRange;
/// let r: RatingRange = "1400-1800".parse().unwrap();
/// assert!(r.holds(1400) && r.holds(1800) && !r.holds(1801));
/// assert_eq!(r.to_string(), "1400-1800");
/// for bad in ["1800-1400", "1400", "-1800", "1400-", "14oo-1800", "0-9999", "+1-2"] {
///     assert!(bad.parse::<RatingRange>().is_err(), "{bad}");
/// }
/// ```
impl FromStr for RatingRange {
    type Err = InvalidRange;

    fn from_str(s: &str) -> Result<RatingRange, InvalidRange> {
        let number = |t: &str| {
            (!t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u32>().ok())
                .flatten()
        };
        let (a, b) = s.split_once('-').ok_or(InvalidRange)?;
        let (Some(min), Some(max)) = (number(a), number(b)) else {
            return Err(InvalidRange);
        };
        RatingRange::new(min, max).ok_or(InvalidRange)
    }
}

impl fmt::Display for RatingRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

impl Serialize for RatingRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RatingRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RatingRange, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The colour a seek's owner asks to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeekColour {
    /// Either (the player who takes it plays White).
    #[default]
    Any,
    /// White, who moves first.
    White,
    /// Black.
    Black,
}

/// What a seek asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekWish {
    /// Normal or blitz.
    #[serde(with = "variant_serde")]
    pub variant: Variant,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The opponent's rating (in the seek's variant) must lie inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RatingRange>,
    /// The robot's level (1-5) that takes the seek when no person has in a day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robot: Option<u8>,
    /// The owner's colour.
    #[serde(default)]
    pub colour: SeekColour,
    /// Days without a move before a reminder, when not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nag_days: Option<u32>,
    /// Days without a move before a forfeit, when not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit_days: Option<u32>,
}

impl Default for SeekWish {
    fn default() -> SeekWish {
        SeekWish {
            variant: Variant::Normal,
            rated: true,
            range: None,
            robot: None,
            colour: SeekColour::Any,
            nag_days: None,
            forfeit_days: None,
        }
    }
}

/// One open seek.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    /// Its number.
    pub id: SeekId,
    /// Who posted it.
    pub owner: UserId,
    /// When, unix seconds.
    pub posted: u64,
    /// When it expires, unix seconds.
    pub expires: u64,
    /// What it asks for.
    pub wish: SeekWish,
}

impl Seek {
    /// When its robot takes it, if it names one.
    pub fn robot_at(&self) -> Option<u64> {
        self.wish
            .robot
            .map(|_| self.posted.saturating_add(ROBOT_AFTER_SECONDS))
    }
}

/// The seeks file: the next number, and the seeks open, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seeks {
    /// The number the next seek gets.
    pub next: u32,
    /// The open seeks, in the order they were posted.
    pub open: Vec<Seek>,
}

impl Default for Seeks {
    fn default() -> Seeks {
        Seeks {
            next: 1,
            open: Vec::new(),
        }
    }
}

impl Seeks {
    /// The open seek numbered `id`.
    pub fn get(&self, id: SeekId) -> Option<&Seek> {
        self.open.iter().find(|s| s.id == id)
    }

    /// Takes the seek numbered `id` out of the open ones.
    pub fn remove(&mut self, id: SeekId) -> Option<Seek> {
        let k = self.open.iter().position(|s| s.id == id)?;
        Some(self.open.remove(k))
    }

    /// The numbers of `owner`'s open seeks.
    pub fn of(&self, owner: &UserId) -> Vec<SeekId> {
        let key = owner.key();
        self.open
            .iter()
            .filter(|s| s.owner.key() == key)
            .map(|s| s.id)
            .collect()
    }

    /// A new number, for a seek about to be posted.
    pub fn number(&mut self) -> SeekId {
        let id = SeekId(self.next.max(1));
        self.next = id.0.saturating_add(1);
        id
    }
}

impl Store {
    /// `<home>/seeks.json`.
    pub fn seeks_path(&self) -> PathBuf {
        self.home().join("seeks.json")
    }

    /// The seeks file through the transaction (empty when missing).
    pub fn seeks(&self) -> Result<Seeks, StoreError> {
        Ok(self
            .read_json(&self.seeks_path(), "seeks")?
            .unwrap_or_default())
    }

    /// Writes the seeks file through the transaction.
    pub fn put_seeks(&self, seeks: &Seeks) -> Result<(), StoreError> {
        self.write_json(&self.seeks_path(), "seeks", seeks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeks_file_round_trips_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().expect("tmp");
        let store = Store::open(dir.path()).expect("store");
        assert_eq!(store.seeks().expect("none yet"), Seeks::default());
        let mut seeks = Seeks::default();
        let id = seeks.number();
        seeks.open.push(Seek {
            id,
            owner: "alice".parse().expect("userid"),
            posted: 10,
            expires: 10 + SEEK_SECONDS,
            wish: SeekWish {
                range: RatingRange::new(1400, 1800),
                robot: Some(3),
                ..SeekWish::default()
            },
        });
        store.put_seeks(&seeks).expect("write");
        assert_eq!(store.seeks().expect("read"), seeks);
        assert_eq!(seeks.of(&"ALICE".parse().expect("userid")), [SeekId(1)]);
        std::fs::write(store.seeks_path(), r#"{"next": 2, "open": [{"id": "x"}]}"#).expect("spoil");
        let e = store.seeks().expect_err("corrupt");
        assert!(
            e.to_string()
                .contains("seeks.json is not a valid seeks file"),
            "{e}"
        );
    }
}
