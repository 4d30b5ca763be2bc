//! The rules of the per-game extras (`store::Extra`, typed in the game file): an
//! offer or a submitted move lapses with the next turn, queued and submitted moves
//! are keyed by the lower-case userid, and the reminder and forfeit times default to
//! [`NAG_DAYS`] and [`FORFEIT_DAYS`]; any game may be declined by each of its
//! players until their own first move, whoever started it (issue 25). A game its
//! players started as strangers (they had never both moved in a game against each
//! other) is [`quiet`] while the player to move, who did not start it, has not moved
//! in it: no reminders, and at the forfeit time it is cancelled, unrated, instead of
//! forfeited.

use crate::server::model::UserId;
pub use crate::server::store::{Challenger, LastNag, Offer, Stored};
use crate::server::store::{Extra, GameFile};

/// Default days without a move before a reminder.
pub const NAG_DAYS: u32 = 7;
/// Default days without a move before the game is forfeited.
pub const FORFEIT_DAYS: u32 = 21;

/// Watchers one game may have: each gets every board mail of the game.
pub const MAX_WATCHERS: usize = 20;

/// The watchers of a game.
pub fn subscribers(file: &GameFile) -> &[UserId] {
    &file.extra.subscribers
}

/// Replace the watchers of a game.
pub fn set_subscribers(extra: &mut Extra, list: Vec<UserId>) {
    extra.subscribers = list;
}

/// The pending offer, if still valid (no turn played since).
pub fn offer(file: &GameFile) -> Option<Offer> {
    file.extra
        .offer
        .clone()
        .filter(|o| o.turns == file.turns.len())
}

/// Record or clear the pending offer.
pub fn set_offer(extra: &mut Extra, offer: Option<Offer>) {
    extra.offer = offer;
}

/// After turn `number` (1-based) was played: clear any offer it left behind, and
/// return it when it was still pending as that turn was played (it lapsed with it,
/// and the turn's mails say so); an offer that lapsed earlier goes silently.
pub fn lapse_offer(file: &mut GameFile, number: u32) -> Option<Offer> {
    let o = file.extra.offer.take_if(|o| o.turns < file.turns.len())?;
    (o.turns + 1 == number as usize).then_some(o)
}

/// The move `userid` queued, if any.
pub fn queued(file: &GameFile, userid: &UserId) -> Option<Stored> {
    file.extra.queued.get(&userid.key()).cloned()
}

/// A move kept for later (queued or submitted) as `text`, marked `moveno`, at the
/// game's current number of turns (a submitted move lapses when it changes).
pub fn for_later(file: &GameFile, text: &str, moveno: Option<u32>) -> Stored {
    Stored {
        text: text.to_string(),
        moveno,
        turns: file.turns.len(),
    }
}

/// Record or clear the move `userid` queued.
pub fn set_queued(extra: &mut Extra, userid: &UserId, value: Option<Stored>) {
    match value {
        Some(v) => extra.queued.insert(userid.key(), v),
        None => extra.queued.remove(&userid.key()),
    };
}

/// The move `userid` submitted for confirmation, if still valid.
pub fn submitted(file: &GameFile, userid: &UserId) -> Option<Stored> {
    file.extra
        .submitted
        .get(&userid.key())
        .filter(|s| s.turns == file.turns.len())
        .cloned()
}

/// Record or clear the move `userid` submitted.
pub fn set_submitted(extra: &mut Extra, userid: &UserId, value: Option<Stored>) {
    match value {
        Some(v) => extra.submitted.insert(userid.key(), v),
        None => extra.submitted.remove(&userid.key()),
    };
}

/// Days without a move before a reminder.
pub fn nag_days(file: &GameFile) -> u32 {
    file.extra.nagtime.unwrap_or(NAG_DAYS)
}

/// Days without a move before the game is forfeited.
pub fn forfeit_days(file: &GameFile) -> u32 {
    file.extra.forfeittime.unwrap_or(FORFEIT_DAYS)
}

/// Set the reminder and forfeit times (days) of a new game.
pub fn set_times(extra: &mut Extra, nag: Option<u32>, forfeit: Option<u32>) {
    extra.nagtime = nag;
    extra.forfeittime = forfeit;
}

/// The last reminder sent.
pub fn last_nag(file: &GameFile) -> Option<LastNag> {
    file.extra.last_nag
}

/// Record the last reminder sent.
pub fn set_last_nag(extra: &mut Extra, nag: LastNag) {
    extra.last_nag = Some(nag);
}

/// Who started the game for its two players, when neither did.
pub fn challenger(file: &GameFile) -> Option<&Challenger> {
    file.extra.challenger.as_ref()
}

/// Record who started the game for its two players.
pub fn set_challenger(extra: &mut Extra, challenger: Option<Challenger>) {
    extra.challenger = challenger;
}

/// The player who started the game, when one of its players did and it was kept.
pub fn started_by(file: &GameFile) -> Option<&UserId> {
    file.extra.started_by.as_ref()
}

/// Record the player who started the game.
pub fn set_started_by(extra: &mut Extra, player: Option<UserId>) {
    extra.started_by = player;
}

/// Whether the two players had never both moved in a game against each other when
/// the game started.
pub fn strangers(file: &GameFile) -> bool {
    file.extra.strangers
}

/// Record whether the players started the game as strangers.
pub fn set_strangers(extra: &mut Extra, strangers: bool) {
    extra.strangers = strangers;
}

/// Whether the game waits quietly on `to_move`: its players started it as strangers,
/// `to_move` did not start it and has not played a turn in it. Such a game sends no
/// reminder, and at the forfeit time it is cancelled (removed, unrated) instead of
/// forfeited: a game nobody asked for must not nag the one it was forced on. (The
/// games a player started are reminded: they asked for them, and the games an
/// account may have started waiting for others are capped, `game::strangers`.)
pub fn quiet(file: &GameFile, to_move: &UserId) -> bool {
    strangers(file)
        && first_move_of(file, to_move).is_none()
        && started_by(file).is_none_or(|s| s.key() != to_move.key())
}

/// The number of the first turn `userid` played, if any (the server's forced
/// passes are not theirs).
pub fn first_move_of(file: &GameFile, userid: &UserId) -> Option<u32> {
    let k = file.turns.iter().position(|t| !t.auto && t.by == *userid)?;
    u32::try_from(k + 1).ok()
}

/// Whether `userid`, a player of the game, may still decline it: it is not over and
/// they have not played a turn in it (whoever started it).
pub fn may_decline(file: &GameFile, userid: &UserId) -> bool {
    file.ended.is_none()
        && (file.white == *userid || file.black == *userid)
        && first_move_of(file, userid).is_none()
}

/// The challenger as mails name them: `carol@example.org (userid carol)`.
pub fn challenger_words(c: &Challenger) -> String {
    let address = c
        .address
        .as_ref()
        .map_or_else(|| "an unknown address".to_string(), ToString::to_string);
    match c.userids.as_slice() {
        [] => address,
        [one] => format!("{address} (userid {one})"),
        many => format!("{address} (userids {})", UserId::join(many, ", ")),
    }
}
