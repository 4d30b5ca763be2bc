//! Issue 25, defence in depth for a forged From: with `[security]
//! trusted_authserv_id` set, a mail whose From fails the trusted mail system's checks
//! (its `Authentication-Results`, RFC 8601) proves nothing: no password, reply token
//! or code is accepted from it; a header naming another authserv-id is ignored.
//! Through the real binary with a config file, as an operator runs it.
//!
//! Issue 45 attack 3: a mail with several From mailboxes proves nothing; every
//! trusted header is read however many forged ones come first; an authserv-id counts
//! only as the mail system writes it (bare); trusted DMARC results about another
//! domain are no pass; `[security] require_dmarc_pass` makes a token prove only a
//! From the trusted checks passed.

use crate::support::mail::{Client, reply};
use crate::support::sent::only_to;
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const TRUSTED: &str = "mx.yinsh.example";

/// A server with the trusted id configured, alice and bob playing board 101.
fn game() -> (TestServer, Vec<Sent>) {
    game_with(&format!(
        "[security]\ntrusted_authserv_id = \"{TRUSTED}\"\n"
    ))
}

/// A server with this config file, alice and bob playing board 101 (alice to move).
fn game_with(config_text: &str) -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::with_binary();
    let config = s.dir.path().join("config.toml");
    let config_text = config_text.replace("{dir}", &s.dir.path().display().to_string());
    std::fs::write(&config, config_text).expect("config");
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

/// Alice's board mail among `sent`.
fn alices(sent: &[Sent]) -> Sent {
    only_to(sent, "alice@example.org")
}

/// A Reply to `board` from alice saying `text`: it carries her reply token.
fn alices_reply(board: &Sent, text: &str, id: &str) -> String {
    reply(Client::Thunderbird, ALICE, &board.original(), text, id)
}

/// Issue 45 attack 3: two From headers (the mail system judges the first, mallory's
/// own, which passes; mail-parser reads the last, alice's) with a leaked reply token:
/// nothing is played. So for a password, and for a From of several mailboxes, with
/// or without a trusted id.
#[test]
fn two_from_headers_with_a_leaked_reply_token_play_nothing() {
    let (mut s, start) = game();
    let mallory = format!(
        "Authentication-Results: {TRUSTED}; dkim=pass header.d=evil.test; spf=pass smtp.mailfrom=evil.test; dmarc=pass header.from=evil.test\n\
         From: Mallory <mallory@evil.test>\n"
    );
    let raw = alices_reply(&alices(&start), "e5", "two-from@evil.test");
    let sent = s.send_raw(with_headers(&raw, &mallory).as_bytes());
    assert_eq!(turns(&s), 0, "{sent:?}");
    // The right password in such a mail, and without any trusted id: refused too.
    let (mut s, _) = game_with("");
    let raw = s.mail(ALICE, "yinsh move 101 alice apw e5", "");
    let sent = s.send_raw(with_headers(&raw, "From: Mallory <mallory@evil.test>\n").as_bytes());
    assert_eq!(turns(&s), 0, "{sent:?}");
    assert_says(&sent[0], "names more than one sender");
    let raw = s.mail(ALICE, "yinsh move 101 alice apw e5", "").replacen(
        "From: Alice <alice@example.org>",
        "From: Alice <alice@example.org>, Mallory <mallory@evil.test>",
        1,
    );
    assert!(raw.contains("mallory@evil.test"), "{raw}");
    let sent = s.send_raw(raw.as_bytes());
    assert_eq!(turns(&s), 0, "{sent:?}");
    // One From, one mailbox: played as always.
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert_eq!(turns(&s), 1);
}

/// Issue 45 attack 3: 20 made-up headers on top do not push the trusted `dmarc=fail`
/// a mail system appends below them (Exim, milters) out of reach.
#[test]
fn twenty_forged_headers_do_not_hide_the_trusted_fail_below_them() {
    let (mut s, _) = game();
    let headers = "Authentication-Results: evil.test; dmarc=pass header.from=example.org\n"
        .repeat(20)
        + &format!(
            "Authentication-Results: {TRUSTED}; dmarc=fail (p=reject) header.from=example.org\n"
        );
    let raw = s.mail(ALICE, "yinsh move 101 alice apw e5", "");
    let sent = s.send_raw(with_headers(&raw, &headers).as_bytes());
    assert_eq!(turns(&s), 0, "{sent:?}");
    assert_says(&sent[0], "failed our mail system's sender checks");
}

