//! The level table and the players of `think` and `match`: how a player is spelt on
//! the command line (`level3`, `ms200`, `playouts500`, `random`, `greedy`,
//! `uct-ms200`, `uct-playouts500`), and `Player`, which answers a turn whatever kind
//! it is.
//!
//! The levels differ by how much the same search may think: levels 1 to 4 by a fixed
//! number of playouts a turn (so they play alike on any machine and for a seed
//! always the same), level 5 by the whole think time (2 s unless configured).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::baseline::{Baseline, baseline_turn};
use super::robot::{Budget, Robot, ThinkError, ThinkSettings, Turn};
use super::tree::SearchConfig;
use crate::rules::Game;
use crate::rules::rng::Rng;

/// The robot's levels, weakest first: (level, playouts a turn; `None`: the think time).
pub const LEVELS: [(u8, Option<u64>); 5] = [
    (1, Some(30)),
    (2, Some(150)),
    (3, Some(600)),
    (4, Some(2_500)),
    (5, None),
];

/// The top level's think time a turn unless configured.
pub const DEFAULT_THINK_TIME: Duration = Duration::from_secs(2);

/// The budget of `level` (1..=5) with the top level's `think_time`; `None` for a
/// level that does not exist.
///
/// ```
/// use std::time::Duration;
/// use yinsh_pbem::ai::{Budget, level_budget};
/// assert_eq!(level_budget(1, Duration::from_secs(2)), Some(Budget::Playouts(30)));
/// assert_eq!(level_budget(5, Duration::from_secs(2)), Some(Budget::Time(Duration::from_secs(2))));
/// assert_eq!(level_budget(6, Duration::from_secs(2)), None);
/// ```
pub fn level_budget(level: u8, think_time: Duration) -> Option<Budget> {
    LEVELS
        .iter()
        .find(|(l, _)| *l == level)
        .map(|(_, p)| match p {
            Some(p) => Budget::Playouts(*p),
            None => Budget::Time(think_time),
        })
}

/// A kind of player, as spelt on the command line.
///
/// ```
/// use yinsh_pbem::ai::PlayerSpec;
/// for text in ["level3", "ms200", "playouts500", "random", "greedy", "uct-ms200", "uct-playouts500"] {
///     let spec: PlayerSpec = text.parse().unwrap();
///     assert_eq!(spec.to_string(), text);
/// }
/// assert!("level9".parse::<PlayerSpec>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniform random.
    Random,
    /// One-ply greedy by the evaluation.
    Greedy,
    /// A level of the robot (1..=5).
    Level(u8),
    /// The robot's search with this budget (`msN`, `playoutsN`).
    Robot(Budget),
    /// Plain UCT with this budget (`uct-msN`, `uct-playoutsN`).
    Uct(Budget),
}

/// A player's name that is not one of the spellings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a player: write level1 .. level5, msN (the robot thinking N ms a turn), \
     playoutsN (N playouts a turn), uct-msN or uct-playoutsN (plain UCT), random or greedy"
)]
pub struct ParsePlayerError {
    /// What was written.
    pub text: String,
}

fn parse_budget(s: &str) -> Option<Budget> {
    let number = |n: &str| n.parse::<u64>().ok().filter(|&n| n > 0);
    if let Some(n) = s.strip_prefix("ms") {
        number(n).map(|n| Budget::Time(Duration::from_millis(n)))
    } else if let Some(n) = s.strip_prefix("playouts") {
        number(n).map(Budget::Playouts)
    } else {
        None
    }
}

impl FromStr for PlayerSpec {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, ParsePlayerError> {
        let lower = s.trim().to_ascii_lowercase();
        let spec = match lower.as_str() {
            "random" => Some(PlayerSpec::Random),
            "greedy" => Some(PlayerSpec::Greedy),
            l => {
                if let Some(n) = l.strip_prefix("level") {
                    n.parse()
                        .ok()
                        .filter(|n| LEVELS.iter().any(|(l, _)| l == n))
                        .map(PlayerSpec::Level)
                } else if let Some(b) = l.strip_prefix("uct-") {
                    parse_budget(b).map(PlayerSpec::Uct)
                } else {
                    parse_budget(l).map(PlayerSpec::Robot)
                }
            }
        };
        spec.ok_or_else(|| ParsePlayerError {
            text: s.to_string(),
        })
    }
}

fn write_budget(f: &mut fmt::Formatter<'_>, b: &Budget) -> fmt::Result {
    match b {
        Budget::Playouts(n) => write!(f, "playouts{n}"),
        Budget::Time(t) => write!(f, "ms{}", t.as_millis()),
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Level(n) => write!(f, "level{n}"),
            PlayerSpec::Robot(b) => write_budget(f, b),
            PlayerSpec::Uct(b) => {
                f.write_str("uct-")?;
                write_budget(f, b)
            }
        }
    }
}

/// A player of any kind, ready to answer turns.
#[derive(Clone, Debug)]
pub enum Player {
    /// A baseline and its generator.
    Baseline(Baseline, Rng),
    /// A tree search (the robot or plain UCT).
    Search(Box<Robot>),
}

impl PlayerSpec {
    /// A player of this kind seeded with `seed`; level 5 thinks `think_time` a turn.
    pub fn player(self, seed: u64, think_time: Duration) -> Player {
        let search = |budget, search| {
            Player::Search(Box::new(Robot::new(ThinkSettings {
                budget,
                search,
                seed,
            })))
        };
        match self {
            PlayerSpec::Random => Player::Baseline(Baseline::Random, Rng::new(seed)),
            PlayerSpec::Greedy => Player::Baseline(Baseline::Greedy, Rng::new(seed)),
            PlayerSpec::Level(n) => search(
                level_budget(n, think_time).unwrap_or(Budget::Time(think_time)),
                SearchConfig::ROBOT,
            ),
            PlayerSpec::Robot(b) => search(b, SearchConfig::ROBOT),
            PlayerSpec::Uct(b) => search(b, SearchConfig::PLAIN_UCT),
        }
    }
}

impl Player {
    /// The turn this player plays in `game`.
    pub fn turn(&mut self, game: &Game) -> Result<Turn, ThinkError> {
        match self {
            Player::Baseline(kind, rng) => baseline_turn(*kind, game, rng),
            Player::Search(robot) => robot.think(game),
        }
    }
}
