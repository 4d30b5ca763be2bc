//! Password guessing and taken names (issue 13 §3, §4), through the real binary:
//! wrong passwords are limited per target userid whatever address the mails claim,
//! the owner is told once, and a userid the operator lists as an admin cannot be
//! taken by mail.

use crate::support::server::{TestServer, assert_says};

fn with_alice() -> TestServer {
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice Zq7secretA", "");
    s
}

#[test]
fn five_wrong_passwords_pause_logins_for_the_hour_and_the_owner_is_told_once() {
    let mut s = with_alice();
    // Five guesses from five different senders: each answered as pbmserv did.
    for k in 0..5 {
        let r = s.send(
            &format!("attacker+{k}@example.net"),
            &format!("yinsh showas alice guess{k}"),
            "",
        );
        assert_eq!(r.len(), 1);
        assert_says(&r[0], "Invalid password entered");
    }
    // From here even the right password is refused, so a right guess does not stand
    // out; the owner gets one mail, the first time only.
    let r = s.send(
        "attacker+5@example.net",
        "yinsh showas alice Zq7secretA",
        "",
    );
    assert_eq!(r.len(), 2, "{r:#?}");
    let told: Vec<_> = r.iter().filter(|m| m.to == ["alice@example.org"]).collect();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].subject, "Wrong passwords for alice");
    assert_says(told[0], "5 wrong passwords were sent for your userid alice");
    let refused = r
        .iter()
        .find(|m| m.to != ["alice@example.org"])
        .expect("the refusal");
    assert_says(
        refused,
        "Too many wrong passwords were sent for alice: its logins are paused until",
    );
    // A multiple mail of many guesses gets the same answer for each, and no second
    // notice reaches the owner.
    let body: String = (0..20)
        .map(|k| format!("yinsh showas alice more{k}\n"))
        .collect();
    let r = s.send("other@example.net", "multiple", &body);
    assert!(r.iter().all(|m| m.to != ["alice@example.org"]), "{r:#?}");
    assert!(r.iter().all(|m| m.body.contains("logins are paused")));
    // The owner's own mail is refused too until the hour is over, then works.
    let r = s.send("alice@example.org", "yinsh showas alice Zq7secretA", "");
    assert_says(&r[0], "logins are paused");
    s.now += 3600;
    let r = s.send("alice@example.org", "yinsh showas alice Zq7secretA", "");
    assert_says(&r[0], "alice has no active games.");
}

#[test]
fn a_userid_listed_as_admin_cannot_be_signed_up_by_mail() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(s.home().join("admins"), "admin\n").expect("admins");
    let r = s.send("mallory@example.net", "signup admin x1pw", "");
    assert_says(
        &r[0],
        "The userid admin is reserved by the server's operator",
    );
    assert!(!s.home().join("accounts/admin.json").exists());
    let r = s.send("mallory@example.net", "broadcast admin x1pw", "Click here");
    assert_says(&r[0], "Invalid userid entered");
}

#[test]
fn a_game_has_at_most_twenty_watchers() {
    let mut s = TestServer::new();
    let body: String = ["signup alice apw1", "signup bob bpw1"]
        .iter()
        .map(|l| format!("{l}\n"))
        .chain((0..21).map(|k| format!("signup w{k} wpw{k}\n")))
        .collect();
    s.send("ops@example.org", "multiple", &body);
    s.send("ops@example.org", "yinsh challenge alice bob", "");
    let body: String = (0..20)
        .map(|k| format!("yinsh subscribe 101 w{k} wpw{k}\n"))
        .collect();
    s.send("ops@example.org", "multiple", &body);
    let r = s.send("ops@example.org", "yinsh subscribe 101 w20 wpw20", "");
    assert_says(
        &r[0],
        "Board 101 has 20 watchers already, the most a game may have.",
    );
}
