//! The one mail address type of the server: [`Address`], a bare `local@domain` that
//! lettre accepts and reads back unchanged, so an address the server accepts (at
//! signup, `change address`, from an incoming From or Reply-To) is one it can mail.
//! Also the one [`bare_address`] (the address inside `Name <addr>`) and the one
//! [`strip_angles`] (`<x>` to `x`).
//!
//! On top of lettre's own checks an address must be plain: printable ASCII without
//! spaces, no quoted local part (`"a b"@x.org`, which mail readers mangle), no source
//! route (`@relay:a@x.org`), no domain literal (`a@[10.0.0.1]`), and a domain that is
//! a dotted name (or `localhost`).

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use lettre::message::Mailbox;
use serde::{Deserialize, Serialize};

/// The longest address accepted, in bytes (RFC 5321's limit on a path).
pub const MAX_ADDRESS_LEN: usize = 254;

/// The domain suffixes of [`Address::is_local`] (each with its dot; the name
/// without the dot is local too).
const LOCAL_SUFFIXES: &[&str] = &[
    ".localhost",
    ".local",
    ".localdomain",
    ".internal",
    ".home.arpa",
    ".invalid",
];

/// How much of a refused text an error repeats.
const SHOWN: usize = 80;

/// A validated bare mail address, e.g. `alice@example.org`.
///
/// It is written and read as that text (`Display`, `FromStr`, and serde as a string;
/// it derefs to `str`); surrounding white space is trimmed, anything else is kept as
/// written.
///
/// ```
/// use yinsh_pbem::mail::Address;
/// let a: Address = " alice@example.org ".parse().unwrap();
/// assert_eq!(a.to_string(), "alice@example.org");
/// assert_eq!(a.domain(), "example.org");
/// assert!("\"a b\"@x.org".parse::<Address>().is_err());
/// assert!("@relay.org:a@x.org".parse::<Address>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Address(lettre::Address);

/// Why a text is not an [`Address`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{found}\" is not an e-mail address: {problem}")]
pub struct InvalidAddress {
    /// The text refused (trimmed; cut after 80 characters).
    pub found: String,
    /// What is wrong with it.
    pub problem: AddressProblem,
}

/// What is wrong with a text that should be an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AddressProblem {
    /// Nothing at all.
    #[error("it is empty")]
    Empty,
    /// More than [`MAX_ADDRESS_LEN`] bytes.
    #[error("it is longer than 254 characters")]
    TooLong,
    /// A space, a control character or a character outside ASCII.
    #[error("it holds a space or a character outside plain ASCII")]
    NotPlain,
    /// A quoted local part such as `"a b"@x.org`.
    #[error("quoted names such as \"a b\"@example.org are not accepted")]
    Quoted,
    /// A source route (`@relay:user@host`), a list, or a domain literal.
    #[error("it holds '{found}' (write one plain address such as name@example.org)")]
    Forbidden {
        /// The first such character.
        found: char,
    },
    /// No `@`, or nothing before or after it.
    #[error("it is not name@domain")]
    MissingParts,
    /// The part before the `@` is not a valid mailbox name.
    #[error("the part before the @ is not a valid name")]
    BadLocalPart,
    /// The part after the `@` is not a mailable domain name.
    #[error("the part after the @ must be a domain name such as example.org")]
    BadDomain,
    /// lettre would change it when building a mail.
    #[error("it does not read back unchanged as a mail recipient")]
    NotMailable,
}

impl Address {
    /// The address as text.
    pub fn as_str(&self) -> &str {
        self.0.as_ref()
    }

    /// The part before the `@`.
    pub fn user(&self) -> &str {
        self.0.user()
    }

    /// The part after the `@`.
    pub fn domain(&self) -> &str {
        self.0.domain()
    }

    /// The address as lettre's type, for an envelope.
    pub fn as_lettre(&self) -> &lettre::Address {
        &self.0
    }

