//! The one integration-test binary: each module tests one capability.

mod boardspace;
mod common;
mod naive;
mod perft;
mod playouts;
mod rules;
