//! The gate's tests: the stranger's budget per mailbox, foreign text, the readers'
//! own confirmations, the chats and messages a day, the tokens, the quota of an
//! unconfirmed address, the operator's notices, confirmation off.

use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::outgoing::reply::{Audience, Cause, Foreign, Reply};
use crate::server::store::{Account, Store};

use super::pass::pass;
use super::verdict::{Held, HeldBack, Source};
use crate::server::model::{Password, UserId};

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
    let alice =
        Account::new(&userid, &password, vec![address("alice@example.org")], 0).expect("account");
    store.reindex(None, Some(&alice)).expect("index");
    store.put_account(&alice).expect("put");
    let mut settings = Settings::defaults(store.home().to_path_buf());
    settings.confirm_addresses = true;
    settings.unconfirmed_mails_per_day = quota;
    settings.operator = Some(address("ops@example.org"));
    (dir, store, settings)
}

/// A reply of honest play (a proven request's).
fn reply(to: &[&str], foreign: Foreign) -> Reply {
    Reply {
        to: to.iter().map(|a| address(a)).collect(),
        subject: "Yinsh Board 101".into(),
        body: "the board, and bob's comment\n".into(),
        foreign,
        cause: Cause::Owner,
        ..Reply::default()
    }
}

/// A reply to a mail that proved no sender.
fn strangers(to: &[&str], foreign: Foreign) -> Reply {
    Reply {
        cause: Cause::Stranger,
        ..reply(to, foreign)
    }
}

const NOW: u64 = 1_795_384_020;

fn passed(store: &Store, settings: &Settings, replies: Vec<Reply>) -> (Vec<Reply>, Vec<String>) {
    passed_from(store, settings, Source::Mail, replies)
}

fn passed_from(
    store: &Store,
    settings: &Settings,
    source: Source,
    replies: Vec<Reply>,
) -> (Vec<Reply>, Vec<String>) {
    let mut notes = Vec::new();
    let out = pass(store, settings, NOW, source, replies, &mut |l: HeldBack| {
        notes.push(l.line)
    })
    .expect("gate");
    (out, notes)
}

/// Issue 25 findings 2 and 4: however many spellings of one mailbox a stranger
/// writes, the mails its unproven mail causes there stay within the daily budget;
/// the last says until when; a confirmed player's mailbox is no exception.
#[test]
fn a_strangers_mail_reaches_one_mailbox_at_most_the_daily_budget() {
    let (_dir, store, settings) = home(100);
    let spellings = [
        "alice@example.org",
        "Alice@example.org",
        "ALICE@EXAMPLE.ORG",
        "alice+1@example.org",
        "alice+yinsh@Example.Org",
    ];
    let replies: Vec<Reply> = (0..14)
        .map(|k| strangers(&[spellings[k % spellings.len()]], Foreign::Nothing))
        .collect();
    let (out, notes) = passed(&store, &settings, replies);
    assert_eq!(out.len(), 10, "{notes:?}");
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(
        notes.iter().all(|n| n.contains("over 10 mails today")),
        "{notes:?}"
    );
    assert!(
        out[9].body.contains("not sent until 2026-11-23 00:00 UTC"),
        "{}",
        out[9].body
    );
    assert!(!out[8].body.contains("not sent until"));
    // The next day the budget is whole again.
    let mut notes = Vec::new();
    let next = pass(
        &store,
        &settings,
        NOW + 86_400,
        Source::Mail,
        vec![strangers(&["alice@example.org"], Foreign::Nothing)],
        &mut |l: HeldBack| notes.push(l.line),
    )
    .expect("gate");
    assert_eq!(next.len(), 1, "{notes:?}");
}

/// Issue 25 finding 2: a stranger's text never goes out from the server's address,
/// not even to a confirmed player; the server's own run and honest play are not
/// budgeted.
#[test]
fn a_strangers_mail_carries_only_the_servers_words_and_honest_mail_is_not_counted() {
    let (_dir, store, settings) = home(100);
    let without = "the board\n".to_string();
    let (out, _) = passed(
        &store,
        &settings,
        vec![strangers(
            &["alice@example.org"],
            Foreign::Part(without.clone()),
        )],
    );
    assert_eq!(out[0].body, without);
    let (out, notes) = passed(
        &store,
        &settings,
        vec![strangers(&["alice@example.org"], Foreign::All)],
    );
    assert!(out.is_empty());
    assert!(notes[0].contains("proved no sender"), "{notes:?}");
    let many = |r: fn(&[&str], Foreign) -> Reply| -> Vec<Reply> {
        (0..30)
            .map(|_| r(&["alice@example.org"], Foreign::Nothing))
            .collect()
    };
    let (out, _) = passed(&store, &settings, many(reply));
    assert_eq!(out.len(), 30, "honest play is never budgeted");
    for source in [Source::Server, Source::Clock, Source::Owed(Cause::Owner)] {
        let (out, _) = passed_from(&store, &settings, source, many(strangers));
        assert_eq!(out.len(), 30, "the server's own runs are not a stranger's");
    }
    // Issue 45 attack 2: work a stranger made owed (a review, a robot's turn) is
    // counted in the same budget as the stranger's own replies (one spent above).
    let left = settings.stranger_mails_per_day as usize - 1;
    let (out, notes) = passed_from(
        &store,
        &settings,
        Source::Owed(Cause::Stranger),
        many(reply),
    );
    assert_eq!(out.len(), left, "{notes:?}");
    assert_eq!(notes.len(), 30 - left, "{notes:?}");
    assert!(notes[0].contains("mails today caused by"), "{notes:?}");
}

