//! Inbound mail: turns the raw bytes of one command mail into an [`InboundMail`] with
//! mail-parser, and holds the text clean-ups the server needs: the command
//! [subject](clean_subject) without `Re:`/`Fwd:`/`[tag]` prefixes, the body as a
//! [comment](comment_of) without signature and quoted reply text, and the
//! [quoting](quote) of an incoming mail under "Original message follows:".
//!
//! Everything here is total on its input: any byte string either parses (mail-parser
//! makes a best effort on broken MIME, unknown charsets and bad encodings) or comes
//! back as [`InboundError::NotAMail`]; nothing panics.

use mail_parser::{HeaderValue, Message, MessageParser};

use super::address::{Address, InvalidAddress, bare_address, strip_angles};

/// One incoming mail, reduced to what the server reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InboundMail {
    /// The Message-ID, without `<>`.
    pub message_id: Option<String>,
    /// The address of the first From mailbox, when it is a usable [`Address`].
    pub from: Option<Address>,
    /// The address of the first Reply-To mailbox, when it is a usable [`Address`].
    pub reply_to: Option<Address>,
    /// From and Reply-To headers whose address was refused (so counted as absent),
    /// for the log.
    pub refused: Vec<RefusedAddress>,
    /// The first Return-Path header, bare (`""` for the null sender `<>`).
    pub return_path: Option<String>,
    /// The decoded Subject, cleaned by [`clean_subject`] (`""` when missing).
    pub subject: String,
    /// Whether the Subject began (after any `[tag]`) with a reply or forward prefix.
    pub replying: bool,
    /// The first text body (an HTML-only mail: its text rendering without the quoted
    /// mail, see `html_text`), LF line ends.
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
    /// The ids of References then In-Reply-To, without `<>`, without repeats.
    pub references: Vec<String>,
    /// The Date header in unix seconds, when it is a valid date.
    pub date: Option<i64>,
    /// The size of the raw message in bytes.
    pub size: usize,
    /// The raw message as text (lossy UTF-8, LF line ends), for quoting.
    pub original: String,
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
    let body = to_lf(&super::html_text::body_text(&message));
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
        reply_to,
        refused,
        return_path: first_raw_header(&message, "Return-Path")
            .map(|raw| strip_angles(&raw).to_string()),
        subject: clean_subject(message.subject().unwrap_or("")),
        replying: is_reply_subject(message.subject().unwrap_or("")),
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
        original: to_lf(&String::from_utf8_lossy(raw)),
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

