//! Games brought to life from their files: the live game replayed from its move list
//! (`record`), per-game extras (watchers, offers, queued moves, clocks: `extra`),
//! Elo ratings (`ratings`), vacations (`vacation`) and the pictures of its positions
//! (`picture`).

pub mod extra;
pub mod picture;
pub mod ratings;
pub mod record;
pub mod vacation;
