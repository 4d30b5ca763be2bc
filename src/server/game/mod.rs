//! Games brought to life from their files: the live game replayed from its move list
//! (`record`), per-game extras (watchers, offers, queued moves, clocks: `extra`),
//! Elo ratings (`ratings`), vacations (`vacation`), the pictures of its positions
//! (`picture`) and the robots' rules as players (`robots`).

pub mod clock;
pub mod extra;
pub mod index;
pub mod picture;
pub mod ratings;
pub mod record;
pub mod robots;
pub mod vacation;
