//! Where a reply belongs among the players' mails: the game whose thread it joins
//! (every mail of a game references the game's first mail, so mail programs keep a
//! game together) and the reply token of its one reader, minted here with the
//! store's reply key (`store::reply_key`): a board mail to a player carries a token
//! for that player's next turn, a chat mail one for chatting back, a message one for
//! answering its sender. A board mail to the player to move also carries a play
//! token for that move (`store::play_token`), for the link to the game's page.
//! `threading.rs` turns this into the mail's headers.

use crate::server::game::record::LiveGame;
use crate::server::model::{BoardId, PlayToken, UserId};
use crate::server::store::{ReplyScope, ReplyToken, Store};

use crate::server::internal::InternalError;

/// The threading of one reply.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Thread {
    /// The game it is about, when it is about one.
    pub game: Option<GameRef>,
    /// The reply token of its reader; a reply with one goes to that reader's
    /// addresses only.
    pub token: Option<ReplyToken>,
    /// The play token of its reader's move, when the reader is the player to move:
    /// the mail then links to the game's page to play it (`build.rs`, when the site
    /// has a URL). It goes where the reply token goes, and nowhere else (the gate).
    pub play: Option<PlayToken>,
}

/// A game as its mails' thread names it: the board and when it was made (so that a
/// board number used again in a new home starts a new thread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRef {
    /// The board.
    pub board: BoardId,
    /// When the game was made, unix seconds.
    pub created: u64,
}

impl GameRef {
    /// The game of `live`.
    pub fn of(live: &LiveGame) -> GameRef {
        GameRef {
            board: live.board(),
            created: live.file().created,
        }
    }
}

impl Thread {
    /// A mail of `live`'s game without a token.
    pub fn game(live: &LiveGame) -> Thread {
        Thread {
            game: Some(GameRef::of(live)),
            ..Thread::default()
        }
    }

    /// A board mail of `live` to `reader`: a reply to it acts for `reader` at the
    /// game's next turn; when that turn is `reader`'s, its play token too.
    pub fn board(store: &Store, live: &LiveGame, reader: &UserId) -> Result<Thread, InternalError> {
        let (board, moveno) = (live.board(), live.next_turn_number());
        let scope = ReplyScope::Board {
            board,
            moveno,
            userid: reader.clone(),
        };
        let key = store.reply_key()?;
        let to_move = live.player_to_move() == Some(reader);
        Ok(Thread {
            game: Some(GameRef::of(live)),
            token: Some(key.mint(scope)),
            play: to_move.then(|| key.mint_play(board, moveno, reader)),
        })
    }

    /// A chat mail of `game` to `reader`: a reply to it chats back.
    pub fn chat(store: &Store, game: GameRef, reader: &UserId) -> Result<Thread, InternalError> {
        let scope = ReplyScope::Chat {
            board: game.board,
            userid: reader.clone(),
        };
        Ok(Thread {
            game: Some(game),
            token: Some(store.reply_key()?.mint(scope)),
            play: None,
        })
    }

    /// A message from `sender` to `reader`: a reply to it is a message back.
    pub fn message(
        store: &Store,
        reader: &UserId,
        sender: &UserId,
    ) -> Result<Thread, InternalError> {
        let scope = ReplyScope::Message {
            userid: reader.clone(),
            to: sender.clone(),
        };
        Ok(Thread {
            game: None,
            token: Some(store.reply_key()?.mint(scope)),
            play: None,
        })
    }
}