    /// The mailbox this address reaches, in the one form the server compares
    /// addresses in (budgets, caps, confirmations, owners): all lower case, and the
    /// local part without a `+tag`. Almost every provider (Gmail, Outlook.com,
    /// Fastmail, iCloud, and Postfix's default `recipient_delimiter`) delivers
    /// `name+anything@` to `name@` and reads local parts without regard to case, so
    /// every such spelling is one mailbox: a stranger who writes `Target+1@Example.ORG`
    /// reaches the same person as `target@example.org`, and is counted as such. Mail is
    /// still sent to the address as written.
    ///
    /// ```
    /// use yinsh_pbem::mail::Address;
    /// let a: Address = "Target+Yinsh@ExampLe.oRG".parse().unwrap();
    /// assert_eq!(a.canonical(), "target@example.org");
    /// let b: Address = "+x@example.org".parse().unwrap();
    /// assert_eq!(b.canonical(), "+x@example.org");
    /// ```
    pub fn canonical(&self) -> String {
        let user = self.user().to_ascii_lowercase();
        let user = match user.split_once('+') {
            Some((name, _)) if !name.is_empty() => name.to_string(),
            _ => user,
        };
        format!("{user}@{}", self.domain().to_ascii_lowercase())
    }

    /// Whether `self` and `other` reach the same mailbox ([`Address::canonical`]).
    pub fn same_mailbox(&self, other: &Address) -> bool {
        self.canonical() == other.canonical()
    }

    /// Whether the domain names this machine, a private network or no real mail
    /// domain at all: `localhost` and `*.localhost`, a single label, an all-numeric
    /// dotted name (an IPv4 address such as `127.0.0.1`), and the special-use
    /// suffixes `.local`, `.localdomain`, `.internal`, `.home.arpa`, `.invalid`. Such an
    /// address reaches a mailbox on the server's own host (or none), so it is never
    /// an account's address; the server's own address may still be one
    /// (`yinsh@localhost`), which is why [`Address::from_str`] accepts them. The
    /// documentation domains `.test`, `.example` and `example.org` are not local.
    ///
    /// ```
    /// use yinsh_pbem::mail::Address;
    /// let local = |t: &str| t.parse::<Address>().unwrap().is_local();
    /// assert!(local("victim@localhost") && local("victim@127.0.0.1"));
    /// assert!(local("a@printer.local") && local("a@Mail.LOCALHOST"));
    /// assert!(!local("alice@example.org") && !local("bob@mail.test"));
    /// ```
    pub fn is_local(&self) -> bool {
        let domain = self.domain().to_ascii_lowercase();
        let domain = domain.trim_end_matches('.');
        let special = LOCAL_SUFFIXES
            .iter()
            .any(|s| domain == &s[1..] || domain.ends_with(s));
        let numeric = domain
            .split('.')
            .all(|label| !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()));
        special || numeric || !domain.contains('.')
    }
}

impl FromStr for Address {
    type Err = InvalidAddress;

    fn from_str(text: &str) -> Result<Address, InvalidAddress> {
        let text = text.trim();
        check(text).map(Address).map_err(|problem| InvalidAddress {
            found: shown(text),
            problem,
        })
    }
}

/// The checks of [`Address::from_str`] on trimmed text.
fn check(text: &str) -> Result<lettre::Address, AddressProblem> {
    if text.is_empty() {
        return Err(AddressProblem::Empty);
    }
    if text.len() > MAX_ADDRESS_LEN {
        return Err(AddressProblem::TooLong);
    }
    if text.contains('"') {
        return Err(AddressProblem::Quoted);
    }
    if !text.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(AddressProblem::NotPlain);
    }
    if let Some(found) = text.chars().find(|c| "<>()[]\\,;:".contains(*c)) {
        return Err(AddressProblem::Forbidden { found });
    }
    let Some((user, domain)) = text.rsplit_once('@') else {
        return Err(AddressProblem::MissingParts);
    };
    if user.is_empty() || domain.is_empty() {
        return Err(AddressProblem::MissingParts);
    }
    let dotted = domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.');
    if !(dotted || domain.eq_ignore_ascii_case("localhost"))
        || !domain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    {
        return Err(AddressProblem::BadDomain);
    }
    let address = text.parse::<lettre::Address>().map_err(|e| match e {
        lettre::address::AddressError::InvalidDomain => AddressProblem::BadDomain,
        lettre::address::AddressError::MissingParts => AddressProblem::MissingParts,
        _ => AddressProblem::BadLocalPart,
    })?;
    // What `mail::build` does with a recipient: it must give back the same address.
    match text.parse::<Mailbox>() {
        Ok(mailbox) if mailbox.email == address && mailbox.name.is_none() => Ok(address),
        _ => Err(AddressProblem::NotMailable),
    }
}

