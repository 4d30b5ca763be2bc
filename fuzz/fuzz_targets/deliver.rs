//! Fuzz target: the whole inbound path on arbitrary bytes, against a home prepared
//! once with two accounts and a game in progress. Invariants: no panic, no internal
//! error, and a mail whose Subject is not a command never changes the accounts, the
//! boards or the board counter (only the rate/seen/log/spool/outbox bookkeeping).
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use yinsh_pbem::mail::parse_inbound;
use yinsh_pbem::server::command::Command;
use yinsh_pbem::server::{Settings, deliver};
use yinsh_pbem::server::store::RateLimit;

fn settings() -> &'static Settings {
    static S: OnceLock<(tempfile_dir::Dir, Settings)> = OnceLock::new();
    &S.get_or_init(|| {
        let dir = tempfile_dir::Dir::new();
        let mut s = Settings::defaults(dir.0.join("games"));
        s.now = Some(1_795_384_020);
        s.rate_limit = RateLimit {
            max: u32::MAX,
            period: 1,
        };
        for (k, subject) in [
            "signup alice apw",
            "signup bob bpw",
            "yinsh challenge alice bob",
            "yinsh move 101 alice apw e5#1",
            "yinsh move 101 bob bpw f6#2",
        ]
        .iter()
        .enumerate()
        {
            let raw = format!(
                "From: {}@example.org\nSubject: {subject}\nMessage-ID: <setup-{k}@x>\n\n",
                if subject.contains("bob") && !subject.contains("challenge") {
                    "bob"
                } else {
                    "alice"
                }
            );
            deliver(raw.as_bytes(), raw.len(), None, &s).expect("setup");
        }
        (dir, s)
    })
    .1
}

/// The records: accounts, boards and the counter, as bytes.
fn records(home: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    for d in ["accounts", "boards"] {
        if let Ok(rd) = std::fs::read_dir(home.join(d)) {
            for e in rd.flatten() {
                v.push((e.path(), std::fs::read(e.path()).unwrap_or_default()));
            }
        }
    }
    v.push((
        home.join("next-board"),
        std::fs::read(home.join("next-board")).unwrap_or_default(),
    ));
    v.sort();
    v
}

mod tempfile_dir {
    /// A folder under the system temp dir, removed never (the fuzzer process ends).
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new() -> Dir {
            let p = std::env::temp_dir().join(format!("yinsh-fuzz-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            std::fs::create_dir_all(&p).expect("temp dir");
            Dir(p)
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let s = settings();
    let before = records(&s.home);
    let result = deliver(data, data.len(), None, s);
    assert!(result.is_ok(), "internal error on fuzz input: {result:?}");
    let is_command = parse_inbound(data)
        .ok()
        .is_some_and(|m| Command::parse(&m.subject).is_ok());
    if !is_command {
        assert_eq!(
            records(&s.home),
            before,
            "a mail that is no command changed the store"
        );
    }
});
