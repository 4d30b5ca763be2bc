//! Issue 25's attacks on accounts (findings 3, 4, 6, 7, 10, 11), each tried as the
//! finding tells it, in process with confirmation on as by default: a confirmation
//! belongs to the account that answered the code; every spelling of a mailbox shares
//! one cap; accounts that never confirm expire and cannot lock a mailbox out; forged
//! wrong codes neither pause logins nor stop the right code; role and look-alike
//! userids and local addresses are refused.

use yinsh_pbem::mail::Address;
use yinsh_pbem::server::store::Store;

use crate::support::sent::mails_to;
use crate::support::server::{TestServer, assert_says};

const VICTIM: &str = "victim@example.org";
const ATTACKER: &str = "attacker@example.net";
const DAY: u64 = 86_400;

/// Signs `userid` up for `address` (from `from`) and returns its verify code.
fn sign_up(s: &mut TestServer, from: &str, userid: &str, address: &str) -> String {
    let sent = s.send(from, &format!("signup {userid} {userid}-pw7 {address}"), "");
    let prefix = format!("verify {userid} ");
    sent.iter()
        .find_map(|m| m.subject.strip_prefix(&prefix).map(str::to_string))
        .unwrap_or_else(|| panic!("no verify mail for {userid}: {sent:#?}"))
}

/// Signs `userid` up from `address` and confirms it by replying to the verify mail.
fn confirmed(s: &mut TestServer, userid: &str, address: &str) {
    let code = sign_up(s, address, userid, address);
    let sent = s.send(address, &format!("Re: verify {userid} {code}"), "");
    assert!(
        sent.iter()
            .any(|m| m.subject.starts_with("Address confirmed")),
        "{sent:#?}"
    );
}

fn exists(s: &TestServer, userid: &str) -> bool {
    s.home().join(format!("accounts/{userid}.json")).exists()
}

fn store(s: &TestServer) -> Store {
    Store::open(&s.home()).expect("store")
}

fn address(text: &str) -> Address {
    text.parse().expect("an address")
}

/// Issue 25 finding 3 (the confirmation part): a throwaway account naming an address
/// that the victim's own account confirmed is not confirmed by that: the new account
/// must answer its own code, mailed to the victim.
#[test]
fn a_throwaway_account_naming_a_confirmed_address_is_not_confirmed_by_it() {
    let mut s = TestServer::confirming();
    confirmed(&mut s, "victim", VICTIM);
    let sent = s.send(ATTACKER, &format!("signup mal1 mal1-pw7 {VICTIM}"), "");
    assert!(
        mails_to(&sent, VICTIM)
            .iter()
            .any(|m| m.subject.starts_with("verify mal1 ")),
        "the code goes to the address, never to the attacker: {sent:#?}"
    );
    assert!(mails_to(&sent, ATTACKER).is_empty(), "{sent:#?}");
    let store = store(&s);
    let victim = address("Victim+x@Example.ORG");
    assert!(store.is_confirmed(&victim).expect("read"), "by the victim");
    assert!(
        store
            .is_confirmed_by(&"victim".parse().expect("userid"), &victim)
            .expect("read")
    );
    assert!(
        !store
            .is_confirmed_by(&"mal1".parse().expect("userid"), &victim)
            .expect("read"),
        "mal1 never answered its code"
    );
}

/// Issue 25 finding 4 (the cap): spellings of one mailbox (case, `+tag`) share its
/// cap of 3 confirmed accounts.
#[test]
fn every_spelling_of_a_mailbox_shares_one_cap() {
    let mut s = TestServer::confirming();
    for (userid, spelling) in [
        ("tgt1", "target@example.org"),
        ("tgt2", "Target@ExampLe.oRG"),
        ("tgt3", "target+yinsh@example.org"),
    ] {
        confirmed(&mut s, userid, spelling);
    }
    for (k, spelling) in ["TARGET@example.org", "target+4@EXAMPLE.org"]
        .iter()
        .enumerate()
    {
        let sent = s.send(spelling, &format!("signup more{k} more-pw7"), "");
        assert_says(&sent[0], "already used by 3 accounts");
        assert!(!exists(&s, &format!("more{k}")));
    }
}

