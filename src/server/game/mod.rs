//! Games brought to life from their files: the live game replayed from its move list
//! (`record`), per-game extras (watchers, offers, queued moves, clocks: `extra`),
//! Elo ratings (`ratings`), vacations (`vacation`), the pictures of its positions
//! (`picture`), what the robot's review is given and keeps (`review`), the robots' rules as players (`robots`) and who knows whom
//! (`strangers`: the games nobody asked for), tournaments' pairings and standings
//! (`tournament`).

pub mod clock;
pub mod extra;
pub mod index;
pub mod picture;
pub mod ratings;
pub mod record;
pub mod review;
pub mod robots;
pub mod strangers;
pub mod tournament;
pub mod vacation;
