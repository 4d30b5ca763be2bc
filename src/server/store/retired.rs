//! Userids of accounts that were signed off: the account's last record is kept as
//! `<home>/accounts/<key>.retired` (beside the accounts, so under the same 0700
//! folder, and never listed as an account: only `.json` files are). Finished games,
//! history and ratings keep a userid after its account is gone, so a userid is
//! never given to someone else: only the former owner, signing up with its last
//! password, takes it back (with its games list). Written through the store's
//! transaction.

use std::path::PathBuf;

use super::accounts::Account;
use super::{Store, StoreError, UserId};

impl Store {
    fn retired_path(&self, userid: &UserId) -> PathBuf {
        self.accounts_dir()
            .join(format!("{}.retired", userid.key()))
    }

    /// The last record of the signed-off account of `userid`, if there is one.
    pub fn retired(&self, userid: &UserId) -> Result<Option<Account>, StoreError> {
        self.read_json(&self.retired_path(userid), "retired account")
    }

    /// Removes `account` and keeps its record as retired.
    pub fn retire_account(&self, account: &Account) -> Result<(), StoreError> {
        self.write_json(
            &self.retired_path(&account.userid),
            "retired account",
            account,
        )?;
        self.delete_account(&account.userid)
    }

    /// Forgets that `userid` was retired (its former owner took it back).
    pub fn unretire(&self, userid: &UserId) -> Result<(), StoreError> {
        self.remove_file(&self.retired_path(userid))
    }
}
