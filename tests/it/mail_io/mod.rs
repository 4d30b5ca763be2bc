//! Mail in and out: the `.eml` corpus under `tests/data/mail` parsed field by field,
//! built replies checked header by header and parsed back byte-exact, and the spool
//! flushed through the outbox, sendmail and SMTP transports.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use yinsh_pbem::mail::inbound::{InboundMail, parse_inbound};
use yinsh_pbem::mail::outbound::{
    BuiltMail, MailSettings, OutboundError, OutgoingMail, build, new_message_id,
};
use yinsh_pbem::mail::spool::{Spool, SpoolError};
use yinsh_pbem::mail::transport::{FlushOptions, RETRY_FIRST, Transport, flush};

fn corpus(name: &str) -> InboundMail {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mail")
        .join(name);
    let raw = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_inbound(&raw).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every corpus mail: file, subject, comment, from, message id, as parsed.
const CORPUS: [(&str, &str, &str, &str, &str); 16] = [
    (
        "plain_lf.eml",
        "yinsh move 123 alice secret e5-e9",
        "Good luck!",
        "alice@example.org",
        "lf-1@example.org",
    ),
    (
        "plain_crlf.eml",
        "yinsh move 123 bob hunter2 b2-b5",
        "Your ring is trapped.\n\nSee you.",
        "bob@example.net",
        "crlf-2@example.net",
    ),
    // multipart/alternative: the text part, not the HTML one.
    (
        "alternative.eml",
        "yinsh show 77",
        "Plain text wins.",
        "carol@example.com",
        "alt-3@example.com",
    ),
    // multipart/mixed: attachments (base64 image, text file) are ignored.
    (
        "mixed_attachment.eml",
        "yinsh move 5 dave pw c3",
        "Picture of my board attached.",
        "dave@example.com",
        "mixed-4@example.com",
    ),
    (
        "quoted_printable.eml",
        "yinsh move 9 renee pw f6",
        "Très bien joué ! This line is long enough that a mail program would break it with a soft line break.\nA=B",
        "renee@example.fr",
        "qp-5@example.fr",
    ),
    (
        "base64_body.eml",
        "yinsh move 11 erik pw e5-e8",
        "Ring (o) at e5, marker x at f6.\nGrüße aus Köln.",
        "erik@example.de",
        "b64-6@example.de",
    ),
    (
        "encoded_subject_utf8.eml",
        "yinsh show 42 ✓ Zürich",
        "Salut.",
        "zoe@example.ch",
        "utf8b-7@example.ch",
    ),
    // ISO-8859-1 Q words over a folded line, with `AW:` inside the encoded word.
    (
        "encoded_subject_latin1.eml",
        "yinsh move 5 jürgen geheim a2",
        "Viel Erfolg.",
        "juergen@example.de",
        "latin1q-8@example.de",
    ),
    (
        "html_only.eml",
        "yinsh list",
        "Hello there,\nwhich games are open?",
        "fay@example.org",
        "html-9@example.org",
    ),
    (
        "re_fwd_tag.eml",
        "yinsh move 9 gus pw a1-a2",
        "ok",
        "gus@example.org",
        "tag-10@example.org",
    ),
    (
        "signature.eml",
        "yinsh move 3 hal pw g7",
        "Take that!",
        "hal@example.org",
        "sig-11@example.org",
    ),
    // Top-posted, attribution wrapped over two lines.
    (
        "quoted_reply.eml",
        "Yinsh board 123 move 7",
        "Nice one, I did not see that coming.",
        "ivy@example.org",
        "CAB+quoted-12@mail.example.org",
    ),
    // German attribution, interleaved quotes.
    (
        "quoted_reply_de.eml",
        "yinsh move 123 jan pw e5-e9",
        "Gemacht.\nJa.",
        "jan@example.de",
        "de-13@example.de",
    ),
    (
        "no_subject.eml",
        "",
        "help",
        "kim@example.org",
        "nosubj-14@example.org",
    ),
    (
        "latin1_body.eml",
        "yinsh move 2 lea pw d4",
        "Déjà vu, ça marche.",
        "lea@example.fr",
        "latin1-15@example.fr",
    ),
    (
        "outlook_original.eml",
        "yinsh move 123 max pw h8",
        "Here you go.",
        "max@example.com",
        "outlook-16@example.com",
    ),
];

#[test]
fn corpus_subject_comment_from_and_id() {
    for (name, subject, comment, from, id) in CORPUS {
        let mail = corpus(name);
        assert_eq!(mail.subject, subject, "{name}: subject");
        assert_eq!(mail.comment, comment, "{name}: comment");
        assert_eq!(mail.from.as_deref(), Some(from), "{name}: from");
        assert_eq!(mail.message_id.as_deref(), Some(id), "{name}: message id");
        assert!(!mail.body.contains('\r'), "{name}: body keeps CR");
    }
}

#[test]
fn corpus_plain_lf_other_fields() {
    let mail = corpus("plain_lf.eml");
    assert_eq!(mail.body, "Good luck!\n");
    assert_eq!(mail.return_path.as_deref(), Some("alice@example.org"));
    assert_eq!(mail.date, Some(1_717_408_800)); // 2024-06-03 10:00:00 UTC
    assert_eq!(mail.size, 294);
    assert_eq!(
        (mail.reply_to, mail.auto_submitted, mail.precedence),
        (None, None, None)
    );
    assert!(mail.references.is_empty() && mail.x_loop.is_empty() && mail.list_id.is_none());
}

#[test]
fn corpus_plain_crlf_every_loop_and_thread_header() {
    let mail = corpus("plain_crlf.eml");
    assert_eq!(mail.body, "Your ring is trapped.  \n\nSee you.\n\n\n");
    assert_eq!(mail.reply_to.as_deref(), Some("bob.work@example.com"));
    assert_eq!(mail.return_path.as_deref(), Some(""));
    assert_eq!(mail.auto_submitted.as_deref(), Some("no"));
    assert_eq!(mail.precedence.as_deref(), Some("bulk"));
    assert_eq!(mail.list_id.as_deref(), Some("yinsh-fans.example.net"));
    assert_eq!(mail.x_loop, ["someone@example.net", "other@example.net"]);
    assert_eq!(
        mail.references,
        ["board-123-1@localhost", "board-123-7@localhost"]
    );
    assert_eq!(mail.date, Some(1_717_504_200)); // 2024-06-04 12:30:00 UTC
}

#[test]
fn corpus_bodies_are_the_decoded_text_and_nothing_else() {
    assert!(!corpus("alternative.eml").body.contains("loses"));
    assert_eq!(
        corpus("mixed_attachment.eml").body,
        "Picture of my board attached."
    );
    assert_eq!(
        corpus("base64_body.eml").body,
        "Ring (o) at e5, marker x at f6.\nGrüße aus Köln.\n"
    );
    let html = corpus("html_only.eml").body;
    assert!(!html.contains('<') && !html.contains("color"), "{html}");
    let signed = corpus("signature.eml").body;
    assert!(
        signed.starts_with("\n\nTake that!\n\n-- \nHal Jordan"),
        "{signed}"
    );
    let quoted = corpus("quoted_reply.eml");
    assert_eq!(quoted.references, ["board-123-7@localhost"]);
    assert!(quoted.body.contains(">     7     .    (o)    .     ."));
}

#[test]
fn every_corpus_mail_parses_the_same_with_lf_and_crlf() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.expect("corpus entry").path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        let raw = fs::read(&path).expect("corpus file");
        let lf: Vec<u8> = String::from_utf8_lossy(&raw)
            .replace("\r\n", "\n")
            .into_bytes();
        let crlf = String::from_utf8_lossy(&lf)
            .replace('\n', "\r\n")
            .into_bytes();
        if raw.is_ascii() {
            let (a, b) = (
                parse_inbound(&lf).expect("lf"),
                parse_inbound(&crlf).expect("crlf"),
            );
            assert_eq!(
                (&a.subject, &a.comment, &a.from),
                (&b.subject, &b.comment, &b.from)
            );
            assert_eq!(
                (&a.message_id, &a.references, &a.date),
                (&b.message_id, &b.references, &b.date)
            );
        }
        seen += 1;
    }
    assert_eq!(seen, CORPUS.len(), "a corpus mail is missing from CORPUS");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parse_inbound_never_panics_on_bytes(raw in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = parse_inbound(&raw);
    }

    #[test]
    fn parse_inbound_never_panics_on_mail_like_text(
        head in "((Subject|From|To|Content-Type|Content-Transfer-Encoding|References|Date): [ -~]{0,40}\r?\n){0,6}",
        body in "[ -~\n=?<>-]{0,200}",
    ) {
        let raw = format!("{head}\n{body}");
        if let Ok(mail) = parse_inbound(raw.as_bytes()) {
            prop_assert_eq!(mail.size, raw.len());
        }
    }
}

