//! Fault injection for the crash tests (`tests/it/crash.rs`). It is compiled in only
//! for builds with debug assertions (what `cargo test` builds) or with the cargo
//! feature `fault-injection`; elsewhere (the release binary) [`point`] does nothing
//! and [`write_error`] is always `Ok`, so a release build holds no fault code and
//! cannot be made to abort from its environment (`.ci/run` checks the binary).
//!
//! Where compiled in, it stays inert unless the environment variable
//! `YINSH_PBEM_FAULT` is set:
//!
//! - `YINSH_PBEM_FAULT=<point>[:<n>]`: the process aborts (no destructors, no
//!   flushing: as close to `kill -9` as Rust gets) the `n`-th time (default: the first)
//!   it reaches the named point. The points are listed in `POINTS`.
//! - `YINSH_PBEM_FAULT=panic-<point>[:<n>]`: the same, but a panic instead of an
//!   abort (to test that a panic is an internal failure: exit 75).
//! - `YINSH_PBEM_FAULT=enospc[:<n>]`: the `n`-th atomic file write of the process
//!   (default: the first) fails with "No space left on device" before touching the
//!   target, as a full disk would.
//! - `YINSH_PBEM_FAULT=gate-closed`: the outgoing gate (`server::outgoing::gate`)
//!   lets no mail through, so a test can show that every mail of every run passes it.
//!
//! `docs/reliability.md` describes how the tests use them.

#[cfg(any(debug_assertions, feature = "fault-injection"))]
pub use armed::{POINTS, gate_closed, point, write_error};
#[cfg(not(any(debug_assertions, feature = "fault-injection")))]
pub use inert::{gate_closed, point, write_error};

/// The fault injection itself, read from `YINSH_PBEM_FAULT`.
#[cfg(any(debug_assertions, feature = "fault-injection"))]
mod armed {
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
        SPEC.get_or_init(|| parse(&std::env::var("YINSH_PBEM_FAULT").ok()?))
            .as_ref()
    }

    /// `<name>[:<n>]` as (name, n); `n` defaults to 1, and one that is not a number
    /// makes the whole setting inert.
    pub(super) fn parse(v: &str) -> Option<(String, u64)> {
        let (name, n) = match v.rsplit_once(':') {
            Some((name, n)) => (name, n.trim().parse().ok()?),
            None => (v, 1),
        };
        Some((name.trim().to_string(), n))
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

    /// Whether the outgoing gate is to let no mail through (`gate-closed`).
    pub fn gate_closed() -> bool {
        spec().is_some_and(|(want, _)| want == "gate-closed")
    }

    /// The injected disk-full error for the next atomic write, if configured.
    pub fn write_error() -> std::io::Result<()> {
        if hit("enospc") {
            Err(std::io::Error::from_raw_os_error(28))
        } else {
            Ok(())
        }
    }
}

/// The release build's stand-ins: no environment is read, nothing can fail.
#[cfg(not(any(debug_assertions, feature = "fault-injection")))]
mod inert {
    /// Does nothing (fault injection is not compiled in).
    #[inline(always)]
    pub fn point(_name: &str) {}

    /// Always false (fault injection is not compiled in).
    #[inline(always)]
    pub fn gate_closed() -> bool {
        false
    }

    /// Always `Ok` (fault injection is not compiled in).
    #[inline(always)]
    pub fn write_error() -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_setting_every_point_passes_and_every_write_may_go_on() {
        if std::env::var_os("YINSH_PBEM_FAULT").is_none() {
            point("after-lock");
            assert!(write_error().is_ok());
        }
    }

    #[cfg(any(debug_assertions, feature = "fault-injection"))]
    #[test]
    fn a_setting_names_a_point_and_a_count() {
        assert_eq!(armed::parse("after-lock"), Some(("after-lock".into(), 1)));
        assert_eq!(armed::parse("enospc:3"), Some(("enospc".into(), 3)));
        assert_eq!(
            armed::parse(" panic-apply-file : 2"),
            Some(("panic-apply-file".into(), 2))
        );
        assert_eq!(armed::parse("after-lock:x"), None, "a bad count is inert");
        assert!(
            POINTS.contains(&"after-lock") && POINTS.len() == 10,
            "{POINTS:?}"
        );
    }
}
