//! The one integration-test binary: each module tests one capability.

mod accounts_by_mail;
mod address; // mail addresses: what is accepted can be mailed; odd From/Reply-To
mod ai; // the computer opponent: self-play, think and match through the binary, Elo
mod boardspace;
mod bounds;
mod common;
mod concurrency;
mod config;
// Needs the binary's fault injection: in debug builds (`cargo test`) or the feature.
#[cfg(any(debug_assertions, feature = "fault-injection"))]
mod crash;
mod deliver_corpus;
mod email_game;
mod hostile;
mod mail_io;
mod naive;
mod notation;
mod passwords;
mod pbmserv_commands;
mod perft;
mod picture;
mod playouts;
mod render;
mod replay;
mod robot;
mod rules;
mod server_util;
mod sgf;
mod smtp_e2e;
mod store;