// ---- outbound ----

fn settings() -> MailSettings {
    MailSettings {
        from: "YINSH PBeM <yinsh@localhost>".into(),
        loop_id: "yinsh@localhost".into(),
    }
}

/// 2024-06-03 10:00:00 UTC.
fn june_3() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_717_408_800)
}

const BOARD: &str = "                11
             10
          9     .     .
       8     .     .     .
    7     .     .     .     .
 6     .    (o)    .     .     .
          .     x     .     .
 5     .     .     o     .     .
    .    (x)    .     .     .     .
";

fn reply(body: &str) -> OutgoingMail {
    OutgoingMail {
        to: vec![
            "Alice Smith <alice@example.org>".into(),
            "bob@example.net".into(),
        ],
        subject: "Yinsh board 123: Jürgen to move".into(),
        body: body.into(),
        in_reply_to: Some("crlf-2@example.net".into()),
        references: vec![
            "board-123-1@localhost".into(),
            "<board-123-7@localhost>".into(),
        ],
        html: None,
    }
}

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

// ---- spool and transports ----

fn built(id: &str) -> BuiltMail {
    build(&reply(BOARD), &settings(), june_3(), id).expect("build")
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| !n.starts_with('.'));
    names.sort();
    names
}

#[test]
fn spool_put_is_idempotent_and_entries_come_oldest_first() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let first = spool.put(&built("z-first@localhost")).expect("put");
    // A second put of the same id, other bytes: the first entry is kept as it was.
    let mut other = built("z-first@localhost");
    other.bytes = b"other bytes\r\n".to_vec();
    let again = spool.put(&other).expect("put again");
    assert_eq!(first, again);
    spool.put(&built("a-second@localhost")).expect("put");
    spool.put(&built("m/third@localhost")).expect("put");
    let entries = spool.entries().expect("entries");
    let ids: Vec<&str> = entries.iter().map(|e| e.mail.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "z-first@localhost",
            "a-second@localhost",
            "m/third@localhost"
        ]
    );
    assert_eq!(entries[0].mail, built("z-first@localhost"));
    assert_eq!(
        names(spool.dir()),
        [
            "a-second@localhost.msg",
            "m%2Fthird@localhost.msg",
            "z-first@localhost.msg"
        ]
    );
    let raw = fs::read(&entries[0].path).expect("entry file");
    let first_line = raw.split(|&b| b == b'\n').next().unwrap_or_default();
    let header: serde_json::Value = serde_json::from_slice(first_line).expect("JSON header");
    assert_eq!(header["from"], "yinsh@localhost");
    assert_eq!(header["to"][1], "bob@example.net");
}