/// Issue 25 findings 4 and 6: 20 forged signups naming one mailbox in 20 spellings
/// leave at most 3 accounts waiting for its code (the oldest make room) and cause
/// at most the mailbox's daily quota of mails, and the owner's own signup still goes
/// through.
#[test]
fn forged_signups_in_many_spellings_cannot_pile_up_or_lock_a_mailbox_out() {
    let mut s = TestServer::confirming();
    let mut to_newbie = 0;
    for k in 0..20 {
        let spelling = if k % 2 == 0 {
            format!("NewBie+{k}@example.org")
        } else {
            "newbie@EXAMPLE.org".to_string()
        };
        let sent = s.send(
            &format!("forger{k}@example.net"),
            &format!("signup forged{k} forged-pw7 {spelling}"),
            "",
        );
        to_newbie += sent
            .iter()
            .filter(|m| {
                m.to.iter()
                    .any(|t| t.to_ascii_lowercase().starts_with("newbie"))
            })
            .count();
    }
    let left = (0..20)
        .filter(|k| exists(&s, &format!("forged{k}")))
        .count();
    assert_eq!(left, 3, "at most 3 wait for one mailbox's code");
    // Every spelling shares the mailbox's daily quota of unconfirmed mails.
    assert_eq!(to_newbie, 5, "verify mails to the mailbox today");
    // The owner signs up and confirms as usual (the next day: the forged verify mails
    // spent today's few mails to the unconfirmed mailbox, `outgoing::gate`).
    s.now += DAY;
    confirmed(&mut s, "newbie", "newbie@example.org");
    assert!(exists(&s, "newbie"));
}

/// Issue 25 finding 6: three forged signups naming an address no longer lock it
/// out: they do not count against the cap of confirmed accounts, the owner's signup
/// makes room, and accounts that never confirm are removed by `tick` after 7 days
/// (logged), with their codes.
#[test]
fn accounts_that_never_confirm_expire_and_never_lock_an_address_out() {
    let mut s = TestServer::confirming();
    let mut codes = Vec::new();
    for k in 1..=3 {
        codes.push(sign_up(
            &mut s,
            &format!("forger{k}@example.net"),
            &format!("forged{k}"),
            "newbie@example.org",
        ));
    }
    // The owner's own signup goes through (the oldest forged account made room).
    let code = sign_up(&mut s, "newbie@example.org", "newbie", "newbie@example.org");
    assert!(!exists(&s, "forged1"), "the oldest made room");
    let sent = s.send(
        "newbie@example.org",
        &format!("Re: verify newbie {code}"),
        "",
    );
    assert!(
        sent[0].subject.starts_with("Address confirmed"),
        "{sent:#?}"
    );
    // Six days on nothing expires; after seven the forged accounts are gone, the
    // confirmed one stays, and each removal is logged.
    s.tick(s.now + 6 * DAY);
    assert!(exists(&s, "forged2") && exists(&s, "forged3"));
    s.tick(s.now + DAY + 3600);
    assert!(!exists(&s, "forged2") && !exists(&s, "forged3"));
    assert!(exists(&s, "newbie"));
    let log = s.log();
    for k in [2, 3] {
        assert!(
            log.contains(&format!(
                "removed the account forged{k}: no address confirmed in 7 days"
            )),
            "{log}"
        );
    }
    // Their codes went with them, and their userids are free again.
    let sent = s.send(
        "newbie@example.org",
        &format!("Re: verify forged2 {}", codes[1]),
        "",
    );
    assert_says(&sent[0], "wrong or older than 7 days");
    sign_up(&mut s, ATTACKER, "forged2", ATTACKER);
}

/// Issue 25 finding 6: an account that never confirmed but plays a game is kept
/// until its games end, then retired (its finished games keep the userid).
#[test]
fn an_unconfirmed_account_in_a_game_is_kept_until_it_ends_then_retired() {
    let mut s = TestServer::confirming();
    confirmed(&mut s, "alice", "alice@example.org");
    sign_up(&mut s, ATTACKER, "mal1", ATTACKER);
    let sent = s.send(ATTACKER, "yinsh challenge mal1 alice", "");
    assert!(
        sent.iter()
            .any(|m| m.subject.starts_with("New Yinsh Board 101")),
        "{sent:#?}"
    );
    s.tick(s.now + 8 * DAY);
    assert!(exists(&s, "mal1"), "kept while board 101 goes on");
    let sent = s.send(ATTACKER, "yinsh resign 101 mal1 mal1-pw7", "");
    assert!(!sent.is_empty());
    s.tick(s.now + 3600);
    assert!(!exists(&s, "mal1"));
    assert!(s.home().join("accounts/mal1.retired").exists());
    assert!(s.log().contains("retired the account mal1"), "{}", s.log());
}

