//! What the indexes know of one game: its [`Summary`], computed from the game replayed
//! (a game won on the board is only known by replaying it), and the earliest time
//! `tick` will have work for a game going on ([`next_check`]), its player's
//! vacations counted.

use crate::server::game::extra;
use crate::server::game::ratings;
use crate::server::game::record::LiveGame;
use crate::server::game::vacation::Vacations;
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

/// The summary of a replayed game, its players' vacations known.
pub fn summary(live: &LiveGame, vacations: &Vacations) -> Summary {
    match ratings::finished(live) {
        Some(f) => Summary::Finished(f),
        None => Summary::Active {
            variant: live.game().variant(),
            players: [live.file().white.clone(), live.file().black.clone()],
            due: next_check(live, vacations),
        },
    }
}

/// The time at which `tick` will nag or forfeit the player to move, from the game
/// file and the vacations (`tick::due`): the idle time counts from the last turn (or
/// the start), the nag periods already nagged are skipped, the time on vacation does
/// not count, and a player on vacation is left alone. `None` when nobody is to move, or
/// a robot is (tick never acts for them); a [`extra::quiet`] game is due only at its
/// forfeit time. A vacation started or ended changes it: the
/// index then files that player's games again (`maintain::update`).
pub fn next_check(live: &LiveGame, vacations: &Vacations) -> Option<u64> {
    let player = live.player_to_move()?;
    if player.robot_level().is_some() {
        return None;
    }
    let f = live.file();
    let since = f.turns.last().map_or(f.created, |t| t.at);
    let nag = u64::from(extra::nag_days(f)) * DAY;
    let forfeit = u64::from(extra::forfeit_days(f)) * DAY;
    // A quiet game has no reminders: only its cancelling is due.
    let idle = if nag == 0 || extra::quiet(f, player) {
        forfeit
    } else {
        let periods = match extra::last_nag(f) {
            Some(l) if l.turns == f.turns.len() => l.period.saturating_add(1),
            _ => 1,
        };
        periods.saturating_mul(nag).min(forfeit)
    };
    Some(vacations.idle_reached(player, since, idle))
}
