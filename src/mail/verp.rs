//! VERP bounce addresses (variable envelope return path): a reply to one recipient
//! leaves with the envelope sender `<local>+bounce-<tag>-<recipient>@<domain>`, the
//! server's own address with a `+` extension, the recipient written with its last
//! `@` as `=` (`alice=example.org`), and `<tag>` an HMAC of the recipient under the
//! server's key (`store::ReplyKey::bounce_tag`). A bounce comes back to that address:
//! [`read_bounce_address`] gives the recipient and tag back, and only a tag the key
//! confirms makes the bounce count, so a forged DSN cannot name anyone.
//!
//! A bounce that checks counts against exactly the recipient the tag was made for
//! (lower case, a `+tag` kept: `server::store::exact_address`), never another
//! spelling of its mailbox (issue 45).
//!
//! Tags do not expire, by decision (issue 45): a tag names one exact address and
//! only lets a report count against that address; it travels in the envelope
//! sender (`Return-Path`) alone, never in a body or a link, so it is seen by that
//! address's own mail system and its reader, not by link-rewriting services; whoever
//! holds it can at most have that one address marked failing (three reports over a
//! day), which the operator (when one is set) is told of and one proven mail from
//! the address undoes. An expiry would lose the reports that come back days late
//! (MTAs retry for five days) and, the day it came, the reports of every mail sent
//! before it. A tag that leaked (a mail
//! forwarded with its headers) is revoked, with all others and every reply token, by
//! `rotate-reply-key`.
//!
//! A mail coming in is judged once, on its parsed headers ([`bounce_target`]: the
//! first bounce address of ours among its To, Delivered-To, X-Original-To and
//! Envelope-To, `InboundMail::delivered_to`).
//!
//! The `+` extension reaches the server's own mailbox wherever it runs: Postfix with
//! `recipient_delimiter = +`, and hosted mailboxes, which deliver `user+anything` to
//! `user`. An address too long for a local part (64 bytes) gets no VERP address: its
//! replies leave with the plain envelope sender.

/// What a flush needs to give each single-recipient mail its bounce address: the
/// server's address and the tag maker (the key stays with its owner).
pub struct Verp<'k> {
    /// The server's address, `user@domain`.
    pub server: String,
    /// The tag of a recipient (`store::ReplyKey::bounce_tag`).
    pub tag: &'k dyn Fn(&str) -> String,
}

impl std::fmt::Debug for Verp<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Verp({})", self.server)
    }
}

impl Verp<'_> {
    /// The envelope sender of a mail to `recipients`: the bounce address of the one
    /// recipient, `None` for several (or one too long for it).
    pub fn envelope_from(&self, recipients: &[String]) -> Option<String> {
        match recipients {
            [one] => bounce_address(&self.server, one, &(self.tag)(one)),
            _ => None,
        }
    }
}

/// The word after `+` that marks a bounce address.
const MARK: &str = "bounce-";

/// The longest local part (RFC 5321 §4.5.3.1.1).
const MAX_LOCAL: usize = 64;

/// The bounce address of a mail from `server` (`user@domain`) to `recipient`, whose
/// tag is `tag`; `None` when it would not fit in a local part.
pub fn bounce_address(server: &str, recipient: &str, tag: &str) -> Option<String> {
    let (local, domain) = server.rsplit_once('@')?;
    let (r_local, r_domain) = recipient.rsplit_once('@')?;
    let local = local.split_once('+').map_or(local, |(l, _)| l);
    let verp_local = format!(
        "{local}+{MARK}{tag}-{}={}",
        r_local.to_ascii_lowercase(),
        r_domain.to_ascii_lowercase()
    );
    (verp_local.len() <= MAX_LOCAL && !verp_local.contains(['"', ' ', '\\', '<', '>']))
        .then(|| format!("{verp_local}@{domain}"))
}