/// The raw values (unfolded, trimmed, lossy UTF-8) of every top-level header `name`.
fn raw_headers<'m>(message: &'m Message<'_>, name: &'m str) -> impl Iterator<Item = String> + 'm {
    let raw = message.raw_message();
    message
        .headers()
        .iter()
        .filter(move |h| h.name().eq_ignore_ascii_case(name))
        .filter_map(move |h| {
            let (start, end) = (h.offset_start() as usize, h.offset_end() as usize);
            raw.get(start..end.max(start))
        })
        .map(|bytes| {
            String::from_utf8_lossy(bytes)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
}

/// The first header `name` (see [`raw_headers`]); a header that is present but empty
/// counts as absent.
fn first_raw_header(message: &Message<'_>, name: &str) -> Option<String> {
    raw_headers(message, name).next().filter(|v| !v.is_empty())
}

/// The ids of References then In-Reply-To, in order, without repeats.
fn references(message: &Message<'_>) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for value in [message.references(), message.in_reply_to()] {
        let found: Vec<&str> = match value {
            HeaderValue::Text(id) => vec![id.as_ref()],
            HeaderValue::TextList(list) => list.iter().map(|id| id.as_ref()).collect(),
            _ => Vec::new(),
        };
        for id in found {
            let id = id.trim();
            if !id.is_empty() && !ids.iter().any(|known| known == id) {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

/// Reply and forward prefixes, lower case, as mail programs in many languages write
/// them (English, German, Scandinavian, Dutch, French).
const REPLY_WORDS: [&str; 10] = [
    "re", "fwd", "fw", "aw", "wg", "sv", "vs", "antw", "réf", "tr",
];

/// Strips reply/forward prefixes (`Re:`, `RE:`, `Re[2]:`, `Fwd:`, `Fw:`, `AW:`, `WG:`,
/// `SV:`, `VS:`, `Antw:`, `Réf:`, `TR:`, any case, also `Re :`) and `[tag]` prefixes,
/// repeatedly, then collapses white space.
///
/// ```
/// use yinsh_pbem::mail::inbound::clean_subject;
/// assert_eq!(clean_subject("Re: Fwd: [yinsh]  RE[2]: yinsh  move 1"), "yinsh move 1");
/// ```
pub fn clean_subject(raw: &str) -> String {
    let mut rest = raw.trim_start();
    loop {
        let next = strip_tag(rest).or_else(|| strip_reply_word(rest));
        match next {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `raw` starts, after any `[tag]`, with a reply or forward prefix.
fn is_reply_subject(raw: &str) -> bool {
    let mut rest = raw.trim_start();
    while let Some(after) = strip_tag(rest) {
        rest = after.trim_start();
    }
    strip_reply_word(rest).is_some()
}

/// `[anything]` at the start: the text after it.
fn strip_tag(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('[')?;
    let close = inner.find(']')?;
    Some(&inner[close + 1..])
}

/// `Re:`, `Re[2]:`, `Re :`, `Réf. :` ... at the start: the text after the colon.
fn strip_reply_word(text: &str) -> Option<&str> {
    let word_len = text
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(text.len(), |(i, _)| i);
    let word = text[..word_len].to_lowercase();
    if !REPLY_WORDS.contains(&word.as_str()) {
        return None;
    }
    let mut rest = &text[word_len..];
    rest = rest.strip_prefix('.').unwrap_or(rest);
    if let Some(inner) = rest.strip_prefix('[') {
        let close = inner.find(']')?;
        if !inner[..close].trim().chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        rest = &inner[close + 1..];
    }
    rest.trim_start().strip_prefix(':')
}

/// Markers that end an attribution line ("On Mon, Al wrote:") in common languages,
/// lower case.
const ATTRIBUTION_WORDS: [&str; 9] = [
    "wrote",
    "schrieb",
    "a écrit",
    "escribió",
    "skrev",
    "schreef",
    "scrisse",
    "kirjoitti",
    "napisał",
];

/// Starts of the first line of an attribution that a mail program wrapped over two
/// lines, lower case.
const ATTRIBUTION_STARTS: [&str; 5] = ["on ", "am ", "le ", "el ", "op "];

/// Whether a line is the quoted text of a reply (`>` after optional indentation).
fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Whether a line is an attribution like `On 1 May 2024, Al <al@x> wrote:`.
fn is_attribution(line: &str) -> bool {
    let line = line.trim().to_lowercase();
    let Some(head) = line.strip_suffix(':') else {
        return false;
    };
    ATTRIBUTION_WORDS.iter().any(|w| head.contains(w))
}

/// Whether a line opens an Outlook-style original-message block.
fn is_original_message_marker(line: &str) -> bool {
    let line = line.trim();
    let Some(inner) = line.strip_prefix("-----") else {
        return false;
    };
    let inner = inner.trim_matches('-').trim().to_lowercase();
    matches!(
        inner.as_str(),
        "original message"
            | "ursprüngliche nachricht"
            | "message d'origine"
            | "oorspronkelijk bericht"
    )
}

/// The body as a comment for the other players: leading blank lines dropped; a
/// signature (a line exactly `-- ` or `--`) and all after it cut; quoted reply text
/// (lines starting with `>`) dropped with the attribution line right before a quote
/// block (`On ... wrote:`, `Am ... schrieb:`, also wrapped over two lines); an
/// Outlook `-----Original Message-----` block cut; trailing white space of every line
/// and trailing blank lines dropped; runs of blank lines left by the removals
/// collapsed to one.
///
/// ```
/// use yinsh_pbem::mail::inbound::comment_of;
/// let body = "\nNice move!\n\nOn Mon, Al <al@x.org> wrote:\n> yinsh move 3\n-- \nBob\n";
/// assert_eq!(comment_of(body), "Nice move!");
/// ```
pub fn comment_of(body: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in body.lines() {
        let line = line.trim_end();
        if line == "-- " || line == "--" || is_original_message_marker(line) {
            break;
        }
        lines.push(line);
    }
    let mut keep = vec![true; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        if !is_quoted(line) {
            continue;
        }
        keep[i] = false;
        if i > 0 && is_quoted(lines[i - 1]) {
            continue;
        }
        // The first line of a quote block: drop the attribution above it, skipping
        // blank lines in between.
        let mut j = i;
        while j > 0 && lines[j - 1].trim().is_empty() {
            j -= 1;
        }
        if j > 0 && is_attribution(lines[j - 1]) {
            keep[j - 1] = false;
            let start = lines[j - 1].trim_start().to_lowercase();
            let wrapped = !ATTRIBUTION_STARTS.iter().any(|s| start.starts_with(s));
            if wrapped && j > 1 {
                let above = lines[j - 2].trim_start().to_lowercase();
                if ATTRIBUTION_STARTS.iter().any(|s| above.starts_with(s)) {
                    keep[j - 2] = false;
                }
            }
        }
    }
    let mut out: Vec<&str> = Vec::new();
    let mut removed_since_text = false;
    for (line, kept) in lines.iter().zip(keep) {
        if !kept {
            removed_since_text = true;
            continue;
        }
        let line = line.trim_end();
        if line.is_empty() && out.is_empty() {
            continue;
        }
        if line.is_empty() && removed_since_text && out.last().is_some_and(|l| l.is_empty()) {
            continue;
        }
        if !line.is_empty() {
            removed_since_text = false;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Quotes a text for an error reply: every line, its trailing white space cut,
/// prefixed with `> `; an empty line becomes `>`; each line ends with `\n`.
///
/// ```
/// use yinsh_pbem::mail::inbound::quote;
/// assert_eq!(quote("Subject: x\n\nhi"), "> Subject: x\n>\n> hi\n");
/// ```
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 4);
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(">\n");
        } else {
            out.push_str("> ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_prefixes_of_many_languages_are_stripped() {
        for (raw, want) in [
            ("yinsh move 1 al pw e5", "yinsh move 1 al pw e5"),
            ("Re: yinsh show 7", "yinsh show 7"),
            ("RE: re: Re:yinsh show 7", "yinsh show 7"),
            ("Re[2]: Re[12]: yinsh show 7", "yinsh show 7"),
            ("Fwd: FW: fw: yinsh show 7", "yinsh show 7"),
            ("AW: WG: SV: VS: Antw: TR: yinsh show 7", "yinsh show 7"),
            ("Réf: RÉF : yinsh show 7", "yinsh show 7"),
            ("RE : TR : yinsh show 7", "yinsh show 7"),
            ("[yinsh] [PBeM] Re: [yinsh] yinsh show 7", "yinsh show 7"),
            ("  Re:   Fwd:\t[x]  yinsh \t  show   7  ", "yinsh show 7"),
            ("Re:", ""),
            ("[only tag]", ""),
            ("", ""),
        ] {
            assert_eq!(clean_subject(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn words_that_only_start_like_a_prefix_are_kept() {
        for raw in [
            "Return of the rings",
            "Reply: yinsh",
            "Re[x]: yinsh",
            "[unclosed tag yinsh",
            "yinsh move 1 al pw e5 Re: x",
            "Fwd yinsh",
        ] {
            let want = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(clean_subject(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn comment_drops_leading_and_trailing_blank_lines_and_trailing_spaces() {
        assert_eq!(
            comment_of("\n \n\t\nHello  \n  indented\t\n\n \n"),
            "Hello\n  indented"
        );
        assert_eq!(comment_of(""), "");
        assert_eq!(comment_of("\n\n"), "");
        assert_eq!(comment_of("a\r\nb\r\n"), "a\nb");
    }

    #[test]
    fn comment_cuts_the_signature_with_or_without_its_space() {
        assert_eq!(comment_of("Hi\n-- \nBob\n"), "Hi");
        assert_eq!(comment_of("Hi\n--\nBob\n"), "Hi");
        assert_eq!(comment_of("-- \nonly a signature"), "");
        // Not a signature delimiter: more dashes, text after, indentation.
        assert_eq!(comment_of("a\n---\nb"), "a\n---\nb");
        assert_eq!(comment_of("a\n-- b\nc"), "a\n-- b\nc");
        assert_eq!(comment_of("a\n -- \nc"), "a\n --\nc");
    }

    #[test]
    fn comment_drops_quotes_and_their_attribution() {
        let body = "Top\n\nOn Tue, 4 Jun 2024, Al <al@x.org> wrote:\n> q1\n>\n> q2\n\nBottom\n";
        assert_eq!(comment_of(body), "Top\n\nBottom");
        let body = "Le 4 juin 2024, Al a écrit :\n> q\nMerci\n";
        assert_eq!(comment_of(body), "Merci");
        let body = "El mar, 4 jun 2024, Al escribió:\n\n> q\n";
        assert_eq!(comment_of(body), "");
        // Indented quotes are quotes too.
        assert_eq!(comment_of("  > q\nA"), "A");
    }

    #[test]
    fn comment_drops_an_attribution_wrapped_over_two_lines() {
        let body =
            "Fine.\nOn Mon, 3 Jun 2024 at 12:00, YINSH PBeM <\nyinsh@localhost> wrote:\n> x\n";
        assert_eq!(comment_of(body), "Fine.");
    }

    #[test]
    fn comment_keeps_colon_lines_that_are_no_attribution() {
        // Ends with ':' but names no writer: kept. Says "wrote:" but no quote follows: kept.
        assert_eq!(comment_of("My moves:\n> e5\n"), "My moves:");
        assert_eq!(
            comment_of("Here is what I wrote:\nnothing"),
            "Here is what I wrote:\nnothing"
        );
    }

    #[test]
    fn comment_cuts_an_outlook_original_message_block() {
        assert_eq!(
            comment_of("Done.\n\n-----Original Message-----\nFrom: x\n"),
            "Done."
        );
        assert_eq!(
            comment_of("Ok\n----- Ursprüngliche Nachricht -----\nVon: x"),
            "Ok"
        );
        assert_eq!(comment_of("a\n-----\nb"), "a\n-----\nb");
    }

    #[test]
    fn comment_collapses_only_blank_runs_left_by_removals() {
        assert_eq!(comment_of("a\n\n> q\n\nb"), "a\n\nb");
        assert_eq!(comment_of("a\n\n\n\nb"), "a\n\n\n\nb");
    }

    #[test]
    fn quote_prefixes_every_line() {
        assert_eq!(quote(""), "");
        assert_eq!(quote("a\n\nb\n"), "> a\n>\n> b\n");
        assert_eq!(quote("a\r\n\r\n (o)"), "> a\n>\n>  (o)\n");
        assert_eq!(quote("> old"), "> > old\n");
    }

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
}
