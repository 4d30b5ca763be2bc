//! Mail in and out. Here: the `.eml` corpus under `tests/data/mail` parsed field by
//! field, and the helpers the mail tests share (a reply to build, the sendmail script
//! and the retrying flush that `sending.rs` uses too). Built replies checked header
//! by header and parsed back byte-exact are in `outbound.rs`; the spool flushed
//! through the outbox, sendmail and SMTP transports in `spool.rs`.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use yinsh_pbem::mail::inbound::{InboundMail, parse_inbound};
use yinsh_pbem::mail::outbound::{MailSettings, OutgoingMail};
use yinsh_pbem::mail::spool::Spool;
use yinsh_pbem::mail::transport::{FlushOptions, Transport, flush};

mod outbound; // replies built header by header and parsed back byte-exact
mod spool; // the spool and its flush through outbox, sendmail and SMTP

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

// ---- shared by the outbound and spool tests ----

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
    // A generous cap: on a loaded machine another thread's fork may take long to exec.
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let report = flush(spool, transport, opts).expect("flush");
        if !report.failed.iter().any(|(_, why)| why.contains("busy")) {
            return report;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the sendmail script stayed busy for 60 s");
}
