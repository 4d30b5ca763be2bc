//! Inbound mail: turns the raw bytes of one command mail into an [`InboundMail`] with
//! mail-parser: its addresses, threading headers, the command subject (cleaned by
//! `subject.rs`) and the body as a comment (made by `comment.rs`).
//!
//! Everything here is total on its input: any byte string either parses (mail-parser
//! makes a best effort on broken MIME, unknown charsets and bad encodings) or comes
//! back as [`InboundError::NotAMail`]; nothing panics.

use std::collections::HashSet;

use mail_parser::{HeaderValue, Message, MessageParser};

use super::address::{Address, InvalidAddress, bare_address, strip_angles};
use super::auth_results::{self, AuthHeaders, FromAuth};
use super::comment::comment_of;
use super::hidden::without_hidden;
use super::subject::{clean_subject, is_reply_subject};

/// One incoming mail, reduced to what the server reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InboundMail {
    /// The Message-ID, without `<>`.
    pub message_id: Option<String>,
    /// The address of the From mailbox (mail-parser's: the last From header's),
    /// when it is a usable [`Address`].
    pub from: Option<Address>,
    /// Whether the From headers name one mailbox or several: with several, the From
    /// proves nothing ([`from_verdict`](InboundMail::from_verdict)).
    pub from_mailboxes: FromMailboxes,
    /// The address of the first Reply-To mailbox, when it is a usable [`Address`].
    pub reply_to: Option<Address>,
    /// From and Reply-To headers whose address was refused (so counted as absent),
    /// for the log.
    pub refused: Vec<RefusedAddress>,
    /// The first Return-Path header, bare (`""` for the null sender `<>`).
    pub return_path: Option<String>,
    /// The decoded Subject without [hidden](super::hidden::is_hidden) characters,
    /// cleaned by [`clean_subject`] (`""` when missing).
    pub subject: String,
    /// The decoded Subject as written, its prefixes kept: white space collapsed and
    /// [hidden](super::hidden::is_hidden) characters removed; what an error mail quotes
    /// (masked).
    pub written_subject: String,
    /// Whether the Subject began (after any `[tag]`) with a reply or forward prefix.
    pub replying: bool,
    /// The first text body (an HTML-only mail: its text rendering without the quoted
    /// mail, see `html_text`), LF line ends, without [hidden](super::hidden::is_hidden)
    /// characters: every player's text another reads comes from here or the Subject.
    pub body: String,
    /// The body as a player's comment, made by [`comment_of`].
    pub comment: String,
    /// The Auto-Submitted header (e.g. `auto-replied`), trimmed.
    pub auto_submitted: Option<String>,
    /// The Precedence header (e.g. `bulk`, `list`, `junk`), trimmed.
    pub precedence: Option<String>,
    /// The X-Autoreply header (`yes` from many vacation programs), trimmed.
    pub x_autoreply: Option<String>,
    /// The X-Autorespond header (any value marks an automatic reply), trimmed.
    pub x_autorespond: Option<String>,
    /// The List-Id: the id inside `<>` when there is one, else the trimmed header.
    pub list_id: Option<String>,
    /// Every X-Loop header, trimmed, in order.
    pub x_loop: Vec<String>,
    /// The ids of References then In-Reply-To, without `<>`, without repeats, at most
    /// [`MAX_REFERENCES_KEPT`] (the first and the latest).
    pub references: Vec<String>,
    /// The Date header in unix seconds, when it is a valid date.
    pub date: Option<i64>,
    /// The size of the raw message in bytes.
    pub size: usize,
    /// The values of the To, Delivered-To, X-Original-To and Envelope-To headers, in
    /// the mail's order, at most [`MAX_DELIVERED_TO`]: where a bounce address of ours
    /// is looked for (`verp::bounce_target`).
    pub delivered_to: Vec<String>,
    /// Every `Authentication-Results` header, as written; those of the trusted id are
    /// read by [`from_verdict`](InboundMail::from_verdict).
    pub auth_results: AuthHeaders,
}

/// How many mailboxes the From headers of a mail name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FromMailboxes {
    /// One From header with one mailbox, or no From at all.
    #[default]
    One,
    /// More than one From header, or one naming several mailboxes or a group: the mail
    /// system judges the first (opendkim, opendmarc), mail-parser reads the last.
    Several,
}

