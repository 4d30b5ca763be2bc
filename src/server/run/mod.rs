//! The run of one mail (`deliver`), of `flush` and of `tick`: each takes the store's
//! lock, completes a journal a killed run left, carries its work out in one
//! transaction committed through the journal ([`txn`]), and sends what is spooled.

pub mod by_reply;
pub mod commands;
pub mod deliver;
pub mod guard;
pub mod html;
mod indexes;
pub mod log;
pub mod opponent;
pub mod proven;
pub mod reindex;
pub mod report;
pub mod robot;
pub mod send;
pub mod site;
mod syntax;
pub mod threading;
pub mod tick;
pub mod txn;

pub use deliver::{deliver, flush};
pub use reindex::reindex;
pub use report::Report;
pub use tick::tick;
