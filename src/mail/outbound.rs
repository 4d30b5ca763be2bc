//! Outbound mail: builds the bytes of one reply with lettre, ready for the
//! [spool](super::spool). Every mail gets From, To, Subject, Date, Message-ID, the
//! threading headers of the command it answers (In-Reply-To, References), the
//! auto-reply markers `Auto-Submitted: auto-replied` and `X-Loop`, and a plain text
//! UTF-8 body whose transfer encoding lettre chooses (7bit, quoted-printable or
//! base64), so board drawings arrive exactly as written; a mail with an HTML part
//! carries the same text part inside `multipart/alternative` ([`super::alternative`]).
//!
//! Addresses, ids and settings are checked here: a bad one is an [`OutboundError`]
//! naming it, never a panic. Ids that came from an incoming mail (In-Reply-To,
//! References) and are not valid message ids are dropped instead, so that a broken
//! header in a player's mail never stops the reply.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MessageBuilder};

use super::address::strip_angles;
use super::alternative::{HtmlBody, MimeBody};

/// A reply to send: recipients, subject, body and the mail it answers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutgoingMail {
    /// Recipients, each `user@host` or `Name <user@host>`.
    pub to: Vec<String>,
    /// The subject, in UTF-8 (control characters become spaces).
    pub subject: String,
    /// The plain text body, LF or CRLF line ends; it should end with a line end (a
    /// mail always does: one without gets one on the way).
    pub body: String,
    /// The Message-ID (without `<>`) of the mail this one answers.
    pub in_reply_to: Option<String>,
    /// The References ids (without `<>`) of the mail this one answers.
    pub references: Vec<String>,
    /// The HTML alternative of `body`, if the mail has one.
    pub html: Option<HtmlBody>,
}

/// Server-wide settings of outgoing mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSettings {
    /// The From mailbox, e.g. `YINSH PBeM <yinsh@localhost>`; also the envelope sender.
    pub from: String,
    /// The X-Loop value, e.g. `yinsh@localhost`: a mail carrying it came from us.
    pub loop_id: String,
}

/// A built mail: its id, envelope and the bytes to hand to a transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltMail {
    /// The Message-ID, without `<>`.
    pub id: String,
    /// The envelope sender (bare address of From).
    pub envelope_from: String,
    /// The envelope recipients (bare addresses).
    pub recipients: Vec<String>,
    /// The whole message, CRLF line ends, as lettre formatted it.
    pub bytes: Vec<u8>,
}

/// Why a mail could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutboundError {
    /// The From setting is not a mailbox.
    #[error(
        "the From setting `{found}` is not a mail address ({reason}); write it as \
         `user@host` or `Name <user@host>`"
    )]
    BadFrom {
        /// The setting as written.
        found: String,
        /// What lettre found wrong with it.
        reason: String,
    },
    /// A recipient is not a mailbox.
    #[error(
        "the recipient `{found}` is not a mail address ({reason}); write it as \
         `user@host` or `Name <user@host>`"
    )]
    BadRecipient {
        /// The recipient as written.
        found: String,
        /// What lettre found wrong with it.
        reason: String,
    },
    /// The mail has no recipient.
    #[error("the mail `{subject}` has no recipient; give at least one address in `to`")]
    NoRecipients {
        /// The subject of the mail, to tell which one.
        subject: String,
    },
    /// The Message-ID given to [`build`] is not a valid id.
    #[error(
        "the message id `{found}` is not valid: {reason}; make one with `new_message_id` \
         (it looks like `left.part@domain`)"
    )]
    BadMessageId {
        /// The id as given.
        found: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The X-Loop setting cannot be a header value.
    #[error(
        "the X-Loop setting `{found}` is not usable: it must be printable ASCII without \
         line breaks, e.g. `yinsh@localhost`"
    )]
    BadLoopId {
        /// The setting as given.
        found: String,
    },
    /// lettre refused to assemble the message.
    #[error("lettre could not assemble the mail `{subject}`: {reason}")]
    Assemble {
        /// The subject of the mail, to tell which one.
        subject: String,
        /// lettre's explanation.
        reason: String,
    },
}

/// The most References ids a reply carries: the first one and the latest ones.
const MAX_REFERENCES: usize = 20;

