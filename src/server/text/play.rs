//! The lines of the mails about moves not played at once (`exec::play`): a move
//! queued, and when it was played or dropped; a move submitted for confirmation;
//! a preview of hypothetical moves. The moves are given as their senders wrote them
//! (masked where a line's masking hides them: the caller's `Display`).

use std::fmt::Display;

use crate::server::model::{BoardId, UserId};

/// `player`'s queued move `text` was played as move `number`.
pub fn queued_played(player: &UserId, text: &str, number: u32) -> String {
    format!("{player}'s queued move {text} was played as move #{number}.")
}

/// To `player`: their queued move `text` on `board` was dropped, `why`, and how to
/// play now.
pub fn queued_dropped(text: &str, board: BoardId, why: &dyn Display, player: &UserId) -> String {
    format!(
        "Your queued move {text} on board {board} could not be played: {why}.\nIt was dropped. It is your turn now: reply to this mail with your move as the\nfirst line, or send a mail with this Subject:\n    yinsh move {board} {player} <password> <move>\n"
    )
}

/// The move `text` is queued, to be played after `opponent`'s.
///
/// ```
/// use yinsh_pbem::server::text::play::queued;
/// assert_eq!(
///     queued("e5", &"bob".parse().unwrap()),
///     "Your move e5 is queued: it will be played after bob's move, if it is legal then."
/// );
/// ```
pub fn queued(text: impl Display, opponent: &UserId) -> String {
    format!(
        "Your move {text} is queued: it will be played after {opponent}'s move, if it is legal then."
    )
}

/// The submitted move `text` of `userid` on `board`, shown, and how to play it.
pub fn submitted(text: impl Display, board: BoardId, userid: &UserId) -> String {
    format!(
        "Preview of your move {text} (nothing has been played yet).\nTo play it, send the Subject: yinsh confirm {board} {userid} <password>"
    )
}

/// The board after `moves` played from move `from` (1-based), nothing stored.
pub fn preview<T: Display>(moves: &[T], from: usize) -> String {
    format!(
        "Preview: the board after {} from move #{from} (nothing has been stored).",
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    )
}
