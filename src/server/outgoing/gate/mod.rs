//! THE gate: every mail of every run passes here before it is committed. The one
//! caller of [`pass`] is `run::txn::Locked::transaction`, on all the replies of its
//! transaction (a mail's answers, board mails, robot turns, reviews, reminders,
//! forfeits, bounce notices, the operator's notices and dead letters: each the `Work`
//! of a transaction), and the one writer of the spool and the outbox is that
//! transaction's journal; no run builds or spools a mail itself. The threat model
//! and the budgets are in `docs/reliability.md` ("Strangers, players, operator").
//!
//! - An address marked failing after hard bounces (issue 30, `run::bounces`) gets
//!   nothing; the other recipients of the reply get it.
//! - A reply for the operator ([`Audience::Operator`]: the server's own notices of
//!   damaged files, of addresses marked failing and of replies given up) goes only
//!   to the configured operator.
//! - **What a stranger causes is budgeted per mailbox.** A reply to a mail that proved
//!   no account with a confirmed address ([`Cause::Stranger`]: anyone can send it,
//!   from any From, to any Reply-To) is counted against each mailbox it reaches
//!   ([`Address::canonical`]: every spelling and `+tag` of one mailbox is one), at
//!   most `stranger_mails_per_day` a day (`<home>/strangers/`, inside the
//!   transaction); the last one of the day says so and until when, the rest are
//!   dropped with a log line. Such a reply never carries text another person chose
//!   (its [`Foreign`] part is left out, a chat or message is not sent). The mail a
//!   run makes of work owed (a robot's turn, a review: [`Source::Owed`]) carries the
//!   cause of the mail that made it owed, and a stranger's is counted in the same
//!   budget. Honest play ([`Cause::Owner`]) and the server's own runs (reminders,
//!   bounce notices: [`Source`]) are not counted.
//!   All this when `[security] confirm_addresses` is on (the default); off, the
//!   operator trusts every address.
//! - A mailbox gets at most [`MESSAGES_PER_MAILBOX_PER_DAY`] chats and messages a day
//!   (`<home>/messages/`), so that an account, even one with a confirmed address,
//!   cannot bury another player in text.
//! - When `[security] confirm_addresses` is on, a recipient address that no account has
//!   confirmed gets no text another person chose either, and at most
//!   `unconfirmed_mails_per_day` mails a day (`<home>/quota/`); and a reply token goes
//!   only to an address the token's own account confirmed (another recipient gets the
//!   mail without it), and so does a play token (its link).
//!
//! With fault injection compiled in, `YINSH_PBEM_FAULT=gate-closed` makes the gate let
//! nothing through (`durable::fault`): the test that every run's mail passes it.
//!
//! Each recipient left out is told as a [`HeldBack`] (why: a [`Held`], and the log
//! line), which the runs count. The files, one job each: `verdict.rs` (the terms:
//! [`Source`], [`Held`]), `pass.rs` (the gate itself: the operator's notices, then
//! the players'), `failing.rs` (failing addresses left out), `players.rs` (a reply to
//! players judged recipient by recipient: budgets, foreign text, tokens).
//!
//! [`Audience::Operator`]: crate::server::outgoing::Audience::Operator
//! [`Cause::Stranger`]: crate::server::outgoing::Cause::Stranger
//! [`Cause::Owner`]: crate::server::outgoing::Cause::Owner
//! [`Address::canonical`]: crate::mail::Address::canonical
//! [`Foreign`]: crate::server::outgoing::Foreign

mod failing;
mod pass;
mod players;
mod verdict;

#[cfg(test)]
mod tests;

pub use pass::pass;
pub use players::MESSAGES_PER_MAILBOX_PER_DAY;
pub use verdict::{Held, HeldBack, Source};
