//! Issue 45, through the real binary with confirmation on: a bounce counts only
//! against the exact address the bounced mail was sent to (attack 1: a stranger who
//! has our mail sent to `alice+0@`, `+1@`, `+2@` of a domain without plus addressing
//! gets genuine hard bounces back, and alice's own address goes on getting her
//! mail), and no log line carries a secret (attack 6: a verify mail the gate drops
//! is logged as the kind of mail, never with its code).

use yinsh_pbem::server::store::Store;

use crate::support::bin;
use crate::support::dsn::{user_unknown, verp};
use crate::support::sent::mails_to;
use crate::support::server::TestServer;

const ALICE: &str = "Alice <alice@corp.example>";
const BOB: &str = "Bob <bob@example.org>";
const STRANGER: &str = "Mallory <mallory@evil.test>";

/// A server that asks new addresses to confirm themselves, run as the binary.
fn server() -> TestServer {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s
}

/// Attack 1: three `yinsh help` mails with `Reply-To: alice+0@corp.example`, `+1`,
/// `+2`, a day apart, each answered there and each answer bounced for real ("550
/// user unknown": corp.example has no plus addressing). Each bounce counts against
/// its own spelling, so none is marked failing, and alice, who confirmed
/// `alice@corp.example`, keeps getting her mail.
#[test]
fn bounces_of_mail_to_other_spellings_never_silence_a_player() {
    let mut s = server();
    s.confirmed("alice", "apw", "alice@corp.example");
    s.confirmed("bob", "bpw", "bob@example.org");
    let start = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(mails_to(&start, "alice@corp.example").len(), 1, "{start:?}");
    for k in 0..3 {
        s.now += 86_400;
        let spelling = format!("alice+{k}@corp.example");
        let sent = s.send_with_reply_to(STRANGER, &spelling, "yinsh help", "");
        assert_eq!(
            mails_to(&sent, &spelling).len(),
            1,
            "answered there: {sent:?}"
        );
        let report = user_unknown(&verp(&s.home(), &spelling), &spelling, &format!("b{k}@mx"));
        assert!(s.send_raw(report.as_bytes()).is_empty());
        let log = s.log();
        assert!(
            log.contains(&format!("hard bounce for {spelling} (multipart/report")),
            "the genuine bounce is counted: {log}"
        );
    }
    let log = s.log();
    assert!(!log.contains("marked failing"), "{log}");
    // Alice's own mail keeps coming: her move answered, bob's move told to her.
    let sent = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert_eq!(mails_to(&sent, "alice@corp.example").len(), 1, "{sent:?}");
    let sent = s.send(BOB, "yinsh move 101 bob bpw f6", "");
    assert_eq!(mails_to(&sent, "alice@corp.example").len(), 1, "{sent:?}");
    let log = s.log();
    assert!(!log.contains("not sent to alice@corp.example"), "{log}");
    let store = Store::open(&s.home()).expect("store");
    let alice = "alice@corp.example".parse().expect("an address");
    assert!(!store.is_failing(&alice).expect("readable"));
}

/// The log, with a check that no line of it names a verify code of `userid` (the
/// words `verify <userid> <code>`, as the verify mail's Subject writes them).
fn log_without_codes(s: &TestServer, userid: &str) -> String {
    let log = s.log();
    let subject = format!("verify {userid} ");
    for line in log.lines() {
        assert!(!line.contains(&subject), "a code in the log: {line}");
    }
    log
}

/// Attack 6: a verify mail the gate drops, at an address marked failing or over the
/// day's mails to an address, is logged as "the verify code for <userid>": the log never
/// holds the code (which confirms the address from anywhere).
#[test]
fn a_verify_mail_the_gate_drops_leaves_its_code_out_of_the_log() {
    // An address marked failing after three hard bounces over two days.
    let mut s = server();
    let carol = "carol@corp.example";
    let to = verp(&s.home(), carol);
    for k in 0..3 {
        s.now += 86_400;
        s.send_raw(user_unknown(&to, carol, &format!("c{k}@mx")).as_bytes());
    }
    assert!(s.log().contains("marked failing"), "{}", s.log());
    let sent = s.send("Carol <carol@corp.example>", "signup carol cpw", "");
    assert!(mails_to(&sent, carol).is_empty(), "{sent:?}");
    let log = log_without_codes(&s, "carol");
    assert!(
        log.contains(&format!(
            "not sent to {carol} (marked failing after hard bounces): the verify code for carol"
        )),
        "{log}"
    );
    // A mailbox whose daily mails are spent (a stranger's budget, an unconfirmed
    // address's quota: 5): the verify mail of a signup from it, which proves
    // nobody, is over them.
    let mut s = server();
    let dave = "dave@corp.example";
    for _ in 0..5 {
        let sent = s.send_with_reply_to(STRANGER, dave, "help", "");
        assert_eq!(mails_to(&sent, dave).len(), 1, "{sent:?}");
    }
    let sent = s.send("Dave <dave@corp.example>", "signup dave dpw", "");
    assert!(mails_to(&sent, dave).is_empty(), "{sent:?}");
    let log = log_without_codes(&s, "dave");
    assert!(
        log.contains(&format!(
            "not sent to {dave}: over 5 mails today to an unconfirmed address: \
             the verify code for dave"
        )),
        "{log}"
    );
}

/// Issue 45, the bounce part of attack 3: with confirmation on and `[security]
/// trusted_authserv_id`, a password-less mail from a confirmed From the trusted mail
/// system passed is its owner's (answered as theirs), but it proves no account: it
/// does not restore the address marked failing. A command with the password does.
#[test]
fn a_trusted_pass_that_makes_a_mail_its_owners_restores_no_failing_address() {
    let mut s = server();
    let config = s.dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[security]\ntrusted_authserv_id = \"mx.yinsh.test\"\n",
    )
    .expect("config");
    s.args = vec!["--config".into(), config.display().to_string()];
    s.confirmed("alice", "apw", "alice@corp.example");
    let to = verp(&s.home(), "alice@corp.example");
    for k in 0..3 {
        s.now += 86_400;
        s.send_raw(user_unknown(&to, "alice@corp.example", &format!("a{k}@mx")).as_bytes());
    }
    assert!(s.log().contains("marked failing"), "{}", s.log());
    let passed = |s: &mut TestServer, subject: &str| {
        let raw = s.mail(ALICE, subject, "");
        format!("Authentication-Results: mx.yinsh.test; dmarc=pass header.from=corp.example\n{raw}")
    };
    let raw = passed(&mut s, "yinsh help");
    let sent = s.send_raw(raw.as_bytes());
    assert!(mails_to(&sent, "alice@corp.example").is_empty(), "{sent:?}");
    assert!(!s.log().contains("no longer failing"), "{}", s.log());
    let raw = passed(&mut s, "yinsh settings alice apw");
    let sent = s.send_raw(raw.as_bytes());
    assert!(
        s.log().contains("alice@corp.example is no longer failing"),
        "{}",
        s.log()
    );
    assert_eq!(mails_to(&sent, "alice@corp.example").len(), 1, "{sent:?}");
}
