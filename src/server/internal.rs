//! The internal failures of a run ([`InternalError`]: disk, mail, a stored game that
//! does not replay): the mail is retried later, exit 75. Below every part that
//! handles a mail (`inbound`, `exec`, `outgoing`, `run`), so each can fail with it.

use crate::mail::SpoolError;
use crate::server::game::record::{LoadError, ReplayError};
use crate::server::store::StoreError;

/// An internal failure: the mail is to be retried later (exit 75).
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Spooling or sending mail failed.
    #[error("mail: {0}")]
    Mail(#[from] SpoolError),
}

impl From<LoadError> for InternalError {
    fn from(e: LoadError) -> InternalError {
        match e {
            LoadError::Store(e) => InternalError::Store(e),
            LoadError::Replay(e) => InternalError::Replay(e),
        }
    }
}
