//! What one mail asks, carried out inside its transaction: the per-sender storm limit
//! and the size limit judged first, then the Subject (or, for `multiple`, each body
//! line) parsed and executed within the per-mail bounds; returns the replies. Each
//! line is read by `line.rs`: its replies show its words already masked.

use crate::mail::{Address, InboundMail};
use crate::server::command::redact;
use crate::server::command::{Command, CommandError};
use crate::server::config::Settings;
use crate::server::exec::Request;
use crate::server::internal::InternalError;
use crate::server::outgoing::{Cause, Foreign, Reply};
use crate::server::store::{RateVerdict, Store};
use crate::server::text::{notices, subjects};

use super::by_reply;
use super::identity;
use super::line;
use super::syntax;

/// Challenges one mail may carry: each one mails two players, who need not be the
/// sender.
pub const CHALLENGES_PER_MAIL: usize = 3;

/// What [`decide`] needs about the mail being handled.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The server's settings.
    pub settings: &'a Settings,
    /// The request the commands run with (reply address, comment, quote, clock).
    pub request: &'a Request<'a>,
    /// The parsed mail.
    pub inbound: &'a InboundMail,
    /// Whether the mail is over the size limit (then only its headers were parsed).
    pub too_big: bool,
    /// The mail's whole size in bytes.
    pub total_size: usize,
}

/// Judge the mail (storm limit, size) and carry its commands out, through the store's
/// open transaction; returns the replies. `note` gets the log lines.
pub fn decide(
    store: &Store,
    ctx: &Context<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    let Context {
        settings,
        request,
        inbound,
        too_big,
        total_size,
    } = *ctx;
    let now = request.now;
    let id = inbound.message_id.as_deref().unwrap_or("(no id)");
    let limit = &settings.rate_limit;
    // Forged mails in a player's name must not silence the player, and honest play is
    // never throttled: only mail that proves no sender counts against the storm limit,
    // and a mail over it that proves its sender (the right password, a genuine reply
    // token, of an account with a confirmed address) is still carried out.
    if let Some(sender) = &request.reply_to
        && store.over_limit(limit, sender, now)
    {
        if identity::proves_sender(store, inbound, request)? {
            note(format!(
                "{id} is over the storm limit but proves its sender: handled"
            ));
        } else {
            return dropped(store, ctx, sender, note);
        }
    }
    let out = if too_big {
        note(format!(
            "refused {id}: {total_size} bytes is over the limit of {}",
            settings.max_message_bytes
        ));
        notice(
            request,
            notices::too_big(total_size, settings.max_message_bytes),
        )
    } else {
        run_commands(store, settings, request, inbound, note)?
    };
    if let Some(sender) = &request.reply_to
        && !out.iter().any(|r| r.cause == Cause::Proven)
    {
        // Under the limit (checked above): counted, and allowed.
        store.count_mail(limit, sender, now)?;
    }
    Ok(out)
}

/// The answer to a mail from `sender` over the storm limit that proves no sender:
/// counted, and dropped; the first of the period gets the one notice saying until
/// when.
fn dropped(
    store: &Store,
    ctx: &Context<'_>,
    sender: &Address,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    let limit = &ctx.settings.rate_limit;
    let id = ctx.inbound.message_id.as_deref().unwrap_or("(no id)");
    let verdict = store.count_mail(limit, sender, ctx.request.now)?;
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
        Some(until) => notice(ctx.request, notices::storm(limit.max, limit.period, until)),
        None => Vec::new(),
    })
}

/// A short notice to the sender (no quote of the original).
fn notice(req: &Request<'_>, text: String) -> Vec<Reply> {
    req.reply_to
        .iter()
        .map(|to| Reply {
            to: vec![to.clone()],
            subject: subjects::error(),
            body: format!("{text}\n"),
            ..Reply::default()
        })
        .collect()
}

