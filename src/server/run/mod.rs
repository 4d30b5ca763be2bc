//! The run of one mail (`deliver`), of `flush` and of `tick`: each takes the store's
//! lock, completes a journal a killed run left, carries its work out in one
//! transaction committed through the journal ([`txn`]), sends what is spooled, and
//! does the work owed ([`owed`]). Every run function takes the run's [`context`]
//! (store, settings, clock, log, report).

pub mod backup;
mod bounces;
pub mod context;
pub mod counters;
pub mod deliver;
pub mod dry_run;
mod expire;
pub mod flush;
mod indexes;
pub mod log;
pub mod owed;
pub mod reindex;
mod released;
pub mod report;
pub mod send;
pub mod site;
pub mod thought;
pub mod tick;
pub mod txn;

pub use deliver::deliver;
pub use flush::flush;
pub use reindex::reindex;
pub use report::Report;
pub use tick::tick;
