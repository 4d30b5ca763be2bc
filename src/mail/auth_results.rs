//! The `Authentication-Results` headers of an incoming mail (RFC 8601), kept as
//! written ([`AuthHeaders`]), read into types ([`AuthResults`]), and what they say of
//! its From ([`verdict`], which `InboundMail::from_verdict` asks), and what a From so
//! judged may prove ([`FromAuth::admits`]): the defence in depth against a forged
//! From (issues 25 and 45).
//!
//! Anyone can write an `Authentication-Results` header into a mail. Only those written
//! by the server's own mail system count: their authserv-id is the one the operator
//! names in `[security] trusted_authserv_id`, written as the mail system writes it (the
//! header's first word, bare: a quoted id or one after a comment is another's), and
//! that mail system removes headers with its own id from the mail it receives (see
//! docs/operations.md, "Forged From: Authentication-Results"). Headers naming any
//! other id are never read: their first word is compared, that is all.
//!
//! The reading is small and total: comments in parentheses are dropped, a header is
//! split at the `;` outside quoted strings, each part read as
//! `method[/version]=result` followed by `reason=...` and `ptype.property=value`
//! words; a part it cannot read is skipped. Every header of the trusted id is read,
//! however many there are (a mail system may add its own below a sender's), each at
//! most [`MAX_HEADER_BYTES`] long and [`MAX_RESULTS`] results: the work is linear in
//! the mail's size, which `[limits] max_message_bytes` caps.

use std::fmt;
use std::str::FromStr;

use super::address::Address;

/// A longer `Authentication-Results` header is not kept at all.
pub const MAX_HEADER_BYTES: usize = 4096;

/// The most results read from one header.
pub const MAX_RESULTS: usize = 32;

/// The most properties (`header.d=...`) kept for one result.
const MAX_PROPERTIES: usize = 8;

/// One `Authentication-Results` header, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthResults {
    /// Who wrote it: the authserv-id (e.g. `mx.example.org`, `mx.google.com`).
    pub authserv_id: String,
    /// The results it gives, in order (none for `; none`).
    pub results: Vec<MethodResult>,
}

/// One result of an [`AuthResults`]: `dkim=pass header.d=example.org`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodResult {
    /// The method (`dkim`, `spf`, `dmarc`, ...).
    pub method: Method,
    /// What it found.
    pub result: Outcome,
    /// Its properties, the name in lower case (`header.d`, `smtp.mailfrom`,
    /// `header.from`) with the value as written; at most 8.
    pub properties: Vec<(String, String)>,
}

/// An authentication method (RFC 8601 §2.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// DomainKeys Identified Mail (RFC 6376).
    Dkim,
    /// Sender Policy Framework (RFC 7208).
    Spf,
    /// DMARC (RFC 7489).
    Dmarc,
    /// Any other (`arc`, `auth`, `iprev`, ...), in lower case.
    Other(String),
}

/// The result of a method (RFC 8601 §2.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `pass`.
    Pass,
    /// `fail` (and DKIM's `permfail`, an old spelling of `permerror` read as failed).
    Fail,
    /// `softfail` (SPF).
    SoftFail,
    /// `neutral`.
    Neutral,
    /// `none`.
    None,
    /// `temperror`.
    TempError,
    /// `permerror`.
    PermError,
    /// `policy`.
    Policy,
    /// Any other keyword, in lower case.
    Other(String),
}

/// What the trusted `Authentication-Results` say of a mail's From.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FromAuth {
    /// DMARC passed for the From's domain, or DKIM or SPF passed for a domain aligned
    /// with it.
    Pass,
    /// DMARC failed for the From's domain, or neither DKIM nor SPF passed aligned and
    /// at least one of them failed (`fail`, `softfail`, `permerror`): the From is
    /// likely forged and proves nothing.
    Fail,
    /// No trusted header, no From, or nothing decisive in them.
    Unknown,
    /// The mail has more than one From header, or a From naming several mailboxes or
    /// a group: the mail system judged one of them (opendkim and opendmarc the first),
    /// the server would read another (mail-parser the last), so it proves nothing,
    /// whatever the headers say.
    SeveralFrom,
}

/// What a mail offers as the proof of who sent it, for [`FromAuth::admits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// A secret the player types: a password or a verify code.
    Secret,
    /// A token the server mailed: a reply token (a Reply to one of our mails) or a
    /// play token (the play link), which anyone holding the mail can copy.
    Token,
}

