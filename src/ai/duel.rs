//! One game between two players, every turn checked the way the server would check
//! it: written in canonical notation, read back and resolved against the game, and
//! required to be one whole turn. Used by `match` and by the tests.

use super::player::Player;
use crate::notation::{parse_turn, write_turn};
use crate::rules::{Color, Game, Outcome, Variant};

/// More turns than any game can last (each ring move takes one of 51 markers and
/// only a removal, which costs a ring, gives five back).
const MAX_TURNS: u32 = 2_000;

/// A finished game between two players.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The result.
    pub outcome: Outcome,
    /// Every turn in canonical notation, White's first.
    pub turns: Vec<String>,
    /// The final position.
    pub game: Game,
}

/// A player's turn that is not one legal whole turn, or a game that never ends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    /// The turn does not read back or does not resolve to the same legal actions.
    #[error("turn {number} of {side}, `{text}`, is not legal: {why}")]
    IllegalTurn {
        /// The turn's number (1 is White's first placement).
        number: u32,
        /// Who played it.
        side: Color,
        /// The turn as written.
        text: String,
        /// What was wrong.
        why: String,
    },
    /// The game went on past the limit.
    #[error("the game did not end within {MAX_TURNS} turns")]
    NoEnd,
}

/// Play a whole game of `variant` between `white` and `black`.
///
/// ```
/// use std::time::Duration;
/// use yinsh_pbem::ai::{PlayerSpec, play_game};
/// use yinsh_pbem::rules::Variant;
/// let t = Duration::from_millis(10);
/// let mut white = PlayerSpec::Random.player(1, t);
/// let mut black = PlayerSpec::Greedy.player(2, t);
/// let record = play_game(&mut white, &mut black, Variant::Blitz).unwrap();
/// assert!(record.game.is_over());
/// ```
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    variant: Variant,
) -> Result<GameRecord, DuelError> {
    let mut game = Game::new(variant);
    let mut turns = Vec::new();
    while let Some(side) = game.to_act() {
        let number = turns.len() as u32 + 1;
        if number > MAX_TURNS {
            return Err(DuelError::NoEnd);
        }
        let player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let illegal = |text: &str, why: String| DuelError::IllegalTurn {
            number,
            side,
            text: text.to_string(),
            why,
        };
        let turn = player.turn(&game).map_err(|e| illegal("", e.to_string()))?;
        let text = write_turn(&turn.actions);
        let written = parse_turn(&text).map_err(|e| illegal(&text, e.to_string()))?;
        let mut after = game;
        let actions = written
            .play(&mut after)
            .map_err(|e| illegal(&text, e.to_string()))?;
        if actions != turn.actions {
            return Err(illegal(&text, format!("it reads back as {actions:?}")));
        }
        if after.to_act() == Some(side) {
            return Err(illegal(&text, "the turn is not finished".to_string()));
        }
        game = after;
        turns.push(text);
    }
    Ok(GameRecord {
        outcome: game.outcome().unwrap_or(Outcome::Draw),
        turns,
        game,
    })
}
