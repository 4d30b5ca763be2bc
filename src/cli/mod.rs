//! The commands behind `main.rs`: each returns the process exit code.

#[macro_use]
mod stdout;
mod backup;
mod duel;
mod generate;
mod keys;
mod manual;
mod perft;
mod record;
mod render;
mod replay;
mod review;
mod serve;
mod site;
mod status;
mod think;
mod tick;
mod transcript;

pub use crate::server::config::Overrides;
pub use backup::{backup, restore};
pub use duel::{MatchArgs, play_match};
pub use generate::generate_package_files;
pub use keys::rotate_reply_key;
pub use perft::perft;
pub use record::{export, import};
pub use render::{PictureFormat, render};
pub use replay::replay;
pub use review::{ReviewFormat, review_game};
pub use serve::{
    EX_TEMPFAIL, Host, Panics, SmtpArgError, SmtpUrlArgument, check_config, deliver,
    deliver_dry_run, deliver_in, deliver_usage_error, flush, flush_in, is_deliver,
};
pub use site::site;
pub use status::{StatusOutput, status};
pub use think::{Effort, think};
pub use tick::{reindex, tick, tick_in};
