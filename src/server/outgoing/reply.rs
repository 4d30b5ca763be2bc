//! The one outgoing type: a [`Reply`] (recipients, subject, text and HTML parts, its
//! thread and reader's token) with what of it another person chose ([`Foreign`]),
//! so that the gate (`gate.rs`) can leave that out for an address nobody confirmed.

use crate::mail::Address;
use crate::server::text::html::BoardHtml;

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
    /// The HTML part of a board mail (the picture, the status, the command to send),
    /// sent beside the body unless the server turns HTML off; `None` for text only.
    pub html: Option<BoardHtml>,
    /// Its game's mail thread and its reader's reply token.
    pub thread: Thread,
    /// Who it is for, as the gate (`gate.rs`) judges its recipients.
    pub audience: Audience,
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
    /// Some of it (a comment, a quoted original): the body to send without it.
    Part(String),
    /// All of it (a chat, a message, a broadcast): not sent to such an address.
    All,
}
