//! Helpers shared by the integration tests, kept apart from the tests themselves:
//! starting the `yinsh-pbem` binary ([`bin`]), writing mails to it ([`mail`]), a
//! server home driven through the binary ([`server`]), commands carried out
//! in-process ([`exec`]), the game page's play mode clicked in Chromium
//! ([`play_page`]), the mails a test looks for and the set-ups many share
//! ([`sent`]), turns of random games ([`turns`]; seeded tests draw from the crate's
//! own `yinsh_pbem::ai::Rng`), bounces sent back ([`dsn`]), the data beside the
//! checkout ([`data`]), the temporary folders of the homes ([`tmp`]) and the web site
//! served over HTTP to Chromium ([`web`]).

pub mod bin;
pub mod data;
pub mod dsn;
pub mod exec;
pub mod mail;
pub mod play_page;
pub mod sent;
pub mod server;
pub mod tmp;
pub mod turns;
pub mod web;
