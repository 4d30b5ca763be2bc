//! A stored game brought to life: the game file's move list replayed through the
//! engine (the move list is the source of truth; a file that does not replay is
//! refused), with the turn numbering, the players, and playing a new turn followed by
//! the passes the server must play itself.

use crate::notation::{self, NotationError};
use crate::rules::{Color, Game, Variant};

use crate::server::model::{BoardId, EndReason, UserId};
use crate::server::store::{CommentRecord, GameFile, StoreError, TurnRecord};

/// Why a stored game does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A turn is refused by the rules.
    #[error("board {board}: turn {turn} \"{text}\" does not replay: {why}")]
    Turn {
        /// The board.
        board: BoardId,
        /// 1-based turn number.
        turn: usize,
        /// Its text.
        text: String,
        /// Why.
        why: NotationError,
    },
    /// A pass recorded as the server's own where the rules force none.
    #[error(
        "board {board}: turn {turn} \"{text}\" does not replay: a pass marked (Auto) where no pass was forced"
    )]
    UnforcedAutoPass {
        /// The board.
        board: BoardId,
        /// 1-based turn number.
        turn: usize,
        /// Its text.
        text: String,
    },
    /// The file records an ending the game cannot have.
    #[error("board {board}: the recorded ending ({reason} by {by}) does not fit the game")]
    Ending {
        /// The board.
        board: BoardId,
        /// Reason recorded.
        reason: EndReason,
        /// Who.
        by: UserId,
    },
}

/// A stored game could not be read, or does not replay.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The game does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// A game file and the game it replays to.
#[derive(Debug, Clone)]
pub struct LiveGame {
    /// The stored record.
    pub file: GameFile,
    /// The position after every turn (and the recorded ending, if any).
    pub game: Game,
}

/// Replay the first `upto` turns of `file` (all of them when `None`), without the
/// recorded ending.
pub fn replay_turns(file: &GameFile, upto: Option<usize>) -> Result<Game, ReplayError> {
    let mut game = Game::new(file.variant);
    let n = upto.unwrap_or(file.turns.len()).min(file.turns.len());
    for (k, t) in file.turns[..n].iter().enumerate() {
        if t.auto && !notation::auto_pass_due(&game) {
            return Err(ReplayError::UnforcedAutoPass {
                board: file.board,
                turn: k + 1,
                text: t.text.clone(),
            });
        }
        notation::play_turn(&mut game, &t.text).map_err(|why| ReplayError::Turn {
            board: file.board,
            turn: k + 1,
            text: t.text.clone(),
            why,
        })?;
    }
    Ok(game)
}

impl LiveGame {
    /// Replay a game file: every turn, then the recorded ending: a resignation or a
    /// forfeit (the player named loses), or an agreed draw (a tie).
    pub fn load(file: GameFile) -> Result<LiveGame, ReplayError> {
        let mut game = replay_turns(&file, None)?;
        if let Some(end) = &file.ended {
            let bad = || ReplayError::Ending {
                board: file.board,
                reason: end.reason,
                by: end.by.clone(),
            };
            let side = side_of(&file, &end.by).ok_or_else(bad)?;
            match end.reason {
                // A forfeit (no move in time) ends the game like a resignation.
                EndReason::Resigned | EndReason::Forfeit => game.resign(side).map_err(|_| bad())?,
                EndReason::DrawAgreed => game.agree_draw().map_err(|_| bad())?,
            }
        }
        Ok(LiveGame { file, game })
    }

    /// Take back every turn from number `from` (1-based) on; comments sent with them
    /// are dropped too. Returns how many turns were removed.
    pub fn take_back_from(&mut self, from: usize, now: u64) -> Result<usize, ReplayError> {
        let keep = from.saturating_sub(1).min(self.file.turns.len());
        let removed = self.file.turns.len() - keep;
        let mut file = self.file.clone();
        file.turns.truncate(keep);
        file.comments.retain(|c| c.turn as usize <= keep);
        file.updated = now;
        self.game = replay_turns(&file, None)?;
        self.file = file;
        Ok(removed)
    }

    /// A new game between two players.
    pub fn new(
        board: BoardId,
        variant: Variant,
        white: &UserId,
        black: &UserId,
        now: u64,
    ) -> LiveGame {
        LiveGame {
            file: GameFile::new(board, variant, white.clone(), black.clone(), now),
            game: Game::new(variant),
        }
    }

    /// Keep `text` as `by`'s only comment on turn `turn` (an offer said again on the
    /// same move replaces the earlier one's comment, so repeated offers do not pile
    /// up); a blank `text` leaves the earlier one.
    pub fn replace_comment(&mut self, turn: u32, by: &UserId, at: u64, text: &str) {
        if !text.trim().is_empty() {
            self.file
                .comments
                .retain(|c| !(c.turn == turn && c.by == *by));
        }
        self.add_comment(turn, by, at, text);
    }

    /// Keep `text` as a comment by `by` on turn `turn`, unless it is blank.
    pub fn add_comment(&mut self, turn: u32, by: &UserId, at: u64, text: &str) {
        if !text.trim().is_empty() {
            self.file.comments.push(CommentRecord {
                turn,
                by: by.clone(),
                at,
                text: text.to_string(),
            });
        }
    }

    /// The board number.
    pub fn board(&self) -> BoardId {
        self.file.board
    }

    /// The side `userid` plays, if they play this game.
    pub fn side(&self, userid: &UserId) -> Option<Color> {
        side_of(&self.file, userid)
    }

    /// The userid playing `side`.
    pub fn player(&self, side: Color) -> &UserId {
        match side {
            Color::White => &self.file.white,
            Color::Black => &self.file.black,
        }
    }

    /// The userid whose turn it is, if the game goes on.
    pub fn player_to_move(&self) -> Option<&UserId> {
        self.game.to_act().map(|c| self.player(c))
    }

    /// The number the next turn will get (turns count from 1, passes included).
    pub fn next_turn_number(&self) -> u32 {
        self.file.turns.len() as u32 + 1
    }

    /// Play `text` as the next turn of the side to act, recorded in canonical form,
    /// then any passes the server must play. On error nothing changes.
    pub fn play(&mut self, text: &str, now: u64) -> Result<(), NotationError> {
        let Some(side) = self.game.to_act() else {
            // play_turn reports the game being over in the notation's own words.
            let mut g = self.game;
            return notation::play_turn(&mut g, text).map(|_| ());
        };
        let mut g = self.game;
        let actions = notation::play_turn(&mut g, text)?;
        self.game = g;
        let by = self.player(side).clone();
        self.file.turns.push(TurnRecord {
            text: notation::write_turn(&actions),
            by,
            at: now,
            auto: false,
        });
        self.file.updated = now;
        self.play_auto_passes(now);
        Ok(())
    }

    /// Play the passes the side to act is forced to make, as `--` (Auto) turns.
    pub fn play_auto_passes(&mut self, now: u64) {
        while notation::auto_pass_due(&self.game) {
            let Some(side) = self.game.to_act() else {
                break;
            };
            if notation::play_turn(&mut self.game, "--").is_err() {
                break;
            }
            self.file.turns.push(TurnRecord {
                text: "--".to_string(),
                by: self.player(side).clone(),
                at: now,
                auto: true,
            });
        }
    }
}

fn side_of(file: &GameFile, userid: &UserId) -> Option<Color> {
    if file.white == *userid {
        Some(Color::White)
    } else if file.black == *userid {
        Some(Color::Black)
    } else {
        None
    }
}
