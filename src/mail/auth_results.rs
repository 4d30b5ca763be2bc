//! The `Authentication-Results` headers of an incoming mail (RFC 8601), read into
//! types ([`AuthResults`]), and what they say of its From ([`verdict`], which
//! `InboundMail::from_verdict` asks): the defence in depth against a forged From
//! (issue 25).
//!
//! Anyone can write an `Authentication-Results` header into a mail. Only those written
//! by the server's own mail system count: their authserv-id is the one the operator
//! names in `[security] trusted_authserv_id`, and that mail system removes headers
//! with its own id from the mail it receives (opendkim and opendmarc do; see
//! docs/operations.md, "Forged From: Authentication-Results"). Headers naming any
//! other id are ignored.
//!
//! The reading is small and total: comments in parentheses are dropped, a header is
//! split at the `;` outside quoted strings, each part read as
//! `method[/version]=result` followed by `reason=...` and `ptype.property=value`
//! words; a part it cannot read is skipped. At most [`MAX_HEADERS`] headers of at
//! most [`MAX_HEADER_BYTES`] each are read, [`MAX_RESULTS`] results a header.

use std::fmt;
use std::str::FromStr;

use super::address::Address;

/// The most `Authentication-Results` headers read from one mail (the first ones: a
/// mail system adds its own on top).
pub const MAX_HEADERS: usize = 20;

/// A longer header is not read at all.
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

