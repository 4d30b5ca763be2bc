//! `yinsh-pbem rotate-reply-key`: replace the key of the reply tokens
//! (`<home>/reply-key`) by a new random one, under the store's lock, so that every
//! token mailed so far stops working (a player then replies to a mail sent after the
//! rotation, or uses the command with the password). Exit 0 when done, 75 when the
//! store could not be locked or written (said on stdout and in the log).

use std::process::ExitCode;

use crate::server::config::Overrides;
use crate::server::run::log::Log;
use crate::server::store::{Store, StoreError};

use super::serve::{EX_TEMPFAIL, Entry, Host, settings_or_log};

/// Rotate the reply key of the home the settings name.
pub fn rotate_reply_key(opts: Overrides) -> ExitCode {
    // Rotating the key always says what it did.
    let verbose = true;
    let Some(settings) = settings_or_log(&Host::process(), Entry::Operator, &opts, verbose) else {
        return ExitCode::from(EX_TEMPFAIL);
    };
    let now = settings.now();
    let log = Log::in_home(&settings.home);
    let rotated = || -> Result<Store, StoreError> {
        let store = Store::open(&settings.home)?;
        let _lock = store.lock_within(settings.lock_wait)?;
        store.rotate_reply_key()?;
        Ok(store)
    };
    match rotated() {
        Ok(store) => {
            let line = format!(
                "reply key rotated ({}): every reply token mailed before now is void",
                store.reply_key_path().display()
            );
            log.line(now, &line);
            outln!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            let line = format!("rotating the reply key failed: {e}");
            log.line(now, &line);
            outln!("{line}");
            ExitCode::from(EX_TEMPFAIL)
        }
    }
}
