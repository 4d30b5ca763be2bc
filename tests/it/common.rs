//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// `../shared/data/boardspace-yinsh` beside the checkout, if it is there.
pub fn boardspace_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/boardspace-yinsh");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is absent; the Boardspace replay tests need ../shared beside the checkout",
            dir.display()
        );
        None
    }
}
