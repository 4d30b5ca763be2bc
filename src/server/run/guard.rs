//! The one gate every reply of a mail passes before it is committed: when
//! `[security] confirm_addresses` is on, a recipient address that no account has
//! confirmed (a stranger's Reply-To included) gets no text another person chose
//! (the reply's [`Foreign`] part is left out; a chat, message or broadcast is not
//! sent at all), and at most `unconfirmed_mails_per_day` mails a day (the count is
//! in `<home>/quota/`, inside the mail's transaction); the rest are dropped with a
//! log line. `deliver` and `tick` both pass their mails through it; [`expire`] is
//! `tick`'s daily clean-up of the seen marks and counts the gate and the limits keep.

use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::exec::context::Foreign;
use crate::server::exec::{InternalError, Reply};
use crate::server::store::Store;

/// Expire old seen marks, storm counts and past days' counts (the store does it once
/// a day); the line to log, if anything was done or failed. `deliver` and `tick` both
/// call it, and a failure here fails neither.
pub fn expire(store: &Store, settings: &Settings, now: u64) -> Option<String> {
    match store.expire(now, settings.rate_limit.period) {
        Ok(0) => None,
        Ok(n) => Some(format!(
            "expired {n} old seen marks and storm counts (and past days' counts)"
        )),
        Err(e) => Some(format!("expiring old seen marks failed: {e}")),
    }
}

/// The replies as they may be sent; `note` gets a line for each address left out.
pub fn guard(
    store: &Store,
    settings: &Settings,
    now: u64,
    replies: Vec<Reply>,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if !settings.confirm_addresses {
        return Ok(replies);
    }
    let mut out = Vec::with_capacity(replies.len());
    for reply in replies {
        let mut sure: Vec<Address> = Vec::new();
        let mut unsure: Vec<Address> = Vec::new();
        for a in &reply.to {
            if store.is_confirmed(a)? {
                sure.push(a.clone());
            } else if reply.foreign == Foreign::All {
                note(format!(
                    "not sent to {a} (address not confirmed): {}",
                    reply.subject
                ));
            } else if store.count_unconfirmed_mail(a, now, settings.unconfirmed_mails_per_day)? {
                unsure.push(a.clone());
            } else {
                note(format!(
                    "not sent to {a}: over {} mails today to an unconfirmed address: {}",
                    settings.unconfirmed_mails_per_day, reply.subject
                ));
            }
        }
        if !unsure.is_empty() {
            let body = match &reply.foreign {
                Foreign::Part(without) => without.clone(),
                _ => reply.body.clone(),
            };
            out.push(Reply {
                to: unsure,
                subject: reply.subject.clone(),
                body,
                foreign: Foreign::Nothing,
                html: None,
                thread: reply.thread.clone(),
            });
        }
        if !sure.is_empty() {
            out.push(Reply { to: sure, ..reply });
        }
    }
    Ok(out)
}
