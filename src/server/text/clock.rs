//! The clock line of a board mail: when the player to move was last waited on, and
//! the dates of their next reminder and of the forfeit (or, in a quiet game, of its
//! cancelling: issue 25), as `game::clock` computes them.

use crate::server::game::clock::{Deadlines, Lapse};
use crate::server::game::record::LiveGame;
use crate::server::model::UserId;

use super::dates::format_date;

/// `Clock: last move 2026-11-22 21:52 UTC; without a move bob gets a reminder on
/// 2026-11-29 21:52 UTC and forfeits on 2026-12-13 21:52 UTC.` (`game started`
/// before the first turn; no reminder when none comes before the forfeit).
pub fn clock_line(live: &LiveGame, d: &Deadlines) -> String {
    let reminder = d.reminder.map_or(String::new(), |at| {
        format!("gets a reminder on {} and ", format_date(at))
    });
    let started = if live.file().turns.is_empty() {
        "game started"
    } else {
        "last move"
    };
    let (since, player, at) = (format_date(d.since), &d.player, format_date(d.forfeit));
    let line = match d.lapse {
        Lapse::Forfeit => {
            format!("Clock: {started} {since}; without a move {player} {reminder}forfeits on {at}.")
        }
        Lapse::Cancel => format!(
            "Clock: {started} {since}; without a move from {player} the game is cancelled\n(unrated, no reminders) on {at}."
        ),
    };
    match d.vacation_until {
        Some(until) => format!("{line}\n{}", vacation_reason(player, until)),
        None => line,
    }
}

/// The clock line of a mail that shows a position the game has not reached (a
/// preview, a submitted move): the game's own clock, said to be the game's, since
/// the turn told above it is the position's (issue 47 item 11).
pub fn stored_clock_line(live: &LiveGame, d: &Deadlines) -> String {
    format!(
        "In the game itself, where nothing was played:\n{}",
        clock_line(live, d)
    )
}

/// Why the clock's dates are later than usual (issue 26 finding 7): `Later than
/// usual: bob's vacation, until 2026-12-06 21:52 UTC, does not count.`
pub fn vacation_reason(player: &UserId, until: u64) -> String {
    format!(
        "Later than usual: {player}'s vacation, until {}, does not count.",
        format_date(until)
    )
}
