//! Delivery status notifications: [`read_dsn`] tells whether a mail is a bounce and,
//! if so, which recipients failed for good (a hard bounce: status 5.x.x, or action
//! `failed`) or only for now (4.x.x, `delayed`). It reads RFC 3464
//! `multipart/report; report-type=delivery-status` (Postfix, Exim with its DSN
//! option, Gmail, Outlook and Exchange send these) and the common shapes without it:
//! Exim's plain `Mail delivery failed` text (the failed address on its own indented
//! line after "could not be delivered"), and qmail's `<address>:` paragraphs.
//!
//! Who the bounce is about is decided elsewhere, by the VERP address it came back to
//! (`mail::verp`): the recipients read here only say *how* it failed, and are never
//! trusted alone (anyone can write a DSN).

use mail_parser::{MessageParser, MimeHeaders as _};

/// How one recipient's delivery failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Failed for good (5.x.x, `Action: failed`): a hard bounce.
    Hard,
    /// Failed for now or delayed (4.x.x, `delayed`): the mail system tries again.
    Soft,
}

/// What a delivery status notification says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dsn {
    /// Each recipient named (lower case, without `rfc822;`) and how it failed.
    pub recipients: Vec<(String, Failure)>,
    /// The notification's shape, for the log: `multipart/report` or `plain text`.
    pub shape: &'static str,
    /// Its Message-ID (empty when it has none): a copy counts once.
    pub id: String,
}

impl Dsn {
    /// Whether any recipient failed for good.
    pub fn is_hard(&self) -> bool {
        self.recipients.iter().any(|(_, f)| *f == Failure::Hard)
    }
}

/// The most recipients read from one notification.
const MAX_RECIPIENTS: usize = 50;

/// Reads `raw` as a delivery status notification; `None` when it is not one.
pub fn read_dsn(raw: &[u8]) -> Option<Dsn> {
    let msg = MessageParser::default().parse(raw)?;
    let id = msg.message_id().unwrap_or("").to_string();
    let report = msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    if report {
        for part in msg.parts.iter() {
            let Some(ct) = part.content_type() else {
                continue;
            };
            let sub = ct.subtype().unwrap_or("").to_ascii_lowercase();
            if ct.ctype().eq_ignore_ascii_case("message")
                && (sub == "delivery-status" || sub == "global-delivery-status")
            {
                let text = String::from_utf8_lossy(part.contents());
                let recipients = delivery_status(&text);
                if !recipients.is_empty() {
                    return Some(Dsn {
                        recipients,
                        shape: "multipart/report",
                        id,
                    });
                }
            }
        }
    }
    let text = msg.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
    let subject = msg.subject().unwrap_or("").to_ascii_lowercase();
    let from = msg
        .from()
        .and_then(|f| f.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_ascii_lowercase();
    let daemon = from.starts_with("mailer-daemon@") || from.starts_with("postmaster@");
    if !daemon && !subject.contains("delivery") && !subject.contains("undeliver") {
        return None;
    }
    let recipients = plain_text(&text);
    (!recipients.is_empty()).then_some(Dsn {
        recipients,
        shape: "plain text",
        id,
    })
}

/// The per-recipient fields of a `message/delivery-status` part (RFC 3464 §2.3):
/// `Final-Recipient` (else `Original-Recipient`), `Action` and `Status`.
fn delivery_status(text: &str) -> Vec<(String, Failure)> {
    let mut out = Vec::new();
    // Groups are separated by empty lines; the first is the per-message group.
    let unfolded = text
        .replace("\r\n", "\n")
        .replace("\n ", " ")
        .replace("\n\t", " ");
    for group in unfolded.split("\n\n") {
        let mut recipient = None;
        let mut original = None;
        let mut action = String::new();
        let mut status = String::new();
        for line in group.lines() {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "final-recipient" => recipient = Some(address_of(value)),
                "original-recipient" => original = Some(address_of(value)),
                "action" => action = value.to_ascii_lowercase(),
                "status" => status = value.to_string(),
                _ => {}
            }
        }
        let Some(who) = recipient.or(original).filter(|a| a.contains('@')) else {
            continue;
        };
        let failure = if status.starts_with('5') || action.starts_with("failed") {
            Failure::Hard
        } else if status.starts_with('4') || action.starts_with("delayed") {
            Failure::Soft
        } else {
            // delivered, relayed, expanded: not a failure.
            continue;
        };
        if out.len() < MAX_RECIPIENTS {
            out.push((who, failure));
        }
    }
    out
}

