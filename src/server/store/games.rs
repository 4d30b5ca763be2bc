//! Game files `<home>/boards/<n>.json` and the board counter `<home>/next-board`.
//! A game file holds the move list in canonical notation (the source of truth; the
//! server replays it), the endings the moves cannot show, comments, and the typed
//! `extra` object of later features ([`Extra`], which keeps unknown keys).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::extra::Extra;
use super::{FIRST_BOARD, Store, StoreError};
use crate::server::model::{BoardId, EndReason, UserId, Variant, variant_serde};

/// One game, stored in `<home>/boards/<board>.json`.
///
/// Unknown top-level fields are refused when reading (so that an older program never
/// drops what a newer one wrote); later features keep their data in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// The board number.
    pub board: BoardId,
    /// Written `"normal"` or `"blitz"`.
    #[serde(with = "variant_serde")]
    pub variant: Variant,
    /// The userid playing white.
    pub white: UserId,
    /// The userid playing black.
    pub black: UserId,
    /// When the game was made, in Unix seconds.
    pub created: u64,
    /// When the file last changed, in Unix seconds.
    pub updated: u64,
    /// The turns played, in canonical notation.
    pub turns: Vec<TurnRecord>,
    /// How the game ended, when the turns cannot show it (a resignation, say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<EndRecord>,
    /// Comments sent with turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<CommentRecord>,
    /// The data of later features; unknown keys are read and written back unchanged.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One turn as written in the game file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRecord {
    /// The turn in canonical notation.
    pub text: String,
    /// The userid that sent it.
    pub by: UserId,
    /// When, in Unix seconds.
    pub at: u64,
    /// Whether the server played it (a forced pass, say) rather than the player.
    #[serde(default, skip_serializing_if = "is_false")]
    pub auto: bool,
}

/// An ending the move list cannot show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRecord {
    /// Why: written `"resigned"`, `"forfeit"` or `"draw agreed"`.
    pub reason: EndReason,
    /// The userid it concerns (who resigned, forfeited, or accepted the draw).
    pub by: UserId,
    /// When, in Unix seconds.
    pub at: u64,
}

/// A comment a player sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommentRecord {
    /// The number of the turn it came with.
    pub turn: u32,
    /// The userid that wrote it.
    pub by: UserId,
    /// When, in Unix seconds.
    pub at: u64,
    /// The comment.
    pub text: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl GameFile {
    /// A game with no turns yet, made (and updated) at `now`.
    pub fn new(
        board: impl Into<BoardId>,
        variant: Variant,
        white: UserId,
        black: UserId,
        now: u64,
    ) -> GameFile {
        GameFile {
            board: board.into(),
            variant,
            white,
            black,
            created: now,
            updated: now,
            turns: Vec::new(),
            ended: None,
            comments: Vec::new(),
            extra: Extra::default(),
        }
    }
}

impl Store {
    /// `<home>/boards/<board>.json`.
    pub fn game_path(&self, board: impl Into<BoardId>) -> PathBuf {
        let board = board.into();
        self.boards_dir().join(format!("{board}.json"))
    }

    /// The game on `board`, or `None` if there is none.
    pub fn game(&self, board: impl Into<BoardId>) -> Result<Option<GameFile>, StoreError> {
        let board = board.into();
        let path = self.game_path(board);
        let Some(game) = self.read_json::<GameFile>(&path, "game")? else {
            return Ok(None);
        };
        if game.board != board {
            return Err(StoreError::Mismatch {
                what: "board",
                path,
                found: game.board.to_string(),
                expected: board.to_string(),
            });
        }
        Ok(Some(game))
    }

    /// Writes `game` (atomically) to the file of its board.
    pub fn put_game(&self, game: &GameFile) -> Result<(), StoreError> {
        self.write_json(&self.game_path(game.board), "game", game)
    }

    /// Removes the game file of `board` (a declined game); its number is not given
    /// again.
    pub fn remove_game(&self, board: impl Into<BoardId>) -> Result<(), StoreError> {
        self.remove_file(&self.game_path(board))
    }

    /// Every board number that has a game file, sorted.
    pub fn games(&self) -> Result<Vec<BoardId>, StoreError> {
        let mut boards = self.listed_boards(&self.boards_dir())?;
        boards.sort_unstable();
        Ok(boards)
    }

    /// Hands out a new board number: the one in `next-board` (101 when the file is
    /// missing, and never one that already has a game file), and stores the next.
    ///
    /// Numbers are never reused, even when a game file is deleted. It takes the lock
    /// unless this thread already holds it through this store. The boards folder is
    /// listed once per transaction (against a lost or rolled-back counter): later
    /// allocations of the same transaction read the counter they wrote and check only
    /// that the chosen number has no file, so a mail's n boards cost O(1) each.
    pub fn allocate_board(&self) -> Result<BoardId, StoreError> {
        let _lock = if self.is_locked_here() {
            None
        } else {
            Some(self.lock()?)
        };
        let path = self.counter_path();
        let stored = match self.read_text(&path)? {
            None => BoardId::from(FIRST_BOARD),
            Some(text) => {
                let text = text.trim();
                match text.parse::<BoardId>() {
                    Ok(n) => n,
                    _ => {
                        return Err(StoreError::BadCounter {
                            path,
                            found: text.chars().take(40).collect(),
                        });
                    }
                }
            }
        };
        let checked = *self
            .checked_next
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let free = || Ok::<_, StoreError>(self.read_text(&self.game_path(stored))?.is_none());
        // Should the counter have been lost or rolled back, never hand out a number
        // that already has a game file.
        let board = match self
            .games_unless(checked == Some(stored) && free()?)?
            .last()
        {
            Some(&last) if last >= stored => {
                last.checked_next().ok_or(StoreError::BoardsExhausted {
                    path: path.clone(),
                    found: last.get(),
                })?
            }
            _ => stored,
        };
        let next = board.checked_next().ok_or(StoreError::BoardsExhausted {
            path: path.clone(),
            found: board.get(),
        })?;
        self.write_file(&path, format!("{next}\n").as_bytes())?;
        if self.in_transaction() {
            *self
                .checked_next
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(next);
        }
        Ok(board)
    }

    /// [`Store::games`], or none when `skip`.
    fn games_unless(&self, skip: bool) -> Result<Vec<BoardId>, StoreError> {
        if skip { Ok(Vec::new()) } else { self.games() }
    }
}
