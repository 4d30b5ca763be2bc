//! Mail addresses: every address the server accepts (typed in a command, or read
//! from an incoming From or Reply-To) builds into a mail; odd ones are refused with a
//! clear message, or, in a header, count as no address and are logged.

use std::time::{Duration, UNIX_EPOCH};

use proptest::prelude::*;
use yinsh_pbem::mail::{Address, AddressProblem, MailSettings, OutgoingMail, build, parse_inbound};

use crate::support::server::{TestServer, assert_says};

/// Builds a one-line mail to `to`; the recipients lettre's envelope ends up with.
fn mail_to(to: &Address) -> Result<Vec<String>, String> {
    let settings = MailSettings {
        from: "YINSH PBeM <yinsh@localhost>".into(),
        loop_id: "yinsh@localhost".into(),
    };
    let mail = OutgoingMail {
        to: vec![to.to_string()],
        subject: "Yinsh board 101".into(),
        body: "hello\n".into(),
        ..OutgoingMail::default()
    };
    let at = UNIX_EPOCH + Duration::from_secs(1_717_408_800);
    build(&mail, &settings, at, "t-1@localhost")
        .map(|built| built.recipients)
        .map_err(|e| e.to_string())
}

/// Either refused with a message naming the text, or accepted and mailable as is.
fn refused_clearly_or_mailable(text: &str) -> Result<Option<Address>, String> {
    match text.parse::<Address>() {
        Err(e) => {
            let message = e.to_string();
            if !message.contains("is not an e-mail address: ") {
                return Err(format!("{text:?}: unclear refusal {message:?}"));
            }
            Ok(None)
        }
        Ok(address) => match mail_to(&address) {
            Ok(recipients) if recipients == [address.as_str()] => Ok(Some(address)),
            Ok(recipients) => Err(format!("{text:?}: mailed to {recipients:?}")),
            Err(e) => Err(format!("{text:?} was accepted but cannot be mailed: {e}")),
        },
    }
}

/// Odd addresses, each with whether it is accepted.
const ODD: &[(&str, bool)] = &[
    ("alice@example.org", true),
    ("o'brien@example.ie", true),
    ("a+yinsh@example.org", true),
    ("first.last@sub.example.co.uk", true),
    ("UPPER@EXAMPLE.ORG", true),
    ("x@localhost", true),
    ("a!b#c$d%e&f*g/h=i?j^k`l{m|n}o~p@example.org", true),
    ("\"a b\"@x.org", false),
    ("\"ab\"@x.org", false),
    ("\"a\\\"b\"@x.org", false),
    ("@relay.org:bob@x.org", false),
    ("@r1.org,@r2.org:bob@x.org", false),
    ("bob@[192.0.2.1]", false),
    ("bob@[IPv6:2001:db8::1]", false),
    ("bob@x.org,eve@y.org", false),
    ("bob@x.org;eve@y.org", false),
    ("Bob <bob@x.org>", false),
    ("bob(comment)@x.org", false),
    ("bob@x.org\r\nBcc: eve@y.org", false),
    ("bob@x.org\0", false),
    ("bob@", false),
    ("@x.org", false),
    ("bob", false),
    ("bob@x", false),
    ("bob@x..org", false),
    ("bob@-x.org", false),
    ("bob@x_y.org", false),
    ("bob..smith@x.org", false),
    (".bob@x.org", false),
    ("bob.@x.org", false),
    ("bob@x.org.", false),
    ("b@b@x.org", false),
    ("jürgen@x.org", false),
    ("bob@bücher.de", false),
    ("", false),
];

