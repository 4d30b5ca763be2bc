//! A raw mail -> who wrote it and what it asks, in the order a mail is read:
//! [`incoming`] (bytes -> [`incoming::Incoming`], read once: headers, the VERP bounce
//! verdict, the duplicate key, the reply tokens, and what the Subject asks parsed
//! once; mails never answered dropped by `unanswered.rs`), [`commands`] (the storm
//! and size limits, then the Subject's command, the lines of a `multiple` or a
//! reply's first line ([`by_reply`]) carried out through `exec`; what they made is
//! an [`answered::Answered`]), each command proved once by [`identity::prove`] (a
//! reply token from the player's address, the right password, a verify code, a play
//! token) and each line read by `line.rs` (the words its masking hides shown only
//! where they name an account).

pub mod answered;
pub mod by_reply;
pub mod commands;
pub mod identity;
pub mod incoming;
pub mod line;
mod syntax;
pub mod unanswered;
