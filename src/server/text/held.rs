//! The texts of a challenge's held message (issue 45, `exec::held`): the answer to
//! the challenger saying it is held and how to pass it on, the message as the
//! opponent gets it, and what the challenger is told when it was passed on or when
//! none is held any more.

use crate::server::model::{BoardId, UserId};

use super::dates::format_date;
use super::social::{Answer, signed_answerable};

/// The answer to a password-less challenge from `challenger`'s own address that
/// started `board`: its message to `opponent` is held until `expires` (or the
/// game's end), and how the challenger passes it on.
///
/// ```
/// use yinsh_pbem::server::text::held::held;
/// let text = held(101.into(), &"bob".parse().unwrap(), 1_795_384_020);
/// assert!(text.contains("the message in your mail was not passed on\nto bob yet"));
/// assert!(text.contains("press Reply on this mail"));
/// assert!(text.contains("until 2026-11-22 21:47 UTC"));
/// ```
pub fn held(board: BoardId, opponent: &UserId, expires: u64) -> String {
    format!(
        "The game was started on board {board}, but the message in your mail was not passed on
to {opponent} yet: a challenge without a password could come from anyone, so the server
holds its message until you show that it was yours.
To pass it on, press Reply on this mail and send the reply (what you write in it
does not matter): only your own mailbox got this mail. Or send the challenge again
with the password of the player who challenges (no second game is started; a message
in its body is passed on instead of the one held):
    yinsh challenge -password <password> <userid1> <userid2>
The message goes to {opponent} once. It is held until {} (the game's forfeit time),
or until the game ends if that is sooner.
",
        format_date(expires)
    )
}

/// The held message `text` of `challenger`'s challenge on `board` as the opponent
/// gets it, once the challenger proved it: a Reply to it chats back on the board.
///
/// ```
/// use yinsh_pbem::server::text::held::to_opponent;
/// let text = to_opponent("Fancy a game, Bob?", &"alice".parse().unwrap(), 101.into());
/// assert!(text.starts_with("alice's message with the challenge of board 101:\n"));
/// assert!(text.contains("alice writes:\n\nFancy a game, Bob?\n"));
/// ```
pub fn to_opponent(text: &str, challenger: &UserId, board: BoardId) -> String {
    format!(
        "{challenger}'s message with the challenge of board {board}:\n\n{}",
        signed_answerable(text, challenger.as_str(), Answer::Chat(board))
    )
}

/// To the challenger: the message of the challenge on `board` was passed on to
/// `opponent`.
pub fn passed_on(board: BoardId, opponent: &UserId) -> String {
    format!(
        "Your message with the challenge of board {board} was passed on to {opponent}.
It goes once: a second reply does not send it again.
"
    )
}

/// To the challenger: no message of theirs is held for `board` any more.
pub fn not_held(board: BoardId) -> String {
    format!(
        "No message of yours is held for board {board}: it was passed on already, or it
expired with the challenge (a challenge's message is held until the game's forfeit
time, or until the game ends). Nothing was sent. To write to your opponent, send a mail
with this Subject and your text as the body:
    yinsh chat {board} <userid> <password>
"
    )
}
