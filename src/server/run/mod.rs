//! The run of one mail (`deliver`), of `flush` and of `tick`: each takes the store's
//! lock, completes a journal a killed run left, carries its work out in one
//! transaction committed through the journal ([`txn`]), and sends what is spooled;
//! [`status`] reads how the server is doing.

pub mod backup;
mod bounces;
pub mod counters;
pub mod deliver;
pub mod dry_run;
mod expire;
pub mod flush;
mod indexes;
pub mod log;
pub mod opponent;
pub mod reindex;
mod released;
pub mod report;
pub mod reviews;
pub mod send;
pub mod site;
pub mod status;
pub mod thought;
pub mod tick;
pub mod txn;

pub use deliver::deliver;
pub use flush::flush;
pub use reindex::reindex;
pub use report::Report;
pub use tick::tick;
