//! Every mail the server sends, from the moment a handler or a run makes it to the
//! moment it is built for the journal, in the order its passes run: [`reply`] (the one
//! outgoing type and its thread), [`board_mails`] (a game's mail fanned out to its
//! players and watchers), [`gate`] (THE gate: who may be mailed and what of another
//! person's text goes along), [`build`] (headers, HTML part and picture: a
//! `mail::BuiltMail`). `run::txn` passes every reply of a transaction through the gate
//! and the build, so no run can send one that did not pass.

pub mod board_mails;
pub mod build;
pub mod gate;
pub mod reply;
pub mod thread;
pub mod threading;

pub use reply::{Audience, Cause, Foreign, HtmlPart, Reply};
