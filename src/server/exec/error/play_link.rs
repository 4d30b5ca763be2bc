//! [`PlayLinkRefusal`]: a `yinsh move` carrying a play token (the "Play your move on
//! the board" link of a board mail, `inbound::identity::play`) that plays nothing.
//! Its texts repeat no word of the mail (the token stands where a password does):
//! only the board and move numbers, so an address nobody confirmed reads them as
//! they are.

use crate::server::model::BoardId;

/// Why a play token played nothing. `Display` is the text the player reads.
///
/// ```
/// use yinsh_pbem::server::exec::error::{PlayLinkRefusal, Refusal};
/// let r: Refusal = PlayLinkRefusal::MovedOn { board: 101.into(), number: 9, marked: 7 }.into();
/// assert!(r.to_string().starts_with("The game moved on"));
/// assert_eq!(r.board(), Some(101.into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayLinkRefusal {
    /// The token was not made with the server's key for this board and player: a
    /// token of another board or player, an altered one, or one mailed before the
    /// key was rotated.
    #[error(
        "The play link's token in this move does not play on board {board} for this player: nothing\n\
         was done. A play link plays the one move of the board and player its board mail was sent\n\
         for, and links mailed before the server's keys were changed no longer work. Use the link\n\
         of your latest board mail, or send your move with your password:\n\
         yinsh move {board} <userid> <password> <move>"
    )]
    NotValid {
        /// The board the command named.
        board: BoardId,
    },
    /// A genuine token with a command that is not a move (resign, an offer, a
    /// queued move...).
    #[error(
        "A play link's token plays a move on board {board} and nothing else: nothing was done. To\n\
         resign, answer an offer or queue a move, send the command with your password."
    )]
    MovesOnly {
        /// The board.
        board: BoardId,
    },
    /// A genuine token, in a mail whose From is not a confirmed address of the
    /// token's player.
    #[error(
        "This move carries the play link of board {board}, but it does not come from a confirmed\n\
         address of the player the link was mailed to: nothing was done. Send it from the address\n\
         the board mail went to."
    )]
    NotFromPlayer {
        /// The board.
        board: BoardId,
    },
    /// A genuine token of an earlier move (already played, or the game moved on).
    #[error(
        "The game moved on: the play link was for move #{marked} of board {board}, and the next move\n\
         is #{number}. Nothing was played. The board as it is now is below; play from the link of\n\
         your latest board mail."
    )]
    MovedOn {
        /// The board.
        board: BoardId,
        /// The number the next move has now.
        number: u32,
        /// The move the token was for.
        marked: u32,
    },
}

impl PlayLinkRefusal {
    /// The board whose drawing the error mail shows: the game's as it is now, for a
    /// token the game has moved past.
    pub fn board(&self) -> Option<BoardId> {
        match self {
            PlayLinkRefusal::MovedOn { board, .. } => Some(*board),
            PlayLinkRefusal::NotValid { .. }
            | PlayLinkRefusal::MovesOnly { .. }
            | PlayLinkRefusal::NotFromPlayer { .. } => None,
        }
    }
}
