//! The play-by-email server: commands, dispatch, replies, accounts and the game store.

pub mod command;
pub mod config;
pub mod deliver;
pub mod dispatch;
pub mod help;
pub mod log;
pub mod record;
pub mod redact;
pub mod reply;
pub mod robot;
pub mod store;
