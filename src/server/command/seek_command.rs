//! What an open seek's command says (issue 49), as [`Command::Seek`] carries it:
//! [`SeekCommand`]. Parsed in `seek.rs`.
//!
//! [`Command::Seek`]: super::Command::Seek

use crate::server::model::Credentials;
use crate::server::store::{SeekId, SeekWish};

/// What a seek command asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SeekCommand {
    /// `yinsh seek <userid> <password> [options]`: post a seek.
    Post {
        /// Who posts it.
        auth: Credentials,
        /// What it asks for.
        wish: SeekWish,
    },
    /// `yinsh seeks`: the open seeks listed.
    List,
    /// `yinsh take <seekno> <userid> <password>`: the game of that seek started.
    Take {
        /// The seek.
        seek: SeekId,
        /// Who takes it.
        auth: Credentials,
    },
    /// `yinsh withdraw <seekno> <userid> <password>` (also `unseek`).
    Withdraw {
        /// The seek.
        seek: SeekId,
        /// Its owner.
        auth: Credentials,
    },
}

impl SeekCommand {
    /// The credentials it carries, if any.
    pub fn credentials(&self) -> Option<&Credentials> {
        match self {
            SeekCommand::Post { auth, .. }
            | SeekCommand::Take { auth, .. }
            | SeekCommand::Withdraw { auth, .. } => Some(auth),
            SeekCommand::List => None,
        }
    }
}