/// Parse the Subject (and for `multiple`, each body line) and carry the commands out,
/// within the per-mail bounds: at most `commands_per_mail` lines of a `multiple`,
/// [`CHALLENGES_PER_MAIL`] challenges, and `replies_per_mail` replies (the commands
/// stop there, and the sender is told what was not done); an admin's `broadcast`
/// alone in its mail reaches every player. A reply to one of our mails is
/// [`by_reply`]'s; `note` gets its log lines.
fn run_commands(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    inbound: &InboundMail,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    // A reply to one of our mails (Re: Yinsh Board ..., a reply token) is not a command.
    let mut out = if let Some(replies) = by_reply::answer(store, settings, req, inbound, note)? {
        replies
    } else {
        let mut parsed = Command::parse(&inbound.subject);
        line::reveal(store, &mut parsed)?;
        match parsed {
            Ok(Command::Multiple) => run_multiple(store, settings, req, &inbound.body, note)?,
            // An admin's broadcast goes to every player: it is the one mail meant for all.
            Ok(cmd @ Command::Broadcast { .. }) => return identity::act(store, req, &cmd),
            Ok(cmd) => identity::act(store, req, &cmd)?,
            Err(e) => syntax::error_mail(req, &e, None).into_iter().collect(),
        }
    };
    let max_replies = settings.replies_per_mail;
    if out.len() > max_replies {
        let all = out.len();
        out.truncate(max_replies - 1);
        out.extend(notice(
            req,
            notices::replies_capped(all, max_replies - 1, max_replies),
        ));
    }
    Ok(out)
}

/// The lines of a `multiple` body, each a command, up to the per-mail bounds; the
/// sender is told what was not done.
fn run_multiple(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    body: &str,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    let max_replies = settings.replies_per_mail;
    let mut out = Vec::new();
    let sub = Request {
        comment: "",
        reply_to: req.reply_to.clone(),
        ..*req
    };
    // The lines are read one by one and the rest only counted: a list of all of them
    // (40,000 in a 1 MiB body) was 1 MiB more at the time of the password checks.
    let mut lines = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take_while(|l| *l != "--" && !l.starts_with("-- "));
    let (mut done, mut challenges, mut read) = (0, 0, 0);
    for line in lines.by_ref() {
        read += 1;
        if done == settings.commands_per_mail || out.len() >= max_replies - 1 {
            break;
        }
        done += 1;
        let mut parsed = Command::parse(line);
        line::reveal(store, &mut parsed)?;
        match parsed {
            Ok(Command::Challenge { .. }) if challenges == CHALLENGES_PER_MAIL => {
                note(format!(
                    "a challenge over the cap of {CHALLENGES_PER_MAIL} a mail: not made"
                ));
                let cap = notices::challenges_capped(CHALLENGES_PER_MAIL);
                out.extend(notice(
                    &sub,
                    notices::in_the_line(&redact::loggable(line), &cap),
                ));
                // An unconfirmed address is not shown the line: its userids may be
                // any words a stranger chose.
                if let Some(r) = out.last_mut() {
                    r.foreign = Foreign::Part(format!("{cap}\n"));
                }
            }
            Ok(cmd) => {
                challenges += usize::from(matches!(cmd, Command::Challenge { .. }));
                out.extend(identity::act(store, &sub, &cmd)?);
            }
            Err(e) => out.extend(syntax::error_mail(&sub, &e, Some(line))),
        }
    }
    let total = read + lines.count();
    if done < total {
        note(format!(
            "multiple cut short: {done} of its {total} lines carried out"
        ));
        out.truncate(max_replies - 1);
        out.extend(notice(
            req,
            notices::commands_capped(done, total, settings.commands_per_mail, max_replies),
        ));
    }
    if out.is_empty() {
        out.extend(syntax::error_mail(
            req,
            &CommandError::Empty,
            Some("multiple: the body holds no command"),
        ));
    }
    Ok(out)
}
