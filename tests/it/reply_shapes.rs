//! Issue 26 items 1 and 11: replies to a board mail built the way Outlook (plain text,
//! German desktop, French web, iOS, `-----Original Message-----`), Gmail (Spanish,
//! Italian, Portuguese, Dutch), iPhone Mail (English, German, French), Yahoo (web,
//! Android) and Thunderbird (German) write them (`tests/data/replies/*.eml`), delivered
//! in-process: the move is played, the player's comment above the quote reaches the
//! opponent, and nothing the mail program added (the old board mail, its quote header,
//! "Sent from my iPhone") is passed on as a comment or marks a Subject with ` **`.
//!
//! Issue 47 items 1 and 2, through the real binary: HTML-only replies whose lines are
//! block elements (Gmail's `<div>`s, Outlook on the web's `<p>`s, Apple Mail's), an
//! attribution broken over several lines (`Name` / `<address>` / `wrote:`, in English,
//! German, French) and the signatures of other phones and programs than the iPhone's
//! (Samsung, Outlook for Android, Mail for Windows).

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

/// The reply shapes of issue 47 items 1 and 2.
const ISSUE_47_SHAPES: [&str; 11] = [
    "gmail-html-divs",
    "gmail-html-bare-divs",
    "outlook-web-paras",
    "apple-html-divs",
    "wrapped-attribution",
    "wrapped-name",
    "wrapped-de",
    "wrapped-fr",
    "samsung-galaxy",
    "outlook-android",
    "windows-mail",
];

/// A server with alice and bob playing board 101 (alice to move); their New Yinsh
/// Board mails.
pub fn game() -> (TestServer, Sent, Sent) {
    game_on(TestServer::new())
}

/// [`game`] on the server `s`.
fn game_on(mut s: TestServer) -> (TestServer, Sent, Sent) {
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
        .replace("{{TYPED_DIVS}}", &html_blocks(typed, "div", 0))
        .replace("{{TYPED_BARE_DIVS}}", &html_blocks(typed, "div", 1))
        .replace("{{TYPED_PARAS}}", &html_blocks(typed, "p", 0))
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

/// `text` as HTML blocks `tag` (`<div>e5</div><div><br></div>...`, an empty line a
/// block holding a `<br>`), the first `bare` lines bare before them.
fn html_blocks(text: &str, tag: &str, bare: usize) -> String {
    let escape = |l: &str| {
        l.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    text.lines()
        .enumerate()
        .map(|(i, l)| match (i < bare, l.is_empty()) {
            (true, _) => escape(l),
            (false, true) => format!("<{tag}><br></{tag}>"),
            (false, false) => format!("<{tag}>{}</{tag}>", escape(l)),
        })
        .collect::<Vec<_>>()
        .join(if tag == "p" { "\n" } else { "" })
}

/// The comment of a board mail's text part: the lines after `alice writes:` up to a
/// blank line or the end.
fn comment_in(body: &str) -> Option<&str> {
    let (_, after) = body.split_once("alice writes:\n")?;
    Some(after.split("\n\n").next().unwrap_or(after).trim_end())
}

/// Issue 47 items 1 and 2, through the real binary: each shape's reply plays its
/// move (the first line the HTML's first block), and bob reads alice's comment,
/// exactly, with nothing of the attribution, however it is broken, nor of the
/// signature; a comment line starting with `wrote:` is alice's and reaches him.
#[test]
fn html_block_lines_broken_attributions_and_other_signatures_pass_on_only_the_players_text() {
    for name in ISSUE_47_SHAPES {
        for (typed, comment) in [
            ("e5\nhello there", Some("hello there")),
            ("e5\n\nwrote: nice game", Some("wrote: nice game")),
            ("e5", None),
        ] {
            let (mut s, a, _) = game_on(TestServer::with_binary());
            let raw = shaped(&s, name, ALICE, &a, typed);
            let r = s.send_raw(raw.as_bytes());
            let game = s.game_file(101);
            assert_eq!(
                game["turns"].as_array().map(Vec::len),
                Some(1),
                "{name} {typed:?}: the move was played: {r:?}"
            );
            assert_eq!(r.len(), 2, "{name}: {r:?}");
            let b = to(&r, "bob@example.org");
            for m in &r {
                for added in [
                    "<yinsh@localhost>",
                    "schrieb",
                    "écrit",
                    "Sent from",
                    "Galaxy",
                    "for Android",
                    "for Windows",
                    "Original message",
                    "From: YINSH",
                    "____",
                    "<div",
                    "<br",
                ] {
                    assert!(
                        !m.body.contains(added),
                        "{name}: {added:?} passed on to {:?}:\n{}",
                        m.to,
                        m.body
                    );
                }
            }
            assert_eq!(
                comment_in(&b.body),
                comment,
                "{name} {typed:?}:\n{}",
                b.body
            );
        }
    }
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