/// The longest message id accepted, in bytes.
const MAX_ID_LEN: usize = 200;

/// Builds one mail; `now` becomes its Date and `id` (without `<>`) its Message-ID.
///
/// References become the given references followed by `in_reply_to` (RFC 5322
/// §3.6.4), without repeats, at most 20 (the first and the latest); invalid ids among
/// them are dropped. The body comes back from a parser exactly (line ends as LF), a
/// missing final line end added.
///
/// ```
/// use yinsh_pbem::mail::outbound::{build, MailSettings, OutgoingMail};
/// let settings = MailSettings { from: "YINSH <yinsh@localhost>".into(), loop_id: "yinsh@localhost".into() };
/// let mail = OutgoingMail { to: vec!["al@example.org".into()], subject: "Yinsh board 12".into(),
///     body: "hello\n".into(), ..Default::default() };
/// let built = build(&mail, &settings, std::time::SystemTime::UNIX_EPOCH, "1.2@localhost").unwrap();
/// assert_eq!(built.recipients, ["al@example.org"]);
/// assert!(String::from_utf8_lossy(&built.bytes).contains("Message-ID: <1.2@localhost>"));
/// ```
pub fn build(
    mail: &OutgoingMail,
    settings: &MailSettings,
    now: SystemTime,
    id: &str,
) -> Result<BuiltMail, OutboundError> {
    if let Err(reason) = check_message_id(id) {
        return Err(OutboundError::BadMessageId {
            found: id.to_string(),
            reason,
        });
    }
    let loop_id = loop_id(settings)?;
    let from = sender(settings)?;
    let subject: String = mail
        .subject
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if mail.to.is_empty() {
        return Err(OutboundError::NoRecipients { subject });
    }
    let builder = Message::builder()
        .from(from)
        .subject(subject.clone())
        .date(now)
        .message_id(Some(format!("<{id}>")));
    let message = threaded(addressed(builder, &mail.to)?, mail)
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_string(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Loop"),
            loop_id.to_string(),
        ))
        .mime_body(&mail.body, mail.html.as_ref())
        .map_err(|e| OutboundError::Assemble {
            subject: subject.clone(),
            reason: e.to_string(),
        })?;
    let envelope = message.envelope();
    Ok(BuiltMail {
        id: id.to_string(),
        envelope_from: envelope.from().map(|a| a.to_string()).unwrap_or_default(),
        recipients: envelope.to().iter().map(|a| a.to_string()).collect(),
        bytes: message.formatted(),
    })
}

/// The settings' X-Loop id, trimmed: printable ASCII and spaces, not empty.
fn loop_id(settings: &MailSettings) -> Result<&str, OutboundError> {
    let loop_id = settings.loop_id.trim();
    if loop_id.is_empty() || !loop_id.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Err(OutboundError::BadLoopId {
            found: settings.loop_id.clone(),
        });
    }
    Ok(loop_id)
}

/// The settings' From address.
fn sender(settings: &MailSettings) -> Result<Mailbox, OutboundError> {
    settings
        .from
        .trim()
        .parse()
        .map_err(|e: lettre::address::AddressError| OutboundError::BadFrom {
            found: settings.from.clone(),
            reason: e.to_string(),
        })
}

/// `builder` with a To header for each of `to`.
fn addressed(mut builder: MessageBuilder, to: &[String]) -> Result<MessageBuilder, OutboundError> {
    for to in to {
        let mailbox: Mailbox = to
            .trim()
            .parse()
            .map_err(
                |e: lettre::address::AddressError| OutboundError::BadRecipient {
                    found: to.clone(),
                    reason: e.to_string(),
                },
            )?;
        builder = builder.to(mailbox);
    }
    Ok(builder)
}

/// `builder` with the mail's In-Reply-To (when valid) and References headers, which
/// keep it in its thread.
fn threaded(mut builder: MessageBuilder, mail: &OutgoingMail) -> MessageBuilder {
    let in_reply_to = mail
        .in_reply_to
        .as_deref()
        .map(strip_angles)
        .filter(|id| check_message_id(id).is_ok());
    if let Some(parent) = in_reply_to {
        builder = builder.in_reply_to(format!("<{parent}>"));
    }
    let references = thread_references(&mail.references, in_reply_to);
    if !references.is_empty() {
        let joined: Vec<String> = references.iter().map(|r| format!("<{r}>")).collect();
        builder = builder.references(joined.join(" "));
    }
    builder
}