/// Issue 25 finding 3: a throwaway account naming alice's confirmed address gets
/// its board mails there without another player's text or a token: alice's
/// confirmation is hers, not the account's.
#[test]
fn a_readers_mail_needs_the_readers_own_confirmation() {
    use crate::server::outgoing::thread::Thread;
    use crate::server::store::ReplyScope;
    let (_dir, store, settings) = home(100);
    let mal1: UserId = "mal1".parse().expect("userid");
    let password: Password = "a-long-password".parse().expect("password");
    let victim = address("alice@example.org");
    let mut mal = Account::new(&mal1, &password, Vec::new(), 0).expect("account");
    mal.addresses.push(victim.clone());
    mal.add_pending(&victim, NOW).expect("pending");
    store.put_account(&mal).expect("put");
    let token = store.reply_key().expect("key").mint(ReplyScope::Chat {
        board: 101.into(),
        userid: mal1,
    });
    let without = "the board\n".to_string();
    let r = Reply {
        thread: Thread {
            game: None,
            token: Some(token),
            play: None,
        },
        ..reply(&["alice@example.org"], Foreign::Part(without.clone()))
    };
    let (out, _) = passed(&store, &settings, vec![r]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].body, without);
    assert_eq!(out[0].thread.token, None);
}

/// A confirmed account's chats and messages are honest play, but one mailbox gets
/// at most 100 a day of them.
#[test]
fn a_mailbox_gets_at_most_a_hundred_chats_and_messages_a_day() {
    let (_dir, store, settings) = home(100);
    let replies = (0..105)
        .map(|_| reply(&["alice@example.org"], Foreign::All))
        .collect();
    let (out, notes) = passed(&store, &settings, replies);
    assert_eq!(out.len(), 100);
    assert_eq!(notes.len(), 5, "{notes:?}");
    assert!(notes[0].contains("over 100 chats and messages today"));
}

/// Issue 25 finding 1: a reply token goes only to an address its own account
/// confirmed; another recipient gets the mail without it.
#[test]
fn a_reply_token_reaches_only_its_accounts_own_confirmed_address() {
    use crate::server::outgoing::thread::Thread;
    use crate::server::store::ReplyScope;
    let (_dir, store, settings) = home(100);
    let token = store.reply_key().expect("key").mint(ReplyScope::Chat {
        board: 101.into(),
        userid: "alice".parse().expect("userid"),
    });
    let r = Reply {
        thread: Thread {
            game: None,
            token: Some(token.clone()),
            play: None,
        },
        ..reply(
            &["alice@example.org", "mallory@evil.test"],
            Foreign::Nothing,
        )
    };
    let (out, _) = passed(&store, &settings, vec![r]);
    let to_alice = out
        .iter()
        .find(|o| o.to == [address("alice@example.org")])
        .expect("alice");
    assert_eq!(to_alice.thread.token, Some(token));
    let to_mallory = out
        .iter()
        .find(|o| o.to == [address("mallory@evil.test")])
        .expect("mallory");
    assert_eq!(to_mallory.thread.token, None);
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

/// Issue 48, the refused counter: each recipient left out is told with its reason
/// (a budget spent, a failing address, another person's text, not the operator); a
/// bounce record that does not read is the store's named error, not a working address.
#[test]
fn each_recipient_left_out_is_told_with_its_reason() {
    use crate::server::store::{BounceRecord, StoreError};
    let (_dir, store, settings) = home(1);
    let failing = BounceRecord {
        address: "gone@example.org".into(),
        hard: vec![NOW],
        ids: vec!["d1@mx".into()],
        failing_since: Some(NOW),
    };
    store
        .put_bounce_record(&address("gone@example.org"), &failing)
        .expect("record");
    let replies = vec![
        reply(&["stranger@example.org"], Foreign::Nothing),
        reply(&["stranger@example.org"], Foreign::Nothing),
        reply(&["other@example.org"], Foreign::All),
        reply(&["gone@example.org", "alice@example.org"], Foreign::Nothing),
        Reply {
            audience: Audience::Operator,
            ..reply(&["alice@example.org"], Foreign::Nothing)
        },
    ];
    let mut held = Vec::new();
    let out = pass(&store, &settings, NOW, Source::Mail, replies, &mut |h| {
        held.push(h.why)
    })
    .expect("gate");
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(
        held,
        [
            Held::Budget,
            Held::ForeignText,
            Held::Failing,
            Held::NotOperator
        ]
    );
    // A record spoiled on disk is a loud error naming its file.
    let path = store.home().join("bounces").join(format!(
        "{}.json",
        crate::server::store::key_name("bad@example.org")
    ));
    std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
    std::fs::write(&path, "{").expect("spoil");
    let err = pass(
        &store,
        &settings,
        NOW,
        Source::Mail,
        vec![reply(&["bad@example.org"], Foreign::Nothing)],
        &mut |_| {},
    )
    .expect_err("a corrupt record");
    assert!(
        matches!(
            err,
            crate::server::internal::InternalError::Store(StoreError::Corrupt {
                what: "bounce record",
                ..
            })
        ),
        "{err}"
    );
}
