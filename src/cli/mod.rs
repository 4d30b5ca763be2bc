//! The commands behind `main.rs`: each returns the process exit code.

mod perft;
mod replay;
mod serve;

pub use perft::perft;
pub use replay::replay;
pub use serve::{EX_TEMPFAIL, ServerOptions, deliver, flush};
