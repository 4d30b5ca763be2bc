//! Issue 26 items 1 and 11: replies to a board mail built the way Outlook (plain text,
//! German desktop, French web, iOS, `-----Original Message-----`), Gmail (Spanish,
//! Italian, Portuguese, Dutch), iPhone Mail (English, German, French), Yahoo (web,
//! Android) and Thunderbird (German) write them (`tests/data/replies/*.eml`), delivered
//! in-process: the move is played, the player's comment above the quote reaches the
//! opponent, and nothing the mail program added (the old board mail, its quote header,
//! "Sent from my iPhone") is passed on as a comment or marks a Subject with ` **`.

use std::path::PathBuf;

use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

/// Every reply shape of `tests/data/replies`.
const SHAPES: [&str; 15] = [
    "outlook-plain",
    "outlook-de",
    "outlook-web-fr",
    "outlook-ios",
    "outlook-original-message",
    "gmail-es",
    "gmail-it",
    "gmail-pt",
    "gmail-nl",
    "iphone",
    "iphone-de",
    "iphone-fr",
    "yahoo",
    "yahoo-android",
    "thunderbird-de",
];

/// A server with alice and bob playing board 101 (alice to move); their New Yinsh
/// Board mails.
pub fn game() -> (TestServer, Sent, Sent) {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let (a, b) = (to(&r, "alice@example.org"), to(&r, "bob@example.org"));
    (s, a, b)
}

/// The one mail of `replies` to `address`.
#[track_caller]
pub fn to(replies: &[Sent], address: &str) -> Sent {
    let mine: Vec<&Sent> = replies.iter().filter(|m| m.to == [address]).collect();
    assert_eq!(mine.len(), 1, "one mail to {address}: {replies:?}");
    mine[0].clone()
}

/// The reply shape `name` answering `m`, from `from`, with `typed` as what the
/// player wrote.
pub fn shaped(s: &TestServer, name: &str, from: &str, m: &Sent, typed: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/replies")
        .join(format!("{name}.eml"));
    let template = std::fs::read_to_string(&path).expect("a reply shape");
    let mut references: Vec<String> = m.references.iter().map(|r| format!("<{r}>")).collect();
    references.push(format!("<{}>", m.message_id));
    let quoted_gt: String = m
        .body
        .lines()
        .map(|l| {
            if l.is_empty() {
                ">\n".to_string()
            } else {
                format!("> {l}\n")
            }
        })
        .collect();
    let id = format!("{name}-{}-{}@client.example", s.now, s.outbox_files().len());
    template
        .replace("{{FROM}}", from)
        .replace("{{SUBJECT}}", &m.subject)
        .replace("{{MESSAGE_ID}}", &id)
        .replace("{{IN_REPLY_TO}}", &m.message_id)
        .replace("{{REFERENCES}}", &references.join("\n "))
        .replace("{{TYPED_HTML}}", &html_lines(typed))
        .replace("{{TYPED}}", typed)
        .replace("{{QUOTED_HTML}}", &html_lines(&m.body))
        .replace("{{QUOTED_GT}}", quoted_gt.trim_end())
        .replace("{{QUOTED}}", &m.body)
}

/// `text` as HTML lines: escaped, joined by `<br>`.
fn html_lines(text: &str) -> String {
    text.lines()
        .map(|l| {
            l.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect::<Vec<_>>()
        .join("<br>\n")
}

/// Issue 26 items 1 and 11: each program's reply plays its move; the comment written
/// above the quote reaches bob, and nothing below it (the old board, the quote
/// header, the phone's signature); no Subject is marked ` **` for a reply without a
/// comment.
#[test]
fn every_programs_reply_plays_the_move_and_passes_on_only_the_players_text() {
    for name in SHAPES {
        for (typed, comment) in [
            ("e5\n\nGood luck, Bob!", Some("Good luck, Bob!")),
            ("e5", None),
        ] {
            let (mut s, a, _) = game();
            let raw = shaped(&s, name, ALICE, &a, typed);
            let r = s.send_raw(raw.as_bytes());
            assert_eq!(
                s.game_file(101)["turns"].as_array().map(Vec::len),
                Some(1),
                "{name}: the move was played: {r:?}"
            );
            assert_eq!(r.len(), 2, "{name}: {r:?}");
            let b = to(&r, "bob@example.org");
            for m in &r {
                for added in [
                    "wrote",
                    "schrieb",
                    "écrit",
                    "escribió",
                    "scritto",
                    "escreveu",
                    "schreef",
                    "Sent from",
                    "Get Outlook",
                    "gesendet",
                    "Envoyé",
                    "From: YINSH",
                    "Von: YINSH",
                    "De : YINSH",
                    "Original Message",
                    "____",
                ] {
                    assert!(
                        !m.body.contains(added),
                        "{name}: {added:?} passed on to {:?}:\n{}",
                        m.to,
                        m.body
                    );
                }
            }
            match comment {
                Some(text) => assert_says(&b, &format!("alice writes:\n{text}\n")),
                None => {
                    assert!(!b.body.contains("alice writes"), "{name}: {}", b.body);
                    for m in &r {
                        assert!(!m.subject.contains("**"), "{name}: {}", m.subject);
                    }
                }
            }
        }
    }
}
