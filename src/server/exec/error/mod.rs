//! What carrying out a command can go wrong with, one idea a file: a [`Refusal`] (the
//! player's mistake, answered by an error mail whose text is the refusal's `Display`,
//! under the board it concerns: `refusal.rs`, and which board in `board.rs`), an
//! [`InternalError`] (the mail is retried later, exit 75) and [`ExecError`], either of
//! them, which handlers return so that `?` carries both (`internal.rs`); the answers to
//! an invalid `challenge` ([`InvalidChallenge`], `challenge.rs`), which go out as a
//! normal reply rather than an error mail; the small text helpers they share
//! (`words.rs`); the refusals of a move sent with a play link's token
//! ([`PlayLinkRefusal`], `play_link.rs`); why a queued move was dropped
//! ([`QueuedDropped`], `queued.rs`); why a seek command is not carried out
//! ([`SeekRefusal`], `seek.rs`). The texts of the refusals of new accounts' names and addresses are
//! tested in `account_texts.rs`, the others in `tests.rs`.

mod board;
mod challenge;
mod internal;
mod play_link;
mod queued;
mod refusal;
mod seek;
mod sender;
mod tournament;
mod words;

pub use challenge::InvalidChallenge;
pub(crate) use challenge::free_a_place;
pub use internal::{ExecError, InternalError};
pub use play_link::PlayLinkRefusal;
pub use queued::QueuedDropped;
pub use refusal::Refusal;
pub use seek::SeekRefusal;
pub use tournament::TournamentRefusal;

#[cfg(test)]
mod account_texts;
#[cfg(test)]
mod tests;
