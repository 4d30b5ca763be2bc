//! The legal turns of a position, complete with their removals, as the game page's
//! play mode reads them (issue 27): the page has no rules engine, it only matches the
//! player's clicks against this list. Each turn is the engine's atomic actions (their
//! perft text: `e5`, `g8-i8`, `xd5-h9`, `xc6`, `--`) and the canonical text the
//! notation writes for them (`g8-i8;xd5-h9xc6`), which is what the composed mail says.
//!
//! A turn of the side to act runs until the other side is to act or the game is over
//! (`notation::turn`): the removals owed, a placement, a ring move or a pass, then the
//! side's own removals.

use serde::Serialize;

use crate::notation::write_turn;
use crate::rules::{Action, Game};

/// The most turns a position's list holds; a position with more (none is known: a
/// ring move with two rows and their ring choices stays in the hundreds) gets no
/// play mode, and the page asks for the move to be typed.
pub const MOST_TURNS: usize = 20_000;

/// One legal turn: what the page shows and sends, and the atomic actions it matches
/// clicks against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalTurn {
    /// The canonical text (`write_turn`).
    #[serde(rename = "t")]
    pub text: String,
    /// The atomic actions, in order, in their perft text.
    #[serde(rename = "a")]
    pub actions: Vec<String>,
}

/// Every legal turn of the side to act in `game`, in the engine's order; `None` when
/// the game is over or the list would pass [`MOST_TURNS`].
///
/// ```
/// use yinsh_pbem::rules::{Game, Variant};
/// use yinsh_pbem::server::site::legal::legal_turns;
/// let turns = legal_turns(&Game::new(Variant::Normal)).unwrap();
/// assert_eq!(turns.len(), 85);
/// assert_eq!((turns[0].text.as_str(), turns[0].actions.as_slice()), ("a2", &["a2".to_string()][..]));
/// ```
pub fn legal_turns(game: &Game) -> Option<Vec<LegalTurn>> {
    let side = game.to_act()?;
    let mut out = Vec::new();
    let mut path = Vec::new();
    let complete = walk(game, side, &mut path, &mut |actions: &[Action]| {
        out.push(LegalTurn {
            text: write_turn(actions),
            actions: actions.iter().map(Action::to_string).collect(),
        });
        out.len() <= MOST_TURNS
    });
    complete.then_some(out)
}

/// Depth first through the actions of `side`'s turn from `game`, `path` the actions
/// so far; calls `found` with each complete turn. Returns false as soon as `found`
/// does (the list is too long).
fn walk(
    game: &Game,
    side: crate::rules::Color,
    path: &mut Vec<Action>,
    found: &mut dyn FnMut(&[Action]) -> bool,
) -> bool {
    if !path.is_empty() && game.to_act() != Some(side) {
        return found(path);
    }
    for action in game.legal_actions().iter().copied() {
        let Ok(next) = game.after(action) else {
            continue;
        };
        path.push(action);
        let more = walk(&next, side, path, found);
        path.pop();
        if !more {
            return false;
        }
    }
    true
}

/// What the play mode needs: where and as whom the move is sent, and the legal turns.
#[derive(Debug, Serialize)]
pub(super) struct PlayData {
    /// The server's address.
    pub(super) to: String,
    /// The player to move.
    pub(super) player: String,
    /// Their side, `W` or `B`.
    pub(super) side: char,
    /// The number of the turn to play (`#k` of the notation).
    pub(super) k: usize,
    /// The legal turns of the position.
    pub(super) turns: Vec<LegalTurn>,
}
