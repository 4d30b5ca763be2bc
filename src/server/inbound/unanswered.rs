//! Being a well-behaved mail robot (RFC 3834 and common sense): which mails are never
//! answered (bounces, other robots, mailing lists, our own mail coming back). The same
//! mail delivered twice and the per-sender storm limit are kept by the store
//! (`store::seen`).

use crate::mail::{InboundMail, strip_angles};

/// Why a mail is dropped without an answer, if it is.
///
/// `envelope_sender` is what the mail system passed (`--sender`), else the
/// Return-Path header; `loop_id` is our own `X-Loop` value.
pub fn drop_reason(
    mail: &InboundMail,
    envelope_sender: Option<&str>,
    loop_id: &str,
) -> Option<String> {
    let sender = envelope_sender
        .map(str::to_string)
        .or_else(|| mail.return_path.clone());
    match &sender {
        Some(s) => {
            let s = strip_angles(s);
            if s.is_empty() {
                return Some("empty return path (a bounce)".into());
            }
            let local = local_part(s);
            if local == "mailer-daemon" || local == "postmaster" && s.contains("mailer") {
                return Some(format!("return path {s} is a mailer daemon"));
            }
        }
        // No envelope sender at all: a daemon's From tells a bounce.
        None => {
            if let Some(f) = mail.from.as_deref()
                && matches!(local_part(f).as_str(), "mailer-daemon" | "postmaster")
            {
                return Some(format!("From {f} is a mailer daemon (no return path)"));
            }
        }
    }
    if let Some(a) = &mail.auto_submitted {
        let v = a.trim().to_ascii_lowercase();
        if !v.is_empty() && v != "no" && !v.starts_with("no;") && !v.starts_with("no ") {
            return Some(format!("Auto-Submitted: {}", a.trim()));
        }
    }
    if let Some(a) = &mail.x_autoreply
        && !a.trim().eq_ignore_ascii_case("no")
    {
        return Some(format!("X-Autoreply: {}", a.trim()));
    }
    if mail.x_autorespond.is_some() {
        return Some("X-Autorespond present (an automatic reply)".into());
    }
    if let Some(p) = &mail.precedence {
        let v = p.trim().to_ascii_lowercase();
        if matches!(v.as_str(), "bulk" | "list" | "junk" | "auto_reply") {
            return Some(format!("Precedence: {v}"));
        }
    }
    if mail
        .list_id
        .as_deref()
        .is_some_and(|l| !l.trim().is_empty())
    {
        return Some("List-Id present (mailing list traffic)".into());
    }
    if mail
        .x_loop
        .iter()
        .any(|x| x.trim().eq_ignore_ascii_case(loop_id))
    {
        return Some(format!("X-Loop: {loop_id} (our own mail came back)"));
    }
    // Whoever a reply would go to must not be ourselves: no mail to ourselves, ever.
    let ours = [
        ("From", mail.from.as_deref()),
        ("Reply-To", mail.reply_to.as_deref()),
        ("the envelope sender", sender.as_deref()),
    ];
    for (what, address) in ours {
        if address.is_some_and(|a| strip_angles(a).eq_ignore_ascii_case(loop_id)) {
            return Some(format!("{what} is our own address"));
        }
    }
    None
}

/// The local part of an address, lower-cased.
fn local_part(address: &str) -> String {
    address.split('@').next().unwrap_or("").to_ascii_lowercase()
}
