//! Issue 30, bounces: a delivery status notification that comes back to a reply's VERP
//! bounce address counts a hard bounce for that recipient; `[mail] hard_bounces` (3)
//! of them over at least a day mark it failing: the gate sends it nothing more, the
//! operator is told once; a mail from the address that proves its sender restores it
//! (a From the trusted mail system passed does not, issue 45). A DSN with a forged
//! tag, or a soft one, counts nothing. In-process, with real mails.

use yinsh_pbem::server::store::Store;

use crate::support::dsn::{dsn, verp};
use crate::support::server::TestServer;

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

/// Issue 30, bounces: three hard bounces over more than a day mark the address
/// failing; the operator is told once; the next reply leaves it out; a mail from it
/// that proves its sender restores it, a bare From does not.
#[test]
fn three_hard_bounces_over_a_day_mark_an_address_failing_until_it_writes() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "operator = \"ops@example.org\"\n",
    )
    .expect("config");
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let to = verp(&s.home(), "alice@example.org");
    for (k, id) in ["d1@mx", "d2@mx", "d3@mx"].iter().enumerate() {
        if k == 2 {
            s.now += 86_400;
        }
        let raw = dsn(&to, "alice@example.org", id, "5.1.1");
        let sent = s.send_raw(raw.as_bytes());
        let log = s.log();
        assert!(
            log.contains(&format!(
                "hard bounce for alice@example.org (multipart/report, {} counted)",
                k + 1
            )),
            "{log}"
        );
        if k < 2 {
            assert!(sent.is_empty(), "{sent:?}");
            assert!(!log.contains("marked failing"), "{log}");
        } else {
            assert!(
                log.contains("marked failing, no more mail goes to it"),
                "{log}"
            );
            assert_eq!(sent.len(), 1, "one notice, to the operator: {sent:?}");
            assert_eq!(sent[0].to, ["ops@example.org"]);
            assert!(sent[0].subject.contains("alice@example.org marked failing"));
        }
    }
    // A copy of the last notification counts nothing and tells nobody again.
    let copy = dsn(&to, "alice@example.org", "d3@mx", "5.1.1");
    assert!(s.send_raw(copy.as_bytes()).is_empty());
    assert!(s.log().contains("counted already"));
    // Bob challenges alice: bob gets his mail, alice nothing.
    let sent = s.send(BOB, "yinsh challenge bob alice", "");
    assert!(!sent.is_empty());
    assert!(
        sent.iter()
            .all(|m| !m.to.iter().any(|a| a.contains("alice@"))),
        "{sent:?}"
    );
    assert!(
        s.log()
            .contains("not sent to alice@example.org (marked failing after hard bounces)")
    );
    // A From alone proves nothing (anyone can write it): still failing.
    let sent = s.send(ALICE, "help", "");
    assert!(!s.log().contains("no longer failing"));
    assert!(sent.is_empty(), "{sent:?}");
    // Alice writes with her password: restored, answered.
    let sent = s.send(ALICE, "yinsh chat 101 alice apw", "Hello?");
    assert!(s.log().contains("alice@example.org is no longer failing"));
    assert!(
        sent.iter()
            .any(|m| m.to.iter().any(|a| a.contains("alice@"))),
        "{sent:?}"
    );
}

/// Marks `address` failing in `s`: three hard bounces over more than a day.
fn bounce_three_times(s: &mut TestServer, address: &str) {
    let to = verp(&s.home(), address);
    for (k, id) in ["t1@mx", "t2@mx", "t3@mx"].iter().enumerate() {
        if k == 2 {
            s.now += 86_400;
        }
        s.send_raw(dsn(&to, address, id, "5.1.1").as_bytes());
    }
    assert!(s.log().contains("marked failing"), "{}", s.log());
}

/// Issue 30, bounces, and issue 45: with `[security] trusted_authserv_id`, a mail
/// whose From the trusted mail system passed does not restore a failing address on
/// its own (nor does the same verdict under another id, the forger's own header);
/// a mail from it that proves the account (its password) restores it.
#[test]
fn a_from_the_trusted_mail_system_passed_restores_a_failing_address_only_with_a_proof() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "[security]\ntrusted_authserv_id = \"mx.yinsh.test\"\n",
    )
    .expect("config");
    s.send(ALICE, "signup alice apw", "");
    bounce_three_times(&mut s, "alice@example.org");
    let pass = |s: &mut TestServer, authserv: &str| {
        let raw = s.mail(ALICE, "help", "");
        format!("Authentication-Results: {authserv}; dmarc=pass header.from=example.org\n{raw}")
    };
    let forged = pass(&mut s, "evil.test");
    assert!(s.send_raw(forged.as_bytes()).is_empty());
    assert!(!s.log().contains("no longer failing"), "{}", s.log());
    let passed = pass(&mut s, "mx.yinsh.test");
    assert!(s.send_raw(passed.as_bytes()).is_empty());
    assert!(!s.log().contains("no longer failing"), "{}", s.log());
    let raw = s.mail(ALICE, "yinsh settings alice apw", "");
    let proven =
        format!("Authentication-Results: mx.yinsh.test; dmarc=pass header.from=example.org\n{raw}");
    let sent = s.send_raw(proven.as_bytes());
    assert!(s.log().contains("alice@example.org is no longer failing"));
    assert!(
        sent.iter()
            .any(|m| m.to.iter().any(|a| a.contains("alice@"))),
        "{sent:?}"
    );
}

