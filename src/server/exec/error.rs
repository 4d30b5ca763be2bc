//! What carrying out a command can go wrong with: a refusal (the player's mistake,
//! answered by mail) or an internal failure (the mail is retried later, exit 75).

use crate::server::game::record::LoadError;
use crate::server::game::record::ReplayError;
use crate::server::model::BoardId;
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
    /// Sending or spooling mail failed.
    #[error("mail: {0}")]
    Mail(String),
}

impl From<LoadError> for InternalError {
    fn from(e: LoadError) -> InternalError {
        match e {
            LoadError::Store(e) => InternalError::Store(e),
            LoadError::Replay(e) => InternalError::Replay(e),
        }
    }
}

/// A refusal: the error message and the board it concerns.
pub(super) struct Refusal {
    pub(super) message: String,
    pub(super) board: Option<BoardId>,
}

pub(super) fn refuse(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        board: None,
    }
}

pub(super) fn refuse_on(board: impl Into<BoardId>, message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        board: Some(board.into()),
    }
}

macro_rules! tri {
    ($e:expr) => {
        match $e? {
            Ok(v) => v,
            Err(refusal) => return Ok(Err(refusal)),
        }
    };
}

pub(super) use tri;
