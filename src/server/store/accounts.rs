//! Player accounts: the [`Account`] record and its files
//! `<home>/accounts/<key>.json`, named by the lower-case [`UserId`].

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::mail::Address;

use super::password::{hash_password, verify_password};
use super::{Store, StoreError};
use crate::server::model::{BoardId, Password, UserId};

/// An address of an account that its owner has not confirmed yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingAddress {
    /// The address.
    pub address: Address,
    /// SHA-256 (hex) of the token mailed to it.
    pub token_hash: String,
    /// When the token was mailed, Unix seconds.
    pub sent: u64,
}

/// One player's account, stored in `<home>/accounts/<key>.json`.
///
/// Its `Debug` hides the password hash.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    /// The userid as the player typed it when signing up.
    pub userid: UserId,
    /// The argon2id PHC string of the password.
    pub password_hash: String,
    /// The mail addresses allowed to act for this player (a stored one that is not an
    /// [`Address`] makes the file an error naming it).
    pub addresses: Vec<Address>,
    /// When the account was made, in Unix seconds.
    pub created: u64,
    /// The boards this player is in, so listings need not scan every game.
    #[serde(default)]
    pub games: Vec<BoardId>,
    /// Addresses not confirmed yet (see [`PendingAddress`]); absent in files made
    /// before confirmation existed, whose addresses all count as confirmed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unconfirmed: Vec<PendingAddress>,
    /// Whether the player chose board mails without their HTML part
    /// (`yinsh settings <userid> <password> text-only`); absent means false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text_only: bool,
    /// When the owner was last asked to change a password set before such
    /// passwords were refused (`exec::old_password`), in Unix seconds; absent when
    /// never, and again once the password is changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_password_told: Option<u64>,
    /// The player's other choices of how board mails come (`yinsh settings`);
    /// absent means pbmserv's ways.
    #[serde(default, skip_serializing_if = "Prefs::is_default")]
    pub prefs: Prefs,
}

/// A player's choices of how board mails come, beside [`Account::text_only`]
/// (issue 26 findings 16 and 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefs {
    /// How their Subject reads.
    #[serde(default, skip_serializing_if = "SubjectStyle::is_default")]
    pub subject: SubjectStyle,
    /// Whether the board mail of their own turn comes.
    #[serde(default, skip_serializing_if = "OwnTurnMail::is_default")]
    pub own_turn: OwnTurnMail,
}

impl Prefs {
    /// Whether these are pbmserv's ways (nothing to store).
    pub fn is_default(&self) -> bool {
        *self == Prefs::default()
    }
}

/// How the Subject of a player's board mails reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SubjectStyle {
    /// pbmserv's: `Yinsh Board 101 bob`, the player to move, changing every turn
    /// (` **` after it when the mail carries a comment).
    #[default]
    Moving,
    /// One Subject per game, `Yinsh Board 101: alice - bob` (White, then Black), so
    /// that mail programs threading by Subject keep a game in one conversation.
    Stable,
}

/// Whether a player gets the board mail of a turn they played themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnTurnMail {
    /// They do (pbmserv's way).
    #[default]
    Send,
    /// They do not: the opponent's answer shows it. A mail that ends the game, or
    /// leaves it their turn again, still comes.
    Skip,
}

impl SubjectStyle {
    fn is_default(&self) -> bool {
        *self == SubjectStyle::default()
    }
}

impl OwnTurnMail {
    fn is_default(&self) -> bool {
        *self == OwnTurnMail::default()
    }
}

/// A word that names no choice of a setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a choice of this setting")]
pub struct UnknownChoice(pub String);

impl FromStr for SubjectStyle {
    type Err = UnknownChoice;

    fn from_str(s: &str) -> Result<SubjectStyle, UnknownChoice> {
        match s.to_ascii_lowercase().as_str() {
            "moving" => Ok(SubjectStyle::Moving),
            "stable" => Ok(SubjectStyle::Stable),
            _ => Err(UnknownChoice(s.to_string())),
        }
    }
}

impl fmt::Display for SubjectStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SubjectStyle::Moving => "moving",
            SubjectStyle::Stable => "stable",
        })
    }
}

