//! A raw mail read once: parsed (headers only when it is over the size limit), its
//! VERP bounce verdict taken first (`mail::verp` on the parsed headers: a mail to
//! one of our bounce addresses is `run::bounces`'), dropped unanswered when it is a
//! bounce, a robot's, a list's or our own (`unanswered.rs`), with the address its
//! replies go to, its duplicate key, the original as error mails quote it, its reply
//! tokens (read once from References and In-Reply-To) and what it asks ([`Asks`]:
//! the Subject parsed once into a reply to one of our mails, one command, or the
//! lines of a `multiple`, each line parsed once).

use crate::mail::verp::{BounceTo, bounce_target};
use crate::mail::{self, Address, InboundMail, comment_of};
use crate::server::command::redact;
use crate::server::command::{Command, CommandError};
use crate::server::config::Settings;
use crate::server::outgoing::threading;
use crate::server::store::{ReplyToken, key_name};
use crate::server::text::subjects::OurMail;

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
    /// The well-formed reply tokens its References and In-Reply-To name (whether one
    /// is genuine is `inbound::identity`'s to check).
    pub tokens: Vec<ReplyToken>,
    /// What it asks: its Subject (or a reply's first line, or a `multiple`'s lines)
    /// parsed once.
    pub asks: Asks,
    /// The bounce address of ours it came to (`mail::verp`), if any: then it is a
    /// delivery report for `run::bounces`, never a command, and nothing else of it
    /// is read.
    pub bounce: Option<BounceTo>,
}

/// What a mail asks, as its Subject says.
pub enum Asks {
    /// A reply to one of our mails (`inbound::by_reply`): its Subject names one, or
    /// it names a reply token and its Subject is no command.
    Reply(ReplyText),
    /// One command, or the error of a Subject that is none; never `multiple`.
    Command(Result<Command, CommandError>),
    /// `multiple`: the lines of the body.
    Multiple(Lines),
}

/// A reply to one of our mails as written.
pub struct ReplyText {
    /// The mail its Subject names, if it is one of ours.
    pub ours: Option<OurMail>,
    /// Its first line (quotes, attribution and signature removed): the turn, or a
    /// command.
    pub first: String,
    /// `first` parsed as a command.
    pub parsed: Result<Command, CommandError>,
    /// The rest of it: the comment.
    pub rest: String,
}

/// The command lines of a `multiple` body (blank lines skipped, up to a signature):
/// the first `[limits] commands_per_mail` of them parsed, the rest only counted.
pub struct Lines {
    /// The lines read, each with its command.
    pub read: Vec<(String, Result<Command, CommandError>)>,
    /// How many lines the body holds in all.
    pub total: usize,
}

impl Incoming {
    /// Parse a raw mail; `None` (told to the log) when it is not a mail or is one
    /// never answered (bounces, robots, lists, our own). A mail to one of our bounce
    /// addresses comes back with its [`Incoming::bounce`], untold and unjudged.
    /// `named` says which words name an account: the log shows them in the Subject
    /// (`redact::loggable_naming`).
    pub fn read(
        raw: &[u8],
        total_size: usize,
        envelope_sender: Option<&str>,
        settings: &Settings,
        named: &dyn Fn(&str) -> bool,
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
        let server = settings.address();
        let bounce = (!too_big)
            .then(|| bounce_target(&inbound.delivered_to, &server))
            .flatten();
        let id = inbound.message_id.as_deref().unwrap_or("(no id)");
        if bounce.is_none() {
            if let Some(why) = unanswered::drop_reason(&inbound, envelope_sender, &server) {
                note(format!("dropped {id} without answer: {why}"));
                return None;
            }
            for refused in &inbound.refused {
                note(format!("mail {id}: {refused}"));
            }
        }
        let reply_to = inbound
            .reply_to
            .clone()
            .or_else(|| inbound.from.clone())
            .or_else(|| envelope_sender.and_then(|s| mail::strip_angles(s).parse().ok()));
        if bounce.is_none() {
            note(format!(
                "mail {id} from {} ({total_size} bytes): {}",
                senders(inbound.from.as_deref(), reply_to.as_deref()),
                redact::loggable_naming(&inbound.subject, named)
            ));
        }
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
        let tokens = threading::tokens_named(&inbound);
        let asks = asks(&inbound, &tokens, settings.commands_per_mail);
        Some(Incoming {
            inbound,
            reply_to,
            too_big,
            total_size,
            key,
            quoted,
            tokens,
            asks,
            bounce,
        })
    }
}