/// `text`, cut after [`SHOWN`] characters (marked with `...`).
fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({:?})", self.as_str())
    }
}

impl Deref for Address {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Address {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Address {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl AsRef<str> for Address {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl TryFrom<String> for Address {
    type Error = InvalidAddress;

    fn try_from(text: String) -> Result<Address, InvalidAddress> {
        text.parse()
    }
}

impl From<Address> for String {
    fn from(address: Address) -> String {
        address.as_str().to_string()
    }
}

/// `addresses` written one after the other, separated by `, `.
///
/// ```
/// use yinsh_pbem::mail::{Address, address::list};
/// let two: Vec<Address> = vec!["a@b.org".parse().unwrap(), "c@d.org".parse().unwrap()];
/// assert_eq!(list(&two), "a@b.org, c@d.org");
/// ```
pub fn list(addresses: &[Address]) -> String {
    let texts: Vec<&str> = addresses.iter().map(Address::as_str).collect();
    texts.join(", ")
}

/// The address inside the last `<...>` of `Name <addr>` (trimmed), or the whole text
/// trimmed when it has no such pair; `<>` gives `""`. Nothing is checked: parse the
/// result as an [`Address`].
///
/// ```
/// use yinsh_pbem::mail::bare_address;
/// assert_eq!(bare_address("YINSH PBeM <yinsh@localhost>"), "yinsh@localhost");
/// assert_eq!(bare_address(" al@example.org "), "al@example.org");
/// assert_eq!(bare_address("<>"), "");
/// ```
pub fn bare_address(text: &str) -> &str {
    match (text.rfind('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => text[open + 1..close].trim(),
        _ => text.trim(),
    }
}

/// `<x>` to `x` (trimmed, inside and out); any other text trimmed. For Message-IDs and
/// envelope senders, which are written in angle brackets or without.
///
/// ```
/// use yinsh_pbem::mail::strip_angles;
/// assert_eq!(strip_angles(" <1.2@host> "), "1.2@host");
/// assert_eq!(strip_angles("<>"), "");
/// assert_eq!(strip_angles("a@b"), "a@b");
/// ```
pub fn strip_angles(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(text)
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> AddressProblem {
        match text.parse::<Address>() {
            Ok(a) => panic!("{text:?} was accepted as {a}"),
            Err(e) => e.problem,
        }
    }

    #[test]
    fn plain_addresses_are_kept_as_written() {
        for text in [
            "alice@example.org",
            "Bob.Smith+yinsh@Mail.Example.co.uk",
            "a_b-c=d!e#f$g%h&i'j*k/l?m^n`o{p|q}r~s@x-y.org",
            "yinsh@localhost",
            "1@2.3",
        ] {
            let a: Address = text.parse().expect(text);
            assert_eq!(a.as_str(), text);
            assert_eq!(
                a.to_string().parse::<Address>().as_ref(),
                Ok(&a),
                "round trip"
            );
        }
        let a: Address = "al@example.org".parse().expect("valid");
        assert_eq!((a.user(), a.domain()), ("al", "example.org"));
        assert_eq!(a.as_lettre().to_string(), "al@example.org");
        assert!(a == "al@example.org" && a != "AL@example.org", "exact text");
        assert_eq!(format!("{a:?}"), "Address(\"al@example.org\")");
    }

    #[test]
    fn quoted_names_source_routes_and_literals_are_refused() {
        assert_eq!(problem("\"a b\"@x.org"), AddressProblem::Quoted);
        assert_eq!(problem("\"ab\"@x.org"), AddressProblem::Quoted);
        for (text, found) in [
            ("@relay.org:a@x.org", ':'),
            ("@r1.org,@r2.org:a@x.org", ','),
            ("a@[10.0.0.1]", '['),
            ("<a@x.org>", '<'),
        ] {
            assert_eq!(problem(text), AddressProblem::Forbidden { found }, "{text}");
        }
    }

    #[test]
    fn broken_addresses_say_what_is_wrong() {
        assert_eq!(problem(""), AddressProblem::Empty);
        assert_eq!(problem("   "), AddressProblem::Empty);
        assert_eq!(problem("not-an-address"), AddressProblem::MissingParts);
        assert_eq!(problem("@x.org"), AddressProblem::MissingParts);
        assert_eq!(problem("a@"), AddressProblem::MissingParts);
        assert_eq!(problem("a@example"), AddressProblem::BadDomain);
        assert_eq!(problem("a@.example.org"), AddressProblem::BadDomain);
        assert_eq!(problem("a@x_y.org"), AddressProblem::BadDomain);
        assert_eq!(problem("a@-x.org"), AddressProblem::BadDomain);
        assert_eq!(problem("a..b@x.org"), AddressProblem::BadLocalPart);
        assert_eq!(problem(".a@x.org"), AddressProblem::BadLocalPart);
        assert_eq!(problem("a@b@x.org"), AddressProblem::BadLocalPart);
        assert_eq!(problem("al\u{e9}@x.org"), AddressProblem::NotPlain);
        assert_eq!(problem("a\tb@x.org"), AddressProblem::NotPlain);
        assert_eq!(
            problem(&format!("{}@x.org", "a".repeat(65))),
            AddressProblem::BadLocalPart
        );
        assert_eq!(
            problem(&format!("a@{}.org", "b".repeat(260))),
            AddressProblem::TooLong
        );
    }

    #[test]
    fn the_error_names_the_text_and_cuts_a_long_one() {
        let err = "not-an-address".parse::<Address>().expect_err("refused");
        assert_eq!(
            err.to_string(),
            "\"not-an-address\" is not an e-mail address: it is not name@domain"
        );
        let long = "x".repeat(1000);
        let err = long.parse::<Address>().expect_err("refused");
        assert_eq!(err.found, format!("{}...", "x".repeat(80)));
    }

    #[test]
    fn serde_writes_a_string_and_checks_what_it_reads() {
        let a: Address = "al@example.org".parse().expect("valid");
        let json = serde_json::to_string(&vec![a.clone()]).expect("encode");
        assert_eq!(json, r#"["al@example.org"]"#);
        let back: Vec<Address> = serde_json::from_str(&json).expect("decode");
        assert_eq!(back, [a]);
        let err = serde_json::from_str::<Address>(r#""@x.org""#).expect_err("invalid");
        assert!(
            err.to_string().contains("is not an e-mail address"),
            "{err}"
        );
    }

    /// Issue 25 finding 11: local and IP-literal domains are told apart from real ones.
    #[test]
    fn local_and_numeric_domains_are_local_and_real_ones_are_not() {
        for text in [
            "victim@localhost",
            "victim@LocalHost",
            "a@mail.localhost",
            "a@127.0.0.1",
            "a@10.1.2.3",
            "a@192.168.0.1",
            "a@printer.local",
            "a@box.localdomain",
            "a@corp.internal",
            "a@nas.home.arpa",
            "a@x.invalid",
        ] {
            let a: Address = text.parse().expect(text);
            assert!(a.is_local(), "{text} is local");
        }
        for text in [
            "alice@example.org",
            "bob@mail.test",
            "c@x.example",
            "d@local.example.org",
            "e@1.2.3.example",
            "f@internal.org",
            "g@123.com",
        ] {
            let a: Address = text.parse().expect(text);
            assert!(!a.is_local(), "{text} is not local");
        }
    }

    #[test]
    fn bare_address_and_strip_angles() {
        assert_eq!(bare_address("Al <al@example.org>"), "al@example.org");
        assert_eq!(
            bare_address("\"A <b>\" < al@example.org >"),
            "al@example.org"
        );
        assert_eq!(bare_address("al@example.org"), "al@example.org");
        assert_eq!(bare_address("> a <"), "> a <");
        assert_eq!(strip_angles("< a@b >"), "a@b");
        assert_eq!(strip_angles("Al <al@example.org>"), "Al <al@example.org>");
        assert_eq!(strip_angles("<a@b"), "<a@b");
    }
}
