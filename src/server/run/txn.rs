//! The one transaction runner of `deliver`, `tick` and `flush`: take the store's lock
//! (waiting a limited time), complete any journal a killed run left, carry out a
//! piece of work through the store's transaction, and commit its file changes and
//! replies through one journal, all under the same lock (`docs/reliability.md`). The
//! replies are sent once the lock is released ([`super::send`]). The indexes
//! follow the game files in the same transaction (`indexes.rs`).

use std::time::{Duration, UNIX_EPOCH};

use crate::durable::fault;
use crate::mail::{self, BuiltMail, InboundMail, MailSettings, OutgoingMail, Spool, Transport};
use crate::server::config::Settings;
use crate::server::exec::{InternalError, Reply};
use crate::server::store::{Journal, Recovered, Store, StoreLock};

use super::html::{Rendered, html_body};
use super::indexes;
use super::report::Report;
use super::site;
use super::threading::{self, Headers};

/// The store held under its lock, with any leftover journal completed.
pub struct Locked<'a> {
    /// The store.
    pub store: &'a Store,
    settings: &'a Settings,
    _lock: StoreLock,
}

impl<'a> Locked<'a> {
    /// Take the lock (waiting at most the configured lock wait: then an error, and the
    /// run exits 75), then complete or discard a journal a killed run left. Returns
    /// the report line for what the recovery did, if anything.
    pub fn take(
        store: &'a Store,
        settings: &'a Settings,
    ) -> Result<(Locked<'a>, Option<String>), InternalError> {
        let lock = store.lock_within(settings.lock_wait)?;
        let line = recovered_line(store.recover(&settings.transport)?);
        Ok((
            Locked {
                store,
                settings,
                _lock: lock,
            },
            line,
        ))
    }

    /// Run `work` inside a transaction of the store, then build its replies (their
    /// Message-IDs named by `seed`, answering `answering`) and commit the changes and
    /// replies through one journal keyed `key` (nothing is committed when there is
    /// neither). A reply that cannot be built is skipped and told to `note`. Returns
    /// the replies. When `work` fails, nothing it did is kept.
    pub fn transaction(
        &self,
        key: &str,
        answering: Option<&InboundMail>,
        seed: &dyn Fn(usize, &Reply) -> String,
        report: &mut Report,
        note: &mut dyn FnMut(&mut Report, String),
        work: impl FnOnce(&Store, &mut Report) -> Result<Vec<Reply>, InternalError>,
    ) -> Result<Vec<Reply>, InternalError> {
        indexes::prepare(self.store, self.settings)?;
        self.store.begin();
        let result = indexes::before_work(self.store, self.settings)
            .and_then(|()| work(self.store, report))
            .and_then(|mut replies| {
                replies.extend(indexes::after_work(self.store, self.settings)?);
                Ok(replies)
            });
        let changes = self.store.take_changes();
        if let Err(e) = &result {
            indexes::after_failure(self.store, self.settings, e);
        }
        let replies = result?;
        report
            .boards_changed
            .extend(site::changed_boards(self.store, &changes));
        fault::point("after-command");
        let now = self.settings.now();
        let built = build_replies(self.settings, answering, seed, &replies, now, &mut |line| {
            note(report, line)
        });
        if !changes.is_empty() || !built.is_empty() {
            let journal = Journal::new(self.store, key, &changes, &built);
            let (spooled, written) = self.store.commit(&journal, &self.settings.transport)?;
            report.spooled += spooled;
            report.sent += written;
            if !matches!(self.settings.transport, Transport::Outbox(_)) {
                report
                    .spooled_ids
                    .extend(built.iter().map(|m| m.id.clone()));
            }
        }
        Ok(replies)
    }

    /// The Message-IDs of every mail in the spool now. Under the lock every journal
    /// is complete, so each of them may be sent once the lock is released.
    pub fn spooled_ids(&self) -> Result<Vec<String>, InternalError> {
        let spool = Spool::open(&self.store.spool_dir())?;
        let (entries, _damaged) = spool.scan()?;
        Ok(entries.into_iter().map(|e| e.mail.id).collect())
    }
}

/// The report line for what [`Store::recover`] found, if anything.
fn recovered_line(r: Recovered) -> Option<String> {
    match r {
        Recovered::Nothing => None,
        Recovered::Completed => Some("completed a mail a crash had left half done".to_string()),
        Recovered::Discarded => Some(
            "discarded a journal whose write a crash cut short (its mail was not \
             acknowledged and comes again)"
                .to_string(),
        ),
    }
}

fn mail_settings(settings: &Settings) -> MailSettings {
    MailSettings {
        from: settings.from.clone(),
        loop_id: settings.address(),
    }
}

/// Build the reply mails; their Message-IDs are fixed from here on (the journal keeps
/// them), so a reply spooled twice is one mail. `answering` is the mail they answer
/// (In-Reply-To, References), `seed` names each reply's Message-ID; its thread and
/// token are [`threading::headers`]'s. A reply that
/// cannot be built (a bad registered address) is skipped and told to `note`.
fn build_replies(
    settings: &Settings,
    answering: Option<&InboundMail>,
    seed: &dyn Fn(usize, &Reply) -> String,
    replies: &[Reply],
    now: u64,
    note: &mut dyn FnMut(String),
) -> Vec<BuiltMail> {
    let ms = mail_settings(settings);
    let when = UNIX_EPOCH + Duration::from_secs(now);
    let mut rendered = Rendered::default();
    let mut built = Vec::new();
    for (k, r) in replies.iter().enumerate() {
        if r.to.is_empty() {
            continue;
        }
        let Headers {
            id,
            in_reply_to,
            references,
        } = threading::headers(&settings.address(), answering, r, &seed(k, r));
        let out = OutgoingMail {
            to: r.to.iter().map(|a| a.to_string()).collect(),
            subject: r.subject.clone(),
            body: r.body.clone(),
            in_reply_to,
            references,
            html: html_body(settings, r, &mut rendered, note),
        };
        match mail::build(&out, &ms, when, &id) {
            Ok(mail) => built.push(mail),
            Err(e) => note(format!("reply not built: {e}")),
        }
    }
    built
}
