//! Fault injection for the crash tests, inert unless the environment variable
//! `YINSH_PBEM_FAULT` is set:
//!
//! - `YINSH_PBEM_FAULT=<point>[:<n>]`: the process aborts (no destructors, no
//!   flushing: as close to `kill -9` as Rust gets) the `n`-th time (default: the first)
//!   it reaches the named point. The points are listed in [`POINTS`].
//! - `YINSH_PBEM_FAULT=panic-<point>[:<n>]`: the same, but a panic instead of an
//!   abort (to test that a panic is an internal failure: exit 75).
//! - `YINSH_PBEM_FAULT=enospc[:<n>]`: the `n`-th atomic file write of the process
//!   (default: the first) fails with "No space left on device" before touching the
//!   target, as a full disk would.
//!
//! `docs/reliability.md` describes how the tests use them.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Every named point, in the order one mail reaches them.
pub const POINTS: &[&str] = &[
    "after-lock",
    "after-command",
    "after-journal",
    "apply-file",
    "after-apply",
    "after-spool",
    "before-journal-delete",
    "after-journal-delete",
    "before-flush",
    "after-flush",
];

/// The parsed variable: (point or "enospc", n).
fn spec() -> Option<&'static (String, u64)> {
    static SPEC: OnceLock<Option<(String, u64)>> = OnceLock::new();
    SPEC.get_or_init(|| {
        let v = std::env::var("YINSH_PBEM_FAULT").ok()?;
        let (name, n) = match v.rsplit_once(':') {
            Some((name, n)) => (name.to_string(), n.trim().parse().ok()?),
            None => (v.clone(), 1),
        };
        Some((name.trim().to_string(), n))
    })
    .as_ref()
}

/// Counts one more hit of `name`; true when this is the configured one.
fn hit(name: &str) -> bool {
    let Some((want, n)) = spec() else {
        return false;
    };
    if want != name {
        return false;
    }
    static HITS: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);
    let mut hits = HITS.lock().unwrap_or_else(PoisonError::into_inner);
    let count = hits
        .get_or_insert_with(HashMap::new)
        .entry(name.to_string())
        .or_insert(0);
    *count += 1;
    *count == *n
}

/// Aborts the process here if `YINSH_PBEM_FAULT` names this point (and hit count);
/// panics here if it names `panic-<point>`.
pub fn point(name: &str) {
    if hit(name) {
        std::process::abort();
    }
    if spec().is_some_and(|(want, _)| want.strip_prefix("panic-") == Some(name))
        && hit(&format!("panic-{name}"))
    {
        panic!("injected panic at {name}");
    }
}

/// The injected disk-full error for the next atomic write, if configured.
pub fn write_error() -> std::io::Result<()> {
    if hit("enospc") {
        Err(std::io::Error::from_raw_os_error(28))
    } else {
        Ok(())
    }
}