impl InboundMail {
    /// What the mail's From may prove: [`FromAuth::SeveralFrom`] when its From
    /// headers name [several mailboxes](FromMailboxes::Several), whatever else;
    /// else what the `Authentication-Results` headers written by `trusted` (the local
    /// mail system's authserv-id, `[security] trusted_authserv_id`) say of it
    /// ([`auth_results::verdict`]; headers naming another authserv-id are ignored);
    /// `Unknown` without a trusted id.
    ///
    /// ```
    /// use yinsh_pbem::mail::auth_results::FromAuth;
    /// use yinsh_pbem::mail::parse_inbound;
    /// let raw = b"Authentication-Results: mx.example.net; dmarc=pass header.from=example.org\n\
    ///             From: alice@example.org\nSubject: yinsh help\n\n";
    /// let mail = parse_inbound(raw).unwrap();
    /// assert_eq!(mail.from_verdict(Some("mx.example.net")), FromAuth::Pass);
    /// assert_eq!(mail.from_verdict(Some("evil.test")), FromAuth::Unknown);
    /// assert_eq!(mail.from_verdict(None), FromAuth::Unknown);
    /// let two = parse_inbound(b"From: alice@example.org\nFrom: bob@example.org\n\n").unwrap();
    /// assert_eq!(two.from_verdict(None), FromAuth::SeveralFrom);
    /// ```
    pub fn from_verdict(&self, trusted: Option<&str>) -> FromAuth {
        if self.from_mailboxes == FromMailboxes::Several {
            return FromAuth::SeveralFrom;
        }
        trusted.map_or(FromAuth::Unknown, |id| {
            auth_results::verdict(&self.auth_results, self.from.as_ref(), id)
        })
    }
}

/// A From or Reply-To header whose address is not a usable [`Address`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{header}: {raw:?} is treated as no address ({error})")]
pub struct RefusedAddress {
    /// `From` or `Reply-To`.
    pub header: &'static str,
    /// The header as written (white space collapsed, cut after 200 bytes).
    pub raw: String,
    /// Why the address found in it was refused.
    pub error: InvalidAddress,
}

/// Why some bytes could not be read as a mail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InboundError {
    /// No header at all was found: the input is not an RFC 5322 message.
    #[error(
        "the input ({size} bytes) is not a mail: no header line like `Subject: ...` was found \
         before the first empty line; feed the whole message, headers first"
    )]
    NotAMail {
        /// The size of the input in bytes.
        size: usize,
    },
}

/// Parses one raw mail (LF or CRLF). `Err` only when the input has no header at all.
///
/// ```
/// use yinsh_pbem::mail::inbound::parse_inbound;
/// let mail = parse_inbound(b"From: Al <al@example.org>\nSubject: Re: yinsh show 12\n\nhi\n").unwrap();
/// assert_eq!(mail.from.as_deref(), Some("al@example.org"));
/// assert_eq!(mail.subject, "yinsh show 12");
/// assert_eq!(mail.comment, "hi");
/// ```
pub fn parse_inbound(raw: &[u8]) -> Result<InboundMail, InboundError> {
    // A mail of headers only, without a final line end: mail-parser would drop the
    // last header, so give it one.
    let headers_only = !contains(raw, b"\n\n") && !contains(raw, b"\n\r\n");
    let terminated;
    let input = if headers_only && !raw.ends_with(b"\n") {
        terminated = [raw, b"\n"].concat();
        &terminated[..]
    } else {
        raw
    };
    let message = MessageParser::default()
        .parse(input)
        .filter(|m| m.headers().iter().any(|h| is_field_name(h.name())))
        .ok_or(InboundError::NotAMail { size: raw.len() })?;
    // Hidden characters (bidi controls, zero-width, ESC and other controls) removed
    // here, once, from all the text of a mail that anyone reads (issue 25 finding 12).
    let body = without_hidden(&to_lf(&super::html_text::body_text(&message))).into_owned();
    let subject = without_hidden(message.subject().unwrap_or(""));
    let comment = comment_of(&body);
    let list_id = first_raw_header(&message, "List-Id").map(|raw| bare_address(&raw).to_string());
    let mut refused = Vec::new();
    let from = mailbox(&message, "From", message.from(), &mut refused);
    let reply_to = mailbox(&message, "Reply-To", message.reply_to(), &mut refused);
    Ok(InboundMail {
        message_id: message
            .message_id()
            .map(str::to_string)
            .filter(|id| !id.is_empty()),
        from,
        from_mailboxes: from_mailboxes(&message),
        reply_to,
        refused,
        return_path: first_raw_header(&message, "Return-Path")
            .map(|raw| strip_angles(&raw).to_string()),
        subject: clean_subject(&subject),
        written_subject: subject.split_whitespace().collect::<Vec<_>>().join(" "),
        replying: is_reply_subject(&subject),
        body,
        comment,
        auto_submitted: first_raw_header(&message, "Auto-Submitted"),
        precedence: first_raw_header(&message, "Precedence"),
        x_autoreply: first_raw_header(&message, "X-Autoreply"),
        x_autorespond: first_raw_header(&message, "X-Autorespond"),
        list_id,
        x_loop: raw_headers(&message, "X-Loop").collect(),
        references: references(&message),
        date: message
            .date()
            .filter(|d| d.is_valid())
            .map(|d| d.to_timestamp()),
        size: raw.len(),
        delivered_to: delivered_to(&message),
        auth_results: AuthHeaders::new(raw_headers(&message, "Authentication-Results")),
    })
}