#[test]
fn odd_addresses_are_refused_clearly_or_build_into_a_mail() {
    let mut wrong = Vec::new();
    for (text, accepted) in ODD {
        match refused_clearly_or_mailable(text) {
            Ok(got) if got.is_some() == *accepted => {}
            Ok(got) => wrong.push(format!("{text:?}: accepted {got:?}, expected {accepted}")),
            Err(e) => wrong.push(e),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    let long = format!("{}@{}.org", "a".repeat(60), "b".repeat(200));
    assert_eq!(
        long.parse::<Address>().map_err(|e| e.problem),
        Err(AddressProblem::TooLong)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_refused_clearly_or_mailable(
        text in "[a-z\"\\\\ .@<>:,;\\[\\]()+'!-]{0,8}@?[a-z.\\[\\]:-]{0,8}",
    ) {
        prop_assert!(refused_clearly_or_mailable(&text).is_ok(), "{:?}", refused_clearly_or_mailable(&text));
    }

    #[test]
    fn accepted_addresses_round_trip_through_text_and_json(
        text in "[a-z0-9+_.-]{1,10}@[a-z0-9-]{1,8}\\.[a-z]{2,4}",
    ) {
        if let Ok(address) = text.parse::<Address>() {
            prop_assert_eq!(address.to_string().parse::<Address>(), Ok(address.clone()));
            let json = serde_json::to_string(&address).expect("encode");
            prop_assert_eq!(&json, &format!("{text:?}"));
            prop_assert_eq!(serde_json::from_str::<Address>(&json).expect("decode"), address);
        }
    }
}

fn inbound(headers: &str) -> yinsh_pbem::mail::InboundMail {
    parse_inbound(format!("{headers}\nSubject: help\n\nhi\n").as_bytes()).expect("a mail")
}

#[test]
fn an_inbound_from_or_reply_to_is_typed_once_and_an_odd_one_is_no_address() {
    let mail = inbound("From: Al <al@example.org>\nReply-To: <al.work@example.org>");
    assert_eq!(mail.from.as_deref(), Some("al@example.org"));
    assert_eq!(mail.reply_to.as_deref(), Some("al.work@example.org"));
    assert!(mail.refused.is_empty(), "{:?}", mail.refused);

    for from in [
        "\"a b\"@x.org",
        "Al <\"a b\"@x.org>",
        "<@relay.org:bob@x.org>",
        "nobody",
        "bob@[192.0.2.1]",
    ] {
        let mail = inbound(&format!("From: {from}"));
        assert_eq!(mail.from, None, "{from}");
        assert_eq!(mail.refused.len(), 1, "{from}: {:?}", mail.refused);
        let line = mail.refused[0].to_string();
        assert!(line.starts_with("From: "), "{line}");
        assert!(line.contains("is treated as no address"), "{line}");
        assert!(line.contains("is not an e-mail address"), "{line}");
    }

    let mail = inbound("From: al@example.org\nReply-To: \"a b\"@x.org");
    assert_eq!(mail.from.as_deref(), Some("al@example.org"));
    assert_eq!(mail.reply_to, None);
    assert_eq!(mail.refused[0].header, "Reply-To");

    let mail = inbound("To: yinsh@localhost");
    assert_eq!((mail.from, mail.reply_to), (None, None));
    assert!(mail.refused.is_empty(), "no header is not a refused one");
}

#[test]
fn signup_and_change_address_accept_only_what_can_be_mailed() {
    let mut s = TestServer::new();
    for (i, (text, accepted)) in ODD.iter().enumerate() {
        // A Subject is one line of words: only the texts that can be written there.
        if text.is_empty() || text.contains(char::is_whitespace) || text.contains('\0') {
            continue;
        }
        let r = s.send("Al <al@example.org>", &format!("signup u{i} pw {text}"), "");
        assert_eq!(r.len(), 1, "{text}: {r:?}");
        let local = text.parse::<Address>().is_ok_and(|a| a.is_local());
        if local {
            // A mailable address of this machine is never an account's (issue 25
            // finding 11: `accounts_attacks.rs`).
            assert_says(&r[0], "names this machine or a private network");
        } else if *accepted {
            // The new address, and the sender's when it differs.
            assert!(r[0].to.iter().any(|t| t == text), "{text}: {:?}", r[0].to);
            assert_says(&r[0], &format!("Your userid u{i} is registered"));
            let r = s.send(
                "Al <al@example.org>",
                &format!("change address u{i} pw al@example.org {text}"),
                "",
            );
            assert!(
                r.iter().any(|m| m.to.iter().any(|t| t == text)),
                "{text}: {r:?}"
            );
        } else {
            // The word itself is not quoted (it may be a password out of its place).
            assert_says(&r[0], "the 1st e-mail address is not one: ");
            assert!(
                !s.home().join(format!("accounts/u{i}.json")).exists(),
                "{text}"
            );
        }
    }
}

#[test]
fn a_mail_from_an_unusable_address_is_not_answered_there_and_the_log_says_why() {
    let mut s = TestServer::new();
    let raw = s.mail("\"a b\"@x.org", "signup carol pw", "");
    let r = s.send_raw(raw.as_bytes());
    assert!(
        r.iter().all(|m| m.to.iter().all(|t| t != "@x.org")),
        "{r:?}"
    );
    let log = s.log();
    assert!(
        log.contains(r#"From: "\"a b\"@x.org" is treated as no address"#),
        "{log}"
    );
    if let Ok(account) = std::fs::read_to_string(s.home().join("accounts/carol.json")) {
        assert!(!account.contains("@x.org"), "{account}");
    }

    // The same with a good Reply-To: answered there.
    let raw = format!(
        "Reply-To: Carol <carol@example.org>\n{}",
        s.mail("\"a b\"@x.org", "help", "")
    );
    let r = s.send_raw(raw.as_bytes());
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].to, ["carol@example.org"]);
}
