//! What a run of `deliver`, `flush` or `tick` did: lines for the log and `--verbose`,
//! and the counts of replies (those the gate held back among them, by why:
//! [`Refused`]); nothing a run still has to do (that is `txn::Committed`).

use serde::{Deserialize, Serialize};

use crate::server::outgoing::gate::Held;

/// What `deliver`, `flush` or `tick` did, for the log and `--verbose`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Lines describing what happened.
    pub lines: Vec<String>,
    /// What the run looked at, for `--verbose` only (not logged): `tick`'s games
    /// due, robot turns owed and the next time a game is due.
    pub checked: Vec<String>,
    /// Replies spooled.
    pub spooled: usize,
    /// Replies sent by the flush (or written to the outbox).
    pub sent: usize,
    /// Replies left in the spool because sending failed.
    pub failed: usize,
    /// Replies given up (moved to `<home>/spool/failed/`).
    pub dead: usize,
    /// Mails to a bounce address read (delivery reports).
    pub bounces: usize,
    /// Mails left unanswered on purpose: not a mail, or one never answered (robots,
    /// lists, loops, our own), or a mail already handled.
    pub unanswered: usize,
    /// The recipients the gate left out of replies, by why.
    pub refused: Refused,
}

/// Recipients the gate left out of a reply (`outgoing::gate`), one count per reason
/// ([`Held`]): in a run's [`Report`], and summed in `counters.json` (`"refused"`),
/// where a reason missing is 0.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Refused {
    /// A daily budget was spent (a stranger's, a mailbox's chats and messages, an
    /// unconfirmed address's quota).
    pub budget: u64,
    /// The address is marked failing after hard bounces.
    pub failing: u64,
    /// Another person's text, for an address that may not get it.
    pub foreign_text: u64,
    /// An operator's notice, for an address that is not the operator's.
    pub not_operator: u64,
    /// The gate was closed (fault injection).
    pub gate_closed: u64,
}

impl Refused {
    /// The count of `why`.
    pub fn get(&self, why: Held) -> u64 {
        match why {
            Held::Budget => self.budget,
            Held::Failing => self.failing,
            Held::ForeignText => self.foreign_text,
            Held::NotOperator => self.not_operator,
            Held::GateClosed => self.gate_closed,
        }
    }

    /// One more recipient left out because of `why`.
    pub fn count(&mut self, why: Held) {
        self.add(why, 1);
    }

    /// `n` more recipients left out because of `why`.
    fn add(&mut self, why: Held, n: u64) {
        let slot = match why {
            Held::Budget => &mut self.budget,
            Held::Failing => &mut self.failing,
            Held::ForeignText => &mut self.foreign_text,
            Held::NotOperator => &mut self.not_operator,
            Held::GateClosed => &mut self.gate_closed,
        };
        *slot = slot.saturating_add(n);
    }

    /// Adds every count of `other`.
    pub fn add_all(&mut self, other: &Refused) {
        for why in Held::ALL {
            self.add(why, other.get(why));
        }
    }

    /// Every recipient left out, whatever the reason.
    pub fn total(&self) -> u64 {
        Held::ALL.iter().map(|&w| self.get(w)).sum()
    }
}