/// What a token proof needs of the From (`[security] require_dmarc_pass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenRule {
    /// A From the trusted checks did not fail (the default, `false`).
    #[default]
    NotFailed,
    /// A From the trusted checks passed ([`FromAuth::Pass`], `true`): a leaked token
    /// in a mail the mail system could not tie to its From plays nothing.
    TrustedPass,
}

/// Why a From proves nothing (or no token), from [`FromAuth::admits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubt {
    /// The trusted checks failed ([`FromAuth::Fail`]).
    Failed,
    /// The mail has several From mailboxes ([`FromAuth::SeveralFrom`]).
    SeveralFrom,
    /// A token, and the checks did not pass the From, which [`TokenRule::TrustedPass`]
    /// requires.
    NoPass,
}

impl fmt::Display for Doubt {
    /// The reason for the log (a player reads `Refusal::SenderNotVerified`'s words).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Doubt::Failed => "the From failed the sender checks",
            Doubt::SeveralFrom => "the mail names several From mailboxes",
            Doubt::NoPass => "the sender checks did not pass the From (require_dmarc_pass)",
        })
    }
}

impl FromAuth {
    /// Whether a From so judged may prove its sender by `evidence` under `rule`:
    /// never after a fail or with several From; a token under
    /// [`TokenRule::TrustedPass`] only after a pass.
    ///
    /// ```
    /// use yinsh_pbem::mail::auth_results::{Doubt, Evidence, FromAuth, TokenRule};
    /// let strict = TokenRule::TrustedPass;
    /// assert_eq!(FromAuth::Unknown.admits(Evidence::Token, TokenRule::NotFailed), Ok(()));
    /// assert_eq!(FromAuth::Unknown.admits(Evidence::Secret, strict), Ok(()));
    /// assert_eq!(FromAuth::Unknown.admits(Evidence::Token, strict), Err(Doubt::NoPass));
    /// assert_eq!(FromAuth::Pass.admits(Evidence::Token, strict), Ok(()));
    /// assert_eq!(FromAuth::SeveralFrom.admits(Evidence::Secret, strict), Err(Doubt::SeveralFrom));
    /// ```
    pub fn admits(self, evidence: Evidence, rule: TokenRule) -> Result<(), Doubt> {
        match (self, evidence, rule) {
            (FromAuth::Fail, ..) => Err(Doubt::Failed),
            (FromAuth::SeveralFrom, ..) => Err(Doubt::SeveralFrom),
            (FromAuth::Unknown, Evidence::Token, TokenRule::TrustedPass) => Err(Doubt::NoPass),
            (FromAuth::Pass | FromAuth::Unknown, ..) => Ok(()),
        }
    }
}

/// The `Authentication-Results` headers of one mail, every one of them, as written
/// (unfolded, white space collapsed); one longer than [`MAX_HEADER_BYTES`] is left
/// out. Only those [written by](AuthHeaders::written_by) the trusted id are ever read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuthHeaders(Vec<String>);

impl AuthHeaders {
    /// The headers of these values, in the mail's order.
    pub fn new(values: impl IntoIterator<Item = String>) -> AuthHeaders {
        AuthHeaders(
            values
                .into_iter()
                .filter(|v| v.len() <= MAX_HEADER_BYTES)
                .collect(),
        )
    }

    /// How many headers were kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no header was kept.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The headers whose authserv-id, [as written](written_id), is `trusted` (without
    /// regard to case), read; all of them, in order.
    ///
    /// ```
    /// use yinsh_pbem::mail::auth_results::AuthHeaders;
    /// let h = AuthHeaders::new([
    ///     "mx.example; dmarc=pass".to_string(),
    ///     "\"mx.example\"; dmarc=pass".to_string(),
    ///     "(c) mx.example; dmarc=pass".to_string(),
    ///     "MX.example 1; dkim=fail".to_string(),
    /// ]);
    /// assert_eq!(h.written_by("mx.example").len(), 2);
    /// ```
    pub fn written_by(&self, trusted: &str) -> Vec<AuthResults> {
        self.0
            .iter()
            .filter(|v| written_id(v).is_some_and(|id| id.eq_ignore_ascii_case(trusted)))
            .filter_map(|v| parse_header(v))
            .collect()
    }
}

/// The authserv-id of a header's value as a mail system writes it: its first word
/// (up to white space or `;`), bare. `None` when that word is quoted, holds a comment
/// or an escape, or the value starts with a comment: such an id is not the one the
/// mail system writes (and a Postfix `header_checks` rule for it would not strip it).
pub fn written_id(value: &str) -> Option<&str> {
    let value = value.trim_start();
    let end = value
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(value.len());
    let id = &value[..end];
    let odd = |c: char| matches!(c, '"' | '(' | ')' | '\\') || c.is_control();
    (!id.is_empty() && !id.contains(odd)).then_some(id)
}

