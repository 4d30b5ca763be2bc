//! Address confirmation (issue 13 §1), through the real binary with confirmation on
//! as by default: an address nobody confirmed by answering its `verify` mail gets no
//! text chosen by another person and at most 5 mails a day; `verify` confirms it; the
//! README quick start still works; `[security] confirm_addresses = false` restores the
//! old behaviour.

use crate::support::bin;
use crate::support::sent::mails_to;
use crate::support::server::{TestServer, assert_says};

const VICTIM: &str = "victim@example.org";

/// Signs `userid` up from `address` and returns the Subject of its verify mail.
fn sign_up(s: &mut TestServer, userid: &str, password: &str, address: &str) -> String {
    let sent = s.send(address, &format!("signup {userid} {password}"), "");
    let verify = mails_to(&sent, address)
        .into_iter()
        .find(|m| m.subject.starts_with(&format!("verify {userid} ")))
        .unwrap_or_else(|| panic!("no verify mail in {sent:?}"));
    assert_says(&verify, "press Reply");
    verify.subject
}

/// Answers a verify mail as a mail program's Reply does.
fn confirm(s: &mut TestServer, address: &str, subject: &str) {
    let sent = s.send(address, &format!("Re: {subject}"), "> quoted text");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].subject.starts_with("Address confirmed"), "{sent:?}");
}

#[test]
fn a_message_from_an_account_naming_a_strangers_address_never_reaches_it() {
    let mut s = TestServer::confirming();
    let sent = s.send(
        "attacker@example.org",
        &format!("signup spam1 pw1 {VICTIM}"),
        "",
    );
    let mails = mails_to(&sent, VICTIM);
    assert_eq!(mails.len(), 1, "{sent:?}");
    assert!(mails[0].subject.starts_with("verify spam1 "), "{sent:?}");
    assert!(
        mails_to(&sent, "attacker@example.org").is_empty(),
        "the code goes to the new address only: {sent:?}"
    );
    let sent = s.send(
        "attacker@example.org",
        "message spam1 pw1 spam1",
        "BUY CHEAP PILLS",
    );
    assert!(mails_to(&sent, VICTIM).is_empty(), "{sent:?}");
    assert!(
        sent.iter().all(|m| !m.body.contains("CHEAP PILLS")),
        "{sent:?}"
    );
    assert!(
        s.log().contains(&format!("not sent to {VICTIM}")),
        "{}",
        s.log()
    );
}

#[test]
fn errors_for_a_strangers_reply_to_quote_nothing_and_stop_at_five_a_day() {
    let mut s = TestServer::confirming();
    let mut got = Vec::new();
    for _ in 0..8 {
        let sent = s.send_with_reply_to(
            "attacker@example.org",
            VICTIM,
            "yinsh mvoe 101",
            "EVIL TEXT FOR THE VICTIM",
        );
        got.extend(mails_to(&sent, VICTIM));
    }
    assert_eq!(got.len(), 5, "{got:?}");
    for m in &got {
        assert!(!m.body.contains("EVIL TEXT"), "{}", m.body);
        assert_says(m, "Send \"help\"");
    }
    assert!(s.log().contains("over 5 mails today"), "{}", s.log());
    // The fifth says the unconfirmed address's five are spent and how to get more
    // (it said ten mails "answering mail that proved no sender" before).
    assert_says(
        &got[4],
        "This address is not confirmed yet and has now been sent 5 mails today",
    );
    assert_says(&got[4], "confirm it: answer the mail with the Subject");
    assert!(got.iter().all(|m| !m.body.contains("10 mails")), "{got:?}");
    // The next day the quota starts again.
    s.now += 86_400;
    let sent = s.send_with_reply_to("attacker@example.org", VICTIM, "yinsh mvoe 101", "EVIL");
    assert_eq!(mails_to(&sent, VICTIM).len(), 1, "{sent:?}");
}

