//! Confirming mail addresses: the one-time token a new address is mailed
//! ([`Token`], stored only as a SHA-256 hash in a [`PendingAddress`] of the account),
//! the index `<home>/addresses/<hash>.json` from a mailbox (an address in its
//! [`Address::canonical`] form, so `Target+x@ExampLe.org` is `target@example.org`) to
//! the userids naming it (so "is this address confirmed?" and the caps of
//! [`ACCOUNTS_PER_ADDRESS`] confirmed and [`PENDING_PER_ADDRESS`] unconfirmed accounts
//! never scan every account). A confirmation belongs
//! to the account and the address together ([`Store::is_confirmed_by`]); whether
//! anyone confirmed a mailbox is [`Store::is_confirmed`]. All of it goes through the
//! store's transaction. (The daily quota of mails to an address nobody has confirmed,
//! `<home>/quota/`, is a count of `daily.rs` that `outgoing::gate` keeps by mailbox.)

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

/// At most this many accounts may have confirmed one mailbox.
pub const ACCOUNTS_PER_ADDRESS: usize = 3;

/// At most this many accounts may name one mailbox without having confirmed it (new
/// signups, new addresses waiting for their code): the unconfirmed ones never count
/// against [`ACCOUNTS_PER_ADDRESS`], but do not pile up either.
pub const PENDING_PER_ADDRESS: usize = 3;

/// The marker of a complete address index keyed by [`Address::canonical`] (an index
/// of older homes, keyed by the address as written, has only `built` and is built
/// again).
const MARKER: &str = "built-canonical";

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
    hex::encode(Sha256::digest(text.trim().to_ascii_uppercase().as_bytes()))
}

impl Account {
    /// Marks `address` unconfirmed with a fresh token (replacing an older one), and
    /// returns the token to mail to it.
    pub fn add_pending(&mut self, address: &Address, now: u64) -> Result<Token, StoreError> {
        let token = Token::generate()?;
        self.unconfirmed
            .retain(|p| !p.address.same_mailbox(address));
        self.unconfirmed.push(PendingAddress {
            address: address.clone(),
            token_hash: token_hash(token.reveal()),
            sent: now,
        });
        Ok(token)
    }

    /// Whether the mailbox of `address` is one of the account's addresses and this
    /// account confirmed it (another account's confirmation of it does not count).
    pub fn is_confirmed(&self, address: &Address) -> bool {
        self.addresses.iter().any(|a| a.same_mailbox(address))
            && !self
                .unconfirmed
                .iter()
                .any(|p| p.address.same_mailbox(address))
    }

    /// Whether the mailbox of `address` is one of the account's addresses, waiting for
    /// its code.
    pub fn is_pending(&self, address: &Address) -> bool {
        self.unconfirmed
            .iter()
            .any(|p| p.address.same_mailbox(address))
    }

    /// Whether the account has confirmed none of its addresses (all wait for their
    /// codes).
    pub fn confirmed_none(&self) -> bool {
        self.addresses.iter().all(|a| self.is_pending(a))
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
    fn owners_path(&self, address: &Address) -> PathBuf {
        self.home()
            .join("addresses")
            .join(format!("{}.json", key_name(address.canonical())))
    }

    fn index_marker(&self) -> PathBuf {
        self.home().join("addresses").join(MARKER)
    }

    /// Builds the address index from every account once (a home made before it, or
    /// whose index was keyed by the address as written: those files are removed).
    fn ensure_index(&self) -> Result<(), StoreError> {
        if self.index_built()? {
            return Ok(());
        }
        let dir = self.home().join("addresses");
        for (_, path) in self.list_json(&dir)? {
            self.remove_file(&path)?;
        }
        if self.read_text(&dir.join("built"))?.is_some() {
            self.remove_file(&dir.join("built"))?;
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

    /// Whether the address index is complete (a home made before it was kept with
    /// confirmation off has none until an account changes).
    pub fn index_built(&self) -> Result<bool, StoreError> {
        Ok(self.read_text(&self.index_marker())?.is_some())
    }

    /// Keeps the index true when the account `old` becomes `new` (either may be
    /// absent), building it first if it is not complete. It is kept whether or not
    /// confirmation is on, so that a mail that changes nothing finds the accounts of
    /// its sender's address in one file, never by reading every account.
    pub fn reindex(&self, old: Option<&Account>, new: Option<&Account>) -> Result<(), StoreError> {
        self.ensure_index()?;
        if let Some(o) = old {
            self.index(o, Indexing::Remove)?;
        }
        if let Some(n) = new {
            self.index(n, Indexing::Add)?;
        }
        Ok(())
    }

    /// The userids whose accounts name the mailbox of `address` (in any spelling).
    pub fn address_owners(&self, address: &Address) -> Result<Vec<UserId>, StoreError> {
        self.ensure_index()?;
        self.indexed_owners(address)
    }

    fn indexed_owners(&self, address: &Address) -> Result<Vec<UserId>, StoreError> {
        let owners: Vec<String> = self
            .read_json(&self.owners_path(address), "address index")?
            .unwrap_or_default();
        Ok(owners.iter().filter_map(|u| u.parse().ok()).collect())
    }

    /// The userids whose accounts name the mailbox of `address`, found without writing
    /// anything (for a command that changes nothing): from the index when it is built,
    /// else from every account (a home whose index is not built yet).
    pub fn address_owners_read_only(&self, address: &Address) -> Result<Vec<UserId>, StoreError> {
        if self.index_built()? {
            return self.indexed_owners(address);
        }
        Ok(self
            .accounts()?
            .into_iter()
            .filter(|a| a.addresses.iter().any(|x| x.same_mailbox(address)))
            .map(|a| a.userid)
            .collect())
    }

    /// The accounts naming the mailbox of `address`, split into those that confirmed it
    /// and those still waiting for their code (an index entry whose account is gone or
    /// no longer names it is skipped).
    pub fn address_accounts(
        &self,
        address: &Address,
    ) -> Result<(Vec<Account>, Vec<Account>), StoreError> {
        let (mut confirmed, mut pending) = (Vec::new(), Vec::new());
        for id in self.address_owners(address)? {
            match self.account(&id)? {
                Some(a) if a.is_confirmed(address) => confirmed.push(a),
                Some(a) if a.is_pending(address) => pending.push(a),
                _ => {}
            }
        }
        Ok((confirmed, pending))
    }

    /// Whether some account names the mailbox of `address` and its owner confirmed it
    /// (whichever account: what the gate asks of a recipient).
    pub fn is_confirmed(&self, address: &Address) -> Result<bool, StoreError> {
        Ok(!self.address_accounts(address)?.0.is_empty())
    }

    /// Whether the account of `userid` names the mailbox of `address` and confirmed it
    /// itself: a confirmation belongs to the account and the address together, so an
    /// account naming an address another account confirmed is not confirmed by it.
    pub fn is_confirmed_by(&self, userid: &UserId, address: &Address) -> Result<bool, StoreError> {
        Ok(self
            .account(userid)?
            .is_some_and(|a| a.is_confirmed(address)))
    }
}
