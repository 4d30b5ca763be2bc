//! The commands behind `main.rs` that print to a terminal rather than answer mail
//! (perft, replay). Each returns the process exit code.

mod perft;
mod replay;

pub use perft::perft;
pub use replay::replay;