#[test]
fn flush_to_outbox_moves_each_mail_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let outbox = tmp.path().join("outbox");
    let mail = built("o-1@localhost");
    spool.put(&mail).expect("put");
    spool.put(&built("o-2@localhost")).expect("put");
    let entry_bytes = fs::read(spool.dir().join("o-1@localhost.msg")).expect("entry");

    let report = flush(&spool, &Transport::Outbox(outbox.clone()), &now()).expect("flush");
    assert_eq!((report.sent, report.failed.len()), (2, 0), "{report:?}");
    assert!(spool.entries().expect("entries").is_empty());
    assert_eq!(names(&outbox), ["o-1@localhost.eml", "o-2@localhost.eml"]);
    assert_eq!(
        fs::read(outbox.join("o-1@localhost.eml")).expect("eml"),
        mail.bytes
    );

    // A crash between send and removal leaves the entry: the next flush rewrites the
    // same outbox file instead of adding a copy.
    fs::write(spool.dir().join("o-1@localhost.msg"), entry_bytes).expect("restore entry");
    let report = flush(&spool, &Transport::Outbox(outbox.clone()), &now()).expect("flush again");
    assert_eq!(report.sent, 1);
    assert_eq!(names(&outbox), ["o-1@localhost.eml", "o-2@localhost.eml"]);
    assert_eq!(
        flush(&spool, &Transport::Outbox(outbox), &now())
            .expect("empty flush")
            .sent,
        0
    );
}

