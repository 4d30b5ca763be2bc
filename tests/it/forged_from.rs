//! Issue 25, defence in depth for a forged From: with `[security]
//! trusted_authserv_id` set, a mail whose From fails the trusted mail system's checks
//! (its `Authentication-Results`, RFC 8601) proves nothing: no password, reply token
//! or code is accepted from it; a header naming another authserv-id is ignored.
//! Through the real binary with a config file, as an operator runs it.

use crate::support::mail::{Client, reply};
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const TRUSTED: &str = "mx.yinsh.example";

/// A server with the trusted id configured, alice and bob playing board 101.
fn game() -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::with_binary();
    let config = s.dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("[security]\ntrusted_authserv_id = \"{TRUSTED}\"\n"),
    )
    .expect("config");
    s.args = vec!["--config".into(), config.display().to_string()];
    s.send(ALICE, "signup alice apw", "");
    s.send("Bob <bob@example.org>", "signup bob bpw", "");
    let sent = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(sent.len(), 2, "{sent:?}");
    (s, sent)
}

/// `raw` with `headers` on top, as the MTA prepends them.
fn with_headers(raw: &str, headers: &str) -> String {
    format!("{headers}{raw}")
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_from_failing_the_trusted_checks_proves_nothing() {
    let (mut s, start) = game();
    let fail = format!(
        "Authentication-Results: {TRUSTED}; dmarc=fail (p=reject) header.from=example.org\n"
    );
    // The right password, From failing DMARC: refused, nothing played.
    let raw = s.mail(ALICE, "yinsh move 101 alice apw e5", "");
    let sent = s.send_raw(with_headers(&raw, &fail).as_bytes());
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_says(&sent[0], "failed our mail system's sender checks");
    assert_eq!(turns(&s), 0);
    // A genuine reply token, From failing DMARC: refused too.
    let board = start
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .expect("alice's board mail");
    let raw = reply(
        Client::Thunderbird,
        ALICE,
        &board.original(),
        "e5",
        "r1@client.example",
    );
    let sent = s.send_raw(with_headers(&raw, &fail).as_bytes());
    assert_says(&sent[0], "failed our mail system's sender checks");
    assert_eq!(turns(&s), 0);
    // A forger's own header with another id changes nothing: ignored, so a mail
    // that carries only such a header is judged as before (here: played).
    let theirs = "Authentication-Results: evil.test; dmarc=fail header.from=example.org\n";
    let raw = s.mail(ALICE, "yinsh move 101 alice apw e5", "");
    let sent = s.send_raw(with_headers(&raw, theirs).as_bytes());
    assert_eq!(turns(&s), 1, "{sent:?}");
    // A pass from the trusted id: played as usual.
    let pass = format!("Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org\n");
    let raw = s.mail("Bob <bob@example.org>", "yinsh move 101 bob bpw f6", "");
    s.send_raw(with_headers(&raw, &pass).as_bytes());
    assert_eq!(turns(&s), 2);
    assert!(
        s.log()
            .contains("reply token not read: the From failed the sender checks"),
        "{}",
        s.log()
    );
}
