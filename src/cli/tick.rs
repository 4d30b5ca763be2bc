//! `yinsh-pbem tick` (reminders and forfeits) and `yinsh-pbem reindex` (the indexes
//! rebuilt from the game files), with the same settings, exit codes and panic guard
//! as `flush` (0 done, 75 internal failure).

use std::process::ExitCode;

use super::serve::{EX_TEMPFAIL, Entry, Host, finish, guarded, settings_or_log};
use crate::server::config::Overrides;
use crate::server::run::tick as run_tick;

/// `yinsh-pbem tick`: nag and forfeit where due, then send the spool.
pub fn tick(opts: Overrides, verbose: bool) -> ExitCode {
    tick_in(&Host::process(), &opts, verbose)
}

/// [`tick`] in `host` (`cli::Host`).
pub fn tick_in(host: &Host<'_>, opts: &Overrides, verbose: bool) -> ExitCode {
    let Some(settings) = settings_or_log(host, Entry::Tick, opts, verbose) else {
        return ExitCode::from(EX_TEMPFAIL);
    };
    let result = guarded(&settings.home, host.panics, || {
        Ok(run_tick::tick(&settings)?)
    });
    finish(host, Entry::Tick, &settings, result, verbose)
}

/// `yinsh-pbem reindex`: every index built again from the game files.
pub fn reindex(opts: Overrides, verbose: bool) -> ExitCode {
    let host = Host::process();
    let Some(settings) = settings_or_log(&host, Entry::Operator, &opts, verbose) else {
        return ExitCode::from(EX_TEMPFAIL);
    };
    let result = guarded(&settings.home, host.panics, || {
        let report = crate::server::run::reindex(&settings)?;
        if !verbose && let Some(first) = report.lines.last() {
            outln!("{first}");
        }
        Ok(report)
    });
    finish(&host, Entry::Operator, &settings, result, verbose)
}
