//! The journal that makes one mail's effect atomic: every file change of its command,
//! every reply (built, with its Message-ID fixed) and the mark that the mail was seen,
//! written as ONE file, `<home>/journal/pending`, and made durable before any of it is
//! applied. That is the commit: the only write of a mail that is fsynced on its own.
//! A crash while applying leaves a whole journal that the next run completes before
//! doing anything else; a crash while writing leaves a torn one, never committed,
//! which is discarded. Three jobs, one file each:
//!
//! - `format.rs`: the file's header and JSON body ([`Journal`], written and read by
//!   serde), [`fnv1a64`], the checksum of the header;
//! - `write.rs`: the commit (written in place, made durable), applying, emptying;
//! - `recover.rs`: completing or discarding what a crash left ([`Recovered`]).

mod format;
mod recover;
mod write;

#[cfg(test)]
mod tests;

pub use format::{Journal, fnv1a64};
pub use recover::Recovered;