/// Checks a message id written without `<>`: `left@right`, printable ASCII, no
/// white space, no `<>`, at most 200 bytes.
fn check_message_id(id: &str) -> Result<(), &'static str> {
    if id.is_empty() {
        return Err("it is empty");
    }
    if id.len() > MAX_ID_LEN {
        return Err("it is longer than 200 bytes");
    }
    if !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("it holds white space, control or non-ASCII characters");
    }
    if id.contains(['<', '>', '"', '\\']) {
        return Err("it holds one of < > \" \\ (give it without the angle brackets)");
    }
    match id.split_once('@') {
        Some((left, right)) if !left.is_empty() && !right.is_empty() => Ok(()),
        _ => Err("it has no `left@right` form"),
    }
}

/// The References of a reply: `references` then `parent`, valid ids only, without
/// repeats, at most [`MAX_REFERENCES`] (the first and the latest).
fn thread_references(references: &[String], parent: Option<&str>) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in references.iter().map(|r| strip_angles(r)).chain(parent) {
        if check_message_id(id).is_ok() && !ids.iter().any(|known| known == id) {
            ids.push(id.to_string());
        }
    }
    if ids.len() > MAX_REFERENCES {
        ids.drain(1..ids.len() - (MAX_REFERENCES - 1));
    }
    ids
}

/// Makes a fresh Message-ID (without `<>`) from the time, the process id, a counter
/// and `seed` (e.g. a game number; only letters, digits, `-` and `_` of it are kept).
/// `domain` may be a bare domain or an address, whose part after `@` is used.
///
/// ```
/// use yinsh_pbem::mail::outbound::new_message_id;
/// let a = new_message_id("yinsh@example.org", "game 12");
/// let b = new_message_id("example.org", "game 12");
/// assert_ne!(a, b);
/// assert!(a.starts_with("game12.") && a.ends_with("@example.org"));
/// ```
pub fn new_message_id(domain: &str, seed: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let seed: String = seed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(40)
        .collect();
    let domain = domain.rsplit('@').next().unwrap_or("");
    let domain: String = domain
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
        .take(100)
        .collect();
    let domain = domain.trim_matches('.');
    let domain = if domain.is_empty() {
        "localhost"
    } else {
        domain
    };
    let prefix = if seed.is_empty() {
        String::new()
    } else {
        format!("{seed}.")
    };
    format!(
        "{prefix}{}.{:09}.{}.{count}@{domain}",
        now.as_secs(),
        now.subsec_nanos(),
        std::process::id()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_checked() {
        assert!(check_message_id("a.b@c").is_ok());
        for bad in ["", "nobody", "@c", "a@", "a b@c", "<a@c>", "a@c\r\n", "é@c"] {
            assert!(check_message_id(bad).is_err(), "{bad:?}");
        }
        assert!(check_message_id(&format!("{}@c", "a".repeat(199))).is_err());
    }

    #[test]
    fn references_keep_first_and_latest() {
        let refs: Vec<String> = (0..30).map(|i| format!("r{i}@x")).collect();
        let got = thread_references(&refs, Some("parent@x"));
        assert_eq!(got.len(), MAX_REFERENCES);
        assert_eq!(got[0], "r0@x");
        assert_eq!(got[1], "r12@x");
        assert_eq!(got[MAX_REFERENCES - 1], "parent@x");
    }

    #[test]
    fn references_drop_invalid_and_repeated_ids() {
        let refs = vec![
            "<a@x>".to_string(),
            "junk".into(),
            "a@x".into(),
            "b@x".into(),
        ];
        assert_eq!(thread_references(&refs, Some("b@x")), ["a@x", "b@x"]);
    }

    #[test]
    fn new_message_ids_are_valid_and_unique() {
        let ids: Vec<String> = (0..100).map(|_| new_message_id("", "a b/c<>")).collect();
        for id in &ids {
            assert!(check_message_id(id).is_ok(), "{id}");
            assert!(id.starts_with("abc.") && id.ends_with("@localhost"), "{id}");
        }
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
    }
}
