//! The indexes kept beside the game files (`store::index` owns their files): a game's
//! [`Summary`], the update of the indexes inside each transaction ([`update`]), and
//! the standings kept in order ([`section`], [`settle`]), the rebuild from the game files ([`rebuild`], [`ensure`]), and the reads of mails
//! and tick ([`due_boards`], [`history_page`], [`load_scanned`]).

mod maintain;
mod query;
mod rank;
mod rebuild;
mod summary;

pub use maintain::update;
pub use query::{due_boards, history_page, load_scanned, next_due};
pub use rank::{idle_at, section, settle};
pub use rebuild::{Rebuilt, Snapshot, ensure, rebuild, snapshot};
pub use summary::{Summary, next_check, summary};
