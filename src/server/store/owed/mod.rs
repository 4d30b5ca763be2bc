//! The work the server owes, one queue of two kinds ([`OwedKind`]): a robot's turn
//! (`<home>/robot-turns/<board>.json`, [`RobotTurn`]) and a finished game's review
//! (`<home>/reviews/owed/<board>.json`, [`OwedReview`]). One small file per board and
//! kind, written in the same transaction as what made the work owed (so a crash
//! loses nothing) and removed in the transaction that does it. A run that is going
//! to think about one claims it until a time, so that other runs leave it alone
//! meanwhile; a claim that lapsed belongs to whoever comes next (the run that claimed
//! it was killed). Both kinds are read, written, listed and claimed by the same
//! functions ([`Owed`], `Store::owed` and its siblings); each kind keeps its own
//! order ([`Owed::order`]) and its own fields.
//!
//! Each record names who is answerable for it ([`Answerable`], `"cause"`): the person
//! whose proven mail made it owed, a stranger (a mail that proved nobody with a
//! confirmed address), or the server itself (the game's clock, a robot's own turn
//! ending a game nobody else touched). A record written before causes were kept has
//! none: it is the server's, as every such work was judged then.

mod review;
mod robot_turn;

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::{BoardId, UserId};

pub use review::{MAX_REQUESTERS, OwedBy, OwedReview};
pub use robot_turn::RobotTurn;

/// The two kinds of work owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwedKind {
    /// A robot's turn in a game going on.
    RobotTurn,
    /// The review of a finished game.
    Review,
}

impl OwedKind {
    /// Both kinds.
    pub const ALL: [OwedKind; 2] = [OwedKind::RobotTurn, OwedKind::Review];

    /// What a file of this kind holds, as errors name it.
    fn what(self) -> &'static str {
        match self {
            OwedKind::RobotTurn => "robot turn",
            OwedKind::Review => "review owed",
        }
    }
}

/// Who is answerable for work owed: whose budget it may be counted against, and what
/// the mails made from it are caused by (`outgoing::gate::Source::Owed`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answerable {
    /// Nobody outside: the server itself (the game's clock ended the game, or the
    /// work was recorded before causes were kept).
    #[default]
    Server,
    /// The person (an account with a confirmed address) whose proven mail made it owed.
    Person(UserId),
    /// A mail that proved nobody with a confirmed address: anyone could have sent it.
    Stranger,
}

impl Answerable {
    fn is_server(&self) -> bool {
        *self == Answerable::Server
    }
}

/// One record of work owed, of one [`OwedKind`].
pub trait Owed: Serialize + DeserializeOwned + Clone {
    /// Its kind (its folder).
    const KIND: OwedKind;

    /// The key its queue is listed in (smallest first).
    type Order: Ord;

    /// The board it is about.
    fn board(&self) -> BoardId;

    /// Until when a run thinking about it keeps it (Unix seconds; 0: nobody).
    fn claimed_until(&self) -> u64;

    /// The same, claimed until `until`.
    fn claimed(self, until: u64) -> Self;

    /// Who is answerable for it.
    fn cause(&self) -> &Answerable;

    /// Its place in its queue.
    fn order(&self) -> Self::Order;

    /// Whether a run may take it up at `now`: nobody holds it, or the claim lapsed.
    fn is_free(&self, now: u64) -> bool {
        self.claimed_until() <= now
    }
}

impl Store {
    /// The folder of the work owed of `kind`: `<home>/robot-turns` or
    /// `<home>/reviews/owed`.
    pub fn owed_dir(&self, kind: OwedKind) -> PathBuf {
        match kind {
            OwedKind::RobotTurn => self.home.join("robot-turns"),
            OwedKind::Review => self.reviews_dir().join("owed"),
        }
    }

    fn owed_path(&self, kind: OwedKind, board: BoardId) -> PathBuf {
        self.owed_dir(kind).join(format!("{board}.json"))
    }

    /// The work of `T`'s kind owed on `board`, if any.
    pub fn owed<T: Owed>(&self, board: BoardId) -> Result<Option<T>, StoreError> {
        self.read_json(&self.owed_path(T::KIND, board), T::KIND.what())
    }

