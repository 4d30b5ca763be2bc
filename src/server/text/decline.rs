//! The texts of a game removed unplayed (`exec::decline`): declined by one of its
//! players before their first move, told to the players, the watchers and the
//! challenger; or cancelled by `tick` when the player to move of a quiet game never
//! moved, told to the other player.

use crate::server::model::{BoardId, UserId};

/// The line that says what removing a game means.
const REMOVED: &str = "The game is removed: it is not rated and the history does not list it.\n";

/// Who started a declined game, as its mail names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartedBy<'a> {
    /// Someone else, for the two players: the challenger in words (its address and
    /// userids), or `None` for "someone else" (the words an address nobody confirmed
    /// reads).
    Challenger(Option<&'a str>),
    /// One of the two players.
    Player(&'a UserId),
    /// Nobody recorded.
    Unknown,
}

/// `by` declined `board`, `white` against `black`, started as `started` says.
///
/// ```
/// use yinsh_pbem::server::text::decline::{declined, StartedBy};
/// let u = |s: &str| s.parse().unwrap();
/// assert_eq!(
///     declined(&u("bob"), 101.into(), &u("alice"), &u("bob"), StartedBy::Challenger(None)),
///     "bob declined board 101, the game someone else started for alice (White) and bob (Black).\n\
///      The game is removed: it is not rated and the history does not list it.\n"
/// );
/// ```
pub fn declined(
    by: &UserId,
    board: BoardId,
    white: &UserId,
    black: &UserId,
    started: StartedBy<'_>,
) -> String {
    match started {
        StartedBy::Challenger(who) => format!(
            "{by} declined board {board}, the game {} started for {white} (White) and {black} (Black).\n{REMOVED}",
            who.unwrap_or("someone else")
        ),
        StartedBy::Player(starter) => format!(
            "{by} declined board {board}, {white} (White) against {black} (Black), started by {starter}.\n{REMOVED}"
        ),
        StartedBy::Unknown => format!(
            "{by} declined board {board}, {white} (White) against {black} (Black).\n{REMOVED}"
        ),
    }
}

/// `text` followed by the comment `by` wrote with the decline (none when empty).
pub fn with_comment(text: String, by: &UserId, comment: &str) -> String {
    if comment.is_empty() {
        text
    } else {
        format!("{text}\n{by} writes:\n{comment}\n")
    }
}

/// `board` cancelled by `tick`: `absent` has not moved in it in `days` days.
pub fn cancelled(board: BoardId, absent: &UserId, days: u32) -> String {
    format!(
        "Board {board} is cancelled: {absent} has not made a move in it in {days} days.\n{REMOVED}"
    )
}
