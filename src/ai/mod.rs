//! The computer opponent: a Monte Carlo tree search over atomic actions on the rules
//! engine, with evaluation priors, short playouts scored by the evaluation, endings
//! solved (MCTS-solver) and the tree kept between turns; single-threaded and
//! deterministic for a seed and a playout budget. Also the baselines it is measured
//! against (uniform random, one-ply greedy, plain UCT), the level table, whole games
//! between players, and the match statistics. Depends on `rules` and `notation` only.
//!
//! ```
//! use yinsh_pbem::ai::{Budget, ThinkSettings, think};
//! use yinsh_pbem::notation::write_turn;
//! use yinsh_pbem::rules::{Game, Variant};
//! let turn = think(&Game::new(Variant::Normal), &ThinkSettings::new(Budget::Playouts(100), 7)).unwrap();
//! assert_eq!(turn.actions.len(), 1); // a placement
//! assert!(!write_turn(&turn.actions).is_empty());
//! ```

mod baseline;
mod duel;
mod eval;
mod player;
mod playout;
mod profile;
mod review;
mod robot;
mod stats;
mod tree;

pub use crate::rules::rng::Rng;
pub use baseline::{Baseline, baseline_turn};
pub use duel::{DuelError, GameRecord, play_game};
pub use eval::{Weights, score, score_with, win_chance};
pub use player::{DEFAULT_THINK_TIME, LEVELS, ParsePlayerError, Player, PlayerSpec, level_budget};
pub use playout::Policy;
pub use profile::SearchProfile;
pub use review::{
    CONFIRM_FACTOR, MIN_COST, REVIEW_PLAYOUTS, Review, ReviewError, TURNING_POINTS, TurnReview,
    chance_to_act, for_side, placing, position_seed, review,
};
pub use robot::{Budget, Robot, ThinkError, ThinkSettings, Turn, think};
pub use stats::{EloEstimate, Tally, elo_of_score};
pub use tree::{MAX_NODES, SearchConfig};