/// Issue 25 finding 7: five forged wrong `verify` codes an hour neither pause the
/// owner's logins nor stop her right code, even during a pause of her logins.
#[test]
fn forged_wrong_codes_do_not_stop_the_right_code_or_pause_logins() {
    let mut s = TestServer::confirming();
    let code = sign_up(&mut s, "alice@example.org", "alice", "alice@example.org");
    for k in 0..6 {
        s.send(
            &format!("forger{k}@example.net"),
            &format!("verify alice WRONG{k:05}"),
            "",
        );
    }
    let sent = s.send("alice@example.org", "yinsh settings alice alice-pw7", "");
    assert!(
        sent[0].subject.starts_with("Yinsh settings of alice"),
        "her logins are open: {sent:#?}"
    );
    // Five wrong passwords pause her logins; her right code still confirms.
    for k in 0..5 {
        s.send(
            &format!("guesser{k}@example.net"),
            &format!("yinsh settings alice guess{k}"),
            "",
        );
    }
    let sent = s.send("alice@example.org", "yinsh settings alice alice-pw7", "");
    assert!(
        sent.iter().any(|m| m.body.contains("logins are paused")),
        "{sent:#?}"
    );
    let sent = s.send("alice@example.org", &format!("Re: verify alice {code}"), "");
    assert!(
        sent[0].subject.starts_with("Address confirmed"),
        "{sent:#?}"
    );
}

/// Issue 25 finding 10: role names and look-alikes of taken userids (and of the
/// robots) are refused at signup, each with its own text.
#[test]
fn role_and_look_alike_userids_are_refused() {
    let mut s = TestServer::confirming();
    confirmed(&mut s, "alice", "alice@example.org");
    // (From a new address each: a few mails a day go to an unconfirmed address.)
    let mut from = 0;
    let mut refused = |s: &mut TestServer, name: &str| {
        from += 1;
        s.send(
            &format!("mallory{from}@example.net"),
            &format!("signup {name} x-pw7"),
            "",
        )
    };
    for name in ["aIice", "a1ice", "AL1CE", "a_lice"] {
        let sent = refused(&mut s, name);
        assert_says(&sent[0], "looks like");
        assert!(!exists(&s, &name.to_ascii_lowercase()));
    }
    for name in [
        "MAILER-DAEMON",
        "postmaster",
        "operator",
        "yinsh",
        "admin",
        "n0reply",
    ] {
        let sent = refused(&mut s, name);
        assert_says(&sent[0], "role of the server or the mail system");
    }
    let sent = refused(&mut s, "r0bot5");
    assert_says(&sent[0], "kept for the server's robots");
    // A name that is merely near is fine.
    sign_up(&mut s, ATTACKER, "alicia", ATTACKER);
}

/// Issue 25 finding 11: local and IP-literal addresses are refused as an account's
/// address, at signup (given or taken from the sender) and `change address`.
#[test]
fn local_and_ip_literal_addresses_are_refused() {
    let mut s = TestServer::confirming();
    for (k, a) in [
        "victim@localhost",
        "victim@127.0.0.1",
        "victim@mail.localhost",
        "victim@printer.local",
        "victim@corp.internal",
    ]
    .into_iter()
    .enumerate()
    {
        let from = format!("spammer{k}@example.net");
        let sent = s.send(&from, &format!("signup spam1 spam-pw7 {a}"), "");
        assert_says(&sent[0], "a private network");
        assert!(!exists(&s, "spam1"), "{a}");
    }
    let sent = s.send("victim@localhost", "signup spam2 spam-pw7", "");
    assert!(!exists(&s, "spam2"), "{sent:#?}");
    confirmed(&mut s, "alice", "alice@example.org");
    let sent = s.send(
        "alice@example.org",
        "change address alice alice-pw7 root@10.0.0.1",
        "",
    );
    assert_says(&sent[0], "names this machine or a private network");
    let account = std::fs::read_to_string(s.home().join("accounts/alice.json")).expect("alice");
    assert!(!account.contains("10.0.0.1"), "{account}");
}
