//! The commands behind `main.rs`: each returns the process exit code.

mod perft;
mod replay;
mod serve;
mod tick;

pub use crate::server::config::Overrides;
pub use perft::perft;
pub use replay::replay;
pub use serve::{EX_TEMPFAIL, check_config, deliver, flush};
pub use tick::tick;
