//! The internal failures of a command ([`InternalError`]: disk, mail, a stored game
//! that does not replay; the mail is retried later, exit 75) and [`ExecError`], a
//! refusal or an internal failure, which handlers return so that `?` carries both.

use super::refusal::Refusal;
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

/// Why a handler gives no replies: a refusal to answer with an error mail, or an
/// internal failure.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The player's mistake.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Disk, mail or a stored game that does not replay.
    #[error(transparent)]
    Internal(#[from] InternalError),
}

impl From<StoreError> for ExecError {
    fn from(e: StoreError) -> ExecError {
        ExecError::Internal(e.into())
    }
}

impl From<ReplayError> for ExecError {
    fn from(e: ReplayError) -> ExecError {
        ExecError::Internal(e.into())
    }
}

impl From<LoadError> for ExecError {
    fn from(e: LoadError) -> ExecError {
        ExecError::Internal(e.into())
    }
}
