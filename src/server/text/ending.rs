//! The lines of a board mail that say how the game stands: whose turn it is or who
//! won ([`status_line`]), why a finished game ended ([`ending_line`]), and the offer
//! that waits for an answer ([`offer_line`]); the web site's game page says the first
//! two too.

use crate::rules::{Color, EndReason, Game, Outcome};
use crate::server::game::extra;
use crate::server::game::ratings::Rating;
use crate::server::game::record::LiveGame;
use crate::server::model;

/// The status line: `It is %s's turn.` / `Game won by %s.` / `Game was a tie.`
pub fn status_line(live: &LiveGame, game: &Game) -> String {
    match (game.to_act(), game.outcome()) {
        (Some(side), _) => format!("It is {}'s turn.", live.player(side)),
        (None, Some(Outcome::Win(side))) => format!("Game won by {}.", live.player(side)),
        (None, _) => "Game was a tie.".to_string(),
    }
}

/// Why a finished game ended, in a sentence.
pub fn ending_line(live: &LiveGame, game: &Game) -> Option<String> {
    let end = game.ending()?;
    let removed = || {
        format!(
            "{} removed {}, {} removed {}.",
            live.player(Color::White),
            game.rings_removed(Color::White),
            live.player(Color::Black),
            game.rings_removed(Color::Black)
        )
    };
    Some(match end.reason {
        EndReason::RingsRemoved => match end.outcome {
            Outcome::Win(side) => format!(
                "{} removed {} ring{}.",
                live.player(side),
                game.rings_removed(side),
                if game.rings_removed(side) == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            Outcome::Draw => "Both sides removed the same number of rings.".to_string(),
        },
        EndReason::MarkersExhausted => format!("The markers ran out: {}", removed()),
        EndReason::BothBlocked => format!("Neither side can move a ring: {}", removed()),
        EndReason::Resignation
            if live
                .file()
                .ended
                .as_ref()
                .is_some_and(|e| e.reason == model::EndReason::Forfeit) =>
        {
            let by = live.file().ended.as_ref().map_or("", |e| e.by.as_str());
            format!(
                "{by} forfeited the game: no move in {} days.",
                extra::forfeit_days(live.file())
            )
        }
        EndReason::Agreement => "The players agreed to a draw.".to_string(),
        EndReason::Resignation => match end.outcome {
            Outcome::Win(side) => format!("{} resigned.", live.player(side.other())),
            Outcome::Draw => "The game was abandoned.".to_string(),
        },
    })
}

/// The offer waiting for an answer, in a line: `alice's draw offer waits for bob's
/// answer (accept or reject).`; `None` when none waits.
pub fn offer_line(live: &LiveGame) -> Option<String> {
    let offer = extra::offer(live.file())?;
    let other = live.player(live.side(&offer.by)?.other());
    Some(format!(
        "{}'s {} waits for {other}'s answer (accept or reject).",
        offer.by,
        offer.kind.words()
    ))
}

/// The rating lines of a finished game's mail: one a player (`rating_line`), or
/// `This game was not rated.`; none while the game goes on (`None`).
pub fn rating_lines(rating: Option<&Rating>) -> Vec<String> {
    match rating {
        None => Vec::new(),
        Some(Rating::Unrated) => vec!["This game was not rated.".to_string()],
        Some(Rating::Rated { variant, moves }) => moves
            .iter()
            .map(|m| {
                rating_line(
                    m.player.as_str(),
                    *variant,
                    m.before,
                    m.after,
                    m.provisional,
                )
            })
            .collect(),
    }
}

/// A finished game's rating line for `name` (`%s's rating went up from %d to %d.`,
/// `... down ...`, `%s's rating is %d (provisional).`); a blitz game's says it is the
/// blitz rating, rated apart from the other (issue 47 item 11).
///
/// ```
/// use yinsh_pbem::rules::Variant;
/// use yinsh_pbem::server::text::ending::rating_line;
/// assert_eq!(rating_line("kim", Variant::Blitz, 1600, 1632, true), "kim's blitz rating is 1632 (provisional).");
/// assert_eq!(rating_line("kim", Variant::Normal, 1700, 1690, false), "kim's rating went down from 1700 to 1690.");
/// ```
pub fn rating_line(
    name: &str,
    variant: crate::rules::Variant,
    before: i32,
    after: i32,
    provisional: bool,
) -> String {
    let what = match variant {
        crate::rules::Variant::Blitz => "blitz rating",
        crate::rules::Variant::Normal => "rating",
    };
    if provisional {
        format!("{name}'s {what} is {after} (provisional).")
    } else if after >= before {
        format!("{name}'s {what} went up from {before} to {after}.")
    } else {
        format!("{name}'s {what} went down from {before} to {after}.")
    }
}
