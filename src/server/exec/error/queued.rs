//! [`QueuedDropped`]: why a queued move was dropped instead of played when its
//! player's turn came (told to its player in the mail that says it was dropped).

use crate::notation::NotationError;

/// Why a queued move was dropped instead of played. `Display` is the reason its
/// player reads.
///
/// ```
/// use yinsh_pbem::server::exec::error::QueuedDropped;
/// assert_eq!(
///     QueuedDropped::Marked { marked: 7, number: 9 }.to_string(),
///     "it was marked #7 but would have been move #9"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
pub enum QueuedDropped {
    /// It was marked with another number than the turn it would have been.
    #[error("it was marked #{marked} but would have been move #{number}")]
    Marked {
        /// The number it was marked with.
        marked: u32,
        /// The number it would have had.
        number: u32,
    },
    /// It does not fit the game as it is now.
    #[error(transparent)]
    Illegal(NotationError),
}
