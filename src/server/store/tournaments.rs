//! Tournaments (issue 49): `<home>/tournaments.json`, every [`Tournament`] keyed by
//! its name in lower case, written through the store's transaction (so a tournament
//! changes in the same journal as the games it starts or the game whose end it
//! records). The record is typed: its format, clock settings, limits, players with
//! their rating at the start, its games (each with its board once started) and
//! byes. The pure logic that reads it (pairings, standings) is
//! `game::tournament`.
//!
//! ```text
//! {"spring": {"name": "Spring", "format": {"format": "swiss", "rounds": 3},
//!   "blitz": false, "min": 3, "max": 16, "creator": "alice", "created": 1795384020,
//!   "entrants": [{"id": "alice", "rating": 1600}], "games": [{"round": 1,
//!   "white": "alice", "black": "bob", "board": 104, "result": "white"}],
//!   "byes": [{"round": 1, "player": "carol"}], "started": 1795384020}}
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::{BoardId, UserId};

/// A tournament's name: 3 to 30 letters A-Z, digits or '-', compared without case.
///
/// ```
/// use yinsh_pbem::server::store::TournamentName;
/// let n: TournamentName = "Spring-2027".parse().unwrap();
/// assert_eq!(n.key(), "spring-2027");
/// assert!("ab".parse::<TournamentName>().is_err());
/// assert!("a b c".parse::<TournamentName>().is_err());
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TournamentName(String);

/// Why a text is not a tournament name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{found:?} is not a tournament name; choose 3 to 30 letters A-Z, digits or '-', such as \"Spring-2027\""
)]
pub struct InvalidTournamentName {
    /// The text (at most 40 characters of it).
    pub found: String,
}

impl TournamentName {
    /// The name in lower case: the key it is stored and compared by.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl FromStr for TournamentName {
    type Err = InvalidTournamentName;

    fn from_str(s: &str) -> Result<TournamentName, InvalidTournamentName> {
        let ok = (3..=30).contains(&s.len())
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if ok {
            Ok(TournamentName(s.to_string()))
        } else {
            Err(InvalidTournamentName {
                found: s.chars().take(40).collect(),
            })
        }
    }
}

impl TryFrom<String> for TournamentName {
    type Error = InvalidTournamentName;
    fn try_from(s: String) -> Result<TournamentName, InvalidTournamentName> {
        s.parse()
    }
}

impl From<TournamentName> for String {
    fn from(n: TournamentName) -> String {
        n.0
    }
}

impl fmt::Display for TournamentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq for TournamentName {
    fn eq(&self, other: &TournamentName) -> bool {
        self.key() == other.key()
    }
}

impl Eq for TournamentName {}

/// How a tournament is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "lowercase")]
pub enum Format {
    /// Every pair plays twice, once with each colour, all games started together.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// `rounds` rounds, each paired when the one before has ended.
    Swiss {
        /// How many rounds.
        rounds: u32,
    },
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin => f.write_str("round robin"),
            Format::Swiss { rounds } => write!(f, "Swiss of {rounds} rounds"),
        }
    }
}

/// How a tournament game ended, for the tournament (a forfeit is a win).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// White won (Black resigned, lost, was forfeited or withdrew).
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
}

/// One game of a tournament: its round, its players, its board once started and,
/// once ended, its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// The round (1 for every game of a round robin).
    pub round: u32,
    /// Who has White.
    pub white: UserId,
    /// Who has Black.
    pub black: UserId,
    /// The game's board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardId>,
    /// The result, once the game has ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Verdict>,
}

/// A player who sat a Swiss round out (worth a win).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// The round.
    pub round: u32,
    /// Who had it.
    pub player: UserId,
}

/// A player of a tournament with their rating when it started (the last tie-break of
/// a Swiss, and the seed of its first round).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The account.
    pub id: UserId,
    /// The rating at the start (0 before).
    pub rating: i32,
    /// Withdrawn after the start: not paired again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// One tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its name.
    pub name: TournamentName,
    /// Round robin or Swiss.
    pub format: Format,
    /// Blitz games.
    #[serde(default)]
    pub blitz: bool,
    /// The games' reminder time in days (the challenge default when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nag_days: Option<u32>,
    /// The games' forfeit time in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit_days: Option<u32>,
    /// The fewest players it starts with.
    pub min: u32,
    /// The most players it takes.
    pub max: u32,
    /// When `tick` starts it (unix seconds), if it has enough players then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u64>,
    /// Who created it.
    pub creator: UserId,
    /// When, unix seconds.
    pub created: u64,
    /// When it started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<u64>,
    /// When its last game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<u64>,
    /// Its players, in the order they joined.
    #[serde(default)]
    pub entrants: Vec<Entrant>,
    /// Its games.
    #[serde(default)]
    pub games: Vec<TournamentGame>,
    /// Its byes.
    #[serde(default)]
    pub byes: Vec<Bye>,
}

impl Tournament {
    /// Whether `who` plays in it.
    pub fn has(&self, who: &UserId) -> bool {
        self.entrants.iter().any(|e| e.id == *who)
    }

    /// The game on `board`, if it is one of this tournament's.
    pub fn game_on(&mut self, board: BoardId) -> Option<&mut TournamentGame> {
        self.games.iter_mut().find(|g| g.board == Some(board))
    }
}

impl Store {
    fn tournaments_path(&self) -> PathBuf {
        self.home().join("tournaments.json")
    }

    /// Every tournament, by name in lower case, through the transaction.
    pub fn tournaments(&self) -> Result<BTreeMap<String, Tournament>, StoreError> {
        Ok(self
            .read_json(&self.tournaments_path(), "tournaments")?
            .unwrap_or_default())
    }

    /// The tournament named `name`, if there is one.
    pub fn tournament(&self, name: &TournamentName) -> Result<Option<Tournament>, StoreError> {
        Ok(self.tournaments()?.remove(&name.key()))
    }

    /// Writes `t` (a new one or a change).
    pub fn put_tournament(&self, t: &Tournament) -> Result<(), StoreError> {
        let mut all = self.tournaments()?;
        all.insert(t.name.key(), t.clone());
        self.write_json(&self.tournaments_path(), "tournaments", &all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_round_trips_through_json() {
        let t = Tournament {
            name: "Spring".parse().unwrap(),
            format: Format::Swiss { rounds: 3 },
            blitz: true,
            nag_days: None,
            forfeit_days: Some(9),
            min: 3,
            max: 8,
            start: None,
            creator: "alice".parse().unwrap(),
            created: 5,
            started: Some(6),
            finished: None,
            entrants: vec![Entrant {
                id: "bob".parse().unwrap(),
                rating: 1650,
                withdrawn: true,
            }],
            games: vec![TournamentGame {
                round: 1,
                white: "alice".parse().unwrap(),
                black: "bob".parse().unwrap(),
                board: Some(104u32.into()),
                result: Some(Verdict::Draw),
            }],
            byes: vec![Bye {
                round: 1,
                player: "carol".parse().unwrap(),
            }],
        };
        let text = serde_json::to_string(&t).unwrap();
        assert!(
            text.contains(r#""format":{"format":"swiss","rounds":3}"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Tournament>(&text).unwrap(), t);
        assert!(
            serde_json::from_str::<TournamentName>(r#""no spaces""#).is_err(),
            "a bad name is a bad file"
        );
    }
}