#[test]
fn a_damaged_entry_is_reported_and_kept_while_the_others_go() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    fs::write(spool.dir().join("junk.msg"), b"not a spool entry").expect("junk");
    spool.put(&built("ok@localhost")).expect("put");
    assert!(matches!(spool.entries(), Err(SpoolError::BadEntry { .. })));
    let report = flush(&spool, &Transport::Outbox(tmp.path().join("out")), &now()).expect("flush");
    assert_eq!(report.sent, 1);
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].0, "junk.msg");
    assert!(
        report.failed[0].1.contains("damaged"),
        "{:?}",
        report.failed
    );
    assert_eq!(names(spool.dir()), ["junk.msg"]);
}

/// A fixed time for the flushes that test waits after failures.
const T0: u64 = 1_795_384_020;

/// Flush options at the real time now.
fn now() -> FlushOptions<'static> {
    FlushOptions::at(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    )
}

/// Writes an executable shell script.
#[cfg(unix)]
pub(crate) fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let tmp = path.with_extension("new");
    fs::write(&tmp, format!("#!/bin/sh\n{body}\n")).expect("write script");
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).expect("chmod");
    fs::rename(&tmp, path).expect("place script");
}

/// Flushes, retrying while a script cannot start because another test thread's
/// fork still holds it open for writing (ETXTBSY, "Text file busy").
#[cfg(unix)]
pub(crate) fn flush_retrying(
    spool: &Spool,
    transport: &Transport,
    opts: &FlushOptions<'_>,
) -> yinsh_pbem::mail::FlushReport {
    for _ in 0..50 {
        let report = flush(spool, transport, opts).expect("flush");
        if !report.failed.iter().any(|(_, why)| why.contains("busy")) {
            return report;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the sendmail script stayed busy");
}

#[cfg(unix)]
#[test]
fn a_failing_sendmail_keeps_the_mail_until_a_later_flush_sends_it_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let mail = built("s-1@localhost");
    spool.put(&mail).expect("put");
    let prog = tmp.path().join("sendmail");
    script(&prog, "cat >/dev/null\necho 'mail system down' >&2\nexit 1");
    let transport = Transport::Sendmail(prog.clone());

    let report = flush_retrying(&spool, &transport, &FlushOptions::at(T0));
    assert_eq!(report.sent, 0);
    assert_eq!(report.failed.len(), 1, "{report:?}");
    assert_eq!(report.failed[0].0, "s-1@localhost");
    assert!(
        report.failed[0].1.contains("mail system down"),
        "{:?}",
        report.failed
    );
    assert_eq!(spool.entries().expect("entries").len(), 1);

    let log = tmp.path().join("log");
    script(
        &prog,
        &format!(
            "echo \"ARGS $*\" >>'{0}'\ncat >>'{0}'\necho END >>'{0}'",
            log.display()
        ),
    );
    // A later flush, once the mail's wait after its failure is over.
    let later = T0 + RETRY_FIRST.as_secs();
    let report = flush_retrying(&spool, &transport, &FlushOptions::at(later));
    assert_eq!((report.sent, report.failed.len()), (1, 0), "{report:?}");
    assert!(spool.entries().expect("entries").is_empty());
    assert_eq!(
        flush_retrying(&spool, &transport, &FlushOptions::at(later)).sent,
        0
    );

    let logged = fs::read_to_string(&log).expect("log");
    assert_eq!(logged.matches("ARGS ").count(), 1, "{logged}");
    assert!(
        logged.starts_with("ARGS -i -f yinsh@localhost -- alice@example.org bob@example.net\n"),
        "{logged}"
    );
    let lf = String::from_utf8(mail.bytes.clone())
        .expect("ascii")
        .replace("\r\n", "\n");
    assert!(logged.contains(&lf) && !logged.contains('\r'), "{logged}");
    let parsed = parse_inbound(lf.as_bytes()).expect("parse");
    assert_eq!(parsed.body, BOARD);
}

#[test]
fn a_bad_smtp_url_is_refused_without_showing_the_password() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(tmp.path()).expect("open");
    let err = flush(
        &spool,
        &Transport::Smtp("smtpx://al:s3cret@mail.example.org".into()),
        &now(),
    )
    .expect_err("bad scheme");
    let text = err.to_string();
    assert!(matches!(err, SpoolError::Transport { .. }), "{text}");
    assert!(
        text.contains("al:***@mail.example.org") && !text.contains("s3cret"),
        "{text}"
    );
}