/// Issue 30, bounces: a DSN whose bounce address carries a tag the server did not
/// make (forged), or a soft bounce, counts nothing; neither is answered.
#[test]
fn a_forged_or_soft_bounce_counts_nothing() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    let to = verp(&s.home(), "alice@example.org");
    let forged_to = format!(
        "yinsh+bounce-{}-alice=example.org@localhost",
        "0123456789abcdef"
    );
    assert_ne!(forged_to, to, "the test's tag happens to be the real one");
    for k in 0..3 {
        let raw = dsn(
            &forged_to,
            "alice@example.org",
            &format!("f{k}@mx"),
            "5.1.1",
        );
        assert!(s.send_raw(raw.as_bytes()).is_empty());
    }
    assert!(s.log().contains("its tag is not ours"), "{}", s.log());
    let soft = dsn(&to, "alice@example.org", "s1@mx", "4.4.1");
    assert!(s.send_raw(soft.as_bytes()).is_empty());
    assert!(
        s.log().contains("is no hard bounce: not counted"),
        "{}",
        s.log()
    );
    assert!(!s.home().join("bounces").exists(), "something was counted");
}

/// The hard bounces counted for `address` in `home`, and whether it is failing.
fn record_of(home: &std::path::Path, address: &str) -> (usize, bool) {
    let store = Store::open(home).expect("store");
    let address = address.parse().expect("an address");
    store
        .bounce_record(&address)
        .expect("a readable record")
        .map_or((0, false), |r| (r.hard.len(), r.failing_since.is_some()))
}

/// The operator's notices of an address marked failing in the outbox of `home`.
fn failing_notices(home: &std::path::Path) -> usize {
    std::fs::read_dir(home.join("outbox"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .filter(|e| {
                    std::fs::read_to_string(e.path())
                        .is_ok_and(|t| t.contains("yinsh-pbem: alice@example.org marked failing"))
                })
                .count()
        })
        .unwrap_or(0)
}

/// Issue 44, one gate: the bounce that marks an address failing and the operator's
/// notice of it are one transaction's: killed at any fault point, or with a write
/// failing for a full disk, the home holds neither (the bounce not counted, nobody
/// told) or, once its journal is completed, both; the same report delivered again is
/// counted once and tells the operator once.
#[test]
fn a_kill_while_an_address_is_marked_failing_leaves_neither_or_both() {
    use yinsh_pbem::durable::fault::POINTS;
    use yinsh_pbem::mail::Transport;

    let mut specs: Vec<String> = POINTS.iter().map(|p| (*p).to_string()).collect();
    specs.extend(["apply-file:2", "enospc:1", "enospc:2", "enospc:3"].map(String::from));
    for spec in specs {
        let mut s = TestServer::new();
        std::fs::create_dir_all(s.home()).expect("home");
        std::fs::write(
            s.home().join("config.toml"),
            "operator = \"ops@example.org\"\n",
        )
        .expect("config");
        s.send(ALICE, "signup alice apw", "");
        let to = verp(&s.home(), "alice@example.org");
        for id in ["k1@mx", "k2@mx"] {
            s.send_raw(dsn(&to, "alice@example.org", id, "5.1.1").as_bytes());
        }
        s.now += 86_400;
        let home = s.home();
        assert_eq!(record_of(&home, "alice@example.org"), (2, false), "{spec}");
        let third = dsn(&to, "alice@example.org", "k3@mx", "5.1.1");
        let fault = [("YINSH_PBEM_FAULT", spec.as_str())];
        let (child, _) = crate::support::bin::spawn_deliver(&home, s.now, &fault, third.as_bytes());
        let out = child.wait_with_output().expect("deliver");
        assert!(
            matches!(out.status.code(), None | Some(0) | Some(75)),
            "{spec}: {out:?}"
        );
        // What the next run does first: complete (or discard) the journal left.
        {
            let store = Store::open(&home).expect("store");
            let _lock = store.lock().expect("lock");
            store
                .recover(&Transport::Outbox(home.join("outbox")))
                .expect("recover");
        }
        let state = (
            record_of(&home, "alice@example.org"),
            failing_notices(&home),
        );
        assert!(
            state == ((2, false), 0) || state == ((3, true), 1),
            "{spec}: neither or both, found {state:?}"
        );
        // The mail system delivers the report again: counted once, told once.
        let (child, _) = crate::support::bin::spawn_deliver(&home, s.now, &[], third.as_bytes());
        let out = child.wait_with_output().expect("deliver");
        assert_eq!(out.status.code(), Some(0), "{spec}: {out:?}");
        assert_eq!(
            (
                record_of(&home, "alice@example.org"),
                failing_notices(&home)
            ),
            ((3, true), 1),
            "{spec}: after the report came again"
        );
    }
}
