//! The daily clean-up of the seen marks and counts the gate and the limits keep.

use crate::server::config::Settings;
use crate::server::store::Store;

/// Expire old seen marks, storm counts and past days' counts (the store does it once
/// a day); the line to log, if anything was done or failed. `deliver` and `tick` both
/// call it, and a failure here fails neither.
pub fn expire(store: &Store, settings: &Settings, now: u64) -> Option<String> {
    match store.expire(now, settings.rate_limit.period) {
        Ok(0) => None,
        Ok(n) => Some(format!(
            "expired {n} old seen marks and storm counts (and past days' counts)"
        )),
        Err(e) => Some(format!("expiring old seen marks failed: {e}")),
    }
}