/// The (recipient, tag) an address made by [`bounce_address`] for `server` names;
/// `None` for any other address.
pub fn read_bounce_address(address: &str, server: &str) -> Option<(String, String)> {
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    let (local, domain) = address.rsplit_once('@')?;
    let (s_local, s_domain) = server.rsplit_once('@')?;
    if !domain.eq_ignore_ascii_case(s_domain) {
        return None;
    }
    let (base, extension) = local.split_once('+')?;
    if !base.eq_ignore_ascii_case(s_local) {
        return None;
    }
    let rest = extension.strip_prefix(MARK)?;
    let (tag, recipient) = rest.split_once('-')?;
    let (r_local, r_domain) = recipient.rsplit_once('=')?;
    let ok = tag.len() == 16
        && tag.bytes().all(|b| b.is_ascii_hexdigit())
        && !r_local.is_empty()
        && r_domain.contains('.');
    ok.then(|| {
        (
            format!("{r_local}@{r_domain}").to_ascii_lowercase(),
            tag.to_ascii_lowercase(),
        )
    })
}

/// A bounce address of ours that a mail came to: whose bounce it reports, and the
/// tag that must check under the key for it to count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BounceTo {
    /// The recipient the bounce address names (lower case).
    pub recipient: String,
    /// Its tag (lower case hex), checked by `store::ReplyKey::check_bounce_tag`.
    pub tag: String,
}

/// The words of one header looked at for a bounce address, at most.
const WORDS_LOOKED_AT: usize = 100;

/// The first bounce address of `server` among `delivered_to` (the values of a mail's
/// To, Delivered-To, X-Original-To and Envelope-To headers, in the mail's order:
/// `InboundMail::delivered_to`); `None` for a mail to none.
///
/// ```
/// use yinsh_pbem::mail::verp::{BounceTo, bounce_address, bounce_target};
/// let to = bounce_address("yinsh@yinsh.test", "al@example.org", "0123456789abcdef").unwrap();
/// let headers = ["yinsh@yinsh.test".to_string(), format!("Bounces <{to}>")];
/// let found = bounce_target(&headers, "yinsh@yinsh.test").unwrap();
/// assert_eq!(found.recipient, "al@example.org");
/// assert_eq!(bounce_target(&headers[..1], "yinsh@yinsh.test"), None);
/// ```
pub fn bounce_target(delivered_to: &[String], server: &str) -> Option<BounceTo> {
    delivered_to.iter().find_map(|value| {
        value
            .split([',', '<', '>', ' ', '\t', ';'])
            .take(WORDS_LOOKED_AT)
            .find_map(|word| read_bounce_address(word, server))
            .map(|(recipient, tag)| BounceTo { recipient, tag })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: &str = "0123456789abcdef";

    /// Issue 30, bounces: the address round-trips, with `+`, `-` and `=` in the
    /// recipient's own local part.
    #[test]
    fn bounce_addresses_round_trip() {
        for r in ["alice@example.org", "a-b+c=d@mail.example.net", "X@Y.ORG"] {
            let a = bounce_address("yinsh@yinsh.test", r, TAG).expect("fits");
            assert!(a.starts_with("yinsh+bounce-0123456789abcdef-"), "{a}");
            assert_eq!(
                read_bounce_address(&a, "yinsh@yinsh.test"),
                Some((r.to_ascii_lowercase(), TAG.to_string()))
            );
        }
    }

    /// Issue 30, bounces: other addresses, other servers and too long ones.
    #[test]
    fn other_addresses_are_not_bounce_addresses() {
        let server = "yinsh@yinsh.test";
        assert_eq!(read_bounce_address("yinsh@yinsh.test", server), None);
        assert_eq!(read_bounce_address("yinsh+other@yinsh.test", server), None);
        let a = bounce_address(server, "alice@example.org", TAG).expect("fits");
        assert_eq!(read_bounce_address(&a, "yinsh@other.test"), None);
        assert_eq!(
            read_bounce_address(&a.replace("0123", "zz23"), server),
            None
        );
        let long = format!("{}@example.org", "a".repeat(40));
        assert_eq!(bounce_address(server, &long, TAG), None);
    }
}