/// Issue 45 attack 3: a quoted authserv-id, or one after a comment, is not the one the
/// mail system writes (nor the one its header rule strips): such a header is a
/// stranger's and says nothing, its fail as little as its pass.
#[test]
fn a_quoted_or_commented_authserv_id_is_not_trusted() {
    let (mut s, _) = game();
    let moves = [("alice", "apw", "e5"), ("bob", "bpw", "e6")];
    for (k, written) in [format!("\"{TRUSTED}\""), format!("(our MTA) {TRUSTED}")]
        .iter()
        .enumerate()
    {
        let fail =
            format!("Authentication-Results: {written}; dmarc=fail header.from=example.org\n");
        let (userid, password, turn) = moves[k];
        let from = format!("{userid} <{userid}@example.org>");
        let raw = s.mail(
            &from,
            &format!("yinsh move 101 {userid} {password} {turn}"),
            "",
        );
        let sent = s.send_raw(with_headers(&raw, &fail).as_bytes());
        assert_eq!(turns(&s), k + 1, "{written}: {sent:?}");
    }
    // The same with a pass, where a token needs one (require_dmarc_pass): no pass.
    let (mut s, start) = game_with(&format!(
        "[security]\ntrusted_authserv_id = \"{TRUSTED}\"\nrequire_dmarc_pass = true\n"
    ));
    for written in [format!("\"{TRUSTED}\""), format!("(our MTA) {TRUSTED}")] {
        let pass =
            format!("Authentication-Results: {written}; dmarc=pass header.from=example.org\n");
        let raw = alices_reply(
            &alices(&start),
            "e5",
            &format!("q{}@c.example", written.len()),
        );
        let sent = s.send_raw(with_headers(&raw, &pass).as_bytes());
        assert_eq!(turns(&s), 0, "{written}: {sent:?}");
    }
}

/// Issue 45 attack 3: trusted DMARC results that concern another domain than the
/// From's (the mail system judged another From) are no pass: a leaked reply token in
/// such a mail plays nothing.
#[test]
fn trusted_results_about_another_domain_are_no_pass() {
    let (mut s, start) = game();
    let other = format!(
        "Authentication-Results: {TRUSTED}; dkim=pass header.d=evil.test; dmarc=pass header.from=evil.test\n"
    );
    let raw = alices_reply(&alices(&start), "e5", "other-domain@evil.test");
    let sent = s.send_raw(with_headers(&raw, &other).as_bytes());
    assert_eq!(turns(&s), 0, "{sent:?}");
    assert_says(&sent[0], "failed our mail system's sender checks");
}

/// Issue 45 attack 3, the strict mode: with `require_dmarc_pass = true` a reply token
/// or a play token proves its player only in a mail whose From the trusted checks
/// passed; a password still proves its player without a pass.
#[test]
fn strict_mode_needs_a_trusted_pass_for_a_token_proof() {
    let site = "[site]\nout = \"{dir}/site\"\nurl = \"https://example.net/yinsh\"\n";
    let (mut s, start) = game_with(&format!(
        "[security]\ntrusted_authserv_id = \"{TRUSTED}\"\nrequire_dmarc_pass = true\n{site}"
    ));
    let pass = format!("Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org\n");
    let neutral = format!("Authentication-Results: {TRUSTED}; dkim=none; spf=none\n");
    let board = alices(&start);
    // A reply token without a pass: refused, told why.
    for headers in ["", neutral.as_str()] {
        let raw = alices_reply(&board, "e5", &format!("s{}@client.example", headers.len()));
        let sent = s.send_raw(with_headers(&raw, headers).as_bytes());
        assert_eq!(turns(&s), 0, "{sent:?}");
        assert_says(&sent[0], "could not confirm that this mail comes from");
    }
    // With a pass: played.
    let raw = alices_reply(&board, "e5", "s-pass@client.example");
    let sent = s.send_raw(with_headers(&raw, &pass).as_bytes());
    assert_eq!(turns(&s), 1, "{sent:?}");
    // Bob's play link, without a pass then with one.
    let bobs = only_to(&sent, "bob@example.org");
    let (_, after) = bobs.body.split_once("#play=").expect("a play link");
    let token = after.split_whitespace().next().expect("a token");
    let command = format!("yinsh move 101 bob {token} e6#2");
    let raw = s.mail("Bob <bob@example.org>", &command, "");
    let sent = s.send_raw(raw.as_bytes());
    assert_eq!(turns(&s), 1, "{sent:?}");
    assert_says(&sent[0], "could not confirm that this mail comes from");
    let raw = s.mail("Bob <bob@example.org>", &command, "");
    s.send_raw(with_headers(&raw, &pass).as_bytes());
    assert_eq!(turns(&s), 2);
    // A password needs no pass.
    s.send(ALICE, "yinsh move 101 alice apw e7", "");
    assert_eq!(turns(&s), 3);
}
