//! A well-behaved mail robot (RFC 3834 and common sense): mail from other robots,
//! lists, bounces and ourselves is never answered (and the log says why); the same
//! mail delivered twice is applied and answered once; a sender's mail storm is cut off
//! with one notice per period; an oversized mail gets a short error and nothing of it
//! is stored; every mail we send carries our X-Loop.

use crate::support::mail::{Client, reply};
use crate::support::server::{Runs, TestServer};

/// alice and bob signed up and board 101 started.
fn started() -> TestServer {
    let mut s = TestServer::new();
    s.send("Alice <alice@example.org>", "signup alice apw", "");
    s.send("Bob <bob@example.org>", "signup bob bpw", "");
    let r = s.send("Alice <alice@example.org>", "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2);
    for m in &r {
        assert!(
            m.raw.contains("\r\nX-Loop: yinsh@localhost\r\n"),
            "{}",
            m.raw
        );
        assert!(m.raw.contains("\r\nAuto-Submitted: auto-replied\r\n"));
    }
    s
}

fn move_mail(s: &mut TestServer, extra_headers: &str) -> String {
    let m = s.mail(
        "Alice <alice@example.org>",
        "yinsh move 101 alice apw e5#1",
        "",
    );
    m.replacen(
        "MIME-Version: 1.0\n",
        &format!("MIME-Version: 1.0\n{extra_headers}"),
        1,
    )
}

#[test]
fn mail_from_robots_lists_and_ourselves_is_dropped_unanswered() {
    let cases = [
        ("Auto-Submitted: auto-replied\n", "Auto-Submitted"),
        ("Auto-Submitted: auto-generated\n", "Auto-Submitted"),
        ("Precedence: bulk\n", "Precedence: bulk"),
        ("Precedence: list\n", "Precedence: list"),
        ("Precedence: junk\n", "Precedence: junk"),
        ("List-Id: <games.lists.example.org>\n", "List-Id"),
        ("X-Loop: yinsh@localhost\n", "X-Loop"),
        ("Return-Path: <>\n", "empty return path"),
        (
            "Return-Path: <MAILER-DAEMON@mx.example.org>\n",
            "mailer daemon",
        ),
    ];
    for (header, why) in cases {
        let mut s = started();
        let before = std::fs::read(s.home().join("boards/101.json")).unwrap();
        let raw = move_mail(&mut s, header);
        let r = s.send_raw(raw.as_bytes());
        assert!(r.is_empty(), "{header}: answered {r:?}");
        assert_eq!(
            std::fs::read(s.home().join("boards/101.json")).unwrap(),
            before,
            "{header}: the move was played"
        );
        assert!(
            s.log().contains(why),
            "{header}: log does not say why:\n{}",
            s.log()
        );
    }
}

#[test]
fn auto_submitted_no_is_a_person_and_is_answered() {
    let mut s = started();
    let raw = move_mail(&mut s, "Auto-Submitted: no\nPrecedence: first-class\n");
    assert_eq!(s.send_raw(raw.as_bytes()).len(), 2);
}

#[test]
fn an_empty_envelope_sender_from_the_mta_is_a_bounce() {
    let mut s = started();
    // The envelope sender is an argument of the binary.
    s.runs = Runs::Binary;
    s.args = vec!["--sender".into(), "".into()];
    let raw = move_mail(&mut s, "");
    assert!(s.send_raw(raw.as_bytes()).is_empty());
    s.args = vec!["--sender".into(), "MAILER-DAEMON".into()];
    assert!(s.send_raw(raw.as_bytes()).is_empty());
    s.args = vec!["--sender".into(), "alice@example.org".into()];
    assert_eq!(
        s.send_raw(raw.as_bytes()).len(),
        2,
        "a real sender is answered"
    );
}

#[test]
fn the_same_mail_delivered_twice_is_applied_and_answered_once() {
    let mut s = started();
    // Without #moveno, so only the Message-ID can tell it is the same mail.
    let raw = s.mail(
        "Alice <alice@example.org>",
        "yinsh move 101 alice apw e5",
        "",
    );
    assert_eq!(s.send_raw(raw.as_bytes()).len(), 2);
    let after_first = std::fs::read(s.home().join("boards/101.json")).unwrap();
    assert!(
        s.send_raw(raw.as_bytes()).is_empty(),
        "a duplicate was answered"
    );
    assert_eq!(
        std::fs::read(s.home().join("boards/101.json")).unwrap(),
        after_first
    );
    assert!(s.log().contains("already handled"));
    assert_eq!(s.game_file(101)["turns"].as_array().unwrap().len(), 1);
}

#[test]
fn a_mail_storm_is_cut_off_with_one_notice_per_period() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).unwrap();
    std::fs::write(
        s.home().join("config.toml"),
        "[limits]\nmails_per_sender = 3\nperiod_seconds = 3600\n",
    )
    .unwrap();
    for k in 0..3 {
        let r = s.send("Carol <carol@example.org>", "yinsh help", "");
        assert_eq!(r.len(), 1, "mail {k} under the limit");
    }
    let r = s.send("Carol <carol@example.org>", "yinsh help", "");
    assert_eq!(r.len(), 1);
    assert!(r[0].body.contains("more than 3 mails"), "{}", r[0].body);
    for _ in 0..3 {
        assert!(
            s.send("Carol <carol@example.org>", "yinsh help", "")
                .is_empty()
        );
    }
    assert_eq!(
        s.send("Dave <dave@example.org>", "yinsh help", "").len(),
        1,
        "other senders are not limited"
    );
    s.now += 3600;
    assert_eq!(
        s.send("Carol <carol@example.org>", "yinsh help", "").len(),
        1,
        "a new period"
    );
}