impl FromStr for OwnTurnMail {
    type Err = UnknownChoice;

    fn from_str(s: &str) -> Result<OwnTurnMail, UnknownChoice> {
        match s.to_ascii_lowercase().as_str() {
            "send" | "mail" => Ok(OwnTurnMail::Send),
            "skip" => Ok(OwnTurnMail::Skip),
            _ => Err(UnknownChoice(s.to_string())),
        }
    }
}

impl fmt::Display for OwnTurnMail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OwnTurnMail::Send => "send",
            OwnTurnMail::Skip => "skip",
        })
    }
}

impl fmt::Debug for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Account")
            .field("userid", &self.userid)
            .field("password_hash", &"<hidden>")
            .field("addresses", &self.addresses)
            .field("created", &self.created)
            .field("games", &self.games)
            .field("unconfirmed", &self.unconfirmed.len())
            .field("text_only", &self.text_only)
            .field("old_password_told", &self.old_password_told)
            .field("prefs", &self.prefs)
            .finish()
    }
}

impl Account {
    /// A new account for `userid` with `password` hashed, no games yet.
    pub fn new(
        userid: &UserId,
        password: &Password,
        addresses: Vec<Address>,
        created: u64,
    ) -> Result<Account, StoreError> {
        Ok(Account {
            userid: userid.clone(),
            password_hash: hash_password(password)?,
            addresses,
            created,
            games: Vec::new(),
            unconfirmed: Vec::new(),
            text_only: false,
            old_password_told: None,
            prefs: Prefs::default(),
        })
    }

    /// Whether `password` is this account's password.
    pub fn check_password(&self, password: &Password) -> bool {
        verify_password(password, &self.password_hash)
    }

    /// Replaces the password hash with one of `password`.
    pub fn set_password(&mut self, password: &Password) -> Result<(), StoreError> {
        self.password_hash = hash_password(password)?;
        self.old_password_told = None;
        Ok(())
    }
}

impl Store {
    /// `<home>/accounts/<key>.json`.
    pub fn account_path(&self, userid: &UserId) -> PathBuf {
        self.accounts_dir().join(format!("{}.json", userid.key()))
    }

    /// The account of `userid`, or `None` if there is none.
    pub fn account(&self, userid: &UserId) -> Result<Option<Account>, StoreError> {
        let path = self.account_path(userid);
        let Some(account) = self.read_json::<Account>(&path, "account")? else {
            return Ok(None);
        };
        check_key(&account, &userid.key(), path)?;
        Ok(Some(account))
    }

    /// Writes `account` (atomically), replacing any account with the same key.
    pub fn put_account(&self, account: &Account) -> Result<(), StoreError> {
        self.write_json(&self.account_path(&account.userid), "account", account)
    }

    /// Removes the account of `userid`; removing an absent account is not an error.
    pub fn delete_account(&self, userid: &UserId) -> Result<(), StoreError> {
        self.remove_file(&self.account_path(userid))
    }

    /// Every account, sorted by key.
    pub fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let mut files = self.list_json(&self.accounts_dir())?;
        files.sort();
        let mut accounts = Vec::with_capacity(files.len());
        for (stem, path) in files {
            let is_key = stem.parse::<UserId>().is_ok_and(|id| id.key() == stem);
            if !is_key {
                return Err(StoreError::StrayFile {
                    path,
                    expected: "<userid in lower case>.json",
                });
            }
            // The file may vanish between listing and reading only if someone deletes
            // it without the lock; then it is simply not listed.
            if let Some(account) = self.read_json::<Account>(&path, "account")? {
                check_key(&account, &stem, path)?;
                accounts.push(account);
            }
        }
        Ok(accounts)
    }
}

/// Checks that the account in the file named by `key` has that key.
fn check_key(account: &Account, key: &str, path: PathBuf) -> Result<(), StoreError> {
    if account.userid.key() == key {
        Ok(())
    } else {
        Err(StoreError::Mismatch {
            what: "userid",
            path,
            found: account.userid.to_string(),
            expected: key.to_string(),
        })
    }
}
