//! Games brought to life from their files: the live game replayed from its move list
//! (`record`), per-game extras (watchers, offers, queued moves, clocks: `extra`),
//! Elo ratings (`ratings`) and vacations (`vacation`).

pub mod extra;
pub mod ratings;
pub mod record;
pub mod vacation;
