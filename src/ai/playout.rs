//! Playouts: from a leaf of the tree, play on with a cheap policy and score the end.
//! The robot's policy picks the best of a few random legal actions by the evaluation
//! (so rows get made and removals keep the useful rings) and stops after four atomic
//! actions, scoring the position by the evaluation's win chance (the evaluation,
//! fitted to real games, knows more than a longer cheap playout finds out:
//! docs/strength.md); plain UCT's policy plays uniformly at random to the end of the
//! game.

use super::eval::{Weights, score_with, win_chance};
use crate::rules::rng::Rng;
use crate::rules::{ActionList, Color, Game, Outcome};

/// How a playout chooses its actions and when it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Random candidates compared by the evaluation at each step (1: uniform random).
    pub samples: u8,
    /// Atomic actions played before the evaluation scores the position; `None`: play
    /// to the end of the game.
    pub depth: Option<u16>,
}

impl Policy {
    /// The robot's playouts.
    pub const ROBOT: Policy = Policy {
        samples: 3,
        depth: Some(4),
    };

    /// Uniform random to the end.
    pub const RANDOM: Policy = Policy {
        samples: 1,
        depth: None,
    };

    /// Whether a playout that has played `steps` actions stops there to be scored.
    fn ends(&self, steps: u32) -> bool {
        self.depth.is_some_and(|depth| steps >= u32::from(depth))
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
    while !policy.ends(steps) {
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

    #[test]
    fn a_robot_playout_stops_after_four_actions_and_plain_uct_at_the_end() {
        assert!(!Policy::ROBOT.ends(3));
        assert!(Policy::ROBOT.ends(4));
        assert!(!Policy::RANDOM.ends(10_000));
    }

    /// A robot playout from a position after the placements stops before the game is
    /// over and is scored by the evaluation; a random one plays to the end of the game.
    #[test]
    fn playouts_end_where_their_policy_says() {
        let pts =
            |s: &str| -> Vec<Point> { s.split_whitespace().map(|p| p.parse().unwrap()).collect() };
        let game = Setup::new(Variant::Normal)
            .rings(Color::White, pts("a2 b1 c1 d1 k10"))
            .rings(Color::Black, pts("a3 b2 c2 d2 k9"))
            .build()
            .unwrap();
        let mut list = ActionList::new();
        let mut rng = Rng::new(7);
        let mut evaluations = 0;
        let reward = playout(game, &Policy::ROBOT, &mut rng, &mut list, &mut evaluations);
        assert_eq!(evaluations, 1);
        assert!((0.0..=1.0).contains(&reward));
        let reward = playout(game, &Policy::RANDOM, &mut rng, &mut list, &mut evaluations);
        assert_eq!(evaluations, 1, "a random playout ends the game");
        assert!([0.0, 0.5, 1.0].contains(&reward));
    }
}