#[test]
fn a_board_comment_reaches_a_confirmed_opponent_and_an_unconfirmed_one_after_verify() {
    let mut s = TestServer::confirming();
    let alice = sign_up(&mut s, "alice", "apw", "alice@example.org");
    let bob = sign_up(&mut s, "bob", "bpw", "bob@example.org");
    confirm(&mut s, "alice@example.org", &alice);
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let sent = s.send(
        "alice@example.org",
        "yinsh move 101 alice apw e5",
        "FIRST COMMENT",
    );
    let to_bob = mails_to(&sent, "bob@example.org");
    assert_eq!(to_bob.len(), 1, "{sent:?}");
    assert!(
        !to_bob[0].body.contains("FIRST COMMENT"),
        "{}",
        to_bob[0].body
    );
    assert_says(&to_bob[0], "not confirmed");
    let sent = s.send(
        "bob@example.org",
        "yinsh move 101 bob bpw f6",
        "SECOND COMMENT",
    );
    // bob's password proves an account with no confirmed address, which anyone could
    // have made: his text reaches nobody yet (issue 25, "never quote the stranger's
    // text"), his move does.
    let to_alice = mails_to(&sent, "alice@example.org");
    assert_eq!(to_alice.len(), 1, "{sent:?}");
    assert!(
        !to_alice[0].body.contains("SECOND COMMENT"),
        "{}",
        to_alice[0].body
    );
    confirm(&mut s, "bob@example.org", &bob);
    let sent = s.send(
        "alice@example.org",
        "yinsh move 101 alice apw e6",
        "THIRD COMMENT",
    );
    assert_says(&mails_to(&sent, "bob@example.org")[0], "THIRD COMMENT");
    let sent = s.send(
        "bob@example.org",
        "yinsh move 101 bob bpw f7",
        "FOURTH COMMENT",
    );
    assert_says(&mails_to(&sent, "alice@example.org")[0], "FOURTH COMMENT");
}

#[test]
fn a_wrong_code_confirms_nothing_and_a_fourth_account_on_one_address_is_refused() {
    let mut s = TestServer::confirming();
    let subject = sign_up(&mut s, "alice", "apw", "alice@example.org");
    let sent = s.send("alice@example.org", "verify alice AAAAAAAAAA", "");
    assert_says(&sent[0], "wrong or older than 7 days");
    assert!(
        !s.log().contains("AAAAAAAAAA"),
        "the code is hidden in the log: {}",
        s.log()
    );
    // Older than 7 days: refused too.
    s.now += 8 * 86_400;
    let sent = s.send("alice@example.org", &format!("Re: {subject}"), "");
    assert_says(&sent[0], "wrong or older than 7 days");
    // The cap counts the accounts that confirmed the address (issue 25 finding 6:
    // unconfirmed ones never count against it, `accounts_attacks.rs`).
    for n in 2..=4 {
        let subject = sign_up(&mut s, &format!("alice{n}"), "apw", "alice@example.org");
        confirm(&mut s, "alice@example.org", &subject);
    }
    let sent = s.send("alice@example.org", "signup alice5 apw", "");
    assert_says(&sent[0], "already used by 3 accounts");
}

#[test]
fn the_readme_quick_start_writes_four_and_two_replies() {
    let mut s = TestServer::confirming();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/examples");
    let challenge = std::fs::read(format!("{dir}/challenge.eml")).expect("challenge.eml");
    assert_eq!(s.send_raw(&challenge).len(), 4);
    let moved = s.send_raw(&std::fs::read(format!("{dir}/move.eml")).expect("move.eml"));
    assert_eq!(moved.len(), 2, "{moved:?}");
    let to_bob = mails_to(&moved, "bob@example.org");
    assert!(!to_bob[0].body.contains("Good luck"), "{}", to_bob[0].body);
}

#[test]
fn with_confirmation_off_a_message_reaches_any_address_as_before() {
    let mut s = TestServer::new();
    let sent = s.send(
        "attacker@example.org",
        &format!("signup spam1 pw1 {VICTIM}"),
        "",
    );
    assert!(
        sent.iter().all(|m| !m.subject.starts_with("verify")),
        "{sent:?}"
    );
    let sent = s.send(
        "attacker@example.org",
        "message spam1 pw1 spam1",
        "HELLO THERE",
    );
    assert_says(&mails_to(&sent, VICTIM)[0], "HELLO THERE");
}

