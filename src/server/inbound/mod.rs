//! A raw mail -> who wrote it and what it asks, in the order a mail is read:
//! [`incoming`] (bytes -> [`incoming::Incoming`]: headers read once, the duplicate key;
//! mails never answered dropped by `unanswered.rs`), [`identity`] (the ONE place that
//! decides whether a mail proves its sender: a reply token from the player's address,
//! or the right password), [`commands`] (the storm and size limits, then the Subject,
//! the lines of a `multiple` or a reply's first line ([`by_reply`]) carried out as
//! commands through `exec`), each line read by `line.rs` (the words its masking
//! hides shown only where they name an account).

pub mod by_reply;
pub mod commands;
pub mod identity;
pub mod incoming;
pub mod line;
mod syntax;
pub mod unanswered;
