//! The clock of the player to move, as `tick` keeps it (`run/tick.rs`): when they
//! were last waited on (the last turn, or the start), and the times of their next
//! reminder and of the forfeit if they make no move, their vacations not counted.
//! Board mails print these dates; a test checks that `tick` acts at exactly them.
//! A [`extra::quiet`] game has no reminder, and at its deadline it is cancelled
//! rather than forfeited ([`Lapse`]).

use crate::server::model::UserId;

use super::extra;
use super::record::LiveGame;
use super::vacation::Vacations;

const DAY: u64 = 86_400;

/// What happens at the deadline when the player to move has made no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lapse {
    /// They forfeit the game.
    Forfeit,
    /// The game is cancelled: removed, unrated ([`extra::quiet`]).
    Cancel,
}

/// The dates of the player to move, in unix seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlines {
    /// The player to move.
    pub player: UserId,
    /// The last turn (or the start of the game), when their clock started.
    pub since: u64,
    /// When they get their next reminder, unless it would come at the forfeit or
    /// later (or the game has none).
    pub reminder: Option<u64>,
    /// When they forfeit the game (or it is cancelled) without a move.
    pub forfeit: u64,
    /// Which of the two happens then.
    pub lapse: Lapse,
    /// The end of the player's vacation that makes these dates later, if one does.
    pub vacation_until: Option<u64>,
}

/// The deadlines of the player to move in `live`; none when the game is over or a
/// robot is to move (robots are never reminded). Every vacation the player has
/// from the clock's start on stops it (they are all known: a vacation starts when it
/// is asked for), as `tick` counts them.
///
/// ```
/// use yinsh_pbem::server::game::clock::deadlines;
/// use yinsh_pbem::server::game::record::LiveGame;
/// use yinsh_pbem::server::game::vacation::Vacations;
/// use yinsh_pbem::server::model::{UserId, Variant};
/// let (a, b) = ("alice".parse::<UserId>().unwrap(), "bob".parse::<UserId>().unwrap());
/// let live = LiveGame::new(101.into(), Variant::Normal, &a, &b, 0);
/// let mut vacations = Vacations::default();
/// vacations.set("alice", 3_600, 2);
/// let d = deadlines(&live, &vacations).unwrap();
/// assert_eq!(d.reminder, Some((7 + 2) * 86_400));
/// assert_eq!(d.forfeit, (21 + 2) * 86_400);
/// ```
pub fn deadlines(live: &LiveGame, vacations: &Vacations) -> Option<Deadlines> {
    let player = live.player_to_move()?;
    if player.robot_level().is_some() {
        return None;
    }
    let f = live.file();
    let since = f.turns.last().map_or(f.created, |t| t.at);
    let paused = vacations.paused(player, since, u64::MAX);
    let forfeit = since
        .saturating_add(u64::from(extra::forfeit_days(f)) * DAY)
        .saturating_add(paused);
    let quiet = extra::quiet(f, player);
    let nag = if quiet {
        0
    } else {
        u64::from(extra::nag_days(f)) * DAY
    };
    let period = match extra::last_nag(f) {
        Some(l) if l.turns == f.turns.len() => l.period.saturating_add(1),
        _ => 1,
    };
    let reminder = since
        .saturating_add(period.saturating_mul(nag))
        .saturating_add(paused);
    Some(Deadlines {
        player: player.clone(),
        since,
        reminder: (nag > 0 && reminder < forfeit).then_some(reminder),
        forfeit,
        lapse: if quiet { Lapse::Cancel } else { Lapse::Forfeit },
        vacation_until: vacations.last_until(player, since),
    })
}