#[test]
fn with_confirmation_off_a_show_finds_its_sender_in_the_index_not_in_every_account() {
    // The address index was kept only while confirmation was on, so with it off
    // every mail needing no password (a `show` asks whether its sender chose
    // text-only boards) read every account of the home. It is kept either way now: a
    // damaged account of someone else does not stop a show, and is not read.
    let mut s = TestServer::new();
    for name in ["alice", "bob", "carol"] {
        s.send(
            &format!("{name}@example.org"),
            &format!("signup {name} pw-{name}"),
            "",
        );
    }
    assert!(s.home().join("addresses/built-canonical").is_file());
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let carol = s.home().join("accounts/carol.json");
    std::fs::write(&carol, "{ damaged").expect("damage carol's account");
    let sent = s.send("eve@example.org", "yinsh show 101", "");
    let to_eve = mails_to(&sent, "eve@example.org");
    assert_eq!(to_eve.len(), 1, "{sent:?}");
    assert_says(&to_eve[0], "alice");
    // A text-only choice is still found through the index, for the sender's address.
    s.send("bob@example.org", "yinsh settings bob pw-bob text-only", "");
    let sent = s.send("bob@example.org", "yinsh show 101", "");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(!sent[0].raw.contains("text/html"), "{}", sent[0].raw);
    // Bob's choice follows his account to a new address, and leaves the old one.
    s.send(
        "bob@example.org",
        "change address bob pw-bob bob@example.net",
        "",
    );
    for (address, html) in [("bob@example.net", false), ("bob@example.org", true)] {
        let sent = s.send(address, "yinsh show 101", "");
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(sent[0].raw.contains("text/html"), html, "{address}");
    }
    // The damaged account is still a loud error where it is read.
    let raw = s.mail("carol@example.org", "yinsh show 101", "");
    assert_eq!(s.deliver_raw(raw.as_bytes()), 75);
}

#[test]
fn check_config_shows_the_switch_and_the_file_turns_it_off() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("yinsh.toml");
    let home = dir.path().join("games");
    std::fs::create_dir_all(&home).expect("home");
    let run = |file: &str| {
        std::fs::write(&config, file).expect("config");
        let out = bin::assert_command()
            .env_remove(bin::CONFIRM)
            .arg("check-config")
            .arg("--config")
            .arg(&config)
            .arg("--home")
            .arg(&home)
            .output()
            .expect("check-config");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert!(
        run("").contains("confirm addresses:  yes (at most 5 mails a day"),
        "{}",
        run("")
    );
    let off = run("[security]\nconfirm_addresses = false\n");
    assert!(off.contains("confirm addresses:  no"), "{off}");
}

#[test]
fn regression_a_strangers_unknown_command_word_is_not_repeated_to_an_unconfirmed_address() {
    // The soak found it: the error for an unknown command word quoted the word, whole,
    // in the version meant for unconfirmed addresses, so a stranger could mail any
    // one-word text (a link, 300 kB of it) to a victim named in Reply-To.
    let mut s = TestServer::confirming();
    let word = format!("Visit-http://evil.example/login-{}", "x".repeat(20_000));
    let sent = s.send_with_reply_to("attacker@example.org", VICTIM, &word, "");
    let mails = mails_to(&sent, VICTIM);
    assert_eq!(mails.len(), 1, "{sent:?}");
    assert!(!mails[0].raw.contains("evil.example"), "{}", mails[0].raw);
    assert!(mails[0].raw.len() < 5_000, "{} bytes", mails[0].raw.len());
    assert_says(&mails[0], "does not start with a command");
    // In a multiple: neither the line of an unknown word nor a challenge over the cap
    // (its userids may be any words) is quoted.
    let alice = sign_up(&mut s, "alice", "apw", "alice@example.org");
    sign_up(&mut s, "bob", "bpw", "bob@example.org");
    let body = "Visit-http://evil.example/a\nyinsh mvoe evil.example\nyinsh challenge alice bob\nyinsh challenge alice bob\nyinsh challenge alice bob\nyinsh challenge evil.example now-login\n";
    let victim2 = "victim2@example.org";
    let sent = s.send_with_reply_to("attacker@example.org", victim2, "multiple", body);
    let mails = mails_to(&sent, victim2);
    assert_eq!(mails.len(), 3, "{sent:?}");
    for m in &mails {
        assert!(!m.raw.contains("evil.example"), "{}", m.raw);
    }
    assert!(
        mails.iter().any(|m| m.body.contains("at most 3 games")),
        "{mails:?}"
    );
    // A confirmed address (a player's own) does not read the words of a mail that
    // proved no sender either: anyone can write its From (issue 25 finding 2). The
    // answer keeps the server's words.
    confirm(&mut s, "alice@example.org", &alice);
    let sent = s.send("alice@example.org", "yinsh mvoe 101", "");
    let answer = &mails_to(&sent, "alice@example.org")[0];
    assert!(!answer.body.contains("\"mvoe\""), "{}", answer.body);
    assert_says(answer, "The command word is misspelt");
}
