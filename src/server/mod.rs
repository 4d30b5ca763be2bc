//! The play-by-email server: commands, dispatch, replies, accounts and the game store.
pub mod store;
