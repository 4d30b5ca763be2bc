//! What carrying a mail out made ([`Answered`]): its replies, and the proof of each
//! command carried out, which the run reads after the commands (the storm count, the
//! bounce restore).

use crate::server::exec::{Proven, Reply};

/// What carrying a mail out made: its replies, and the proof of each command carried
/// out (for the bounce restore, `run::bounces::shows_working`).
#[derive(Default)]
pub struct Answered {
    /// The replies, in order.
    pub replies: Vec<Reply>,
    /// The proofs, in the order of the commands.
    pub proofs: Vec<Proven>,
}

impl Answered {
    /// The replies `replies` of a command proved as `proven`.
    pub fn of(replies: Vec<Reply>, proven: Proven) -> Answered {
        Answered {
            replies,
            proofs: vec![proven],
        }
    }

    /// Replies that no command's proof made (a notice, a line that is no command).
    pub fn unproved(replies: Vec<Reply>) -> Answered {
        Answered {
            replies,
            proofs: Vec::new(),
        }
    }

    /// `other`'s replies and proofs after these.
    pub fn extend(&mut self, other: Answered) {
        self.replies.extend(other.replies);
        self.proofs.extend(other.proofs);
    }
}
