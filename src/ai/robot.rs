//! `Robot`: a player that thinks with the tree search and answers with a whole turn
//! (the removals owed at its start, the placement, ring move or pass, its own
//! removals), each atomic decision searched in turn, the tree kept between decisions
//! and between turns. `think` is the one-shot form.
//!
//! How a turn's budget is shared: each decision with more than one legal action gets
//! a share; forced ones cost nothing. A removal gets a tenth of the budget; the
//! placement or ring move gets what is left of the whole budget (at least half of
//! it), so a turn of a time budget T takes T, or up to T * 1.1 per own removal after
//! the move (at most two in practice: T * 1.2 plus the bookkeeping).

use std::time::{Duration, Instant};

use super::profile::SearchProfile;
use super::tree::{SearchConfig, Tree};
use crate::ai::eval::win_chance;
use crate::rules::rng::Rng;
use crate::rules::{Action, ActionKind, Game};

/// How much a robot may think for one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many search iterations (each ends in one playout): reproducible.
    Playouts(u64),
    /// This much wall-clock time.
    Time(Duration),
}

/// Everything that decides how a robot plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThinkSettings {
    /// The budget of one turn.
    pub budget: Budget,
    /// The search's constants.
    pub search: SearchConfig,
    /// The seed of the robot's generator.
    pub seed: u64,
}

impl ThinkSettings {
    /// The robot's search with `budget` and `seed`.
    pub const fn new(budget: Budget, seed: u64) -> ThinkSettings {
        ThinkSettings {
            budget,
            search: SearchConfig::ROBOT,
            seed,
        }
    }

    /// The robot's search with `budget` and `seed`, made for its estimate of the
    /// chances (a draw offer's answer, a game's review): with the evaluation's priors
    /// on placements too. Such a search is short: each of the 85 placements gets a few
    /// playouts at most, too few to tell a chance on their own (the most visited one's
    /// few wins said 70-80%), and the priors hold the estimate near even there.
    pub const fn estimating(budget: Budget, seed: u64) -> ThinkSettings {
        ThinkSettings {
            budget,
            search: SearchConfig {
                placement_priors: true,
                ..SearchConfig::ROBOT
            },
            seed,
        }
    }
}

/// One whole turn chosen by a player, with what it learnt choosing it.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The atomic actions, in order: they play as one turn of the side to move.
    pub actions: Vec<Action>,
    /// The player's estimate of its chance to win after the turn (a draw counts half).
    pub win_chance: f32,
    /// Search iterations (playouts) spent on the turn.
    pub playouts: u64,
    /// Tree nodes the search created for this turn.
    pub nodes: usize,
    /// Nodes kept from the previous turns' trees when the turn began (1: none).
    pub reused: usize,
    /// Nodes kept for the next turn (the subtree of the position after the turn).
    pub kept: usize,
}

impl Turn {
    /// A short sentence for the robot's comment.
    ///
    /// ```
    /// use yinsh_pbem::ai::Turn;
    /// let t = Turn { actions: vec![], win_chance: 0.634, playouts: 5000, nodes: 9, reused: 1, kept: 3 };
    /// assert_eq!(t.comment(), "I estimate my chances at 63% (5000 playouts).");
    /// ```
    pub fn comment(&self) -> String {
        format!(
            "I estimate my chances at {:.0}% ({} playouts).",
            self.win_chance * 100.0,
            self.playouts
        )
    }
}

/// Why a robot cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThinkError {
    /// The game has ended: no turn to play.
    #[error("the game is over: there is no turn to play")]
    GameOver,
}

/// A search player that keeps its tree between turns.
#[derive(Clone, Debug)]
pub struct Robot {
    settings: ThinkSettings,
    rng: Rng,
    tree: Option<Tree>,
    /// Whether each decision's search is measured (`set_profiling`).
    profiling: bool,
    /// The last turn's measured searches, one a decision searched.
    profiles: Vec<SearchProfile>,
}

/// How deep below the old root a new position is looked for (a whole turn of the
/// opponent: owed removals, move, own removals).
const REUSE_DEPTH: usize = 12;

impl Robot {
    /// A robot with `settings`, its generator seeded from them.
    pub fn new(settings: ThinkSettings) -> Robot {
        Robot {
            settings,
            rng: Rng::new(settings.seed),
            tree: None,
            profiling: false,
            profiles: Vec::new(),
        }
    }

    /// Measure each decision's search from now on (`think --stats`); the turn chosen
    /// is the same, the timing costs two clock reads an iteration.
    pub fn set_profiling(&mut self, on: bool) {
        self.profiling = on;
    }

    /// What the searches of the last turn did, one a decision searched (empty unless
    /// profiling).
    pub fn profiles(&self) -> &[SearchProfile] {
        &self.profiles
    }

    /// The settings.
    pub fn settings(&self) -> &ThinkSettings {
        &self.settings
    }

