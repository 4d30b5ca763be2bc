//! The one integration-test binary: each module tests one capability.

mod boardspace;
mod common;
mod mail_io;
mod render;
mod store;
