//! The owner's own mails that no password proves: a mail proves its owner
//! ([`Proven::vouched`]) when its From is a confirmed address the trusted mail
//! system's checks passed (`FromAuth::Pass` with `[security] trusted_authserv_id`),
//! or when it carries its player's genuine reply token, whatever its first line says.
//! Such a mail is answered at that mailbox only, as the owner's (`Cause::Owner`,
//! never in a stranger's budget), up to [`OWN_MAILS_PER_DAY`] a day (`<home>/own/`),
//! past which it is a stranger's again. Without trusted checks a password-less
//! mail proves nothing: anyone can write any From.

use crate::mail::Address;
use crate::mail::auth_results::FromAuth;
use crate::server::exec::{Proven, Request};
use crate::server::internal::InternalError;
use crate::server::outgoing::{Cause, Reply};
use crate::server::store::{ReplyToken, Store};

use super::{by_reply_token, proven_for};

/// Mails a day whose owner the mail alone proves ([`Proven::vouched`]: a
/// password-less command from a confirmed From the trusted checks passed, or in a
/// reply carrying its player's token; a token's reply refused) answered as the
/// owner's at one mailbox: a player's busy day is a dozen or two; past 50 the mail
/// is a stranger's, so that a loop with an auto-responder that writes no
/// `Auto-Submitted` ends within the stranger's budget.
pub const OWN_MAILS_PER_DAY: u32 = 50;

/// The daily counts (`store::daily`) of [`OWN_MAILS_PER_DAY`].
const OWN_FOLDER: &str = "own";

/// The mail's From when it proves a password-less command its owner's: nobody else
/// was proved or refused, the trusted mail system's checks passed for it
/// (`FromAuth::Pass`, `[security] trusted_authserv_id`) and an account confirmed it.
pub(super) fn trusted_own_from(
    store: &Store,
    req: &Request<'_>,
    proven: &Proven,
) -> Result<Option<Address>, InternalError> {
    let Some(from) = req.from else {
        return Ok(None);
    };
    if proven.actor.is_some()
        || proven.refusal.is_some()
        || req.from_auth != FromAuth::Pass
        || !req.settings.confirm_addresses
        || !store.is_confirmed(from)?
    {
        return Ok(None);
    }
    Ok(Some(from.clone()))
}

/// `proven` made its owner's at the confirmed mailbox `own`: [`Cause::Owner`], its
/// answers to `own` (never to a Reply-To elsewhere), counted in `own`'s daily cap
/// ([`OWN_MAILS_PER_DAY`]); past the cap, a stranger's (`Cause::Stranger`, budgeted
/// by the gate), so that a mail loop with the owner's mailbox ends.
pub(super) fn vouch(
    store: &Store,
    req: &Request<'_>,
    own: Address,
    proven: &mut Proven,
    note: &mut dyn FnMut(String),
) -> Result<(), InternalError> {
    let used = store.counted_today(OWN_FOLDER, &own.canonical(), req.now)?;
    if used >= OWN_MAILS_PER_DAY {
        note(format!(
            "{own} had {OWN_MAILS_PER_DAY} own mails without a password or a move answered today: \
             this one is a stranger's"
        ));
        proven.cause = Cause::Stranger;
        return Ok(());
    }
    proven.cause = Cause::Owner;
    proven.answer_to = Some(own.clone());
    proven.vouched = Some(own);
    Ok(())
}

/// `proven`, the proof of a reply's first line written as a command, made the
/// reply token's player's when the command itself names nobody (`yinsh standings`,
/// `help` in a reply to a board mail): a genuine token of a confirmed player proves
/// the mail theirs whatever its first line says.
pub fn vouched_by_reply(
    store: &Store,
    req: &Request<'_>,
    tokens: &[ReplyToken],
    proven: &mut Proven,
    note: &mut dyn FnMut(String),
) -> Result<(), InternalError> {
    if tokens.is_empty()
        || proven.cause == Cause::Owner
        || proven.actor.is_some()
        || proven.refusal.is_some()
    {
        return Ok(());
    }
    let token = by_reply_token(store, req, tokens, note)?;
    match token.answer_to {
        Some(own) if token.cause == Cause::Owner => vouch(store, req, own, proven, note),
        _ => Ok(()),
    }
}

/// The proof of a mail whose words prove nothing themselves (a Subject or a reply's
/// first line that is no command): a stranger's at the mail's reply address, unless
/// the mail proves its owner, by a confirmed From the trusted checks passed or by
/// its player's genuine reply token among `tokens` (`vouch`).
pub fn unproved(
    store: &Store,
    req: &Request<'_>,
    tokens: &[ReplyToken],
    note: &mut dyn FnMut(String),
) -> Result<Proven, InternalError> {
    let mut proven = proven_for(req, None, None);
    match trusted_own_from(store, req, &proven)? {
        Some(from) => vouch(store, req, from, &mut proven, note)?,
        None => vouched_by_reply(store, req, tokens, &mut proven, note)?,
    }
    Ok(proven)
}

/// `replies` (made for the mail's reply address) as `proven` answers them: to the
/// owner's own mailbox and as the owner's when the mail vouched for one
/// ([`Proven::vouched`]); else unchanged.
pub fn answered_as(proven: &Proven, mut replies: Vec<Reply>) -> Vec<Reply> {
    if let Some(own) = &proven.vouched {
        for r in &mut replies {
            r.to = vec![own.clone()];
            r.cause = Cause::Owner;
        }
    }
    replies
}

/// Counts one of the owner's own mails of the day at each mailbox a proof of the
/// mail vouched for ([`Proven::vouched`]; [`OWN_MAILS_PER_DAY`]).
pub fn count_own(store: &Store, req: &Request<'_>, proofs: &[Proven]) -> Result<(), InternalError> {
    let mut counted: Vec<String> = Vec::new();
    for own in proofs.iter().filter_map(|p| p.vouched.as_ref()) {
        let mailbox = own.canonical();
        if !counted.contains(&mailbox) {
            store.count_today(OWN_FOLDER, &mailbox, req.now)?;
            counted.push(mailbox);
        }
    }
    Ok(())
}
