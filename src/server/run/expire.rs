//! The daily clean-up of the seen marks and counts the gate and the limits keep.

use crate::server::config::Settings;
use crate::server::store::Store;
use crate::server::text::log as log_text;

/// Expire old seen marks, storm counts and past days' counts (the store does it once
/// a day); the line to log, if anything was done or failed. `deliver` and `tick` both
/// call it, and a failure here fails neither.
pub fn expire(store: &Store, settings: &Settings, now: u64) -> Option<String> {
    match store.expire(now, settings.rate_limit.period) {
        Ok(0) => None,
        Ok(n) => Some(log_text::expired(n)),
        Err(e) => Some(log_text::expiry_failed(&e)),
    }
}
