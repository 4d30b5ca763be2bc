//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// `../shared/data/boardspace-yinsh` beside the checkout (or `$YINSH_BOARDSPACE_DIR`),
/// if it is there.
pub fn boardspace_dir() -> Option<PathBuf> {
    // YINSH_BOARDSPACE_DIR points elsewhere (a git worktree has no ../shared beside it).
    let dir = std::env::var_os("YINSH_BOARDSPACE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/boardspace-yinsh"),
        PathBuf::from,
    );
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