/// Forges `n` mails in `victim`'s name (Reply-To) within one minute, each answered
/// until the storm limit is reached.
fn storm(s: &mut TestServer, victim: &str, n: usize) {
    let start = s.now;
    for _ in 0..n {
        s.send_with_reply_to("Mallory <mallory@evil.example>", victim, "yinsh help", "");
        s.now = start;
    }
}

#[test]
fn forged_mails_in_a_players_name_do_not_silence_the_player() {
    let mut s = started();
    // The default limit: 60 mails an hour per reply address, all forged.
    storm(&mut s, "alice@example.org", 61);
    assert!(
        s.send_with_reply_to(
            "Mallory <mallory@evil.example>",
            "alice@example.org",
            "yinsh help",
            ""
        )
        .is_empty(),
        "the storm limit holds for mails that prove nothing"
    );
    // A wrong password proves nothing either (and counts as a wrong password).
    assert!(
        s.send(
            "Alice <alice@example.org>",
            "yinsh move 101 alice guess e5",
            ""
        )
        .is_empty()
    );
    // Alice's real move, with her password, is played and answered.
    let r = s.send(
        "Alice <alice@example.org>",
        "yinsh move 101 alice apw e5",
        "",
    );
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(s.game_file(101)["turns"].as_array().map(Vec::len), Some(1));
    // Bob, storm-limited too, answers by pressing Reply: the reply token proves him.
    storm(&mut s, "bob@example.org", 61);
    let board = r
        .iter()
        .find(|m| m.to.iter().any(|t| t == "bob@example.org"))
        .expect("bob's board mail");
    let raw = reply(
        Client::Thunderbird,
        "Bob <bob@example.org>",
        &board.original(),
        "f6",
        "bob-reply-1@example.org",
    );
    let r = s.send_raw(raw.as_bytes());
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(s.game_file(101)["turns"].as_array().map(Vec::len), Some(2));
    // A password proves its own account only: alice's password cannot aim replies at
    // bob's address, whatever Reply-To her mail names; her answers go to her own
    // address (issue 25 finding 1).
    let r = s.send_with_reply_to(
        "Alice <alice@example.org>",
        "bob@example.org",
        "yinsh showas alice apw",
        "",
    );
    assert!(!r.is_empty());
    assert!(r.iter().all(|m| m.to == ["alice@example.org"]), "{r:?}");
    assert!(s.log().contains("proves its sender"), "{}", s.log());
}

#[test]
fn an_oversized_mail_gets_a_short_error_and_its_attachment_is_never_stored() {
    let mut s = started();
    s.runs = Runs::Binary;
    s.args = vec!["--max-message-bytes".into(), "20000".into()];
    let marker = "ATTACHMENT-PAYLOAD-7f3a";
    let payload = marker.repeat(2000);
    let raw = format!(
        "From: Alice <alice@example.org>\nTo: yinsh@localhost\nSubject: yinsh move 101 alice apw e5#1\nMessage-ID: <big-1@example.org>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/plain\n\nhello\n--B\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"x.bin\"\n\n{payload}\n--B--\n"
    );
    let r = s.send_raw(raw.as_bytes());
    assert_eq!(r.len(), 1);
    assert!(
        r[0].body.contains("larger than the limit of 20000 bytes"),
        "{}",
        r[0].body
    );
    assert!(r[0].body.len() < 2000, "the error is short");
    assert!(!r[0].raw.contains("apw"));
    assert_eq!(
        s.game_file(101)["turns"].as_array().unwrap().len(),
        0,
        "nothing was played"
    );
    let mut stack = vec![s.home()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                assert!(
                    !text.contains(marker),
                    "{} holds the attachment",
                    p.display()
                );
            }
        }
    }
}

