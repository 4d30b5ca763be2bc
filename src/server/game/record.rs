//! A stored game brought to life: the game file's move list replayed through the
//! engine (the move list is the source of truth; a file that does not replay is
//! refused), with the turn numbering, the players, playing a new turn followed by
//! the passes the server must play itself, and ending a game ([`LiveGame::end`]). Its
//! fields are private: the file changes only through its methods, so file and game
//! agree.

use crate::notation::sgf::{Record, RecordEnd};
use crate::notation::{self, NotationError};
use crate::rules::{Action, Color, Game, IllegalAction, Variant};

use crate::server::model::{BoardId, EndReason, UserId};
use crate::server::store::{
    CommentRecord, EndRecord, Extra, GameFile, Offer, StoreError, TurnRecord,
};

use super::extra;

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

/// A game could not be ended: it is over already.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("board {board} is over already")]
pub struct AlreadyOver {
    /// The board.
    pub board: BoardId,
}

/// A game file and the game it replays to.
#[derive(Debug, Clone)]
pub struct LiveGame {
    /// The stored record.
    file: GameFile,
    /// The position after every turn (and the recorded ending, if any).
    game: Game,
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
            play_ending(&mut game, end.reason, side).map_err(|_| bad())?;
        }
        Ok(LiveGame { file, game })
    }

    /// End the game for `reason`, `side` being the player it concerns (who resigned,
    /// forfeited, or accepted the draw): the engine plays the ending, the file records
    /// it (an [`EndRecord`]) and changes at `now`. A game over already is left as it
    /// was.
    pub fn end(&mut self, reason: EndReason, side: Color, now: u64) -> Result<(), AlreadyOver> {
        play_ending(&mut self.game, reason, side).map_err(|_| AlreadyOver {
            board: self.board(),
        })?;
        self.file.ended = Some(EndRecord {
            reason,
            by: self.player(side).clone(),
            at: now,
        });
        self.file.updated = now;
        Ok(())
    }

    /// The game as a record of atomic actions, each turn of the move list played
    /// (`xi4-i8xk7;--` stays one turn when written back), dated `date`: what the site
    /// publishes as transcript and SGF. A forfeit is written as the resignation of
    /// the side that lost on time.
    pub fn record(&self, date: Option<String>) -> Result<Record, ReplayError> {
        let file = &self.file;
        let mut actions: Vec<Action> = Vec::new();
        let mut replay = Game::new(file.variant);
        for (k, t) in file.turns.iter().enumerate() {
            let played =
                notation::play_turn(&mut replay, &t.text).map_err(|why| ReplayError::Turn {
                    board: file.board,
                    turn: k + 1,
                    text: t.text.clone(),
                    why,
                })?;
            actions.extend(played);
        }
        let ending = file.ended.as_ref().and_then(|e| match e.reason {
            EndReason::Resigned | EndReason::Forfeit => self.side(&e.by).map(RecordEnd::Resigned),
            EndReason::DrawAgreed => Some(RecordEnd::DrawAgreed),
        });
        Ok(Record {
            variant: file.variant,
            white: file.white.as_str().to_string(),
            black: file.black.as_str().to_string(),
            date,
            actions,
            ending,
        })
    }

    /// The stored record.
    pub fn file(&self) -> &GameFile {
        &self.file
    }

    /// The position after every turn (and the recorded ending, if any).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game file's extras, to change (`game::extra`'s setters take them): the one
    /// way to change them; every other part of the file changes through the methods
    /// of [`LiveGame`].
    pub fn extra_mut(&mut self) -> &mut Extra {
        &mut self.file.extra
    }

    /// After turn `number` (1-based) was played: clear the offer it left behind, and
    /// return it when that turn made it lapse ([`extra::lapse_offer`]).
    pub fn lapse_offer(&mut self, number: u32) -> Option<Offer> {
        extra::lapse_offer(&mut self.file, number)
    }

    /// Record that the file changed at `now` (an offer made or answered, say).
    pub fn mark_updated(&mut self, now: u64) {
        self.file.updated = now;
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

/// Play the ending of `reason` concerning `side` on `game`: a resignation or a forfeit
/// (`side` loses), or an agreed draw (a tie).
fn play_ending(game: &mut Game, reason: EndReason, side: Color) -> Result<(), IllegalAction> {
    match reason {
        // A forfeit (no move in time) ends the game like a resignation.
        EndReason::Resigned | EndReason::Forfeit => game.resign(side),
        EndReason::DrawAgreed => game.agree_draw(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{self, Ending, Outcome};

    const NOW: u64 = 1_700_000_000;
    const LATER: u64 = NOW + 3600;

    fn userid(s: &str) -> UserId {
        s.parse().expect("a valid userid")
    }

    /// Board 7, alice (white) against bob (black), a ring placed each.
    fn started() -> LiveGame {
        let mut live = LiveGame::new(
            BoardId::from(7),
            Variant::Normal,
            &userid("alice"),
            &userid("bob"),
            NOW,
        );
        live.play("e5", NOW).expect("legal");
        live.play("f6", NOW).expect("legal");
        live
    }

    /// The started game ended for `reason` by `side` (`by`) at LATER: checks the record
    /// written and that the file replays to the same ending; returns the engine's.
    fn ended(reason: EndReason, side: Color, by: &str) -> Ending {
        let mut live = started();
        assert_eq!(live.end(reason, side, LATER), Ok(()));
        let record = EndRecord {
            reason,
            by: userid(by),
            at: LATER,
        };
        assert_eq!(live.file().ended, Some(record));
        assert_eq!(live.file().updated, LATER);
        assert_eq!(live.file().turns.len(), 2, "no turn is added");
        let ending = live.game().ending().expect("the game is over");
        let replayed = LiveGame::load(live.file().clone()).expect("replays");
        assert_eq!(replayed.game().ending(), Some(ending));
        ending
    }

    #[test]
    fn a_resignation_is_recorded_and_the_other_side_wins() {
        let ending = ended(EndReason::Resigned, Color::White, "alice");
        assert_eq!(ending.outcome, Outcome::Win(Color::Black));
        assert_eq!(ending.reason, rules::EndReason::Resignation);
    }

    #[test]
    fn a_forfeit_is_recorded_and_ends_like_a_resignation() {
        let ending = ended(EndReason::Forfeit, Color::Black, "bob");
        assert_eq!(ending.outcome, Outcome::Win(Color::White));
        assert_eq!(ending.reason, rules::EndReason::Resignation);
    }

    #[test]
    fn an_agreed_draw_is_recorded_with_who_accepted_it() {
        let ending = ended(EndReason::DrawAgreed, Color::Black, "bob");
        assert_eq!(ending.outcome, Outcome::Draw);
        assert_eq!(ending.reason, rules::EndReason::Agreement);
    }

    #[test]
    fn a_game_over_already_is_not_ended_again() {
        for reason in EndReason::ALL {
            let mut live = started();
            live.end(EndReason::Resigned, Color::Black, NOW)
                .expect("the game goes on");
            let (file, game) = (live.file().clone(), *live.game());
            assert_eq!(
                live.end(reason, Color::White, LATER),
                Err(AlreadyOver {
                    board: BoardId::from(7)
                }),
                "{reason}"
            );
            assert_eq!(live.file(), &file, "{reason}: the file is unchanged");
            assert_eq!(live.game(), &game, "{reason}: the game is unchanged");
        }
    }
}
