//! Draw offers and take-back requests with their answers: `yinsh move board userid
//! password propose|undo|accept|reject`.
//!
//! `undo` asks to take back the requester's own last turn: that turn, the server's
//! automatic passes after it, and whatever the opponent played since are removed
//! (so after an accepted undo it is the requester's turn again, at the position
//! before their move). Any new turn cancels a pending offer. A player's offers and
//! answers on one move keep one comment of theirs: a later one replaces it.
//! A robot answers an offer made to it at once ([`robots::answer_offer`]).

use crate::rules::Color;
use crate::server::command::OfferAction;
use crate::server::game::extra::{self, Offer};
use crate::server::game::record::LiveGame;
use crate::server::game::robots;
use crate::server::model::BoardId;
use crate::server::model::{EndReason, OfferKind, UserId};
use crate::server::outgoing::Reply;
use crate::server::outgoing::board_mails::board_mails;
use crate::server::store::{Account, Store};
use crate::server::text::offers;
use crate::server::text::reply::Event;

use super::context::{Asked, load_for_player};
use super::error::{ExecError, Refusal};

/// The turn number (1-based) of `userid`'s last own (not automatic) turn.
fn last_own_turn(live: &LiveGame, userid: &UserId) -> Option<usize> {
    live.file()
        .turns
        .iter()
        .rposition(|t| !t.auto && t.by == *userid)
        .map(|k| k + 1)
}

/// `yinsh move board userid password propose|undo|accept|reject`
pub(super) fn offer(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
    action: OfferAction,
) -> Result<Vec<Reply>, ExecError> {
    let (mut live, side) = load_for_player(store, board, account)?;
    let me = account.userid.clone();
    let other = live.player(side.other()).clone();
    let note = match action {
        OfferAction::Propose | OfferAction::Undo => propose(&mut live, board, &me, &other, action)?,
        OfferAction::Accept | OfferAction::Reject => {
            answer(&mut live, board, (&me, side), other, action, req.now)?
        }
    };
    // A robot answers at once (by its rule), in place of the line that says how to.
    let note = match robots::answer_offer(&mut live, req.now) {
        Some(answer) => offers::answered_by_robot(&note, &answer),
        None => note,
    };
    live.mark_updated(req.now);
    let turn = live.next_turn_number();
    live.replace_comment(turn, &me, req.now, req.comment);
    store.put_game(live.file())?;
    Ok(board_mails(
        store,
        &live,
        Event::Note(note),
        Some((me.as_str(), req.comment)),
    )?)
}

/// `propose` or `undo` by `me`, whose opponent is `other`: the offer stored, and the
/// line of the board mail that tells it; refused while `other`'s offer waits.
fn propose(
    live: &mut LiveGame,
    board: BoardId,
    me: &UserId,
    other: &UserId,
    action: OfferAction,
) -> Result<String, ExecError> {
    if let Some(p) = extra::offer(live.file()).filter(|p| p.by != *me) {
        return Err(Refusal::OfferWaiting {
            board,
            by: other.clone(),
            kind: p.kind,
            me: me.clone(),
        }
        .into());
    }
    let (kind, note) = if action == OfferAction::Undo {
        let Some(k) = last_own_turn(live, me) else {
            return Err(Refusal::NothingToTakeBack { board }.into());
        };
        let t = &live.file().turns[k - 1];
        let after = live.file().turns.len() - k;
        (OfferKind::Undo, offers::undo_asked(me, k, &t.text, after))
    } else {
        (OfferKind::Draw, offers::draw_proposed(me))
    };
    let turns = live.file().turns.len();
    extra::set_offer(
        live.extra_mut(),
        Some(Offer {
            kind,
            by: me.clone(),
            turns,
        }),
    );
    Ok(offers::how_to_answer(&note, other, board))
}

/// `accept` or `reject` by `me` (playing `side`) of `other`'s offer: the draw agreed
/// or the turns taken back, and the line of the board mail that tells it; refused
/// when no offer of the opponent waits.
fn answer(
    live: &mut LiveGame,
    board: BoardId,
    (me, side): (&UserId, Color),
    other: UserId,
    action: OfferAction,
    now: u64,
) -> Result<String, ExecError> {
    let Some(p) = extra::offer(live.file()).filter(|p| p.by != *me) else {
        return Err(Refusal::NoOfferToAnswer { board, other }.into());
    };
    extra::set_offer(live.extra_mut(), None);
    if action == OfferAction::Reject {
        return Ok(offers::rejected(me, &p.by, p.kind));
    }
    if p.kind == OfferKind::Draw {
        if live.end(EndReason::DrawAgreed, side, now).is_err() {
            return Err(Refusal::GameEnded { board }.into());
        }
        return Ok(offers::draw_accepted(me, &p.by));
    }
    let Some(k) = last_own_turn(live, &p.by) else {
        return Err(Refusal::NoMoveLeftToTakeBack { board }.into());
    };
    let text = live.file().turns[k - 1].text.clone();
    let n = live.take_back_from(k, now)?;
    Ok(offers::taken_back(me, &p.by, k, &text, n))
}
