//! A raw mail read once: parsed (headers only when it is over the size limit), dropped
//! unanswered when it is a bounce, a robot's, a list's or our own
//! (`unanswered.rs`), with the address its replies go to, its duplicate key and the
//! original as error mails quote it.

use crate::mail::{self, Address, InboundMail};
use crate::server::command::redact;
use crate::server::config::Settings;
use crate::server::store::key_name;

use super::unanswered;

/// A mail worth handling: parsed, with the address its replies go to.
pub struct Incoming {
    pub inbound: InboundMail,
    pub reply_to: Option<Address>,
    /// Over the size limit: only its headers were parsed.
    pub too_big: bool,
    pub total_size: usize,
    /// Its duplicate key: the Message-ID, or a hash of its bytes.
    pub key: String,
    /// The original as error mails quote it (passwords masked).
    pub quoted: String,
}

impl Incoming {
    /// Parse a raw mail; `None` (told to the log) when it is not a mail or is one
    /// never answered (bounces, robots, lists, our own).
    pub fn read(
        raw: &[u8],
        total_size: usize,
        envelope_sender: Option<&str>,
        settings: &Settings,
        note: &mut dyn FnMut(String),
    ) -> Option<Incoming> {
        let too_big = total_size > settings.max_message_bytes;
        let inbound = match mail::parse_inbound(if too_big { head_of(raw) } else { raw }) {
            Ok(m) => m,
            Err(e) => {
                note(format!("dropped: not a mail ({e})"));
                return None;
            }
        };
        let id = inbound.message_id.as_deref().unwrap_or("(no id)");
        if let Some(why) = unanswered::drop_reason(&inbound, envelope_sender, &settings.address()) {
            note(format!("dropped {id} without answer: {why}"));
            return None;
        }
        for refused in &inbound.refused {
            note(format!("mail {id}: {refused}"));
        }
        let reply_to = inbound
            .reply_to
            .clone()
            .or_else(|| inbound.from.clone())
            .or_else(|| envelope_sender.and_then(|s| mail::strip_angles(s).parse().ok()));
        note(format!(
            "mail {id} from {} ({total_size} bytes): {}",
            senders(inbound.from.as_deref(), reply_to.as_deref()),
            redact::loggable(&inbound.subject)
        ));
        let quoted = redact::quoted_original(
            inbound.from.as_deref(),
            &inbound.written_subject,
            None,
            if too_big { "" } else { &inbound.body },
        );
        let key = inbound
            .message_id
            .clone()
            .unwrap_or_else(|| format!("no-id-{}", raw_key(raw)));
        Some(Incoming {
            inbound,
            reply_to,
            too_big,
            total_size,
            key,
            quoted,
        })
    }
}

/// Who sent a mail, for the log: the From, and the address replies go to when it
/// differs (a Reply-To, or the envelope sender when there is no From).
fn senders(from: Option<&str>, reply_to: Option<&str>) -> String {
    match (from, reply_to) {
        (Some(f), Some(r)) if !f.eq_ignore_ascii_case(r) => format!("{f} (replies to {r})"),
        (Some(f), _) => f.to_string(),
        (None, Some(r)) => format!("(no From; replies to {r})"),
        (None, None) => "(nobody)".to_string(),
    }
}

/// The headers of a raw mail, and at most 64 KiB of it: enough to answer a mail too
/// big to handle.
fn head_of(raw: &[u8]) -> &[u8] {
    let cut = raw.len().min(64 * 1024);
    let head = &raw[..cut];
    let end = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .or_else(|| head.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
        .unwrap_or(cut);
    &raw[..end]
}

/// A stable key for a mail without Message-ID: SHA-256 of its bytes, hex.
fn raw_key(raw: &[u8]) -> String {
    key_name(raw)
}