/// Whether `needle` occurs in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether a header name is an RFC 5322 field name (printable ASCII but `:`), which
/// tells a real header from a line of text or binary garbage.
fn is_field_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':')
}

/// `\r\n` to `\n`; lone `\r` are kept. The result is allocated once at its final
/// size (`str::replace` grew it by doubling: 2 MiB for a 1 MiB body).
fn to_lf(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find("\r\n") {
        out.push_str(&rest[..k]);
        out.push('\n');
        rest = &rest[k + 2..];
    }
    out.push_str(rest);
    out
}

/// The address of the first mailbox of the address header `header` (`parsed` as
/// mail-parser read it), checked once here: one that is not a usable [`Address`] is
/// recorded in `refused` and counts as none.
fn mailbox(
    message: &Message<'_>,
    header: &'static str,
    parsed: Option<&mail_parser::Address<'_>>,
    refused: &mut Vec<RefusedAddress>,
) -> Option<Address> {
    let found = parsed.and_then(|a| a.first()).and_then(|a| a.address());
    let raw = first_raw_header(message, header);
    let text = match (found, &raw) {
        (Some(found), _) => found.trim(),
        // A header mail-parser found no address in: the whole of it, if anything.
        (None, Some(raw)) => raw.as_str(),
        (None, None) => return None,
    };
    if text.is_empty() {
        return None;
    }
    match text.parse::<Address>() {
        Ok(address) => Some(address),
        Err(error) => {
            let mut raw = raw.unwrap_or_default();
            if let Some((cut, _)) = raw.char_indices().find(|(i, _)| *i >= 200) {
                raw.truncate(cut);
            }
            refused.push(RefusedAddress { header, raw, error });
            None
        }
    }
}

/// How many mailboxes the top-level From headers name (see [`FromMailboxes`]).
fn from_mailboxes(message: &Message<'_>) -> FromMailboxes {
    let headers = message
        .headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("From"))
        .count();
    let several = match message.from() {
        Some(mail_parser::Address::List(list)) => list.len() > 1,
        Some(mail_parser::Address::Group(_)) => true,
        None => false,
    };
    if headers > 1 || several {
        FromMailboxes::Several
    } else {
        FromMailboxes::One
    }
}

/// The raw values (see [`raw_value`]) of every top-level header `name`.
fn raw_headers<'m>(message: &'m Message<'_>, name: &'m str) -> impl Iterator<Item = String> + 'm {
    message
        .headers()
        .iter()
        .filter(move |h| h.name().eq_ignore_ascii_case(name))
        .filter_map(move |h| raw_value(message, h))
}

