//! The one integration-test binary: each module tests one capability.

mod boardspace;
mod common;
mod notation;
mod replay;
