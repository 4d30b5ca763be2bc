//! A robot's turn owed (`<home>/robot-turns/<board>.json`): one for each game in
//! which one of the server's robots is to move, written in the same transaction as
//! the turn that made it the robot's move and removed in the transaction that plays
//! the robot's turn. Listed oldest first (then by board).
//!
//! ```text
//! {"board": 101, "turns": 12, "since": 1795384020, "claimed_until": 1795384052,
//!  "cause": {"person": "alice"}}
//! ```

use serde::{Deserialize, Serialize};

use super::{Answerable, Owed, OwedKind};
use crate::server::model::BoardId;

/// A robot's turn owed on one board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotTurn {
    /// The board.
    pub board: BoardId,
    /// How many turns the game had when the turn became the robot's: the turn is
    /// played only while the game still has that many (any change makes it stale).
    pub turns: usize,
    /// When it became the robot's turn, Unix seconds.
    pub since: u64,
    /// Until when a run thinking about it keeps it (Unix seconds; 0: nobody).
    #[serde(default)]
    pub claimed_until: u64,
    /// Who made it the robot's turn (absent: the server's).
    #[serde(default, skip_serializing_if = "Answerable::is_server")]
    pub cause: Answerable,
}

impl Owed for RobotTurn {
    const KIND: OwedKind = OwedKind::RobotTurn;
    type Order = (u64, BoardId);

    fn board(&self) -> BoardId {
        self.board
    }

    fn claimed_until(&self) -> u64 {
        self.claimed_until
    }

    fn claimed(self, until: u64) -> RobotTurn {
        RobotTurn {
            claimed_until: until,
            ..self
        }
    }

    fn cause(&self) -> &Answerable {
        &self.cause
    }

    fn order(&self) -> (u64, BoardId) {
        (self.since, self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{UserId, Variant};
    use crate::server::store::{GameFile, Store};

    #[test]
    fn robot_turns_round_trip_oldest_first_and_boards_written_are_listed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let turn = |board: u32, since| RobotTurn {
            board: board.into(),
            turns: 3,
            since,
            claimed_until: 0,
            cause: Answerable::Server,
        };
        store.put_owed(&turn(102, 5)).expect("put");
        store.put_owed(&turn(101, 9)).expect("put");
        let listed = store.all_owed::<RobotTurn>().expect("list");
        assert_eq!(listed, vec![turn(102, 5), turn(101, 9)]);
        assert!(listed[0].is_free(0));
        store
            .remove_owed(OwedKind::RobotTurn, 102.into())
            .expect("remove");
        assert_eq!(
            store.all_owed::<RobotTurn>().expect("list"),
            vec![turn(101, 9)]
        );
        let _lock = store.lock().expect("lock");
        store.begin();
        let id = |s: &str| s.parse::<UserId>().expect("userid");
        let game = GameFile::new(107, Variant::Normal, id("a"), id("robot1"), 1);
        store.put_game(&game).expect("put");
        store.put_owed(&turn(103, 1)).expect("put");
        assert_eq!(store.boards_written(), vec![BoardId::from(107)]);
        drop(store.take_changes());
        assert!(store.boards_written().is_empty());
    }
}