/// What `inbound` asks: a reply to one of our mails when its Subject names one, or
/// when it names a reply token and its Subject is no command; else its Subject's
/// command (for `multiple`, the first `commands_per_mail` lines of its body).
fn asks(inbound: &InboundMail, tokens: &[ReplyToken], commands_per_mail: usize) -> Asks {
    let ours = inbound
        .replying
        .then(|| OurMail::named(&inbound.subject))
        .flatten();
    let subject = Command::parse(&inbound.subject);
    if ours.is_some() || (!tokens.is_empty() && subject.is_err()) {
        let (first, rest) = split_reply(&inbound.body);
        let parsed = Command::parse(&first);
        return Asks::Reply(ReplyText {
            ours,
            first,
            parsed,
            rest,
        });
    }
    match subject {
        Ok(Command::Multiple) => Asks::Multiple(lines(&inbound.body, commands_per_mail)),
        other => Asks::Command(other),
    }
}

/// The command lines of a `multiple` body: trimmed, blank ones skipped, up to a
/// signature line (`--`, `-- ...`); the first `max` parsed, the rest only counted
/// (a list of all of them, 40,000 in a 1 MiB body, was 1 MiB more at the time of the
/// password checks).
fn lines(body: &str, max: usize) -> Lines {
    let mut lines = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take_while(|l| *l != "--" && !l.starts_with("-- "));
    let read: Vec<_> = lines
        .by_ref()
        .take(max)
        .map(|l| (l.to_string(), Command::parse(l)))
        .collect();
    let total = read.len() + lines.count();
    Lines { read, total }
}

/// The first line of a reply and the rest (the comment): quoted text, the
/// attribution above it and the signature left out. A first line `--` is a pass
/// (not a signature), its comment what follows it.
pub fn split_reply(body: &str) -> (String, String) {
    if let Some(after) = after_leading_dashes(body) {
        return ("--".to_string(), comment_of(after));
    }
    let comment = comment_of(body);
    let mut lines = comment.lines();
    let first = lines.next().unwrap_or("").trim().to_string();
    let rest = lines.collect::<Vec<_>>().join("\n");
    (first, rest.trim_start_matches('\n').trim_end().to_string())
}

/// When the first line written (blank and quoted lines skipped) is `--`: the text
/// after it.
fn after_leading_dashes(body: &str) -> Option<&str> {
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        offset += line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('>') {
            continue;
        }
        return (trimmed == "--").then(|| &body[offset..]);
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_is_the_move_and_the_rest_the_comment() {
        for (body, first, rest) in [
            ("d1\n", "d1", ""),
            ("\n  d1  \n\nNice one!\n", "d1", "Nice one!"),
            (
                "e5-e9\nOn Mon, 1 Jan 2024, YINSH <y@x> wrote:\n> Yinsh Board 101\n> d1\n",
                "e5-e9",
                "",
            ),
            (
                "On Mon, 1 Jan 2024, YINSH <y@x> wrote:\n> board\n\nresign\nsorry\n-- \nAl\n",
                "resign",
                "sorry",
            ),
            ("--\n\nI cannot move.\n\n> board\n", "--", "I cannot move."),
            ("-- \nAl\n", "--", "Al"),
            ("> only a quote\n", "", ""),
            ("", "", ""),
        ] {
            assert_eq!(
                split_reply(body),
                (first.to_string(), rest.to_string()),
                "{body:?}"
            );
        }
    }

    /// A `multiple` body: blank lines skipped, the signature ends it, the lines over
    /// the bound counted without being read.
    #[test]
    fn the_lines_of_a_multiple_are_read_up_to_the_bound_and_counted() {
        let body = "yinsh help\n\n  yinsh games alice \nhelp\nlist\n-- \nAl\nhelp\n";
        let lines = lines(body, 2);
        let read: Vec<&str> = lines.read.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(read, ["yinsh help", "yinsh games alice"]);
        assert!(lines.read.iter().all(|(_, c)| c.is_ok()));
        assert_eq!(lines.total, 4);
    }
}
