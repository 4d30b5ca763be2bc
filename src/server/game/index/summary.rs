//! What the indexes know of one game: its [`Summary`], computed from the game replayed
//! (a game won on the board is only known by replaying it), and the earliest time
//! `tick` may have work for a game going on ([`next_check`]).

use crate::server::game::extra;
use crate::server::game::ratings;
use crate::server::game::record::LiveGame;
use crate::server::model::{UserId, Variant};
use crate::server::store::{DAY, Finished};

/// One game as the indexes see it.
#[derive(Debug, Clone, PartialEq)]
pub enum Summary {
    /// A game going on.
    Active {
        /// Normal or blitz.
        variant: Variant,
        /// White's and Black's userids.
        players: [UserId; 2],
        /// The earliest time tick may nag or forfeit (none: nobody is to move).
        due: Option<u64>,
    },
    /// A game over.
    Finished(Finished),
}

impl Summary {
    /// White's and Black's userids.
    pub fn players(&self) -> &[UserId; 2] {
        match self {
            Summary::Active { players, .. } => players,
            Summary::Finished(f) => &f.players,
        }
    }

    /// Normal or blitz.
    pub fn variant(&self) -> Variant {
        match self {
            Summary::Active { variant, .. } => *variant,
            Summary::Finished(f) => f.variant,
        }
    }

    /// When tick may have work, for a game going on.
    pub fn due(&self) -> Option<u64> {
        match self {
            Summary::Active { due, .. } => *due,
            Summary::Finished(_) => None,
        }
    }

    /// The game's ending, once it is over.
    pub fn finished(&self) -> Option<&Finished> {
        match self {
            Summary::Active { .. } => None,
            Summary::Finished(f) => Some(f),
        }
    }
}

/// The summary of a replayed game.
pub fn summary(live: &LiveGame) -> Summary {
    match ratings::finished(live) {
        Some(f) => Summary::Finished(f),
        None => Summary::Active {
            variant: live.game.variant(),
            players: [live.file.white.clone(), live.file.black.clone()],
            due: next_check(live),
        },
    }
}

/// The earliest time at which `tick` may nag or forfeit the player to move, from the
/// game file alone: the idle time counts from the last turn (or the start), the
/// nag periods already nagged are skipped. Vacations only stop the clock, so the
/// real time is this one or later (tick then finds nothing to do yet, and looks again
/// at its next run); it is never earlier.
pub fn next_check(live: &LiveGame) -> Option<u64> {
    live.player_to_move()?;
    let f = &live.file;
    let since = f.turns.last().map_or(f.created, |t| t.at);
    let nag = u64::from(extra::nag_days(f)) * DAY;
    let forfeit = since.saturating_add(u64::from(extra::forfeit_days(f)) * DAY);
    if nag == 0 {
        return Some(forfeit);
    }
    let periods = match extra::last_nag(f) {
        Some(l) if l.turns == f.turns.len() => l.period.saturating_add(1),
        _ => 1,
    };
    let nag_at = since.saturating_add(periods.saturating_mul(nag));
    Some(nag_at.min(forfeit))
}
