//! Mail out: a built reply has every header (and no thread headers without a thread),
//! its body round-trips byte-exact through the inbound parser, bad addresses and ids
//! are clear errors, and no header can be injected through the subject or thread ids.

use yinsh_pbem::mail::outbound::{BuiltMail, OutboundError, build};

use super::*;

fn header_block(built: &BuiltMail) -> String {
    let text = String::from_utf8(built.bytes.clone()).expect("built mail is ASCII");
    text.split("\r\n\r\n")
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn built_mail_has_every_header() {
    let built = build(&reply("hi\n"), &settings(), june_3(), "r-1.123@localhost").expect("build");
    assert_eq!(built.id, "r-1.123@localhost");
    assert_eq!(built.envelope_from, "yinsh@localhost");
    assert_eq!(built.recipients, ["alice@example.org", "bob@example.net"]);
    let headers = header_block(&built);
    for want in [
        "From: \"YINSH PBeM\" <yinsh@localhost>\r\n",
        "To: \"Alice Smith\" <alice@example.org>, bob@example.net\r\n",
        "Date: Mon, 03 Jun 2024 10:00:00 +0000\r\n",
        "Message-ID: <r-1.123@localhost>\r\n",
        "In-Reply-To: <crlf-2@example.net>\r\n",
        "Auto-Submitted: auto-replied\r\n",
        "X-Loop: yinsh@localhost\r\n",
        "MIME-Version: 1.0\r\n",
        "Content-Type: text/plain; charset=utf-8\r\n",
    ] {
        assert!(headers.contains(want), "missing {want:?} in\n{headers}");
    }
    let parsed = parse_inbound(&built.bytes).expect("parse built");
    assert_eq!(parsed.subject, "Yinsh board 123: Jürgen to move");
    assert_eq!(parsed.message_id.as_deref(), Some("r-1.123@localhost"));
    assert_eq!(parsed.from.as_deref(), Some("yinsh@localhost"));
    assert_eq!(parsed.auto_submitted.as_deref(), Some("auto-replied"));
    assert_eq!(parsed.x_loop, ["yinsh@localhost"]);
    assert_eq!(parsed.date, Some(1_717_408_800));
    assert_eq!(
        parsed.references,
        [
            "board-123-1@localhost",
            "board-123-7@localhost",
            "crlf-2@example.net"
        ]
    );
}

#[test]
fn built_mail_without_thread_has_no_thread_headers() {
    let mut mail = reply("hi\n");
    mail.in_reply_to = None;
    mail.references.clear();
    let headers = header_block(&build(&mail, &settings(), june_3(), "a@b").expect("build"));
    assert!(
        !headers.contains("In-Reply-To") && !headers.contains("References"),
        "{headers}"
    );
}

#[test]
fn built_body_round_trips_byte_exact() {
    let long_line = "x".repeat(1200);
    let bodies = [
        BOARD.to_string(),
        format!(
            "{BOARD}\n{}\nAl writes:\nGrüße, ça va? ✓ 日本語\n",
            "*".repeat(60)
        ),
        "trailing spaces   \n\ttab\n.\n.leading dot\nFrom the start\n=3D not encoded\n".into(),
        format!("{long_line}\n{BOARD}"),
        "\n\nleading blank lines\n\n\n".into(),
        "\n".into(),
    ];
    for (i, body) in bodies.iter().enumerate() {
        let built = build(
            &reply(body),
            &settings(),
            june_3(),
            &format!("rt-{i}@localhost"),
        )
        .expect("build");
        assert!(built.bytes.is_ascii(), "body {i}: bytes are not 7-bit");
        let parsed = parse_inbound(&built.bytes).expect("parse built");
        assert_eq!(&parsed.body, body, "body {i} changed");
    }
    // A mail always ends with a line end: a body without one gets it.
    for body in ["no final line end", ""] {
        let built = build(&reply(body), &settings(), june_3(), "nl@x").expect("build");
        assert_eq!(
            parse_inbound(&built.bytes).expect("parse").body,
            format!("{body}\n")
        );
    }
}

#[test]
fn bad_addresses_and_ids_are_clear_errors() {
    let mut mail = reply("x");
    mail.to.push("not an address".into());
    let err = build(&mail, &settings(), june_3(), "a@b").expect_err("bad recipient");
    assert!(matches!(&err, OutboundError::BadRecipient { found, .. } if found == "not an address"));
    assert!(
        err.to_string()
            .contains("`not an address` is not a mail address"),
        "{err}"
    );

    let bad_from = MailSettings {
        from: "YINSH <yinsh@>".into(),
        ..settings()
    };
    let err = build(&reply("x"), &bad_from, june_3(), "a@b").expect_err("bad from");
    assert!(matches!(err, OutboundError::BadFrom { .. }), "{err}");

    let mut nobody = reply("x");
    nobody.to.clear();
    let err = build(&nobody, &settings(), june_3(), "a@b").expect_err("no recipient");
    assert!(matches!(err, OutboundError::NoRecipients { .. }), "{err}");

    for id in ["", "no-at", "<a@b>", "a b@c"] {
        let err = build(&reply("x"), &settings(), june_3(), id).expect_err("bad id");
        assert!(
            matches!(err, OutboundError::BadMessageId { .. }),
            "{id:?}: {err}"
        );
    }
    let bad_loop = MailSettings {
        loop_id: "a\r\nBcc: evil@x".into(),
        ..settings()
    };
    let err = build(&reply("x"), &bad_loop, june_3(), "a@b").expect_err("bad loop id");
    assert!(matches!(err, OutboundError::BadLoopId { .. }), "{err}");
}

#[test]
fn header_injection_through_subject_or_thread_ids_is_impossible() {
    let mut mail = reply("x\n");
    mail.subject = "yinsh\r\nBcc: evil@example.org".into();
    mail.in_reply_to = Some("a@b>\r\nBcc: evil@example.org".into());
    mail.references = vec!["c@d\r\nBcc: evil@example.org".into()];
    let built = build(&mail, &settings(), june_3(), "a@b").expect("build");
    let headers = header_block(&built);
    assert!(!headers.contains("\r\nBcc:"), "{headers}");
    assert!(
        !headers.contains("In-Reply-To") && !headers.contains("References"),
        "{headers}"
    );
    assert_eq!(built.recipients, ["alice@example.org", "bob@example.net"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_text_body_round_trips(body in "([ -~äöü✓\t]{0,100}\n|[ -~ä]{900,1100}\n|[.=> ]{0,4}From \n){1,8}") {
        let built = build(&reply(&body), &settings(), june_3(), "p@localhost").expect("build");
        let parsed = parse_inbound(&built.bytes).expect("parse built");
        prop_assert_eq!(parsed.body, body);
    }
}
