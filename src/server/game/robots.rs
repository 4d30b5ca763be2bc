//! The rules of the server's robots as players (`robot1` .. `robot5`, the computer
//! opponent's levels): how many unfinished games a person may have against them
//! ([`MAX_ROBOT_GAMES`]), and how a robot answers a draw offer or a take-back request
//! ([`answer_offer`]): at once, inside the mail's transaction.

use crate::ai::{self, Budget, ThinkSettings};
use crate::rules::Color;
use crate::server::model::{EndReason, OfferKind};

use super::extra;
use super::record::LiveGame;

/// Unfinished games one person may have against the robots at a time (each robot
/// turn costs the server up to its think time).
pub const MAX_ROBOT_GAMES: usize = 5;

/// A robot accepts a draw offer when it estimates its chance to win below this.
pub const DRAW_BELOW: f32 = 0.35;

/// The search a robot makes to answer a draw offer (some tens of milliseconds; with
/// 300 the surer playout scores of issue 29's evaluation made a few say too much).
const OFFER_PLAYOUTS: u64 = 2000;

/// The robot's answer to the offer pending on `live`, when the other player is a
/// robot: the offer is cleared and the answer's sentence returned. The rule: a draw
/// offer is accepted when a short search gives the robot less than [`DRAW_BELOW`]
/// (it is losing), else rejected; a take-back request is always rejected (robot games
/// are rated, and a take-back would let a player try lines against a deterministic
/// opponent until one wins).
pub fn answer_offer(live: &mut LiveGame, now: u64) -> Option<String> {
    let offer = extra::offer(live.file())?;
    let side = live.side(&offer.by)?.other();
    let robot = live.player(side).clone();
    robot.robot_level()?;
    extra::set_offer(live.extra_mut(), None);
    let asker = &offer.by;
    if offer.kind == OfferKind::Undo {
        return Some(format!(
            "{robot} rejected {asker}'s take-back request: the robots allow no take-backs (their games are rated)."
        ));
    }
    let chance = estimate(live, side);
    let percent = (chance * 100.0).round();
    if chance < DRAW_BELOW && live.end(EndReason::DrawAgreed, side, now).is_ok() {
        Some(format!(
            "{robot} accepted {asker}'s draw offer (it estimates its chances at {percent}%)."
        ))
    } else {
        Some(format!(
            "{robot} rejected {asker}'s draw offer: it estimates its chances at {percent}%, and accepts a draw only below {:.0}%.",
            DRAW_BELOW * 100.0
        ))
    }
}

/// `side`'s chance to win in `live`, by a short search (reproducible: seeded by the
/// board and the turn).
fn estimate(live: &LiveGame, side: Color) -> f32 {
    let Some(to_act) = live.game().to_act() else {
        return ai::win_chance(live.game(), side);
    };
    let seed = u64::from(u32::from(live.board())) << 16 | live.file().turns.len() as u64;
    let settings = ThinkSettings::estimating(Budget::Playouts(OFFER_PLAYOUTS), seed);
    match ai::think(live.game(), &settings) {
        Ok(turn) if to_act == side => turn.win_chance,
        Ok(turn) => 1.0 - turn.win_chance,
        Err(_) => ai::win_chance(live.game(), side),
    }
}
