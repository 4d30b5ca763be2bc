//! [`ExecError`]: a refusal or an internal failure ([`InternalError`], `server::internal`),
//! which handlers return so that `?` carries both.

use super::refusal::Refusal;
use crate::server::game::record::{LoadError, ReplayError};
pub use crate::server::internal::InternalError;
use crate::server::store::StoreError;

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
