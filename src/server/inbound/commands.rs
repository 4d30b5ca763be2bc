//! What one mail asks, carried out inside its transaction: the per-sender storm limit
//! and the size limit judged first, then what its Subject asks (read once by
//! `incoming.rs`: a reply to one of our mails, one command, or each line of a
//! `multiple`), each command proved once (`identity::prove`) and executed within the
//! per-mail bounds; returns the replies and the proofs. Each line is read by
//! `line.rs`: its replies show its words already masked.

use crate::mail::Address;
use crate::server::command::redact;
use crate::server::command::{Command, CommandError};
use crate::server::exec::{Proven, Request};
use crate::server::internal::InternalError;
use crate::server::outgoing::{Cause, Foreign, Reply};
use crate::server::store::{RateVerdict, Store};
use crate::server::text::{notices, subjects};

use super::answered::Answered;
use super::by_reply;
use super::identity::{self, Offered};
use super::incoming::{Asks, Incoming, Lines};
use super::line;
use super::syntax;

/// Challenges one mail may carry: each one mails two players, who need not be the
/// sender.
pub const CHALLENGES_PER_MAIL: usize = 3;

/// The proof the storm limit judged, kept for the command it proved: the reply's
/// token, or the Subject's command.
pub enum Judged {
    /// Nothing proved yet: each command is proved when it is carried out.
    Nothing,
    /// The proof of the mail's reply tokens (`Offered::Reply`).
    Reply(Proven),
    /// The proof of the Subject's command (`Offered::Command`).
    Subject(Proven),
}

/// Judge the mail (storm limit, size) and carry its commands out as `req` (the mail,
/// built once) says, through the store's open transaction; returns the replies and
/// the proofs. `note` gets the log lines.
pub fn decide(
    store: &Store,
    mail: &Incoming,
    req: &Request<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    let settings = req.settings;
    let now = req.now;
    let id = mail.inbound.message_id.as_deref().unwrap_or("(no id)");
    let limit = &settings.rate_limit;
    // Forged mails in a player's name must not silence the player, and honest play is
    // never throttled: only mail that proves no sender counts against the storm limit,
    // and a mail over it that proves its sender (the right password, a genuine reply
    // token, of an account with a confirmed address) is still carried out.
    let mut judged = Judged::Nothing;
    if let Some(sender) = req.reply_to
        && store.over_limit(limit, sender, now)
    {
        judged = judge(store, mail, req, note)?;
        let proves = match &judged {
            Judged::Reply(p) | Judged::Subject(p) => identity::proves_sender(p, req),
            Judged::Nothing => false,
        };
        if !proves {
            return dropped(store, mail, req, sender, note).map(Answered::unproved);
        }
        note(format!(
            "{id} is over the storm limit but proves its sender: handled"
        ));
    }
    let out = if mail.too_big {
        note(format!(
            "refused {id}: {} bytes is over the limit of {}",
            mail.total_size, settings.max_message_bytes
        ));
        Answered::unproved(notice(
            req,
            notices::too_big(mail.total_size, settings.max_message_bytes),
        ))
    } else {
        run_commands(store, mail, req, judged, note)?
    };
    if let Some(sender) = req.reply_to
        && !out.proofs.iter().any(|p| p.cause == Cause::Owner)
    {
        // Under the limit (checked above): counted, and allowed.
        store.count_mail(limit, sender, now)?;
    }
    // The owner's own mails that only the mail proved: counted in their daily cap.
    identity::count_own(store, req, &out.proofs)?;
    Ok(out)
}