    /// The turn to play in `game` for the side to move.
    ///
    /// ```
    /// use yinsh_pbem::ai::{Budget, Robot, ThinkSettings};
    /// use yinsh_pbem::rules::{Game, Variant};
    /// let mut robot = Robot::new(ThinkSettings::new(Budget::Playouts(50), 1));
    /// let turn = robot.think(&Game::new(Variant::Normal)).unwrap();
    /// assert_eq!(turn.actions.len(), 1);
    /// ```
    pub fn think(&mut self, game: &Game) -> Result<Turn, ThinkError> {
        let me = game.to_act().ok_or(ThinkError::GameOver)?;
        let start = Instant::now();
        let mut tree = match self.tree.take() {
            Some(mut t) => {
                t.reroot(game, REUSE_DEPTH);
                t
            }
            None => Tree::new(*game),
        };
        let mut g = *game;
        let mut turn = Turn {
            actions: Vec::new(),
            win_chance: 0.5,
            playouts: 0,
            nodes: 0,
            reused: tree.len(),
            kept: 0,
        };
        let mut searched = false;
        self.profiles.clear();
        while g.to_act() == Some(me) {
            let legal = g.legal_actions();
            let action = if legal.len() == 1 {
                legal[0]
            } else {
                let main = matches!(g.expects(), Some(ActionKind::Place | ActionKind::Move));
                let share = self.share(main, start.elapsed(), turn.playouts);
                let before = tree.len();
                if self.profiling {
                    tree.start_profile();
                }
                let searching = Instant::now();
                turn.playouts += self.search(&mut tree, share);
                if let Some(mut profile) = tree.take_profile() {
                    profile.total = searching.elapsed();
                    self.profiles.push(profile);
                }
                turn.nodes += tree.len() - before;
                let Some((a, chance)) = tree.best() else {
                    break;
                };
                turn.win_chance = chance;
                searched = true;
                a
            };
            if g.play(action).is_err() {
                debug_assert!(false, "a legal action was refused: {action}");
                break;
            }
            turn.actions.push(action);
            tree.reroot(&g, 1);
        }
        if !searched {
            turn.win_chance = win_chance(&g, me);
        }
        turn.kept = tree.len();
        self.tree = Some(tree);
        Ok(turn)
    }

    /// The budget of one decision: a tenth of the turn's for a removal, what is left
    /// (at least half) for the placement or ring move.
    fn share(&self, main: bool, elapsed: Duration, used: u64) -> Budget {
        match self.settings.budget {
            Budget::Playouts(p) => Budget::Playouts(if main {
                p.saturating_sub(used).max(p / 2).max(1)
            } else {
                (p / 10).max(1)
            }),
            Budget::Time(t) => Budget::Time(if main {
                t.saturating_sub(elapsed).max(t / 2)
            } else {
                t / 10
            }),
        }
    }

    /// Run the search on `tree` within `budget`; the iterations done.
    fn search(&mut self, tree: &mut Tree, budget: Budget) -> u64 {
        let cfg = self.settings.search;
        let mut done = 0;
        match budget {
            Budget::Playouts(p) => {
                while done < p && !tree.root_proven() {
                    tree.iterate(&cfg, &mut self.rng);
                    done += 1;
                }
            }
            Budget::Time(t) => {
                let end = Instant::now() + t;
                'outer: loop {
                    for _ in 0..32 {
                        if tree.root_proven() {
                            break 'outer;
                        }
                        tree.iterate(&cfg, &mut self.rng);
                        done += 1;
                    }
                    if Instant::now() >= end {
                        break;
                    }
                }
            }
        }
        done
    }
}

/// The turn a fresh robot with `settings` plays in `game` (no tree kept).
///
/// ```
/// use yinsh_pbem::ai::{Budget, ThinkSettings, think};
/// use yinsh_pbem::rules::{Game, Variant};
/// let game = Game::new(Variant::Normal);
/// let a = think(&game, &ThinkSettings::new(Budget::Playouts(30), 9)).unwrap();
/// let b = think(&game, &ThinkSettings::new(Budget::Playouts(30), 9)).unwrap();
/// assert_eq!(a, b);
/// ```
pub fn think(game: &Game, settings: &ThinkSettings) -> Result<Turn, ThinkError> {
    Robot::new(*settings).think(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{FinalPass, play_transcript};
    use crate::rules::Variant;

    /// Issue 29 "make the search scale with time": a profiled search counts what it
    /// did (every iteration, the nodes it made, its time's parts) and plays the turn
    /// an unprofiled one plays.
    #[test]
    fn a_profiled_search_counts_its_work_and_plays_the_same_turn() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/transcripts/in-progress.txt"
        ))
        .unwrap();
        let game = play_transcript(Variant::Normal, &text, FinalPass::Leave)
            .unwrap()
            .game;
        let settings = ThinkSettings::new(Budget::Playouts(300), 3);
        let mut plain = Robot::new(settings);
        let expected = plain.think(&game).unwrap();
        assert!(plain.profiles().is_empty());
        let mut robot = Robot::new(settings);
        robot.set_profiling(true);
        let turn = robot.think(&game).unwrap();
        assert_eq!(turn, expected);
        let profiles = robot.profiles();
        assert!(!profiles.is_empty());
        let iterations: u64 = profiles.iter().map(|p| p.iterations).sum();
        assert_eq!(iterations, turn.playouts);
        let made: usize = profiles.iter().map(|p| p.nodes.1 - p.nodes.0).sum();
        assert_eq!(made, turn.nodes);
        let first = profiles[0];
        assert_eq!(first.nodes.0, 1, "a fresh robot's tree is its root");
        assert!(first.max_depth >= 2 && first.mean_depth() >= 1.0, "{first}");
        assert!(first.evaluations > first.iterations, "{first}");
        assert!(first.playouts + first.expansions <= first.total, "{first}");
        assert!(first.arena_bytes >= first.nodes.1 * 28, "{first}");
    }
}
