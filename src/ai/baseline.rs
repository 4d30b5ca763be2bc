//! The two baseline players of the strength ladder: uniform random (every legal
//! atomic action equally likely) and one-ply greedy (the atomic action whose result
//! the evaluation likes best, ties broken at random). Both answer a whole turn.

use super::eval::{score, win_chance};
use super::robot::{ThinkError, Turn};
use crate::rules::rng::Rng;
use crate::rules::{Action, Color, Game, Outcome};

/// How a baseline chooses each atomic action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// Uniformly at random.
    Random,
    /// The best by the evaluation one action ahead.
    Greedy,
}

/// The turn `kind` plays for the side to move in `game`, drawing from `rng`.
///
/// ```
/// use yinsh_pbem::ai::{Baseline, Rng, baseline_turn};
/// use yinsh_pbem::rules::{Game, Variant};
/// let turn = baseline_turn(Baseline::Greedy, &Game::new(Variant::Normal), &mut Rng::new(1)).unwrap();
/// assert_eq!(turn.actions.len(), 1);
/// ```
pub fn baseline_turn(kind: Baseline, game: &Game, rng: &mut Rng) -> Result<Turn, ThinkError> {
    let me = game.to_act().ok_or(ThinkError::GameOver)?;
    let mut g = *game;
    let mut actions = Vec::new();
    while g.to_act() == Some(me) {
        let legal = g.legal_actions();
        let action = match kind {
            Baseline::Random => legal[rng.below(legal.len())],
            Baseline::Greedy => greedy(&g, me, &legal, rng),
        };
        if g.play(action).is_err() {
            debug_assert!(false, "a legal action was refused: {action}");
            break;
        }
        actions.push(action);
    }
    Ok(Turn {
        actions,
        win_chance: win_chance(&g, me),
        playouts: 0,
        nodes: 0,
        reused: 0,
        kept: 0,
    })
}

/// The action of `legal` whose result scores best for `me` (a win at once).
fn greedy(game: &Game, me: Color, legal: &[Action], rng: &mut Rng) -> Action {
    let mut best = Vec::new();
    let mut best_score = f32::NEG_INFINITY;
    for &a in legal {
        let Ok(after) = game.after(a) else { continue };
        let s = match after.outcome() {
            Some(Outcome::Win(c)) if c == me => f32::INFINITY,
            Some(Outcome::Win(_)) => -1000.0,
            Some(Outcome::Draw) => 0.0,
            None => score(&after, me),
        };
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(a);
        }
    }
    match best.len() {
        0 => legal[0],
        n => best[rng.below(n)],
    }
}