impl FromStr for Method {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Method, Self::Err> {
        let text = text.to_ascii_lowercase();
        Ok(match text.as_str() {
            "dkim" => Method::Dkim,
            "spf" => Method::Spf,
            "dmarc" => Method::Dmarc,
            _ => Method::Other(text),
        })
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Dkim => "dkim",
            Method::Spf => "spf",
            Method::Dmarc => "dmarc",
            Method::Other(other) => other,
        })
    }
}

impl FromStr for Outcome {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Outcome, Self::Err> {
        let text = text.to_ascii_lowercase();
        Ok(match text.as_str() {
            "pass" => Outcome::Pass,
            "fail" | "permfail" => Outcome::Fail,
            "softfail" => Outcome::SoftFail,
            "neutral" => Outcome::Neutral,
            "none" => Outcome::None,
            "temperror" => Outcome::TempError,
            "permerror" => Outcome::PermError,
            "policy" => Outcome::Policy,
            _ => Outcome::Other(text),
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::SoftFail => "softfail",
            Outcome::Neutral => "neutral",
            Outcome::None => "none",
            Outcome::TempError => "temperror",
            Outcome::PermError => "permerror",
            Outcome::Policy => "policy",
            Outcome::Other(other) => other,
        })
    }
}

impl Outcome {
    /// Whether the result says the mail failed the check: `fail`, `softfail` or
    /// `permerror` (`neutral`, `none`, `temperror` and `policy` say nothing).
    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Fail | Outcome::SoftFail | Outcome::PermError)
    }
}

impl MethodResult {
    /// The value of the property `name` (lower case, e.g. `header.d`), if given.
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The domain this result is about: DMARC's `header.from`, DKIM's `header.d` (or
    /// the domain of `header.i`), SPF's `smtp.mailfrom` (its domain) or `smtp.helo`.
    fn domain(&self) -> Option<&str> {
        let names: &[&str] = match self.method {
            Method::Dmarc => &["header.from"],
            Method::Dkim => &["header.d", "header.i"],
            Method::Spf => &["smtp.mailfrom", "smtp.helo"],
            Method::Other(_) => &[],
        };
        let value = names.iter().find_map(|n| self.property(n))?;
        Some(value.rsplit('@').next().unwrap_or(value))
    }
}

/// Reads one header's value (unfolded). `None` when it is longer than
/// [`MAX_HEADER_BYTES`] or names no authserv-id.
///
/// ```
/// use yinsh_pbem::mail::auth_results::{Method, Outcome, parse_header};
/// let h = parse_header("mx.example.org; dkim=pass (good) header.d=example.org; spf=softfail").unwrap();
/// assert_eq!(h.authserv_id, "mx.example.org");
/// assert_eq!(h.results[0].method, Method::Dkim);
/// assert_eq!(h.results[0].property("header.d"), Some("example.org"));
/// assert_eq!(h.results[1].result, Outcome::SoftFail);
/// ```
pub fn parse_header(value: &str) -> Option<AuthResults> {
    if value.len() > MAX_HEADER_BYTES {
        return None;
    }
    let text = without_comments(value);
    let mut parts = split_outside_quotes(&text, ';').into_iter();
    let head = words(parts.next()?);
    let authserv_id = unquote(head.first()?);
    if authserv_id.is_empty() {
        return None;
    }
    let results = parts.filter_map(method_result).take(MAX_RESULTS).collect();
    Some(AuthResults {
        authserv_id,
        results,
    })
}

/// One `;` part read as `method[/version]=result` and its properties; `None` when it
/// is not one (e.g. `none`).
fn method_result(part: &str) -> Option<MethodResult> {
    let words = words(part);
    let (method, result) = words.first()?.split_once('=')?;
    let method = method.split('/').next().unwrap_or(method);
    if method.is_empty() || result.is_empty() {
        return None;
    }
    let properties = words[1..]
        .iter()
        .filter_map(|w| w.split_once('='))
        .filter(|(name, _)| name.contains('.'))
        .map(|(name, value)| (name.to_ascii_lowercase(), unquote(value)))
        .take(MAX_PROPERTIES)
        .collect();
    let (Ok(method), Ok(result)) = (method.parse(), result.parse());
    Some(MethodResult {
        method,
        result,
        properties,
    })
}

/// `text` with its comments (parentheses, nested, `\` escapes) replaced by a space;
/// quoted strings kept whole. An unclosed comment runs to the end.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for c in text.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' if quoted || depth > 0 => {
                escaped = true;
                if depth == 0 {
                    out.push(c);
                }
            }
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(' ');
                }
            }
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `text` split at every `sep` outside quoted strings.
fn split_outside_quotes(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The words of a part, split at white space outside quoted strings; white space
/// next to `=`, `.` and `/` is dropped first (RFC 8601 allows it there).
fn words(part: &str) -> Vec<String> {
    let glue = |c: char| matches!(c, '=' | '.' | '/');
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut escaped, mut space) = (false, false, false);
    for c in part.chars() {
        if !quoted && c.is_whitespace() {
            space = !word.is_empty();
            continue;
        }
        if space && !glue(c) && !word.ends_with(glue) {
            words.push(std::mem::take(&mut word));
        }
        space = false;
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ => {}
        }
        word.push(c);
    }
    words.push(word);
    words.retain(|w| !w.is_empty());
    words
}

