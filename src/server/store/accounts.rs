//! Player accounts: the validated [`UserId`] (safe to use as a file name, compared
//! without regard to case), the [`Account`] record, and its files
//! `<home>/accounts/<key>.json`.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::mail::Address;

use super::password::{Password, hash_password, verify_password};
use super::{Store, StoreError};

/// The longest userid, in characters.
const MAX_LEN: usize = 32;

/// A player's name on the server: 1 to 32 characters of `A-Z a-z 0-9 _ . -`, not
/// starting with `.` or `-`. It displays as typed; it compares, hashes and names its
/// file by its [`key`](UserId::key), the lower-case form.
///
/// ```
/// use yinsh_pbem::server::store::UserId;
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
        if len > MAX_LEN {
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

impl UserId {
    /// The userid as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The lower-case form: what equality compares and what names the account file.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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

/// One player's account, stored in `<home>/accounts/<key>.json`.
///
/// Its `Debug` hides the password hash.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    /// The userid as the player typed it when signing up.
    pub userid: String,
    /// The argon2id PHC string of the password.
    pub password_hash: String,
    /// The mail addresses allowed to act for this player (a stored one that is not an
    /// [`Address`] makes the file an error naming it).
    pub addresses: Vec<Address>,
    /// When the account was made, in Unix seconds.
    pub created: u64,
    /// The boards this player is in, so listings need not scan every game.
    #[serde(default)]
    pub games: Vec<u32>,
}

impl fmt::Debug for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Account")
            .field("userid", &self.userid)
            .field("password_hash", &"<hidden>")
            .field("addresses", &self.addresses)
            .field("created", &self.created)
            .field("games", &self.games)
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
            userid: userid.to_string(),
            password_hash: hash_password(password)?,
            addresses,
            created,
            games: Vec::new(),
        })
    }

    /// The record's userid, validated.
    pub fn id(&self) -> Result<UserId, InvalidUserId> {
        self.userid.parse()
    }

    /// Whether `password` is this account's password.
    pub fn check_password(&self, password: &Password) -> bool {
        verify_password(password, &self.password_hash)
    }

    /// Replaces the password hash with one of `password`.
    pub fn set_password(&mut self, password: &Password) -> Result<(), StoreError> {
        self.password_hash = hash_password(password)?;
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
        let id = account.id().map_err(|source| StoreError::InvalidAccount {
            found: account.userid.clone(),
            source,
        })?;
        self.write_json(&self.account_path(&id), "account", account)
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
    let found = account.id().map(|id| id.key()).ok();
    if found.as_deref() == Some(key) {
        Ok(())
    } else {
        Err(StoreError::Mismatch {
            what: "userid",
            path,
            found: account.userid.clone(),
            expected: key.to_string(),
        })
    }
}
