//! The one outgoing type: a [`Reply`] (recipients, subject, text and HTML parts, its
//! thread and reader's token) with what of it another person chose ([`Foreign`]),
//! so that the gate (`gate/`) can leave that out for an address nobody confirmed,
//! and what caused it ([`Cause`]), so that the gate can budget what a stranger causes.
//! [`Reply::described`] names a reply for a log or report line without its secrets.

use std::fmt;

use crate::mail::Address;
use crate::server::command::redact;
use crate::server::text::html::BoardHtml;
use crate::server::text::review::ReviewHtml;
use crate::server::text::subjects::OurMail;

use super::thread::Thread;

/// One reply to send.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// Recipients.
    pub to: Vec<Address>,
    /// Subject.
    pub subject: String,
    /// Body.
    pub body: String,
    /// What of the body another person chose, for recipients who have not
    /// confirmed their address (`outgoing::gate` decides who gets what).
    pub foreign: Foreign,
    /// The HTML part of a board mail (the picture, the status, the command to send)
    /// or of a review mail (the chart, the turning points drawn), sent beside the body
    /// unless the server turns HTML off; `None` for text only.
    pub html: Option<HtmlPart>,
    /// Its game's mail thread and its reader's reply token.
    pub thread: Thread,
    /// Who it is for, as the gate (`gate/`) judges its recipients.
    pub audience: Audience,
    /// What caused it, as the gate budgets it.
    pub cause: Cause,
}

impl Reply {
    /// What this reply is, for a log or report line, never a secret (issue 45: the
    /// Subject of a verify mail is the command `verify <userid> <code>`, and the code
    /// confirms an address from anywhere): the Subject when it is one of the server's
    /// own that name no secret (`text::subjects::OurMail::named`: board mails, chats,
    /// notices, listings); a verify mail as `the verify code for <userid>`; any other
    /// Subject with the words a command hides masked (`command::redact::loggable`).
    ///
    /// ```
    /// use yinsh_pbem::server::outgoing::Reply;
    /// let verify = Reply { subject: "verify alice K7QXM2PRWT".into(), ..Reply::default() };
    /// assert_eq!(verify.described().to_string(), "the verify code for alice");
    /// let board = Reply { subject: "Yinsh Board 101 bob".into(), ..Reply::default() };
    /// assert_eq!(board.described().to_string(), "Yinsh Board 101 bob");
    /// ```
    pub fn described(&self) -> Described<'_> {
        Described(&self.subject)
    }
}

/// A [`Reply`] as a log line names it ([`Reply::described`]).
#[derive(Debug, Clone, Copy)]
pub struct Described<'a>(&'a str);

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = self.0;
        if OurMail::named(subject).is_some() {
            return f.write_str(subject);
        }
        let mut words = subject.split_whitespace();
        match (words.next(), words.next()) {
            (Some(verb), Some(userid)) if verb.eq_ignore_ascii_case("verify") => {
                write!(f, "the verify code for {}", redact::loggable(userid))
            }
            _ => f.write_str(&redact::loggable(subject)),
        }
    }
}

/// The HTML part of a [`Reply`], by kind: each waits for what only the sending side
/// knows (its pictures' Content-IDs, the game page's address: `build.rs`).
// A board mail's part is held inline as it was before reviews came (one per reply).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HtmlPart {
    /// A board mail's, or an error mail's about a game: one position pictured.
    Board(BoardHtml),
    /// A review mail's (issue 28): the chart and the turning points' boards.
    Review(ReviewHtml),
}

/// What caused a [`Reply`] of a mail, as the gate (`gate/`) budgets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cause {
    /// A mail that proved no account with a confirmed address: anyone can send it from
    /// any From to any Reply-To, so each mailbox it reaches is counted against the
    /// daily budget of such mails, and it carries none of the text another person
    /// chose. Every reply to a mail is this unless `inbound::identity` proved more.
    #[default]
    Stranger,
    /// A mail proven (password, reply token or verify code) to come from the owner of
    /// an account with a confirmed address, answered at that account's own
    /// addresses: honest play, never budgeted.
    Owner,
}

/// Who a [`Reply`] is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Audience {
    /// Players and senders: the gate judges each address.
    #[default]
    Players,
    /// The server's own notice to the configured operator (`[server] operator`): it
    /// goes to that address only.
    Operator,
}

/// The text of a [`Reply`] chosen by someone other than the server, so that an
/// address nobody confirmed cannot be made to carry it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Foreign {
    /// The server wrote all of it.
    #[default]
    Nothing,
    /// Some of it (a quoted original, a challenger's address): the body to send
    /// without it.
    Part(String),
    /// Another person's words sent on to this reader (a move's comment, the words of
    /// a draw offer or of a take-back): counted among the chats and messages the
    /// reader's mailbox gets a day, and left out, the board mail still sent, for an
    /// address that may not get them (`unconfirmed`) or once that day's are spent
    /// (`over_cap`): the two bodies without them.
    Words {
        /// The body for an address that may not get another person's text.
        unconfirmed: String,
        /// The body for a mailbox that got its day's chats and messages.
        over_cap: String,
    },
    /// All of it (a chat, a message, a broadcast): not sent to such an address.
    All,
}