/// A header's value as written: unfolded, white space collapsed, trimmed, lossy
/// UTF-8; `None` when its bytes are not in the message.
fn raw_value(message: &Message<'_>, header: &mail_parser::Header<'_>) -> Option<String> {
    let (start, end) = (header.offset_start() as usize, header.offset_end() as usize);
    let bytes = message.raw_message().get(start..end.max(start))?;
    Some(
        String::from_utf8_lossy(bytes)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The headers a mail's recipient is read from, for its bounce address.
const DELIVERED_TO: [&str; 4] = ["to", "delivered-to", "x-original-to", "envelope-to"];

/// The most headers [`InboundMail::delivered_to`] keeps.
pub const MAX_DELIVERED_TO: usize = 500;

/// The values of the top-level [`DELIVERED_TO`] headers, in order (see
/// [`raw_value`]), at most [`MAX_DELIVERED_TO`].
fn delivered_to(message: &Message<'_>) -> Vec<String> {
    message
        .headers()
        .iter()
        .filter(|h| {
            DELIVERED_TO
                .iter()
                .any(|n| h.name().eq_ignore_ascii_case(n))
        })
        .take(MAX_DELIVERED_TO)
        .filter_map(|h| raw_value(message, h))
        .collect()
}

/// The first header `name` (see [`raw_headers`]); a header that is present but empty
/// counts as absent.
fn first_raw_header(message: &Message<'_>, name: &str) -> Option<String> {
    raw_headers(message, name).next().filter(|v| !v.is_empty())
}

/// The most ids [`InboundMail::references`] keeps: the first (the thread's root, which
/// replies keep first) and the latest (the parent and the few before it, where reply
/// tokens are looked for: `IDS_LOOKED_AT` of them in `server::outgoing::threading`;
/// a reply passes on 20). A References header of 60,000 ids (issue 25 finding 8)
/// costs one pass over them and leaves this many.
pub const MAX_REFERENCES_KEPT: usize = 100;

/// The ids of References then In-Reply-To, in order, without repeats (the first
/// occurrence kept), at most [`MAX_REFERENCES_KEPT`]: the first and the latest. Linear
/// in the number of ids (a hash set of those seen).
fn references(message: &Message<'_>) -> Vec<String> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut ids: Vec<&str> = Vec::new();
    for value in [message.references(), message.in_reply_to()] {
        let found: &[_] = match value {
            HeaderValue::Text(id) => std::slice::from_ref(id),
            HeaderValue::TextList(list) => list,
            _ => &[],
        };
        for id in found.iter().map(|id| id.trim()) {
            if !id.is_empty() && seen.insert(id) {
                ids.push(id);
            }
        }
    }
    keep_first_and_latest(&ids, MAX_REFERENCES_KEPT)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// The first of `ids` and the latest `max - 1`, in order; all of them when there are
/// at most `max`.
fn keep_first_and_latest<'a>(ids: &[&'a str], max: usize) -> Vec<&'a str> {
    if ids.len() <= max {
        return ids.to_vec();
    }
    let latest = ids.len() - max.saturating_sub(1);
    ids.iter().take(1).chain(&ids[latest..]).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_a_mail_is_refused_with_its_size() {
        for raw in [
            &b""[..],
            b"\n\nbody",
            b"hello world",
            b"\xff\xfe\x00",
            b"no colon here\n\nx",
        ] {
            assert_eq!(
                parse_inbound(raw),
                Err(InboundError::NotAMail { size: raw.len() }),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn a_last_header_without_line_end_is_read() {
        let mail = parse_inbound(b"From: a@b.c\nSubject: yinsh help").expect("headers");
        assert_eq!(mail.subject, "yinsh help");
        assert!(!mail.replying);
        assert_eq!(mail.from.as_deref(), Some("a@b.c"));
        assert_eq!(mail.size, 31);
        let reply = parse_inbound(b"Subject: [x] AW: Yinsh Board 1\n\n").expect("mail");
        assert!(reply.replying);
    }

    /// Issue 25 finding 8: a References header of 60,000 ids (repeats among them) is
    /// read in one pass and leaves at most `MAX_REFERENCES_KEPT` ids: the first, then
    /// the latest in order, In-Reply-To last, no repeats. (The quadratic code kept
    /// every id.)
    #[test]
    fn a_huge_references_header_keeps_the_first_and_latest_ids() {
        let mut ids: Vec<String> = (0..60_000)
            .map(|i| format!("<id{}@x>", i % 50_000))
            .collect();
        ids.insert(0, "<root@x>".into());
        let raw = format!(
            "From: a@b.c\nSubject: Re: Yinsh Board 1\nReferences: {}\nIn-Reply-To: <id3@x>\n\nd4\n",
            ids.join(" ")
        );
        let mail = parse_inbound(raw.as_bytes()).expect("mail");
        assert_eq!(mail.references.len(), MAX_REFERENCES_KEPT);
        assert_eq!(mail.references[0], "root@x");
        assert_eq!(mail.references[1], "id49901@x");
        assert_eq!(
            mail.references.last().map(String::as_str),
            Some("id49999@x")
        );
        // In-Reply-To repeats an early id: it stays where it first came (dropped).
        assert!(!mail.references.contains(&"id3@x".to_string()));
    }

    #[test]
    fn references_then_in_reply_to_without_repeats() {
        let raw = b"From: a@b.c\nSubject: x\nReferences: <a@x> <b@x>\n <a@x> <c@x>\nIn-Reply-To: <d@x>\n\n";
        let mail = parse_inbound(raw).expect("mail");
        assert_eq!(mail.references, ["a@x", "b@x", "c@x", "d@x"]);
        assert_eq!(
            keep_first_and_latest(&["a", "b", "c", "d"], 3),
            ["a", "c", "d"]
        );
        assert_eq!(keep_first_and_latest(&["a", "b"], 3), ["a", "b"]);
        assert!(keep_first_and_latest(&[], 3).is_empty());
    }
}
