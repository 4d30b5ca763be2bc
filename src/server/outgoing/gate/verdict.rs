//! The terms of the gate's verdicts: which run made the replies it judges
//! ([`Source`]), and why it left a recipient out of one ([`Held`], told as a
//! [`HeldBack`]: the reason and the log line). The runs count the reasons
//! (`run::report::Refused`, `yinsh_pbem_replies_refused_total{reason}`).

use std::fmt;

/// Which run made the replies the gate judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The answer to one incoming mail (`deliver`): each reply is judged by its
    /// [`Cause`](crate::server::outgoing::Cause).
    Mail,
    /// Work owed (a robot's turn, a review), with the cause of the mail that made it
    /// owed: a stranger's is budgeted as the stranger's own replies are.
    Owed(crate::server::outgoing::Cause),
    /// The games' clock (`tick`). This and `Server` are the server's own: not
    /// budgeted.
    Clock,
    /// The server's own run otherwise (a bounce report, a reply given up, its
    /// notices, `reindex`): nobody outside asked for it.
    Server,
}

/// Why the gate left one recipient out of a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// A daily budget was spent: the mails a stranger's mail may cause to a mailbox,
    /// the chats and messages one mailbox gets, or the mails an unconfirmed address
    /// gets.
    Budget,
    /// The address is marked failing after hard bounces (`run::bounces`).
    Failing,
    /// Text another person chose (a chat, a message), for an address that may not
    /// get it: the mail that caused it proved no sender, or the address is not
    /// confirmed.
    ForeignText,
    /// An operator's notice, for an address that is not the configured operator's.
    NotOperator,
    /// The gate is closed (fault injection, `YINSH_PBEM_FAULT=gate-closed`).
    GateClosed,
}

impl Held {
    /// Every reason, in the order the counters show them.
    pub const ALL: [Held; 5] = [
        Held::Budget,
        Held::Failing,
        Held::ForeignText,
        Held::NotOperator,
        Held::GateClosed,
    ];

    /// The reason as the Prometheus label `reason` and `status` name it.
    pub fn label(self) -> &'static str {
        match self {
            Held::Budget => "budget",
            Held::Failing => "failing",
            Held::ForeignText => "foreign_text",
            Held::NotOperator => "not_operator",
            Held::GateClosed => "gate_closed",
        }
    }
}

/// One recipient left out of one reply: why, and the log line that says so (its
/// `Display`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldBack {
    /// Why.
    pub why: Held,
    /// The line for the log and the report, naming the address and the Subject.
    pub line: String,
}

impl HeldBack {
    /// `why`, told by `line`.
    pub fn new(why: Held, line: String) -> HeldBack {
        HeldBack { why, line }
    }
}

impl fmt::Display for HeldBack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}
