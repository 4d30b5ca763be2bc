//! The home the `deliver` fuzz target runs each input against, shared with the test
//! that replays the seed corpus (`tests/it/fuzz_seeds.rs`, which includes this file):
//! a template built once through `deliver` itself (the README's quick start: alice
//! and bob with board 101 before its first move; carol; board 102, alice against
//! carol, after two moves), then copied afresh for every input so that each input
//! meets the same store (a crash found is reproducible). Confirmation is on while
//! the inputs run, and the three addresses count as confirmed (they were signed up
//! while it was off).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use yinsh_pbem::server::{Settings, deliver};

/// The clock of every run.
pub const NOW: u64 = 1_795_384_020;

/// The mails that build the template.
const SETUP: &[(&str, &str, &str)] = &[
    (
        "alice@example.org",
        "multiple",
        "signup alice alicepw alice@example.org\nsignup bob bobpw bob@example.org\nyinsh challenge alice bob\n",
    ),
    ("carol@example.org", "signup carol carolpw", ""),
    ("carol@example.org", "yinsh challenge alice carol", ""),
    ("alice@example.org", "yinsh move 102 alice alicepw e5#1", ""),
    (
        "carol@example.org",
        "yinsh move 102 carol carolpw f6#2",
        "a comment",
    ),
];

/// A folder of its own under `/dev/shm` or the system's temp folder, removed when
/// dropped.
pub struct TempHome(pub PathBuf);

impl TempHome {
    fn new(tag: &str) -> TempHome {
        static N: AtomicU64 = AtomicU64::new(0);
        // On a tmpfs when there is one: the store's `syncfs` after every mail is then
        // nearly free (a fuzz run is about parsing and logic, not the disk).
        let shm = Path::new("/dev/shm");
        let base =
            if shm.is_dir() && std::fs::metadata(shm).is_ok_and(|m| !m.permissions().readonly()) {
                shm.to_path_buf()
            } else {
                std::env::temp_dir()
            };
        let p = base.join(format!(
            "yinsh-fuzz-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempHome(p)
    }
}

impl Drop for TempHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The settings of a run in `home`: the defaults (confirmation on, every limit as
/// shipped), the fixed clock, replies to `<home>/outbox`.
pub fn settings(home: &Path) -> Settings {
    let mut s = Settings::defaults(home.to_path_buf());
    s.now = Some(NOW);
    s
}

/// Builds the template home.
pub fn template() -> TempHome {
    let dir = TempHome::new("template");
    let mut s = settings(&dir.0);
    s.confirm_addresses = false;
    for (k, (from, subject, body)) in SETUP.iter().enumerate() {
        let raw = format!("From: {from}\nSubject: {subject}\nMessage-ID: <setup-{k}@x>\n\n{body}");
        deliver(raw.as_bytes(), raw.len(), None, &s).expect("the template's set-up");
    }
    let _ = std::fs::remove_dir_all(dir.0.join("outbox"));
    dir
}

/// A fresh copy of `template` for one input.
pub fn copy_of(template: &Path) -> TempHome {
    let dir = TempHome::new("run");
    copy_tree(template, &dir.0);
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// The records: accounts, boards and the counter, as bytes.
pub fn records(home: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    for d in ["accounts", "boards"] {
        if let Ok(rd) = std::fs::read_dir(home.join(d)) {
            for e in rd.flatten() {
                v.push((
                    e.path()
                        .strip_prefix(home)
                        .unwrap_or(&e.path())
                        .to_path_buf(),
                    std::fs::read(e.path()).unwrap_or_default(),
                ));
            }
        }
    }
    v.push((
        PathBuf::from("next-board"),
        std::fs::read(home.join("next-board")).unwrap_or_default(),
    ));
    v.sort();
    v
}
