//! A challenge's held message (issue 45): `yinsh challenge alice bob` without a
//! password, from one of alice's confirmed addresses, with "Fancy a game, Bob?" under
//! it. Nothing proved that alice wrote it (anyone can write her From), so the message
//! is held (`store::held`), one per game, cut like a chat, until the challenge's
//! forfeit time or the game's end; the answer to alice says so and carries a reply
//! token of its own (`ReplyScope::Held`), which the gate gives only to alice's own
//! confirmed addresses. Alice passes it on by proving it: a reply to that answer
//! carrying the token ([`by_reply`]; `inbound::by_reply`), or the challenge again
//! with her password ([`by_challenge`]: no second game, and a body of its own passes
//! on instead). It then goes to bob once, as a chat on the board, and is removed; a
//! second proof is told that none is held. A forger of alice's From never sees the
//! answer, so bob never gets the forger's text.

use crate::server::game::record::LiveGame;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::thread::{GameRef, Thread};
use crate::server::outgoing::{Audience, Foreign, Reply};
use crate::server::store::{Account, HeldMessage, ReplyScope, Store};
use crate::server::text::{held as held_text, subjects};

use super::context::{Actor, Asked, to_sender};
use super::error::ExecError;

/// Seconds in a day.
const DAY: u64 = 86_400;

/// Whether the answer to `challenger`'s challenge (unproven) can carry the token that
/// passes its message on: it goes to one of the challenger's confirmed addresses
/// (any of theirs when confirmation is off), the only place the gate lets a reply
/// token go. Else the message is not held: nobody could release it.
pub(super) fn can_hold(req: &Asked<'_>, challenger: &Account) -> bool {
    let Some(to) = req.answer_to() else {
        return false;
    };
    if req.settings.confirm_addresses {
        challenger.is_confirmed(to)
    } else {
        challenger.addresses.iter().any(|a| a.same_mailbox(to))
    }
}

/// Holds the comment of `req` (cut to its bound by `exec`) for `opponent`, on the
/// game `live` that `challenger`'s unproven challenge started, until its forfeit
/// time (`forfeit_days` from now); returns the answer to the challenger, with the
/// reply token that passes it on.
pub(super) fn hold(
    store: &Store,
    req: &Asked<'_>,
    live: &LiveGame,
    (challenger, opponent): (&UserId, &UserId),
    forfeit_days: u32,
) -> Result<Reply, ExecError> {
    let board = live.board();
    let expires = req.now.saturating_add(u64::from(forfeit_days) * DAY);
    store.hold_message(&HeldMessage {
        board,
        from: challenger.clone(),
        to: opponent.clone(),
        text: req.comment.trim().to_string(),
        made: req.now,
        expires,
    })?;
    let token = store.reply_key()?.mint(ReplyScope::Held {
        board,
        userid: challenger.clone(),
    });
    Ok(Reply {
        thread: Thread {
            game: Some(GameRef::of(live)),
            token: Some(token),
            play: None,
        },
        ..to_sender(
            req,
            &subjects::challenge_message(),
            held_text::held(board, opponent, expires),
        )
    })
}

/// A reply carrying the held answer's token of `board`, proving `actor`: the message
/// passed on, or, when none is held (passed on already, expired), the answer saying
/// so.
pub(super) fn by_reply(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    actor: &Actor,
) -> Result<Vec<Reply>, ExecError> {
    match holding(store, req.now, board, &actor.account.userid)? {
        Some((held, game)) => release(store, req, held, game, None),
        None => Ok(vec![to_sender(
            req,
            &subjects::challenge_message(),
            held_text::not_held(board),
        )]),
    }
}

/// A challenge proven by `actor`'s password between the two `players` of a game
/// whose message `actor`'s unproven challenge left held: that message passed on (or
/// this mail's body instead, when it has one), and no second game started. `None`
/// when no such message is held.
pub(super) fn by_challenge(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    players: [&UserId; 2],
) -> Result<Option<Vec<Reply>>, ExecError> {
    let me = &actor.account.userid;
    for held in store.held_messages()? {
        let pair = [&held.from, &held.to];
        if held.from != *me || !players.iter().all(|p| pair.contains(p)) {
            continue;
        }
        if let Some((held, game)) = holding(store, req.now, held.board, me)? {
            let own = (!req.comment.trim().is_empty()).then_some(req.comment);
            return release(store, req, held, game, own).map(Some);
        }
    }
    Ok(None)
}

/// The message `challenger` holds on `board` while it holds (not expired, its game
/// not over), with the game; one that no longer holds is removed.
fn holding(
    store: &Store,
    now: u64,
    board: BoardId,
    challenger: &UserId,
) -> Result<Option<(HeldMessage, GameRef)>, ExecError> {
    let Some(held) = store.held_message(board)? else {
        return Ok(None);
    };
    if held.from != *challenger {
        return Ok(None);
    }
    let live = match store.game(board)? {
        Some(file) => Some(LiveGame::load(file)?),
        None => None,
    };
    match live {
        Some(live) if !live.game().is_over() && !held.expired(now) => {
            Ok(Some((held, GameRef::of(&live))))
        }
        _ => {
            store.drop_held_message(board)?;
            Ok(None)
        }
    }
}

/// `held` passed on to its opponent, as a chat on the board (`text` instead of its
/// own when given), and removed; with the challenger's receipt.
fn release(
    store: &Store,
    req: &Asked<'_>,
    held: HeldMessage,
    game: GameRef,
    text: Option<&str>,
) -> Result<Vec<Reply>, ExecError> {
    store.drop_held_message(held.board)?;
    let text = text.unwrap_or(&held.text);
    let mut out = Vec::new();
    if let Some(opponent) = store.account(&held.to)?.filter(|a| !a.addresses.is_empty()) {
        out.push(Reply {
            to: opponent.addresses.clone(),
            subject: subjects::chat(held.board, &held.from),
            body: held_text::to_opponent(text, &held.from, held.board),
            foreign: Foreign::All,
            html: None,
            thread: Thread::chat(store, game, &held.to)?,
            audience: Audience::Players,
            ..Reply::default()
        });
    }
    out.push(to_sender(
        req,
        &subjects::challenge_message_passed_on(held.board),
        held_text::passed_on(held.board, &held.to),
    ));
    Ok(out)
}