/// A value without its quotes and `\` escapes when it is a quoted string.
fn unquote(value: &str) -> String {
    let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
        return value.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut escaped = false;
    for c in inner.chars() {
        if c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        escaped = false;
        out.push(c);
    }
    out
}

/// Whether `domain` is aligned with `from` (RFC 7489 relaxed alignment, approximated
/// without the public suffix list: the same domain, or one a subdomain of the other),
/// without regard to case.
fn aligned(domain: &str, from: &str) -> bool {
    let (d, f) = (domain.to_ascii_lowercase(), from.to_ascii_lowercase());
    let under = |a: &str, b: &str| a.strip_suffix(b).is_some_and(|rest| rest.ends_with('.'));
    d == f || under(&d, &f) || under(&f, &d)
}

/// What the headers of `headers` written by `trusted` ([`AuthHeaders::written_by`])
/// say of the From `from`; headers of any other id are never read.
///
/// `Fail` when DMARC failed for the From's domain, or when the trusted DMARC results
/// are all about other domains (the mail system judged another From than the one
/// read here), or when neither DKIM nor SPF passed for a domain aligned with the
/// From's and at least one of them failed ([`Outcome::failed`]). `Pass` when DMARC
/// passed for the From's domain, or DKIM or SPF passed for an aligned domain (a pass
/// that does not name its domain does not count: anyone can sign for their own).
/// Else `Unknown`, and always so without a From.
///
/// ```
/// use yinsh_pbem::mail::auth_results::{FromAuth, verdict};
/// use yinsh_pbem::mail::parse_inbound;
/// let raw = b"Authentication-Results: mx.example.net; dmarc=fail header.from=example.org\n\
///             From: alice@example.org\nSubject: yinsh help\n\n";
/// let mail = parse_inbound(raw).unwrap();
/// let from = mail.from.as_ref();
/// assert_eq!(verdict(&mail.auth_results, from, "MX.example.net"), FromAuth::Fail);
/// assert_eq!(verdict(&mail.auth_results, from, "mx.google.com"), FromAuth::Unknown);
/// assert_eq!(mail.from_verdict(Some("mx.example.net")), FromAuth::Fail);
/// ```
pub fn verdict(headers: &AuthHeaders, from: Option<&Address>, trusted: &str) -> FromAuth {
    let Some(from) = from.map(|a| a.domain().to_string()) else {
        return FromAuth::Unknown;
    };
    let headers = headers.written_by(trusted);
    let results: Vec<&MethodResult> = headers.iter().flat_map(|h| &h.results).collect();
    let all_dmarc: Vec<&&MethodResult> = results
        .iter()
        .filter(|r| r.method == Method::Dmarc)
        .collect();
    let dmarc: Vec<&Outcome> = all_dmarc
        .iter()
        .filter(|r| r.domain().is_none_or(|d| aligned(d, &from)))
        .map(|r| &r.result)
        .collect();
    if dmarc.contains(&&Outcome::Fail) || (dmarc.is_empty() && !all_dmarc.is_empty()) {
        return FromAuth::Fail;
    }
    let dkim_or_spf: Vec<&MethodResult> = results
        .into_iter()
        .filter(|r| matches!(r.method, Method::Dkim | Method::Spf))
        .collect();
    let aligned_pass = dkim_or_spf
        .iter()
        .any(|r| r.result == Outcome::Pass && r.domain().is_some_and(|d| aligned(d, &from)));
    if dmarc.contains(&&Outcome::Pass) || aligned_pass {
        return FromAuth::Pass;
    }
    if dkim_or_spf.iter().any(|r| r.result.failed()) {
        return FromAuth::Fail;
    }
    FromAuth::Unknown
}

#[cfg(test)]
mod tests;
