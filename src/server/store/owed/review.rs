//! The reviews owed (issue 28): `<home>/reviews/owed/<board>.json`, one small file for
//! each finished game whose review is still to be thought. It is written in the same
//! transaction that ends the game (any ending) or that a `review` request is carried
//! out in, and removed in the transaction that keeps the review
//! (`reviews/<board>.json`). Besides the game's players, a review is mailed to the
//! accounts that asked for it (`requesters`, at most [`MAX_REQUESTERS`]: more are
//! answered but not added). They are made in the order [`Owed::order`] gives: every
//! review a stranger is answerable for (`cause`) after all the others, so that reviews
//! strangers queue never go ahead of a person's own; within each, in the order of
//! [`OwedBy`] (the players' own games first, strangers' requests last), then oldest
//! first. `by` is left out for a game's ending, `cause` for the server's.
//!
//! ```text
//! {"board": 101, "since": 1795384020, "claimed_until": 1795384920,
//!  "requesters": ["carol"], "by": "account", "cause": {"person": "carol"}}
//! ```

use serde::{Deserialize, Serialize};

use super::{Answerable, Owed, OwedKind};
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
    /// Who is answerable for it: the one of [`OwedReview::by`] (absent: the
    /// server's).
    #[serde(default, skip_serializing_if = "Answerable::is_server")]
    pub cause: Answerable,
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
    /// A review of `board` owed since `now` (its game ended then, by what `cause`
    /// is answerable for), claimed by nobody, asked for by nobody beyond the players.
    pub fn new(board: BoardId, now: u64, cause: Answerable) -> OwedReview {
        OwedReview {
            board,
            since: now,
            claimed_until: 0,
            requesters: Vec::new(),
            by: OwedBy::Ending,
            cause,
        }
    }

    /// A review of `board` owed since `now` because `by` asked for it (`cause`: who
    /// that is).
    pub fn asked(board: BoardId, now: u64, by: OwedBy, cause: Answerable) -> OwedReview {
        OwedReview {
            by,
            ..OwedReview::new(board, now, cause)
        }
    }

    /// The same, asked for by `by` too (`cause`: who that is): it is made as soon as
    /// the first of them's, and that first one is answerable for it.
    pub fn asked_by(mut self, by: OwedBy, cause: Answerable) -> OwedReview {
        if by < self.by {
            self.by = by;
            self.cause = cause;
        }
        self
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

impl Owed for OwedReview {
    const KIND: OwedKind = OwedKind::Review;
    type Order = (bool, OwedBy, u64, BoardId);

    fn board(&self) -> BoardId {
        self.board
    }

    fn claimed_until(&self) -> u64 {
        self.claimed_until
    }

    fn claimed(self, until: u64) -> OwedReview {
        OwedReview {
            claimed_until: until,
            ..self
        }
    }

    fn cause(&self) -> &Answerable {
        &self.cause
    }

    /// Strangers' last (those a stranger is answerable for), then by [`OwedBy`], then
    /// oldest first (then by board).
    fn order(&self) -> (bool, OwedBy, u64, BoardId) {
        (
            self.cause == Answerable::Stranger,
            self.by,
            self.since,
            self.board,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::store::Store;

    #[test]
    fn reviews_owed_round_trip_oldest_first_and_a_stray_file_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let owed_reviews = || store.all_owed::<OwedReview>();
        assert_eq!(owed_reviews().expect("none yet"), Vec::new());
        let owed = |board: u32, since| OwedReview::new(board.into(), since, Answerable::Server);
        store.put_owed(&owed(102, 5)).expect("put");
        store.put_owed(&owed(101, 9)).expect("put");
        let listed = owed_reviews().expect("list");
        assert_eq!(listed, vec![owed(102, 5), owed(101, 9)]);
        assert!(listed[0].is_free(0));
        store
            .remove_owed(OwedKind::Review, 102.into())
            .expect("remove");
        assert_eq!(owed_reviews().expect("list"), vec![owed(101, 9)]);
        // A stranger's request waits behind an account's, and both behind an ending.
        let asked = |board: u32, by| OwedReview::asked(board.into(), 1, by, Answerable::Stranger);
        store.put_owed(&asked(103, OwedBy::Stranger)).expect("put");
        store.put_owed(&asked(104, OwedBy::Account)).expect("put");
        store.put_owed(&asked(105, OwedBy::Player)).expect("put");
        let order: Vec<u32> = (owed_reviews().expect("list").iter())
            .map(|o| o.board.into())
            .collect();
        assert_eq!(order, [101, 105, 104, 103]);
        // Issue 45: a review a stranger is answerable for (an older game a throwaway
        // account ended) waits behind a person's, whatever made either owed.
        let carol = Answerable::Person("carol".parse().expect("userid"));
        store
            .put_owed(&OwedReview::new(108.into(), 10, carol.clone()))
            .expect("put");
        store
            .put_owed(&OwedReview::asked(109.into(), 9, OwedBy::Account, carol))
            .expect("put");
        let order: Vec<u32> = (owed_reviews().expect("list").iter())
            .map(|o| o.board.into())
            .collect();
        assert_eq!(order, [101, 108, 109, 105, 104, 103]);
        for board in [108, 109] {
            store
                .remove_owed(OwedKind::Review, board.into())
                .expect("remove");
        }
        let carol = Answerable::Person("carol".parse().expect("userid"));
        let player = OwedReview::asked(106.into(), 1, OwedBy::Player, carol.clone());
        let both = player.asked_by(OwedBy::Stranger, Answerable::Stranger);
        assert_eq!((both.by, both.cause), (OwedBy::Player, carol.clone()));
        let first = asked(107, OwedBy::Stranger).asked_by(OwedBy::Account, carol.clone());
        assert_eq!(
            (first.by, first.cause),
            (OwedBy::Account, carol),
            "the first in the order is answerable"
        );
        std::fs::write(dir.path().join("reviews/owed/x1.json"), b"{}").expect("stray");
        let err = owed_reviews().expect_err("stray");
        assert!(err.to_string().contains("x1.json"), "{err}");
    }

    #[test]
    fn requesters_are_kept_once_each_and_at_most_three() {
        let id = |s: &str| s.parse::<UserId>().expect("userid");
        let mut o = OwedReview::new(101.into(), 1, Answerable::Server);
        assert!(o.add_requester(&id("carol")));
        assert!(o.add_requester(&id("Carol")), "the same account");
        assert!(o.add_requester(&id("dave")));
        assert!(o.add_requester(&id("erin")));
        assert!(!o.add_requester(&id("frank")), "a fourth is not added");
        assert_eq!(o.requesters.len(), MAX_REQUESTERS);
    }
}
