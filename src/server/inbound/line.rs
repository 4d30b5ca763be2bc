//! A command line read (a Subject, a line of `multiple`, a reply's first line):
//! [`Command::parse`] marks the words a reply may not show (a password, or a word
//! that may be one written out of its place) in the fields that carry them; here
//! those naming an account are shown again, userids of accounts being public. Every
//! reply then echoes the line's words through those fields, already masked: no reply
//! is searched for a password afterwards.

use crate::server::command::{Command, CommandError};
use crate::server::internal::InternalError;
use crate::server::model::UserId;
use crate::server::store::Store;

/// Shows the masked words of `parsed` (a line as [`Command::parse`] read it) that
/// name an account.
pub fn reveal(
    store: &Store,
    parsed: &mut Result<Command, CommandError>,
) -> Result<(), InternalError> {
    let mut named = |w: &str| -> Result<bool, InternalError> {
        match w.parse::<UserId>() {
            Ok(u) => Ok(store.account(&u)?.is_some()),
            Err(_) => Ok(false),
        }
    };
    match parsed {
        Ok(cmd) => cmd.reveal(&mut named),
        Err(e) => e.reveal(&mut named),
    }
}
