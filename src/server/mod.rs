//! The play-by-email server. From the top down (each part uses only those below it):
//! [`run`] (one mail, flush, tick: lock, journal, send; beside it [`read`]: what
//! reads the server without changing it, `status`) -> [`exec`] (carrying out a
//! command) -> [`command`] (what a Subject line says), [`text`] (the mails' text),
//! [`game`] (live games, ratings, vacations) -> [`store`] (every file under the home) -> [`model`] (the typed values).
//! [`config`] holds the settings. `docs/architecture.md` shows one mail's path.

pub mod check;
pub mod command;
pub mod config;
pub mod exec;
pub mod game;
pub mod inbound;
pub mod internal;
pub mod model;
pub mod outgoing;
pub mod read;
pub mod run;
pub mod site;
pub mod store;
pub mod text;

pub use config::Settings;
pub use run::{Report, deliver, flush, tick};