/// Issue 13 §4: daemons without an envelope sender, auto-replies marked by
/// X-Autoreply, X-Autorespond or `Precedence: auto_reply`, and a Reply-To, From or
/// envelope sender naming our own address are never answered.
#[test]
fn daemons_autoreplies_and_our_own_address_are_never_answered() {
    let cases = [
        ("X-Autoreply: yes\n", "X-Autoreply"),
        ("X-Autorespond: I am away\n", "X-Autorespond"),
        ("Precedence: auto_reply\n", "Precedence: auto_reply"),
        ("Reply-To: <yinsh@localhost>\n", "our own address"),
        ("Reply-To: YINSH@LocalHost\n", "our own address"),
    ];
    for (header, why) in cases {
        let mut s = started();
        let before = std::fs::read(s.home().join("boards/101.json")).unwrap();
        let raw = move_mail(&mut s, header);
        let r = s.send_raw(raw.as_bytes());
        assert!(r.is_empty(), "{header}: answered {r:?}");
        assert_eq!(
            std::fs::read(s.home().join("boards/101.json")).unwrap(),
            before,
            "{header}: the move was played"
        );
        assert!(s.log().contains(why), "{header}: {}", s.log());
    }
    // A daemon's From, with neither Return-Path nor --sender: dropped.
    for from in ["MAILER-DAEMON@mx.example.org", "postmaster@example.org"] {
        let mut s = started();
        let raw = s.mail(from, "help", "");
        assert!(s.send_raw(raw.as_bytes()).is_empty(), "{from} answered");
        assert!(s.log().contains("mailer daemon"), "{from}: {}", s.log());
    }
    // Our own address as the envelope sender: dropped.
    let mut s = started();
    s.runs = Runs::Binary;
    s.args = vec!["--sender=yinsh@localhost".into()];
    let raw = s.mail("carol@example.org", "help", "");
    assert!(s.send_raw(raw.as_bytes()).is_empty());
    // X-Autoreply: no is a person.
    let mut s = started();
    let raw = move_mail(&mut s, "X-Autoreply: no\n");
    assert_eq!(s.send_raw(raw.as_bytes()).len(), 2);
}

/// Issue 13 §4: the log names From and Reply-To when they differ.
#[test]
fn the_log_names_from_and_reply_to_when_they_differ() {
    let mut s = started();
    let raw = s
        .mail("Mallory <mallory@example.org>", "help", "")
        .replacen(
            "MIME-Version",
            "Reply-To: victim@example.net\nMIME-Version",
            1,
        );
    assert_eq!(s.send_raw(raw.as_bytes()).len(), 1);
    let line = s
        .log()
        .lines()
        .find(|l| l.contains(" help"))
        .map(str::to_string)
        .unwrap_or_default();
    assert!(
        line.contains("mallory@example.org") && line.contains("victim@example.net"),
        "{line}"
    );
}

/// Issue 13 §4: an envelope sender starting with `-` is a value, not an option:
/// `--sender=-v@x.org` and `--sender -v@x.org` both deliver (exit 0, nothing on
/// stderr), and the reply goes to the From.
#[test]
fn an_envelope_sender_starting_with_a_dash_is_a_value() {
    for args in [
        vec!["--sender=-v@example.org".to_string()],
        vec!["--sender".to_string(), "-v@example.org".to_string()],
    ] {
        let mut s = started();
        s.runs = Runs::Binary;
        s.args = args.clone();
        let raw = s.mail("carol@example.org", "help", "");
        let r = s.send_raw(raw.as_bytes());
        assert_eq!(r.len(), 1, "{args:?}");
        assert_eq!(r[0].to, ["carol@example.org"]);
    }
}

/// A usage error in `deliver`'s own arguments exits 75 (the mail system keeps the
/// mail and retries; 2 would bounce it to the player), with the reason in the log.
#[test]
fn a_usage_error_of_deliver_exits_75_and_is_logged() {
    let s = started();
    let out = crate::support::bin::assert_command()
        .args(["deliver", "--home"])
        .arg(s.home())
        .arg("--no-such-option")
        .write_stdin("From: a@example.org\nSubject: help\n\n")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    assert!(s.log().contains("--no-such-option"), "{}", s.log());
}
