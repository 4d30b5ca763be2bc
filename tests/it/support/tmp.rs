//! The temporary folders of the tests' homes: in `/dev/shm` (a tmpfs) when the machine
//! has one, else in the system's temporary folder. Every mail's commit ends with a
//! `syncfs` of the home's file system (`durable::Pending::sync`); on a disk that the
//! machine shares with builds, each waits for everyone's pending writes, and the
//! suite spent most of its time waiting there. On a tmpfs the same calls return at
//! once. No test needs a home on a disk: what a kill leaves is in the page cache
//! either way, and the tests of a full or read-only file system mount their own
//! tmpfs (`crash.rs`).

use std::path::Path;

/// A new temporary folder, removed when dropped.
pub fn dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let made = if shm.is_dir() {
        tempfile::Builder::new().prefix("yinsh-it-").tempdir_in(shm)
    } else {
        tempfile::tempdir()
    };
    made.or_else(|_| tempfile::tempdir()).expect("tempdir")
}