#[test]
fn an_unreachable_smtp_server_keeps_every_mail_and_tries_only_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(tmp.path()).expect("open");
    spool.put(&built("u-1@localhost")).expect("put");
    spool.put(&built("u-2@localhost")).expect("put");
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    }; // closed again: connections are refused
    let report = flush(
        &spool,
        &Transport::Smtp(format!("smtp://127.0.0.1:{port}").into()),
        &now(),
    )
    .expect("flush");
    assert_eq!(report.sent, 0);
    let ids: Vec<&str> = report.failed.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["u-1@localhost", "u-2@localhost"]);
    assert!(
        report.failed[1].1.starts_with("not tried"),
        "{:?}",
        report.failed
    );
    assert_eq!(spool.entries().expect("entries").len(), 2);
}

/// A one-connection SMTP server on 127.0.0.1: accepts one mail, returns the
/// envelope lines and the DATA (dot-unstuffed, CRLF kept).
fn tiny_smtp_server(listener: TcpListener) -> std::thread::JoinHandle<(Vec<String>, Vec<u8>)> {
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        let mut out: TcpStream = stream.try_clone().expect("clone");
        let mut reader = BufReader::new(stream);
        let mut envelope = Vec::new();
        let mut data = Vec::new();
        out.write_all(b"220 tiny ESMTP\r\n").expect("greet");
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            let cmd = line.trim_end().to_ascii_uppercase();
            let answer: &[u8] = if cmd.starts_with("EHLO") || cmd.starts_with("HELO") {
                b"250 tiny\r\n"
            } else if cmd.starts_with("MAIL") || cmd.starts_with("RCPT") {
                envelope.push(line.trim_end().to_string());
                b"250 ok\r\n"
            } else if cmd == "DATA" {
                out.write_all(b"354 go on\r\n").expect("354");
                loop {
                    let mut raw = Vec::new();
                    reader.read_until(b'\n', &mut raw).expect("data line");
                    if raw == b".\r\n" || raw.is_empty() {
                        break;
                    }
                    let unstuffed = if raw.starts_with(b"..") {
                        &raw[1..]
                    } else {
                        &raw[..]
                    };
                    data.extend_from_slice(unstuffed);
                }
                b"250 queued\r\n"
            } else if cmd == "QUIT" {
                let _ = out.write_all(b"221 bye\r\n");
                break;
            } else {
                b"250 ok\r\n"
            };
            out.write_all(answer).expect("answer");
        }
        (envelope, data)
    })
}

#[test]
fn flush_over_smtp_delivers_the_exact_bytes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(tmp.path()).expect("open");
    let mut mail = reply(&format!("{BOARD}.\n..two dots\n"));
    mail.subject = "smtp".into();
    let mail = build(
        &mail,
        &settings(),
        june_3(),
        &new_message_id("localhost", "smtp"),
    )
    .expect("build");
    spool.put(&mail).expect("put");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let server = tiny_smtp_server(listener);
    let report = flush(
        &spool,
        &Transport::Smtp(format!("smtp://127.0.0.1:{port}").into()),
        &now(),
    )
    .expect("flush");
    // Unblocks the server's accept should the flush never have connected.
    let _ = TcpStream::connect(("127.0.0.1", port));
    let (envelope, data) = server.join().expect("server thread");
    assert_eq!((report.sent, report.failed.len()), (1, 0), "{report:?}");
    assert_eq!(
        envelope,
        [
            "MAIL FROM:<yinsh@localhost>",
            "RCPT TO:<alice@example.org>",
            "RCPT TO:<bob@example.net>"
        ]
    );
    assert_eq!(
        String::from_utf8_lossy(&data),
        String::from_utf8_lossy(&mail.bytes)
    );
    assert!(spool.entries().expect("entries").is_empty());
}

#[test]
fn spool_paths_stay_inside_the_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spool = Spool::open(&tmp.path().join("s")).expect("open");
    let mut evil = built("x@localhost");
    evil.id = "../../etc/passwd".into();
    let path: PathBuf = spool.put(&evil).expect("put");
    assert_eq!(path.parent(), Some(spool.dir()));
    assert_eq!(names(spool.dir()), ["%2E.%2F..%2Fetc%2Fpasswd.msg"]);
}
