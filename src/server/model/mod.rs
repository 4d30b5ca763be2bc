//! The server's stored and exchanged values, typed once at the edge: [`UserId`],
//! [`Password`], [`BoardId`], [`Credentials`], the game [`Variant`] as a game file
//! writes it, the [`EndReason`] of a game that ended off the board, and the
//! [`OfferKind`] of a pending offer; a userid's look-alike [`skeleton`] and the role
//! names no new account takes (`skeleton.rs`); the [`PlayToken`] of a play link as it
//! is written (`play_token.rs`). This is the bottom of the server: it imports
//! nothing of it, and every text form here is also the on-disk spelling.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::rules::Variant;

mod play_token;
mod skeleton;
pub use play_token::{InvalidPlayToken, PLAY_TAG_LEN, PlayToken};
pub use skeleton::{ROBOT_PREFIX, ROLE_NAMES, is_role_name, skeleton};

/// The longest userid, in characters.
const MAX_USERID_LEN: usize = 32;

/// A player's name on the server: 1 to 32 characters of `A-Z a-z 0-9 _ . -`, not
/// starting with `.` or `-`. It displays as typed; it compares, hashes and names its
/// file by its [`key`](UserId::key), the lower-case form.
///
/// ```
/// use yinsh_pbem::server::model::UserId;
/// let a: UserId = "Alice".parse().unwrap();
/// let b: UserId = "alice".parse().unwrap();
/// assert_eq!(a, b);
/// assert_eq!((a.to_string(), a.key()), ("Alice".to_string(), "alice".to_string()));
/// assert!("../etc".parse::<UserId>().is_err());
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct UserId(String);

/// Why a text is not a valid userid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidUserId {
    /// Nothing was given.
    #[error(
        "the userid is empty; choose 1 to 32 letters A-Z, digits, '_', '.' or '-', such as \"alice\""
    )]
    Empty,
    /// More than 32 characters.
    #[error("the userid is {len} characters long; use at most 32")]
    TooLong {
        /// Its length in characters.
        len: usize,
    },
    /// A character outside `A-Z a-z 0-9 _ . -`.
    #[error(
        "the userid has {found:?} at position {at}; use only letters A-Z, digits, '_', '.' and '-'"
    )]
    BadChar {
        /// The character.
        found: char,
        /// Its 1-based position.
        at: usize,
    },
    /// Starts with `.` or `-`.
    #[error("the userid starts with {found:?}; start it with a letter, a digit or '_'")]
    BadStart {
        /// The first character.
        found: char,
    },
}

impl FromStr for UserId {
    type Err = InvalidUserId;

    fn from_str(s: &str) -> Result<UserId, InvalidUserId> {
        let mut chars = s.chars();
        let Some(first) = chars.next() else {
            return Err(InvalidUserId::Empty);
        };
        let len = s.chars().count();
        if len > MAX_USERID_LEN {
            return Err(InvalidUserId::TooLong { len });
        }
        if let Some((i, found)) = s
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        {
            return Err(InvalidUserId::BadChar { found, at: i + 1 });
        }
        if matches!(first, '.' | '-') {
            return Err(InvalidUserId::BadStart { found: first });
        }
        Ok(UserId(s.to_string()))
    }
}

impl TryFrom<String> for UserId {
    type Error = InvalidUserId;

    fn try_from(s: String) -> Result<UserId, InvalidUserId> {
        s.parse()
    }
}

impl From<UserId> for String {
    fn from(id: UserId) -> String {
        id.0
    }
}

impl AsRef<str> for UserId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl UserId {
    /// The userid as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `ids` as typed, joined by `sep`.
    pub fn join(ids: &[UserId], sep: &str) -> String {
        ids.iter().map(UserId::as_str).collect::<Vec<_>>().join(sep)
    }

    /// The lower-case form: what equality compares and what names the account file.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }

    /// The same userid spelled in lower case (its [`key`](UserId::key)).
    pub fn lowercased(&self) -> UserId {
        UserId(self.key())
    }

    /// The level of the server's robot this userid names: `robot1` .. `robot5` (any
    /// case) are the computer opponents of levels 1 to 5.
    ///
    /// ```
    /// use yinsh_pbem::server::model::UserId;
    /// let id = |s: &str| s.parse::<UserId>().unwrap();
    /// assert_eq!(id("Robot3").robot_level(), Some(3));
    /// assert_eq!(id("robot6").robot_level(), None);
    /// assert_eq!(id("alice").robot_level(), None);
    /// ```
    pub fn robot_level(&self) -> Option<u8> {
        match self.key().strip_prefix("robot")?.as_bytes() {
            [d @ b'1'..=b'5'] => Some(d - b'0'),
            _ => None,
        }
    }