/// The proof of a mail over the storm limit: its reply tokens' when they name the
/// owner of an account, else its Subject's command's.
fn judge(
    store: &Store,
    mail: &Incoming,
    req: &Request<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Judged, InternalError> {
    if !mail.tokens.is_empty() {
        let proven = identity::prove(store, req, Offered::Reply(&mail.tokens), note)?;
        if identity::proves_sender(&proven, req) || matches!(mail.asks, Asks::Reply(_)) {
            return Ok(Judged::Reply(proven));
        }
    }
    Ok(match &mail.asks {
        Asks::Command(Ok(cmd)) => {
            Judged::Subject(identity::prove(store, req, Offered::Command(cmd), note)?)
        }
        _ => Judged::Nothing,
    })
}

/// The answer to a mail from `sender` over the storm limit that proves no sender:
/// counted, and dropped; the first of the period gets the one notice saying until
/// when.
fn dropped(
    store: &Store,
    mail: &Incoming,
    req: &Request<'_>,
    sender: &Address,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    let limit = &req.settings.rate_limit;
    let id = mail.inbound.message_id.as_deref().unwrap_or("(no id)");
    let verdict = store.count_mail(limit, sender, req.now)?;
    let until = match verdict {
        RateVerdict::DropAndNotify { until } => Some(until),
        RateVerdict::Drop | RateVerdict::Allow => None,
    };
    note(format!(
        "dropped {id}: over the limit of {} mails in {} s{}",
        limit.max,
        limit.period,
        if until.is_some() {
            " (notice sent)"
        } else {
            ""
        }
    ));
    Ok(match until {
        Some(until) => notice(req, notices::storm(limit.max, limit.period, until)),
        None => Vec::new(),
    })
}

/// A short notice to the mail's reply address (no quote of the original).
fn notice(req: &Request<'_>, text: String) -> Vec<Reply> {
    req.reply_to
        .iter()
        .map(|to| Reply {
            to: vec![(*to).clone()],
            subject: subjects::error(),
            body: format!("{text}\n"),
            ..Reply::default()
        })
        .collect()
}

/// Carry out what the mail asks (the Subject's command, or for `multiple` each body
/// line), within the per-mail bounds: at most `commands_per_mail` lines of a
/// `multiple`, [`CHALLENGES_PER_MAIL`] challenges, and `replies_per_mail` replies (the
/// commands stop there, and the sender is told what was not done); an admin's
/// `broadcast` alone in its mail reaches every player. A reply to one of our mails is
/// [`by_reply`]'s; `judged` is the proof the storm limit made, used for the command
/// it proved; `note` gets the log lines.
fn run_commands(
    store: &Store,
    mail: &Incoming,
    req: &Request<'_>,
    judged: Judged,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    let mut out = match &mail.asks {
        // A reply to one of our mails (Re: Yinsh Board ..., a reply token) is not a
        // command.
        Asks::Reply(text) => {
            let token = match judged {
                Judged::Reply(proven) => Some(proven),
                _ => None,
            };
            by_reply::answer(store, mail, req, text, token, note)?
        }
        Asks::Multiple(lines) => run_multiple(store, req, lines, note)?,
        Asks::Command(parsed) => {
            let mut parsed = parsed.clone();
            line::reveal(store, &mut parsed)?;
            let cmd = match parsed {
                Ok(cmd) => cmd,
                Err(e) => {
                    // A mistyped Subject from its owner's own confirmed mailbox is
                    // answered there, as the owner's.
                    let proven = identity::unproved(store, req, &[], note)?;
                    let replies = syntax::error_mail(req, &e, None, proven.original(req))
                        .into_iter()
                        .collect();
                    let replies = identity::answered_as(&proven, replies);
                    return Ok(Answered::of(replies, proven));
                }
            };
            let proven = match judged {
                Judged::Subject(proven) => proven,
                _ => identity::prove(store, req, Offered::Command(&cmd), note)?,
            };
            let comment = &mail.inbound.comment;
            let replies = identity::act(store, req, &proven, &cmd, comment)?;
            let out = Answered::of(replies, proven);
            // An admin's broadcast goes to every player: it is the one mail meant for all.
            if matches!(cmd, Command::Broadcast { .. }) {
                return Ok(out);
            }
            out
        }
    };
    let max_replies = req.settings.replies_per_mail;
    if out.replies.len() > max_replies {
        let all = out.replies.len();
        out.replies.truncate(max_replies - 1);
        out.replies.extend(notice(
            req,
            notices::replies_capped(all, max_replies - 1, max_replies),
        ));
    }
    Ok(out)
}

/// The lines of a `multiple` body, each a command proved and carried out, up to the
/// per-mail bounds; the sender is told what was not done.
fn run_multiple(
    store: &Store,
    req: &Request<'_>,
    lines: &Lines,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    let settings = req.settings;
    let max_replies = settings.replies_per_mail;
    let mut out = Answered::default();
    let (mut done, mut challenges) = (0, 0);
    for (line, parsed) in &lines.read {
        if out.replies.len() >= max_replies - 1 {
            break;
        }
        done += 1;
        let mut parsed = parsed.clone();
        line::reveal(store, &mut parsed)?;
        match parsed {
            Ok(Command::Challenge { .. }) if challenges == CHALLENGES_PER_MAIL => {
                note(format!(
                    "a challenge over the cap of {CHALLENGES_PER_MAIL} a mail: not made"
                ));
                let cap = notices::challenges_capped(CHALLENGES_PER_MAIL);
                out.replies.extend(notice(
                    req,
                    notices::in_the_line(&redact::loggable(line), &cap),
                ));
                // An unconfirmed address is not shown the line: its userids may be
                // any words a stranger chose.
                if let Some(r) = out.replies.last_mut() {
                    r.foreign = Foreign::Part(format!("{cap}\n"));
                }
            }
            Ok(cmd) => {
                challenges += usize::from(matches!(cmd, Command::Challenge { .. }));
                let proven = identity::prove(store, req, Offered::Command(&cmd), note)?;
                let replies = identity::act(store, req, &proven, &cmd, "")?;
                out.extend(Answered::of(replies, proven));
            }
            Err(e) => out
                .replies
                .extend(syntax::error_mail(req, &e, Some(line), req.quoted)),
        }
    }
    let total = lines.total;
    if done < total {
        note(format!(
            "multiple cut short: {done} of its {total} lines carried out"
        ));
        out.replies.truncate(max_replies - 1);
        out.replies.extend(notice(
            req,
            notices::commands_capped(done, total, settings.commands_per_mail, max_replies),
        ));
    }
    if out.replies.is_empty() {
        out.replies.extend(syntax::error_mail(
            req,
            &CommandError::Empty,
            Some("multiple: the body holds no command"),
            req.quoted,
        ));
    }
    Ok(out)
}
