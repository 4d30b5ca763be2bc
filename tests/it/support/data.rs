//! Test data: the transcripts under `tests/data/transcripts`, and the data kept beside
//! the checkout (`../shared/data`), found or reported missing.

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

/// `tests/data/transcripts`, the hand-checked game transcripts.
pub fn transcripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts")
}

/// The tokens of a transcript of [`transcripts_dir`] (comment lines left out).
pub fn fixture_tokens(file: &str) -> Vec<String> {
    std::fs::read_to_string(transcripts_dir().join(file))
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect()
}
