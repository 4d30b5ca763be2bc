//! A challenge's held message (issue 45): `<home>/held/<board>.json`, one
//! [`HeldMessage`] per game at most, the text written under a challenge that carried
//! no password (`yinsh challenge alice bob` from alice's confirmed address). Nothing
//! proved that alice wrote it, so it is kept, not sent; `exec::held` passes it on to
//! the opponent once the challenger proves it (a reply to the challenger's answer
//! carrying its reply token, or the challenge again with a password), and removes it
//! then, so it goes out once. Its text is cut like a chat's (`text::cut`); it expires
//! with the challenge: at `expires` (the challenge's forfeit time), or when the game
//! is over, whichever comes first. Written through the store's transaction (so in
//! the journal of the mail that held or released it, under a 0700 folder: it names
//! a player's words); expired ones are removed by the daily expiry ([`Store::expire`]).
//!
//! ```text
//! {"board": 101, "from": "alice", "to": "bob", "text": "Fancy a game, Bob?",
//!  "made": 1795384020, "expires": 1796593620}
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::seen::{read_dir, remove_file};
use super::{Store, StoreError};
use crate::server::model::{BoardId, UserId};

/// The folder of the held messages, under the home.
pub(super) const FOLDER: &str = "held";

/// The message of one game's challenge, waiting for its challenger's proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeldMessage {
    /// The game the challenge started.
    pub board: BoardId,
    /// The challenger (the player whose address the challenge came from).
    pub from: UserId,
    /// The opponent it is for.
    pub to: UserId,
    /// The text, already cut to its bound.
    pub text: String,
    /// When it was held, unix seconds.
    pub made: u64,
    /// When it expires, unix seconds (the challenge's forfeit time).
    pub expires: u64,
}

impl HeldMessage {
    /// Whether it has expired at `now`.
    pub fn expired(&self, now: u64) -> bool {
        now >= self.expires
    }
}

impl Store {
    fn held_dir(&self) -> PathBuf {
        self.home().join(FOLDER)
    }

    fn held_path(&self, board: BoardId) -> PathBuf {
        self.held_dir().join(format!("{board}.json"))
    }

    /// The message held for `board`'s challenge, if any, through the transaction.
    pub fn held_message(&self, board: BoardId) -> Result<Option<HeldMessage>, StoreError> {
        self.read_json(&self.held_path(board), "held message")
    }

    /// Holds `held` for its board (replacing any: one per game).
    pub fn hold_message(&self, held: &HeldMessage) -> Result<(), StoreError> {
        if !self.in_transaction() {
            super::fs::create_dir(&self.held_dir(), 0o700)?;
        }
        self.write_json(&self.held_path(held.board), "held message", held)
    }

    /// Forgets the message held for `board` (none is fine): passed on, or expired.
    pub fn drop_held_message(&self, board: BoardId) -> Result<(), StoreError> {
        self.remove_file(&self.held_path(board))
    }

    /// The messages held, through the transaction, in board order.
    pub fn held_messages(&self) -> Result<Vec<HeldMessage>, StoreError> {
        let mut boards = self.listed_boards(&self.held_dir())?;
        boards.sort();
        let mut out = Vec::new();
        for board in boards {
            out.extend(self.held_message(board)?);
        }
        Ok(out)
    }

    /// Removes the held messages expired at `now` (and files that do not read as
    /// one); returns how many. Outside any transaction, as the daily expiry runs.
    pub(super) fn expire_held(&self, now: u64) -> Result<usize, StoreError> {
        let mut removed = 0;
        for e in read_dir(&self.held_dir())? {
            let over = std::fs::read(e.path())
                .ok()
                .and_then(|b| serde_json::from_slice::<HeldMessage>(&b).ok())
                .is_none_or(|h| h.expired(now));
            let name = e.file_name();
            if over && !name.to_string_lossy().starts_with('.') && remove_file(&e.path())? {
                removed += 1;
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(board: u32, expires: u64) -> HeldMessage {
        HeldMessage {
            board: board.into(),
            from: "alice".parse().expect("userid"),
            to: "bob".parse().expect("userid"),
            text: "Fancy a game, Bob?".to_string(),
            made: 1000,
            expires,
        }
    }

    #[test]
    fn a_held_message_is_kept_once_per_game_and_expires_with_its_challenge() {
        let dir = tempfile::tempdir().expect("tmp");
        let store = Store::open(dir.path()).expect("store");
        store.hold_message(&held(101, 5000)).expect("hold");
        store.hold_message(&held(102, 9000)).expect("hold");
        assert_eq!(
            store.held_message(101.into()).expect("read"),
            Some(held(101, 5000))
        );
        let boards: Vec<u32> = store
            .held_messages()
            .expect("list")
            .iter()
            .map(|h| h.board.into())
            .collect();
        assert_eq!(boards, [101, 102]);
        assert!(!held(101, 5000).expired(4999) && held(101, 5000).expired(5000));
        assert_eq!(store.expire_held(6000).expect("expire"), 1);
        assert_eq!(store.held_message(101.into()).expect("read"), None);
        assert!(store.held_message(102.into()).expect("read").is_some());
        store.drop_held_message(102.into()).expect("drop");
        store
            .drop_held_message(102.into())
            .expect("dropping twice is fine");
        assert!(store.held_messages().expect("list").is_empty());
    }
}
