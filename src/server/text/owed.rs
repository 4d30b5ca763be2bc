//! The texts of the work owed after a mail (`run/owed/`): the operator's log lines of
//! the robots' turns and the reviews, and the note a briefly thought robot turn
//! carries to its players. The runs decide; these write.

use std::fmt::Display;

use crate::server::model::{BoardId, UserId};

/// The drain's line of a robot turn it left for a later run.
pub const ROBOT_TURN_LEFT: &str = "robot turn left for later";

/// The drain's line of a review it left for a later run.
pub const REVIEW_LEFT: &str = "review left for later";

/// The robots' think time for this hour is spent: `spent` of `cap` seconds.
pub fn robots_time_spent(spent: u128, cap: u128) -> String {
    format!(
        "robots' think time for this hour spent ({spent} of {cap} s): the robot turns owed wait for the next hour"
    )
}

/// The person's share of `board` is spent: the robot plays level 1's search.
pub fn share_spent(board: BoardId) -> String {
    format!(
        "board {board}: the person's share of the robots' think time for this hour is spent: level 1's search"
    )
}

/// What a robot's comment says under a turn thought briefly (its players read it).
pub const THOUGHT_BRIEFLY: &str =
    "\n(This turn was thought briefly: the robots' think time for your games this hour is spent.)";

/// The robot turn owed on `board` was played already.
pub fn robot_turn_played_already(board: BoardId) -> String {
    format!("board {board}: robot turn already played")
}

/// The robot turn owed on `board` is owed no longer (the game or the thought is gone).
pub fn robot_turn_not_owed(board: BoardId) -> String {
    format!("board {board}: robot turn no longer owed")
}

/// The game of `board` changed while the robot thought.
pub fn robot_turn_dropped(board: BoardId) -> String {
    format!("board {board}: the game changed: robot turn dropped")
}

/// The robot's turn `turn` on `board` was refused by the rules with `e`.
pub fn robot_turn_refused(board: BoardId, turn: &str, e: &dyn Display) -> String {
    format!("board {board}: the robot's turn {turn} was refused: {e}")
}

/// `robot` played `turn` as move `number` on `board`.
pub fn robot_played(board: BoardId, robot: &UserId, turn: &str, number: u32) -> String {
    format!("board {board}: {robot} played {turn} as move #{number}")
}

/// Strangers' part of the reviews' time is spent: `spent` of `cap` seconds.
pub fn strangers_reviews_spent(spent: u128, cap: u128) -> String {
    format!(
        "strangers' part of the reviews' think time for this hour spent ({spent} of {cap} s): their reviews owed wait for the next hour"
    )
}

/// The reviews' time is spent (`spent` of `cap` seconds), and perhaps all the robots'.
pub fn reviews_spent(spent: u128, cap: u128, all_robots_spent: bool) -> String {
    let all = if all_robots_spent {
        "; all the robots' time is spent"
    } else {
        ""
    };
    format!(
        "reviews' think time for this hour spent ({spent} of {cap} s{all}): the reviews owed wait for the next hour"
    )
}

/// Why a game's review could not be thought: one of its turns does not replay.
pub const TURN_DOES_NOT_REPLAY: &str = "a turn does not replay";

/// Nothing to review on `board`.
pub fn nothing_to_review(board: BoardId) -> String {
    format!("board {board}: review already made, game gone or nobody moved")
}

/// `board`'s game does not replay (`why`): no review.
pub fn not_reviewed(board: BoardId, why: &str) -> String {
    format!("board {board}: not reviewed, the game does not replay: {why}")
}

/// `board`'s review was made meanwhile, or its game is gone.
pub fn review_made_already(board: BoardId) -> String {
    format!("board {board}: review already made or game gone")
}

/// `board` reviewed in `ms` milliseconds: `points` turning points, `mails` mails.
pub fn reviewed(board: BoardId, ms: u64, points: usize, mails: usize) -> String {
    format!("board {board}: reviewed in {ms} ms ({points} turning points), {mails} mails")
}