/// What the headers `headers` written by `trusted` (their authserv-id, without regard
/// to case) say of the From `from`; headers of any other id are ignored.
///
/// `Fail` when DMARC failed for the From's domain (a `dmarc` result about another
/// domain is ignored), or when neither DKIM nor SPF passed for a domain aligned with
/// the From's and at least one of them failed ([`Outcome::failed`]). `Pass` when DMARC
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
/// assert_eq!(mail.from_verdict("mx.example.net"), FromAuth::Fail);
/// ```
pub fn verdict(headers: &[AuthResults], from: Option<&Address>, trusted: &str) -> FromAuth {
    let Some(from) = from.map(|a| a.domain().to_string()) else {
        return FromAuth::Unknown;
    };
    let results: Vec<&MethodResult> = headers
        .iter()
        .filter(|h| h.authserv_id.eq_ignore_ascii_case(trusted))
        .flat_map(|h| &h.results)
        .collect();
    let dmarc: Vec<&Outcome> = results
        .iter()
        .filter(|r| r.method == Method::Dmarc)
        .filter(|r| r.domain().is_none_or(|d| aligned(d, &from)))
        .map(|r| &r.result)
        .collect();
    if dmarc.contains(&&Outcome::Fail) {
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
mod tests {
    use super::*;

    /// A mail from `from` with these headers on top, as `mail::inbound` reads it
    /// (without its other fields).
    struct Mail {
        auth_results: Vec<AuthResults>,
        from: Option<Address>,
    }

    fn mail(headers: &str, from: &str) -> Mail {
        // Unfolded header lines (a line starting with white space continues one).
        let mut unfolded: Vec<String> = Vec::new();
        for line in headers.lines() {
            match unfolded.last_mut() {
                Some(last) if line.starts_with([' ', '\t']) => last.push_str(line),
                _ => unfolded.push(line.to_string()),
            }
        }
        let auth_results = unfolded
            .iter()
            .filter_map(|h| h.strip_prefix("Authentication-Results:"))
            .take(MAX_HEADERS)
            .filter_map(parse_header)
            .collect();
        Mail {
            auth_results,
            from: crate::mail::bare_address(from).parse().ok(),
        }
    }

    fn from_verdict(mail: &Mail, trusted: &str) -> FromAuth {
        verdict(&mail.auth_results, mail.from.as_ref(), trusted)
    }

    const ALICE: &str = "Alice <alice@example.org>";

    #[test]
    fn opendkim_and_opendmarc_headers_of_the_trusted_id() {
        let m = mail(
            "Authentication-Results: mail.yinsh.example; dmarc=pass (p=reject dis=none) header.from=example.org\n\
             Authentication-Results: mail.yinsh.example;\n\tdkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org header.a=rsa-sha256 header.s=s1 header.b=AbCd1234;\n\tdkim-atps=neutral\n",
            ALICE,
        );
        assert_eq!(m.auth_results.len(), 2);
        assert_eq!(
            m.auth_results[1].results[0].property("header.s"),
            Some("s1")
        );
        assert_eq!(
            m.auth_results[1].results[1].method,
            Method::Other("dkim-atps".into())
        );
        assert_eq!(from_verdict(&m, "mail.yinsh.example"), FromAuth::Pass);
        assert_eq!(from_verdict(&m, "MAIL.Yinsh.Example"), FromAuth::Pass);
        let forged = mail(
            "Authentication-Results: mail.yinsh.example; dmarc=fail (p=none dis=none) header.from=example.org\n",
            ALICE,
        );
        assert_eq!(from_verdict(&forged, "mail.yinsh.example"), FromAuth::Fail);
    }

    #[test]
    fn gmail_style_multi_line_header() {
        let m = mail(
            "ARC-Authentication-Results: i=1; mx.google.com; dmarc=fail header.from=example.org\n\
             Authentication-Results: mx.google.com;\n       dkim=pass header.i=@example.org header.s=20230601 header.b=\"Xy/z+1\";\n       spf=pass (google.com: domain of alice@example.org designates 209.85.220.41 as permitted sender) smtp.mailfrom=alice@example.org;\n       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org\n",
            ALICE,
        );
        let h = &m.auth_results[0];
        assert_eq!(h.authserv_id, "mx.google.com");
        let methods: Vec<String> = h
            .results
            .iter()
            .map(|r| format!("{}={}", r.method, r.result))
            .collect();
        assert_eq!(methods, ["dkim=pass", "spf=pass", "dmarc=pass"]);
        assert_eq!(h.results[0].property("header.b"), Some("Xy/z+1"));
        assert_eq!(
            h.results[1].property("smtp.mailfrom"),
            Some("alice@example.org")
        );
        assert_eq!(from_verdict(&m, "mx.google.com"), FromAuth::Pass);
    }

    #[test]
    fn no_pass_and_a_failure_is_a_fail() {
        let m = mail(
            "Authentication-Results: mx.y.example; dkim=none; spf=softfail smtp.mailfrom=example.org\n",
            ALICE,
        );
        assert_eq!(from_verdict(&m, "mx.y.example"), FromAuth::Fail);
        // A pass for the sender's own domain (anyone can have one) is no pass for the From.
        let own = mail(
            "Authentication-Results: mx.y.example; dkim=pass header.d=evil.test; spf=fail smtp.mailfrom=evil.test\n",
            ALICE,
        );
        assert_eq!(from_verdict(&own, "mx.y.example"), FromAuth::Fail);
        let neutral = mail(
            "Authentication-Results: mx.y.example; dkim=neutral (no signature); spf=none; dmarc=none\n",
            ALICE,
        );
        assert_eq!(from_verdict(&neutral, "mx.y.example"), FromAuth::Unknown);
        let sub = mail(
            "Authentication-Results: mx.y.example; dkim=pass header.d=mail.example.org; spf=fail\n",
            ALICE,
        );
        assert_eq!(from_verdict(&sub, "mx.y.example"), FromAuth::Pass);
    }

    /// A header naming another authserv-id (written by the sender) is ignored: it
    /// neither passes a forged From nor fails a genuine one.
    #[test]
    fn a_header_of_another_id_is_ignored() {
        let forged = mail(
            "Authentication-Results: evil.test; dmarc=pass header.from=example.org; dkim=pass header.d=example.org\n\
             Authentication-Results: mx.y.example; dmarc=fail header.from=example.org\n",
            ALICE,
        );
        assert_eq!(from_verdict(&forged, "mx.y.example"), FromAuth::Fail);
        let only_theirs = mail("Authentication-Results: evil.test; dmarc=fail\n", ALICE);
        assert_eq!(
            from_verdict(&only_theirs, "mx.y.example"),
            FromAuth::Unknown
        );
        assert_eq!(
            from_verdict(&mail("", ALICE), "mx.y.example"),
            FromAuth::Unknown
        );
        // A DMARC result about another domain says nothing of this From.
        let other = mail(
            "Authentication-Results: mx.y.example; dmarc=fail header.from=evil.test\n",
            ALICE,
        );
        assert_eq!(from_verdict(&other, "mx.y.example"), FromAuth::Unknown);
    }

    #[test]
    fn odd_syntax_is_read_or_skipped() {
        let h = parse_header("\"mx (x).example\" 1; dkim/1 = pass reason=\"sig ok; fine\" header . d = example.org ; none; =; spf=").expect("header");
        assert_eq!(h.authserv_id, "mx (x).example");
        assert_eq!(h.results.len(), 1, "{h:?}");
        assert_eq!(h.results[0].method, Method::Dkim);
        assert_eq!(h.results[0].property("header.d"), Some("example.org"));
        assert_eq!(
            parse_header("mx.example; none").map(|h| h.results.len()),
            Some(0)
        );
        assert_eq!(parse_header(""), None);
        assert_eq!(parse_header("(only a comment); dkim=pass"), None);
        assert_eq!(parse_header("(unclosed; dkim=pass"), None);
        assert_eq!(
            parse_header(&format!("mx; {}", "dkim=pass ".repeat(500))),
            None
        );
        let many = format!("mx{}", "; spf=fail".repeat(100));
        assert_eq!(
            parse_header(&many).map(|h| h.results.len()),
            Some(MAX_RESULTS)
        );
        for text in [
            "pass",
            "fail",
            "softfail",
            "neutral",
            "none",
            "temperror",
            "permerror",
            "policy",
            "x-new",
        ] {
            let Ok(outcome) = text.parse::<Outcome>();
            assert_eq!(outcome.to_string(), text);
        }
    }
}