/// `rfc822; Alice@Example.org` -> `alice@example.org`.
fn address_of(value: &str) -> String {
    let bare = value.split_once(';').map_or(value, |(_, a)| a);
    bare.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_ascii_lowercase()
}

/// The failed addresses of a bounce written as plain text: Exim's (an indented
/// address line after "could not be delivered" / "failed"), qmail's (`<address>:`
/// at the start of a line) and the like. A plain-text bounce says "failed" for good
/// unless it says it will retry ("delayed", "will keep trying", "temporary").
fn plain_text(text: &str) -> Vec<(String, Failure)> {
    let lower = text.to_ascii_lowercase();
    let soft = [
        "delayed",
        "will keep trying",
        "will retry",
        "temporary failure",
    ]
    .iter()
    .any(|w| lower.contains(w))
        && !lower.contains("permanent");
    let failure = if soft { Failure::Soft } else { Failure::Hard };
    let after = [
        "could not be delivered",
        "failed",
        "permanent error",
        "undeliverable",
    ]
    .iter()
    .filter_map(|w| lower.find(w))
    .min();
    let Some(start) = after else {
        return Vec::new();
    };
    let mut out: Vec<(String, Failure)> = Vec::new();
    for line in text[start..].lines().take(200) {
        let t = line.trim();
        let candidate = t
            .strip_prefix('<')
            .and_then(|r| r.split_once('>'))
            .map_or(t, |(a, _)| a)
            .trim_end_matches(':');
        let looks = candidate.contains('@')
            && !candidate.contains(' ')
            && candidate.len() <= 254
            && (line.starts_with([' ', '\t']) || t.starts_with('<'));
        if looks {
            let a = candidate.to_ascii_lowercase();
            if !out.iter().any(|(b, _)| *b == a) && out.len() < MAX_RECIPIENTS {
                out.push((a, failure));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/data/dsn/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn hard(who: &str) -> Vec<(String, Failure)> {
        vec![(who.to_string(), Failure::Hard)]
    }

    /// Issue 30, bounces: Postfix's RFC 3464 report of an unknown user (5.1.1).
    #[test]
    fn postfix_unknown_user_is_hard() {
        let d = read_dsn(&fixture("postfix-unknown-user.eml")).expect("a DSN");
        assert_eq!(d.recipients, hard("nobody@example.net"));
        assert_eq!(d.shape, "multipart/report");
    }

    /// Issue 30, bounces: Postfix's "delayed mail" warning is soft.
    #[test]
    fn postfix_delay_is_soft() {
        let d = read_dsn(&fixture("postfix-delayed.eml")).expect("a DSN");
        assert_eq!(
            d.recipients,
            vec![("slow@example.net".to_string(), Failure::Soft)]
        );
        assert!(!d.is_hard());
    }

    /// Issue 30, bounces: Exim's plain-text "Mail delivery failed" (no DSN part).
    #[test]
    fn exim_plain_text_is_hard() {
        let d = read_dsn(&fixture("exim-failed.eml")).expect("a DSN");
        assert_eq!(d.recipients, hard("gone@example.com"));
        assert_eq!(d.shape, "plain text");
    }

    /// Issue 30, bounces: Gmail's report (550 5.1.1 "does not exist").
    #[test]
    fn gmail_report_is_hard() {
        let d = read_dsn(&fixture("gmail-nosuchuser.eml")).expect("a DSN");
        assert_eq!(d.recipients, hard("no.such.user@gmail.com"));
    }

    /// Issue 30, bounces: Outlook / Exchange Online's NDR (550 5.1.10 recipient not
    /// found), with an HTML explanation before the report part.
    #[test]
    fn outlook_ndr_is_hard() {
        let d = read_dsn(&fixture("outlook-ndr.eml")).expect("a DSN");
        assert_eq!(d.recipients, hard("missing@contoso.com"));
    }

    /// Issue 30, bounces: an ordinary mail, even one speaking of a failure, is no DSN.
    #[test]
    fn a_player_mail_is_not_a_dsn() {
        let raw = b"From: alice@example.org\r\nTo: yinsh@localhost\r\nSubject: my move failed\r\n\r\nThe move failed:\r\n  bob@example.org\r\n";
        assert_eq!(read_dsn(raw), None);
    }
}
