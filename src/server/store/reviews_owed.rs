//! The reviews owed (issue 28): `<home>/reviews/owed/<board>.json`, one small file for
//! each finished game whose review is still to be thought. It is written in the same
//! transaction that ends the game (any ending) or that a `review` request is carried
//! out in, so a crash loses nothing, and removed in the transaction that keeps the
//! review (`reviews/<board>.json`). A run that is going to think about one claims it
//! until a time, so that other runs leave it alone meanwhile; a claim that lapsed
//! belongs to whoever comes next (the run that claimed it was killed). Besides the
//! game's players, a review is mailed to the accounts that asked for it
//! (`requesters`, at most [`MAX_REQUESTERS`]: more are answered but not added).
//! They are made in the order of [`OwedBy`] (the players' own games first, strangers'
//! requests last), then oldest first; `by` is left out for a game's ending.
//!
//! ```text
//! {"board": 101, "since": 1795384020, "claimed_until": 1795384920,
//!  "requesters": ["carol"], "by": "account"}
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::{BoardId, UserId};

/// The accounts besides the players a review owed is mailed to, at most.
pub const MAX_REQUESTERS: usize = 3;

/// A review owed on one finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwedReview {
    /// The board.
    pub board: BoardId,
    /// When it became owed, Unix seconds.
    pub since: u64,
    /// Until when a run thinking about it keeps it (Unix seconds; 0: nobody).
    #[serde(default)]
    pub claimed_until: u64,
    /// The accounts besides the players that asked for it, in the order they asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requesters: Vec<UserId>,
    /// Who made it owed, the first of them in [`OwedBy`]'s order.
    #[serde(default, skip_serializing_if = "OwedBy::is_ending")]
    pub by: OwedBy,
}

/// Who made a review owed, in the order reviews are made: a game's own players first,
/// then accounts that asked of other games, strangers last.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OwedBy {
    /// The game ended (the transaction that ended it).
    #[default]
    Ending,
    /// One of the game's players asked.
    Player,
    /// An account that plays no part in the game asked.
    Account,
    /// A request that proved nobody.
    Stranger,
}

impl OwedBy {
    fn is_ending(&self) -> bool {
        *self == OwedBy::Ending
    }
}

impl OwedReview {
    /// A review of `board` owed since `now` (its game ended then), claimed by nobody,
    /// asked for by nobody beyond the players.
    pub fn new(board: BoardId, now: u64) -> OwedReview {
        OwedReview {
            board,
            since: now,
            claimed_until: 0,
            requesters: Vec::new(),
            by: OwedBy::Ending,
        }
    }

    /// A review of `board` owed since `now` because `by` asked for it.
    pub fn asked(board: BoardId, now: u64, by: OwedBy) -> OwedReview {
        OwedReview {
            by,
            ..OwedReview::new(board, now)
        }
    }

    /// The same, asked for by `by` too: it is made as soon as the first of them's.
    pub fn asked_by(mut self, by: OwedBy) -> OwedReview {
        self.by = self.by.min(by);
        self
    }

    /// Whether a run may take it up at `now`: nobody holds it, or the claim lapsed.
    pub fn is_free(&self, now: u64) -> bool {
        self.claimed_until <= now
    }

    /// Add `who` to the requesters unless they are among them already (any case) or
    /// there are [`MAX_REQUESTERS`]; whether they are among them now.
    pub fn add_requester(&mut self, who: &UserId) -> bool {
        if self.requesters.iter().any(|r| r.key() == who.key()) {
            return true;
        }
        if self.requesters.len() >= MAX_REQUESTERS {
            return false;
        }
        self.requesters.push(who.clone());
        true
    }
}

impl Store {
    /// `<home>/reviews/owed`.
    pub fn reviews_owed_dir(&self) -> PathBuf {
        self.reviews_dir().join("owed")
    }

    fn owed_review_path(&self, board: BoardId) -> PathBuf {
        self.reviews_owed_dir().join(format!("{board}.json"))
    }

    /// The review owed on `board`, if any.
    pub fn owed_review(&self, board: BoardId) -> Result<Option<OwedReview>, StoreError> {
        self.read_json(&self.owed_review_path(board), "review owed")
    }

    /// Record (or replace) the review owed on its board.
    pub fn put_owed_review(&self, owed: &OwedReview) -> Result<(), StoreError> {
        self.write_json(&self.owed_review_path(owed.board), "review owed", owed)
    }

    /// Forget the review owed on `board` (none is no error).
    pub fn remove_owed_review(&self, board: BoardId) -> Result<(), StoreError> {
        self.remove_file(&self.owed_review_path(board))
    }

    /// Every review owed, in the order they are made: by [`OwedBy`], then oldest first
    /// (then by board); a file not named `<board>.json` is a named error.
    pub fn owed_reviews(&self) -> Result<Vec<OwedReview>, StoreError> {
        let mut out = Vec::new();
        for board in self.listed_boards(&self.reviews_owed_dir())? {
            if let Some(owed) = self.owed_review(board)? {
                out.push(owed);
            }
        }
        out.sort_by_key(|o| (o.by, o.since, o.board));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reviews_owed_round_trip_oldest_first_and_a_stray_file_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        assert_eq!(store.owed_reviews().expect("none yet"), Vec::new());
        let owed = |board: u32, since| OwedReview::new(board.into(), since);
        store.put_owed_review(&owed(102, 5)).expect("put");
        store.put_owed_review(&owed(101, 9)).expect("put");
        let listed = store.owed_reviews().expect("list");
        assert_eq!(listed, vec![owed(102, 5), owed(101, 9)]);
        assert!(listed[0].is_free(0));
        store.remove_owed_review(102.into()).expect("remove");
        assert_eq!(store.owed_reviews().expect("list"), vec![owed(101, 9)]);
        // A stranger's request waits behind an account's, and both behind an ending.
        let asked = |board: u32, by| OwedReview::asked(board.into(), 1, by);
        store
            .put_owed_review(&asked(103, OwedBy::Stranger))
            .expect("put");
        store
            .put_owed_review(&asked(104, OwedBy::Account))
            .expect("put");
        store
            .put_owed_review(&asked(105, OwedBy::Player))
            .expect("put");
        let order: Vec<u32> = (store.owed_reviews().expect("list").iter())
            .map(|o| o.board.into())
            .collect();
        assert_eq!(order, [101, 105, 104, 103]);
        assert_eq!(
            asked(106, OwedBy::Player).asked_by(OwedBy::Stranger).by,
            OwedBy::Player
        );
        std::fs::write(dir.path().join("reviews/owed/x1.json"), b"{}").expect("stray");
        let err = store.owed_reviews().expect_err("stray");
        assert!(err.to_string().contains("x1.json"), "{err}");
    }

    #[test]
    fn requesters_are_kept_once_each_and_at_most_three() {
        let id = |s: &str| s.parse::<UserId>().expect("userid");
        let mut o = OwedReview::new(101.into(), 1);
        assert!(o.add_requester(&id("carol")));
        assert!(o.add_requester(&id("Carol")), "the same account");
        assert!(o.add_requester(&id("dave")));
        assert!(o.add_requester(&id("erin")));
        assert!(!o.add_requester(&id("frank")), "a fourth is not added");
        assert_eq!(o.requesters.len(), MAX_REQUESTERS);
    }
}
