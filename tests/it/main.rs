//! The one integration-test binary: each module tests one capability.

mod boardspace;
mod common;
mod concurrency;
mod crash;
mod deliver_corpus;
mod email_game;
mod hostile;
mod mail_io;
mod naive;
mod perft;
mod playouts;
mod render;
mod robot;
mod rules;
mod server_util;
mod store;
