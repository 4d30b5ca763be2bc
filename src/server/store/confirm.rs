//! Confirming mail addresses: the one-time token a new address is mailed
//! ([`Token`], stored only as a SHA-256 hash in a [`PendingAddress`] of the account),
//! the index `<home>/addresses/<hash>.json` from an address to the userids naming it
//! (so "is this address confirmed?" and the cap of [`ACCOUNTS_PER_ADDRESS`] never scan
//! every account). (The daily quota of mails to an address nobody has confirmed,
//! `<home>/quota/`, is a count of `daily.rs` that `outgoing::gate` keeps.) All of it
//! goes through the store's transaction.

use std::fmt;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use crate::mail::Address;

use super::accounts::{Account, PendingAddress};
use super::seen::key_name;
use super::{Store, StoreError, UserId};

/// How long a confirmation token is valid, in seconds (7 days).
pub const TOKEN_SECONDS: u64 = 7 * 24 * 3600;

/// Whether [`Store::index`] enters an account's userid or takes it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Indexing {
    /// The account names its addresses: its userid is listed under each.
    Add,
    /// The account no longer names them: its userid is taken out.
    Remove,
}

/// At most this many accounts may name one address.
pub const ACCOUNTS_PER_ADDRESS: usize = 3;

/// The letters of a token: base32 without `0 1 I O`, upper case.
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Characters in a token (5 bits each: 50 bits).
const TOKEN_LEN: usize = 10;

/// A fresh confirmation token: 10 characters of base32 from the operating system's
/// random source. Its `Debug` hides it; [`Token::reveal`] gives it for the one mail.
pub struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(********)")
    }
}

impl Token {
    /// A new random token.
    pub fn generate() -> Result<Token, StoreError> {
        let mut bytes = [0u8; TOKEN_LEN];
        getrandom::fill(&mut bytes).map_err(|source| StoreError::Random { source })?;
        Ok(Token(
            bytes
                .iter()
                .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
                .collect(),
        ))
    }

    /// The token as mailed.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

/// SHA-256 (hex) of a token as written, upper-cased.
fn token_hash(text: &str) -> String {
    Sha256::digest(text.trim().to_ascii_uppercase().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Account {
    /// Marks `address` unconfirmed with a fresh token (replacing an older one), and
    /// returns the token to mail to it.
    pub fn add_pending(&mut self, address: &Address, now: u64) -> Result<Token, StoreError> {
        let token = Token::generate()?;
        self.unconfirmed
            .retain(|p| !p.address.eq_ignore_ascii_case(address));
        self.unconfirmed.push(PendingAddress {
            address: address.clone(),
            token_hash: token_hash(token.reveal()),
            sent: now,
        });
        Ok(token)
    }

    /// Whether `address` is one of the account's addresses and confirmed.
    pub fn is_confirmed(&self, address: &str) -> bool {
        self.addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(address))
            && !self
                .unconfirmed
                .iter()
                .any(|p| p.address.eq_ignore_ascii_case(address))
    }

    /// Confirms the address whose token is `token`, if it was mailed less than
    /// [`TOKEN_SECONDS`] ago; returns it.
    pub fn confirm(&mut self, token: &str, now: u64) -> Option<Address> {
        let hash = token_hash(token);
        let k = self
            .unconfirmed
            .iter()
            .position(|p| p.token_hash == hash && now < p.sent.saturating_add(TOKEN_SECONDS))?;
        Some(self.unconfirmed.remove(k).address)
    }
}

impl Store {
    fn owners_path(&self, address: &str) -> PathBuf {
        self.home()
            .join("addresses")
            .join(format!("{}.json", key_name(address)))
    }

    fn index_marker(&self) -> PathBuf {
        self.home().join("addresses").join("built")
    }

    /// Builds the address index from every account once (a home made before it).
    fn ensure_index(&self) -> Result<(), StoreError> {
        if self.index_built()? {
            return Ok(());
        }
        for account in self.accounts()? {
            self.index(&account, Indexing::Add)?;
        }
        self.write_file(&self.index_marker(), b"1\n")
    }

    /// Adds (or removes) `account`'s userid in the index files of its addresses.
    fn index(&self, account: &Account, indexing: Indexing) -> Result<(), StoreError> {
        for a in &account.addresses {
            let path = self.owners_path(a);
            let mut owners: Vec<String> =
                self.read_json(&path, "address index")?.unwrap_or_default();
            owners.retain(|u| !u.eq_ignore_ascii_case(account.userid.as_str()));
            if indexing == Indexing::Add {
                owners.push(account.userid.to_string());
            }
            if owners.is_empty() {
                self.remove_file(&path)?;
            } else {
                self.write_json(&path, "address index", &owners)?;
            }
        }
        Ok(())
    }

    /// Whether the address index is complete (it is kept only while confirmation
    /// is on).
    pub fn index_built(&self) -> Result<bool, StoreError> {
        Ok(self.read_text(&self.index_marker())?.is_some())
    }

    /// Keeps the index true when the account `old` becomes `new` (either may be
    /// absent), when confirmation is `on`. When it is off the index is not kept but
    /// marked incomplete, so that it is built afresh when confirmation is turned on.
    pub fn reindex(
        &self,
        on: bool,
        old: Option<&Account>,
        new: Option<&Account>,
    ) -> Result<(), StoreError> {
        if !on {
            if self.index_built()? {
                self.remove_file(&self.index_marker())?;
            }
            return Ok(());
        }
        self.ensure_index()?;
        if let Some(o) = old {
            self.index(o, Indexing::Remove)?;
        }
        if let Some(n) = new {
            self.index(n, Indexing::Add)?;
        }
        Ok(())
    }

    /// The userids whose accounts name `address`.
    pub fn address_owners(&self, address: &str) -> Result<Vec<UserId>, StoreError> {
        self.ensure_index()?;
        let owners: Vec<String> = self
            .read_json(&self.owners_path(address), "address index")?
            .unwrap_or_default();
        Ok(owners.iter().filter_map(|u| u.parse().ok()).collect())
    }

    /// The userids whose accounts name `address`, found without writing anything (for
    /// a command that changes nothing): from the index when it is built, else from
    /// every account (the index is not kept while confirmation is off).
    pub fn address_owners_read_only(&self, address: &str) -> Result<Vec<UserId>, StoreError> {
        if self.index_built()? {
            let owners: Vec<String> = self
                .read_json(&self.owners_path(address), "address index")?
                .unwrap_or_default();
            return Ok(owners.iter().filter_map(|u| u.parse().ok()).collect());
        }
        Ok(self
            .accounts()?
            .into_iter()
            .filter(|a| a.addresses.iter().any(|x| x.as_str() == address))
            .map(|a| a.userid)
            .collect())
    }

    /// Whether some account names `address` and its owner confirmed it.
    pub fn is_confirmed(&self, address: &str) -> Result<bool, StoreError> {
        for id in self.address_owners(address)? {
            if self.account(&id)?.is_some_and(|a| a.is_confirmed(address)) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