    /// Whether a new account may not take this userid because it looks like one of
    /// the robots: `robot` followed by digits only, once `_`, `.` and `-` are left
    /// out (`robot`, `Robot_3`, `robot-07`).
    ///
    /// ```
    /// use yinsh_pbem::server::model::UserId;
    /// let id = |s: &str| s.parse::<UserId>().unwrap();
    /// assert!(id("robot").looks_like_robot() && id("Robot_3").looks_like_robot());
    /// assert!(!id("robotnik").looks_like_robot() && !id("alice").looks_like_robot());
    /// ```
    pub fn looks_like_robot(&self) -> bool {
        let bare: String = self
            .key()
            .chars()
            .filter(|c| !matches!(c, '_' | '.' | '-'))
            .collect();
        bare.strip_prefix("robot")
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
    }

    /// Whether a dot stands before a letter (`cheap.example`, `j.smith`): mail
    /// programs may show such a name as a web address, so no new account gets one
    /// (`Refusal::UseridLikeWebAddress`).
    ///
    /// ```
    /// # use yinsh_pbem::server::model::UserId;
    /// # let id = |s: &str| s.parse::<UserId>().expect("userid");
    /// assert!(id("cheap.example").reads_as_web_address() && id("j.Smith").reads_as_web_address());
    /// assert!(!id("alice").reads_as_web_address() && !id("v1.2").reads_as_web_address());
    /// assert!(!id("alice.").reads_as_web_address() && !id("a_b-c").reads_as_web_address());
    /// ```
    pub fn reads_as_web_address(&self) -> bool {
        self.0
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'.' && w[1].is_ascii_alphabetic())
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so that width and alignment (`{:<9}`) work as for a `str`.
        f.pad(&self.0)
    }
}

impl PartialEq for UserId {
    fn eq(&self, other: &UserId) -> bool {
        self.0.eq_ignore_ascii_case(&other.0)
    }
}

impl Eq for UserId {}

impl Hash for UserId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

impl PartialOrd for UserId {
    fn partial_cmp(&self, other: &UserId) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UserId {
    fn cmp(&self, other: &UserId) -> Ordering {
        let theirs = other.0.bytes().map(|b| b.to_ascii_lowercase());
        self.0.bytes().map(|b| b.to_ascii_lowercase()).cmp(theirs)
    }
}

/// The longest password, in characters.
const MAX_PASSWORD_LEN: usize = 64;

/// A password as a player typed it: 1 to 64 characters, none of them white space,
/// a quote (`"`, `'`, `` ` ``), a colon or a control character.
///
/// Its `Debug` and `Display` print `********`, so it cannot leak into a log or a reply.
///
/// ```
/// use yinsh_pbem::server::model::Password;
/// let p: Password = "s3cret!".parse().unwrap();
/// assert_eq!(format!("{p} {p:?}"), "******** ********");
/// assert!("two words".parse::<Password>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a text is not an acceptable password. It never quotes the password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPassword {
    /// Nothing was given.
    #[error("the password is empty; choose 1 to 64 characters without spaces, quotes or colons")]
    Empty,
    /// More than 64 characters.
    #[error("the password is {len} characters long; use at most 64")]
    TooLong {
        /// Its length in characters.
        len: usize,
    },
    /// A character that is not allowed.
    #[error(
        "character {at} of the password is {kind}; use no spaces, quotes, colons or control characters"
    )]
    BadChar {
        /// 1-based position of the first such character.
        at: usize,
        /// What it is: "a space", "a quote", "a colon" or "a control character".
        kind: &'static str,
    },
}

impl FromStr for Password {
    type Err = InvalidPassword;

    fn from_str(s: &str) -> Result<Password, InvalidPassword> {
        if s.is_empty() {
            return Err(InvalidPassword::Empty);
        }
        let len = s.chars().count();
        if len > MAX_PASSWORD_LEN {
            return Err(InvalidPassword::TooLong { len });
        }
        for (i, c) in s.chars().enumerate() {
            let kind = match c {
                '"' | '\'' | '`' => "a quote",
                ':' => "a colon",
                c if c.is_whitespace() => "a space",
                c if c.is_control() => "a control character",
                _ => continue,
            };
            return Err(InvalidPassword::BadChar { at: i + 1, kind });
        }
        Ok(Password(s.to_string()))
    }
}

impl Password {
    /// The password written inside `<` `>`, as the syntax lines show its place
    /// (`<password>`), without them; `None` when it is not written so.
    pub(crate) fn unbracketed(&self) -> Option<Password> {
        self.0
            .strip_prefix('<')
            .and_then(|p| p.strip_suffix('>'))
            .and_then(|p| p.parse().ok())
    }

    /// The password itself, for hashing; nothing else should need it.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("********")
    }
}

impl fmt::Display for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("********")
    }
}

