//! The look-alike index `<home>/skeletons/<sha256>.json`: from a userid's
//! [`skeleton`] to the userids that have it (accounts, and signed-off userids, which
//! are never given to anyone else), so that a signup finds the userid it would be
//! taken for without reading every account. Built once from every account and
//! retired userid (marker `skeletons/built`); a signup adds its userid, and the
//! removal of an account that never confirmed takes it out. Userids that clashed
//! before the index existed all stay in it. Through the store's transaction.

use std::path::PathBuf;

use super::seen::{key_name, read_dir};
use super::{Store, StoreError, UserId};
use crate::server::model::skeleton;

impl Store {
    fn skeleton_path(&self, userid: &UserId) -> PathBuf {
        self.home()
            .join("skeletons")
            .join(format!("{}.json", key_name(skeleton(userid.as_str()))))
    }

    fn skeleton_marker(&self) -> PathBuf {
        self.home().join("skeletons").join("built")
    }

    /// Builds the index from every account and retired userid, once.
    fn ensure_skeletons(&self) -> Result<(), StoreError> {
        if self.read_text(&self.skeleton_marker())?.is_some() {
            return Ok(());
        }
        let mut userids: Vec<UserId> = self.accounts()?.into_iter().map(|a| a.userid).collect();
        for e in read_dir(&self.accounts_dir())? {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(id) = name.strip_suffix(".retired").and_then(|s| s.parse().ok()) {
                userids.push(id);
            }
        }
        for id in &userids {
            self.enter_skeleton(id)?;
        }
        self.write_file(&self.skeleton_marker(), b"1\n")
    }

    /// The userids other than `userid` itself (by key) whose skeleton is `userid`'s.
    pub fn look_alikes(&self, userid: &UserId) -> Result<Vec<UserId>, StoreError> {
        self.ensure_skeletons()?;
        let found: Vec<String> = self
            .read_json(&self.skeleton_path(userid), "look-alike index")?
            .unwrap_or_default();
        Ok(found
            .iter()
            .filter_map(|u| u.parse::<UserId>().ok())
            .filter(|u| u.key() != userid.key())
            .collect())
    }

    /// Enters `userid` under its skeleton (a new account).
    pub fn add_skeleton(&self, userid: &UserId) -> Result<(), StoreError> {
        self.ensure_skeletons()?;
        self.enter_skeleton(userid)
    }

    fn enter_skeleton(&self, userid: &UserId) -> Result<(), StoreError> {
        let path = self.skeleton_path(userid);
        let mut found: Vec<String> = self
            .read_json(&path, "look-alike index")?
            .unwrap_or_default();
        if !found
            .iter()
            .any(|u| u.eq_ignore_ascii_case(userid.as_str()))
        {
            found.push(userid.to_string());
            self.write_json(&path, "look-alike index", &found)?;
        }
        Ok(())
    }

    /// Takes `userid` out of the index (its account is removed and the userid freed).
    pub fn remove_skeleton(&self, userid: &UserId) -> Result<(), StoreError> {
        self.ensure_skeletons()?;
        let path = self.skeleton_path(userid);
        let mut found: Vec<String> = self
            .read_json(&path, "look-alike index")?
            .unwrap_or_default();
        found.retain(|u| !u.eq_ignore_ascii_case(userid.as_str()));
        if found.is_empty() {
            self.remove_file(&path)
        } else {
            self.write_json(&path, "look-alike index", &found)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Account;
    use super::*;

    fn id(text: &str) -> UserId {
        text.parse().expect("userid")
    }

    /// Issue 25 finding 10: a look-alike is found through the index, accounts made
    /// before it included, and a freed userid no longer clashes.
    #[test]
    fn look_alikes_are_found_without_a_scan_and_freed_with_their_account() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        store.begin();
        let pw = "pw-secret".parse().expect("password");
        let alice = Account::new(&id("alice"), &pw, Vec::new(), 0).expect("account");
        store.put_account(&alice).expect("put");
        assert_eq!(
            store.look_alikes(&id("aIice")).expect("read"),
            [id("alice")]
        );
        assert_eq!(
            store.look_alikes(&id("a1ice")).expect("read"),
            [id("alice")]
        );
        assert!(
            store.look_alikes(&id("ALICE")).expect("read").is_empty(),
            "itself"
        );
        assert!(store.look_alikes(&id("bob")).expect("read").is_empty());
        store.add_skeleton(&id("b0b")).expect("add");
        assert_eq!(store.look_alikes(&id("bob")).expect("read"), [id("b0b")]);
        store.remove_skeleton(&id("b0b")).expect("remove");
        assert!(store.look_alikes(&id("bob")).expect("read").is_empty());
    }
}
