//! Playouts: from a leaf of the tree, play on with a cheap policy and score the end.
//! The robot's policy picks the best of a few random legal actions by the evaluation
//! (so rows get made and removals keep the useful rings) and stops after a dozen
//! atomic actions once a ring has been removed in the game (up to 40 before that),
//! scoring the position by the evaluation's win chance; plain UCT's
//! policy plays uniformly at random to the end of the game.

use super::eval::{Weights, score_with, win_chance};
use super::rng::Rng;
use crate::rules::{ActionList, Color, Game, Outcome};

/// How a playout chooses its actions and when it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Random candidates compared by the evaluation at each step (1: uniform random).
    pub samples: u8,
    /// Atomic actions played before the evaluation scores the position; `None`: play
    /// to the end of the game.
    pub depth: Option<u16>,
    /// While no ring has been removed in the game, play on past `depth` up to this
    /// many actions in all, until one is: before the first removal the evaluation
    /// hardly knows who is winning, after it it mostly does.
    pub until_removal: Option<u16>,
}

impl Policy {
    /// The robot's playouts.
    pub const ROBOT: Policy = Policy {
        samples: 3,
        depth: Some(12),
        until_removal: Some(40),
    };

    /// Uniform random to the end.
    pub const RANDOM: Policy = Policy {
        samples: 1,
        depth: None,
        until_removal: None,
    };

    /// Whether a playout that has played `steps` actions and reached `game` stops
    /// there to be scored.
    fn ends(&self, steps: u32, game: &Game) -> bool {
        let depth = self.depth.map_or(u32::MAX, u32::from);
        let limit = self.until_removal.map_or(depth, u32::from).max(depth);
        steps >= limit
            || (steps >= depth
                && game.rings_removed(Color::White) + game.rings_removed(Color::Black) > 0)
    }
}

/// White's reward (1 win, 0.5 draw, 0 loss, or the evaluation's win chance) of one
/// playout from `game`. `list` is scratch space; `evaluations` counts the positions
/// evaluated (the end's; the policy's cheap scores are not counted).
pub(crate) fn playout(
    mut game: Game,
    policy: &Policy,
    rng: &mut Rng,
    list: &mut ActionList,
    evaluations: &mut u64,
) -> f32 {
    let mut steps = 0u32;
    while !policy.ends(steps, &game) {
        let Some(side) = game.to_act() else { break };
        game.legal_actions_into(list);
        let n = list.len();
        let action = if n == 1 || policy.samples <= 1 {
            list[rng.below(n)]
        } else {
            best_of(&game, side, list, policy.samples, rng)
        };
        if game.play(action).is_err() {
            debug_assert!(false, "a legal action was refused: {action}");
            break;
        }
        steps += 1;
    }
    match game.outcome() {
        Some(Outcome::Win(Color::White)) => 1.0,
        Some(Outcome::Win(Color::Black)) => 0.0,
        Some(Outcome::Draw) => 0.5,
        None => {
            *evaluations += 1;
            win_chance(&game, Color::White)
        }
    }
}

/// The best for `side` of `samples` random picks from `list` (a win at once if seen).
fn best_of(
    game: &Game,
    side: Color,
    list: &ActionList,
    samples: u8,
    rng: &mut Rng,
) -> crate::rules::Action {
    let mut best = list[rng.below(list.len())];
    let mut best_score = f32::NEG_INFINITY;
    for k in 0..samples {
        let a = if k == 0 {
            best
        } else {
            list[rng.below(list.len())]
        };
        let Ok(after) = game.after(a) else { continue };
        let s = match after.outcome() {
            Some(Outcome::Win(c)) if c == side => return a,
            Some(Outcome::Win(_)) => -100.0,
            Some(Outcome::Draw) => 0.0,
            None => score_with(&after, side, &Weights::PLAYOUT),
        };
        if s > best_score {
            best_score = s;
            best = a;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Point, Setup, Variant};

    /// A position after the placements, with one of Black's rings removed or none.
    fn game(one_removed: bool) -> Game {
        let pts =
            |s: &str| -> Vec<Point> { s.split_whitespace().map(|p| p.parse().unwrap()).collect() };
        let black = if one_removed {
            "a3 b2 c2 d2"
        } else {
            "a3 b2 c2 d2 k9"
        };
        Setup::new(Variant::Normal)
            .rings(Color::White, pts("a2 b1 c1 d1 k10"))
            .rings(Color::Black, pts(black))
            .removed(Color::Black, u8::from(one_removed))
            .build()
            .unwrap()
    }

    #[test]
    fn a_robot_playout_runs_on_to_the_first_removal() {
        let p = Policy::ROBOT;
        // No ring removed yet: on past the 12 actions, up to 40.
        assert!(!p.ends(12, &game(false)));
        assert!(!p.ends(39, &game(false)));
        assert!(p.ends(40, &game(false)));
        // A ring removed: 12 actions.
        assert!(!p.ends(11, &game(true)));
        assert!(p.ends(12, &game(true)));
        // Plain UCT's playouts only stop at the end of the game.
        assert!(!Policy::RANDOM.ends(10_000, &game(true)));
    }
}