/// A board number, such as 101. It is written as a plain number, in commands, in
/// file names (`boards/101.json`) and in JSON.
///
/// ```
/// use yinsh_pbem::server::model::BoardId;
/// let b: BoardId = "101".parse().unwrap();
/// assert_eq!((b.get(), b.to_string()), (101, "101".to_string()));
/// assert_eq!(serde_json::to_string(&b).unwrap(), "101");
/// assert!("1o1".parse::<BoardId>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BoardId(u32);

/// Why a text is not a board number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{found:?} is not a board number; write one in decimal digits, such as 101")]
pub struct InvalidBoardId {
    /// The text (at most 40 characters of it).
    pub found: String,
}

impl BoardId {
    /// The number.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The board after this one, unless this is the last number there is.
    pub fn checked_next(self) -> Option<BoardId> {
        self.0.checked_add(1).map(BoardId)
    }
}

impl From<u32> for BoardId {
    fn from(n: u32) -> BoardId {
        BoardId(n)
    }
}

impl From<BoardId> for u32 {
    fn from(b: BoardId) -> u32 {
        b.0
    }
}

impl PartialEq<u32> for BoardId {
    fn eq(&self, other: &u32) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for BoardId {
    type Err = InvalidBoardId;

    fn from_str(s: &str) -> Result<BoardId, InvalidBoardId> {
        let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match s.parse::<u32>() {
            Ok(n) if digits => Ok(BoardId(n)),
            _ => Err(InvalidBoardId {
                found: s.chars().take(40).collect(),
            }),
        }
    }
}

/// How a mail proved who wrote it (`inbound::identity`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The account's password, in the command.
    Password,
    /// A genuine reply token of the account's player, in a reply from one of the
    /// account's addresses.
    ReplyToken,
    /// The right `verify` code for this address of the account (a proof of access to
    /// that mailbox).
    VerifyCode(crate::mail::Address),
    /// A genuine play token of the account's player for the board's next move (the
    /// link of a board mail, `inbound::identity::play`), in a `yinsh move` from one of
    /// the account's confirmed addresses: it plays that move and nothing else.
    PlayToken,
}

/// A userid and the password that proves it, as written in a command.
///
/// Its `Debug` masks the password (that of [`Password`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Credentials {
    /// Who asks.
    pub userid: UserId,
    /// Their password.
    pub password: Password,
}

/// The game file's spelling of a [`Variant`]: `"normal"` or `"blitz"`.
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Normal => "normal",
        Variant::Blitz => "blitz",
    }
}

/// The [`Variant`] a game file names, if it is one.
pub fn parse_variant(s: &str) -> Option<Variant> {
    [Variant::Normal, Variant::Blitz]
        .into_iter()
        .find(|&v| variant_name(v) == s)
}

/// Serde for a [`Variant`] in a game file (`#[serde(with = ...)]`): `"normal"` or
/// `"blitz"`, anything else refused.
pub mod variant_serde {
    use super::*;

    /// Writes the variant's name.
    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(variant_name(*v))
    }

    /// Reads a variant's name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        parse_variant(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown variant {s:?}, expected \"normal\" or \"blitz\""
            ))
        })
    }
}

/// Why a game ended off the board, as its game file records it. The texts are the
/// on-disk spellings.
///
/// ```
/// use yinsh_pbem::server::model::EndReason;
/// assert_eq!(serde_json::to_string(&EndReason::DrawAgreed).unwrap(), "\"draw agreed\"");
/// assert_eq!("forfeit".parse::<EndReason>(), Ok(EndReason::Forfeit));
/// assert!(serde_json::from_str::<EndReason>("\"timeout\"").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The player named resigned: they lose.
    #[serde(rename = "resigned")]
    Resigned,
    /// The player named did not move in time: they lose.
    #[serde(rename = "forfeit")]
    Forfeit,
    /// The players agreed a draw (the one named accepted it).
    #[serde(rename = "draw agreed")]
    DrawAgreed,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 3] = [
        EndReason::Resigned,
        EndReason::Forfeit,
        EndReason::DrawAgreed,
    ];

    /// The on-disk spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Resigned => "resigned",
            EndReason::Forfeit => "forfeit",
            EndReason::DrawAgreed => "draw agreed",
        }
    }
}

/// A text that is not an [`EndReason`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{found:?} is not an ending; expected \"resigned\", \"forfeit\" or \"draw agreed\"")]
pub struct InvalidEndReason {
    /// The text.
    pub found: String,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EndReason {
    type Err = InvalidEndReason;

    fn from_str(s: &str) -> Result<EndReason, InvalidEndReason> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| InvalidEndReason {
                found: s.to_string(),
            })
    }
}

/// What a pending offer asks: a draw, or taking back the asker's last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// `"draw"`: a draw offer.
    Draw,
    /// `"undo"`: a take-back request.
    Undo,
}

impl OfferKind {
    /// How a mail names it: "draw offer" or "take-back request".
    pub const fn words(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw offer",
            OfferKind::Undo => "take-back request",
        }
    }
}

#[cfg(test)]
mod tests;
