//! The play-by-email server: commands, dispatch, replies, accounts and the game store.

pub mod actions;
pub mod command;
pub mod config;
pub mod deliver;
pub mod dispatch;
pub mod extra;
pub mod help;
pub mod log;
pub mod ratings;
pub mod record;
pub mod redact;
pub mod reply;
pub mod robot;
pub mod social;
pub mod store;
pub mod tick;
pub mod vacation;
