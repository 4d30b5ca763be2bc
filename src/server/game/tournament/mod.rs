//! A tournament's pure logic, with no I/O and no clock: its formats (`Format`), the
//! points of a game (`Half`: half-points kept as integers), the games and byes a
//! tournament has had (`History`), the round robin's schedule (`round_robin`), a Swiss
//! round's pairings (`swiss`) and the standings with their tie-breaks (`standings`;
//! the order is written in docs/tournaments.md). The store keeps a tournament's
//! record; exec/ asks these functions what to start and who leads.

pub mod round_robin;
pub mod standings;
pub mod swiss;

use std::fmt;

use crate::server::model::UserId;
pub use crate::server::store::{Bye, Entrant, Format, TournamentGame as Game, Verdict};

/// Points counted in halves: a win is `Half(2)`, a draw `Half(1)`, a loss `Half(0)`.
///
/// ```
/// use yinsh_pbem::server::game::tournament::Half;
/// assert_eq!(Half(5).to_string(), "2.5");
/// assert_eq!(Half(4).to_string(), "2");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Half(pub u32);

impl Half {
    /// A win.
    pub const WIN: Half = Half(2);
    /// A draw.
    pub const DRAW: Half = Half(1);
    /// A loss.
    pub const LOSS: Half = Half(0);
}

impl std::ops::Add for Half {
    type Output = Half;
    fn add(self, other: Half) -> Half {
        Half(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Half {
    fn add_assign(&mut self, other: Half) {
        self.0 += other.0;
    }
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// Sonneborn-Berger counted in quarters (a half-point score times half-points).
///
/// ```
/// use yinsh_pbem::server::game::tournament::Quarter;
/// assert_eq!(Quarter(13).to_string(), "3.25");
/// assert_eq!(Quarter(8).to_string(), "2");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quarter(pub u32);

impl fmt::Display for Quarter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, rest) = (self.0 / 4, self.0 % 4);
        match rest {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

impl Game {
    /// A game not yet started.
    pub fn new(round: u32, white: UserId, black: UserId) -> Game {
        Game {
            round,
            white,
            black,
            board: None,
            result: None,
        }
    }

    /// Whether `who` plays in this game.
    pub fn has(&self, who: &UserId) -> bool {
        self.white == *who || self.black == *who
    }

    /// The other player, when `who` plays in this game.
    pub fn opponent(&self, who: &UserId) -> Option<&UserId> {
        if self.white == *who {
            Some(&self.black)
        } else if self.black == *who {
            Some(&self.white)
        } else {
            None
        }
    }

    /// What `who` scored, once the game has ended (None for a game still going or
    /// one `who` is not in).
    pub fn score_of(&self, who: &UserId) -> Option<Half> {
        let result = self.result?;
        let white = self.white == *who;
        if !white && self.black != *who {
            return None;
        }
        Some(match (result, white) {
            (Verdict::Draw, _) => Half::DRAW,
            (Verdict::White, true) | (Verdict::Black, false) => Half::WIN,
            _ => Half::LOSS,
        })
    }
}

/// What a bye is worth.
pub const BYE: Half = Half(2);

impl Entrant {
    /// A player still in.
    pub fn new(id: UserId, rating: i32) -> Entrant {
        Entrant {
            id,
            rating,
            withdrawn: false,
        }
    }
}

/// Everything a tournament has had: its players, games and byes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History<'a> {
    /// The players, in any order.
    pub entrants: &'a [Entrant],
    /// Every game started.
    pub games: &'a [Game],
    /// Every bye given.
    pub byes: &'a [Bye],
}

impl History<'_> {
    /// The points of `who`: their games' scores and their byes.
    pub fn points(&self, who: &UserId) -> Half {
        let games = self
            .games
            .iter()
            .filter_map(|g| g.score_of(who))
            .fold(Half(0), |a, b| a + b);
        let byes = self.byes.iter().filter(|b| b.player == *who).count() as u32;
        games + Half(BYE.0 * byes)
    }

    /// The colours `who` had, in the order of the rounds (true for White).
    pub fn colours(&self, who: &UserId) -> Vec<bool> {
        let mut games: Vec<&Game> = self.games.iter().filter(|g| g.has(who)).collect();
        games.sort_by_key(|g| g.round);
        games.iter().map(|g| g.white == *who).collect()
    }

    /// Whether `a` and `b` have played each other (or been paired) already.
    pub fn met(&self, a: &UserId, b: &UserId) -> bool {
        self.games
            .iter()
            .any(|g| g.has(a) && g.opponent(a) == Some(b))
    }

    /// Whether every game has ended.
    pub fn all_ended(&self) -> bool {
        self.games.iter().all(|g| g.result.is_some())
    }
}

#[cfg(test)]
pub(crate) fn ids(names: &[&str]) -> Vec<UserId> {
    names.iter().map(|n| n.parse().expect("a userid")).collect()
}
