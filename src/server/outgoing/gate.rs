//! THE gate: every mail of every run passes here before it is committed (`run::txn`
//! calls [`pass`] on all the replies of a transaction, so no path can go round it).
//!
//! - A reply for the operator ([`Audience::Operator`]: the server's own notices of
//!   damaged files and of replies given up) goes only to the configured operator.
//! - When `[security] confirm_addresses` is on, a recipient address that no account has
//!   confirmed (a stranger's Reply-To included) gets no text another person chose (the
//!   reply's [`Foreign`] part is left out; a chat, message or broadcast is not sent at
//!   all), and at most `unconfirmed_mails_per_day` mails a day (the count is in
//!   `<home>/quota/`, inside the transaction); the rest are dropped with a log line.
//!
//! With fault injection compiled in, `YINSH_PBEM_FAULT=gate-closed` makes the gate let
//! nothing through (`durable::fault`): the test that every run's mail passes it.

use crate::durable::fault;
use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::Store;

use super::reply::{Audience, Foreign, Reply};

/// The replies as they may be sent; `note` gets a line for each address left out.
pub fn pass(
    store: &Store,
    settings: &Settings,
    now: u64,
    replies: Vec<Reply>,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if fault::gate_closed() {
        for r in &replies {
            note(format!(
                "not sent to {} (the gate is closed): {}",
                crate::mail::address::list(&r.to),
                r.subject
            ));
        }
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(replies.len());
    for reply in replies {
        match reply.audience {
            Audience::Operator => out.extend(to_operator(settings, reply, note)),
            Audience::Players => out.extend(to_players(store, settings, now, reply, note)?),
        }
    }
    Ok(out)
}

/// An operator's notice, to the configured operator only.
fn to_operator(settings: &Settings, reply: Reply, note: &mut dyn FnMut(String)) -> Option<Reply> {
    let operator = settings.operator.as_ref();
    let (to, other): (Vec<Address>, Vec<Address>) = reply
        .to
        .iter()
        .cloned()
        .partition(|a| operator.is_some_and(|op| a.eq_ignore_ascii_case(op)));
    for a in other {
        note(format!(
            "not sent to {a} (not the operator): {}",
            reply.subject
        ));
    }
    (!to.is_empty()).then_some(Reply { to, ..reply })
}

/// A reply to players and senders: addresses nobody confirmed get the server's words
/// only, a few a day (when confirmation is on).
fn to_players(
    store: &Store,
    settings: &Settings,
    now: u64,
    reply: Reply,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if !settings.confirm_addresses {
        return Ok(vec![reply]);
    }
    let mut sure: Vec<Address> = Vec::new();
    let mut unsure: Vec<Address> = Vec::new();
    for a in &reply.to {
        if store.is_confirmed(a)? {
            sure.push(a.clone());
        } else if reply.foreign == Foreign::All {
            note(format!(
                "not sent to {a} (address not confirmed): {}",
                reply.subject
            ));
        } else if store.count_unconfirmed_mail(a, now, settings.unconfirmed_mails_per_day)? {
            unsure.push(a.clone());
        } else {
            note(format!(
                "not sent to {a}: over {} mails today to an unconfirmed address: {}",
                settings.unconfirmed_mails_per_day, reply.subject
            ));
        }
    }
    let mut out = Vec::new();
    if !unsure.is_empty() {
        let body = match &reply.foreign {
            Foreign::Part(without) => without.clone(),
            _ => reply.body.clone(),
        };
        out.push(Reply {
            to: unsure,
            subject: reply.subject.clone(),
            body,
            foreign: Foreign::Nothing,
            html: None,
            thread: reply.thread.clone(),
            audience: Audience::Players,
        });
    }
    if !sure.is_empty() {
        out.push(Reply { to: sure, ..reply });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{Password, UserId};
    use crate::server::store::Account;

    fn address(text: &str) -> Address {
        text.parse().expect("an address")
    }

    /// A store in a temporary home, in a transaction, with alice's confirmed address,
    /// and the settings of that home with confirmation on and a quota of `quota`.
    fn home(quota: u32) -> (tempfile::TempDir, Store, Settings) {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("store");
        store.begin();
        let userid: UserId = "alice".parse().expect("userid");
        let password: Password = "a-long-password".parse().expect("password");
        let alice = Account::new(&userid, &password, vec![address("alice@example.org")], 0)
            .expect("account");
        store.reindex(true, None, Some(&alice)).expect("index");
        store.put_account(&alice).expect("put");
        let mut settings = Settings::defaults(store.home().to_path_buf());
        settings.confirm_addresses = true;
        settings.unconfirmed_mails_per_day = quota;
        settings.operator = Some(address("ops@example.org"));
        (dir, store, settings)
    }

    fn reply(to: &[&str], foreign: Foreign) -> Reply {
        Reply {
            to: to.iter().map(|a| address(a)).collect(),
            subject: "Yinsh Board 101".into(),
            body: "the board, and bob's comment\n".into(),
            foreign,
            ..Reply::default()
        }
    }

    fn passed(
        store: &Store,
        settings: &Settings,
        replies: Vec<Reply>,
    ) -> (Vec<Reply>, Vec<String>) {
        let mut notes = Vec::new();
        let out = pass(store, settings, 1_795_384_020, replies, &mut |l| {
            notes.push(l)
        })
        .expect("gate");
        (out, notes)
    }

    #[test]
    fn a_confirmed_address_gets_the_whole_reply_and_an_unconfirmed_one_the_servers_words() {
        let (_dir, store, settings) = home(5);
        let without = "the board\n".to_string();
        let r = reply(
            &["alice@example.org", "stranger@example.org"],
            Foreign::Part(without.clone()),
        );
        let (out, notes) = passed(&store, &settings, vec![r.clone()]);
        assert_eq!(notes, Vec::<String>::new());
        let to = |r: &Reply| r.to.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let stranger = out
            .iter()
            .find(|o| to(o) == ["stranger@example.org"])
            .expect("sent");
        assert_eq!(stranger.body, without);
        assert_eq!(stranger.foreign, Foreign::Nothing);
        let alice = out
            .iter()
            .find(|o| to(o) == ["alice@example.org"])
            .expect("sent");
        assert_eq!(alice.body, r.body);
    }

    #[test]
    fn another_persons_whole_text_never_reaches_an_unconfirmed_address() {
        let (_dir, store, settings) = home(5);
        let (out, notes) = passed(
            &store,
            &settings,
            vec![reply(&["stranger@example.org"], Foreign::All)],
        );
        assert!(out.is_empty(), "{out:?}");
        assert!(notes[0].contains("address not confirmed"), "{notes:?}");
    }

    #[test]
    fn an_unconfirmed_address_gets_at_most_its_daily_quota() {
        let (_dir, store, settings) = home(2);
        let replies = (0..4)
            .map(|_| reply(&["stranger@example.org"], Foreign::Nothing))
            .collect();
        let (out, notes) = passed(&store, &settings, replies);
        assert_eq!(out.len(), 2);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().all(|n| n.contains("over 2 mails today")));
    }

    #[test]
    fn an_operators_notice_goes_to_the_operator_alone() {
        let (_dir, store, settings) = home(5);
        let notice = Reply {
            audience: Audience::Operator,
            ..reply(&["ops@example.org", "alice@example.org"], Foreign::Nothing)
        };
        let (out, notes) = passed(&store, &settings, vec![notice]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].to, [address("ops@example.org")]);
        assert!(notes[0].contains("not the operator"), "{notes:?}");
    }

    #[test]
    fn with_confirmation_off_the_players_replies_pass_as_they_are() {
        let (_dir, store, mut settings) = home(0);
        settings.confirm_addresses = false;
        let r = reply(&["stranger@example.org"], Foreign::All);
        let (out, _) = passed(&store, &settings, vec![r.clone()]);
        assert_eq!(out, [r]);
    }
}