    /// Record (or replace) work owed on its board.
    pub fn put_owed<T: Owed>(&self, owed: &T) -> Result<(), StoreError> {
        let path = self.owed_path(T::KIND, owed.board());
        self.write_json(&path, T::KIND.what(), owed)
    }

    /// Forget the work of `kind` owed on `board` (none is no error).
    pub fn remove_owed(&self, kind: OwedKind, board: BoardId) -> Result<(), StoreError> {
        self.remove_file(&self.owed_path(kind, board))
    }

    /// Every record of `T`'s kind, in its queue's order ([`Owed::order`]); a file not
    /// named `<board>.json` is a named error.
    pub fn all_owed<T: Owed>(&self) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        for board in self.listed_boards(&self.owed_dir(T::KIND))? {
            if let Some(owed) = self.owed::<T>(board)? {
                out.push(owed);
            }
        }
        out.sort_by_key(|o| o.order());
        Ok(out)
    }

    /// The boards whose game files the open transaction wrote, sorted (none outside
    /// a transaction): the games that may owe work now.
    pub fn boards_written(&self) -> Vec<BoardId> {
        let dir = self.boards_dir();
        let mut boards: Vec<BoardId> = self
            .written_paths()
            .into_iter()
            .filter(|p| p.parent() == Some(dir.as_path()))
            .filter_map(|p| {
                let stem = p.file_stem()?.to_str()?.to_string();
                stem.parse().ok()
            })
            .collect();
        boards.sort_unstable();
        boards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records written before causes were kept (the format of the old
    /// `robot_turns.rs` and `reviews_owed.rs`) are read from the same folders, as the
    /// server's; a cause is written only when it is someone's.
    #[test]
    fn records_of_before_causes_are_read_as_the_servers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        std::fs::write(
            dir.path().join("robot-turns/101.json"),
            br#"{"board": 101, "turns": 12, "since": 1795384020, "claimed_until": 1795384052}"#,
        )
        .expect("old robot turn");
        std::fs::write(
            dir.path().join("reviews/owed/102.json"),
            br#"{"board": 102, "since": 1795384020, "claimed_until": 1795384920, "requesters": ["carol"], "by": "account"}"#,
        )
        .expect("old review owed");
        let turn = store
            .owed::<RobotTurn>(101.into())
            .expect("read")
            .expect("there");
        assert_eq!((turn.turns, turn.claimed_until), (12, 1795384052));
        assert_eq!(turn.cause, Answerable::Server);
        let review = store
            .owed::<OwedReview>(102.into())
            .expect("read")
            .expect("there");
        assert_eq!(
            (review.by, review.cause.clone()),
            (OwedBy::Account, Answerable::Server)
        );
        assert_eq!(review.requesters.len(), 1);
        // Written back as it was read: no cause for the server's.
        store.put_owed(&turn).expect("put");
        let text = std::fs::read_to_string(dir.path().join("robot-turns/101.json")).expect("read");
        assert!(!text.contains("cause"), "{text}");
        let alice: UserId = "alice".parse().expect("userid");
        let theirs = RobotTurn {
            cause: Answerable::Person(alice),
            ..turn
        };
        store.put_owed(&theirs).expect("put");
        let text = std::fs::read_to_string(dir.path().join("robot-turns/101.json")).expect("read");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(value["cause"]["person"], "alice", "{text}");
        assert_eq!(
            store.owed::<RobotTurn>(101.into()).expect("read"),
            Some(theirs)
        );
        let stranger = OwedReview {
            cause: Answerable::Stranger,
            ..review
        };
        store.put_owed(&stranger).expect("put");
        assert_eq!(
            store.owed::<OwedReview>(102.into()).expect("read"),
            Some(stranger)
        );
        // Each kind in its own folder: removing one leaves the other.
        store
            .remove_owed(OwedKind::RobotTurn, 102.into())
            .expect("none is no error");
        assert_eq!(store.all_owed::<OwedReview>().expect("list").len(), 1);
        store
            .remove_owed(OwedKind::RobotTurn, 101.into())
            .expect("remove");
        assert!(store.all_owed::<RobotTurn>().expect("list").is_empty());
    }
}
