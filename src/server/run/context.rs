//! [`Ctx`]: what every run function takes, as cargo's `ops` take one context: the
//! store, the settings, the run's clock (`now`, read once), its log and its report.
//! A run makes one at its start (`deliver`, `flush`, `tick`, `reindex`) and lends it
//! down; work made later than the run's start (a robot's turn or a review thought
//! with no lock held) takes a context at the time it is done ([`Ctx::later`]).

use crate::server::config::Settings;
use crate::server::store::Store;

use super::log::Log;
use super::report::Report;

/// The context of one run.
pub struct Ctx<'a> {
    /// The store.
    pub store: &'a Store,
    /// The settings.
    pub settings: &'a Settings,
    /// The run's time, Unix seconds.
    pub now: u64,
    /// The server's log.
    pub log: &'a Log,
    /// What the run did so far.
    pub report: &'a mut Report,
}

impl<'a> Ctx<'a> {
    /// The context of a run starting now (`settings.now()`).
    pub fn new(
        store: &'a Store,
        settings: &'a Settings,
        log: &'a Log,
        report: &'a mut Report,
    ) -> Ctx<'a> {
        Ctx {
            store,
            settings,
            now: settings.now(),
            log,
            report,
        }
    }

    /// Log `line` and add it to the report.
    pub fn note(&mut self, line: String) {
        self.log.note(self.now, self.report, line);
    }

    /// The same context at the time it is now (work done after thinking, later than
    /// the run's start), writing to the same report.
    pub fn later(&mut self) -> Ctx<'_> {
        Ctx {
            store: self.store,
            settings: self.settings,
            now: self.settings.now(),
            log: self.log,
            report: self.report,
        }
    }
}
